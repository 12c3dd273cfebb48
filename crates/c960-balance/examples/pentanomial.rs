//! Match statistics from pentanomial counts, for the book benchmark.
//!
//! `pentanomial LL LD DD WD WW [WINS DRAWS LOSSES]` prints, as one JSON
//! document, c960's [`MatchStats`] of engine A over engine B: the score,
//! Elo and normalized Elo per game pair with their 95 % intervals, and the
//! likelihood of superiority; beside them `pairs_ratio` and
//! `game_pair_elo` (normalized game-pair Elo with its interval). The
//! optional game counts are carried through.
//! A bad argument gets one line on stderr and exit code 2.

use std::process::ExitCode;

use c960_balance::elo::{MatchStats, game_pair_elo, pairs_ratio};

fn counts(args: &[String]) -> Result<([u64; 5], [u64; 3]), String> {
    let usage = "usage: pentanomial LL LD DD WD WW [WINS DRAWS LOSSES]";
    if args.len() != 5 && args.len() != 8 {
        return Err(format!(
            "expected 5 or 8 counts, got {}; {usage}",
            args.len()
        ));
    }
    let mut values = [0u64; 8];
    for (value, arg) in values.iter_mut().zip(args) {
        *value = arg
            .parse()
            .map_err(|_| format!("{arg:?} is not a count; {usage}"))?;
    }
    let pentanomial = [values[0], values[1], values[2], values[3], values[4]];
    Ok((pentanomial, [values[5], values[6], values[7]]))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match counts(&args) {
        Ok((pentanomial, wdl)) => {
            let stats = MatchStats::from_pentanomial(pentanomial, 0, wdl, None);
            let mut json = serde_json::to_value(&stats).unwrap_or_default();
            if let Some(fields) = json.as_object_mut() {
                fields.insert(
                    "pairs_ratio".into(),
                    serde_json::json!(pairs_ratio(pentanomial)),
                );
                fields.insert(
                    "game_pair_elo".into(),
                    serde_json::json!(game_pair_elo(pentanomial)),
                );
            }
            match serde_json::to_string(&json) {
                Ok(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err(error) => {
                    eprintln!("pentanomial: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(message) => {
            eprintln!("pentanomial: {message}");
            ExitCode::from(2)
        }
    }
}
