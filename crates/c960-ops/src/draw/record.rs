//! A kit's draw record (`draw.json`) read back for `c960 draw --verify`,
//! accepted only in the one form `c960 tournament` writes: candidates in
//! ascending order, each once, and what its filters let through; every
//! count agreeing with the lists it counts (and no more rounds than
//! candidates); each published round's placement and FENs those of its
//! SP; the sealed rounds' scheme as the kit states it. Anything else is
//! refused in one line naming the field, before anything is drawn or
//! hashed, so a record cannot verify here and draw other positions in
//! VERIFY.md's own program, and no count can make the check run long.

use std::{collections::BTreeSet, path::Path};

use c960_core::{Allowed, DrawFilter, DrawMethod, Features, Key, Lang, StartPosition};
use c960_report::kit::{
    BalanceRecord, DrawRecord, FilterSettings, MethodName, RoundRecord, SealRecord,
};

use super::{DrawError, ExcludePreset, balance_table::selection_of_record};

/// What a draw record says, read and checked for its form.
pub(crate) struct Record {
    pub(crate) method: DrawMethod,
    /// The candidates, ascending.
    pub(crate) candidates: Vec<StartPosition>,
    /// The published rounds (at least one).
    pub(crate) published: Vec<StartPosition>,
    /// All rounds, sealed ones included (at most the candidates).
    pub(crate) total: usize,
    /// The sealed rounds' commitment and count.
    pub(crate) sealed: Option<(Key, usize)>,
    /// The filter its settings state (the balance filter's positions
    /// only with the table).
    pub(crate) filter: DrawFilter,
    /// The balance table its balance filter read.
    pub(crate) balance: Option<BalanceRecord>,
}

/// Why the input `file` cannot be read, in words: what it is (a FIFO, a
/// directory), or the system's error.
pub(crate) fn unreadable(file: &Path, error: &std::io::Error) -> String {
    if c960_store::is_bad_input(error) {
        format!("{}: {error}", file.display())
    } else {
        format!("cannot read {}: {error}", file.display())
    }
}

impl Record {
    /// Reads `file` and checks that it is a draw record in its canonical
    /// form; errors are one line naming the file and the field.
    pub(crate) fn read(file: &Path) -> Result<Record, DrawError> {
        let bytes =
            c960_store::read_input(file).map_err(|e| DrawError::Input(unreadable(file, &e)))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            DrawError::Input(format!(
                "{} is not text: not a draw record of c960 tournament",
                file.display()
            ))
        })?;
        let record: DrawRecord = serde_json::from_str(&text).map_err(|e| {
            DrawError::Input(format!(
                "{} is not a draw record of c960 tournament: {e}",
                file.display()
            ))
        })?;
        Record::check(&record).map_err(|reason| {
            DrawError::Input(format!("{} does not verify: {reason}", file.display()))
        })
    }

    /// The record's content, if it is in the form `c960 tournament`
    /// writes; otherwise what is wrong, naming the field.
    fn check(record: &DrawRecord) -> Result<Record, String> {
        if record.kind != "tournament-draw" {
            return Err(format!(
                "\"kind\" is {:?}, not \"tournament-draw\"",
                record.kind
            ));
        }
        if !Lang::ALL.iter().any(|l| l.code() == record.lang) {
            return Err(format!(
                "\"lang\" is {:?}, not a kit language (en, de, nl, tr)",
                record.lang
            ));
        }
        let method = method_of(record)?;
        let candidates = ascending_sps(&record.candidate_sps, "candidate_sps")?;
        if candidates.is_empty() {
            return Err("\"candidate_sps\" is empty".to_owned());
        }
        if record.candidates != candidates.len() {
            return Err(format!(
                "\"candidates\" is {}, but \"candidate_sps\" lists {} positions",
                record.candidates,
                candidates.len()
            ));
        }
        let filter = check_filters(record, &candidates)?;
        let published = published_rounds(record)?;
        let (total, sealed) = total_and_seal(record, published.len(), candidates.len())?;
        Ok(Record {
            method,
            candidates,
            published,
            total,
            sealed,
            filter,
            balance: record.balance.clone(),
        })
    }
}

/// The draw method: `seed` with a seed and no phrase, or `phrase` with a
/// phrase that is not blank and no seed, its `algorithm` in the words
/// c960 gives it.
fn method_of(record: &DrawRecord) -> Result<DrawMethod, String> {
    let method = match (record.method, record.seed, &record.phrase) {
        (MethodName::Seed, Some(seed), None) => DrawMethod::Seed(seed),
        (MethodName::Phrase, None, Some(phrase)) if !phrase.trim().is_empty() => {
            DrawMethod::Phrase(phrase.clone())
        }
        (MethodName::Seed, _, _) => {
            return Err("a \"seed\" draw gives a \"seed\" number and \"phrase\": null".to_owned());
        }
        (MethodName::Phrase, _, _) => {
            return Err(
                "a \"phrase\" draw gives a \"phrase\" that is not blank and \"seed\": null"
                    .to_owned(),
            );
        }
    };
    if record.algorithm != method.to_string() {
        return Err(format!(
            "\"algorithm\" is {:?}, but its method is {:?}",
            record.algorithm,
            method.to_string()
        ));
    }
    Ok(method)
}

/// `numbers` as positions, if they are SP numbers in ascending order, each
/// once (`field` names them in errors).
fn ascending_sps(numbers: &[u16], field: &str) -> Result<Vec<StartPosition>, String> {
    let mut positions: Vec<StartPosition> = Vec::with_capacity(numbers.len());
    for &n in numbers {
        let position = StartPosition::new(n)
            .map_err(|_| format!("\"{field}\" holds {n}, which is not an SP number (0-959)"))?;
        if let Some(last) = positions.last()
            && *last >= position
        {
            return Err(format!(
                "\"{field}\" must list SP numbers in ascending order, each once: {n} follows {}",
                last.sp()
            ));
        }
        positions.push(position);
    }
    Ok(positions)
}

/// `words` as this version and records of earlier versions gave them:
/// every pawn limit as `at most N weak pawn(s)` whatever N, and one
/// position of a balance table as `(1 positions)`, each change alone or
/// both.
fn earlier_words(words: &str) -> [String; 4] {
    let pawns = |words: &str| {
        words
            .split("; ")
            .map(|part| match part.strip_prefix("at most ") {
                Some(limit) if part.ends_with(" pawn") || part.ends_with(" pawns") => {
                    format!("at most {}(s)", limit.trim_end_matches('s'))
                }
                _ => part.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let positions = |words: &str| {
        words
            .split("; ")
            .map(|part| match part.strip_suffix(" (1 position)") {
                Some(only) if part.starts_with("only ") => format!("{only} (1 positions)"),
                _ => part.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    [
        words.to_owned(),
        pawns(words),
        positions(words),
        pawns(&positions(words)),
    ]
}

/// The filters: `filter_settings` well formed (excluded positions
/// ascending, a verdict restriction exactly when a balance table is
/// named, with that table's label), `filters` their words, and the
/// candidates what they let through (all of them, or with a verdict some
/// of them, no more than the table's positions with that verdict).
fn check_filters(record: &DrawRecord, candidates: &[StartPosition]) -> Result<DrawFilter, String> {
    let f = &record.filter_settings;
    check_exclusions(f)?;
    let filter = DrawFilter {
        exclude: ascending_sps(&f.exclude, "filter_settings.exclude")?
            .into_iter()
            .collect(),
        max_undefended: f.max_undefended,
        max_king_only: f.max_king_only,
        max_weak: f.max_weak,
        no_first_move_attack: f.no_first_move_attack,
        no_first_move_castling: f.no_first_move_castling,
        only: None,
    };
    let mut stated = filter.clone();
    match (&f.only, &record.balance) {
        (None, None) => {}
        (Some(label), Some(balance)) => {
            stated.only = Some(check_balance(label, balance, candidates)?);
        }
        (Some(_), None) => {
            return Err(
                "\"filter_settings.only\" names a verdict, but \"balance\" is null".to_owned(),
            );
        }
        (None, Some(_)) => {
            return Err(
                "\"balance\" names a table, but \"filter_settings.only\" is null".to_owned(),
            );
        }
    }
    let words = stated.to_string();
    if !earlier_words(&words).contains(&record.filters) {
        return Err(format!(
            "\"filters\" is {:?}, but \"filter_settings\" are {words:?}",
            record.filters
        ));
    }
    let passing: BTreeSet<StartPosition> =
        filter.candidates(&Features::all()).into_iter().collect();
    let fits = if f.only.is_some() {
        candidates.iter().all(|p| passing.contains(p))
    } else {
        candidates.iter().copied().eq(passing.iter().copied())
    };
    if fits {
        Ok(filter)
    } else {
        Err(format!(
            "its candidates are not the positions its filters ({}) let through",
            record.filters
        ))
    }
}

/// Checks the balance table a verdict restriction (`label`) names: well
/// formed, of that label, and with at least the candidates' positions;
/// returns what the filter's words say of it.
fn check_balance(
    label: &str,
    balance: &BalanceRecord,
    candidates: &[StartPosition],
) -> Result<Allowed, String> {
    selection_of_record(balance)?;
    if !balance
        .sha256
        .parse::<Key>()
        .is_ok_and(|k| k.to_string() == balance.sha256)
    {
        return Err("\"balance.sha256\" is not a SHA-256 in lowercase hexadecimal".to_owned());
    }
    if *label != balance.label() {
        return Err(format!(
            "\"filter_settings.only\" is {label:?}, but its balance table is {:?}",
            balance.label()
        ));
    }
    if balance.positions < candidates.len()
        || balance.positions > usize::from(c960_core::POSITION_COUNT)
    {
        return Err(format!(
            "\"balance.positions\" is {}, but {} positions are candidates",
            balance.positions,
            candidates.len()
        ));
    }
    // The filter's words count the verdict's positions; which
    // ones they are, the balance table says (by its SHA-256).
    Ok(Allowed {
        label: label.to_owned(),
        positions: StartPosition::all().take(balance.positions).collect(),
    })
}

/// The exclusions' sources: a preset c960 knows and earlier draws (named
/// by file and SHA-256, their SP numbers ascending), all of whose
/// positions are excluded.
fn check_exclusions(f: &FilterSettings) -> Result<(), String> {
    let excluded = |sp: &u16| f.exclude.contains(sp);
    if let Some(name) = &f.exclude_preset {
        let preset = ExcludePreset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                format!("\"filter_settings.exclude_preset\" is {name:?}, not freestyle")
            })?;
        if !preset.positions().iter().all(excluded) {
            return Err(format!(
                "\"filter_settings.exclude\" lacks positions of the preset {name:?}"
            ));
        }
    }
    for (i, drawn) in f.exclude_drawn.iter().enumerate() {
        ascending_sps(&drawn.sps, "filter_settings.exclude_drawn.sps")?;
        if !drawn
            .sha256
            .parse::<Key>()
            .is_ok_and(|k| k.to_string() == drawn.sha256)
        {
            return Err(format!(
                "\"filter_settings.exclude_drawn\" entry {} has no SHA-256 in lowercase \
                 hexadecimal",
                i + 1
            ));
        }
        if !drawn.sps.iter().all(excluded) {
            return Err(format!(
                "\"filter_settings.exclude\" lacks positions of the earlier draw {}",
                drawn.file
            ));
        }
    }
    Ok(())
}

/// The published rounds: at least one, numbered from 1, each with its
/// SP's placement and FENs, `published_rounds` their count.
fn published_rounds(record: &DrawRecord) -> Result<Vec<StartPosition>, String> {
    if record.rounds.is_empty() {
        return Err("\"rounds\" is empty: a kit publishes at least round 1".to_owned());
    }
    let mut published = Vec::with_capacity(record.rounds.len());
    for (i, given) in record.rounds.iter().enumerate() {
        let position = StartPosition::new(given.sp).map_err(|_| {
            format!(
                "\"rounds\" gives SP {} for round {}, which is not an SP number (0-959)",
                given.sp,
                i + 1
            )
        })?;
        let canonical = RoundRecord::new(i + 1, position);
        let differs = [
            (
                "round",
                given.round.to_string(),
                canonical.round.to_string(),
            ),
            ("placement", given.placement.clone(), canonical.placement),
            ("xfen", given.xfen.clone(), canonical.xfen),
            (
                "shredder_fen",
                given.shredder_fen.clone(),
                canonical.shredder_fen,
            ),
        ]
        .into_iter()
        .find(|(_, given, canonical)| given != canonical);
        if let Some((field, given_value, canonical_value)) = differs {
            return Err(format!(
                "\"rounds\" entry {} (SP {}) has {field} {given_value:?}, but it must be \
                 {canonical_value:?}",
                i + 1,
                given.sp
            ));
        }
        published.push(position);
    }
    if record.published_rounds != published.len() {
        return Err(format!(
            "\"published_rounds\" is {}, but \"rounds\" lists {}",
            record.published_rounds,
            published.len()
        ));
    }
    Ok(published)
}

/// `total_rounds` (from the published rounds to the candidates' count)
/// and the seal of the rounds after the published ones: present exactly
/// when there are such rounds, counting them, in the scheme and words the
/// kit states it.
fn total_and_seal(
    record: &DrawRecord,
    published: usize,
    candidates: usize,
) -> Result<(usize, Option<(Key, usize)>), String> {
    let total = record
        .total_rounds
        .ok_or_else(|| "\"total_rounds\" is missing".to_owned())?;
    if total < published || total > candidates {
        return Err(format!(
            "\"total_rounds\" is {total}: it must be at least the rounds published \
             ({published}) and at most the candidates ({candidates})"
        ));
    }
    let sealed = match &record.sealed {
        None if total == published => None,
        None => {
            return Err(format!(
                "\"total_rounds\" is {total}, more than the {published} published, but \
                 \"sealed\" is null"
            ));
        }
        Some(_) if total == published => {
            return Err(format!(
                "\"sealed\" is given, but \"total_rounds\" ({total}) are all published"
            ));
        }
        Some(seal) => {
            let commitment: Key = seal
                .commitment
                .parse()
                .map_err(|e| format!("\"sealed.commitment\": {e}"))?;
            let canonical = SealRecord::new(published + 1, total - published, commitment);
            let differs = [
                (
                    "rounds",
                    seal.rounds.to_string(),
                    canonical.rounds.to_string(),
                ),
                (
                    "first_round",
                    seal.first_round.to_string(),
                    canonical.first_round.to_string(),
                ),
                ("scheme", seal.scheme.clone(), canonical.scheme),
                ("commitment", seal.commitment.clone(), canonical.commitment),
                ("stream", seal.stream.clone(), canonical.stream),
            ]
            .into_iter()
            .find(|(_, given, canonical)| given != canonical);
            if let Some((field, given, canonical)) = differs {
                return Err(format!(
                    "\"sealed.{field}\" is {given:?}, but with {published} published of \
                     {total} rounds it is {canonical:?}"
                ));
            }
            Some((commitment, seal.rounds))
        }
    };
    Ok((total, sealed))
}
