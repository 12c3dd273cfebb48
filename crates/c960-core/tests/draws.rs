//! Organizer draws and the dice procedure.

use std::collections::{BTreeSet, HashMap};

use c960_core::{
    DiceError, DrawError, DrawFilter, DrawMethod, Features, RollOutcome, StartPosition, dice, draw,
};

fn sps(positions: &[StartPosition]) -> Vec<u16> {
    positions.iter().map(|p| p.sp()).collect()
}

#[test]
fn same_seed_same_draw_and_pinned_values() {
    let all = Features::all();
    let none = DrawFilter::default();
    let a = draw(&DrawMethod::Seed(2026), 5, &none, &all).unwrap();
    let b = draw(&DrawMethod::Seed(2026), 5, &none, &all).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.candidates, 960);
    // A draw published with a seed must come out the same on every platform
    // and in every later version of c960. Computed independently with
    // Python's `cryptography` package: ChaCha20 keystream for key =
    // 2026 as 8 little-endian bytes + 24 zero bytes, nonce and counter 0,
    // read as little-endian u64s, rejection sampling as documented.
    assert_eq!(sps(&a.positions), [100, 716, 2, 395, 461]);
    let other = draw(&DrawMethod::Seed(2027), 5, &none, &all).unwrap();
    assert_ne!(a.positions, other.positions);
}

#[test]
fn phrase_draw_is_verifiable_with_plain_sha256() {
    // Computed independently with Python's hashlib: h1 = sha256(phrase),
    // h(k+1) = sha256(hk); pick int(h[:8], big-endian) mod remaining from
    // the ascending candidate list.
    let all = Features::all();
    let method = DrawMethod::Phrase("Club Open 2026 round 1".to_owned());
    let one = draw(&method, 1, &DrawFilter::default(), &all).unwrap();
    assert_eq!(sps(&one.positions), [594]);
    let three = draw(&method, 3, &DrawFilter::default(), &all).unwrap();
    assert_eq!(sps(&three.positions), [594, 709, 388]);
}

#[test]
fn rounds_are_distinct_even_when_they_take_every_candidate() {
    let all = Features::all();
    let d = draw(&DrawMethod::Seed(1), 960, &DrawFilter::default(), &all).unwrap();
    let distinct: BTreeSet<u16> = sps(&d.positions).into_iter().collect();
    assert_eq!(distinct.len(), 960);
}

#[test]
fn filters_are_honoured() {
    let all = Features::all();
    let filter = DrawFilter {
        exclude: [StartPosition::CLASSICAL].into_iter().collect(),
        max_undefended: Some(1),
        max_king_only: Some(1),
        max_weak: Some(2),
        no_first_move_attack: true,
        no_first_move_castling: true,
        only: None,
    };
    let by_sp: HashMap<StartPosition, &Features> = all.iter().map(|f| (f.position, f)).collect();
    let candidates = filter.candidates(&all);
    assert!(!candidates.is_empty());
    assert!(candidates.len() < 960);
    for seed in 0..50 {
        let d = draw(&DrawMethod::Seed(seed), 3, &filter, &all).unwrap();
        assert_eq!(d.candidates, candidates.len());
        for p in &d.positions {
            let f = by_sp[p];
            assert_ne!(*p, StartPosition::CLASSICAL);
            assert!(f.undefended_count() <= 1);
            assert!(f.king_only_count() <= 1);
            assert!(f.weak_count() <= 2);
            assert!(f.first_move_attacks.is_empty());
            assert!(!f.castling_on_first_move());
        }
    }
    // The filter rejects exactly the positions that break a condition.
    let rejected = all.iter().filter(|f| !filter.accepts(f)).count();
    assert_eq!(rejected + candidates.len(), 960);
}

#[test]
fn every_candidate_can_be_drawn() {
    let all = Features::all();
    let filter = DrawFilter {
        max_weak: Some(0),
        ..DrawFilter::default()
    };
    let candidates: BTreeSet<StartPosition> = filter.candidates(&all).into_iter().collect();
    assert_eq!(candidates.len(), 960 - 842);
    let mut seen = BTreeSet::new();
    for seed in 0..3000 {
        seen.extend(
            draw(&DrawMethod::Seed(seed), 1, &filter, &all)
                .unwrap()
                .positions,
        );
    }
    assert_eq!(seen, candidates);
}

#[test]
fn impossible_draws_are_errors() {
    let all = Features::all();
    let nothing = DrawFilter {
        exclude: StartPosition::all().collect(),
        ..DrawFilter::default()
    };
    let err = draw(&DrawMethod::Seed(1), 1, &nothing, &all).unwrap_err();
    assert!(matches!(err, DrawError::NothingLeft { .. }));
    assert!(
        err.to_string()
            .starts_with("no position passes the filters")
    );

    let few = DrawFilter {
        max_weak: Some(0),
        ..DrawFilter::default()
    };
    let err = draw(&DrawMethod::Seed(1), 119, &few, &all).unwrap_err();
    assert_eq!(
        err,
        DrawError::TooFewCandidates {
            candidates: 118,
            rounds: 119,
            filters: "at most 0 weak pawns".to_owned()
        }
    );
    assert_eq!(
        draw(&DrawMethod::Seed(1), 0, &DrawFilter::default(), &all),
        Err(DrawError::NoRounds)
    );
}

#[test]
fn dice_reach_every_position_exactly_twice() {
    // 4 x 4 x 6 x 5 x 4 = 1920 roll sequences without rerolls; the two
    // knights are interchangeable, so each position comes from two.
    let mut count: HashMap<StartPosition, usize> = HashMap::new();
    for dark in 1..=4 {
        for light in 1..=4 {
            for queen in 1..=6 {
                for n1 in 1..=5 {
                    for n2 in 1..=4 {
                        let d = dice(&[dark, light, queen, n1, n2]).unwrap();
                        assert_eq!(d.rerolls(), 0);
                        *count.entry(d.position).or_default() += 1;
                    }
                }
            }
        }
    }
    assert_eq!(count.len(), 960);
    assert!(count.values().all(|&c| c == 2));
}

#[test]
fn dice_rerolls_are_reported() {
    // 5 and 6 for the bishops, 6 for the first knight, 5 and 6 for the second.
    let d = dice(&[5, 6, 2, 5, 3, 3, 6, 2, 5, 6, 3]).unwrap();
    assert_eq!(d.rerolls(), 6);
    assert_eq!(d.position.placement(), "RNBQKBNR");
    let rerolled: Vec<(&str, u8)> = d
        .steps
        .iter()
        .filter(|s| s.outcome == RollOutcome::Reroll)
        .map(|s| (s.piece, s.roll))
        .collect();
    assert_eq!(
        rerolled,
        [
            ("dark-squared bishop", 5),
            ("dark-squared bishop", 6),
            ("light-squared bishop", 5),
            ("first knight", 6),
            ("second knight", 5),
            ("second knight", 6),
        ]
    );
}

#[test]
fn wrong_rolls_are_errors() {
    assert_eq!(
        dice(&[2, 3, 7, 2, 3]),
        Err(DiceError::NotADieRoll { index: 3, value: 7 })
    );
    assert_eq!(
        dice(&[0]),
        Err(DiceError::NotADieRoll { index: 1, value: 0 })
    );
    assert_eq!(
        dice(&[2, 3, 3, 2]),
        Err(DiceError::TooFewRolls {
            step: "second knight"
        })
    );
    assert_eq!(
        dice(&[2, 3, 3, 2, 3, 1, 1]),
        Err(DiceError::TooManyRolls { used: 5, extra: 2 })
    );
    assert_eq!(
        dice(&[]).unwrap_err().to_string(),
        "the rolls ran out before the dark-squared bishop was placed: at least one more roll is needed"
    );
}
