//! The report in a real browser: headless Chromium (Debian package
//! `chromium`) opens the pages from disk, runs their script, and is asked
//! for the resulting DOM. CI installs Chromium; without it this test fails
//! and says how to install it.

use crate::util;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use util::{Dir, console_errors, headless};

#[test]
fn the_report_works_in_headless_chromium() {
    let dir = Dir::new();
    let sweep = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    dir.ok(&[
        "report",
        "--sweep",
        sweep.to_str().unwrap(),
        "--out",
        "site",
        "--quiet",
    ]);
    let site = dir.file("site");
    let profile = dir.file("profile");

    // Column 8 is the sweep's score: sorted descending, SP 794 (+85) leads.
    let index = format!("file://{}/index.html#sort=8-desc", site.display());
    let (dom, stderr) = headless(&profile, &index, &["--dump-dom"]);
    assert!(
        dom.contains("<table id=\"positions\""),
        "no DOM from {index}:\n{stderr}"
    );
    let body = &dom[dom.find("<tbody>").unwrap()..dom.find("</tbody>").unwrap()];
    assert_eq!(body.matches("<tr>").count(), 960, "960 table rows");
    let first = &body[..body.find("</tr>").unwrap()];
    assert!(
        first.contains("positions/794.html"),
        "sorted by score, highest first: {first}"
    );
    assert!(dom.contains("960 of 960 positions"), "the page script ran");
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );

    // Ascending: the lowest score first (SP 17, -2).
    let ascending = format!("file://{}/index.html#sort=8", site.display());
    let (dom, _) = headless(&profile, &ascending, &["--dump-dom"]);
    let body = &dom[dom.find("<tbody>").unwrap()..];
    let first = &body[..body.find("</tr>").unwrap()];
    assert!(first.contains("positions/17.html"), "{first}");

    let page = format!("file://{}/positions/91.html", site.display());
    let (dom, stderr) = headless(&profile, &page, &["--dump-dom"]);
    assert!(dom.contains("<svg class=\"board\""), "{stderr}");
    assert_eq!(
        dom.matches("class=\"weak\"").count(),
        6,
        "a2 b2 e2 and a7 b7 e7 ringed"
    );
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );

    // A screenshot of the index, kept under target/ for CI.
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-index.png");
    let _ = std::fs::remove_file(&shot);
    let (_, stderr) = headless(
        &profile,
        &format!("file://{}/index.html", site.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    assert!(png.starts_with(b"\x89PNG"));
}

/// A DFRC report in `dir` (`site`) of a small built-in sweep (`run`).
pub(crate) fn dfrc_site(dir: &Dir) -> PathBuf {
    dir.ok(&[
        "sweep",
        "--variant",
        "dfrc",
        "--positions",
        "sample:60:5,symmetric",
        "--engine",
        "builtin",
        "--nodes",
        "300",
        "--repeats",
        "2",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        "run",
    ]);
    dir.ok(&["report", "--sweep", "run", "--out", "site", "--quiet"]);
    dir.file("site")
}

#[test]
fn the_dfrc_report_works_in_headless_chromium() {
    let dir = Dir::new();
    let site = dfrc_site(&dir);
    let profile = dir.file("profile");
    // Column 5 of the setup tables is White's advantage: sorted by it,
    // highest first, by the page script.
    let index = format!("file://{}/index.html#sort=5-desc", site.display());
    let (dom, stderr) = headless(&profile, &index, &["--dump-dom"]);
    assert!(
        dom.contains("<h1>Double Fischer Random Chess"),
        "no DOM from {index}:\n{stderr}"
    );
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );
    let least = &dom[dom.find("<h4>Least balanced</h4>").unwrap()..];
    let body = &least[least.find("<tbody>").unwrap()..least.find("</tbody>").unwrap()];
    let scores: Vec<f64> = body
        .split("<tr>")
        .skip(1)
        .map(|row| {
            let cell = row.split("<td").nth(6).unwrap();
            let text = &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
            text.parse()
                .unwrap_or_else(|e| panic!("{text:?} is not a score: {e}"))
        })
        .collect();
    assert_eq!(scores.len(), 15, "15 least balanced setups");
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "sorted by the script, highest first: {scores:?}"
    );
    // Every chart the page shows is there.
    for src in dom.split("<img src=\"").skip(1) {
        let file = &src[..src.find('"').unwrap()];
        assert!(site.join(file).exists(), "{file}");
    }
    assert!(dom.matches("<img src=\"charts/").count() >= 7);
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-dfrc-index.png");
    let _ = std::fs::remove_file(&shot);
    let (_, stderr) = headless(
        &profile,
        &format!("file://{}/index.html", site.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    assert!(png.starts_with(b"\x89PNG"));
}

/// The `href` of the first link in `html` with `marker` in its tag.
fn href_of(html: &str, marker: &str) -> String {
    let tag = &html[html.find(marker).unwrap_or_else(|| panic!("no {marker}"))..];
    let tag = &tag[..tag.find('>').unwrap()];
    let start = tag.find("href=\"").unwrap() + 6;
    tag[start..start + tag[start..].find('"').unwrap()].to_owned()
}

/// A report over the published sweep and a small self-play run.
pub(crate) fn site_with_games(dir: &Dir) -> PathBuf {
    let sweep = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    dir.ok(&[
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "300",
        "--positions",
        "0-11,518",
        "--games-per-position",
        "14",
        "--max-plies",
        "60",
        "--out",
        "games",
        "--quiet",
    ]);
    dir.ok(&[
        "report",
        "--sweep",
        sweep.to_str().unwrap(),
        "--selfplay",
        "games",
        "--out",
        "site",
        "--quiet",
    ]);
    dir.file("site")
}

#[test]
fn index_charts_name_their_points_and_link_to_the_positions() {
    let dir = Dir::new();
    let site = site_with_games(&dir);
    let profile = dir.file("profile");
    // Index: the per-position charts carry linked points named by position.
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<svg class=\"hotspots\""),
        "no explorable chart"
    );
    let spot = &index[index.find("<a href=\"positions/").unwrap()..];
    let spot = &spot[..spot.find("</a>").unwrap()];
    let sp: u16 = spot["<a href=\"positions/".len()..spot.find(".html").unwrap()]
        .parse()
        .unwrap();
    assert!(spot.contains(&format!("<title>SP {sp} ")), "{spot}");
    // The link opens that position's page.
    let (dom, stderr) = headless(
        &profile,
        &format!("file://{}/positions/{sp}.html", site.display()),
        &["--dump-dom"],
    );
    assert!(dom.contains(&format!("<h1>SP {sp} ")), "{stderr}");
    let (dom, stderr) = headless(
        &profile,
        &format!("file://{}/index.html", site.display()),
        &["--dump-dom"],
    );
    assert!(dom.contains("svg class=\"hotspots\""), "{stderr}");
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );
}

#[test]
fn position_pages_offer_their_downloads() {
    let dir = Dir::new();
    let site = site_with_games(&dir);
    let profile = dir.file("profile");
    // A position page: facts, castling in words, and four downloads.
    let url = format!("file://{}/positions/518.html", site.display());
    let (dom, stderr) = headless(
        &profile,
        &url,
        &["--dump-dom", "--virtual-time-budget=5000"],
    );
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );
    assert!(
        dom.contains("SP 518 (RNBQKBNR) has 1 weak pawn on each side"),
        "{dom}"
    );
    assert!(dom.contains("rates it +"), "the engine's view in the facts");
    assert!(dom.contains("games (engine self-play) White scored"));
    assert!(dom.contains(
        "White: a-side castling (king to the c-file), <span class=\"nobr\">O-O-O</span>"
    ));
    // The diagram and the table row are files beside the page.
    assert_eq!(href_of(&dom, "download=\"SP-518.svg\""), "518.svg");
    let svg = std::fs::read_to_string(site.join("positions/518.svg")).unwrap();
    assert!(svg.starts_with("<svg class=\"board\""), "{svg}");
    let png = href_of(&dom, "download=\"SP-518.png\"");
    assert!(
        png.starts_with("data:image/png;base64,"),
        "the page script drew the PNG: {png:.60}"
    );
    assert_eq!(href_of(&dom, "download=\"SP-518.json\""), "518.json");
    let json = std::fs::read_to_string(site.join("positions/518.json")).unwrap();
    let row: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(row["sp"], 518);
    assert_eq!(row["placement"], "RNBQKBNR");
    assert_eq!(href_of(&dom, "href=\"518.pgn\""), "518.pgn");
    // The PGN: a sample of at most 10 of the 14 games, every one readable.
    let pgn = std::fs::read_to_string(site.join("positions/518.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 10);
    assert!(pgn.contains("[Variant \"Chess960\"]"));
    assert!(!pgn.contains("unreadable move"));
    assert_eq!(
        games_python_chess_reads(&site.join("positions/518.pgn")),
        10
    );
    // Phone width: a screenshot of the index kept under target/ for a look.
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-index-phone.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &profile,
        &format!("file://{}/index.html", site.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=390,1600",
        ],
    );
    assert!(std::fs::read(&shot).unwrap().starts_with(b"\x89PNG"));
}

/// How many games python-chess reads from a PGN file without errors.
fn games_python_chess_reads(pgn: &Path) -> usize {
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let check = Command::new(&python)
        .args([
            "-c",
            "import chess.pgn, sys\nn = 0\nf = open(sys.argv[1])\nwhile (g := chess.pgn.read_game(f)) is not None:\n    assert not g.errors, g.errors\n    n += 1\nprint(n)",
        ])
        .arg(pgn)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e} (needs python-chess)"));
    String::from_utf8_lossy(&check.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&check.stderr)))
}

/// A script that measures a page's layout once it has loaded and writes
/// the result into the page as JSON (`<pre id="layout-check">`), for
/// `--dump-dom` to read: the viewport's width and the page's, the
/// elements that stick out to the right, the castling notations
/// (`.nobr`) that break across lines, and the diagram's legend.
const LAYOUT_CHECK: &str = r#"<script>
window.addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const report = {
    width,
    scroll: document.documentElement.scrollWidth,
    nobr: document.querySelectorAll(".nobr").length,
    broken: Array.from(document.querySelectorAll(".nobr"))
      .filter((e) => e.getClientRects().length > 1)
      .map((e) => e.textContent),
    outside: Array.from(document.querySelectorAll("body *"))
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1;
      })
      .map((e) => e.tagName + "." + e.getAttribute("class")),
    // Words of table cells that wrap inside themselves (one letter a
    // line on a phone), not at a space, a dash or a slash.
    split: Array.from(document.querySelectorAll("th, td")).flatMap((cell) => {
      const found = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(/[^\s\u00a0\-\u2013\u2014/]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          if (range.getClientRects().length > 1) found.push(m[0]);
        }
      }
      return found;
    }),
    legend: Array.from(document.querySelectorAll("svg.board .legend text")).map((t) => t.textContent),
    legendInside: Array.from(document.querySelectorAll("svg.board .legend")).every((g) => {
      const svg = g.closest("svg").getBoundingClientRect();
      const r = g.getBoundingClientRect();
      return r.bottom <= svg.bottom + 1 && r.right <= svg.right + 1;
    }),
    png: Array.from(document.querySelectorAll("a[data-png]")).map((a) => a.href.slice(0, 22)),
  };
  const pre = document.createElement("pre");
  pre.id = "layout-check";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
  if (window.parent !== window) window.parent.postMessage(pre.textContent, "*");
});
</script>
"#;

/// Chromium's narrowest window: a page checked narrower is opened in a
/// frame of the width asked for, which hands the measurements up.
const NARROWEST_WINDOW: u32 = 500;

/// Opens `page` (a file of a site or kit) with [`LAYOUT_CHECK`] added, in
/// a window `width` pixels wide, and returns the measurements.
pub(crate) fn layout(profile: &Path, page: &Path, width: u32) -> serde_json::Value {
    let html = std::fs::read_to_string(page).unwrap();
    let checked = page.with_file_name(format!(
        "{}-check.html",
        page.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(
        &checked,
        html.replacen("</body>", &format!("{LAYOUT_CHECK}</body>"), 1),
    )
    .unwrap();
    let framed = page.with_file_name(format!(
        "{}-frame.html",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let opened = if width < NARROWEST_WINDOW {
        std::fs::write(
            &framed,
            format!(
                "<!doctype html><html><body style=\"margin:0\"><script>\
                 window.addEventListener(\"message\", (e) => {{ const pre = \
                 document.createElement(\"pre\"); pre.id = \"layout-check\"; \
                 pre.textContent = e.data; document.body.appendChild(pre); }});</script>\
                 <iframe src=\"{}\" style=\"border:0;width:{width}px;height:1600px\"></iframe>\
                 </body></html>",
                checked.file_name().unwrap().to_string_lossy()
            ),
        )
        .unwrap();
        &framed
    } else {
        &checked
    };
    let (dom, stderr) = headless(
        profile,
        &format!("file://{}", opened.display()),
        &[
            "--dump-dom",
            "--virtual-time-budget=5000",
            &format!("--window-size={},1600", width.max(NARROWEST_WINDOW)),
        ],
    );
    std::fs::remove_file(&checked).unwrap();
    let _ = std::fs::remove_file(&framed);
    assert!(
        console_errors(&stderr).is_empty(),
        "{:?}",
        console_errors(&stderr)
    );
    let at = dom
        .find("<pre id=\"layout-check\">")
        .unwrap_or_else(|| panic!("the check did not run on {}: {stderr}", page.display()));
    let json = &dom[at + "<pre id=\"layout-check\">".len()..];
    let json = &json[..json.find("</pre>").unwrap()];
    serde_json::from_str(&json.replace("&quot;", "\"").replace("&amp;", "&")).unwrap()
}

/// A screenshot of `page`, `width` × `height`, kept under target/ as
/// `name` for a look.
fn screenshot(profile: &Path, page: &Path, name: &str, (width, height): (u32, u32)) {
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&shot);
    let (_, stderr) = headless(
        profile,
        &format!("file://{}", page.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={width},{height}"),
        ],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    assert!(png.starts_with(b"\x89PNG"));
}

/// Issue 29: an organizer's German kit in a browser, on a phone and on a
/// printed page's width: nothing sticks out, "O-O-O" never breaks across
/// lines, the announcement carries the event's details and the seal.
/// Screenshots: `kit-de-announcement.png`, `kit-de-round-2.png`.
#[test]
fn the_german_kit_fits_and_keeps_castling_notation_whole_in_a_browser() {
    let dir = Dir::new();
    dir.ok(&[
        "tournament",
        "--phrase",
        "Vereinsturnier 2026",
        "--rounds",
        "5",
        "--publish-rounds",
        "1",
        "--lang",
        "de",
        "--title",
        "Vereinsturnier 2026",
        "--date",
        "14.–15. März 2026",
        "--venue",
        "Rathaus, Saal 2",
        "--time-control",
        "90 min + 30 s/Zug",
        "--schedule",
        "Runde 1: Fr 19:00",
        "--schedule",
        "Runden 2–5: Sa 10:00",
        "--secret",
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
        "--out",
        "kit",
    ]);
    let kit = dir.file("kit");
    let profile = dir.file("profile");
    for page in ["announcement.html", "round-2.html", "kit.html"] {
        for width in [390, 800] {
            let check = layout(&profile, &kit.join(page), width);
            assert!(check["nobr"].as_u64().unwrap() >= 6, "{page}: {check}");
            assert_eq!(
                check["broken"],
                serde_json::json!([]),
                "{page} at {width}: {check}"
            );
            assert_eq!(
                check["outside"],
                serde_json::json!([]),
                "{page} at {width}: {check}"
            );
            assert_eq!(
                check["split"],
                serde_json::json!([]),
                "{page} at {width}: a word of a table (a FEN's rank?) broken inside: {check}"
            );
            assert!(
                check["scroll"].as_u64() <= check["width"].as_u64(),
                "{page} scrolls sideways at {width}: {check}"
            );
        }
    }
    let announcement = std::fs::read_to_string(kit.join("announcement.html")).unwrap();
    assert!(announcement.contains("<th>Bedenkzeit</th>"));
    assert!(announcement.contains("Hash-Verpflichtung"));
    screenshot(
        &profile,
        &kit.join("announcement.html"),
        "kit-de-announcement.png",
        (800, 2600),
    );
    screenshot(
        &profile,
        &kit.join("round-2.html"),
        "kit-de-round-2.png",
        (800, 1400),
    );
}

/// Issue 29: a writer's position page in a browser: the diagram has its
/// legend (inside the diagram, so every copy has it), both PNG downloads
/// are drawn (with the marks and clean for print), nothing sticks out on
/// a phone and "O-O-O" never breaks. Screenshot: `position-518.png`.
#[test]
fn a_position_page_shows_its_legend_and_fits_a_phone() {
    let dir = Dir::new();
    let site = site_with_games(&dir);
    let profile = dir.file("profile");
    for width in [390, 1200] {
        let check = layout(&profile, &site.join("positions/518.html"), width);
        let legend: Vec<&str> = check["legend"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert!(
            legend.iter().any(|l| l.starts_with("red ring: weak pawn")),
            "{check}"
        );
        assert!(
            legend
                .iter()
                .any(|l| l.starts_with("green square: castling target")),
            "{check}"
        );
        assert!(
            check["width"].as_u64().unwrap() <= u64::from(width),
            "measured wider than the window: {check}"
        );
        assert_eq!(check["legendInside"], true, "{check}");
        assert_eq!(
            check["png"],
            serde_json::json!(["data:image/png;base64,", "data:image/png;base64,"]),
            "both PNG downloads drawn: {check}"
        );
        assert!(check["nobr"].as_u64().unwrap() >= 4, "{check}");
        assert_eq!(check["broken"], serde_json::json!([]), "{check}");
        assert_eq!(check["outside"], serde_json::json!([]), "{check}");
        assert_eq!(
            check["split"],
            serde_json::json!([]),
            "words of a table broken inside at {width}: {check}"
        );
        assert!(
            check["scroll"].as_u64() <= check["width"].as_u64(),
            "the page scrolls sideways at {width}: {check}"
        );
    }
    screenshot(
        &profile,
        &site.join("positions/518.html"),
        "position-518.png",
        (1200, 2400),
    );
}
