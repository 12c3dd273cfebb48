//! No import circle: within each crate, the source files depend on each
//! other one way. File A depends on file B when A names, through a path
//! (in a `use` or inline), an item that only B defines; a set of files that
//! reach each other that way is a circle, a module and its submodules
//! counting as one (see [`circles`]). The paths followed start at
//! `crate::`, `super::` or `self::`, or relatively at a module the file
//! can name without them: one it declares (`mod notes;` then
//! `notes::warning`) or one it imports (`use super::raters;` then
//! `raters::Bounds`).

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

/// The roots of the paths every file may name: the crate, the parent
/// module and the file's own.
const ROOTS: [&str; 3] = ["crate::", "super::", "self::"];

/// The last names of every path in `text` that starts at one of `roots`
/// (each `name::`; each name of a `{…}` group), not within a longer path.
fn named_from<'a>(text: &'a str, roots: &[String]) -> Vec<&'a str> {
    let mut names = Vec::new();
    for start in roots {
        for (at, _) in text.match_indices(start.as_str()) {
            if text[..at].ends_with(is_ident) || text[..at].ends_with("::") {
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

/// The last names of every path in `text` that starts at the crate, the
/// parent or the file's own module, or at one of `modules` (the crate's
/// modules by their last name) that the file declares or imports.
fn named<'a>(text: &'a str, modules: &BTreeSet<&str>) -> Vec<&'a str> {
    let roots: Vec<String> = ROOTS.iter().map(|r| (*r).to_owned()).collect();
    let from_roots = named_from(text, &roots);
    let declared = text.lines().filter_map(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
        let line = line.strip_prefix("pub(super) ").unwrap_or(line);
        let line = line.strip_prefix("pub ").unwrap_or(line);
        line.strip_prefix("mod ").map(ident_at)
    });
    let relative: BTreeSet<String> = declared
        .chain(from_roots.iter().copied())
        .filter(|name| modules.contains(name))
        .map(|name| format!("{name}::"))
        .collect();
    let relative: Vec<String> = relative.into_iter().collect();
    let mut names = from_roots;
    names.extend(named_from(text, &relative));
    names
}

/// A source file's module name: its file stem, or its directory's for a
/// `mod.rs` (none for a crate root).
fn module_of(name: &str) -> Option<&str> {
    let path = name.strip_suffix(".rs")?;
    let (dir, stem) = path.rsplit_once('/')?;
    match stem {
        "lib" | "main" => None,
        "mod" => dir.rsplit_once('/').map(|(_, d)| d),
        _ => Some(stem),
    }
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

/// A file's module path below its crate's `src/` (`site/raters.rs`:
/// `site`, `raters`; `site.rs` and `site/mod.rs`: `site`; the crate root:
/// none).
fn module_path(name: &str) -> Vec<&str> {
    let below = name.rsplit_once("src/").map_or(name, |(_, rest)| rest);
    let below = below.strip_suffix(".rs").unwrap_or(below);
    let mut path: Vec<&str> = below.split('/').collect();
    if matches!(path.last(), Some(&("mod" | "lib" | "main"))) {
        path.pop();
    }
    path
}

/// The files of one crate (name, text without its `mod tests`) whose
/// imports make a circle, each import as `file -> file name`. A module
/// and its submodules are one unit (a parent names its children's items
/// and they name its own), so an import between a file and its ancestor
/// is never a circle; any other import makes the importer's module depend
/// on the imported one's, both taken at the level where their paths part
/// (`sheet.rs` naming an item of `site/raters.rs`: `sheet` depends on
/// `site`). Modules that depend on each other that way are a circle.
fn circles(files: &[(String, &str)]) -> Vec<String> {
    let mut definers: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for (i, (_, text)) in files.iter().enumerate() {
        for name in definitions(text) {
            definers.entry(name).or_default().insert(i);
        }
    }
    let modules: BTreeSet<&str> = files.iter().filter_map(|(n, _)| module_of(n)).collect();
    let paths: Vec<Vec<&str>> = files.iter().map(|(n, _)| module_path(n)).collect();
    // Each import between modules: (importer, imported, file, file, name).
    let mut imports: Vec<(String, String, usize, usize, &str)> = Vec::new();
    for (i, (_, text)) in files.iter().enumerate() {
        let mut seen = BTreeSet::new();
        for name in named(text, &modules) {
            let others: Vec<usize> = definers
                .get(name)
                .map(|d| d.iter().copied().filter(|&j| j != i).collect())
                .unwrap_or_default();
            let [j] = others[..] else { continue };
            let (a, b) = (&paths[i], &paths[j]);
            let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            if common == a.len().min(b.len()) || !seen.insert(j) {
                continue; // one is the other's ancestor, or already counted
            }
            imports.push((a[..=common].join("/"), b[..=common].join("/"), i, j, name));
        }
    }
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, to, ..) in &imports {
        edges.entry(from.as_str()).or_default().insert(to.as_str());
    }
    // A module is on a circle when it reaches itself.
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut pending: Vec<&str> = edges.get(from).into_iter().flatten().copied().collect();
        while let Some(at) = pending.pop() {
            if seen.insert(at) {
                pending.extend(edges.get(at).into_iter().flatten().copied());
            }
        }
        seen
    };
    imports
        .iter()
        .filter(|(from, to, ..)| reaches(to).contains(from.as_str()))
        .map(|(_, _, i, j, name)| format!("{} -> {} {name}", files[*i].0, files[*j].0))
        .collect()
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

#[test]
fn a_path_from_a_module_the_file_declares_or_imports_is_followed() {
    // site.rs declares notes and imports raters; sheet.rs names site's
    // item through crate::; raters.rs names sheet's.
    let site =
        "mod notes;\nuse super::raters;\npub fn q_text() {}\nfn f() { raters::consensus(); }\n";
    let raters = "use crate::sheet::View;\npub fn consensus() {}\n";
    let sheet = "pub struct View;\nfn g() { crate::site::q_text(); }\n";
    let notes = "pub fn warning() {}\n";
    let files = vec![
        ("src/site.rs".to_owned(), site),
        ("src/site/raters.rs".to_owned(), raters),
        ("src/sheet.rs".to_owned(), sheet),
        ("src/site/notes.rs".to_owned(), notes),
    ];
    assert_eq!(
        circles(&files),
        [
            "src/site/raters.rs -> src/sheet.rs View",
            "src/sheet.rs -> src/site.rs q_text",
        ]
    );
    // A parent and its children name each other's items: one unit.
    let parent = "mod child;\npub fn helper() {}\nfn f() { child::work(); }\n";
    let child = "pub fn work() { super::helper(); }\n";
    let files = vec![
        ("src/parent.rs".to_owned(), parent),
        ("src/parent/child.rs".to_owned(), child),
    ];
    assert!(circles(&files).is_empty(), "{:?}", circles(&files));
    // A module of another crate by the same name is not followed: the
    // path does not start there.
    let a = "pub fn a_item() {}\nfn h() { c960_balance::b::work(); }\n";
    let b = "pub fn work() { crate::a::a_item(); }\n";
    let files = vec![("src/a.rs".to_owned(), a), ("src/b.rs".to_owned(), b)];
    assert!(circles(&files).is_empty(), "{:?}", circles(&files));
}
