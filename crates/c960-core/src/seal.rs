//! Sealed rounds: positions drawn before the event but kept hidden until
//! their round, fixed by a hash commitment that anyone can check once they
//! are revealed.
//!
//! The organizer keeps a 32-byte secret. The keys of the sealed rounds form
//! a hash chain that ends in it: the last round's key is the secret, and
//! every earlier sealed round's key is the SHA-256 of the next one's. The
//! announcement publishes the commitment, the SHA-256 of the first sealed
//! round's key. A key revealed at its round hashes back to the commitment
//! (the number of hashes says which round it opens), so it was fixed when
//! the announcement was made; later keys stay unknown, because SHA-256
//! cannot be inverted. Revealing the secret after the event opens all.
//!
//! A sealed round's position is picked from the candidates left after the
//! rounds before it by the rejection rule of [`crate::draw`], from the
//! SHA-256 chain that starts at `SHA-256("c960 sealed round:" ‖ key)`. The
//! label keeps that stream apart from `SHA-256(key)`, which is the previous
//! round's key and public by the time the round is played.

use std::{fmt, str::FromStr};

use sha2::{Digest, Sha256};

use crate::{Draw, DrawError, DrawMethod, StartPosition, draw::Stream, draw_among};

/// What a sealed round's stream hashes before its key.
pub const SEAL_LABEL: &str = "c960 sealed round:";

/// The name of the scheme, as draw records give it.
pub const SEAL_SCHEME: &str = "sha256-key-chain";

/// A 32-byte key: the organizer's secret or one sealed round's key, written
/// as 64 hexadecimal digits.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The SHA-256 of the key's bytes, as a key.
    #[must_use]
    pub fn hashed(&self) -> Key {
        Key(Sha256::digest(self.0).into())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({self})")
    }
}

impl FromStr for Key {
    type Err = DrawError;

    /// 64 hexadecimal digits (either case).
    fn from_str(text: &str) -> Result<Key, DrawError> {
        let text = text.trim();
        let bad = || DrawError::BadKey {
            key: text.to_owned(),
        };
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Key(key))
    }
}

/// The sealed rounds of a draw: the first sealed round, the commitment and
/// every sealed round's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seal {
    /// The first sealed round (1-based): the rounds before it are drawn
    /// from the public method alone.
    pub first_round: usize,
    /// The SHA-256 of the first sealed round's key, published with the
    /// announcement.
    pub commitment: Key,
    /// The keys of the sealed rounds, first sealed round first; the last is
    /// the secret.
    pub keys: Vec<Key>,
}

impl Seal {
    /// The keys of rounds `published + 1 ..= rounds` from the organizer's
    /// `secret` (see the module documentation).
    ///
    /// # Panics
    /// Panics if no round is sealed (`published >= rounds`).
    #[must_use]
    pub fn new(secret: Key, published: usize, rounds: usize) -> Seal {
        assert!(published < rounds, "no sealed round");
        let mut keys = vec![secret];
        while keys.len() < rounds - published {
            keys.push(keys[keys.len() - 1].hashed());
        }
        keys.reverse();
        Seal {
            first_round: published + 1,
            commitment: keys[0].hashed(),
            keys,
        }
    }

    /// The key of round `round`, if it is sealed.
    #[must_use]
    pub fn key(&self, round: usize) -> Option<Key> {
        round
            .checked_sub(self.first_round)
            .and_then(|i| self.keys.get(i))
            .copied()
    }
}

/// Which sealed round `key` opens, given the `commitment` and how many
/// rounds are sealed: the keys of the sealed rounds up to that one, first
/// sealed round first (so the last is `key`). `None` if `key` is not a key
/// of this chain.
#[must_use]
pub fn open_seal(commitment: Key, key: Key, sealed_rounds: usize) -> Option<Vec<Key>> {
    let mut keys = vec![key];
    while keys[keys.len() - 1].hashed() != commitment {
        if keys.len() >= sealed_rounds {
            return None;
        }
        let next = keys[keys.len() - 1].hashed();
        keys.push(next);
    }
    keys.reverse();
    Some(keys)
}

/// A draw whose first `published` rounds come from `method` and whose
/// other rounds are sealed with `seal` (one pick each from the candidates
/// left, by its key). With `seal` covering fewer rounds than `rounds`
/// minus `published`, the draw stops after the last key given, so a
/// revealed key recomputes the rounds up to its own.
pub fn draw_sealed(
    method: &DrawMethod,
    published: usize,
    keys: &[Key],
    candidates: &[StartPosition],
) -> Result<Draw, DrawError> {
    let public = draw_among(method, published.max(1), candidates)?;
    let mut positions = public.positions;
    positions.truncate(published);
    let mut left: Vec<StartPosition> = candidates
        .iter()
        .copied()
        .filter(|p| !positions.contains(p))
        .collect();
    left.sort_unstable();
    left.dedup();
    if left.len() < keys.len() {
        return Err(DrawError::TooFewCandidates {
            candidates: public.candidates,
            rounds: published + keys.len(),
            filters: "the candidate list".to_owned(),
        });
    }
    for key in keys {
        let mut first = Sha256::new();
        first.update(SEAL_LABEL.as_bytes());
        first.update(key.0);
        positions.push(Stream::chain_from(first.finalize().into()).pick(&mut left));
    }
    Ok(Draw {
        method: method.clone(),
        candidates: public.candidates,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_chain_to_the_commitment_and_open_their_round() {
        let secret: Key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
            .parse()
            .unwrap();
        let seal = Seal::new(secret, 1, 5);
        assert_eq!(seal.keys.len(), 4);
        assert_eq!(seal.keys[3], secret);
        assert_eq!(seal.key(5), Some(secret));
        assert_eq!(seal.key(1), None);
        assert_eq!(seal.keys[2], secret.hashed());
        assert_eq!(seal.commitment, seal.keys[0].hashed());
        // Round 3's key opens rounds 2 and 3 and nothing later.
        assert_eq!(
            open_seal(seal.commitment, seal.keys[1], 4),
            Some(seal.keys[..2].to_vec())
        );
        assert_eq!(
            open_seal(seal.commitment, secret, 4),
            Some(seal.keys.clone())
        );
        // The commitment itself opens nothing; a foreign key neither.
        assert_eq!(open_seal(seal.commitment, seal.commitment, 4), None);
        assert_eq!(open_seal(seal.commitment, Key([7; 32]), 4), None);
    }

    #[test]
    fn sealed_rounds_are_distinct_and_follow_the_public_ones() {
        let all: Vec<StartPosition> = StartPosition::all().collect();
        let method = DrawMethod::Phrase("Club Open 2026".to_owned());
        let seal = Seal::new(Key([3; 32]), 2, 6);
        let sealed = draw_sealed(&method, 2, &seal.keys, &all).unwrap();
        let public = draw_among(&method, 6, &all).unwrap();
        assert_eq!(sealed.positions[..2], public.positions[..2]);
        assert_ne!(sealed.positions[2..], public.positions[2..]);
        let mut distinct = sealed.positions.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 6);
        // Fewer keys: the same rounds, up to the last key.
        let partial = draw_sealed(&method, 2, &seal.keys[..2], &all).unwrap();
        assert_eq!(partial.positions, sealed.positions[..4]);
    }

    #[test]
    fn keys_parse_from_64_hex_digits_only() {
        assert!("ab".parse::<Key>().is_err());
        assert!("zz".repeat(32).parse::<Key>().is_err());
        let key: Key = "AB".repeat(32).parse().unwrap();
        assert_eq!(key.to_string(), "ab".repeat(32));
    }
}
