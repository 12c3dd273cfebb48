//! The frame of every HTML page c960 writes ([`Page`]) and small helpers
//! shared by the report site and printed material.

/// One HTML page: the report's site, the printed position sheets and the
/// tournament kit all render through this one layout, whose slots are the
/// language, the title, what the head holds (stylesheets, scripts), a
/// banner shown above everything else (warnings) and the body.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    /// The page's language (`en`, `de`).
    pub lang: &'a str,
    /// The title, as text (escaped here).
    pub title: &'a str,
    /// The head after the title (HTML): stylesheets and scripts, each
    /// ending in a newline.
    pub head: &'a str,
    /// Shown first in the body (HTML): warnings about the page's inputs;
    /// empty for none.
    pub banner: &'a str,
    /// The body (HTML), ending in a newline.
    pub body: &'a str,
}

impl Page<'_> {
    /// The whole page.
    #[must_use]
    pub fn render(&self) -> String {
        Layout { page: self }.to_string()
    }
}

/// The one layout of every page (`templates/layout.html`).
#[derive(askama::Template)]
#[template(path = "layout.html")]
struct Layout<'a> {
    page: &'a Page<'a>,
}

/// A page's own style sheets, in the head (`templates/style.html`): the
/// sheets (from `assets/`) one after the other, after an `@page` rule with
/// the paper size for printed material.
#[derive(askama::Template)]
#[template(path = "style.html")]
pub struct Style<'a> {
    /// The printed page's size (`A4`, `letter`), if the page is printed.
    pub page_size: Option<&'a str>,
    /// The style sheets' text.
    pub sheets: &'a [&'a str],
}

/// The escaper of the report's templates: [`escape`], as an askama
/// escaper (named in the crate's `askama.toml`). Both leave out every
/// control of text direction (`U+202E` and the like,
/// [`c960_core::is_bidi_control`]): an engine's name or a title cannot
/// reverse what a page shows after it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Escape;

impl askama::filters::Escaper for Escape {
    fn write_escaped_str<W: std::fmt::Write>(&self, mut dest: W, text: &str) -> std::fmt::Result {
        let text = c960_core::without_bidi_controls(text);
        let mut rest = text.as_ref();
        while let Some(at) = rest.find(['&', '<', '>', '"']) {
            dest.write_str(&rest[..at])?;
            dest.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                _ => "&quot;",
            })?;
            rest = &rest[at + 1..];
        }
        dest.write_str(rest)
    }
}

/// Escapes text for HTML content and attribute values; control characters
/// (but newline and tab) and controls of text direction are dropped.
#[must_use]
pub fn escape(text: &str) -> String {
    c960_core::without_bidi_controls(text)
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A FEN cut after each rank's slash: a template shows the pieces with a
/// line-break opportunity between them, so that a narrow page never splits
/// a rank, and the text copied is the FEN as it was.
pub(crate) fn fen_ranks(fen: &str) -> Vec<String> {
    fen.split('/').map(str::to_owned).collect()
}

/// The class that keeps a castling notation on one line: browsers may
/// break a line after any hyphen, and "O-" / "O-O" at a line's end reads
/// as another move. Pages that use [`escape_prose`] style it with
/// `white-space: nowrap`.
pub const NOWRAP_CLASS: &str = "nobr";

/// The CSS rule for [`NOWRAP_CLASS`].
pub const NOWRAP_CSS: &str = include_str!("../assets/nowrap.css");

/// [`escape`] for running text: also keeps every castling notation
/// (`O-O-O`, `O-O`) in one piece with a [`NOWRAP_CLASS`] span.
#[must_use]
pub fn escape_prose(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped.as_str();
    while let Some(at) = rest.find("O-O") {
        out.push_str(&rest[..at]);
        let notation = if rest[at..].starts_with("O-O-O") {
            "O-O-O"
        } else {
            "O-O"
        };
        out.push_str("<span class=\"");
        out.push_str(NOWRAP_CLASS);
        out.push_str("\">");
        out.push_str(notation);
        out.push_str("</span>");
        rest = &rest[at + notation.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
