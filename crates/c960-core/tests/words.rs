//! What users read counts in words: no string literal of the workspace's
//! sources writes a plural as `(s)` or `(es)` (`position(s)`,
//! `search(es)`); messages say `1 position` and `2 positions`.

use std::{
    fs,
    path::{Path, PathBuf},
    str::FromStr,
};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Literals allowed to hold such a plural, by file and literal: words of
/// records written by earlier versions, read back to verify them.
const EARLIER_FORMS: &[(&str, &str)] =
    &[("crates/c960-ops/src/draw/record.rs", "\"at most {}(s)\"")];

/// The workspace's root (two levels above this crate).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate lies in crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `group` is the body of a `doc` attribute (a `///` or `//!`
/// comment).
fn is_doc(group: &proc_macro2::Group) -> bool {
    group.delimiter() == Delimiter::Bracket
        && matches!(group.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc")
}

/// The string literals of `tokens` holding `(s)` or `(es)`, with their
/// lines; doc comments count only where `docs_are_read` (clap's `--help`).
fn plurals(tokens: TokenStream, docs_are_read: bool, found: &mut Vec<(usize, String)>) {
    let mut after_hash = false;
    for token in tokens {
        match token {
            TokenTree::Group(group) => {
                if !(after_hash && is_doc(&group) && !docs_are_read) {
                    plurals(group.stream(), docs_are_read, found);
                }
                after_hash = false;
            }
            TokenTree::Punct(p) => {
                after_hash = p.as_char() == '#' || (after_hash && p.as_char() == '!');
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let string =
                    text.starts_with('"') || text.starts_with('r') || text.starts_with("c\"");
                if string && (text.contains("(s)") || text.contains("(es)")) {
                    found.push((literal.span().start().line, text));
                }
                after_hash = false;
            }
            TokenTree::Ident(_) => after_hash = false,
        }
    }
}

/// `file:line: literal` for every such plural in the workspace's sources.
fn plurals_in_sources() -> Vec<String> {
    let root = workspace();
    let mut files = Vec::new();
    for krate in fs::read_dir(root.join("crates")).expect("crates/") {
        let src = krate.expect("a directory entry").path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    assert!(files.len() > 100, "only {} source files found", files.len());
    let mut found = Vec::new();
    for file in files {
        let name = file
            .strip_prefix(&root)
            .expect("under the root")
            .display()
            .to_string();
        let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tokens = TokenStream::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut here = Vec::new();
        plurals(tokens, name.starts_with("crates/c960/src/cli/"), &mut here);
        found.extend(
            here.into_iter()
                .filter(|(_, literal)| !EARLIER_FORMS.contains(&(name.as_str(), literal.as_str())))
                .map(|(line, literal)| format!("{name}:{line}: {literal}")),
        );
    }
    found
}

#[test]
fn no_plural_in_parentheses_in_what_users_read() {
    let found = plurals_in_sources();
    assert!(
        found.is_empty(),
        "write the singular or the plural from the count (c960_core::plural), not (s) or (es):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_finds_plurals_in_messages_and_help_but_not_in_comments() {
    let source = r#"
        // a comment on position(s)
        /// a doc comment on position(s)
        #[error("rater {rater}: {n} position(s)")]
        fn f() { let s = Some(s); println!("{} search(es)", r"x(s)"); }
    "#;
    let mut found = Vec::new();
    plurals(TokenStream::from_str(source).unwrap(), false, &mut found);
    let lines: Vec<usize> = found.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [4, 5, 5], "{found:?}");
    let mut help = Vec::new();
    plurals(TokenStream::from_str(source).unwrap(), true, &mut help);
    assert_eq!(help.len(), 4, "{help:?}");
}
