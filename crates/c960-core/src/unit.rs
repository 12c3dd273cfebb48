//! The keys of a run's units of work: one search of a sweep, one game of a
//! self-play run, one position's target in an adaptive round. Each names its
//! two numbers, so a `(u32, u32)` never has to say in a comment which pair it
//! is; on disk each is written as the pair `[setup, n]`, as before.

use serde::{Deserialize, Serialize};

macro_rules! unit_key {
    ($(#[$doc:meta])* $name:ident, $(#[$second_doc:meta])* $second:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(from = "(u32, u32)", into = "(u32, u32)")]
        pub struct $name {
            /// The setup: a Scharnagl number, or a Double Fischer Random index.
            pub setup: u32,
            $(#[$second_doc])*
            pub $second: u32,
        }

        impl $name {
            /// The key of `setup` and its `n`-th unit.
            #[must_use]
            pub const fn new(setup: u32, $second: u32) -> $name {
                $name { setup, $second }
            }
        }

        impl From<(u32, u32)> for $name {
            fn from((setup, $second): (u32, u32)) -> $name {
                $name { setup, $second }
            }
        }

        impl From<$name> for (u32, u32) {
            fn from(key: $name) -> (u32, u32) {
                (key.setup, key.$second)
            }
        }
    };
}

unit_key!(
    /// One search of a sweep: a setup and which of its repeats (0-based).
    SearchKey,
    /// Which repeat of the setup's searches (0-based).
    repeat
);

unit_key!(
    /// One game of a self-play run: a setup and the game's index among that
    /// setup's games (0-based).
    GameKey,
    /// The game's index among the setup's games (0-based).
    game
);

unit_key!(
    /// One position's target in an adaptive round: the setup and the games
    /// it will have once the round is played.
    RoundTarget,
    /// The setup's games once the round is played.
    games
);

unit_key!(
    /// One colour-reversed pair of games between two engines: the setup and
    /// the pair's index among that setup's pairs (games `2 pair` and
    /// `2 pair + 1`).
    PairKey,
    /// The pair's index among the setup's pairs (0-based).
    pair
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_written_as_pairs_and_ordered_as_pairs() {
        let key = SearchKey::new(518, 3);
        assert_eq!(serde_json::to_string(&key).unwrap(), "[518,3]");
        assert_eq!(serde_json::from_str::<SearchKey>("[518,3]").unwrap(), key);
        let mut keys = vec![GameKey::new(2, 0), GameKey::new(1, 5), GameKey::new(1, 2)];
        keys.sort();
        let pairs: Vec<(u32, u32)> = keys.into_iter().map(Into::into).collect();
        assert_eq!(pairs, [(1, 2), (1, 5), (2, 0)]);
    }
}
