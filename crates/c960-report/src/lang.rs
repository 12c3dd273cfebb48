//! The fixed texts of the position sheets and the board's legend, in every
//! language (`lang/sheet.toml`): shared by [`crate::sheet`] and
//! [`crate::board`], which read them here rather than from each other.

use std::sync::OnceLock;

use c960_core::{Lang, TextTable};

/// The sheets' fixed texts: `lang/sheet.toml`.
pub(crate) fn table() -> &'static TextTable {
    static TABLE: OnceLock<TextTable> = OnceLock::new();
    TABLE.get_or_init(|| TextTable::parse("lang/sheet.toml", include_str!("../lang/sheet.toml")))
}

/// The text of `key` in `lang`.
///
/// # Panics
/// Panics if the table lacks it (a test checks that every language has
/// every key of English).
#[must_use]
pub fn text(lang: Lang, key: &str) -> &'static str {
    table().get(lang, key)
}

/// The text of `key` in `lang` for a count of `n` (`key_one` for one,
/// where the language has it; see [`TextTable::count`]).
#[must_use]
pub fn count(lang: Lang, key: &str, n: usize) -> String {
    table().count(lang, key, n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_import_circles_in_the_report_crate() {
        // The site shows the agreement; the agreement takes its chart type
        // from `charts`, not from the site.
        assert!(
            !include_str!("agreement.rs").contains("site::"),
            "agreement imports the site"
        );
        // The sheet draws the board; the board takes its legend from
        // `lang`, not from the sheet.
        assert!(!include_str!("board.rs").contains("sheet::"));
        // lib.rs holds the docs and re-exports, not the error or the build.
        let lib = include_str!("lib.rs");
        assert!(!lib.contains("pub enum ReportError"));
        assert!(!lib.contains("fn build_into"));
    }
}
