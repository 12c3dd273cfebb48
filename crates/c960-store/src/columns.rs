//! The column names of the per-position tables, named once: the writers
//! (sweep, self-play, import) are tested to write these columns in this
//! order, and the report selects them by these names.

/// The search columns of a sweep's per-position table that readers take,
/// in the order the report shows them (the table has them, among others,
/// in its own order).
pub const SWEEP_SEARCH: [&str; 10] = [
    "score_cp",
    "score_mate",
    "wdl_win",
    "wdl_draw",
    "wdl_loss",
    "depth",
    "nodes",
    "best_move_uci",
    "best_move_san",
    "pv_san",
];

/// The columns a sweep with repeats adds to its per-position table (whose
/// search columns are then those of the first repeat).
pub const SWEEP_REPEAT_MEANS: [&str; 7] = [
    "repeats",
    "score_cp_mean",
    "score_cp_sd",
    "score_cp_se",
    "white_expected_mean",
    "white_expected_sd",
    "white_expected_se",
];

/// White's wins.
pub const WHITE_WINS: &str = "white_wins";
/// Draws.
pub const DRAWS: &str = "draws";
/// Black's wins.
pub const BLACK_WINS: &str = "black_wins";
/// White's score, (W + D/2) / games.
pub const WHITE_SCORE: &str = "white_score";
/// The low end of its 95% interval.
pub const WHITE_SCORE_LOW: &str = "white_score_low";
/// The high end of its 95% interval.
pub const WHITE_SCORE_HIGH: &str = "white_score_high";
/// How the interval was computed (`trinomial` or `pairs`).
pub const INTERVAL: &str = "interval";
/// Draws / games.
pub const DRAW_RATE: &str = "draw_rate";
/// Share of games in which White castled a-side (queen side).
pub const WHITE_CASTLED_A: &str = "white_castled_a";
/// Share of games in which White castled h-side (king side).
pub const WHITE_CASTLED_H: &str = "white_castled_h";
/// Share of games in which Black castled a-side.
pub const BLACK_CASTLED_A: &str = "black_castled_a";
/// Share of games in which Black castled h-side.
pub const BLACK_CASTLED_H: &str = "black_castled_h";
/// Median ply of White's castling, over games with castling.
pub const WHITE_MEDIAN_CASTLE_PLY: &str = "white_median_castle_ply";
/// Median ply of Black's castling, over games with castling.
pub const BLACK_MEDIAN_CASTLE_PLY: &str = "black_median_castle_ply";

/// The columns of a game run's position table (self-play and import
/// alike) between its game counts and its termination counts, in table
/// order; the last three are the terminations both kinds share.
pub const GAME_SUMMARY: [&str; 17] = [
    WHITE_WINS,
    DRAWS,
    BLACK_WINS,
    WHITE_SCORE,
    WHITE_SCORE_LOW,
    WHITE_SCORE_HIGH,
    INTERVAL,
    DRAW_RATE,
    WHITE_CASTLED_A,
    WHITE_CASTLED_H,
    BLACK_CASTLED_A,
    BLACK_CASTLED_H,
    WHITE_MEDIAN_CASTLE_PLY,
    BLACK_MEDIAN_CASTLE_PLY,
    "checkmate",
    "stalemate",
    "insufficient_material",
];

/// The game table (`games.parquet`) of self-play and imports alike: one
/// row per game, these columns first and in this order (an import leaves
/// what it does not know empty), then [`SELFPLAY_GAMES_EXTRA`] or
/// [`IMPORT_GAMES_EXTRA`]; both writers are tested to write exactly these.
pub const GAMES: [&str; 16] = [
    "sp",
    "game",
    "seed",
    "white",
    "black",
    "limit",
    "result",
    "white_score",
    "termination",
    "plies",
    "moves",
    "white_castle_side",
    "white_castle_ply",
    "black_castle_side",
    "black_castle_ply",
    "scores",
];

/// The column a self-play game table adds after [`GAMES`]: plies played
/// from the opening book.
pub const SELFPLAY_GAMES_EXTRA: [&str; 1] = ["book_plies"];

/// The columns an import's game table adds after [`GAMES`]: what the PGN
/// headers say of the players and the game.
pub const IMPORT_GAMES_EXTRA: [&str; 4] = ["white_elo", "black_elo", "time_control", "date"];

/// The termination columns of a self-play position table, in table order,
/// with their names in words (the first three end [`GAME_SUMMARY`]).
pub const SELFPLAY_TERMINATIONS: [(&str, &str); 8] = [
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("insufficient_material", "insufficient material"),
    ("threefold_repetition", "threefold repetition"),
    ("fifty_moves", "fifty-move rule"),
    ("ply_cap", "ply cap"),
    ("resignation", "resignation"),
    ("draw_adjudication", "draw adjudication"),
];

/// The termination columns of an import's position table, in table order,
/// with their names in words (the first three end [`GAME_SUMMARY`]).
pub const IMPORT_TERMINATIONS: [(&str, &str); 8] = [
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("insufficient_material", "insufficient material"),
    ("resignation", "resignation"),
    ("time_forfeit", "time forfeit"),
    ("draw_agreed", "draw agreed"),
    ("abandoned", "abandoned"),
    ("rules_infraction", "rules infraction"),
];

/// Checks that `written` (a table's column names) holds every name of
/// `wanted` in that order, with any others between them; the error names
/// the first one missing or out of order.
///
/// # Errors
/// The first column of `wanted` not found after the previous one.
pub fn check_order<S: AsRef<str>>(written: &[S], wanted: &[&str]) -> Result<(), String> {
    let mut rest = written.iter().map(AsRef::as_ref);
    for name in wanted {
        if !rest.any(|w| w == *name) {
            return Err(format!("column {name} is missing or out of order"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_checked_with_gaps_allowed() {
        let written = ["sp", "score_cp", "x", "score_mate", "wdl_win"];
        assert!(check_order(&written, &["score_cp", "score_mate"]).is_ok());
        assert!(check_order(&written, &["score_mate", "score_cp"]).is_err());
        let err = check_order(&written, &["score_cp", "depth"]).unwrap_err();
        assert!(err.contains("depth"), "{err}");
    }

    #[test]
    fn the_shared_terminations_end_the_game_summary() {
        let tail = &GAME_SUMMARY[GAME_SUMMARY.len() - 3..];
        for terminations in [SELFPLAY_TERMINATIONS, IMPORT_TERMINATIONS] {
            let head: Vec<&str> = terminations[..3].iter().map(|(c, _)| *c).collect();
            assert_eq!(head, tail);
        }
    }
}

/// The columns of a verdict table (`balance.csv`), in its order: one row
/// per position, its published balance first, then each method's own
/// figures. The verdict crate writes and reads them by these names.
pub mod balance {
    /// The Scharnagl number.
    pub const SP: &str = "sp";
    /// The back rank, White's pieces from a to h.
    pub const PLACEMENT: &str = "placement";
    /// The verdict (`balanced`, `more-for-white`, `less-for-white`,
    /// `unresolved`).
    pub const VERDICT: &str = "verdict";
    /// Its Benjamini–Hochberg q-value.
    pub const Q_VALUE: &str = "q_value";
    /// The published balance estimate: White's edge, shrunk toward the mean
    /// of all positions.
    pub const ESTIMATE: &str = "balance_estimate";
    /// The low end of its 95 % interval.
    pub const LOW: &str = "balance_low";
    /// The high end of its 95 % interval.
    pub const HIGH: &str = "balance_high";
    /// The method the verdict comes from (`sweep` or `games`).
    pub const METHOD: &str = "verdict_method";
    /// Games played of the position.
    pub const GAMES: &str = "games";
    /// White's score in them.
    pub const GAMES_SCORE: &str = "games_score";
    /// Its anytime-valid interval, low end.
    pub const GAMES_SCORE_LOW: &str = "games_score_low";
    /// Its high end.
    pub const GAMES_SCORE_HIGH: &str = "games_score_high";
    /// The verdict from games.
    pub const GAMES_VERDICT: &str = "games_verdict";
    /// Its q-value.
    pub const GAMES_Q_VALUE: &str = "games_q_value";
    /// Raters that scored the position.
    pub const SWEEP_ENGINES: &str = "sweep_engines";
    /// The raters' consensus before shrinking, centipawns.
    pub const SWEEP_CP: &str = "sweep_cp";
    /// Its interval, low end.
    pub const SWEEP_CP_LOW: &str = "sweep_cp_low";
    /// Its high end.
    pub const SWEEP_CP_HIGH: &str = "sweep_cp_high";
    /// The consensus shrunk toward the mean of all positions.
    pub const SWEEP_SHRUNK_CP: &str = "sweep_shrunk_cp";
    /// The verdict from the sweeps.
    pub const SWEEP_VERDICT: &str = "sweep_verdict";
    /// Its q-value.
    pub const SWEEP_Q_VALUE: &str = "sweep_q_value";
    /// Raters with a WDL model whose consensus the draw chance and the
    /// expected score are.
    pub const WDL_RATERS: &str = "wdl_raters";
    /// The raters' consensus chance that the game is drawn (0..1): the
    /// engines' model of games at long time control, not human results.
    pub const DRAW_CHANCE: &str = "draw_chance";
    /// The low end of its 95 % interval.
    pub const DRAW_CHANCE_LOW: &str = "draw_chance_low";
    /// Its high end.
    pub const DRAW_CHANCE_HIGH: &str = "draw_chance_high";
    /// The raters' consensus expected score for White (0..1): win plus
    /// half the draw chance.
    pub const WHITE_EXPECTED: &str = "white_expected_score";
    /// The low end of its 95 % interval.
    pub const WHITE_EXPECTED_LOW: &str = "white_expected_score_low";
    /// Its high end.
    pub const WHITE_EXPECTED_HIGH: &str = "white_expected_score_high";

    /// Every column, in table order (the last seven only where the raters
    /// report WDL).
    pub const ALL: [&str; 28] = [
        SP,
        PLACEMENT,
        VERDICT,
        Q_VALUE,
        ESTIMATE,
        LOW,
        HIGH,
        METHOD,
        GAMES,
        GAMES_SCORE,
        GAMES_SCORE_LOW,
        GAMES_SCORE_HIGH,
        GAMES_VERDICT,
        GAMES_Q_VALUE,
        SWEEP_ENGINES,
        SWEEP_CP,
        SWEEP_CP_LOW,
        SWEEP_CP_HIGH,
        SWEEP_SHRUNK_CP,
        SWEEP_VERDICT,
        SWEEP_Q_VALUE,
        WDL_RATERS,
        DRAW_CHANCE,
        DRAW_CHANCE_LOW,
        DRAW_CHANCE_HIGH,
        WHITE_EXPECTED,
        WHITE_EXPECTED_LOW,
        WHITE_EXPECTED_HIGH,
    ];
}

/// The difficulty columns of a sweep with replies (`c960 sweep --reply`
/// with `--multipv`): how hard White's first move and Black's first reply
/// after White's best move are, and their asymmetry. A verdict table made
/// with `--difficulty` repeats the six measures.
pub mod difficulty {
    /// White's lines scored.
    pub const WHITE_LINES: &str = "white_lines";
    /// White's moves within 25 cp of the best, the best included.
    pub const WHITE_GOOD_MOVES: &str = "white_good_moves";
    /// White's best score minus the second best, centipawns.
    pub const WHITE_GAP_CP: &str = "white_gap_cp";
    /// White's lines whose score is a bound.
    pub const WHITE_BOUND_LINES: &str = "white_bound_lines";
    /// Black's lines scored (the reply's search).
    pub const BLACK_LINES: &str = "black_lines";
    /// Black's moves within 25 cp of the best.
    pub const BLACK_GOOD_MOVES: &str = "black_good_moves";
    /// Black's best minus second best, centipawns.
    pub const BLACK_GAP_CP: &str = "black_gap_cp";
    /// Black's lines whose score is a bound.
    pub const BLACK_BOUND_LINES: &str = "black_bound_lines";
    /// White's good moves minus Black's.
    pub const GOOD_MOVES_ASYMMETRY: &str = "good_moves_asymmetry";
    /// White's gap minus Black's.
    pub const GAP_ASYMMETRY_CP: &str = "gap_asymmetry_cp";

    /// A sweep's difficulty columns, in table order.
    pub const ALL: [&str; 10] = [
        WHITE_LINES,
        WHITE_GOOD_MOVES,
        WHITE_GAP_CP,
        WHITE_BOUND_LINES,
        BLACK_LINES,
        BLACK_GOOD_MOVES,
        BLACK_GAP_CP,
        BLACK_BOUND_LINES,
        GOOD_MOVES_ASYMMETRY,
        GAP_ASYMMETRY_CP,
    ];

    /// The six measures a verdict table repeats, in its order.
    pub const MEASURES: [&str; 6] = [
        WHITE_GOOD_MOVES,
        BLACK_GOOD_MOVES,
        GOOD_MOVES_ASYMMETRY,
        WHITE_GAP_CP,
        BLACK_GAP_CP,
        GAP_ASYMMETRY_CP,
    ];
}
