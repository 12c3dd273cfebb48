//! The command reference and the docs: completions and man pages come from
//! the definitions `--help` uses, every link in the README and `docs/`
//! resolves, and the figures they print of dataset v3 are the published
//! ones.

use crate::util;

use std::{fs, path::Path};

use util::Dir;

/// Every subcommand and a few flags, as `--help` names them.
fn subcommands(dir: &Dir) -> Vec<String> {
    let help = dir.ok(&["--help"]);
    let commands = help
        .split("Commands:")
        .nth(1)
        .expect("a Commands: section in c960 --help");
    commands
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn completions_and_man_pages_come_from_the_same_definitions_as_help() {
    let dir = Dir::new();
    let commands = subcommands(&dir);
    assert!(commands.len() >= 18, "{commands:?}");
    let bash = dir.ok(&["completions", "bash"]);
    for command in &commands {
        assert!(
            bash.contains(command.as_str()),
            "{command} not in the bash completions"
        );
    }
    for flag in [
        "--sweep-nodes",
        "--validation",
        "--publish-rounds",
        "--weights",
    ] {
        assert!(bash.contains(flag), "{flag} not in the bash completions");
    }
    for shell in ["zsh", "fish"] {
        assert!(dir.ok(&["completions", shell]).contains("sweep-nodes"));
    }
    let page = dir.ok(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH c960 1"),
        "{page:.200}"
    );
    for command in &commands {
        assert!(
            page.contains(&format!("c960\\-{command}")),
            "{command} not in c960.1"
        );
    }
    dir.ok(&["man", "--out", "."]);
    for command in &commands {
        let sub = fs::read_to_string(dir.file(&format!("c960-{command}.1")))
            .unwrap_or_else(|e| panic!("c960-{command}.1: {e}"));
        assert!(
            sub.contains(&format!(".TH c960-{command} 1")),
            "c960-{command}.1"
        );
    }
    let run = fs::read_to_string(dir.file("c960-run.1")).unwrap();
    assert!(run.contains("sweep\\-nodes"), "{run:.400}");
    // A shell that does not exist is bad input.
    let err = dir.bad_input(&["completions", "tcsh"]);
    assert!(err.contains("tcsh"), "{err}");
}

/// The targets of the Markdown links `[text](target)` in `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn every_link_in_the_readme_and_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md"), root.join("reports/README.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut checked = 0;
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        for target in links(&text) {
            if target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
                || target.starts_with('#')
            {
                continue;
            }
            let path = target.split('#').next().unwrap();
            assert!(
                !path.starts_with("../shared") && !path.starts_with('/'),
                "{}: the link {target} leaves the repository",
                file.display()
            );
            let resolved = file.parent().unwrap().join(path);
            assert!(
                resolved.exists(),
                "{}: the link {target} does not resolve",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} links checked");
}

/// A correlation with its interval as the docs print it: `0.912 [0.899, 0.924]`.
fn figure(estimate: &serde_json::Value) -> String {
    let at = |key: &str| estimate[key].as_f64().unwrap();
    format!("{:.3} [{:.3}, {:.3}]", at("value"), at("low"), at("high"))
}

/// The published `data/SET/NAME`, parsed.
fn published_json(set: &str, name: &str) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("data").join(set).join(name);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (publish with data/publish-*.sh)", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn doc(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    fs::read_to_string(root.join(name)).unwrap()
}

/// Every r of `data/SET/agreement.json` (six analyses and their mean, with
/// intervals) is in docs/datasets.md, and the headline, r with the mean,
/// in the README.
fn agreement_figures_are_in_the_docs(set: &str) {
    let agreement = published_json(set, "agreement.json");
    let references = agreement["references"].as_array().unwrap();
    assert_eq!(references.len(), 7, "six analyses and their mean");
    let datasets = doc("docs/datasets.md");
    for reference in references {
        let name = reference["name"].as_str().unwrap();
        let r = figure(&reference["comparison"]["pearson"]);
        assert!(
            datasets.contains(&r),
            "docs/datasets.md does not give {set}'s r = {r} against {name}"
        );
    }
    let headline = figure(&references[6]["comparison"]["pearson"]);
    assert!(
        doc("README.md").contains(&headline),
        "the README does not give {set}'s r = {headline} with the public analyses' mean"
    );
}

/// `N `balanced`, N `more-for-white`, …` as docs/datasets.md gives a
/// dataset's verdicts, and the count of `balanced`.
fn verdict_counts(set: &str) -> (String, u64) {
    let balance = published_json(set, "balance.json");
    let count = |verdict: &str| balance["sweep"]["verdicts"][verdict].as_u64().unwrap();
    let counts = format!(
        "{} `balanced`, {} `more-for-white`, {} `less-for-white`, {} `unresolved`",
        count("balanced"),
        count("more-for-white"),
        count("less-for-white"),
        count("unresolved")
    );
    (counts, count("balanced"))
}

#[test]
fn the_v3_agreement_figures_in_the_docs_are_the_published_ones() {
    agreement_figures_are_in_the_docs("research-v3");
}

#[test]
fn the_v4_agreement_figures_in_the_docs_are_the_published_ones() {
    agreement_figures_are_in_the_docs("research-v4");
}

#[test]
fn the_v3_and_v4_verdict_counts_in_the_docs_are_the_published_ones() {
    let datasets = doc("docs/datasets.md");
    let datasets = datasets.split_whitespace().collect::<Vec<_>>().join(" ");
    for set in ["research-v3", "research-v4"] {
        let (counts, _) = verdict_counts(set);
        assert!(
            datasets.contains(&counts),
            "docs/datasets.md does not give {set}'s verdicts as {counts}"
        );
    }
    // The README and the organizer's guide name how many positions a
    // `--verdict balanced` draw from the current dataset, v4, chooses among.
    let (_, balanced) = verdict_counts("research-v4");
    let balanced = format!("{balanced} positions");
    for guide in ["README.md", "docs/organizer.md"] {
        let text = doc(guide);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains(&format!("{balanced} dataset v4 calls balanced"))
                || text.contains(&format!(
                    "{balanced} the published dataset v4 calls balanced"
                )),
            "{guide} does not say that v4 calls {balanced} balanced"
        );
    }
}

/// The core-hours of a published sweep: its searches' own times.
fn core_hours(table: &Path) -> f64 {
    let frame = crate::util::read_parquet(table);
    let ms: f64 = frame
        .column("time_ms")
        .unwrap()
        .as_materialized_series()
        .cast(&polars::prelude::DataType::Float64)
        .unwrap()
        .f64()
        .unwrap()
        .iter()
        .flatten()
        .sum();
    ms / 3.6e6
}

#[test]
fn the_v4_raters_core_hours_and_design_bench_in_the_docs_are_the_published_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let datasets = doc("docs/datasets.md");
    let section = &datasets[datasets
        .find("## Research dataset v4")
        .expect("docs/datasets.md has a v4 section")..];
    let mut total = 0.0;
    // The raters as data/publish-v4.sh names them: v3's where v3 published
    // them, the new ones in data/research-v4.
    let script_list = crate::regenerate::v4::script_list;
    let raters = script_list("publish-v4.sh", "V3_RATERS")
        .into_iter()
        .map(|r| ("research-v3", r))
        .chain(
            script_list("publish-v4.sh", "V4_NEW")
                .into_iter()
                .map(|r| ("research-v4", r)),
        );
    for (set, rater) in raters {
        let hours = core_hours(&root.join(format!("data/{set}/{rater}-sweep.parquet")));
        total += hours;
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| `{rater}`")))
            .unwrap_or_else(|| panic!("docs/datasets.md's v4 table has no row for {rater}"));
        assert!(
            row.trim_end().ends_with(&format!("| {hours:.2} |")),
            "docs/datasets.md gives {rater} other core-hours than its table's {hours:.2}: {row}"
        );
    }
    assert!(
        section.contains(&format!("**{total:.2} in all**")),
        "docs/datasets.md does not give v4's {total:.2} core-hours in all"
    );
    // The design bench: every row of the published table in docs/validity.md,
    // and its design of all eight raters is the published v4.
    let validity = doc("docs/validity.md");
    let bench = fs::read_to_string(root.join("data/research-v4/validity-960.csv")).unwrap();
    let mut lines = bench.lines();
    assert_eq!(
        lines.next(),
        Some(
            "design,raters,positions,pearson,pearson_low,pearson_high,single_low,single_high,core_hours"
        )
    );
    let mut eight = None;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let at = |i: usize| cells[i].parse::<f64>().unwrap();
        let raters = cells[1].split_whitespace().count();
        let row = format!(
            "| {} | {raters} | {:.3} [{:.3}, {:.3}] | {:.2}–{:.2} | {:.2} | {:.3} |",
            cells[0],
            at(3),
            at(4),
            at(5),
            at(6),
            at(7),
            at(8),
            at(3) / at(8)
        );
        assert!(
            validity.contains(&row),
            "docs/validity.md lacks the bench row {row}"
        );
        if raters == 8 {
            eight = Some(format!("{:.3} [{:.3}, {:.3}]", at(3), at(4), at(5)));
        }
    }
    let agreement = published_json("research-v4", "agreement.json");
    assert_eq!(
        eight.as_deref(),
        Some(figure(&agreement["references"][6]["comparison"]["pearson"]).as_str()),
        "the bench's design of all eight raters is the published v4"
    );
}
