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
                names.extend(group_leaves(group));
            } else if !ident_at(rest).is_empty() {
                names.push(ident_at(rest));
            }
        }
    }
    names
}

/// The names a `{…}` group (its text after the `{`) imports: the last
/// name of each path in it, nested groups included, without module names
/// on the way (`cli::{A, B}` imports `A` and `B`, not `cli`) and without
/// `as` renames; nothing when the group does not close before a `;`.
fn group_leaves(group: &str) -> Vec<&str> {
    let mut depth = 1;
    let mut end = None;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            ';' => break,
            _ => {}
        }
    }
    let Some(end) = end else {
        return Vec::new();
    };
    let body = &group[..end];
    let mut leaves = Vec::new();
    let mut renamed = false;
    let mut at = 0;
    while at < body.len() {
        let rest = &body[at..];
        let ident = ident_at(rest);
        if ident.is_empty() {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        at += ident.len();
        let after = body[at..].trim_start();
        if ident == "as" {
            renamed = true;
        } else if renamed {
            renamed = false;
        } else if !after.starts_with("::") && ident != "self" {
            leaves.push(ident);
        }
    }
    leaves
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
        let mut pending: Vec<usize> = edges[from].keys().copied().collect();
        while let Some(at) = pending.pop() {
            if seen.insert(at) {
                pending.extend(edges[at].keys().copied());
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

#[test]
fn a_group_imports_its_last_names_not_the_modules_on_the_way() {
    assert_eq!(
        group_leaves("cli::{A, B}, follow::{Follow, f as g}, self, x::y::Z};\n"),
        ["A", "B", "Follow", "f", "Z"]
    );
    assert!(
        group_leaves("A, B;\n}").is_empty(),
        "a group that never closes"
    );
    // `follow` is a module here, not the function another file defines.
    let a = "use crate::{cli::{Args}, follow::{Follow}};\npub fn run() {}\n";
    let b = "pub fn follow() { crate::a::run(); }\n";
    let files = vec![("a.rs".to_owned(), a), ("b.rs".to_owned(), b)];
    assert!(circles(&files).is_empty(), "{:?}", circles(&files));
}
