//! Reproducible organizer draws: from a seed or from a published phrase,
//! with filters on the features.
//!
//! Both methods pick `rounds` distinct positions from the candidates (the
//! positions that pass the filters, in ascending SP order). Each pick takes
//! a 64-bit value `v` from the method's stream, keeps it only if
//! `v < n * floor(2^64 / n)` for `n` candidates left (rejection sampling, so
//! every candidate is equally likely), and removes candidate `v mod n`.
//!
//! - **Seed** (`DrawMethod::Seed`): the stream is `ChaCha20` (crate
//!   `rand_chacha`, `ChaCha20Rng::from_seed`) keyed with the seed as 8
//!   little-endian bytes followed by 24 zero bytes, read with `next_u64`:
//!   the `ChaCha20` keystream (20 rounds, nonce 0, block counter from 0) cut
//!   into 8-byte little-endian values. `ChaCha20` is a fixed, published
//!   algorithm, so a seed gives the same positions on every platform and
//!   version, and any `ChaCha20` implementation can check a draw.
//! - **Phrase** (`DrawMethod::Phrase`): the stream is a SHA-256 chain,
//!   `h1 = SHA-256(phrase as UTF-8)`, `h(k+1) = SHA-256(hk)`, each hash
//!   giving `v` = its first 8 bytes read big-endian. Without filters, round 1
//!   is therefore `int(sha256(phrase).hexdigest()[:16], 16) % 960` (unless
//!   rejected, which has probability 960 / 2^64), so anyone can check a
//!   published draw with a one-line script.

use std::{collections::BTreeSet, fmt};

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

use crate::{DrawError, Features, StartPosition};

/// Where a draw's randomness comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawMethod {
    /// A `ChaCha20` stream keyed with this seed.
    Seed(u64),
    /// A SHA-256 chain started from this phrase.
    Phrase(String),
}

impl fmt::Display for DrawMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawMethod::Seed(seed) => write!(f, "seed {seed} (ChaCha20)"),
            DrawMethod::Phrase(phrase) => write!(f, "phrase {phrase:?} (SHA-256 chain)"),
        }
    }
}

/// Conditions a drawn position must meet. The default accepts every
/// position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawFilter {
    /// Positions never drawn.
    pub exclude: BTreeSet<StartPosition>,
    /// At most this many undefended pawns per side.
    pub max_undefended: Option<usize>,
    /// At most this many king-only pawns per side.
    pub max_king_only: Option<usize>,
    /// At most this many weak (undefended or king-only) pawns per side.
    pub max_weak: Option<usize>,
    /// No undefended Black pawn that a legal first move of White attacks.
    pub no_first_move_attack: bool,
    /// No castling among White's legal first moves.
    pub no_first_move_castling: bool,
    /// Only these positions (e.g. those a balance table calls balanced),
    /// with words saying which.
    pub only: Option<Allowed>,
}

/// A list of allowed positions and what they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowed {
    /// What the list is, e.g. `verdict balanced in runs/x/balance.csv`.
    pub label: String,
    /// The positions.
    pub positions: BTreeSet<StartPosition>,
}

impl DrawFilter {
    /// Whether the position with these features passes.
    #[must_use]
    pub fn accepts(&self, f: &Features) -> bool {
        let within = |limit: Option<usize>, value: usize| limit.is_none_or(|max| value <= max);
        !self.exclude.contains(&f.position)
            && within(self.max_undefended, f.undefended_count())
            && within(self.max_king_only, f.king_only_count())
            && within(self.max_weak, f.weak_count())
            && (!self.no_first_move_attack || f.first_move_attacks.is_empty())
            && (!self.no_first_move_castling || !f.castling_on_first_move())
            && self
                .only
                .as_ref()
                .is_none_or(|only| only.positions.contains(&f.position))
    }

    /// The positions (from `features`) that pass, in the given order.
    #[must_use]
    pub fn candidates(&self, features: &[Features]) -> Vec<StartPosition> {
        features
            .iter()
            .filter(|f| self.accepts(f))
            .map(|f| f.position)
            .collect()
    }
}

impl fmt::Display for DrawFilter {
    /// A readable list of the active conditions, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.exclude.is_empty() {
            let sps: Vec<String> = self.exclude.iter().map(|p| p.sp().to_string()).collect();
            parts.push(format!("excluding {}", sps.join(",")));
        }
        let limits = [
            (self.max_undefended, "undefended"),
            (self.max_king_only, "king-only"),
            (self.max_weak, "weak"),
        ];
        for (limit, name) in limits {
            if let Some(max) = limit {
                let pawns = crate::plural(max, &format!("{name} pawn"), &format!("{name} pawns"));
                parts.push(format!("at most {pawns}"));
            }
        }
        if self.no_first_move_attack {
            parts.push("no pawn attackable on move 1".to_owned());
        }
        if self.no_first_move_castling {
            parts.push("no castling on move 1".to_owned());
        }
        if let Some(only) = &self.only {
            parts.push(format!(
                "only {} ({})",
                only.label,
                crate::plural(only.positions.len(), "position", "positions")
            ));
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

/// The result of a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// How it was drawn.
    pub method: DrawMethod,
    /// How many positions passed the filters.
    pub candidates: usize,
    /// The drawn positions, round 1 first; all distinct.
    pub positions: Vec<StartPosition>,
}

/// Draws `rounds` distinct positions among those of `features` that pass
/// `filter` (see the module documentation for the exact algorithm).
///
/// # Examples
///
/// ```
/// use c960_core::{draw, DrawFilter, DrawMethod, Features};
///
/// let all = Features::all();
/// let a = draw(&DrawMethod::Seed(7), 3, &DrawFilter::default(), &all)?;
/// let b = draw(&DrawMethod::Seed(7), 3, &DrawFilter::default(), &all)?;
/// assert_eq!(a, b);
/// # Ok::<(), c960_core::DrawError>(())
/// ```
pub fn draw(
    method: &DrawMethod,
    rounds: usize,
    filter: &DrawFilter,
    features: &[Features],
) -> Result<Draw, DrawError> {
    if rounds == 0 {
        return Err(DrawError::NoRounds);
    }
    let candidates = filter.candidates(features);
    draw_among(method, rounds, &candidates).map_err(|e| match e {
        DrawError::NothingLeft { .. } => DrawError::NothingLeft {
            filters: filter.to_string(),
        },
        DrawError::TooFewCandidates {
            candidates, rounds, ..
        } => DrawError::TooFewCandidates {
            candidates,
            rounds,
            filters: filter.to_string(),
        },
        other => other,
    })
}

/// Draws `rounds` distinct positions among `candidates` (taken in
/// ascending SP order whatever their order here), as [`draw`] does after
/// filtering: a draw record's candidate list recomputes its draw.
///
/// # Examples
///
/// ```
/// use c960_core::{draw, draw_among, DrawFilter, DrawMethod, Features, StartPosition};
///
/// let method = DrawMethod::Phrase("Club Open 2026".to_owned());
/// let all: Vec<StartPosition> = StartPosition::all().collect();
/// let filtered = draw(&method, 3, &DrawFilter::default(), &Features::all())?;
/// assert_eq!(draw_among(&method, 3, &all)?.positions, filtered.positions);
/// # Ok::<(), c960_core::DrawError>(())
/// ```
pub fn draw_among(
    method: &DrawMethod,
    rounds: usize,
    candidates: &[StartPosition],
) -> Result<Draw, DrawError> {
    if rounds == 0 {
        return Err(DrawError::NoRounds);
    }
    let mut candidates = candidates.to_vec();
    candidates.sort_unstable();
    candidates.dedup();
    let total = candidates.len();
    if total == 0 {
        return Err(DrawError::NothingLeft {
            filters: "an empty candidate list".to_owned(),
        });
    }
    if total < rounds {
        return Err(DrawError::TooFewCandidates {
            candidates: total,
            rounds,
            filters: "the candidate list".to_owned(),
        });
    }
    let mut stream = Stream::new(method);
    let positions = (0..rounds).map(|_| stream.pick(&mut candidates)).collect();
    Ok(Draw {
        method: method.clone(),
        candidates: total,
        positions,
    })
}

/// The stream of 64-bit values behind a draw method.
pub(crate) enum Stream {
    ChaCha(Box<ChaCha20Rng>),
    Sha256Chain([u8; 32], bool),
}

impl Stream {
    /// The SHA-256 chain that starts with `first` (its first value is
    /// `first`'s first 8 bytes).
    pub(crate) fn chain_from(first: [u8; 32]) -> Stream {
        Stream::Sha256Chain(first, true)
    }

    /// Removes and returns one of `candidates` (ascending SP order), each
    /// equally likely.
    pub(crate) fn pick(&mut self, candidates: &mut Vec<StartPosition>) -> StartPosition {
        let index = self.uniform(candidates.len() as u64);
        candidates.remove(index as usize)
    }

    fn new(method: &DrawMethod) -> Stream {
        match method {
            DrawMethod::Seed(seed) => {
                let mut key = [0u8; 32];
                key[..8].copy_from_slice(&seed.to_le_bytes());
                Stream::ChaCha(Box::new(ChaCha20Rng::from_seed(key)))
            }
            DrawMethod::Phrase(phrase) => {
                Stream::Sha256Chain(Sha256::digest(phrase.as_bytes()).into(), true)
            }
        }
    }

    fn next_u64(&mut self) -> u64 {
        match self {
            Stream::ChaCha(rng) => rng.next_u64(),
            Stream::Sha256Chain(hash, fresh) => {
                if !*fresh {
                    *hash = Sha256::digest(*hash).into();
                }
                *fresh = false;
                u64::from_be_bytes(hash[..8].try_into().expect("8 bytes"))
            }
        }
    }

    /// A uniform value in `0..n` by rejection sampling.
    fn uniform(&mut self, n: u64) -> u64 {
        assert!(n > 0, "no candidates to pick from");
        let limit = (1u128 << 64) / u128::from(n) * u128::from(n);
        loop {
            let v = self.next_u64();
            if u128::from(v) < limit {
                return v % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_chain_starts_with_the_phrase_digest() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223...
        let mut stream = Stream::new(&DrawMethod::Phrase("abc".to_owned()));
        assert_eq!(stream.next_u64(), 0xba78_16bf_8f01_cfea);
        // SHA-256 of those 32 bytes is the chain's second element.
        let first: [u8; 32] = Sha256::digest(b"abc").into();
        let second: [u8; 32] = Sha256::digest(first).into();
        assert_eq!(
            stream.next_u64(),
            u64::from_be_bytes(second[..8].try_into().unwrap())
        );
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut stream = Stream::new(&DrawMethod::Seed(1));
        for n in [1, 2, 3, 959, 960] {
            for _ in 0..100 {
                assert!(stream.uniform(n) < n);
            }
        }
    }
}
