//! No import circle: within each crate, the source files depend on each
//! other one way. File A depends on file B when A names, through a
//! `crate::…` or `super::…` path (in a `use` or inline), an item that only B
//! defines; a set of files that reach each other that way is a circle.

use std::collections::{BTreeMap, BTreeSet};

use super::shape::source_files;

/// The keywords that define a named item, after any `pub(…)`.
const DEFINERS: &[&str] = &[
    "const fn ",
    "async fn ",
    "unsafe fn ",
    "fn ",
    "struct ",
    "enum ",
    "trait ",
    "type ",
    "const ",
    "static ",
    "macro_rules! ",
];

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn ident_at(text: &str) -> &str {
    &text[..text.find(|c| !is_ident(c)).unwrap_or(text.len())]
}

/// The names of the items defined at the start of a line of `text`.
fn definitions(text: &str) -> BTreeSet<&str> {
    text.lines()
        .filter_map(|line| {
            let mut rest = line.trim_start();
            if let Some(after) = rest.strip_prefix("pub") {
                rest = match after.strip_prefix('(') {
                    Some(scoped) => scoped.split_once(')')?.1,
                    None => after,
                }
                .trim_start();
            }
            DEFINERS
                .iter()
                .find_map(|k| rest.strip_prefix(k))
                .map(ident_at)
                .filter(|name| !name.is_empty())
        })
        .collect()
}

/// The last names of every `crate::…` and `super::…` path in `text`
/// (each name of a `{…}` group).
fn named(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for start in ["crate::", "super::"] {
        for (at, _) in text.match_indices(start) {
            if text[..at].ends_with(is_ident) {
                continue;
            }
            let mut rest = &text[at + start.len()..];
            loop {
                let ident = ident_at(rest);
                match rest[ident.len()..].strip_prefix("::") {
                    Some(after) if !ident.is_empty() => rest = after,
                    _ => break,
                }
            }
            if let Some(group) = rest.strip_prefix('{') {
                if let Some(end) = group
                    .find(['}', ';'])
                    .filter(|&e| group[e..].starts_with('}'))
                {
                    names.extend(
                        group[..end]
                            .split(|c| !is_ident(c))
                            .filter(|n| !n.is_empty()),
                    );
                }
            } else if !ident_at(rest).is_empty() {
                names.push(ident_at(rest));
            }
        }
    }
    names
}

/// The files of one crate (name, text without its `mod tests`) that lie
/// on a circle, each with the name that leads it on to the next.
fn circles(files: &[(String, &str)]) -> Vec<String> {
    let mut definers: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for (i, (_, text)) in files.iter().enumerate() {
        for name in definitions(text) {
            definers.entry(name).or_default().insert(i);
        }
    }
    let mut edges: Vec<BTreeMap<usize, &str>> = vec![BTreeMap::new(); files.len()];
    for (i, (_, text)) in files.iter().enumerate() {
        for name in named(text) {
            let others: Vec<usize> = definers
                .get(name)
                .map(|d| d.iter().copied().filter(|&j| j != i).collect())
                .unwrap_or_default();
            if let [only] = others[..] {
                edges[i].insert(only, name);
            }
        }
    }
    // A file is on a circle when it reaches itself.
    let reaches = |from: usize| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<usize> = edges[from].keys().copied().collect();
        while let Some(at) = todo.pop() {
            if seen.insert(at) {
                todo.extend(edges[at].keys().copied());
            }
        }
        seen
    };
    let reached: Vec<BTreeSet<usize>> = (0..files.len()).map(reaches).collect();
    let mut found = Vec::new();
    for (i, (name, _)) in files.iter().enumerate() {
        for (&j, item) in &edges[i] {
            if reached[i].contains(&i) && reached[j].contains(&i) {
                found.push(format!("{name} -> {} {item}", files[j].0));
            }
        }
    }
    found
}

#[test]
fn no_import_circle() {
    let mut by_crate: BTreeMap<String, Vec<(String, &str)>> = BTreeMap::new();
    let files = source_files(false);
    for (name, text) in &files {
        let krate = name
            .split('/')
            .nth(1)
            .expect("crates/NAME/src/…")
            .to_owned();
        let text = text
            .find("#[cfg(test)]\nmod tests {")
            .map_or(text.as_str(), |end| &text[..end]);
        by_crate
            .entry(krate)
            .or_default()
            .push((name.clone(), text));
    }
    let mut with_circles = Vec::new();
    let mut lines = Vec::new();
    for (krate, files) in &by_crate {
        let found = circles(files);
        if !found.is_empty() {
            with_circles.push(krate.as_str());
            lines.extend(found);
        }
    }
    assert!(
        with_circles.is_empty(),
        "crates whose files import each other in a circle: {with_circles:?}: {lines:#?}"
    );
}

#[test]
fn the_circle_finder_sees_a_circle_and_one_way_imports() {
    let a = "use crate::b::Bee;\npub struct Ay;\n";
    let b = "use super::{c::{Sea, other}, x};\npub(crate) enum Bee {}\n";
    let c = "pub(super) const Sea: u8 = 1;\nfn f() { crate::a::Ay; }\n";
    let files = |third: &'static str| {
        vec![
            ("a.rs".to_owned(), a),
            ("b.rs".to_owned(), b),
            ("c.rs".to_owned(), third),
        ]
    };
    assert_eq!(
        circles(&files(c)),
        ["a.rs -> b.rs Bee", "b.rs -> c.rs Sea", "c.rs -> a.rs Ay"]
    );
    assert!(circles(&files("pub(super) const Sea: u8 = 1;\n")).is_empty());
}
