//! A run's tables and files, written in (SP, game) order straight from
//! its journal so memory stays flat however many games there are: the
//! PGN, the game table (Parquet, in row groups), the position table
//! (Parquet and CSV), `match.json` and, last, the manifest.

use std::{
    collections::BTreeMap,
    fs::File,
    io::{self, BufRead, BufReader, Seek, SeekFrom},
    path::Path,
};

use c960_core::{
    GameKey, Setup, Variant,
    shakmaty::{CastlingSide, Color},
};
use c960_engine::{Control, EngineInfo};
use c960_store::{
    Frame,
    columns::{
        BLACK_CASTLED_A, BLACK_CASTLED_H, BLACK_MEDIAN_CASTLE_PLY, BLACK_WINS, DRAW_RATE, DRAWS,
        INTERVAL, WHITE_CASTLED_A, WHITE_CASTLED_H, WHITE_MEDIAN_CASTLE_PLY, WHITE_SCORE,
        WHITE_SCORE_HIGH, WHITE_SCORE_LOW, WHITE_WINS,
    },
    manifest::SelfplayManifest,
    write_atomically,
};
use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{
    Castling, GAMES_FILE, GameRecord, MANIFEST_FILE, MATCH_FILE, MatchStats, PGN_FILE,
    POSITIONS_CSV, POSITIONS_PARQUET, PgnExtras, PositionSummary, SelfplayError, Termination,
    write_game_with,
};

/// Writes a run's outputs into `dir`: the wanted games of `journal` in
/// (SP, game) order as PGN (with `extras`) and Parquet, the position
/// table of `positions`, `match_json` as `match.json` (two engines: see
/// [`MatchRun::render`]), then the manifest. The manifest comes as the
/// JSON text the files carry ([`manifest_json`], or a published
/// table's own, which `c960 restore` puts back unchanged); the tables'
/// variant is `extras`'.
pub(crate) fn write_run_outputs(
    dir: &Path,
    journal: &Path,
    wanted: &dyn Fn(GameKey) -> bool,
    extras: &PgnExtras,
    positions: &[PositionSummary],
    manifest_json: &str,
    match_json: Option<&str>,
) -> Result<(), SelfplayError> {
    let variant = extras.variant;
    let offsets = journal_offsets(journal, wanted)?;
    let mut journal = BufReader::new(File::open(journal)?);
    write_atomically(&dir.join(PGN_FILE), |out| {
        for_each_game(&mut journal, &offsets, |game| {
            write_game_with(out, game, extras)
        })
    })?;
    write_atomically(&dir.join(GAMES_FILE), |out| {
        let schema = games_frame(&[], variant)?.schema().clone();
        let mut writer = c960_store::SealedWriter::new(out, &schema, manifest_pairs(manifest_json))
            .map_err(io::Error::other)?;
        let mut batch = Vec::with_capacity(BATCH);
        let mut flush = |batch: &mut Vec<GameRecord>| -> io::Result<()> {
            writer
                .write_batch(&games_frame(batch, variant)?)
                .map_err(io::Error::other)?;
            batch.clear();
            Ok(())
        };
        for_each_game(&mut journal, &offsets, |game| {
            batch.push(game.clone());
            if batch.len() == BATCH {
                flush(&mut batch)
            } else {
                Ok(())
            }
        })?;
        if !batch.is_empty() {
            flush(&mut batch)?;
        }
        writer.finish().map_err(io::Error::other)
    })?;
    let mut positions = positions_frame(positions, variant)
        .and_then(|mut frame| c960_store::label_variant(&mut frame, variant).map(|()| frame))
        .map_err(io::Error::other)?;
    write_atomically(&dir.join(POSITIONS_PARQUET), |out| {
        c960_store::write_sealed(out, &mut positions, manifest_pairs(manifest_json))
    })?;
    write_atomically(&dir.join(POSITIONS_CSV), |out| {
        c960_store::write_csv(out, &mut positions)
    })?;
    if let Some(json) = match_json {
        write_atomically(&dir.join(MATCH_FILE), |out| {
            io::Write::write_all(out, json.as_bytes())?;
            io::Write::write_all(out, b"\n")
        })?;
    }
    write_atomically(&dir.join(MANIFEST_FILE), |out| {
        io::Write::write_all(out, manifest_json.as_bytes())?;
        io::Write::write_all(out, b"\n")
    })?;
    Ok(())
}

/// How to read `match.json`.
pub const MATCH_NOTES: &str = "From engine A's side over finished colour-reversed pairs (both \
    games of a pair start from the same position with the same seed). pentanomial counts pairs \
    with A's points 0 (LL), 0.5 (LD), 1 (DD or WL), 1.5 (WD), 2 (WW). score is points / games with \
    a 95% interval from the variance of the pair scores; elo = -400 log10(1/score - 1) with the \
    interval's ends mapped the same way; normalized_elo = (score - 0.5) / sqrt(2 var) * 800 / ln 10, \
    var the variance of a pair's score; los = Phi((score - 0.5) / sqrt(var / pairs)). The SPRT is \
    the generalized SPRT on the pentanomial model with logistic Elo bounds (as fishtest and \
    fastchess compute it; empty outcomes count 0.001 pairs); H0 is accepted at llr <= \
    ln(beta / (1 - alpha)), H1 at llr >= ln((1 - beta) / alpha).";

/// The manifest as the run's files carry it: pretty JSON.
pub(crate) fn manifest_json(manifest: &SelfplayManifest) -> io::Result<String> {
    serde_json::to_string_pretty(manifest).map_err(io::Error::other)
}

/// `match.json`'s text, for a run of two engines.
pub(crate) fn match_json(manifest: &SelfplayManifest) -> io::Result<Option<String>> {
    manifest
        .match_stats
        .as_ref()
        .map(|stats| {
            MatchRun {
                c960_version: &manifest.c960_version,
                engines: &manifest.engines,
                limit: manifest.limit,
                limit_b: manifest.limit_b,
                positions: &manifest.positions,
                seed: manifest.seed,
                replays_exactly: manifest.replays_exactly,
                finished: &manifest.finished,
            }
            .render(stats)
        })
        .transpose()
}

/// What `match.json` says about the run besides its statistics.
pub(crate) struct MatchRun<'a> {
    pub(crate) c960_version: &'a str,
    pub(crate) engines: &'a [EngineInfo],
    pub(crate) limit: Control,
    pub(crate) limit_b: Option<Control>,
    pub(crate) positions: &'a str,
    pub(crate) seed: u64,
    pub(crate) replays_exactly: bool,
    pub(crate) finished: &'a str,
}

impl MatchRun<'_> {
    /// `match.json`'s text: engine A's results against B with the run.
    pub(crate) fn render(&self, stats: &MatchStats) -> io::Result<String> {
        #[derive(Serialize)]
        struct File<'a> {
            kind: &'static str,
            c960_version: &'a str,
            engine_a: Option<&'a EngineInfo>,
            engine_b: Option<&'a EngineInfo>,
            limit: Control,
            limit_b: Option<Control>,
            positions: &'a str,
            seed: u64,
            replays_exactly: bool,
            #[serde(rename = "match")]
            stats: &'a MatchStats,
            finished: &'a str,
            notes: &'static str,
        }
        serde_json::to_string_pretty(&File {
            kind: "match",
            c960_version: self.c960_version,
            engine_a: self.engines.first(),
            engine_b: self.engines.get(1),
            limit: self.limit,
            limit_b: self.limit_b,
            positions: self.positions,
            seed: self.seed,
            replays_exactly: self.replays_exactly,
            stats,
            finished: self.finished,
            notes: MATCH_NOTES,
        })
        .map_err(io::Error::other)
    }
}

/// Games per Parquet row group.
const BATCH: usize = 2_048;

fn manifest_pairs(json: &str) -> Vec<(String, String)> {
    vec![(c960_store::PARQUET_MANIFEST_KEY.to_owned(), json.to_owned())]
}

/// Byte offset of each wanted game's journal line, by (SP, game).
fn journal_offsets(
    path: &Path,
    wanted: &dyn Fn(GameKey) -> bool,
) -> io::Result<BTreeMap<GameKey, u64>> {
    #[derive(Deserialize)]
    struct Key {
        sp: u32,
        game: u32,
    }
    let mut reader = BufReader::new(File::open(path)?);
    let mut offsets = BTreeMap::new();
    let mut offset = 0u64;
    let mut line = String::new();
    let mut first = true;
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 {
            break;
        }
        if !first && line.ends_with('\n') {
            let key: Key = serde_json::from_str(&line).map_err(io::Error::other)?;
            let key = GameKey::new(key.sp, key.game);
            if wanted(key) {
                offsets.entry(key).or_insert(offset);
            }
        }
        first = false;
        offset += n as u64;
    }
    Ok(offsets)
}

fn for_each_game(
    journal: &mut BufReader<File>,
    offsets: &BTreeMap<GameKey, u64>,
    mut each: impl FnMut(&GameRecord) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = String::new();
    for offset in offsets.values() {
        journal.seek(SeekFrom::Start(*offset))?;
        line.clear();
        journal.read_line(&mut line)?;
        let game: GameRecord = serde_json::from_str(&line).map_err(io::Error::other)?;
        each(&game)?;
    }
    Ok(())
}

fn games_frame(games: &[GameRecord], variant: Variant) -> io::Result<DataFrame> {
    let mut frame = plain_games_frame(games)?;
    c960_store::label_variant(&mut frame, variant).map_err(io::Error::other)?;
    Ok(frame)
}

fn plain_games_frame(games: &[GameRecord]) -> io::Result<DataFrame> {
    let castle = |c: Option<Castling>| c.map(|c| c.side.to_string());
    let ply = |c: Option<Castling>| c.map(|c| c.ply);
    let scores = |s: &Vec<i32>| {
        s.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    Frame::new(games)
        .column("sp", |g| g.sp)
        .column("game", |g| g.game)
        .column("seed", |g| g.seed)
        .column("white", |g| g.white.as_str())
        .column("black", |g| g.black.as_str())
        .column("limit", |g| g.limit.as_str())
        .column("result", |g| g.result.pgn())
        .column("white_score", |g| g.result.white_score())
        .column("termination", |g| g.termination.name())
        .column("plies", |g| g.plies)
        .column("moves", |g| g.moves.join(" "))
        .column("white_castle_side", |g| castle(g.white_castling))
        .column("white_castle_ply", |g| ply(g.white_castling))
        .column("black_castle_side", |g| castle(g.black_castling))
        .column("black_castle_ply", |g| ply(g.black_castling))
        .column("scores", |g| g.scores.as_ref().map(scores))
        .column("book_plies", |g| g.book_plies)
        .build()
        .map_err(io::Error::other)
}

fn positions_frame(rows: &[PositionSummary], variant: Variant) -> PolarsResult<DataFrame> {
    let placement = |sp: u32| {
        Setup::new(variant, sp)
            .map(Setup::placement)
            .unwrap_or_default()
    };
    let castled = |color: Color, side: CastlingSide| {
        move |r: &PositionSummary| *r.castled.get(color).get(side)
    };
    let mut frame = Frame::new(rows)
        .column("sp", |r| r.sp)
        .column("placement", |r| placement(r.sp))
        .column("games", |r| r.games)
        .column("distinct_games", |r| r.distinct_games)
        .column(WHITE_WINS, |r| r.white_wins)
        .column(DRAWS, |r| r.draws)
        .column(BLACK_WINS, |r| r.black_wins)
        .column(WHITE_SCORE, |r| r.white_score.as_ref().map(|i| i.mean))
        .column(WHITE_SCORE_LOW, |r| r.white_score.as_ref().map(|i| i.low))
        .column(WHITE_SCORE_HIGH, |r| r.white_score.as_ref().map(|i| i.high))
        .column(INTERVAL, |r| r.interval_method)
        .column(DRAW_RATE, |r| r.draw_rate)
        .column(
            WHITE_CASTLED_A,
            castled(Color::White, CastlingSide::QueenSide),
        )
        .column(
            WHITE_CASTLED_H,
            castled(Color::White, CastlingSide::KingSide),
        )
        .column(
            BLACK_CASTLED_A,
            castled(Color::Black, CastlingSide::QueenSide),
        )
        .column(
            BLACK_CASTLED_H,
            castled(Color::Black, CastlingSide::KingSide),
        )
        .column(WHITE_MEDIAN_CASTLE_PLY, |r| {
            *r.median_castle_ply.get(Color::White)
        })
        .column(BLACK_MEDIAN_CASTLE_PLY, |r| {
            *r.median_castle_ply.get(Color::Black)
        });
    for (k, termination) in Termination::ALL.iter().enumerate() {
        frame = frame.column(termination.name().replace('-', "_"), |r| r.terminations[k]);
    }
    frame.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_table_has_the_shared_columns_then_self_plays_own() {
        let frame = games_frame(&[], Variant::Chess960).unwrap();
        let names: Vec<&str> = frame
            .get_column_names()
            .iter()
            .map(|n| n.as_str())
            .collect();
        let wanted: Vec<&str> = c960_store::columns::GAMES
            .iter()
            .chain(&c960_store::columns::SELFPLAY_GAMES_EXTRA)
            .copied()
            .collect();
        assert_eq!(names, wanted);
    }
}
