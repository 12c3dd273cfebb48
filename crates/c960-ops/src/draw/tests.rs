//! The draw workflows in process: draws under filters, records made the
//! way a kit writes them and verified, edited records refused, and the
//! exclusion of earlier kits' draws.

use std::{fs, path::Path};

use c960_core::{DrawMethod, Features, Key, Seal, StartPosition, draw_sealed};
use c960_report::kit::{DrawRecord, FilterSettings, MethodName, RoundRecord, SealRecord};

use super::*;

fn seeded(seed: u64, rounds: usize, filters: FilterOptions) -> DrawOptions {
    DrawOptions {
        phrase: None,
        seed: Some(seed),
        rounds,
        filters,
    }
}

fn refusal<T: std::fmt::Debug>(result: Result<T, DrawError>) -> String {
    match result {
        Err(DrawError::Input(message)) => message,
        other => panic!("expected a refusal of the input, got {other:?}"),
    }
}

/// The secret of the test kits' sealed rounds.
fn secret() -> Key {
    Key([7; 32])
}

/// The record `c960 tournament` writes of `drawn`, publishing the first
/// `publish` rounds and sealing the others with [`secret`].
fn record_of(drawn: &Drawn, publish: usize) -> DrawRecord {
    let candidates = drawn.filter.candidates(&Features::all());
    let (method, seed, phrase) = MethodName::of(&drawn.method);
    let seal = (publish < drawn.rounds).then(|| Seal::new(secret(), publish, drawn.rounds));
    let positions = match &seal {
        Some(seal) => {
            draw_sealed(&drawn.method, publish, &seal.keys, &candidates)
                .unwrap()
                .positions
        }
        None => drawn.draw.positions.clone(),
    };
    DrawRecord {
        kind: "tournament-draw".to_owned(),
        method,
        algorithm: drawn.method.to_string(),
        seed,
        phrase,
        filters: drawn.filter.to_string(),
        filter_settings: FilterSettings {
            exclude_preset: drawn.excluded.preset.clone(),
            exclude_drawn: drawn.excluded.drawn.clone(),
            ..FilterSettings::of(&drawn.filter)
        },
        balance: drawn.balance.clone(),
        candidates: candidates.len(),
        candidate_sps: candidates.iter().map(|p| p.sp()).collect(),
        rounds: positions[..publish]
            .iter()
            .enumerate()
            .map(|(i, p)| RoundRecord::new(i + 1, *p))
            .collect(),
        published_rounds: publish,
        total_rounds: Some(drawn.rounds),
        sealed: seal.map(|s| SealRecord::new(s.first_round, s.keys.len(), s.commitment)),
        lang: "en".to_owned(),
        c960_version: "0.1.0".to_owned(),
    }
}

fn write_record(dir: &Path, record: &DrawRecord) -> std::path::PathBuf {
    let file = dir.join("draw.json");
    fs::write(&file, serde_json::to_string_pretty(record).unwrap()).unwrap();
    file
}

/// SP numbers 480-959 and White unable to castle on move 1.
fn upper_half_no_castling() -> FilterOptions {
    FilterOptions {
        exclude: vec!["0-479".to_owned()],
        no_first_move_castling: true,
        ..FilterOptions::default()
    }
}

#[test]
fn a_draw_repeats_from_its_seed_and_keeps_to_its_filters() {
    let options = seeded(11, 5, upper_half_no_castling());
    let first = draw(&options).unwrap();
    let again = draw(&options).unwrap();
    assert_eq!(first.draw.positions, again.draw.positions);
    assert_eq!(first.draw.positions.len(), 5);
    let features = Features::all();
    let allowed = first.filter.candidates(&features);
    assert_eq!(first.draw.candidates, allowed.len());
    assert!(allowed.len() < 480, "castling removes some of the 480");
    for p in &first.draw.positions {
        assert!(p.sp() >= 480, "SP {} was excluded", p.sp());
        assert!(allowed.contains(p));
    }
    let other = draw(&seeded(12, 5, upper_half_no_castling())).unwrap();
    assert_ne!(first.draw.positions, other.draw.positions);
}

#[test]
fn a_phrase_draws_by_its_words_and_a_blank_one_is_refused() {
    let options = |phrase: &str| DrawOptions {
        phrase: Some(phrase.to_owned()),
        seed: Some(3),
        rounds: 2,
        filters: FilterOptions::default(),
    };
    let drawn = draw(&options("Club Open 2026")).unwrap();
    assert_eq!(
        drawn.method,
        DrawMethod::Phrase("Club Open 2026".to_owned())
    );
    assert_eq!(refusal(draw(&options("  "))), "--phrase must not be empty");
    let too_many = draw(&DrawOptions {
        rounds: 961,
        ..options("x")
    });
    assert!(matches!(too_many, Err(DrawError::Draw(_))), "{too_many:?}");
    assert!(too_many.unwrap_err().is_bad_input());
}

#[test]
fn the_preset_and_ranges_exclude_their_positions() {
    let filters = Filters::from_options(&FilterOptions {
        exclude: vec!["5-9".to_owned(), " ".to_owned(), "700".to_owned()],
        exclude_preset: Some(ExcludePreset::Freestyle),
        ..FilterOptions::default()
    })
    .unwrap();
    let excluded: Vec<u16> = filters.filter.exclude.iter().map(|p| p.sp()).collect();
    assert_eq!(excluded, [5, 6, 7, 8, 9, 518, 534, 700]);
    assert_eq!(filters.excluded.preset.as_deref(), Some("freestyle"));
    assert!(filters.balance.is_none());
    let bad = Filters::from_options(&FilterOptions {
        exclude: vec!["960".to_owned()],
        ..FilterOptions::default()
    });
    assert!(matches!(bad, Err(DrawError::Position(_))), "{bad:?}");
}

#[test]
fn balance_flags_without_their_partners_are_refused() {
    let refused = |options: FilterOptions| refusal(Filters::from_options(&options));
    assert_eq!(
        refused(FilterOptions {
            reference: Some(c960_verdict::Reference::Classical),
            ..FilterOptions::default()
        }),
        "--reference goes with --fairest or --within"
    );
    assert_eq!(
        refused(FilterOptions {
            fairest: Some(0),
            ..FilterOptions::default()
        }),
        "--fairest must be at least 1"
    );
    assert_eq!(
        refused(FilterOptions {
            within: Some(f64::NAN),
            ..FilterOptions::default()
        }),
        "--within NaN must be a distance above 0 cp"
    );
    assert_eq!(
        refused(FilterOptions {
            not_drawish: Some(25.0),
            ..FilterOptions::default()
        }),
        "--not-drawish goes with --verdict, --fairest or --within"
    );
    assert_eq!(
        refused(FilterOptions {
            balance: Some("balance.csv".into()),
            ..FilterOptions::default()
        }),
        "--balance needs --verdict, --fairest or --within (or --verify)"
    );
}

#[test]
fn a_record_made_from_a_draw_verifies_and_its_key_opens_the_sealed_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw(&seeded(42, 4, upper_half_no_castling())).unwrap();
    let record = record_of(&drawn, 2);
    let file = write_record(dir.path(), &record);

    let verified = verify(&file, None, None).unwrap();
    let published: Vec<u16> = record.rounds.iter().map(|r| r.sp).collect();
    let got: Vec<u16> = verified.published.iter().map(|p| p.sp()).collect();
    assert_eq!(got, published);
    assert_eq!(verified.total, 4);
    assert_eq!(verified.candidates, record.candidates);
    assert_eq!(verified.table, TableCheck::None);
    assert!(verified.opened.is_none());
    let (commitment, count) = verified.sealed.unwrap();
    assert_eq!(
        (commitment.to_string(), count),
        (record.sealed.clone().unwrap().commitment, 2)
    );

    // The secret is the last round's key: it opens both sealed rounds.
    let seal = Seal::new(secret(), 2, 4);
    let candidates: Vec<StartPosition> = record
        .candidate_sps
        .iter()
        .map(|&sp| StartPosition::new(sp).unwrap())
        .collect();
    let all = draw_sealed(&drawn.method, 2, &seal.keys, &candidates)
        .unwrap()
        .positions;
    let opened = verify(&file, Some(&secret().to_string()), None)
        .unwrap()
        .opened
        .unwrap();
    assert_eq!(
        opened,
        Opened {
            positions: all[2..].to_vec(),
            steps: 2
        }
    );
    // Round 3's key opens round 3 only.
    let third = verify(&file, Some(&seal.keys[0].to_string()), None)
        .unwrap()
        .opened
        .unwrap();
    assert_eq!(
        third,
        Opened {
            positions: all[2..3].to_vec(),
            steps: 1
        }
    );

    let wrong = refusal(verify(&file, Some(&Key([9; 32]).to_string()), None));
    assert!(wrong.contains("is not a key of this draw"), "{wrong}");
    let not_hex = refusal(verify(&file, Some("zz"), None));
    assert!(not_hex.starts_with("--key: "), "{not_hex}");
}

#[test]
fn a_record_without_sealed_rounds_takes_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw(&seeded(5, 3, FilterOptions::default())).unwrap();
    let file = write_record(dir.path(), &record_of(&drawn, 3));
    let verified = verify(&file, None, None).unwrap();
    assert_eq!(verified.published, drawn.draw.positions);
    assert!(verified.sealed.is_none());
    let message = refusal(verify(&file, Some(&secret().to_string()), None));
    assert!(
        message.ends_with("has no sealed rounds: --key opens nothing"),
        "{message}"
    );
}

#[test]
fn an_edited_record_is_refused_naming_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw(&seeded(42, 3, upper_half_no_castling())).unwrap();
    let record = record_of(&drawn, 3);
    let refused = |edit: &dyn Fn(&mut DrawRecord)| {
        let mut edited = record.clone();
        edit(&mut edited);
        refusal(verify(&write_record(dir.path(), &edited), None, None))
    };
    // Another position in round 1, canonical in itself: its method and
    // candidates give another.
    let other = record
        .candidate_sps
        .iter()
        .map(|&sp| StartPosition::new(sp).unwrap())
        .find(|p| *p != drawn.draw.positions[0])
        .unwrap();
    let message = refused(&|r| r.rounds[0] = RoundRecord::new(1, other));
    assert!(
        message.contains(&format!(
            "it gives SP {} for round 1, but its method",
            other.sp()
        )),
        "{message}"
    );
    let message =
        refused(&|r| r.rounds[1].xfen = "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1".to_owned());
    assert!(message.contains("has xfen"), "{message}");
    let message = refused(&|r| r.candidates += 1);
    assert!(message.contains("\"candidates\" is"), "{message}");
    let message = refused(&|r| r.candidate_sps.swap(0, 1));
    assert!(message.contains("ascending order"), "{message}");
    let message = refused(&|r| {
        r.candidate_sps.pop();
        r.candidates -= 1;
    });
    assert!(
        message.contains("not the positions its filters"),
        "{message}"
    );
    let message = refused(&|r| r.seed = Some(43));
    assert!(message.contains("\"algorithm\" is"), "{message}");
    let message = refused(&|r| r.kind = "other".to_owned());
    assert!(message.contains("\"kind\" is \"other\""), "{message}");
    let message = refused(&|r| r.total_rounds = Some(5));
    assert!(message.contains("\"sealed\" is null"), "{message}");
    let file = dir.path().join("draw.json");
    fs::write(&file, "{").unwrap();
    assert!(refusal(verify(&file, None, None)).contains("is not a draw record"));
}

#[test]
fn an_earlier_draw_is_excluded_with_its_sealed_rounds_only_beside_its_secret() {
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw(&seeded(42, 4, upper_half_no_castling())).unwrap();
    let file = write_record(dir.path(), &record_of(&drawn, 1));
    let options = FilterOptions {
        exclude_drawn: vec![file.clone()],
        ..FilterOptions::default()
    };
    let message = refusal(Filters::from_options(&options));
    assert!(
        message.contains("rounds 2-4 are sealed, and no SECRET.txt"),
        "{message}"
    );

    fs::write(
        dir.path().join("SECRET.txt"),
        format!("Secret: {}\n", Key([8; 32])),
    )
    .unwrap();
    let message = refusal(Filters::from_options(&options));
    assert!(message.contains("does not hold the secret"), "{message}");

    fs::write(
        dir.path().join("SECRET.txt"),
        format!("Secret: {}\n", secret()),
    )
    .unwrap();
    let filters = Filters::from_options(&options).unwrap();
    let drawn_record = &filters.excluded.drawn[0];
    assert_eq!(drawn_record.file, "draw.json");
    assert_eq!(drawn_record.sps.len(), 4);
    assert!(drawn_record.sps.windows(2).all(|w| w[0] < w[1]));
    let excluded: Vec<u16> = filters.filter.exclude.iter().map(|p| p.sp()).collect();
    assert_eq!(excluded, drawn_record.sps);
    // A new draw never repeats them.
    let next = draw(&seeded(42, 4, options)).unwrap();
    assert!(
        next.draw
            .positions
            .iter()
            .all(|p| !drawn_record.sps.contains(&p.sp()))
    );
}

/// Issue 48, item 9 in process: `--exclude-drawn` takes only a record
/// that `draw --verify` takes, excludes the rounds the kit published (not
/// ones it recomputes), and refuses a `SECRET.txt` that is not text, or a
/// FIFO (at once, without opening it).
#[test]
fn exclude_drawn_takes_only_verified_records_and_excludes_what_the_kit_published() {
    let dir = tempfile::tempdir().unwrap();
    let drawn = draw(&seeded(42, 4, upper_half_no_castling())).unwrap();
    let exclude = |file: &Path| FilterOptions {
        exclude_drawn: vec![file.to_path_buf()],
        ..FilterOptions::default()
    };

    // Every round published: the excluded SPs are the published ones.
    let published = record_of(&drawn, 4);
    let file = write_record(dir.path(), &published);
    verify(&file, None, None).unwrap();
    let filters = Filters::from_options(&exclude(&file)).unwrap();
    let mut sps: Vec<u16> = published.rounds.iter().map(|r| r.sp).collect();
    sps.sort_unstable();
    assert_eq!(filters.excluded.drawn[0].sps, sps);

    // A published round changed to another position, canonical in itself:
    // both refuse it, so the kit's real round 1 can never stay drawable.
    let other = published
        .candidate_sps
        .iter()
        .map(|&sp| StartPosition::new(sp).unwrap())
        .find(|p| *p != drawn.draw.positions[0])
        .unwrap();
    let mut edited = published.clone();
    edited.rounds[0] = RoundRecord::new(1, other);
    let file = write_record(dir.path(), &edited);
    let verified = refusal(verify(&file, None, None));
    let excluded = refusal(Filters::from_options(&exclude(&file)));
    assert!(verified.contains("gives SP"), "{verified}");
    assert!(excluded.contains("gives SP"), "{excluded}");

    // Sealed rounds: the same edit is refused beside the real secret, and a
    // FIFO at SECRET.txt is named without blocking.
    let mut sealed = record_of(&drawn, 1);
    sealed.rounds[0] = RoundRecord::new(1, other);
    let file = write_record(dir.path(), &sealed);
    fs::write(
        dir.path().join("SECRET.txt"),
        format!("Secret: {}\n", secret()),
    )
    .unwrap();
    assert!(refusal(verify(&file, None, None)).contains("gives SP"));
    assert!(refusal(Filters::from_options(&exclude(&file))).contains("gives SP"));
    let file = write_record(dir.path(), &record_of(&drawn, 1));
    // A SECRET.txt that is not text (not the one a kit writes).
    fs::write(dir.path().join("SECRET.txt"), [0xff, 0xfe, 0x00]).unwrap();
    let message = refusal(Filters::from_options(&exclude(&file)));
    assert!(message.contains("SECRET.txt is not text"), "{message}");
    fs::remove_file(dir.path().join("SECRET.txt")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("SECRET.txt"))
        .status()
        .unwrap();
    assert!(made.success());
    let message = refusal(Filters::from_options(&exclude(&file)));
    assert!(
        message.contains("SECRET.txt is not a regular file"),
        "{message}"
    );
}
