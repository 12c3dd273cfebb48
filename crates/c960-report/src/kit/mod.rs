//! The organizer's tournament kit: what an organizer prints and posts for
//! a Chess960 event — the announcement, one sheet per round (large
//! diagram, number, FENs, castling rules for that position in words), the
//! draw record and how anyone recomputes it. Rounds not published with the
//! announcement are sealed by a hash commitment (`c960_core::Seal`).
//!
//! [`KitPlan`] is what the organizer asked for, [`Kit`] the drawn kit and
//! [`Kit::files`] every file it consists of. `pages.rs` renders the HTML
//! pages (texts from `lang/kit.toml`), `record.rs` draw.json, VERIFY.md
//! and SECRET.txt, and `draw_record.rs` is draw.json's one type, which
//! `c960 draw --verify` reads back.

mod draw_record;
mod pages;
mod record;

use c960_core::{DrawFilter, DrawMethod, Key, Lang, Seal};

pub use draw_record::{
    BalanceRecord, DrawRecord, DrawnRecord, FilterSettings, MethodName, RoundRecord, SealRecord,
};
pub use pages::Kit;
pub use record::secret_of;

/// A fixed text of the kit in `lang` (`lang/kit.toml`), for the
/// organizer's console output too.
///
/// # Panics
/// Panics if the table lacks `key` (a test checks every language has
/// every key of English).
#[must_use]
pub fn text(lang: Lang, key: &str) -> &'static str {
    pages::table().get(lang, key)
}

/// The text of `key` in `lang` for a count of `n`.
#[must_use]
pub fn text_count(lang: Lang, key: &str, n: usize) -> String {
    pages::table().count(lang, key, n)
}

/// A draw's filters in words of `lang`, as the announcement states them.
#[must_use]
pub fn filter_words(
    filter: &DrawFilter,
    balance: Option<&BalanceRecord>,
    excluded: &Excluded,
    lang: Lang,
) -> String {
    pages::filter_words_with(filter, balance, excluded, lang, str::to_owned)
}

/// The file of a kit that holds the organizer's secret.
pub const SECRET_FILE: &str = "SECRET.txt";

/// Whether `name` is a file a kit writes (`kit.pdf`, printed from
/// `kit.html`, included).
#[must_use]
pub fn is_kit_file(name: &str) -> bool {
    matches!(
        name,
        "announcement.html" | "kit.html" | "kit.pdf" | "draw.json" | "VERIFY.md" | SECRET_FILE
    ) || name
        .strip_prefix("round-")
        .and_then(|rest| rest.strip_suffix(".html"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Paper sizes the kit is laid out for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

/// Where excluded positions came from, besides the numbers given.
#[derive(Clone, Debug, Default)]
pub struct Excluded {
    /// A named preset (`freestyle`: SP 518 and 534).
    pub preset: Option<String>,
    /// Earlier kits' draws.
    pub drawn: Vec<DrawnRecord>,
}

/// The event's details for the announcement, as the organizer gives them.
#[derive(Clone, Debug, Default)]
pub struct Details {
    /// When the event is.
    pub date: Option<String>,
    /// Where it is.
    pub venue: Option<String>,
    /// The time control.
    pub time_control: Option<String>,
    /// The schedule, one line each.
    pub schedule: Vec<String>,
}

/// Everything a kit is made from, validated by the caller.
#[derive(Clone, Debug)]
pub struct KitPlan {
    /// How the rounds are drawn.
    pub method: DrawMethod,
    /// Rounds, sealed ones included.
    pub rounds: usize,
    /// Which positions may be drawn.
    pub filter: DrawFilter,
    /// The balance table a balance filter read, if any.
    pub balance: Option<BalanceRecord>,
    /// The exclusion preset and earlier draws behind some of the
    /// filter's excluded positions.
    pub excluded: Excluded,
    /// Rounds published with the announcement (the rest are sealed).
    pub publish: usize,
    /// The organizer's secret, when rounds are sealed.
    pub secret: Option<Key>,
    /// The sealed rounds' keys and commitment.
    pub seal: Option<Seal>,
    /// Date, venue, time control, schedule.
    pub details: Details,
    /// The event's name (default: the language's word for it).
    pub title: Option<String>,
    /// The kit's language.
    pub lang: Lang,
    /// The paper its pages are laid out for.
    pub paper: Paper,
}

impl Kit<'_> {
    /// Every file of the kit, name and content, in the order they are
    /// written: each round's page, `kit.html` (all sheets), the
    /// announcement, `draw.json`, `VERIFY.md` and, with sealed rounds,
    /// [`SECRET_FILE`].
    ///
    /// # Errors
    /// Fails only if the draw record cannot be serialized.
    pub fn files(&self) -> Result<Vec<(String, String)>, serde_json::Error> {
        let mut files: Vec<(String, String)> = (1..=self.plan.rounds)
            .map(|round| (format!("round-{round}.html"), self.round_page(round)))
            .collect();
        files.push(("kit.html".to_owned(), self.all_sheets()));
        files.push(("announcement.html".to_owned(), self.announcement()));
        let record = record::draw_json(self);
        files.push((
            "draw.json".to_owned(),
            format!("{}\n", serde_json::to_string_pretty(&record)?),
        ));
        files.push(("VERIFY.md".to_owned(), record::verify_md(self)));
        if let Some(secret) = self.plan.secret {
            files.push((
                SECRET_FILE.to_owned(),
                record::secret_txt(self.plan, secret),
            ));
        }
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use super::{is_kit_file, pages::table};

    #[test]
    fn the_kit_owns_only_its_own_file_names() {
        for name in [
            "kit.pdf",
            "round-1.html",
            "round-12.html",
            "SECRET.txt",
            "VERIFY.md",
        ] {
            assert!(is_kit_file(name), "{name}");
        }
        for name in [
            "round-.html",
            "round-1a.html",
            "notes.txt",
            ".git",
            ".env",
            "positions",
        ] {
            assert!(!is_kit_file(name), "{name}");
        }
    }

    #[test]
    fn every_language_has_every_text_of_english() {
        assert_eq!(table().gaps(), Vec::<String>::new());
        assert_eq!(table().every("secret_label").len(), 4);
    }
}
