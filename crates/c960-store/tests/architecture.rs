//! The invariants `docs/architecture.md` states, checked against the
//! sources: the dependency graph it draws is every `Cargo.toml`'s, the pure
//! floors do no I/O, the store starts no process, there is one
//! `Reference`, the published estimate's column is named in at most two
//! source files, the report computes no statistics (no `sqrt`, and no
//! function of `c960_balance` called), balance knows no file format, the
//! engine no run, `balance.csv` has one reader, the command line parses,
//! calls and prints, and every dependency is named by its crate's code.

use std::{collections::BTreeMap, fs};

use super::shape::{root, source_files};

/// The architecture page.
fn page() -> String {
    fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md")
}

/// The graph the page draws: the `text` block whose lines are
/// `crate: its c960 dependencies`.
fn drawn_graph() -> BTreeMap<String, Vec<String>> {
    let page = page();
    let block = page
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```text block with the dependency graph");
    block
        .lines()
        .map(|line| {
            let (krate, deps) = line.split_once(':').expect("`crate: deps`");
            let mut deps: Vec<String> = deps.split_whitespace().map(str::to_owned).collect();
            deps.sort();
            (krate.trim().to_owned(), deps)
        })
        .collect()
}

/// Every crate's c960 dependencies, as its `Cargo.toml` declares them
/// (`[dependencies]` only).
fn declared_graph() -> BTreeMap<String, Vec<String>> {
    let mut graph = BTreeMap::new();
    for entry in fs::read_dir(root().join("crates")).expect("crates/") {
        let dir = entry.expect("a directory entry").path();
        let Ok(manifest) = fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .expect("a package name")
            .trim_matches('"')
            .to_owned();
        let mut deps: Vec<String> = dependencies(&name)
            .into_iter()
            .filter(|d| d.starts_with("c960"))
            .collect();
        deps.sort();
        graph.insert(name, deps);
    }
    graph
}

#[test]
fn the_dependency_graph_is_the_one_the_architecture_page_draws() {
    assert_eq!(drawn_graph(), declared_graph());
}

#[test]
fn crates_depend_downward_only() {
    // The page lists each crate after everything it depends on.
    let page = page();
    let block = page.split("```text\n").nth(1).expect("the graph");
    let order: Vec<&str> = block
        .lines()
        .take_while(|l| !l.starts_with("```"))
        .filter_map(|l| l.split(':').next())
        .collect();
    for (krate, deps) in drawn_graph() {
        let at = order.iter().position(|c| *c == krate).expect("listed");
        for dep in deps {
            let dep_at = order.iter().position(|c| *c == dep).expect("listed");
            assert!(dep_at < at, "{krate} depends on {dep}, listed after it");
        }
    }
}

/// The source files (tests included) of `krate`'s `src`.
fn crate_sources(krate: &str) -> Vec<(String, String)> {
    let prefix = format!("crates/{krate}/src/");
    source_files(true)
        .into_iter()
        .filter(|(name, _)| name.starts_with(&prefix))
        .collect()
}

/// The files of `files` whose text contains any of `needles`.
fn containing(files: &[(String, String)], needles: &[&str]) -> Vec<String> {
    files
        .iter()
        .filter(|(_, text)| needles.iter().any(|n| text.contains(n)))
        .map(|(name, _)| name.clone())
        .collect()
}

#[test]
fn the_pure_floors_do_no_io() {
    for krate in ["c960-core", "c960-balance"] {
        let files = crate_sources(krate);
        assert!(!files.is_empty(), "{krate} has sources");
        let io = containing(
            &files,
            &["std::fs", "fs::", "std::process", "process::", "std::net"],
        );
        assert!(io.is_empty(), "{krate} does I/O in {io:?}");
    }
}

#[test]
fn the_store_starts_no_process() {
    // Unit-test modules aside: a test may make a FIFO.
    let files: Vec<(String, String)> = source_files(false)
        .into_iter()
        .filter(|(name, _)| name.starts_with("crates/c960-store/src/"))
        .collect();
    let starts = containing(&files, &["process::Command", "Command::new"]);
    assert!(
        starts.is_empty(),
        "the store starts a process in {starts:?}"
    );
}

#[test]
fn the_report_computes_no_statistics() {
    let files = crate_sources("c960-report");
    assert!(!files.is_empty());
    let computing = containing(&files, &["sqrt"]);
    assert!(
        computing.is_empty(),
        "c960-report computes statistics (sqrt) in {computing:?}: they belong in \
         c960-balance or c960-verdict"
    );
}

/// What of `c960_balance` the report may name: types it renders, none of
/// which computes anything.
const RENDERED_BALANCE_TYPES: [&str; 2] = ["verdict::Verdict", "consensus::RaterError"];

/// The paths `text` names after a `c960_balance::`, groups expanded:
/// `{means::{mean, sd}, LEVEL}` gives `means::mean`, `means::sd` and
/// `LEVEL`; the rest of `text` after them.
fn balance_paths(text: &str) -> (Vec<String>, &str) {
    let text = text.trim_start();
    if let Some(mut rest) = text.strip_prefix('{') {
        let mut paths = Vec::new();
        loop {
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('}') {
                return (paths, after);
            }
            if let Some(after) = rest.strip_prefix(',') {
                rest = after;
                continue;
            }
            if rest.is_empty() {
                return (paths, rest);
            }
            let (inner, after) = balance_paths(rest);
            paths.extend(inner);
            rest = after;
        }
    }
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    if end == 0 {
        // A glob or anything else that is not a name: named as itself.
        let width = text.chars().next().map_or(0, char::len_utf8);
        return (vec![text[..width].to_owned()], &text[width..]);
    }
    let (head, rest) = text.split_at(end);
    if head.ends_with("::") {
        let (inner, after) = balance_paths(rest);
        return (
            inner.into_iter().map(|p| format!("{head}{p}")).collect(),
            after,
        );
    }
    (vec![head.trim_end_matches(':').to_owned()], rest)
}

#[test]
fn balance_paths_expand_groups() {
    let (paths, rest) = balance_paths("{means::{mean, sd}, LEVEL};\nfn f() {}");
    assert_eq!(paths, ["means::mean", "means::sd", "LEVEL"]);
    assert!(rest.starts_with(';'));
    assert_eq!(
        balance_paths("normal::interval(cp, se)").0,
        ["normal::interval"]
    );
    assert_eq!(balance_paths("means::*;").0, ["means::*"]);
}

/// The non-test source files under `prefix` (at least one).
fn code_under(prefix: &str) -> Vec<(String, String)> {
    let files: Vec<(String, String)> = source_files(false)
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .collect();
    assert!(!files.is_empty(), "no sources under {prefix}");
    files
}

/// Every path after a `c960_balance::` in `files` that is not one of
/// `allowed`, as `file: c960_balance::path`.
fn balance_names_beyond(files: &[(String, String)], allowed: &[&str]) -> Vec<String> {
    let mut named = Vec::new();
    for (name, text) in files {
        for (at, _) in text.match_indices("c960_balance::") {
            let (paths, _) = balance_paths(&text[at + "c960_balance::".len()..]);
            named.extend(
                paths
                    .into_iter()
                    .filter(|p| !allowed.contains(&p.as_str()))
                    .map(|p| format!("{name}: c960_balance::{p}")),
            );
        }
    }
    named
}

#[test]
fn the_report_names_no_statistics_of_c960_balance() {
    // Its code, test modules aside (a test may compute what it checks).
    let files = code_under("crates/c960-report/src/");
    let named = balance_names_beyond(&files, &RENDERED_BALANCE_TYPES);
    assert!(
        named.is_empty(),
        "c960-report computes with c960-balance ({named:?}): compute in c960-verdict and \
         give the report the result"
    );
}

#[test]
fn there_is_one_reference_of_balance() {
    let sources: Vec<(String, String)> = source_files(true)
        .into_iter()
        .filter(|(name, _)| name.contains("/src/"))
        .collect();
    let defining = containing(&sources, &["enum Reference", "struct Reference"]);
    assert_eq!(defining, ["crates/c960-verdict/src/reference.rs"]);
}

#[test]
fn the_published_estimates_column_is_named_in_at_most_two_source_files() {
    let name = c960_store::columns::balance::ESTIMATE;
    let all = source_files(true);
    let naming = containing(&all, &[name]);
    assert!(
        !naming.is_empty() && naming.len() <= 2,
        "{name} is written in {naming:?}: name it through c960_store::columns::balance"
    );
    // The templates show it through the constant too.
    let mut templates = Vec::new();
    for krate in fs::read_dir(root().join("crates")).expect("crates/") {
        let dir = krate.expect("a directory entry").path().join("templates");
        collect_templates(&dir, &mut templates);
    }
    let named: Vec<String> = templates
        .iter()
        .filter(|(_, text)| text.contains(name))
        .map(|(path, _)| path.clone())
        .collect();
    assert!(named.is_empty(), "templates write {name}: {named:?}");
}

/// Every template under `dir` (none when it does not exist).
fn collect_templates(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_templates(&path, out);
        } else if let Ok(text) = fs::read_to_string(&path) {
            out.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn the_architecture_page_stays_short() {
    let lines = page().lines().count();
    assert!(lines <= 250, "docs/architecture.md has {lines} lines");
}

/// Every dependency (any crate) `krate`'s `Cargo.toml` declares under
/// `[dependencies]`.
fn dependencies(krate: &str) -> Vec<String> {
    let manifest = fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml"))
        .expect("a Cargo.toml");
    manifest
        .split("\n[dependencies]\n")
        .nth(1)
        .map_or("", |rest| rest.split("\n[").next().unwrap_or(""))
        .lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| !name.is_empty() && !name.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Crates that read or write a file format.
const FORMAT_CRATES: [&str; 6] = ["polars", "serde_json", "csv", "toml", "arrow", "parquet"];

#[test]
fn the_balance_statistics_know_no_file_format() {
    let deps = dependencies("c960-balance");
    assert!(deps.iter().any(|d| d == "statrs"), "{deps:?}");
    let formats: Vec<&String> = deps
        .iter()
        .filter(|d| FORMAT_CRATES.contains(&d.as_str()))
        .collect();
    assert!(formats.is_empty(), "c960-balance depends on {formats:?}");
    // Its code, unit-test modules aside (a test may round-trip a value).
    let files: Vec<(String, String)> = crate_sources("c960-balance")
        .into_iter()
        .map(|(name, text)| {
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_owned();
            (name, code)
        })
        .collect();
    let naming = containing(&files, &["polars::", "serde_json::", "csv::", "toml::"]);
    assert!(
        naming.is_empty(),
        "c960-balance reads a format in {naming:?}"
    );
}

#[test]
fn the_engine_knows_no_run_table_or_verdict() {
    let deps = dependencies("c960-engine");
    assert!(deps.iter().any(|d| d == "c960-core"), "{deps:?}");
    let above: Vec<&String> = deps
        .iter()
        .filter(|d| d.starts_with("c960-") && d.as_str() != "c960-core" || d.as_str() == "polars")
        .collect();
    assert!(above.is_empty(), "c960-engine depends on {above:?}");
}

/// The APIs that read a CSV table.
const CSV_READERS: [&str; 5] = [
    "CsvReadOptions",
    "CsvReader",
    "csv::Reader",
    "ReaderBuilder",
    "read_csv",
];

#[test]
fn balance_csv_has_one_reader() {
    // The report, the workflows and the command line read no CSV of their
    // own: a `balance.csv` reaches them through c960-verdict's one reader
    // (`table.rs`), the only CSV reader above the store apart from the
    // exit books' game-pair journals.
    let readers: Vec<String> = source_files(false)
        .into_iter()
        .filter(|(name, _)| name.contains("/src/") && !name.starts_with("crates/c960-store/"))
        .filter(|(_, text)| CSV_READERS.iter().any(|r| text.contains(r)))
        .map(|(name, _)| name)
        .collect();
    assert_eq!(
        readers,
        [
            "crates/c960-book/src/exits/model.rs",
            "crates/c960-verdict/src/table.rs"
        ]
    );
    let table = fs::read_to_string(root().join("crates/c960-verdict/src/table.rs")).unwrap();
    assert!(table.contains("BALANCE_CSV") || table.contains("balance::"));
}

/// What of `c960_balance` the command line may name: types it takes as
/// flags or prints, and the words for a reliability.
const CLI_BALANCE_NAMES: [&str; 5] = [
    "consensus::Weights",
    "verdict::Verdict",
    "Estimate",
    "consensus::Agreement",
    "reliability::describe",
];

/// The APIs that read or write a Parquet table.
const PARQUET_IO: [&str; 3] = ["ParquetReader", "ParquetWriter", "BatchedWriter"];

#[test]
fn the_command_line_parses_calls_and_prints() {
    // It computes nothing and reads or writes no table itself: no
    // statistic of c960_balance, no Parquet or CSV reader or writer of
    // its own (the store's and the libraries' do that).
    let files = code_under("crates/c960/src/");
    let named = balance_names_beyond(&files, &CLI_BALANCE_NAMES);
    assert!(
        named.is_empty(),
        "the command line computes with c960-balance ({named:?}): compute in a library and \
         print the result"
    );
    let tables = containing(
        &files,
        &PARQUET_IO
            .iter()
            .chain(&CSV_READERS)
            .copied()
            .collect::<Vec<_>>(),
    );
    assert!(
        tables.is_empty(),
        "the command line reads or writes a table itself in {tables:?}: use the store's"
    );
}

/// Whether `text` names the crate `path` as a path's first segment
/// (`path::…`, not `other_path::` nor `path_more::`).
fn names_crate(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
            && text[at + path.len()..].starts_with("::")
    })
}

#[test]
fn every_dependency_is_used_by_its_crates_code() {
    // A dependency no code names only lengthens the build (and the graph
    // the page draws): one only tests name belongs under
    // [dev-dependencies], so test files do not count here.
    assert!(names_crate("use serde::Serialize;", "serde"));
    assert!(!names_crate("use serde_json::json;", "serde"));
    assert!(!names_crate("use c960_serde::x;", "serde"));
    let code = source_files(false);
    let mut unused = Vec::new();
    for krate in declared_graph().keys() {
        let prefix = format!("crates/{krate}/src/");
        let mut files: Vec<&str> = code
            .iter()
            .filter(|(name, _)| name.starts_with(&prefix))
            .map(|(_, text)| text.as_str())
            .collect();
        let build = fs::read_to_string(root().join("crates").join(krate).join("build.rs"));
        if let Ok(text) = &build {
            files.push(text);
        }
        for dep in dependencies(krate) {
            let path = dep.replace('-', "_");
            if !files.iter().any(|text| names_crate(text, &path)) {
                unused.push(format!("{krate}: {dep}"));
            }
        }
    }
    assert!(unused.is_empty(), "declared but never named: {unused:?}");
}
