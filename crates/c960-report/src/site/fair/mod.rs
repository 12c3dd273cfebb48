//! `fair.html`: the positions ranked by how close they are to a
//! reference of balance that the organizer chooses — equal chances, the
//! typical position, or the classical setup — with the filters of
//! `c960 draw`. With published estimates (`c960 balance`) each position
//! shows its estimate's interval, the interval of its rank and its verdict
//! against the same reference the ranking uses ([`judge`]).

mod balances;
mod judge;

use std::fmt::Write as _;

use polars::prelude::*;

use super::{cell, provenance, q_value_text};
use crate::{RunKind, Source, html::escape};
use balances::{Balances, Reference, Scale};
use judge::{Judged, Rules, judge};

/// The page: the positions ranked against the default reference, with
/// each reference's ranks, rank intervals and verdicts in the rows for the
/// page's choice, each position's numbers and features: the page's body,
/// with `lead` (HTML) after its heading.
pub(super) fn fair(
    frame: &DataFrame,
    sources: &[Source],
    verdicts: Option<&crate::balance::Balance>,
    lead: &str,
) -> String {
    let mut body = String::from("<h1>Fair positions for organizers</h1>\n");
    body.push_str(lead);
    body.push_str(&provenance(sources));
    let sweep = sources.iter().find(|s| s.kind == RunKind::Sweep);
    let selfplay = sources.iter().find(|s| s.kind.has_games());
    if sweep.is_none() && selfplay.is_none() {
        body.push_str("<p>Ranking by balance needs an engine sweep or self-play games: run <code>c960 run</code>, or <code>c960 sweep</code> and give it to <code>c960 report --sweep DIR</code>.</p>");
        return body;
    }
    let balances = Balances::of(frame, sweep, selfplay);
    let rules = verdicts.map(rules_of);
    let judged: Vec<Judged> = Reference::ALL
        .iter()
        .map(|&r| judge(&balances, frame.height(), r, rules.as_ref()))
        .collect();
    let by_estimate = balances.estimate_mean.is_some();
    let games_estimate =
        verdicts.is_some_and(|b| b.verdict_method == crate::balance::Method::Games);
    body.push_str(&fair_intro(
        sweep,
        selfplay,
        &balances,
        games_estimate,
        &judged,
    ));
    let verdict_columns = rules.is_some() && by_estimate;
    body.push_str(&head(
        frame,
        (sweep, selfplay),
        by_estimate,
        games_estimate,
        verdict_columns,
    ));
    let default = judged
        .iter()
        .find(|j| j.reference == Reference::DEFAULT)
        .map_or(&[][..], |j| j.rows.as_slice());
    for first in default {
        let row = first.ranked.row;
        let castle = cell(frame, "castle_a_first_move", row, false) == "yes"
            || cell(frame, "castle_h_first_move", row, false) == "yes";
        let sp = cell(frame, "sp", row, false);
        let data = reference_data(&judged, row);
        let interval = match first.interval {
            Some(i) => format!("<td class=\"rank-interval\">{}–{}</td>", i.low, i.high),
            None if by_estimate => "<td class=\"rank-interval\"></td>".to_owned(),
            None => String::new(),
        };
        let estimate = estimate_cells(&balances, sweep.is_some(), by_estimate, row);
        let verdict = match (&first.verdict, verdict_columns) {
            (_, false) => String::new(),
            (Some((v, q)), true) => format!(
                "<td class=\"verdict\">{v}</td><td class=\"q\">{}</td>",
                q.map_or_else(String::new, q_value_text)
            ),
            (None, true) => "<td class=\"verdict\"></td><td class=\"q\"></td>".to_owned(),
        };
        let games = games_cells(&balances, selfplay.is_some(), row);
        let _ = writeln!(
            body,
            "<tr data-weak=\"{weak}\" data-attack=\"{attack}\" data-castle=\"{castle}\" data-sp=\"{sp}\"{data}><td class=\"rank\">{}</td>{interval}<td><a href=\"positions/{sp}.html\">{sp}</a></td><td class=\"mono\">{}</td>{estimate}<td class=\"distance\">{}</td>{verdict}{games}<td>{weak}</td><td>{attack}</td><td>{}</td></tr>",
            first.ranked.rank,
            cell(frame, "placement", row, false),
            first.ranked.shown,
            if castle { "yes" } else { "no" },
            weak = cell(frame, "weak_pawns", row, false),
            attack = cell(frame, "first_move_attackable", row, false),
        );
    }
    body.push_str("</tbody>\n</table></div>\n");
    body
}

/// The table's opening and header row.
fn head(
    frame: &DataFrame,
    (sweep, selfplay): (Option<&Source>, Option<&Source>),
    by_estimate: bool,
    games_estimate: bool,
    verdict_columns: bool,
) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"fair-wrap\"><table id=\"fair\" class=\"sortable\">\n<thead><tr><th data-type=\"num\">rank</th>{}<th data-type=\"num\">SP</th><th data-type=\"text\">placement</th>",
        if by_estimate {
            "<th data-type=\"num\">rank interval</th>"
        } else {
            ""
        }
    );
    if by_estimate {
        let _ = write!(
            out,
            "<th data-type=\"num\">{}</th><th data-type=\"text\">95% interval</th>",
            if games_estimate {
                "estimate from games"
            } else {
                "consensus estimate"
            }
        );
    } else if let Some(s) = sweep {
        let _ = write!(
            out,
            "<th data-type=\"num\">engine score cp (<code>{}</code>)</th>",
            escape(&s.label)
        );
    }
    out.push_str("<th data-type=\"num\">from the reference</th>");
    if verdict_columns {
        out.push_str("<th data-type=\"text\">verdict against the reference</th><th data-type=\"num\">q-value</th>");
    }
    if selfplay.is_some() {
        let kind = selfplay.map_or_else(String::new, |s| {
            let column = format!("{}__interval", s.label);
            (0..frame.height())
                .map(|row| cell(frame, &column, row, false))
                .find(|k| !k.is_empty())
                .unwrap_or_default()
        });
        let _ = write!(
            out,
            "<th data-type=\"num\">self-play White score</th><th data-type=\"text\">{}</th><th data-type=\"num\">from the mean</th>",
            super::position::interval_name(&kind)
        );
    }
    out.push_str("<th data-type=\"num\">weak pawns</th><th data-type=\"num\">attackable on move 1</th><th data-type=\"text\">castling on move 1</th></tr></thead>\n<tbody>\n");
    out
}

/// A row's ranks, distances, rank intervals and verdicts for every
/// reference, as data attributes for the page's choice.
fn reference_data(judged: &[Judged], row: usize) -> String {
    let mut data = String::new();
    for j in judged {
        if let Some(r) = j.of(row) {
            let key = j.reference.key();
            let _ = write!(
                data,
                " data-{key}-rank=\"{}\" data-{key}-distance=\"{}\" data-{key}-shown=\"{}\"",
                r.ranked.rank, r.ranked.distance, r.ranked.shown
            );
            if let Some(i) = r.interval {
                let _ = write!(data, " data-{key}-interval=\"{}–{}\"", i.low, i.high);
            }
            if let Some((verdict, q)) = &r.verdict {
                let _ = write!(
                    data,
                    " data-{key}-verdict=\"{verdict}\" data-{key}-q=\"{}\"",
                    q.map_or_else(String::new, q_value_text)
                );
            }
        }
    }
    data
}

/// The verdicts' bands, error rate and the reliability of the method the
/// published estimates come from.
fn rules_of(b: &crate::balance::Balance) -> Rules {
    let method = match b.verdict_method {
        crate::balance::Method::Games => b.games.as_ref(),
        crate::balance::Method::Sweep => b.sweep.as_ref(),
    };
    Rules {
        band_cp: b.settings.band_cp,
        band_score: b.settings.band_score,
        level: b.settings.level,
        reliability: method.and_then(|m| m.reliability).map(|r| r.whole),
    }
}

/// A row's estimate cells: the published estimate and its interval, or
/// the engine score that ranks without one.
fn estimate_cells(balances: &Balances, has_sweep: bool, by_estimate: bool, row: usize) -> String {
    if by_estimate {
        let scale = balances
            .estimate_scale
            .get(row)
            .copied()
            .unwrap_or(Scale::Cp);
        let show = |v: f64| match scale {
            Scale::Cp => format!("{v:+.1}"),
            Scale::Score => format!("{:.1}%", v * 100.0),
        };
        let value = balances.estimate[row].map_or_else(String::new, show);
        let interval = balances.interval[row]
            .map_or_else(String::new, |(l, h)| format!("{} to {}", show(l), show(h)));
        format!("<td>{value}</td><td class=\"interval\">{interval}</td>")
    } else if has_sweep {
        format!(
            "<td>{}</td>",
            balances.cp[row].map_or(String::new(), |v| format!("{v:+.0}"))
        )
    } else {
        String::new()
    }
}

/// A row's self-play cells: White's score with its interval and its
/// distance from the mean.
fn games_cells(balances: &Balances, has_games: bool, row: usize) -> String {
    if !has_games {
        return String::new();
    }
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    let interval = match (balances.low[row], balances.high[row]) {
        (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
        _ => String::new(),
    };
    let distance = match (balances.score[row], balances.mean) {
        (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
        _ => String::new(),
    };
    format!(
        "<td>{}</td><td>{interval}</td><td>{distance}</td>",
        percent(balances.score[row])
    )
}

/// What fair.html ranks by, in one sentence with the reference to choose,
/// what rank 1 and the other numbers mean, how far the ranking can be
/// trusted, and its filters.
fn fair_intro(
    sweep: Option<&Source>,
    selfplay: Option<&Source>,
    balances: &Balances,
    games_estimate: bool,
    judged: &[Judged],
) -> String {
    let by_estimate = balances.estimate_mean.is_some();
    let quantity = match sweep {
        _ if by_estimate && games_estimate => {
            "estimate from games (<code>balance.csv</code>'s published <code>balance_estimate</code>)".to_owned()
        }
        _ if by_estimate => {
            "consensus estimate (<code>balance.csv</code>'s published <code>balance_estimate</code>)".to_owned()
        }
        Some(s) => format!("engine score (<code>{}</code>)", escape(&s.label)),
        None => "self-play score".to_owned(),
    };
    let mut options = String::new();
    for j in judged {
        let reference = j.reference;
        let available = !j.rows.is_empty();
        let _ = write!(
            options,
            "<option value=\"{}\" data-words=\"{}\" data-note=\"{}\"{}>{}{}</option>",
            reference.key(),
            escape(reference.words()),
            escape(&j.note),
            match (reference == Reference::DEFAULT, available) {
                (true, _) => " selected",
                (false, true) => "",
                (false, false) => " disabled",
            },
            escape(reference.words()),
            match (reference == Reference::DEFAULT, available) {
                (true, _) => " (default)",
                (false, true) => "",
                (false, false) => " (no number for SP 518)",
            }
        );
    }
    let default_note = judged
        .iter()
        .find(|j| j.reference == Reference::DEFAULT)
        .map_or("", |j| j.note.as_str());
    let numbers = if by_estimate {
        "<p class=\"meaning\">The estimate is shrunk toward the mean of all positions by how noisy its data are, so a position with little data does not top the list by chance; its 95% interval is the published one. The <b>rank interval</b> holds the ranks the data allow, at 95% for all positions at once: a wide one means the position cannot be told apart from its neighbours. The <b>verdict</b> compares the estimate with the chosen reference: within the band, or more or less for White than the reference, at the stated false discovery rate.</p>\n"
    } else {
        ""
    };
    format!(
        "<p class=\"meaning\">Rank 1 is the position whose {quantity} is closest to \
         <span id=\"reference-words\">{}</span>; positions whose distance shows alike share a rank.</p>\n\
         {numbers}<p><label>Balanced means closest to <select id=\"reference\">{options}</select></label></p>\n\
         <p id=\"reference-note\" class=\"note\">{}</p>\n\
         <p>{}Filters as in <code>c960 draw</code>: \
         <label><input type=\"checkbox\" data-filter=\"no-attack\"> no pawn attackable on move 1</label> \
         <label><input type=\"checkbox\" data-filter=\"no-castle\"> no castling on move 1</label> \
         <label>at most <input type=\"number\" min=\"0\" max=\"8\" value=\"8\" data-filter=\"max-weak\"> weak pawns</label></p>",
        escape(Reference::DEFAULT.words()),
        escape(default_note),
        match (selfplay, balances.mean) {
            (Some(s), Some(m)) => format!(
                "Self-play (<code>{}</code>): White's score with its interval, and its distance from the mean of all positions ({:.1}%); \
                 an interval that contains the mean means the games cannot tell the position from an average one. ",
                escape(&s.label),
                m * 100.0
            ),
            _ => String::new(),
        }
    )
}
