//! What the site's pages say about their inputs: the runs' provenance,
//! the warning about failed positions, what the verdicts rest on and what
//! the index's balance numbers are, each from its template.

use askama::Template;

use super::raters;
use crate::{RunKind, Source};

/// The inputs' provenance.
pub(super) fn provenance(sources: &[Source]) -> String {
    provenance_of(sources, &[])
}

/// The inputs' provenance (`templates/site/provenance.html`), each sweep
/// with how many of its scores are bounds when `bounds` has them.
pub(super) fn provenance_of(sources: &[Source], bounds: &[crate::bounds::Bounds]) -> String {
    Provenance {
        runs: sources
            .iter()
            .map(|s| {
                let (what, with) = match s.kind {
                    RunKind::Sweep => ("engine sweep", format!("{}, {}", s.engines(), s.limit())),
                    RunKind::Selfplay => ("self-play", format!("{}, {}", s.engines(), s.limit())),
                    RunKind::Import => ("imported games", s.imported()),
                };
                ProvenanceRun {
                    label: &s.label,
                    what,
                    with,
                    finished: s.finished(),
                    version: s.version(),
                    bounds: if s.kind == RunKind::Sweep {
                        raters::bound_counts(bounds, &s.label)
                    } else {
                        String::new()
                    },
                }
            })
            .collect(),
    }
    .to_string()
}

/// The inputs' provenance, one run a line; without runs, that the site
/// has the static features only.
#[derive(Template)]
#[template(path = "site/provenance.html")]
struct Provenance<'a> {
    runs: Vec<ProvenanceRun<'a>>,
}

/// A run in the provenance: its label, what it is and with what, when it
/// finished, the c960 that made it and, for a sweep, its bounds (text).
struct ProvenanceRun<'a> {
    label: &'a str,
    what: &'static str,
    with: String,
    finished: String,
    version: String,
    bounds: String,
}

/// A warning naming the runs with failed positions or games (empty if
/// none); on a position's page (`sp`), also what failed there.
pub(super) fn failures_banner(sources: &[Source], sp: Option<u16>) -> String {
    let lines: Vec<String> = sources
        .iter()
        .filter_map(|source| {
            let summary = source.failures()?;
            Some(
                Failure {
                    label: &source.label,
                    summary: &summary,
                    what: "table",
                    failed: source
                        .failed
                        .iter()
                        .filter(|(f, _)| Some(*f) == sp)
                        .map(|(f, reason)| (*f, reason.as_str()))
                        .collect(),
                }
                .to_string(),
            )
        })
        .collect();
    warning(&lines)
}

/// A line of the warning about a run with failures
/// (`templates/site/failure.html`): the run, what failed, what has no
/// numbers for them (`what`), and each of `failed` with its reason.
#[derive(Template)]
#[template(path = "site/failure.html")]
pub(crate) struct Failure<'a> {
    pub(crate) label: &'a str,
    pub(crate) summary: &'a str,
    pub(crate) what: &'a str,
    pub(crate) failed: Vec<(u16, &'a str)>,
}

/// The warning above a page (`templates/banner.html`): `lines` (HTML),
/// one per line; empty for none.
#[derive(Template)]
#[template(path = "banner.html")]
struct Warning<'a> {
    lines: &'a [String],
}

/// The warning about `lines` (HTML) above a page; empty for none.
pub(crate) fn warning(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    Warning { lines }.to_string()
}

/// What the verdicts rest on, stated wherever a ranking is shown
/// (`templates/site/reliability.html`): each method's reliability in
/// numbers and words, with (`counts`) the verdicts against the mean of all
/// positions counted, their band and error rate. A page that ranks
/// against another reference (`fair.html`) leaves the counts out: every
/// count on a page is against the reference that page names.
pub(super) fn reliability_note(verdicts: Option<&crate::balance::Balance>, counts: bool) -> String {
    use crate::balance::{Method, VerdictsFrom};
    let Some(b) = verdicts else {
        return String::new();
    };
    let mut methods = Vec::new();
    for (name, unit, method) in [
        ("games", "", b.games.as_ref()),
        ("engine sweeps", " cp", b.sweep.as_ref()),
    ] {
        if let Some(m) = method {
            let counts: Vec<String> = m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
            methods.push(Reliability {
                name,
                number: m.reliability.map_or_else(
                    || "not measurable".to_owned(),
                    |r| format!("{:.2}", r.whole),
                ),
                words: &m.words,
                band: m.band,
                unit,
                counts: counts.join(", "),
            });
        }
    }
    let both = b.games.is_some() && b.sweep.is_some();
    ReliabilityNote {
        methods,
        counts,
        level: format!("{:.0}", b.settings.level * 100.0),
        from: match (b.verdict_method, both) {
            (Method::Games, true) => "the games (the sweeps fill in for positions without games)",
            (Method::Sweep, true) => {
                "the engine sweeps (the games fill in for positions without a sweep)"
            }
            (Method::Games, false) => "the games",
            (Method::Sweep, false) => "the engine sweeps",
        },
        why: if both && b.settings.verdicts_from == VerdictsFrom::MoreReliable {
            ", the more reliable method"
        } else {
            ""
        },
    }
    .to_string()
}

/// The note on what the verdicts rest on.
#[derive(Template)]
#[template(path = "site/reliability.html")]
struct ReliabilityNote<'a> {
    methods: Vec<Reliability<'a>>,
    /// Whether the verdicts against the mean of all positions are counted.
    counts: bool,
    /// The verdicts' false discovery rate in percent.
    level: String,
    from: &'static str,
    why: &'static str,
}

/// One method's reliability, in numbers and words, its band and verdicts.
struct Reliability<'a> {
    name: &'static str,
    number: String,
    words: &'a str,
    band: f64,
    unit: &'static str,
    counts: String,
}

/// What the index's balance numbers are (`templates/site/balance_note.html`):
/// the consensus of the raters with its interval on the reference rater's
/// scale, or one engine's view.
pub(super) fn balance_note(sources: &[Source], consensus_of: Option<usize>) -> String {
    use c960_store::columns::balance as column;
    let sweeps: Vec<&Source> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .collect();
    let Some(first) = sweeps.first() else {
        return String::new();
    };
    BalanceNote {
        consensus_of,
        reference: raters::reference(sources).unwrap_or_default(),
        interval: raters::CONSENSUS_INTERVAL.trim_end_matches(','),
        single: sweeps.len() == 1 && first.manifest.searches() <= 1,
        columns: [
            column::ESTIMATE,
            column::LOW,
            column::HIGH,
            column::SWEEP_CP,
        ],
    }
    .to_string()
}

/// The note on the index's balance numbers: the number of raters of the
/// consensus, or `None` for one engine's view (`single`: one search a
/// position).
#[derive(Template)]
#[template(path = "site/balance_note.html")]
struct BalanceNote {
    consensus_of: Option<usize>,
    reference: String,
    interval: &'static str,
    single: bool,
    /// `balance.csv`'s columns: the published estimate, its interval's
    /// ends, and the consensus before shrinking.
    columns: [&'static str; 4],
}

#[cfg(test)]
mod tests;
