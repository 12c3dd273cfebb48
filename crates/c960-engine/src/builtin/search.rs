//! The built-in engine's search: iterative deepening over a principal
//! variation search with a transposition table, quiescence search, move
//! ordering (hash move, MVV-LVA captures, killers, history), null-move
//! pruning and late-move reductions. Node-limited searches never look at
//! the clock, so they are deterministic.

use std::{
    collections::TryReserveError,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use shakmaty::{Chess, EnPassantMode, Move, Position, Role, zobrist::Zobrist64};

use super::eval::evaluate;
use crate::{Bound, Limit};

/// A mate score: `MATE - plies to mate`.
pub(crate) const MATE: i32 = 30_000;
const INFINITY: i32 = 32_000;
const MAX_PLY: usize = 128;
/// Mate scores are those within this distance of `MATE`.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

#[derive(Copy, Clone)]
struct TtEntry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: i32,
    bound: Bound,
}

/// One finished line of an iteration.
#[derive(Clone, Debug)]
pub(crate) struct RootLine {
    pub(crate) score: i32,
    pub(crate) pv: Vec<Move>,
}

/// What an iteration reports.
#[derive(Clone, Debug)]
pub(crate) struct Iteration {
    pub(crate) depth: u32,
    pub(crate) seldepth: u32,
    pub(crate) lines: Vec<RootLine>,
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
}

/// The searcher keeps its hash table, killers and history between
/// searches of one game; `clear` forgets them.
pub(crate) struct Searcher {
    tt: Vec<Option<TtEntry>>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    nodes: u64,
    seldepth: u32,
    stop: bool,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Hashes of the game's positions before the root, then of the search
    /// path: a repetition of any of them scores as a draw.
    path: Vec<u64>,
    pv: Vec<Vec<Move>>,
    /// Set from outside (UCI `stop`) to end the search early.
    pub(crate) external_stop: Option<Arc<AtomicBool>>,
    /// How long a search may take before it is abandoned as hung.
    pub(crate) watchdog: Option<Duration>,
    watchdog_at: Option<Instant>,
    /// Whether the last search was abandoned by the watchdog.
    pub(crate) timed_out: bool,
}

impl Searcher {
    /// A searcher with a hash table of at most `hash_mb` MiB, or the
    /// allocator's refusal.
    pub(crate) fn new(hash_mb: usize) -> Result<Searcher, TryReserveError> {
        let bytes = hash_mb.max(1).saturating_mul(1 << 20);
        let entries = (bytes / std::mem::size_of::<Option<TtEntry>>())
            .checked_next_power_of_two()
            .map_or(usize::MAX / 2 + 1, |n| n / 2);
        let mut tt = Vec::new();
        tt.try_reserve_exact(entries)?;
        tt.resize(entries, None);
        Ok(Searcher {
            tt,
            killers: vec![[None; 2]; MAX_PLY],
            history: vec![0; 64 * 64],
            nodes: 0,
            seldepth: 0,
            stop: false,
            node_limit: u64::MAX,
            deadline: None,
            path: Vec::new(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            external_stop: None,
            watchdog: None,
            watchdog_at: None,
            timed_out: false,
        })
    }

    pub(crate) fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = None);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches `root` (reached through `history`, the hashes of earlier
    /// positions of the game) within `limit`, reporting `multipv` lines;
    /// `on_iteration` sees every completed iteration. Returns the last
    /// completed iteration, with the nodes and time of the whole search.
    pub(crate) fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
        limit: Limit,
        multipv: usize,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Iteration {
        let started = Instant::now();
        self.nodes = 0;
        self.stop = false;
        self.timed_out = false;
        self.watchdog_at = self.watchdog.map(|w| started + w);
        self.node_limit = match limit {
            Limit::Nodes(n) => n.max(1),
            _ => u64::MAX,
        };
        self.deadline = match limit {
            Limit::MoveTime(ms) => Some(started + Duration::from_millis(ms)),
            _ => None,
        };
        let max_depth = match limit {
            Limit::Depth(d) => d.clamp(1, MAX_PLY as u32 - 8),
            _ => MAX_PLY as u32 - 8,
        };
        let legal = root.legal_moves();
        let multipv = multipv.clamp(1, legal.len().max(1));
        let mut best: Option<Iteration> = None;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut lines: Vec<RootLine> = Vec::new();
            for _ in 0..multipv {
                let excluded: Vec<Move> =
                    lines.iter().filter_map(|l| l.pv.first().copied()).collect();
                self.path.clear();
                self.path.extend_from_slice(history);
                let score = self.root(root, depth as i32, &excluded);
                // The first iteration always completes, so there is a move.
                if self.stop && best.is_some() {
                    break;
                }
                let pv = self.pv[0].clone();
                if pv.is_empty() {
                    break;
                }
                lines.push(RootLine { score, pv });
            }
            if self.stop && best.is_some() {
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            let iteration = Iteration {
                depth,
                seldepth: self.seldepth.max(depth),
                lines,
                nodes: self.nodes,
                elapsed: started.elapsed(),
            };
            on_iteration(&iteration);
            // A forced mate seen to its end will not change with depth.
            let mate_seen = iteration.lines.first().is_some_and(|l| {
                l.score.abs() >= MATE_BOUND && depth as i32 > MATE - l.score.abs() + 1
            });
            best = Some(iteration);
            if self.stop || mate_seen {
                break;
            }
            if legal.len() <= 1 && depth >= 4 {
                break;
            }
        }
        // Report everything searched, the abandoned iteration included.
        let mut best = best.expect("depth 1 always completes");
        best.nodes = self.nodes;
        best.elapsed = started.elapsed();
        best
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            self.stop = true;
        } else if self.nodes.is_multiple_of(1024) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let told = self
                .external_stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed));
            // The watchdog ends a search that runs far past its limit; its
            // result is then thrown away, so node-limited results never
            // depend on the clock.
            self.timed_out = self.watchdog_at.is_some_and(|d| Instant::now() >= d);
            self.stop = late || told || self.timed_out;
        }
        self.stop
    }

    fn root(&mut self, pos: &Chess, depth: i32, excluded: &[Move]) -> i32 {
        self.pv[0].clear();
        let mut moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !excluded.contains(m))
            .collect();
        if moves.is_empty() {
            return if pos.is_check() { -MATE } else { 0 };
        }
        let hash = key(pos);
        self.order(&mut moves, self.probe(hash).and_then(|e| e.best), 0);
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best_move = moves[0];
        for (i, m) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            self.path.push(hash);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && !self.stop {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.stop && depth > 1 {
                break;
            }
            if score > alpha {
                alpha = score;
                best_move = *m;
                self.update_pv(0, *m);
            }
        }
        if excluded.is_empty() {
            self.store(hash, Some(best_move), alpha, depth, Bound::Exact, 0);
        }
        alpha
    }

    fn negamax(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        let hash = key(pos);
        if pos.halfmoves() >= 100 || self.path.contains(&hash) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let entry = self.probe(hash);
        if let Some(e) = entry
            && e.depth >= depth
        {
            let score = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            return if in_check { -(MATE - ply as i32) } else { 0 };
        }

        if allow_null && !in_check && self.null_move_fails_high(pos, hash, depth, beta, ply) {
            return beta;
        }

        self.order(&mut moves, entry.and_then(|e| e.best), ply);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, m) in moves.iter().enumerate() {
            let quiet = !m.is_capture() && m.promotion().is_none();
            let mut child = pos.clone();
            child.play_unchecked(*m);
            self.path.push(hash);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let reduction = if depth >= 3 && i >= 3 && quiet && !in_check && !child.is_check() {
                    1 + i32::from(i >= 8)
                } else {
                    0
                };
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if s > alpha && reduction > 0 && !self.stop {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta && !self.stop {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.path.pop();
            if self.stop {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(*m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, *m);
                }
            }
            if alpha >= beta {
                if quiet {
                    self.reward_quiet(*m, depth, ply);
                }
                break;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(hash, best_move, best_score, depth, bound, ply);
        best_score
    }

    /// A quiet move that caused a cutoff: a killer at this ply, and history.
    fn reward_quiet(&mut self, m: Move, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let slot = history_index(m);
        self.history[slot] = (self.history[slot] + depth * depth).min(1_000_000);
    }

    /// Null move: if passing still fails high, so will a real move.
    fn null_move_fails_high(
        &mut self,
        pos: &Chess,
        hash: u64,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> bool {
        if depth < 3 || !has_pieces(pos) || beta.abs() >= MATE_BOUND || evaluate(pos) < beta {
            return false;
        }
        let Ok(passed) = pos.clone().swap_turn() else {
            return false;
        };
        self.path.push(hash);
        let reduction = 2 + depth / 4;
        let score = -self.negamax(
            &passed,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            false,
        );
        self.path.pop();
        !self.stop && score >= beta
    }

    fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.out_of_budget() {
            return 0;
        }
        let in_check = pos.is_check();
        let mut moves: Vec<Move> = if in_check {
            let all = pos.legal_moves();
            if all.is_empty() {
                return -(MATE - ply as i32);
            }
            all.into_iter().collect()
        } else {
            let stand_pat = evaluate(pos);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            let mut tactical: Vec<Move> = pos.capture_moves().into_iter().collect();
            tactical.extend(
                pos.promotion_moves()
                    .into_iter()
                    .filter(|m| !m.is_capture()),
            );
            tactical
        };
        if ply >= MAX_PLY - 1 {
            return alpha;
        }
        moves.sort_by_key(|m| -mvv_lva(*m));
        let mut best = if in_check { -INFINITY } else { alpha };
        for m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stop {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn order(&self, moves: &mut [Move], hash_move: Option<Move>, ply: usize) {
        let killers = self.killers[ply];
        moves.sort_by_cached_key(|m| {
            let score = if Some(*m) == hash_move {
                10_000_000
            } else if m.is_capture() || m.promotion().is_some() {
                5_000_000 + mvv_lva(*m)
            } else if Some(*m) == killers[0] {
                4_000_000
            } else if Some(*m) == killers[1] {
                3_900_000
            } else {
                self.history[history_index(*m)]
            };
            -score
        });
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn probe(&self, hash: u64) -> Option<TtEntry> {
        let slot = (hash as usize) & (self.tt.len() - 1);
        self.tt[slot].filter(|e| e.key == hash)
    }

    fn store(
        &mut self,
        hash: u64,
        best: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let slot = (hash as usize) & (self.tt.len() - 1);
        let replace = self.tt[slot].is_none_or(|e| e.key != hash || e.depth <= depth);
        if replace {
            self.tt[slot] = Some(TtEntry {
                key: hash,
                best,
                score: to_tt(score, ply),
                depth,
                bound,
            });
        }
    }
}

/// The Zobrist hash used for the table and repetitions.
pub(crate) fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    (ours & !board.pawns() & !board.kings()).any()
}

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 20,
    }
}

/// Most valuable victim, least valuable attacker.
fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, value);
    let promotion = m.promotion().map_or(0, value);
    victim * 16 - value(m.role()) + promotion * 16
}

fn history_index(m: Move) -> usize {
    let from = m.from().map_or(0, |s| s as usize);
    from * 64 + m.to() as usize
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A search score as a UCI-style score: centipawns, or moves to mate.
pub(crate) fn to_score(score: i32) -> crate::Score {
    if score >= MATE_BOUND {
        crate::Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        crate::Score::Mate(-(MATE + score + 1) / 2)
    } else {
        crate::Score::Cp(score)
    }
}
