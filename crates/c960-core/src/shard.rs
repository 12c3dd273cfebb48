//! Shards: a fixed partition of a run's work units into N disjoint parts
//! whose union is the whole run, so N machines (or N Slurm array tasks)
//! can each play one part and a merge can put the parts back together.
//!
//! A work unit is a pair (SP, k): for a sweep k is the repeat, for
//! self-play the game index, or the pair index (game / 2) when two
//! engines play colour-reversed pairs, so both games of a pair land in
//! one shard. Unit (SP, k) belongs to shard `(SP + k) mod N`.
//!
//! The rule depends only on the unit and N, never on which other units a
//! run has, so a shard plays exactly the games an unsharded run would
//! (seeds stay a function of the run seed, the position and the game) and
//! adding positions or games never moves a unit to another shard. Each
//! position's games are dealt round-robin over the shards, starting at a
//! shard that moves with the SP: every shard gets an equal share of every
//! position once a position has at least N units, and a run over a range
//! of positions is split evenly even with one unit per position.
//!
//! ```
//! use c960_core::Shard;
//!
//! let shard: Shard = "1/4".parse()?;
//! assert_eq!((shard.index(), shard.count()), (1, 4));
//! assert!(shard.contains(518, 3)); // (518 + 3) mod 4 = 1
//! assert!(!shard.contains(518, 4));
//! assert!(Shard::WHOLE.contains(518, 4));
//! assert_eq!(shard.to_string(), "1/4");
//! # Ok::<(), c960_core::ShardError>(())
//! ```

use std::{fmt, str::FromStr};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One part `index` of `count` (0-based: shards 0/N .. (N−1)/N).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard that is not `I/N` with 0 ≤ I < N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("shard {0:?} is not I/N with 0 <= I < N (e.g. 0/4 .. 3/4)")]
pub struct ShardError(pub String);

impl Shard {
    /// The whole run: one shard of one.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// When `count` is 0 or `index` is not below it.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 || index >= count {
            return Err(ShardError(format!("{index}/{count}")));
        }
        Ok(Shard { index, count })
    }

    /// 0-based index of this shard.
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// Number of shards.
    #[must_use]
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether this is the whole run (`0/1`).
    #[must_use]
    pub fn is_whole(self) -> bool {
        self.count == 1
    }

    /// The shard of `count` that unit (`sp`, `unit`) belongs to; `sp` is
    /// the setup's number (a DFRC index in a DFRC run).
    #[must_use]
    pub fn of(sp: u32, unit: u32, count: u32) -> u32 {
        let count = u64::from(count.max(1));
        // Below `count`, so it fits in u32.
        u32::try_from((u64::from(sp) + u64::from(unit)) % count).unwrap_or(0)
    }

    /// Whether unit (`sp`, `unit`) belongs to this shard.
    #[must_use]
    pub fn contains(self, sp: u32, unit: u32) -> bool {
        Shard::of(sp, unit, self.count) == self.index
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_owned());
        let (index, count) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    use super::*;

    #[test]
    fn parses_and_prints_i_of_n() {
        for text in ["0/1", "0/4", "3/4", "17/100"] {
            assert_eq!(text.parse::<Shard>().unwrap().to_string(), text);
        }
        assert_eq!(
            " 2 / 3 ".parse::<Shard>().unwrap(),
            Shard::new(2, 3).unwrap()
        );
        for bad in ["", "1", "4/4", "5/4", "0/0", "-1/4", "a/b", "1/4/2", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad:?} parsed");
        }
    }

    /// For random N and random unit sets, every unit is in exactly one
    /// shard, and the union of the shards is the whole set.
    #[test]
    fn shards_partition_any_unit_set() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        for _ in 0..200 {
            let count = 1 + rng.next_u32() % 12;
            let units: Vec<(u32, u32)> = (0..=(rng.next_u32() % 300))
                .map(|_| (rng.next_u32() % 960, rng.next_u32() % 1000))
                .collect();
            let shards: Vec<Shard> = (0..count).map(|i| Shard::new(i, count).unwrap()).collect();
            for &(sp, unit) in &units {
                let owners = shards.iter().filter(|s| s.contains(sp, unit)).count();
                assert_eq!(
                    owners, 1,
                    "SP {sp} unit {unit} in {owners} of {count} shards"
                );
                assert!(Shard::WHOLE.contains(sp, unit));
            }
        }
    }

    /// Every shard gets an equal share of a position's games, and of a
    /// range of positions with one unit each.
    #[test]
    fn shards_are_balanced() {
        for count in 1..=8 {
            for index in 0..count {
                let shard = Shard::new(index, count).unwrap();
                let games = (0..40 * count).filter(|&g| shard.contains(518, g)).count();
                assert_eq!(games, 40);
                let positions = (0..960u32).filter(|&sp| shard.contains(sp, 0)).count();
                let even = 960 / count as usize;
                assert!(
                    positions == even || positions == even + 1,
                    "{positions} of 960"
                );
            }
        }
    }

    #[test]
    fn shard_round_trips_through_serde() {
        let shard = Shard::new(3, 7).unwrap();
        let json = toml_string(shard);
        assert_eq!(json, "3/7");
        assert_eq!(json.parse::<Shard>().unwrap(), shard);
    }

    fn toml_string(shard: Shard) -> String {
        toml::Value::try_from(shard)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    }
}
