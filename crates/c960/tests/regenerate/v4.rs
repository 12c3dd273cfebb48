//! Dataset v4 regenerates from its published raters: the report over v3's
//! four published sweeps and v4's new ones, with the difficulty sweep, run
//! as data/publish-v4.sh runs it (the lists are read from that script), is
//! the published site and tables byte for byte.

use std::fs;

use super::{data, place, report_is_published};
use crate::util::Dir;

/// The words of the bash array `name=(...)` in `data/{script}`.
pub(crate) fn script_list(script: &str, name: &str) -> Vec<String> {
    let script = data(script);
    let text = fs::read_to_string(&script).unwrap();
    let start = format!("{name}=(");
    let line = text
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("{} has no {name}=(...)", script.display()));
    line[start.len()..]
        .trim_end_matches(')')
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_research_v4_report_regenerates_from_the_published_raters() {
    let (v3, new) = (
        script_list("publish-v4.sh", "V3_RATERS"),
        script_list("publish-v4.sh", "V4_NEW"),
    );
    assert!(
        v3.len() + new.len() >= 8,
        "v4 has at least 8 raters: {v3:?} {new:?}"
    );
    let dir = Dir::new();
    let mut args = vec!["report".to_owned()];
    for (set, raters) in [("research-v3", &v3), ("research-v4", &new)] {
        for rater in raters {
            for file in ["sweep.parquet", "manifest.json"] {
                let name = format!("{rater}-{file}");
                place(
                    &data(set).join(&name),
                    &dir.file(&format!("data/{set}/{name}")),
                );
            }
            args.extend([
                "--sweep".to_owned(),
                format!("data/{set}/{rater}-sweep.parquet"),
            ]);
        }
    }
    for name in script_list("publish-v4.sh", "DIFFICULTY") {
        for file in ["sweep.parquet", "manifest.json"] {
            let file = format!("{name}-{file}");
            place(
                &data("research-v4").join(&file),
                &dir.file(&format!("data/research-v4/{file}")),
            );
        }
        args.extend([
            "--difficulty".to_owned(),
            format!("data/research-v4/{name}-sweep.parquet"),
        ]);
    }
    let agreement = data("research-v4").join("agreement.json");
    args.extend([
        "--agreement".to_owned(),
        agreement.to_string_lossy().into_owned(),
        "--out".to_owned(),
        "runs/research-v4/published".to_owned(),
        "--quiet".to_owned(),
    ]);
    report_is_published(&dir, &args, "research-v4");
}
