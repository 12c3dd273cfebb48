//! Fixed texts in every [`Lang`], read from a TOML table with one section
//! per language (`[en]`, `[de]`, …) of `key = "text"`: the one reader of
//! the castling rules' words (`lang/castling.toml`), the writers' sheets
//! and the tournament kit. A key ending in `_one` is the singular of its
//! key, which a language may leave out.

use std::collections::BTreeMap;

use crate::Lang;

/// One table of fixed texts, by language and key.
#[derive(Clone, Debug)]
pub struct TextTable {
    /// The file the table was read from, for messages.
    file: &'static str,
    texts: BTreeMap<String, BTreeMap<String, String>>,
}

impl TextTable {
    /// Reads `toml`, the text of `file` (built into the program).
    ///
    /// # Panics
    /// Panics if it is not a table of sections of strings; every table's
    /// test reads it, so a broken file fails the tests, never a user's run.
    #[must_use]
    pub fn parse(file: &'static str, toml: &str) -> TextTable {
        let texts = toml::from_str(toml)
            .unwrap_or_else(|e| panic!("{file} is not a table of texts by language: {e}"));
        TextTable { file, texts }
    }

    /// The text of `key` in `lang`.
    ///
    /// # Panics
    /// Panics if the table lacks it ([`TextTable::gaps`] finds every such
    /// gap in a test).
    #[must_use]
    pub fn get(&self, lang: Lang, key: &str) -> &str {
        self.texts
            .get(lang.code())
            .and_then(|t| t.get(key))
            .map_or_else(
                || panic!("{} has no {key:?} for {lang}", self.file),
                String::as_str,
            )
    }

    /// The text of `key` in `lang` for a count of `n`: `key_one` when `n`
    /// is 1 and the language has it, else `key`; `{n}` is filled in.
    #[must_use]
    pub fn count(&self, lang: Lang, key: &str, n: usize) -> String {
        let one = format!("{key}_one");
        let text = match self.texts.get(lang.code()).and_then(|t| t.get(&one)) {
            Some(text) if n == 1 => text.as_str(),
            _ => self.get(lang, key),
        };
        text.replace("{n}", &n.to_string())
    }

    /// Every language's text of `key` (to read back a file written in
    /// another language).
    #[must_use]
    pub fn every(&self, key: &str) -> Vec<&str> {
        self.texts
            .values()
            .filter_map(|t| t.get(key).map(String::as_str))
            .collect()
    }

    /// What the table lacks or has too much of, one line each: a language
    /// missing, a key of English a language lacks (singulars aside), a key
    /// English does not have. Empty for a complete table.
    #[must_use]
    pub fn gaps(&self) -> Vec<String> {
        let Some(english) = self.texts.get(Lang::En.code()) else {
            return vec![format!("{} has no [en] section", self.file)];
        };
        let mut gaps = Vec::new();
        for lang in Lang::ALL {
            let Some(texts) = self.texts.get(lang.code()) else {
                gaps.push(format!("{} has no [{}] section", self.file, lang.code()));
                continue;
            };
            for key in english.keys().filter(|k| !k.ends_with("_one")) {
                if !texts.contains_key(key) {
                    gaps.push(format!("{}: {lang} lacks {key}", self.file));
                }
            }
            for key in texts.keys().filter(|k| !english.contains_key(*k)) {
                gaps.push(format!("{}: {lang} has {key}, English does not", self.file));
            }
        }
        gaps
    }
}

/// Whether `c` controls the direction of text (the Unicode bidirectional
/// marks, embeddings, overrides and isolates: U+061C, U+200E, U+200F,
/// U+202A..=U+202E, U+2066..=U+2069): inside a name or a title it can make
/// a page or a terminal show the text after it reversed (`U+202E` turns
/// `SP 518 gpj.exe` into what reads as an image).
#[must_use]
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// `text` without controls of text direction ([`is_bidi_control`]).
#[must_use]
pub fn without_bidi_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(is_bidi_control) {
        std::borrow::Cow::Owned(text.chars().filter(|&c| !is_bidi_control(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// `n` and the noun for it in English: `1 game`, `2 games`, `0 games`.
pub fn plural<N: TryInto<u64> + Copy + std::fmt::Display>(n: N, one: &str, many: &str) -> String {
    let noun = if n.try_into().ok() == Some(1) {
        one
    } else {
        many
    };
    format!("{n} {noun}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "[en]\nround = \"Round {n}\"\ngames = \"{n} games\"\n\
                         games_one = \"one game\"\nextra = \"x\"\n\
                         [de]\nround = \"Runde {n}\"\ngames = \"{n} Partien\"\n\
                         [nl]\nround = \"Ronde {n}\"\ngames = \"{n} partijen\"\nextra = \"x\"\n\
                         only_here = \"y\"\n";

    #[test]
    fn controls_of_text_direction_are_told_and_removed() {
        let forged = "Club \u{202E}nepO\u{202C} \u{2067}x\u{2069}\u{200F}";
        assert!(forged.chars().filter(|&c| is_bidi_control(c)).count() == 5);
        assert_eq!(without_bidi_controls(forged), "Club nepO x");
        assert!(matches!(
            without_bidi_controls("plain"),
            std::borrow::Cow::Borrowed("plain")
        ));
        // Letters of right-to-left scripts are text, not controls.
        assert!(!is_bidi_control('\u{05D0}'));
    }

    #[test]
    fn texts_counts_and_gaps() {
        let table = TextTable::parse("test.toml", TABLE);
        assert_eq!(table.get(Lang::De, "round"), "Runde {n}");
        assert_eq!(table.count(Lang::En, "games", 1), "one game");
        assert_eq!(table.count(Lang::En, "games", 3), "3 games");
        // A language without the singular uses the plural text.
        assert_eq!(table.count(Lang::De, "games", 1), "1 Partien");
        assert_eq!(table.every("extra"), ["x", "x"]);
        assert_eq!(
            table.gaps(),
            [
                "test.toml: de lacks extra",
                "test.toml: nl has only_here, English does not",
                "test.toml has no [tr] section",
            ]
        );
    }

    #[test]
    fn counts_of_one_are_in_the_singular() {
        assert_eq!(super::plural(1_u32, "game", "games"), "1 game");
        assert_eq!(super::plural(0_usize, "game", "games"), "0 games");
        assert_eq!(super::plural(2_u64, "search", "searches"), "2 searches");
    }

    #[test]
    #[should_panic(expected = "test.toml has no \"missing\" for de")]
    fn a_missing_text_names_the_file_key_and_language() {
        let _ = TextTable::parse("test.toml", TABLE).get(Lang::De, "missing");
    }
}
