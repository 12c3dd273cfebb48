//! The shape of the workspace's source, measured: file lengths, function
//! lengths, and where HTML lives. Each limit is a ceiling the code has
//! reached; lowering one is how the code is held to it.

use std::{
    fs,
    path::{Path, PathBuf},
};

/// No Rust source file is longer than this.
const MAX_FILE_LINES: usize = 600;
/// A function longer than this many lines counts as long.
const LONG_FUNCTION: usize = 80;
/// At most this many long functions in the crates' `src` (tests aside).
const MAX_LONG_FUNCTIONS: usize = 13;
/// At most this many lines of HTML markup in the crates' `src` (pages are
/// templates).
const MAX_HTML_LINES: usize = 4;
/// The source files that still hold a `<style>` (style sheets belong in
/// the report's `assets/`).
const STYLE_IN_RUST: &[&str] = &[];

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate lies in crates/")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The Rust files of every crate's `src`, without unit-test modules
/// (`tests.rs`, `tests/…`), relative to the root.
pub(crate) fn source_files(all: bool) -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    for krate in fs::read_dir(root.join("crates")).expect("crates/") {
        let krate = krate.expect("a directory entry").path();
        if krate.join("src").is_dir() {
            rust_files(&krate.join("src"), &mut files);
        }
        if all && krate.join("tests").is_dir() {
            rust_files(&krate.join("tests"), &mut files);
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(&root).expect("under the root").display();
            (
                name.to_string(),
                fs::read_to_string(&p).expect("a source file"),
            )
        })
        .filter(|(name, _)| all || !(name.ends_with("/tests.rs") || name.contains("/tests/")))
        .collect()
}

/// `(lines, "file:line name")` of every function in rustfmt-formatted
/// `text`: from its `fn` line to the first later line that closes it at the
/// same indentation.
fn functions(name: &str, text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let signature = body
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("const ")
            .trim_start_matches("async ")
            .trim_start_matches("unsafe ");
        let Some(rest) = signature.strip_prefix("fn ") else {
            continue;
        };
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        let Some(open) = lines[i..]
            .iter()
            .position(|l| {
                let t = l.trim_end();
                t.ends_with('{') || t.ends_with(';') || t.ends_with('}')
            })
            .map(|k| i + k)
        else {
            continue;
        };
        let opened = lines[open].trim_end();
        if opened.ends_with(';') {
            continue;
        }
        if opened.ends_with('}') {
            found.push((open - i + 1, format!("{name}:{} {ident}", i + 1)));
            continue;
        }
        if let Some(end) = lines[open..].iter().position(|l| l.trim_end() == close) {
            found.push((open + end - i + 1, format!("{name}:{} {ident}", i + 1)));
        }
    }
    found
}

/// Lines holding an HTML tag (not SVG drawing primitives).
fn html_lines(text: &str) -> usize {
    const TAGS: &[&str] = &[
        "html",
        "head",
        "body",
        "div",
        "p",
        "a",
        "span",
        "table",
        "tr",
        "td",
        "th",
        "thead",
        "tbody",
        "tfoot",
        "ul",
        "ol",
        "li",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "section",
        "nav",
        "main",
        "header",
        "footer",
        "figure",
        "figcaption",
        "img",
        "svg",
        "style",
        "script",
        "meta",
        "link",
        "title",
        "br",
        "strong",
        "em",
        "code",
        "pre",
        "details",
        "summary",
        "caption",
        "small",
        "button",
        "form",
        "input",
        "label",
        "dl",
        "dt",
        "dd",
        "abbr",
        "sup",
        "sub",
        "b",
        "i",
        "article",
        "aside",
        "time",
        "kbd",
        "hr",
        "col",
        "colgroup",
        "blockquote",
        "q",
        "mark",
        "output",
        "var",
        "wbr",
        "!DOCTYPE",
        "!doctype",
    ];
    text.lines()
        .filter(|line| {
            line.match_indices('<').any(|(at, _)| {
                let after = line[at + 1..].trim_start_matches('/');
                TAGS.iter().any(|tag| {
                    after.strip_prefix(tag).is_some_and(|rest| {
                        rest.starts_with(' ') || rest.starts_with('>') || rest.starts_with('/')
                    })
                })
            })
        })
        .count()
}

#[test]
fn no_source_file_is_over_600_lines() {
    let long: Vec<String> = source_files(true)
        .iter()
        .filter(|(_, text)| text.lines().count() > MAX_FILE_LINES)
        .map(|(name, text)| format!("{name}: {} lines", text.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines: {long:#?}"
    );
}

#[test]
fn long_functions_are_few() {
    let mut long: Vec<(usize, String)> = source_files(false)
        .iter()
        .flat_map(|(name, text)| functions(name, text))
        .filter(|(n, _)| *n > LONG_FUNCTION)
        .collect();
    long.sort_by(|a, b| b.cmp(a));
    assert!(
        long.len() <= MAX_LONG_FUNCTIONS,
        "{} functions over {LONG_FUNCTION} lines (at most {MAX_LONG_FUNCTIONS}): {long:#?}",
        long.len()
    );
}

#[test]
fn the_function_counter_measures_what_it_claims() {
    let text = "fn short() {\n    one();\n}\n\nimpl A {\n    pub fn inner(\n        &self,\n    ) -> u8 {\n        if x {\n        }\n        1\n    }\n    fn declared(&self);\n    fn one_line() {}\n}\n";
    assert_eq!(
        functions("x.rs", text),
        [
            (3, "x.rs:1 short".to_string()),
            (7, "x.rs:6 inner".to_string()),
            (1, "x.rs:14 one_line".to_string())
        ]
    );
    assert_eq!(
        html_lines(
            "let a = \"<td>1</td>\";\nlet b = 1 < 2;\nlet c = \"<rect x='1'/>\";\nlet d = \"</p>\";"
        ),
        2
    );
}

#[test]
fn html_lives_in_templates() {
    let files = source_files(false);
    let styles: Vec<&str> = files
        .iter()
        .filter(|(_, text)| text.contains("<style"))
        .map(|(name, _)| name.as_str())
        .collect();
    let mut by_file: Vec<(usize, &str)> = files
        .iter()
        .map(|(name, text)| (html_lines(text), name.as_str()))
        .filter(|(n, _)| *n > 0)
        .collect();
    by_file.sort_by(|a, b| b.cmp(a));
    let total: usize = by_file.iter().map(|(n, _)| n).sum();
    assert!(
        total <= MAX_HTML_LINES,
        "{total} lines of HTML in Rust source (at most {MAX_HTML_LINES}): {by_file:#?}"
    );
    assert_eq!(styles, STYLE_IN_RUST, "style sheets in Rust source");
}
