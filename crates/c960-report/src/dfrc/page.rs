//! The DFRC site: `index.html` with each sweep's provenance, figures and
//! tables, its charts, and the numbers as `dfrc.json` and CSV files.

use std::fmt::Write as _;

use askama::Template;
use c960_verdict::dfrc::{Difference, Group, MeanInterval, SetupRow};

use crate::{html::escape, site};

use super::{Analysis, DfrcRun, FEATURES, FeatureKind, charts::searches_words, input::recorded};

/// The index page (`templates/dfrc/index.html`).
pub(super) fn index(
    runs: &[DfrcRun],
    analyses: &[Analysis],
    charts: &[Vec<(String, String)>],
) -> String {
    let body = IndexPage {
        json: super::DFRC_JSON,
        setups: super::DFRC_SETUPS_CSV,
        groups: super::DFRC_GROUPS_CSV,
        regression: super::DFRC_REGRESSION_CSV,
        sections: runs
            .iter()
            .zip(analyses)
            .zip(charts)
            .map(|((run, a), shown)| section(run, a, shown))
            .collect(),
    }
    .to_string();
    site::page("c960 DFRC report", 0, &failures_banner(runs), &body)
}

/// The index's body.
#[derive(Template)]
#[template(path = "dfrc/index.html")]
struct IndexPage<'a> {
    json: &'a str,
    setups: &'a str,
    groups: &'a str,
    regression: &'a str,
    sections: Vec<Section<'a>>,
}

/// One sweep's section of the index: its numbers as text.
struct Section<'a> {
    label: &'a str,
    engine: String,
    limit: &'a str,
    searches: String,
    positions: String,
    n: usize,
    symmetric_n: usize,
    failed: usize,
    seed: String,
    rule: String,
    version: String,
    finished: String,
    dir: String,
    overall: Option<String>,
    expected: Option<String>,
    noise: String,
    charts: &'a [(String, String)],
    groups: Vec<GroupRow>,
    regression: Option<RegressionRows>,
    symmetric: [String; 4],
    band: String,
    centre: String,
    level: String,
    counts: String,
    decided: bool,
    rankings: [(&'static str, Vec<[String; 11]>); 2],
}

/// A row of the table by feature.
struct GroupRow {
    words: &'static str,
    kind: &'static str,
    value: String,
    n: usize,
    mean: String,
    interval: String,
    sd: String,
    expected: String,
}

/// The regression's figures and its coefficients' rows.
struct RegressionRows {
    n: usize,
    r_squared: String,
    residual_sd: String,
    dropped: String,
    coefficients: Vec<[String; 7]>,
}

fn section<'a>(run: &'a DfrcRun, a: &'a Analysis, shown: &'a [(String, String)]) -> Section<'a> {
    let centre = a.overall.map_or(f64::NAN, |m| m.mean);
    let counts: Vec<String> = a.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    Section {
        label: &a.label,
        engine: run.manifest.engine_names().join(" vs "),
        limit: run.manifest.limit.as_deref().unwrap_or_default(),
        searches: searches_words(a.noise.searches),
        positions: recorded(run.manifest.positions.as_ref()),
        n: a.rows.len(),
        symmetric_n: a.symmetric.symmetric.n,
        failed: run.failed.len(),
        seed: recorded(run.manifest.seed),
        rule: recorded(run.manifest.repeat_rule.as_ref()),
        version: recorded(run.manifest.c960_version.as_ref()),
        finished: recorded(run.manifest.finished.as_ref()),
        dir: run.dir.display().to_string(),
        overall: a.overall.as_ref().map(|m| mean_text(m, " cp")),
        expected: a.overall_expected.as_ref().map(|e| {
            format!(
                "{:.3} [{}, {}]",
                e.mean,
                e.low.map_or("–".to_owned(), |v| format!("{v:.3}")),
                e.high.map_or("–".to_owned(), |v| format!("{v:.3}")),
            )
        }),
        noise: noise(a),
        charts: shown,
        groups: a.groups.iter().map(group_row).collect(),
        regression: a.regression.as_ref().map(|r| RegressionRows {
            n: r.n,
            r_squared: format!("{:.3}", r.r_squared),
            residual_sd: format!("{:.1}", r.residual_sd),
            dropped: r.dropped.join(", "),
            coefficients: r
                .coefficients
                .iter()
                .map(|c| {
                    [
                        c.name.clone(),
                        format!("{:+.2}", c.estimate),
                        format!("{:+.2}", c.low),
                        format!("{:+.2}", c.high),
                        format!("{:.2}", c.se_hc3),
                        format!("{:.2}", c.se_hc1),
                        format!("{:.3}", c.p_value),
                    ]
                })
                .collect(),
        }),
        symmetric: symmetric(a),
        band: a.settings.band_cp.to_string(),
        centre: format!("{centre:+.1}"),
        level: format!("{:.0}", a.settings.level * 100.0),
        counts: counts.join(", "),
        decided: a.decided,
        rankings: [
            ("Most balanced", setup_rows(&a.most_balanced)),
            ("Least balanced", setup_rows(&a.least_balanced)),
        ],
    }
}

/// The reliability paragraph's text (HTML).
fn noise(a: &Analysis) -> String {
    let n = &a.noise;
    let mut text = String::new();
    if let Some(sd) = n.search_sd {
        let _ = write!(
            text,
            "Search noise: one search's standard deviation {sd:.1} cp, pooled over the {} setups \
             with repeats; ",
            n.repeated
        );
    }
    if let Some(r) = &n.repeatability {
        let _ = write!(
            text,
            "repeatability recorded by the sweep: split-half {:.3}, of the means over all repeats {:.3}; ",
            r.split_half, r.all_repeats
        );
    }
    if let Some(r) = n.reliability {
        let _ = write!(text, "reliability of the setup means {r:.2}: ");
    }
    text.push_str(&escape(&n.words));
    text
}

/// `+12.3 cp [+8.1, +16.5], n = 40` (or without the interval).
fn mean_text(m: &MeanInterval, unit: &str) -> String {
    match (m.low, m.high) {
        (Some(low), Some(high)) => {
            format!("{:+.1}{unit} [{low:+.1}, {high:+.1}], n = {}", m.mean, m.n)
        }
        _ => format!("{:+.1}{unit} (no interval), n = {}", m.mean, m.n),
    }
}

fn interval(m: &MeanInterval, digits: usize) -> String {
    match (m.low, m.high) {
        (Some(l), Some(h)) => format!("{l:+.digits$} to {h:+.digits$}"),
        _ => "none (one setup)".to_owned(),
    }
}

fn group_row(g: &Group) -> GroupRow {
    let words = FEATURES
        .iter()
        .find(|f| f.name == g.feature)
        .map_or("", |f| f.words);
    GroupRow {
        words,
        kind: kind(g),
        value: match g.kind {
            FeatureKind::PerSide => g.value.to_string(),
            FeatureKind::Asymmetry => format!("{:+}", g.value),
        },
        n: g.cp.n,
        mean: format!("{:+.1}", g.cp.mean),
        interval: interval(&g.cp, 1),
        sd: g.cp.sd.map_or(String::new(), |s| format!("{s:.1}")),
        expected: g.expected.map_or(String::new(), |e| match (e.low, e.high) {
            (Some(l), Some(h)) => format!("{:.3} [{l:.3}, {h:.3}]", e.mean),
            _ => format!("{:.3}", e.mean),
        }),
    }
}

fn kind(g: &Group) -> &'static str {
    match g.kind {
        FeatureKind::PerSide => "per side",
        FeatureKind::Asymmetry => "asymmetry",
    }
}

/// The list comparing the symmetric setups with the rest (each item's
/// text).
fn symmetric(a: &Analysis) -> [String; 4] {
    let s = &a.symmetric;
    let line = |what: &str, m: &MeanInterval| {
        if m.n == 0 {
            format!("{what}: none in this set")
        } else {
            format!(
                "{what}: mean {:+.1} cp (95% interval {}), sd {}, n = {}",
                m.mean,
                interval(m, 1),
                m.sd.map_or("–".to_owned(), |v| format!("{v:.1} cp")),
                m.n
            )
        }
    };
    let diff = |what: &str, d: Option<Difference>, how: &str| match d {
        Some(d) => format!(
            "{what}, symmetric minus asymmetric: {:+.1} cp (95% interval {:+.1} to {:+.1}; {how})",
            d.estimate, d.low, d.high
        ),
        None => format!("{what}: needs two setups or more on each side"),
    };
    [
        line("Symmetric (the Chess960 positions)", &s.symmetric),
        line("Asymmetric", &s.rest),
        diff("Difference in mean", s.mean_difference, "Welch"),
        diff(
            "Difference in spread (sd)",
            s.sd_difference,
            &format!(
                "percentile bootstrap, {} resamples, seed {}",
                a.settings.resamples, a.settings.seed
            ),
        ),
    ]
}

/// The cells of a table of setups.
fn setup_rows(rows: &[SetupRow]) -> Vec<[String; 11]> {
    rows.iter()
        .map(|r| {
            [
                r.setup.to_string(),
                r.placement.clone(),
                r.white_sp.to_string(),
                r.black_sp.to_string(),
                r.searches.to_string(),
                format!("{:+.1}", r.cp),
                r.low
                    .zip(r.high)
                    .map_or("not measured".to_owned(), |(l, h)| {
                        format!("{l:+.1} to {h:+.1}")
                    }),
                r.shrunk.map_or(String::new(), |v| format!("{v:+.1}")),
                r.expected.map_or(String::new(), |v| format!("{v:.3}")),
                r.verdict.name().to_string(),
                crate::view::q_value_text(r.q_value),
            ]
        })
        .collect()
}

/// A warning naming the sweeps with failed setups (empty if none).
fn failures_banner(runs: &[DfrcRun]) -> String {
    let lines: Vec<String> = runs
        .iter()
        .filter(|r| !r.failed.is_empty())
        .map(|r| {
            let listed: Vec<String> = r
                .failed
                .iter()
                .take(10)
                .map(|(n, _)| n.to_string())
                .collect();
            site::Failure {
                label: &r.label,
                summary: &format!(
                    "{} failed setup{} ({}{})",
                    r.failed.len(),
                    if r.failed.len() == 1 { "" } else { "s" },
                    listed.join(", "),
                    if r.failed.len() > 10 { ", …" } else { "" }
                ),
                what: "report",
                failed: Vec::new(),
            }
            .to_string()
        })
        .collect();
    site::warning(&lines)
}
