//! A draw model for exit books: the chance that a game pair from an exit
//! is drawn at the budget where the book will be played, fitted to game
//! pairs actually played there from exits of the same expansion
//! ([`c960_balance::wdl`]), because an engine's own WDL model describes
//! long searches, not the games a tester plays.
//!
//! The games come as game-pair journals: CSV files whose first line is a
//! `#` line of settings, then a header naming at least `fen`,
//! `a_white_result` and `a_black_result` (engine A is the stronger
//! engine; results as PGN writes them, `1-0`, `0-1`, `1/2-1/2`), one row
//! per pair. Each pair's opening must be an exit of the expansion; its
//! score is that exit's.

use std::{collections::HashMap, path::Path};

use c960_balance::wdl::{Game, Outcome, WdlFit, fit};
use serde::{Deserialize, Serialize};

use super::{Expansion, position_key};

/// What a draw model file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DrawModel {
    /// Always [`DrawModel::KIND`].
    pub kind: String,
    /// The fit: parameters, covariance, games and how well it fits.
    pub fit: WdlFit,
    /// The games' settings, as each journal's first line states them.
    pub budget: Vec<String>,
    /// The journals fitted, with their pairs and SHA-256.
    pub journals: Vec<JournalUsed>,
    /// The expansion whose exit scores were used: engine and search.
    pub scores_from: ScoresFrom,
    /// The c960 version that fitted it.
    pub c960_version: String,
}

/// One journal a model was fitted to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalUsed {
    /// Its file name.
    pub file: String,
    /// Pairs read from it.
    pub pairs: usize,
    /// SHA-256 of the file.
    pub sha256: String,
}

/// Where the scores the model reads come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoresFrom {
    /// The engine's `id name`.
    pub engine: String,
    /// The search at each node of the expansion.
    pub limit: String,
    /// Lines per node.
    pub multipv: u32,
}

impl DrawModel {
    /// The `kind` of a draw model file.
    pub const KIND: &'static str = "c960 draw model";

    /// Reads a model file.
    ///
    /// # Errors
    /// One line naming the file and what is wrong.
    pub fn read(path: &Path) -> Result<DrawModel, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the draw model {}: {e}", path.display()))?;
        let model: DrawModel = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a c960 draw model: {e}", path.display()))?;
        if model.kind != Self::KIND {
            return Err(format!(
                "{} is a {:?}, not a {:?}",
                path.display(),
                model.kind,
                Self::KIND
            ));
        }
        let m = model.fit.model;
        if !(m.a.is_finite() && m.a > 0.0 && m.b.is_finite() && m.b > 0.0 && m.shift.is_finite()) {
            return Err(format!(
                "{}: the model's parameters are out of range",
                path.display()
            ));
        }
        Ok(model)
    }

    /// Whether the model's scores are those of `expansion` (same engine,
    /// search and `MultiPV`): a model read on other scores means nothing.
    #[must_use]
    pub fn matches(&self, expansion: &Expansion) -> bool {
        self.scores_from == scores_from(expansion)
    }
}

fn scores_from(expansion: &Expansion) -> ScoresFrom {
    ScoresFrom {
        engine: expansion.settings.engine.clone(),
        limit: expansion.settings.limit.to_string(),
        multipv: expansion.settings.multipv,
    }
}

fn outcome(text: &str) -> Option<Outcome> {
    match text.trim() {
        "1-0" => Some(Outcome::WhiteWins),
        "0-1" => Some(Outcome::BlackWins),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// One game pair from a journal.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    /// The opening.
    pub fen: String,
    /// The game A played with White, from White's point of view.
    pub a_white: Outcome,
    /// The game A played with Black, from White's point of view.
    pub a_black: Outcome,
}

/// A game-pair journal read whole: its settings line and its pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct PairJournal {
    /// The first line, without its `#`.
    pub settings: String,
    /// The pairs in order.
    pub pairs: Vec<PairResult>,
    /// SHA-256 of the file.
    pub sha256: String,
}

/// Reads a game-pair journal.
///
/// # Errors
/// One line naming the file (and row) and what is wrong.
pub fn read_journal(path: &Path) -> Result<PairJournal, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text =
        std::str::from_utf8(&bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))?;
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let settings = first
        .strip_prefix('#')
        .ok_or_else(|| {
            format!(
                "{}: the first line is not a `#` line of settings, so this is not a game-pair \
                 journal",
                path.display()
            )
        })?
        .trim()
        .to_owned();
    let mut reader = csv::Reader::from_reader(rest.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{} has no column {name}", path.display()))
    };
    let (fen, white, black) = (
        column("fen")?,
        column("a_white_result")?,
        column("a_black_result")?,
    );
    let mut pairs = Vec::new();
    for (row, record) in reader.records().enumerate() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        let cell = |i: usize| record.get(i).unwrap_or("");
        let bad = || {
            format!(
                "{}: pair {row} has a result that is not 1-0, 0-1 or 1/2-1/2",
                path.display()
            )
        };
        pairs.push(PairResult {
            fen: cell(fen).to_owned(),
            a_white: outcome(cell(white)).ok_or_else(bad)?,
            a_black: outcome(cell(black)).ok_or_else(bad)?,
        });
    }
    Ok(PairJournal {
        settings,
        pairs,
        sha256: crate::sha256_hex(&bytes),
    })
}

/// Fits the draw model to the pairs of `journals` (path and content),
/// each pair's score read from the exit of `expansion` it was played
/// from.
///
/// # Errors
/// A pair whose opening is not an exit of the expansion (or has no cp
/// score), the journals' settings differing, or a fit that fails.
pub fn fit_draw_model(
    expansion: &Expansion,
    journals: &[(&Path, PairJournal)],
) -> Result<DrawModel, String> {
    let mut scores: HashMap<String, f64> = HashMap::new();
    for start in expansion.starts.values() {
        for exit in &start.exits {
            if let Some(cp) = exit.cp {
                scores
                    .entry(position_key(&exit.fen))
                    .or_insert(f64::from(cp));
            }
        }
    }
    let mut games = Vec::new();
    let mut used = Vec::new();
    let mut budget: Vec<String> = Vec::new();
    for (path, journal) in journals {
        let settings = strip_book(&journal.settings);
        if budget.first().is_some_and(|first| *first != settings) {
            return Err(format!(
                "{} was played with other settings than {}: {settings} against {}",
                path.display(),
                journals[0].0.display(),
                budget[0]
            ));
        }
        if budget.is_empty() {
            budget.push(settings);
        }
        for (index, pair) in journal.pairs.iter().enumerate() {
            let cp = *scores.get(&position_key(&pair.fen)).ok_or_else(|| {
                format!(
                    "{} pair {index}: {} is not a scored exit of the expansion",
                    path.display(),
                    pair.fen
                )
            })?;
            games.push(Game {
                cp,
                stronger_white: true,
                outcome: pair.a_white,
            });
            games.push(Game {
                cp,
                stronger_white: false,
                outcome: pair.a_black,
            });
        }
        used.push(JournalUsed {
            file: path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            pairs: journal.pairs.len(),
            sha256: journal.sha256.clone(),
        });
    }
    let fit = fit(&games).map_err(|e| e.to_string())?;
    Ok(DrawModel {
        kind: DrawModel::KIND.to_owned(),
        fit,
        budget,
        journals: used,
        scores_from: scores_from(expansion),
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
    })
}

/// A journal's settings without its book's name and hash: the budget the
/// games were played at, which every journal of one model shares.
fn strip_book(settings: &str) -> String {
    settings
        .split_whitespace()
        .filter(|field| !field.starts_with("book=") && !field.starts_with("sha256="))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn journals_are_read_with_their_settings_and_bad_rows_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pilot.csv");
        std::fs::write(
            &path,
            "# book=pilot sha256=ab seed=1 engine_a=SF@2 engine_b=SF@1\n\
             pair,line,fen,a_white_result,a_black_result,a_points\n\
             0,3,8/8 w - - 0 1,1-0,1/2-1/2,1.5\n\
             1,9,8/8 b - - 0 1,0-1,0-1,1\n",
        )
        .unwrap();
        let journal = read_journal(&path).unwrap();
        assert_eq!(
            journal.settings,
            "book=pilot sha256=ab seed=1 engine_a=SF@2 engine_b=SF@1"
        );
        assert_eq!(
            strip_book(&journal.settings),
            "seed=1 engine_a=SF@2 engine_b=SF@1"
        );
        assert_eq!(journal.pairs.len(), 2);
        assert_eq!(journal.pairs[0].a_white, Outcome::WhiteWins);
        assert_eq!(journal.pairs[0].a_black, Outcome::Draw);
        assert_eq!(journal.pairs[1].a_black, Outcome::BlackWins);
        std::fs::write(&path, "pair,fen\n0,x\n").unwrap();
        assert!(
            read_journal(&path)
                .unwrap_err()
                .contains("not a game-pair journal")
        );
        std::fs::write(
            &path,
            "# s\npair,fen,a_white_result,a_black_result\n0,x,1-0,2-0\n",
        )
        .unwrap();
        assert!(read_journal(&path).unwrap_err().contains("pair 0"));
        std::fs::write(&path, "# s\npair,fen\n0,x\n").unwrap();
        assert!(
            read_journal(&path)
                .unwrap_err()
                .contains("no column a_white_result")
        );
    }
}
