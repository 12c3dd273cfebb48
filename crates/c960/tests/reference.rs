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

#[test]
fn the_v3_agreement_figures_in_the_docs_are_the_published_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let agreement = root.join("data/research-v3/agreement.json");
    let text = fs::read_to_string(&agreement).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (publish v3 with data/publish-v3.sh)",
            agreement.display()
        )
    });
    let agreement: serde_json::Value = serde_json::from_str(&text).unwrap();
    let references = agreement["references"].as_array().unwrap();
    assert_eq!(references.len(), 7, "six analyses and their mean");
    let datasets = fs::read_to_string(root.join("docs/datasets.md")).unwrap();
    for reference in references {
        let name = reference["name"].as_str().unwrap();
        let r = figure(&reference["comparison"]["pearson"]);
        assert!(
            datasets.contains(&r),
            "docs/datasets.md does not give r = {r} against {name}"
        );
    }
    // The headline, r with the analyses' mean, in the README too.
    let headline = figure(&references[6]["comparison"]["pearson"]);
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains(&headline),
        "the README does not give v3's r = {headline} with the public analyses' mean"
    );
}

#[test]
fn the_v3_verdict_counts_in_the_docs_are_the_published_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let balance: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(root.join("data/research-v3/balance.json")).unwrap(),
    )
    .unwrap();
    let count = |verdict: &str| balance["sweep"]["verdicts"][verdict].as_u64().unwrap();
    let counts = format!(
        "{} `balanced`, {} `more-for-white`, {} `less-for-white`, {} `unresolved`",
        count("balanced"),
        count("more-for-white"),
        count("less-for-white"),
        count("unresolved")
    );
    let datasets = fs::read_to_string(root.join("docs/datasets.md")).unwrap();
    assert!(
        datasets.contains(&counts),
        "docs/datasets.md does not give v3's verdicts as {counts}"
    );
    // The README and the organizer's guide name how many positions a
    // `--verdict balanced` draw from v3 chooses among.
    let balanced = format!("{} positions", count("balanced"));
    for guide in ["README.md", "docs/organizer.md"] {
        let text = fs::read_to_string(root.join(guide)).unwrap();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains(&format!("{balanced} dataset v3 calls balanced"))
                || text.contains(&format!(
                    "{balanced} the published dataset v3 calls balanced"
                )),
            "{guide} does not say that v3 calls {balanced} balanced"
        );
    }
}
