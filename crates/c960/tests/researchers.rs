//! What researchers read is right (issue 29, "Researchers"): a refused run
//! leaves its directory as it was, a resumed run keeps its stage times, a
//! run directory refuses other settings, behaviour and documentation of
//! the draw adjudication agree, the progress and summary say what
//! happened, and errors name what was wrong in one line. Each test is
//! named after its defect and fails without the fix.

use crate::util;

use std::{fs, path::Path};

use util::{Dir, fake_engine, run_command};

/// The names under `dir`, sorted, or `None` when it does not exist.
fn listing(dir: &Path) -> Option<Vec<String>> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .ok()?
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Some(names)
}

#[test]
fn a_refused_sweep_leaves_its_directory_as_it_was() {
    let dir = Dir::new();
    let engine = fake_engine();
    let sweep = |out: &str, limit: [&str; 2], mode: &str| {
        let mut command = dir.command(&[
            "sweep",
            "--engine",
            engine.to_str().unwrap(),
            limit[0],
            limit[1],
            "--positions",
            "0-1",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            out,
        ]);
        command.env("C960_FAKE_UCI", mode);
        run_command(command)
    };
    // Refused for its limit (as Debian's Ethereal 12 is with --nodes), the
    // corrected command then runs: no journal of the refused one is left
    // to refuse it.
    let refused = sweep("new", ["--nodes", "50000"], "--ignore-nodes");
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert_eq!(listing(&dir.file("new")), None);
    let run = sweep("new", ["--depth", "3"], "--ignore-nodes");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A directory that was there keeps exactly what it held.
    fs::create_dir(dir.file("mine")).unwrap();
    fs::write(dir.file("mine/notes.txt"), "mine").unwrap();
    for mode in ["--ignore-nodes", "--not-uci", "--no-chess960"] {
        let refused = sweep("mine", ["--nodes", "50000"], mode);
        assert_ne!(refused.code, 0, "{mode}: {}", refused.stderr);
        assert_eq!(
            listing(&dir.file("mine")),
            Some(vec!["notes.txt".to_owned()]),
            "{mode}"
        );
    }
    // An engine that is not there: no empty run directory.
    let missing = dir.run(&[
        "sweep",
        "--engine",
        "no-such-engine",
        "--out",
        "gone",
        "--quiet",
    ]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert_eq!(listing(&dir.file("gone")), None);
}

#[test]
fn a_refused_self_play_leaves_its_directory_as_it_was() {
    let dir = Dir::new();
    let engine = fake_engine();
    let mut command = dir.command(&[
        "selfplay",
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "50000",
        "--positions",
        "0",
        "--games-per-position",
        "2",
        "--quiet",
        "--out",
        "sp",
    ]);
    command.env("C960_FAKE_UCI", "--ignore-nodes");
    let run = run_command(command);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(listing(&dir.file("sp")), None);
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_resumed_run_keeps_its_stage_times_and_refuses_other_settings() {
    let dir = Dir::new();
    let args = [
        "run",
        "--engine",
        "builtin",
        "--positions",
        "0-2",
        "--sweep-nodes",
        "500",
        "--games",
        "1",
        "--selfplay-nodes",
        "200",
        "--jobs",
        "1",
        "--out",
        "r",
    ];
    let run = |args: &[&str]| {
        let run = dir.run(args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let first = run(&args);
    let record = json(&dir.file("r/run.json"));
    let manifests =
        ["r/sweep/manifest.json", "r/selfplay/manifest.json"].map(|m| json(&dir.file(m)));
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = run(&args);
    assert!(!first.contains("(this run"), "{first}");
    assert!(
        second.contains("(this run; the run took"),
        "the summary says what it timed: {second}"
    );
    let again = json(&dir.file("r/run.json"));
    assert_eq!(
        again["stages"], record["stages"],
        "original stage times kept"
    );
    assert_eq!(again["finished"], record["finished"]);
    let resumptions = again["resumptions"].as_array().unwrap();
    assert_eq!(resumptions.len(), 1, "{again}");
    assert_eq!(resumptions[0]["stages"].as_array().unwrap().len(), 4);
    for (path, before) in ["r/sweep/manifest.json", "r/selfplay/manifest.json"]
        .iter()
        .zip(&manifests)
    {
        let after = json(&dir.file(path));
        for key in ["started", "finished"] {
            assert_eq!(after[key], before[key], "{path} {key}");
        }
    }
    // Other settings are refused before anything is written.
    let index = fs::read(dir.file("r/report/index.html")).unwrap();
    let mut none = args.to_vec();
    none[8] = "0";
    none.push("--quiet");
    let line = dir.bad_input(&none);
    assert!(line.contains("other settings"), "{line}");
    assert!(line.contains("selfplay.games: 1 there, 0 now"), "{line}");
    assert_eq!(fs::read(dir.file("r/report/index.html")).unwrap(), index);
    assert_eq!(json(&dir.file("r/run.json")), again);
}

/// The draw adjudication as help and the researcher's guide say it, and as it behaves:
/// with the defaults a game is drawn at ply 80 when plies 69 to 80 were
/// within the bound (the plies counted begin before ply 80). The sentence
/// is made from the defaults, so changing the rule or the defaults without
/// the text fails here.
#[test]
fn draw_adjudication_behaves_as_help_and_readme_say() {
    use c960_engine::Score;
    use c960_selfplay::{Outcome, Rules, Termination, adjudicate};
    let rules = Rules::default();
    let (after, plies, cp) = (rules.draw_after_ply, rules.draw_plies, rules.draw_cp);
    let first = after - plies + 1;
    let sentence =
        format!("drawn at ply {after} if plies {first} to {after} were all within {cp} cp");
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = Dir::new().ok(&["selfplay", "--help"]);
    assert!(words(&help).contains(&sentence), "{help}");
    let readme = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/researcher.md"
    ))
    .unwrap();
    assert!(
        words(&readme).contains(&sentence),
        "docs/researcher.md: {sentence}"
    );
    // The behaviour the sentence states.
    let level = |n: u32| vec![Score::Cp(0); n as usize];
    let draw = Some((Outcome::Draw, Termination::DrawAdjudication));
    let mut played = vec![Score::Cp(cp + 40); (first - 1) as usize];
    played.extend(level(plies));
    assert_eq!(played.len(), after as usize);
    assert_eq!(adjudicate(&rules, &played), draw, "at ply {after}");
    played[(first - 1) as usize] = Score::Cp(cp + 1);
    assert_eq!(
        adjudicate(&rules, &played),
        None,
        "ply {first} out of bounds"
    );
    assert_eq!(
        adjudicate(&rules, &level(after - 1)),
        None,
        "before ply {after}"
    );
}

#[test]
fn the_report_table_has_every_feature_column_of_positions_csv() {
    let dir = Dir::new();
    dir.ok(&["positions", "--out", "positions.csv"]);
    dir.ok(&["report", "--out", "site", "--quiet"]);
    let csv = fs::read_to_string(dir.file("positions.csv")).unwrap();
    let features: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let table = util::read_parquet(&dir.file("site/positions.parquet"));
    let columns: Vec<String> = table
        .get_column_names()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        &columns[..features.len()],
        &features[..],
        "in the same order"
    );
    let report_csv = fs::read_to_string(dir.file("site/positions.csv")).unwrap();
    assert!(report_csv.starts_with(csv.lines().next().unwrap()));
}

#[test]
fn a_four_field_epd_fen_is_accepted_where_a_fen_is() {
    let dir = Dir::new();
    let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let out = dir.ok(&["show", epd]);
    assert!(out.starts_with("SP 518"), "{out}");
    let line = dir.bad_input(&["show", &format!("{epd} 0")]);
    assert!(line.contains("found 5"), "{line}");
}

/// Errors in one line, naming the file, with exit status 2 for bad input:
/// `--out` naming a file, a `--balance` table without verdicts, and an
/// unwritable PNG path (exit 1, without the encoder's error chain).
#[test]
fn errors_name_what_was_wrong_in_one_line() {
    let dir = Dir::new();
    fs::write(dir.file("afile"), "mine").unwrap();
    for args in [
        vec![
            "sweep",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--nodes",
            "100",
        ],
        vec![
            "selfplay",
            "--engine",
            "builtin",
            "--positions",
            "0",
            "--nodes",
            "100",
        ],
        vec!["report"],
        vec!["run", "--engine", "builtin", "--positions", "0"],
    ] {
        let mut args = args;
        args.extend(["--out", "afile", "--quiet"]);
        let line = dir.bad_input(&args);
        assert!(
            line.contains("afile is a file, not a directory")
                || line.contains("afile: it is not a directory"),
            "{line}"
        );
    }
    let line = dir.bad_input(&["report", "--out", "afile/site", "--quiet"]);
    assert!(line.contains("afile is a file, not a directory"), "{line}");
    assert_eq!(fs::read_to_string(dir.file("afile")).unwrap(), "mine");

    dir.ok(&["positions", "--out", "p.csv"]);
    for args in [
        vec!["draw", "--seed", "1"],
        vec!["tournament", "--phrase", "Club Open", "--out", "kit"],
    ] {
        let mut args = args;
        args.extend(["--verdict", "balanced", "--balance", "p.csv"]);
        let line = dir.bad_input(&args);
        assert!(
            line.contains("p.csv") && line.contains("has no verdict column"),
            "{line}"
        );
        assert!(!line.contains("not found: "), "{line}");
    }

    let line = dir.bad_input(&["show", "518", "--format", "png", "--out", "nodir/x.png"]);
    assert_eq!(
        line,
        "c960: error: --out nodir/x.png: the directory nodir does not exist"
    );
}

#[test]
fn a_refused_c960_run_leaves_its_directory_as_it_was() {
    let dir = Dir::new();
    let engine = fake_engine();
    let run = |engine: &str| {
        let mut command = dir.command(&[
            "run",
            "--engine",
            engine,
            "--positions",
            "0-1",
            "--sweep-nodes",
            "50000",
            "--games",
            "0",
            "--out",
            "r",
            "--quiet",
        ]);
        command.env("C960_FAKE_UCI", "--ignore-nodes");
        run_command(command)
    };
    let refused = run(engine.to_str().unwrap());
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert_eq!(listing(&dir.file("r")), None);
    // Another engine in the same directory is not refused for the plan of
    // the run that did nothing.
    let builtin = run("builtin");
    assert_eq!(builtin.code, 0, "{}", builtin.stderr);
}
