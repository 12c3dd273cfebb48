//! Lines an engine prints, parsed into types. Pure text handling: moves stay
//! UCI strings here and are checked against a position by the driver.

use crate::types::{Bound, Score, Wdl};

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name ...`
    IdName(String),
    /// `id author ...`
    IdAuthor(String),
    /// `option name ... type ...`
    Option(OptionDecl),
    /// `uciok`
    UciOk,
    /// `readyok`
    ReadyOk,
    /// `info ...`
    Info(Info),
    /// `bestmove MOVE [ponder MOVE]`; `None` for `bestmove (none)`.
    BestMove {
        /// The move, in UCI notation.
        best: Option<String>,
        /// The expected reply, in UCI notation.
        ponder: Option<String>,
    },
    /// Anything else (engines may print banners and debug text).
    Other(String),
}

/// An option the engine offers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name (may contain spaces).
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// The default value, if given.
    pub default: Option<String>,
    /// Minimum, for `spin`.
    pub min: Option<i64>,
    /// Maximum, for `spin`.
    pub max: Option<i64>,
}

impl OptionDecl {
    /// Why `value` cannot be set, if it cannot: a `spin` value that is not
    /// a whole number or is outside its range, a `check` value that is not
    /// `true` or `false` (an engine may crash on either).
    #[must_use]
    pub fn refuses(&self, value: &str) -> Option<String> {
        match self.kind.as_str() {
            "spin" => {
                let range = format!(
                    "{}..={}",
                    self.min.unwrap_or(i64::MIN),
                    self.max.unwrap_or(i64::MAX)
                );
                match value.parse::<i64>() {
                    Err(_) => Some(format!("is not a whole number (the engine takes {range})")),
                    Ok(v) if self.min.is_some_and(|min| v < min) => {
                        Some(format!("is outside {range}"))
                    }
                    Ok(v) if self.max.is_some_and(|max| v > max) => {
                        Some(format!("is outside {range}"))
                    }
                    Ok(_) => None,
                }
            }
            "check" if value != "true" && value != "false" => {
                Some("is not true or false".to_owned())
            }
            _ => None,
        }
    }
}

/// The fields of an `info` line that c960 uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Search depth.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Which principal variation this is (1 = best).
    pub multipv: Option<u32>,
    /// Score from the side to move.
    pub score: Option<Score>,
    /// Whether the score is a bound.
    pub bound: Bound,
    /// Win/draw/loss per mille from the side to move.
    pub wdl: Option<Wdl>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds searched.
    pub time_ms: Option<u64>,
    /// The principal variation, in UCI notation.
    pub pv: Vec<String>,
    /// Free text (`info string ...`).
    pub string: Option<String>,
}

/// A line that claims to be a known command but cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot parse engine output {line:?}: {reason}")]
pub struct ParseError {
    /// The line.
    pub line: String,
    /// What is wrong.
    pub reason: String,
}

/// Parses one line of engine output.
///
/// # Examples
///
/// ```
/// use c960_engine::uci::{EngineLine, parse_line};
/// use c960_engine::{Bound, Score};
///
/// let line = "info depth 8 seldepth 9 multipv 3 score cp 14 wdl 19 977 4 upperbound \
///             nodes 20009 nps 666966 hashfull 6 tbhits 0 time 30 pv c2c4 g8f6";
/// let EngineLine::Info(info) = parse_line(line)? else { panic!() };
/// assert_eq!(info.score, Some(Score::Cp(14)));
/// assert_eq!(info.bound, Bound::Upper);
/// assert_eq!(info.pv, ["c2c4", "g8f6"]);
/// # Ok::<(), c960_engine::uci::ParseError>(())
/// ```
pub fn parse_line(line: &str) -> Result<EngineLine, ParseError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(EngineLine::Other(String::new()));
    };
    Ok(match first {
        "uciok" => EngineLine::UciOk,
        "readyok" => EngineLine::ReadyOk,
        "id" => match words.next() {
            Some("name") => {
                EngineLine::IdName(after_word(after_word(line, "id"), "name").to_owned())
            }
            Some("author") => {
                EngineLine::IdAuthor(after_word(after_word(line, "id"), "author").to_owned())
            }
            _ => EngineLine::Other(line.to_owned()),
        },
        "option" => EngineLine::Option(parse_option(line)?),
        "info" => EngineLine::Info(parse_info(line)?),
        "bestmove" => {
            let best = words
                .next()
                .ok_or_else(|| error(line, "bestmove without a move"))?;
            let ponder = match (words.next(), words.next()) {
                (Some("ponder"), Some(m)) if m != "(none)" => Some(m.to_owned()),
                _ => None,
            };
            let best = match best {
                "(none)" | "0000" => None,
                m => Some(m.to_owned()),
            };
            EngineLine::BestMove { best, ponder }
        }
        _ => EngineLine::Other(line.to_owned()),
    })
}

/// The text after the first occurrence of the word `word` (trimmed).
fn after_word<'a>(line: &'a str, word: &str) -> &'a str {
    line.trim_start().strip_prefix(word).map_or("", str::trim)
}

fn error(line: &str, reason: &str) -> ParseError {
    ParseError {
        line: line.to_owned(),
        reason: reason.to_owned(),
    }
}

fn parse_option(line: &str) -> Result<OptionDecl, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let name_at = words
        .iter()
        .position(|w| *w == "name")
        .ok_or_else(|| error(line, "option without a name"))?;
    let type_at = words
        .iter()
        .skip(name_at + 1)
        .position(|w| *w == "type")
        .map(|i| i + name_at + 1)
        .ok_or_else(|| error(line, "option without a type"))?;
    let mut decl = OptionDecl {
        name: words[name_at + 1..type_at].join(" "),
        kind: words
            .get(type_at + 1)
            .ok_or_else(|| error(line, "option without a type"))?
            .to_string(),
        ..OptionDecl::default()
    };
    if decl.name.is_empty() {
        return Err(error(line, "option with an empty name"));
    }
    let keywords = ["default", "min", "max", "var"];
    let mut i = type_at + 2;
    while i < words.len() {
        let key = words[i];
        let end = (i + 1..words.len())
            .find(|j| keywords.contains(&words[*j]))
            .unwrap_or(words.len());
        let value = words[i + 1..end].join(" ");
        match key {
            "default" => decl.default = Some(value),
            "min" => decl.min = value.parse().ok(),
            "max" => decl.max = value.parse().ok(),
            _ => {}
        }
        i = end;
    }
    Ok(decl)
}

/// The score of an `info` line: `kind` (`cp` or `mate`) and `value`.
fn score(line: &str, kind: Option<&str>, value: i64) -> Result<Score, ParseError> {
    let value = i32::try_from(value).map_err(|_| error(line, "score out of range"))?;
    match kind {
        Some("cp") => Ok(Score::Cp(value)),
        Some("mate") => Ok(Score::Mate(value)),
        _ => Err(error(line, "score must be cp or mate")),
    }
}

/// Refuses a `wdl` that does not add up to 1000 (per mille: anything else
/// is not a win/draw/loss expectation).
fn per_mille(line: &str, wdl: Wdl) -> Result<Wdl, ParseError> {
    let sum = u64::from(wdl.win) + u64::from(wdl.draw) + u64::from(wdl.loss);
    if sum != 1000 {
        return Err(error(
            line,
            &format!(
                "wdl {} {} {} adds up to {sum}, not 1000",
                wdl.win, wdl.draw, wdl.loss
            ),
        ));
    }
    Ok(wdl)
}

fn parse_info(line: &str) -> Result<Info, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut info = Info::default();
    let mut i = 1;
    let number = |i: usize, what: &str| -> Result<i64, ParseError> {
        words
            .get(i)
            .and_then(|w| w.parse::<i64>().ok())
            .ok_or_else(|| error(line, &format!("{what} needs a number")))
    };
    let unsigned = |i: usize, what: &str| -> Result<u64, ParseError> {
        u64::try_from(number(i, what)?).map_err(|_| error(line, &format!("{what} is negative")))
    };
    let small = |i: usize, what: &str| -> Result<u32, ParseError> {
        u32::try_from(unsigned(i, what)?).map_err(|_| error(line, &format!("{what} is too large")))
    };
    while i < words.len() {
        match words[i] {
            field @ ("depth" | "seldepth" | "multipv") => {
                let value = Some(small(i + 1, field)?);
                match field {
                    "depth" => info.depth = value,
                    "seldepth" => info.seldepth = value,
                    _ => info.multipv = value,
                }
                i += 2;
            }
            field @ ("nodes" | "nps" | "time") => {
                let value = Some(unsigned(i + 1, field)?);
                match field {
                    "nodes" => info.nodes = value,
                    "nps" => info.nps = value,
                    _ => info.time_ms = value,
                }
                i += 2;
            }
            "score" => {
                let value = number(i + 2, "score")?;
                info.score = Some(score(line, words.get(i + 1).copied(), value)?);
                i += 3;
            }
            bound @ ("lowerbound" | "upperbound") => {
                info.bound = if bound == "lowerbound" {
                    Bound::Lower
                } else {
                    Bound::Upper
                };
                i += 1;
            }
            "wdl" => {
                let wdl = Wdl {
                    win: small(i + 1, "wdl")?,
                    draw: small(i + 2, "wdl")?,
                    loss: small(i + 3, "wdl")?,
                };
                info.wdl = Some(per_mille(line, wdl)?);
                i += 4;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| (*w).to_owned()).collect();
                break;
            }
            "string" => {
                info.string = Some(words[i + 1..].join(" "));
                break;
            }
            // Fields with one value that c960 does not use.
            "hashfull" | "tbhits" | "cpuload" | "currmove" | "currmovenumber" | "sbhits" => {
                i += 2;
            }
            // Fields that run to the end of the line.
            "refutation" | "currline" => break,
            _ => i += 1,
        }
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_an_engine_would_choke_on_are_refused_before_it_gets_them() {
        let spin = OptionDecl {
            name: "Move Overhead".to_owned(),
            kind: "spin".to_owned(),
            default: Some("10".to_owned()),
            min: Some(0),
            max: Some(5000),
        };
        assert_eq!(spin.refuses("30"), None);
        assert_eq!(
            spin.refuses("abc").as_deref(),
            Some("is not a whole number (the engine takes 0..=5000)")
        );
        assert_eq!(spin.refuses("5001").as_deref(), Some("is outside 0..=5000"));
        let check = OptionDecl {
            kind: "check".to_owned(),
            min: None,
            max: None,
            ..spin.clone()
        };
        assert_eq!(check.refuses("true"), None);
        assert_eq!(
            check.refuses("yes").as_deref(),
            Some("is not true or false")
        );
        let text = OptionDecl {
            kind: "string".to_owned(),
            ..check
        };
        assert_eq!(text.refuses("anything"), None);
    }
}
