//! The report as a static site that opens from disk: `index.html` (charts
//! and a sortable, filterable table of all positions), one page per
//! position, and `fair.html` for organizers. No network, no CDN: the page
//! script is written beside the pages.

use std::{
    fmt::Write as _,
    fs, io,
    path::{Path, PathBuf},
};

use c960_core::{Features, StartPosition, shakmaty::CastlingSide};
use polars::prelude::*;

use crate::{RunKind, Source, Trees, html::escape};

const SCRIPT: &str = include_str!("../assets/table.js");
const STYLE: &str = include_str!("../assets/style.css");

/// One column of a run in the tables: header, column name, number format.
struct RunColumn {
    header: String,
    column: String,
    percent: bool,
    text: bool,
}

fn run_columns(sources: &[Source]) -> Vec<RunColumn> {
    let mut columns = Vec::new();
    for s in sources {
        let short = s.label.clone();
        match s.kind {
            RunKind::Sweep => {
                columns.push(RunColumn {
                    header: format!("score cp<br><small>{short}</small>"),
                    column: format!("{}__score_cp", s.label),
                    percent: false,
                    text: false,
                });
                columns.push(RunColumn {
                    header: "engine's first move".to_owned(),
                    column: format!("{}__best_move_san", s.label),
                    percent: false,
                    text: true,
                });
            }
            RunKind::Selfplay | RunKind::Import => {
                columns.push(RunColumn {
                    header: format!("White score<br><small>{short}</small>"),
                    column: format!("{}__white_score", s.label),
                    percent: true,
                    text: false,
                });
                columns.push(RunColumn {
                    header: "games".to_owned(),
                    column: format!("{}__games", s.label),
                    percent: false,
                    text: false,
                });
                columns.push(RunColumn {
                    header: "most played first move".to_owned(),
                    column: format!("{}__first_move", s.label),
                    percent: false,
                    text: true,
                });
                columns.push(RunColumn {
                    header: "its share".to_owned(),
                    column: format!("{}__first_move_share", s.label),
                    percent: true,
                    text: false,
                });
            }
        }
    }
    columns
}

/// A cell of `frame` as text ("" when null).
fn cell(frame: &DataFrame, column: &str, row: usize, percent: bool) -> String {
    let Ok(series) = frame.column(column) else {
        return String::new();
    };
    match series.get(row) {
        Ok(AnyValue::Null) | Err(_) => String::new(),
        Ok(AnyValue::Float64(v)) if percent => format!("{:.1}%", v * 100.0),
        Ok(AnyValue::Float64(v)) => format!("{v:.3}"),
        Ok(AnyValue::String(s)) => escape(s),
        Ok(AnyValue::Boolean(b)) => if b { "yes" } else { "no" }.to_owned(),
        Ok(v) => v.to_string(),
    }
}

/// A number shown with one decimal ("" stays "").
fn one_decimal(text: &str) -> String {
    text.parse::<f64>()
        .map_or_else(|_| text.to_owned(), |v| format!("{v:.1}"))
}

fn page(title: &str, depth: usize, body: &str) -> String {
    let up = "../".repeat(depth);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<link rel=\"stylesheet\" href=\"{up}style.css\">\n\
         <script src=\"{up}table.js\" defer></script>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        title = escape(title)
    )
}

/// A report being built beside its target: `.NAME.build.PID` in the
/// target's parent, renamed over the target once complete.
pub(crate) struct Swap {
    out: PathBuf,
    temp: PathBuf,
    parent: PathBuf,
    name: String,
    _lock: c960_store::DirLock,
}

/// What a report directory holds (anything else is someone's own file,
/// which a report must not delete).
fn written_by_report(name: &str) -> bool {
    matches!(
        name,
        "index.html"
            | "fair.html"
            | "style.css"
            | "table.js"
            | "positions.parquet"
            | "positions.csv"
            | "balance.csv"
            | "balance.json"
            | "charts"
            | "positions"
    ) || name.starts_with('.')
        || (name.starts_with("first-moves-")
            && Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv")))
}

impl Swap {
    /// Locks `out`, cleans what killed reports left beside it, checks that
    /// it may be replaced, and makes the directory to build in.
    pub(crate) fn begin(out: &Path) -> Result<Swap, crate::ReportError> {
        let bad = |reason: String| {
            crate::ReportError::Io(io::Error::new(io::ErrorKind::InvalidInput, reason))
        };
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| bad(format!("cannot write a report to {}", out.display())))?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot create {}: {e}", parent.display()))
        })?;
        let lock = c960_store::DirLock::exclusive_file(&parent.join(format!(".{name}.lock")), out)?;
        let swap = Swap {
            out: out.to_owned(),
            temp: parent.join(format!(".{name}.build.{}", std::process::id())),
            parent,
            name,
            _lock: lock,
        };
        swap.clean_up();
        match fs::symlink_metadata(out) {
            Err(_) => {}
            Ok(meta) if meta.is_dir() => {
                for entry in fs::read_dir(out)? {
                    let entry = entry?.file_name().to_string_lossy().into_owned();
                    if !written_by_report(&entry) {
                        return Err(bad(format!(
                            "cannot replace {}: it holds {entry}, which c960 report did not write; \
                             give a new or empty directory",
                            out.display()
                        )));
                    }
                }
            }
            Ok(_) => {
                return Err(bad(format!(
                    "cannot write a report to {}: it is not a directory",
                    out.display()
                )));
            }
        }
        let _ = fs::remove_dir_all(&swap.temp);
        fs::create_dir(&swap.temp).map_err(|e| c960_store::describe_write_error(&swap.temp, &e))?;
        Ok(swap)
    }

    /// Removes directories of killed reports (their process is gone); a
    /// report killed between its two renames is put back first.
    fn clean_up(&self) {
        let Ok(entries) = fs::read_dir(&self.parent) else {
            return;
        };
        let prefix = format!(".{}.", self.name);
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = file.strip_prefix(&prefix) else {
                continue;
            };
            let Some((stage, pid)) = rest.split_once('.') else {
                continue;
            };
            let Ok(pid) = pid.parse::<u32>() else {
                continue;
            };
            if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            match stage {
                "old" if !self.out.exists() => {
                    let _ = fs::rename(entry.path(), &self.out);
                }
                "old" | "build" => {
                    let _ = fs::remove_dir_all(entry.path());
                }
                _ => {}
            }
        }
    }

    /// Where the report is built.
    pub(crate) fn building(&self) -> &Path {
        &self.temp
    }

    /// Gives up: the target stays as it was.
    pub(crate) fn abandon(self) {
        let _ = fs::remove_dir_all(&self.temp);
    }

    /// Puts the built report in place of the old one.
    pub(crate) fn finish(self) -> io::Result<()> {
        let old = self
            .parent
            .join(format!(".{}.old.{}", self.name, std::process::id()));
        let had_old = self.out.exists();
        let moved = (|| {
            if had_old {
                fs::rename(&self.out, &old)?;
            }
            fs::rename(&self.temp, &self.out)
        })();
        if let Err(e) = moved {
            if had_old && !self.out.exists() {
                let _ = fs::rename(&old, &self.out);
            }
            let _ = fs::remove_dir_all(&self.temp);
            return Err(io::Error::new(
                e.kind(),
                format!(
                    "cannot put the report in place at {}: {e}",
                    self.out.display()
                ),
            ));
        }
        if let Ok(dir) = fs::File::open(&self.parent) {
            let _ = dir.sync_all();
        }
        if had_old {
            let _ = fs::remove_dir_all(&old);
        }
        Ok(())
    }
}

/// Writes the site into `dir`: `index.html`, `fair.html`,
/// `positions/<sp>.html`, `style.css`, `table.js`. `charts` are file names
/// (relative to `dir`) of SVG charts shown on the index.
pub fn write_site(
    dir: &Path,
    frame: &DataFrame,
    sources: &[Source],
    charts: &[Shown],
    trees: &[(String, Trees)],
    samples: &[(String, Samples)],
    verdicts: Option<&crate::balance::Balance>,
) -> io::Result<()> {
    fs::create_dir_all(dir.join("positions"))?;
    let banner = failures_banner(sources, None);
    let write = |name: &Path, text: &str| {
        // Every page opens with the inputs' failures, if any.
        let text = text.replacen("<body>\n", &format!("<body>\n{banner}"), 1);
        c960_store::write_atomically(name, |out| io::Write::write_all(out, text.as_bytes()))
    };
    write(&dir.join("style.css"), STYLE)?;
    write(&dir.join("table.js"), SCRIPT)?;
    let columns = run_columns(sources);
    let reliability = reliability_note(verdicts);
    write(
        &dir.join("index.html"),
        &index(frame, sources, &columns, charts).replacen(
            "</h1>\n",
            &format!("</h1>\n{reliability}"),
            1,
        ),
    )?;
    write(
        &dir.join("fair.html"),
        &fair(frame, sources).replacen("</h1>\n", &format!("</h1>\n{reliability}"), 1),
    )?;
    for row in 0..frame.height() {
        let sp = StartPosition::new(row as u16).map_err(io::Error::other)?;
        let pgn: String = samples
            .iter()
            .filter_map(|(label, by_sp)| {
                by_sp
                    .get(&sp.sp())
                    .map(|games| crate::downloads::pgn(sp, label, games))
            })
            .collect();
        if !pgn.is_empty() {
            write(&crate::downloads::pgn_path(dir, sp.sp()), &pgn)?;
        }
        let page = position_page(frame, sources, row, sp, trees, !pgn.is_empty());
        let page = page.replacen(
            "<body>\n",
            &format!("<body>\n{}", failures_banner(sources, Some(sp.sp()))),
            1,
        );
        write(&dir.join(format!("positions/{}.html", sp.sp())), &page)?;
    }
    Ok(())
}

fn provenance(sources: &[Source]) -> String {
    if sources.is_empty() {
        return "<p class=\"provenance\">Static features only: no sweep or self-play run was given.</p>".to_owned();
    }
    let mut text = String::from("<ul class=\"provenance\">");
    for s in sources {
        let m = &s.manifest;
        let engines = match s.kind {
            RunKind::Sweep => m["engine"]["name"].as_str().unwrap_or("?").to_owned(),
            RunKind::Selfplay => m["engines"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e["name"].as_str())
                        .collect::<Vec<_>>()
                        .join(" vs ")
                })
                .unwrap_or_default(),
            RunKind::Import => format!(
                "{} games from {}",
                m["games"].as_u64().unwrap_or(0),
                m["files"]
                    .as_array()
                    .map(|a| a
                        .iter()
                        .filter_map(|f| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            ),
        };
        let _ = write!(
            text,
            "<li><code>{}</code>: {} with {}, {}, finished {}, c960 {}</li>",
            escape(&s.label),
            match s.kind {
                RunKind::Sweep => "engine sweep",
                RunKind::Selfplay => "self-play",
                RunKind::Import => "imported games",
            },
            escape(&engines),
            escape(m["limit"].as_str().unwrap_or("?")),
            escape(m["finished"].as_str().unwrap_or("?")),
            escape(m["c960_version"].as_str().unwrap_or("?")),
        );
    }
    text.push_str("</ul>");
    text
}

/// A warning naming the runs with failed positions or games (empty if
/// none); on a position's page (`sp`), also what failed there.
fn failures_banner(sources: &[Source], sp: Option<u16>) -> String {
    let mut lines = Vec::new();
    for source in sources {
        let Some(summary) = source.failures() else {
            continue;
        };
        let mut line = format!(
            "Incomplete input: run <b>{}</b> has {}; the table has no numbers for them.",
            escape(&source.label),
            escape(&summary)
        );
        if let Some(sp) = sp {
            for (failed, reason) in source.failed.iter().filter(|(f, _)| *f == sp) {
                let _ = write!(
                    line,
                    "<br>SP {failed} failed in this run: {}",
                    escape(reason)
                );
            }
        }
        lines.push(line);
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "<div class=\"warning\" role=\"alert\" style=\"border:2px solid #b00;background:#fee;padding:0.5em 1em;margin:0.5em 0\">{}</div>\n",
        lines.join("<br>")
    )
}

fn index(frame: &DataFrame, sources: &[Source], columns: &[RunColumn], charts: &[Shown]) -> String {
    let mut body = String::from("<h1>Chess960: how balanced is each start position?</h1>\n");
    body.push_str(&provenance(sources));
    body.push_str(
        "<p><a href=\"fair.html\">Fair positions for organizers</a></p>\n<div class=\"charts\">\n",
    );
    for chart in charts {
        body.push_str(&figure(chart));
    }
    body.push_str("</div>\n<h2>All 960 positions</h2>\n");
    body.push_str("<p><input id=\"filter\" type=\"search\" placeholder=\"filter: SP, placement, files…\"> <span id=\"shown\"></span></p>\n");
    body.push_str("<table id=\"positions\" class=\"sortable\">\n<thead><tr>");
    let fixed = [
        ("SP", "num"),
        ("placement", "text"),
        ("weak pawns", "num"),
        ("undefended", "text"),
        ("king-only", "text"),
        ("attackable on move 1", "num"),
        ("castle a on move 1", "text"),
        ("castle h on move 1", "text"),
    ];
    for (h, kind) in fixed {
        let _ = write!(body, "<th data-type=\"{kind}\">{h}</th>");
    }
    for c in columns {
        let kind = if c.text { "text" } else { "num" };
        let _ = write!(body, "<th data-type=\"{kind}\">{}</th>", c.header);
    }
    let has_verdicts = frame.column("verdict").is_ok();
    if has_verdicts {
        body.push_str("<th data-type=\"text\">verdict</th>");
    }
    body.push_str("</tr></thead>\n<tbody>\n");
    for row in 0..frame.height() {
        let sp = cell(frame, "sp", row, false);
        let _ = write!(
            body,
            "<tr><td><a href=\"positions/{sp}.html\">{sp}</a></td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            cell(frame, "placement", row, false),
            cell(frame, "weak_pawns", row, false),
            cell(frame, "undefended_files", row, false),
            cell(frame, "king_only_files", row, false),
            cell(frame, "first_move_attackable", row, false),
            cell(frame, "castle_a_first_move", row, false),
            cell(frame, "castle_h_first_move", row, false),
        );
        for c in columns {
            let _ = write!(body, "<td>{}</td>", cell(frame, &c.column, row, c.percent));
        }
        if has_verdicts {
            let _ = write!(body, "<td>{}</td>", cell(frame, "verdict", row, false));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody>\n</table>\n");
    page("c960 report", 0, &body)
}

fn fair(frame: &DataFrame, sources: &[Source]) -> String {
    let mut body = String::from("<h1>Fair positions for organizers</h1>\n");
    body.push_str(&provenance(sources));
    let sweep = sources.iter().find(|s| s.kind == RunKind::Sweep);
    let selfplay = sources.iter().find(|s| s.kind.has_games());
    if sweep.is_none() && selfplay.is_none() {
        body.push_str("<p>Ranking by balance needs an engine sweep or self-play games: run <code>c960 run</code>, or <code>c960 sweep</code> and give it to <code>c960 report --sweep DIR</code>.</p>");
        return page("Fair positions", 0, &body);
    }
    let values = |source: Option<&Source>, name: &str| -> Vec<Option<f64>> {
        source.map_or_else(
            || vec![None; frame.height()],
            |s| float_column(frame, &format!("{}__{name}", s.label)),
        )
    };
    let cp = values(sweep, "score_cp");
    let score = values(selfplay, "white_score");
    let low = values(selfplay, "white_score_low");
    let high = values(selfplay, "white_score_high");
    let known: Vec<f64> = score.iter().flatten().copied().collect();
    let mean = (!known.is_empty()).then(|| crate::charts::mean_interval(&known).0);
    // Balance: |engine score| when there is a sweep, else the self-play
    // score's distance from the mean of all positions.
    // With verdicts: the shrunk balance estimate's distance from the mean
    // of all positions (the verdicts' method), else the old keys.
    let (estimate, estimate_mean) = balance_ranking(frame);
    let key = |row: usize| match (estimate_mean, sweep, mean) {
        (Some(m), _, _) => estimate[row].map(|v| (v - m).abs()),
        (None, Some(_), _) => cp[row].map(f64::abs),
        (None, None, Some(m)) => score[row].map(|v| (v - m).abs()),
        (None, None, None) => None,
    };
    let mut ranked: Vec<(usize, f64)> = (0..frame.height())
        .filter_map(|row| Some((row, key(row)?)))
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    body.push_str(&fair_intro(sweep, selfplay, mean));
    if estimate_mean.is_some() {
        body.push_str("<p>Ranked by the balance estimate's distance from the mean of all positions (the estimate is shrunk toward that mean by how noisy its data are, so a position with little data does not top the list by chance); the verdict column says which positions the data call balanced at the stated false discovery rate. Where the reliability above is below 0.5, the order is mostly noise: choose among the positions whose verdict is <b>balanced</b>, or treat the ranking as a shortlist only.</p>\n");
    }
    body.push_str("<table id=\"fair\" class=\"sortable\">\n<thead><tr><th data-type=\"num\">rank</th><th data-type=\"num\">SP</th><th data-type=\"text\">placement</th>");
    if sweep.is_some() {
        body.push_str("<th data-type=\"num\">score cp</th>");
    }
    if selfplay.is_some() {
        body.push_str("<th data-type=\"num\">self-play White score</th><th data-type=\"text\">95% interval</th><th data-type=\"num\">from the mean</th>");
    }
    let has_verdicts = frame.column("verdict").is_ok();
    if has_verdicts {
        body.push_str("<th data-type=\"num\">balance estimate</th><th data-type=\"text\">verdict</th><th data-type=\"num\">q-value</th>");
    }
    body.push_str("<th data-type=\"num\">weak pawns</th><th data-type=\"num\">attackable</th><th data-type=\"text\">castling on move 1</th></tr></thead>\n<tbody>\n");
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    for (rank, (row, _)) in ranked.iter().enumerate() {
        let row = *row;
        let castle = cell(frame, "castle_a_first_move", row, false) == "yes"
            || cell(frame, "castle_h_first_move", row, false) == "yes";
        let sp = cell(frame, "sp", row, false);
        let mut cells = String::new();
        if sweep.is_some() {
            let _ = write!(
                cells,
                "<td>{}</td>",
                cp[row].map_or(String::new(), |v| format!("{v:+.0}"))
            );
        }
        if selfplay.is_some() {
            let interval = match (low[row], high[row]) {
                (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
                _ => String::new(),
            };
            let distance = match (score[row], mean) {
                (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
                _ => String::new(),
            };
            let _ = write!(
                cells,
                "<td>{}</td><td>{interval}</td><td>{distance}</td>",
                percent(score[row])
            );
        }
        if has_verdicts {
            let _ = write!(
                cells,
                "<td>{}</td><td>{}</td><td>{}</td>",
                estimate[row].map_or(String::new(), |v| format!("{v:.3}")),
                cell(frame, "verdict", row, false),
                cell(frame, "q_value", row, false)
            );
        }
        let _ = writeln!(
            body,
            "<tr data-weak=\"{weak}\" data-attack=\"{attack}\" data-castle=\"{castle}\"><td>{}</td><td><a href=\"positions/{sp}.html\">{sp}</a></td><td class=\"mono\">{}</td>{cells}<td>{weak}</td><td>{attack}</td><td>{}</td></tr>",
            rank + 1,
            cell(frame, "placement", row, false),
            if castle { "yes" } else { "no" },
            weak = cell(frame, "weak_pawns", row, false),
            attack = cell(frame, "first_move_attackable", row, false),
        );
    }
    body.push_str("</tbody>\n</table>\n");
    page("Fair positions", 0, &body)
}

/// The balance estimates and their mean, when they are measured (have
/// intervals); a single search per position has none, and fair.html then
/// keeps ranking by |engine score|.
fn balance_ranking(frame: &DataFrame) -> (Vec<Option<f64>>, Option<f64>) {
    let estimate = float_column(frame, "balance_estimate");
    let estimates: Vec<f64> = estimate.iter().flatten().copied().collect();
    let measured = float_column(frame, "balance_low")
        .iter()
        .any(Option::is_some);
    let mean =
        (measured && !estimates.is_empty()).then(|| crate::charts::mean_interval(&estimates).0);
    (estimate, mean)
}

/// A column as numbers (`None` where missing or not a number).
fn float_column(frame: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let column = frame
        .column(name)
        .and_then(|c| c.cast(&DataType::Float64))
        .ok();
    (0..frame.height())
        .map(|row| match column.as_ref()?.get(row).ok()? {
            AnyValue::Null => None,
            v => v.extract::<f64>().filter(|v| v.is_finite()),
        })
        .collect()
}

/// The board as SVG: weak pawns ringed in red, castling target squares
/// (c1/g1, c8/g8) outlined in green.
#[must_use]
pub fn board_svg(position: StartPosition) -> String {
    board_svg_of(&Features::of(position))
}

/// [`board_svg`] for features already computed.
fn board_svg_of(features: &Features) -> String {
    crate::board::diagram_svg_of(features, crate::board::Marks::ALL, Some(340))
}

fn position_page(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    sp: StartPosition,
    trees: &[(String, Trees)],
    has_pgn: bool,
) -> String {
    let features = Features::of(sp);
    let mut body = String::new();
    let prev = (sp.sp() + 959) % 960;
    let next = (sp.sp() + 1) % 960;
    let _ = writeln!(
        body,
        "<p class=\"nav\"><a href=\"../index.html\">all positions</a> · <a href=\"{prev}.html\">← SP {prev}</a> · <a href=\"{next}.html\">SP {next} →</a></p>\n<h1>SP {} <span class=\"mono\">{}</span></h1>",
        sp.sp(),
        sp.placement()
    );
    let _ = writeln!(
        body,
        "<p class=\"quote\">{}</p>",
        escape(&crate::sheet::facts(&features, &measured(frame, sources, row)).join(" "))
    );
    let board = board_svg_of(&features);
    body.push_str(&board);
    body.push_str("<p class=\"legend\">red ring: weak pawn (undefended or defended only by the king); green square: castling target (c and g files)</p>\n");
    body.push_str(&downloads(frame, row, sp, has_pgn, &board));
    body.push_str("<table class=\"facts\">\n");
    let mut fact = |name: &str, value: String| {
        let _ = writeln!(body, "<tr><th>{name}</th><td>{value}</td></tr>");
    };
    fact("X-FEN", format!("<code>{}</code>", escape(&sp.to_xfen())));
    fact(
        "Shredder-FEN",
        format!("<code>{}</code>", escape(&sp.to_shredder_fen())),
    );
    fact(
        "mirror twin",
        format!(
            "<a href=\"{0}.html\">SP {0}</a> <span class=\"mono\">{1}</span>",
            features.mirror.sp(),
            features.mirror.placement()
        ),
    );
    for (name, column) in [
        ("legal first moves", "legal_first_moves"),
        ("undefended pawns", "undefended_files"),
        ("king-only pawns", "king_only_files"),
        ("attackable on move 1", "first_move_attacks"),
        ("castling a-side on move 1", "castle_a_first_move"),
        ("castling a-side kind", "castle_a_kind"),
        ("castling h-side on move 1", "castle_h_first_move"),
        ("castling h-side kind", "castle_h_kind"),
        ("corner bishops", "corner_bishops"),
        ("queen in a corner", "queen_in_corner"),
    ] {
        fact(name, cell(frame, column, row, false));
    }
    for side in [CastlingSide::QueenSide, CastlingSide::KingSide] {
        let c = features.castling.get(side);
        let blockers: Vec<String> = c.blockers.into_iter().map(|s| s.to_string()).collect();
        fact(
            if side == CastlingSide::QueenSide {
                "in the way of a-side castling"
            } else {
                "in the way of h-side castling"
            },
            if blockers.is_empty() {
                "nothing".to_owned()
            } else {
                blockers.join(" ")
            },
        );
    }
    run_facts(frame, sources, row, &mut fact);
    body.push_str("</table>\n<h2>Castling in this position</h2>\n");
    for text in c960_core::castling_texts(sp, c960_core::Lang::En) {
        let _ = writeln!(
            body,
            "<h3>{}</h3>\n<p>{}</p>",
            escape(&text.title),
            escape(&text.sentences())
        );
    }
    for (label, by_sp) in trees {
        if let Some(tree) = by_sp.get(&sp.sp()) {
            let imported = sources
                .iter()
                .any(|s| s.label == *label && s.kind == RunKind::Import);
            body.push_str(&opening_section(frame, sources, row, label, tree, imported));
        }
    }
    page(&format!("SP {} {}", sp.sp(), sp.placement()), 1, &body)
}

/// What the verdicts rest on, stated wherever a ranking is shown: each
/// method's reliability in numbers and words, the band and the error rate.
fn reliability_note(verdicts: Option<&crate::balance::Balance>) -> String {
    let Some(b) = verdicts else {
        return String::new();
    };
    let mut parts = Vec::new();
    for (name, unit, method) in [
        ("games", "", b.games.as_ref()),
        ("engine sweeps", " cp", b.sweep.as_ref()),
    ] {
        if let Some(m) = method {
            let number = m.reliability.map_or_else(
                || "not measurable".to_owned(),
                |r| format!("{:.2}", r.whole),
            );
            let counts: Vec<String> = m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
            parts.push(format!(
                "<li><b>{name}</b>: reliability {number} — {}; verdicts (balanced = within ±{}{unit} of the mean of all positions, false discovery rate {:.0}%): {}</li>",
                escape(&m.words),
                m.band,
                b.settings.level * 100.0,
                counts.join(", ")
            ));
        }
    }
    format!(
        "<ul class=\"reliability\">{}</ul>\n<p class=\"small\">Verdicts come from the games when there are any, otherwise from the sweeps; see <code>balance.json</code> and <code>balance.csv</code>.</p>\n",
        parts.join("")
    )
}

/// A chart shown on the index, with its points a reader can hover and
/// click.
#[derive(Clone, Debug)]
pub struct Shown {
    /// Its title.
    pub title: String,
    /// The chart file, relative to the site.
    pub file: PathBuf,
    /// Its per-position points.
    pub hotspots: Vec<crate::charts::Hotspot>,
}

/// A chart as a figure: the image, and over it, for per-position charts,
/// a transparent SVG of linked points whose titles name the position and
/// its value (hover shows them, a click opens the position's page). The
/// overlay scales with the image, so it works at any width.
fn figure(chart: &Shown) -> String {
    let image = format!(
        "<img src=\"{}\" alt=\"{}\">",
        escape(&chart.file.to_string_lossy()),
        escape(&chart.title)
    );
    if chart.hotspots.is_empty() {
        return format!(
            "<figure>{image}<figcaption>{}</figcaption></figure>\n",
            escape(&chart.title)
        );
    }
    let (w, h) = crate::charts::size();
    let mut overlay =
        format!("<svg class=\"hotspots\" viewBox=\"0 0 {w} {h}\" preserveAspectRatio=\"none\">");
    for spot in &chart.hotspots {
        let placement = u16::try_from(spot.sp)
            .ok()
            .and_then(|sp| StartPosition::new(sp).ok())
            .map(StartPosition::placement)
            .unwrap_or_default();
        let _ = write!(
            overlay,
            "<a href=\"positions/{sp}.html\"><circle cx=\"{}\" cy=\"{}\" r=\"6\"><title>SP {sp} {placement}: {}</title></circle></a>",
            spot.x,
            spot.y,
            escape(&spot.value),
            sp = spot.sp
        );
    }
    overlay.push_str("</svg>");
    format!(
        "<figure class=\"explorable\"><div class=\"hot\">{image}{overlay}</div><figcaption>{} <small>(point at a position to see it; click to open its page)</small></figcaption></figure>\n",
        escape(&chart.title)
    )
}

/// The games sampled for each position's PGN download, by run label.
pub type Samples = std::collections::BTreeMap<u16, Vec<crate::downloads::SampleGame>>;

/// What the runs measured about the position in `row`, for its facts
/// paragraph: the first sweep's score and the first game run's results.
fn measured(frame: &DataFrame, sources: &[Source], row: usize) -> crate::sheet::Measured {
    let number = |label: &str, name: &str| -> Option<f64> {
        cell(frame, &format!("{label}__{name}"), row, false)
            .parse()
            .ok()
    };
    let engine = sources
        .iter()
        .find(|s| s.kind == RunKind::Sweep)
        .and_then(|s| {
            Some(crate::sheet::EngineView {
                source: format!(
                    "{} at {}",
                    s.manifest["engine"]["name"]
                        .as_str()
                        .unwrap_or("the engine"),
                    s.manifest["limit"].as_str().unwrap_or("its limit")
                ),
                cp: number(&s.label, "score_cp")?,
                interval: None,
            })
        });
    let games = sources.iter().find(|s| s.kind.has_games()).and_then(|s| {
        let count = |name: &str| {
            cell(frame, &format!("{}__{name}", s.label), row, false)
                .parse::<u64>()
                .ok()
        };
        Some(crate::sheet::GamesView {
            source: if s.kind == RunKind::Import {
                "imported games".to_owned()
            } else {
                "engine self-play".to_owned()
            },
            games: count("games")?,
            white_wins: count("white_wins")?,
            draws: count("draws")?,
            black_wins: count("black_wins")?,
            score: (
                number(&s.label, "white_score")?,
                number(&s.label, "white_score_low")?,
                number(&s.label, "white_score_high")?,
            ),
        })
    });
    let verdict = cell(frame, "verdict", row, false);
    let verdict = (!verdict.is_empty()).then(|| crate::sheet::VerdictView {
        verdict,
        q_value: cell(frame, "q_value", row, false).parse().unwrap_or(1.0),
        level: crate::balance::Settings::default().level,
    });
    crate::sheet::Measured {
        engine,
        games,
        verdict,
    }
}

/// The page's downloads: the diagram as SVG (a data URL) and PNG (drawn by
/// the page's script), the position's games as PGN, its table row as JSON.
fn downloads(frame: &DataFrame, row: usize, sp: StartPosition, has_pgn: bool, svg: &str) -> String {
    use crate::downloads::data_url;
    let mut json = serde_json::Map::new();
    for column in frame.columns() {
        let value = match column.get(row) {
            Ok(AnyValue::Null) | Err(_) => serde_json::Value::Null,
            Ok(v) if column.dtype().is_integer() => v
                .extract::<i64>()
                .map_or(serde_json::Value::Null, serde_json::Value::from),
            Ok(v) if column.dtype().is_float() => v
                .extract::<f64>()
                .and_then(serde_json::Number::from_f64)
                .map_or(serde_json::Value::Null, serde_json::Value::Number),
            Ok(AnyValue::Boolean(b)) => serde_json::Value::Bool(b),
            Ok(_) => serde_json::Value::String(cell(frame, column.name(), row, false)),
        };
        json.insert(column.name().to_string(), value);
    }
    let json = serde_json::to_string_pretty(&json).unwrap_or_default();
    let n = sp.sp();
    let mut links = vec![
        format!(
            "<a class=\"download\" download=\"SP-{n}.svg\" href=\"{}\">diagram (SVG)</a>",
            data_url("image/svg+xml", svg)
        ),
        format!(
            "<a class=\"download\" data-png download=\"SP-{n}.png\" href=\"#\">diagram (PNG)</a>"
        ),
    ];
    if has_pgn {
        links.push(format!(
            "<a class=\"download\" download href=\"{n}.pgn\">games (PGN, a sample of up to {})</a>",
            crate::downloads::PGN_SAMPLE
        ));
    }
    links.push(format!(
        "<a class=\"download\" download=\"SP-{n}.json\" href=\"{}\">table row (JSON)</a>",
        data_url("application/json", &json)
    ));
    format!(
        "<p class=\"downloads\">Download: {}</p>\n",
        links.join(" · ")
    )
}

/// The facts a position page shows from each run.
fn run_facts(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    fact: &mut impl FnMut(&str, String),
) {
    for s in sources {
        let c =
            |name: &str, percent: bool| cell(frame, &format!("{}__{name}", s.label), row, percent);
        match s.kind {
            RunKind::Sweep => {
                fact(
                    &format!("engine score <small>{}</small>", escape(&s.label)),
                    format!(
                        "{} cp (WDL {}/{}/{})",
                        c("score_cp", false),
                        c("wdl_win", false),
                        c("wdl_draw", false),
                        c("wdl_loss", false)
                    ),
                );
                fact(
                    "best move, line",
                    format!("{} — {}", c("best_move_san", false), c("pv_san", false)),
                );
                let lines = s.manifest["multipv"].as_u64().unwrap_or(1);
                if lines > 1 {
                    let moves: Vec<String> = (1..=lines)
                        .filter_map(|k| {
                            let san = c(&format!("move{k}_san"), false);
                            let cp = c(&format!("move{k}_cp"), false);
                            let mate = c(&format!("move{k}_mate"), false);
                            let score = if mate.is_empty() {
                                cp.parse::<i64>().map(|v| format!("{v:+}")).unwrap_or(cp)
                            } else {
                                format!("mate {mate}")
                            };
                            (!san.is_empty()).then(|| format!("{san} ({score})"))
                        })
                        .collect();
                    fact("best first moves", moves.join(", "));
                }
            }
            RunKind::Selfplay | RunKind::Import => {
                fact(
                    &format!(
                        "{} <small>{}</small>",
                        if s.kind == RunKind::Import {
                            "games"
                        } else {
                            "self-play"
                        },
                        escape(&s.label)
                    ),
                    format!(
                        "White {} (95% interval {}–{}) over {} games: +{} ={} −{}",
                        c("white_score", true),
                        c("white_score_low", true),
                        c("white_score_high", true),
                        c("games", false),
                        c("white_wins", false),
                        c("draws", false),
                        c("black_wins", false)
                    ),
                );
                let terminations: &[(&str, &str)] = if s.kind == RunKind::Import {
                    &crate::IMPORT_TERMINATIONS
                } else {
                    &crate::TERMINATIONS
                };
                let ended: Vec<String> = terminations
                    .iter()
                    .filter_map(|(column, name)| {
                        let n = c(column, false);
                        (!n.is_empty() && n != "0").then(|| format!("{name} {n}"))
                    })
                    .collect();
                fact("how games ended", ended.join(", "));
                fact(
                    "castled (share of games)",
                    format!(
                        "White a-side {}, h-side {}; Black a-side {}, h-side {}; median castling ply White {}, Black {}",
                        c("white_castled_a", true),
                        c("white_castled_h", true),
                        c("black_castled_a", true),
                        c("black_castled_h", true),
                        one_decimal(&c("white_median_castle_ply", false)),
                        one_decimal(&c("black_median_castle_ply", false))
                    ),
                );
            }
        }
    }
}

/// What fair.html ranks by, and its filters.
fn fair_intro(sweep: Option<&Source>, selfplay: Option<&Source>, mean: Option<f64>) -> String {
    format!(
        "<p>Ranked by {}: most balanced first.{} Filters as in <code>c960 draw</code>: \
         <label><input type=\"checkbox\" data-filter=\"no-attack\"> no pawn attackable on move 1</label> \
         <label><input type=\"checkbox\" data-filter=\"no-castle\"> no castling on move 1</label> \
         <label>at most <input type=\"number\" min=\"0\" max=\"8\" value=\"8\" data-filter=\"max-weak\"> weak pawns</label></p>",
        match sweep {
            Some(s) => format!("|engine score| (<code>{}</code>)", escape(&s.label)),
            None => "the self-play score's distance from the mean of all positions".to_owned(),
        },
        match (selfplay, mean) {
            (Some(s), Some(m)) => format!(
                " Self-play (<code>{}</code>): White's score with its 95% interval, and its distance from the mean of all positions ({:.1}%); \
                 an interval that contains the mean means the games cannot tell the position from an average one.",
                escape(&s.label),
                m * 100.0
            ),
            _ => String::new(),
        }
    )
}

/// Lines shown on a position page: reached by at least this share.
const PAGE_SHARE: f64 = crate::TREE_SHARE;

/// A position page's openings from one self-play run: the first moves with
/// their shares and scores beside the engine's best first move, and every
/// line reached by at least 5% of the games.
fn opening_section(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    label: &str,
    tree: &c960_openings::Tree,
    imported: bool,
) -> String {
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<h2>Openings in {} <small>{}</small></h2>\n<p>{} games. First moves played, most played first:</p>",
        if imported {
            "imported games"
        } else {
            "self-play"
        },
        escape(label),
        tree.root.games
    );
    let best: Vec<String> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| cell(frame, &format!("{}__best_move_san", s.label), row, false))
        .filter(|m| !m.is_empty())
        .collect();
    if !best.is_empty() {
        let _ = writeln!(
            html,
            "<p>The engine's best first move: <b>{}</b>.</p>",
            best.join(", ")
        );
    }
    html.push_str("<table class=\"facts openings\"><thead><tr><th>move</th><th>share</th><th>games</th><th>White's score (95% interval)</th><th>+ = −</th></tr></thead><tbody>\n");
    let row_html = |html: &mut String, label: String, line: &c960_openings::Line| {
        let (mean, low, high) = line.counts.interval();
        let _ = writeln!(
            html,
            "<tr><td class=\"mono\">{label}</td><td>{:.1}%</td><td>{}</td><td>{:.1}% ({:.1}–{:.1}%)</td><td>+{} ={} −{}</td></tr>",
            tree.share(line) * 100.0,
            line.counts.games,
            mean * 100.0,
            low * 100.0,
            high * 100.0,
            line.counts.white_wins,
            line.counts.draws,
            line.counts.black_wins
        );
    };
    for line in tree.next_moves("") {
        row_html(&mut html, escape(&line.numbered()), line);
    }
    html.push_str("</tbody></table>\n");
    let lines = tree.openings(PAGE_SHARE);
    if !lines.is_empty() {
        let _ = writeln!(
            html,
            "<p>Lines reached by at least {:.0}% of the games (up to {} plies):</p>\n<table class=\"facts openings\"><thead><tr><th>line</th><th>share</th><th>games</th><th>White's score (95% interval)</th><th>+ = −</th></tr></thead><tbody>",
            PAGE_SHARE * 100.0,
            tree.plies
        );
        for line in lines {
            let ply = line.san.len() - 1;
            let label = format!(
                "{}{}",
                "&nbsp;&nbsp;".repeat(ply),
                escape(&c960_openings::tree::numbered(&line.san[ply..], ply))
            );
            row_html(&mut html, label, line);
        }
        html.push_str("</tbody></table>\n");
    }
    html
}
