//! The DFRC site: `index.html` with each sweep's provenance, figures and
//! tables, its charts, and the numbers as `dfrc.json` and CSV files.

use std::fmt::Write as _;

use c960_balance::means::{Difference, MeanInterval};

use crate::{html::escape, site};

use super::{
    Analysis, DfrcRun, FEATURES,
    analysis::{FeatureKind, Group, SetupRow},
    charts::searches_words,
    input::recorded,
};

/// The index page.
pub(super) fn index(
    runs: &[DfrcRun],
    analyses: &[Analysis],
    charts: &[Vec<(String, String)>],
) -> String {
    let mut body = String::from(
        "<h1>Double Fischer Random Chess: White's advantage by setup</h1>\n\
         <p>Each setup draws White's and Black's back ranks independently (960 × 960 = 921,600 \
         setups; setup <i>n</i> has White's SP <i>n</i> mod 960 and Black's SP <i>n</i> div 960; \
         the 960 symmetric ones are the Chess960 positions). Scores are the engine's, in \
         centipawns from White's point of view (a mate counts ±1000); group means, the regression \
         and the comparisons take the setups as a sample of all 921,600, so their 95% intervals \
         come from the spread between setups.</p>\n",
    );
    let _ = writeln!(
        body,
        "<p class=\"small\">Numbers: <a href=\"{json}\">{json}</a>, <a href=\"{setups}\">{setups}</a>, \
         <a href=\"{groups}\">{groups}</a>, <a href=\"{regression}\">{regression}</a>.</p>",
        json = super::DFRC_JSON,
        setups = super::DFRC_SETUPS_CSV,
        groups = super::DFRC_GROUPS_CSV,
        regression = super::DFRC_REGRESSION_CSV,
    );
    for ((run, a), shown) in runs.iter().zip(analyses).zip(charts) {
        section(&mut body, run, a, shown);
    }
    site::page("c960 DFRC report", 0, &failures_banner(runs), &body)
}

fn section(body: &mut String, run: &DfrcRun, a: &Analysis, shown: &[(String, String)]) {
    let _ = write!(
        body,
        "<h2 id=\"{label}\"><code>{label}</code></h2>\n<ul class=\"provenance\">\
         <li>engine sweep with {engine}, {limit}, {searches}</li>\
         <li>positions {positions}: {n} setups with a score ({sym} symmetric), {failed} failed</li>\
         <li>seed {seed}, repeat rule {rule}</li>\
         <li>c960 {version}, finished {finished}</li><li>run directory <code>{dir}</code></li></ul>\n",
        label = escape(&a.label),
        engine = escape(&run.manifest.engine_names().join(" vs ")),
        limit = escape(run.manifest.limit.as_deref().unwrap_or_default()),
        searches = searches_words(a.noise.searches),
        positions = escape(&recorded(run.manifest.positions.as_ref())),
        n = a.rows.len(),
        sym = a.symmetric.symmetric.n,
        failed = run.failed.len(),
        seed = escape(&recorded(run.manifest.seed)),
        rule = escape(&recorded(run.manifest.repeat_rule.as_ref())),
        version = escape(&recorded(run.manifest.c960_version.as_ref())),
        finished = escape(&recorded(run.manifest.finished.as_ref())),
        dir = escape(&run.dir.display().to_string()),
    );
    if let Some(m) = &a.overall {
        let _ = write!(
            body,
            "<p>White's advantage over all setups: <b>{}</b>",
            escape(&mean_text(m, " cp"))
        );
        if let Some(e) = &a.overall_expected {
            let _ = write!(
                body,
                "; White's expected score from the engine's WDL: {:.3} [{}, {}]",
                e.mean,
                e.low.map_or("–".to_owned(), |v| format!("{v:.3}")),
                e.high.map_or("–".to_owned(), |v| format!("{v:.3}")),
            );
        }
        body.push_str(".</p>\n");
    }
    noise(body, a);
    body.push_str("<div class=\"charts\">\n");
    for (file, title) in shown {
        let _ = writeln!(
            body,
            "<figure><img src=\"{}\" alt=\"{t}\"><figcaption>{t}</figcaption></figure>",
            escape(file),
            t = escape(title)
        );
    }
    body.push_str("</div>\n");
    groups(body, a);
    regression(body, a);
    symmetric(body, a);
    verdicts(body, a);
}

fn noise(body: &mut String, a: &Analysis) {
    let n = &a.noise;
    body.push_str("<p class=\"reliability\">");
    if let Some(sd) = n.search_sd {
        let _ = write!(
            body,
            "Search noise: one search's standard deviation {sd:.1} cp, pooled over the {} setups \
             with repeats; ",
            n.repeated
        );
    }
    if let Some(r) = &n.repeatability {
        let _ = write!(
            body,
            "repeatability recorded by the sweep: split-half {:.3}, of the means over all repeats {:.3}; ",
            r.split_half, r.all_repeats
        );
    }
    if let Some(r) = n.reliability {
        let _ = write!(body, "reliability of the setup means {r:.2}: ");
    }
    let _ = writeln!(body, "{}.</p>", escape(&n.words));
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

fn groups(body: &mut String, a: &Analysis) {
    body.push_str(
        "<h3>White's advantage by feature</h3>\n<table class=\"sortable\"><thead><tr>\
         <th data-type=\"text\">feature</th><th data-type=\"text\">kind</th><th data-type=\"num\">value</th>\
         <th data-type=\"num\">n</th><th data-type=\"num\">mean cp</th><th data-type=\"text\">95% interval</th>\
         <th data-type=\"num\">sd cp</th><th data-type=\"num\">expected score [95%]</th></tr></thead>\n<tbody>\n",
    );
    for g in &a.groups {
        let words = FEATURES
            .iter()
            .find(|f| f.name == g.feature)
            .map_or("", |f| f.words);
        let _ = writeln!(
            body,
            "<tr><td title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(words),
            escape(words),
            kind(g),
            match g.kind {
                FeatureKind::PerSide => g.value.to_string(),
                FeatureKind::Asymmetry => format!("{:+}", g.value),
            },
            g.cp.n,
            g.cp.mean,
            interval(&g.cp, 1),
            g.cp.sd.map_or(String::new(), |s| format!("{s:.1}")),
            g.expected.map_or(String::new(), |e| match (e.low, e.high) {
                (Some(l), Some(h)) => format!("{:.3} [{l:.3}, {h:.3}]", e.mean),
                _ => format!("{:.3}", e.mean),
            }),
        );
    }
    body.push_str("</tbody></table>\n");
}

fn kind(g: &Group) -> &'static str {
    match g.kind {
        FeatureKind::PerSide => "per side",
        FeatureKind::Asymmetry => "asymmetry",
    }
}

fn regression(body: &mut String, a: &Analysis) {
    body.push_str("<h3>Regression of White's advantage on each side's features</h3>\n");
    let Some(r) = &a.regression else {
        body.push_str("<p>Too few setups to fit the regression.</p>\n");
        return;
    };
    let _ = write!(
        body,
        "<p>Ordinary least squares with an intercept, n = {} setups, R² = {:.3}, residual sd \
         {:.1} cp. Intervals are 95% with heteroskedasticity-robust (HC3) standard errors; HC1 \
         is shown beside them.{}</p>\n<table class=\"sortable\"><thead><tr>\
         <th data-type=\"text\">coefficient</th><th data-type=\"num\">cp per unit</th>\
         <th data-type=\"text\">95% interval</th><th data-type=\"num\">SE (HC3)</th>\
         <th data-type=\"num\">SE (HC1)</th><th data-type=\"num\">p</th></tr></thead>\n<tbody>\n",
        r.n,
        r.r_squared,
        r.residual_sd,
        if r.dropped.is_empty() {
            String::new()
        } else {
            format!(
                " Left out as constant or collinear in these setups: {}.",
                escape(&r.dropped.join(", "))
            )
        }
    );
    for c in &r.coefficients {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{:+.2}</td><td>{:+.2} to {:+.2}</td><td>{:.2}</td><td>{:.2}</td><td>{:.3}</td></tr>",
            escape(&c.name),
            c.estimate,
            c.low,
            c.high,
            c.se_hc3,
            c.se_hc1,
            c.p_value
        );
    }
    body.push_str("</tbody></table>\n");
}

fn symmetric(body: &mut String, a: &Analysis) {
    let s = &a.symmetric;
    body.push_str("<h3>The symmetric setups against the rest</h3>\n");
    let line = |what: &str, m: &MeanInterval| {
        if m.n == 0 {
            format!("<li>{what}: none in this set</li>")
        } else {
            format!(
                "<li>{what}: mean {:+.1} cp (95% interval {}), sd {}, n = {}</li>",
                m.mean,
                interval(m, 1),
                m.sd.map_or("–".to_owned(), |v| format!("{v:.1} cp")),
                m.n
            )
        }
    };
    let diff = |what: &str, d: Option<Difference>, how: &str| match d {
        Some(d) => format!(
            "<li>{what}, symmetric minus asymmetric: {:+.1} cp (95% interval {:+.1} to {:+.1}; {how})</li>",
            d.estimate, d.low, d.high
        ),
        None => format!("<li>{what}: needs two setups or more on each side</li>"),
    };
    let _ = writeln!(
        body,
        "<ul>{}{}{}{}</ul>",
        line("Symmetric (the Chess960 positions)", &s.symmetric),
        line("Asymmetric", &s.rest),
        diff("Difference in mean", s.mean_difference, "Welch"),
        diff(
            "Difference in spread (sd)",
            s.sd_difference,
            &format!(
                "percentile bootstrap, {} resamples, seed {}",
                a.settings.resamples, a.settings.seed
            )
        ),
    );
}

fn verdicts(body: &mut String, a: &Analysis) {
    let centre = a.overall.map_or(f64::NAN, |m| m.mean);
    let counts: Vec<String> = a.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    let _ = write!(
        body,
        "<h3>The most and least balanced setups</h3>\n<p>Balanced means within ±{} cp of the mean \
         of all setups ({centre:+.1} cp); more-for-white and less-for-white are outside that band; \
         false discovery rate {:.0}% (Benjamini–Hochberg q-values). Verdicts: {}.{}</p>\n",
        a.settings.band_cp,
        a.settings.level * 100.0,
        counts.join(", "),
        if a.decided {
            " Setups are ranked by their estimate shrunk toward the mean of all setups."
        } else {
            " One search per setup measures no setup's error: every verdict is unresolved, and \
             setups are ranked by their single score."
        }
    );
    for (title, rows) in [
        ("Most balanced", &a.most_balanced),
        ("Least balanced", &a.least_balanced),
    ] {
        let _ = writeln!(body, "<h4>{title}</h4>");
        setup_table(body, rows);
    }
}

fn setup_table(body: &mut String, rows: &[SetupRow]) {
    body.push_str(
        "<table class=\"sortable\"><thead><tr><th data-type=\"num\">setup</th>\
         <th data-type=\"text\">placement (White/Black)</th><th data-type=\"num\">White SP</th>\
         <th data-type=\"num\">Black SP</th><th data-type=\"num\">searches</th>\
         <th data-type=\"num\">cp</th><th data-type=\"text\">95% interval</th>\
         <th data-type=\"num\">shrunk cp</th><th data-type=\"num\">expected score</th>\
         <th data-type=\"text\">verdict</th><th data-type=\"num\">q-value</th></tr></thead>\n<tbody>\n",
    );
    for r in rows {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:+.1}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.setup,
            escape(&r.placement),
            r.white_sp,
            r.black_sp,
            r.searches,
            r.cp,
            r.low
                .zip(r.high)
                .map_or("not measured".to_owned(), |(l, h)| format!(
                    "{l:+.1} to {h:+.1}"
                )),
            r.shrunk.map_or(String::new(), |v| format!("{v:+.1}")),
            r.expected.map_or(String::new(), |v| format!("{v:.3}")),
            r.verdict.name(),
            crate::site::q_value_text(r.q_value)
        );
    }
    body.push_str("</tbody></table>\n");
}

/// A warning naming the sweeps with failed setups (empty if none).
fn failures_banner(runs: &[DfrcRun]) -> String {
    let lines: Vec<String> = runs
        .iter()
        .filter(|r| !r.failed.is_empty())
        .map(|r| {
            let listed: Vec<String> = r.failed.iter().take(10).map(|(n, _)| n.to_string()).collect();
            format!(
                "Incomplete input: run <b>{}</b> has {} failed setup{} ({}{}); the report has no numbers for them.",
                escape(&r.label),
                r.failed.len(),
                if r.failed.len() == 1 { "" } else { "s" },
                listed.join(", "),
                if r.failed.len() > 10 { ", …" } else { "" }
            )
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "<div class=\"warning\" role=\"alert\" style=\"border:2px solid #b00;background:#fee;padding:0.5em 1em;margin:0.5em 0\">{}</div>\n",
        lines.join("<br>")
    )
}
