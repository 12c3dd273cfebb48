//! The languages of the fixed texts (castling rules, writers' sheets, the
//! tournament kit), by ISO 639-1 code. Their words are in the text tables
//! (`TextTable`); the castling words are [`Lang::text`].

use std::{fmt, str::FromStr};

/// A language of the fixed texts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English.
    En,
    /// German.
    De,
    /// Dutch.
    Nl,
    /// Turkish.
    Tr,
}

impl Lang {
    /// Every language, in table order.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::De, Lang::Nl, Lang::Tr];

    /// The ISO 639-1 code: `en`, `de`, `nl`, `tr`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Nl => "nl",
            Lang::Tr => "tr",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::ALL
            .into_iter()
            .find(|l| l.code() == s)
            .ok_or_else(|| format!("unknown language {s:?}: expected one of en, de, nl, tr"))
    }
}
