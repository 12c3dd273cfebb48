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
        format!(
            "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n{head}</head>\n<body>\n{banner}{body}</body>\n</html>\n",
            lang = self.lang,
            title = escape(self.title),
            head = self.head,
            banner = self.banner,
            body = self.body,
        )
    }
}

/// Escapes text for HTML content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The class that keeps a castling notation on one line: browsers may
/// break a line after any hyphen, and "O-" / "O-O" at a line's end reads
/// as another move. Pages that use [`escape_prose`] style it with
/// `white-space: nowrap`.
pub const NOWRAP_CLASS: &str = "nobr";

/// The CSS rule for [`NOWRAP_CLASS`].
pub const NOWRAP_CSS: &str = ".nobr { white-space: nowrap; }\n";

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
mod tests {
    use super::*;

    #[test]
    fn castling_notation_never_breaks() {
        assert_eq!(
            escape_prose("O-O-O or O-O <b>"),
            "<span class=\"nobr\">O-O-O</span> or <span class=\"nobr\">O-O</span> &lt;b&gt;"
        );
        assert_eq!(escape_prose("no castling"), "no castling");
    }
}
