//! `c960 report`: the table, charts and static site, from the published
//! sweep and from features alone.

use crate::util;

use std::{
    fs,
    path::{Path, PathBuf},
};

use util::Dir;

fn published_sweep() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn a_report_from_the_published_sweep() {
    let dir = Dir::new();
    let sweep = published_sweep();
    let out = dir.ok(&["report", "--sweep", &sweep, "--out", "site"]);
    assert!(
        out.starts_with("report for 960 positions from 1 run: 962 pages"),
        "{out}"
    );
    let index = fs::read_to_string(dir.file("site/index.html")).unwrap();
    assert_eq!(index.matches("<tr><td><a href=\"positions/").count(), 960);
    assert!(index.contains("<script src=\"table.js\" defer></script>"));
    assert!(
        !index.contains("http://") && !index.contains("https://"),
        "no network"
    );
    for chart in ["advantage", "histogram", "by-weak-pawns", "mirror-twins"] {
        let svg = dir.file(&format!(
            "site/charts/{chart}-sweep_stockfish_15_1_nodes_1000000_mpv3.svg"
        ));
        assert!(
            fs::read_to_string(&svg).unwrap().starts_with("<svg"),
            "{chart}"
        );
        assert!(
            index.contains(&format!("charts/{chart}-sweep")),
            "{chart} shown on the index"
        );
    }
    assert!(dir.file("site/charts/weak-pawns-by-file.png").is_file());
    let page = fs::read_to_string(dir.file("site/positions/518.html")).unwrap();
    assert!(page.contains("SP 518 <span class=\"mono\">RNBQKBNR</span>"));
    assert!(
        page.contains("31 cp, WDL 42/956/2"),
        "the engine score of SP 518"
    );
    assert!(
        page.contains("<a href=\"534.html\">SP 534</a>"),
        "mirror twin link"
    );
    assert!(page.contains("class=\"weak\""), "f2/f7 marked as weak");
    assert_eq!(page.matches("class=\"castle-target\"").count(), 4);
    // Each page with its diagram and table row beside it.
    assert_eq!(
        fs::read_dir(dir.file("site/positions")).unwrap().count(),
        3 * 960
    );
    let fair = fs::read_to_string(dir.file("site/fair.html")).unwrap();
    // Most balanced first: SP 270 scores +1.
    let first_row = fair
        .lines()
        .find(|l| l.starts_with("<tr data-weak"))
        .unwrap();
    assert!(first_row.contains("positions/270.html"), "{first_row}");
    // Issue 29: the page says in one sentence what its ranking means, and
    // the reference of balance is the organizer's choice, equal chances
    // by default.
    assert!(fair.contains(
        "Rank 1 is the position whose engine score (<code>sweep_stockfish_15_1_nodes_1000000_mpv3</code>) is closest to <span id=\"reference-words\">equal chances (0 cp, or a score of 50%)</span>"
    ));
    for reference in ["equal", "typical", "classical"] {
        assert!(
            fair.contains(&format!("<option value=\"{reference}\"")),
            "{reference}"
        );
    }
    assert!(fair.contains("(default)</option>"));
    let csv = fs::read_to_string(dir.file("site/positions.csv")).unwrap();
    assert_eq!(csv.lines().count(), 961);
}

#[test]
fn a_report_with_self_play_games() {
    let dir = Dir::new();
    let sweep = published_sweep();
    dir.ok(&[
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "300",
        "--positions",
        "0-5,518",
        "--games-per-position",
        "4",
        "--max-plies",
        "60",
        "--out",
        "games",
        "--quiet",
    ]);
    let out = dir.ok(&[
        "report",
        "--sweep",
        &sweep,
        "--selfplay",
        "games",
        "--out",
        "site",
    ]);
    assert!(
        out.starts_with("report for 960 positions from 2 runs"),
        "{out}"
    );
    let label = "selfplay_c960_builtin";
    let index = fs::read_to_string(dir.file("site/index.html")).unwrap();
    for chart in [
        "selfplay-score-",
        "selfplay-castling-",
        "selfplay-castling-timing-",
        "engine-vs-selfplay-sweep_stockfish_15_1_nodes_1000000_mpv3-",
        "castling-opportunities",
        "by-castling-sweep",
        "by-castling-blockers-sweep",
        "first-move-concentration-sweep_stockfish_15_1_nodes_1000000_mpv3-",
    ] {
        assert!(
            index.contains(&format!("charts/{chart}")),
            "{chart} on the index"
        );
    }
    let names: Vec<String> = fs::read_dir(dir.file("site/charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let scatter = names
        .iter()
        .find(|n| {
            n.starts_with("engine-vs-selfplay-") && Path::new(n).extension() == Some("svg".as_ref())
        })
        .unwrap();
    assert!(scatter.contains(label), "{scatter}");
    let text = fs::read_to_string(dir.file(&format!("site/charts/{scatter}"))).unwrap();
    assert!(
        text.contains("7 positions"),
        "one point per position with games"
    );
    assert!(text.contains("Pearson r = "));
    // The position page has the games, their endings and castling, and
    // the engine's three best first moves.
    let page = fs::read_to_string(dir.file("site/positions/518.html")).unwrap();
    assert!(page.contains("over 4 games"), "self-play on the page");
    assert!(page.contains("how games ended"));
    assert!(page.contains("castled (share of games)"));
    assert!(page.contains("best first moves"));
    // Its openings: first moves with shares, the engine's choice beside.
    assert!(
        page.contains("<h2>Openings in self-play"),
        "opening tree on the page"
    );
    assert!(page.contains("4 games. First moves played"));
    assert!(page.contains("The engine's best first move: <b>"));
    assert!(index.contains("most played first move"));
    let csv = fs::read_to_string(dir.file("site/positions.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    first_moves_table(&dir);
    for column in ["__first_move,", "__first_move_share,", "__first_moves"] {
        assert!(header.contains(column), "{column} in {header}");
    }
    // fair.html: self-play beside the engine score, intervals included.
    let fair = fs::read_to_string(dir.file("site/fair.html")).unwrap();
    assert!(fair.contains("self-play White score"));
    assert!(fair.contains("<th data-type=\"text\">95% trinomial interval</th>"));
    let with_games = fair
        .lines()
        .filter(|l| l.starts_with("<tr data-weak") && l.contains('%'))
        .count();
    assert_eq!(with_games, 7, "rows with a self-play score");
}

#[test]
fn a_report_from_features_alone() {
    let dir = Dir::new();
    dir.ok(&["report", "--out", "features", "--quiet"]);
    let index = fs::read_to_string(dir.file("features/index.html")).unwrap();
    assert!(index.contains("Static features only"));
    assert_eq!(index.matches("<tr><td><a href=").count(), 960);
    let fair = fs::read_to_string(dir.file("features/fair.html")).unwrap();
    assert!(fair.contains("needs an engine sweep"));
}

#[test]
fn wrong_or_missing_runs_are_one_line_errors() {
    let dir = Dir::new();
    let sweep = published_sweep();
    assert!(
        dir.bad_input(&["report", "--selfplay", &sweep])
            .contains("holds a sweep (give it with --sweep)")
    );
    assert!(
        dir.bad_input(&["report", "--sweep", "no/such/run"])
            .contains("no manifest.json")
    );
    assert!(
        dir.bad_input(&["report", "--sweep", &sweep, "--sweep", &sweep])
            .contains("same provenance")
    );
}

/// The report's first-move table: every first move per position, with the
/// engine's choice beside it.
fn first_moves_table(dir: &Dir) {
    let name = fs::read_dir(dir.file("site"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| {
            n.starts_with("first-moves-selfplay_c960_builtin") && n.ends_with("nodes_300.csv")
        })
        .expect("a first-moves table for the self-play run");
    let first = fs::read_to_string(dir.file(&format!("site/{name}"))).unwrap();
    let header_row = first.lines().next().unwrap();
    assert!(
        header_row.starts_with("sp,placement,move_uci,move_san,games,share,"),
        "{header_row}"
    );
    assert!(header_row.ends_with(",engine_best_move"), "{header_row}");
    let per_position: usize = first
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("518,"))
        .map(|l| l.split(',').nth(4).unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(per_position, 4, "SP 518's four games, by first move");
}
