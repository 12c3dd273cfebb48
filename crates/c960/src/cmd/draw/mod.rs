//! `c960 draw`: reproducible draws for tournament rounds, and `c960 draw
//! --verify`, which recomputes a kit's draw from its record (both made in
//! `c960_ops::draw`; printed here).

mod verify;

use std::fmt::Write as _;

use anyhow::Result;
use c960_core::{DrawMethod, Lang};
use c960_ops::draw::{DrawOptions, FilterOptions, Filters};
use serde_json::json;

use crate::{
    cli::{DrawArgs, DrawFilterArgs, ExcludePreset, InputError, ReportFormat},
    output::Text,
};
use c960_report::kit::{MethodName, RoundRecord, filter_words, text};

impl DrawFilterArgs {
    /// The library's filter options these flags give.
    pub(crate) fn options(&self) -> FilterOptions {
        FilterOptions {
            exclude: self.exclude.clone(),
            exclude_preset: self.exclude_preset.map(ExcludePreset::preset),
            exclude_drawn: self.exclude_drawn.clone(),
            max_undefended: self.max_undefended,
            max_king_only: self.max_king_only,
            max_weak: self.max_weak,
            no_first_move_attack: self.no_first_move_attack,
            no_first_move_castling: self.no_first_move_castling,
            verdict: self.verdict,
            fairest: self.fairest,
            within: self.within,
            reference: self.reference,
            not_drawish: self.not_drawish,
            balance: self.balance.clone(),
        }
    }

    /// The filter these flags describe.
    pub(crate) fn to_filter(&self) -> Result<Filters> {
        Ok(Filters::from_options(&self.options())?)
    }
}

pub(crate) fn run(args: &DrawArgs) -> Result<()> {
    if let Some(record) = &args.verify {
        if args.format == ReportFormat::Json {
            return Err(
                InputError("--verify prints text: leave out --format json".to_owned()).into(),
            );
        }
        return verify::verify(record, args.key.as_deref(), args.filters.balance.as_deref());
    }
    let drawn = c960_ops::draw::draw(&DrawOptions {
        phrase: args.source.phrase.clone(),
        seed: args.source.seed,
        rounds: args.rounds,
        filters: args.filters.options(),
    })?;
    let (plan, result) = (&drawn, &drawn.draw);
    let mut text = Text::default();
    match args.format {
        ReportFormat::Json => {
            let (_, seed, phrase) = MethodName::of(&plan.method);
            let rounds: Vec<RoundRecord> = result
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| RoundRecord::new(i + 1, *p))
                .collect();
            let doc = json!({
                "method": plan.method.to_string(),
                "seed": seed,
                "phrase": phrase,
                "filters": plan.filter.to_string(),
                "candidates": result.candidates,
                "rounds": rounds,
                "c960_version": env!("CARGO_PKG_VERSION"),
            });
            writeln!(text, "{}", serde_json::to_string_pretty(&doc)?)?;
        }
        ReportFormat::Text => {
            let lang = args.lang;
            writeln!(
                text,
                "{}",
                c960_report::kit::text_count(lang, "con_draw", plan.rounds)
                    .replace("{method}", &method_words(lang, &plan.method))
                    .replace(
                        "{positions}",
                        &c960_report::kit::text_count(lang, "con_positions", result.candidates)
                    )
                    .replace(
                        "{filters}",
                        &filter_words(&plan.filter, plan.balance.as_ref(), &plan.excluded, lang)
                    )
            )?;
            for (i, p) in result.positions.iter().enumerate() {
                writeln!(
                    text,
                    "{}SP {:>3}  {}  {}",
                    round_label(lang, i + 1),
                    p.sp(),
                    p.placement(),
                    p.to_xfen()
                )?;
            }
        }
    }
    text.print()?;
    Ok(())
}

/// A console text of the kit's table in `lang`.
pub(crate) fn text_of(lang: Lang, key: &str) -> &'static str {
    text(lang, key)
}

/// "round N" in `lang`, padded for a column of rounds.
pub(crate) fn round_label(lang: Lang, round: usize) -> String {
    format!(
        "{:<10}",
        text(lang, "con_round").replace("{n}", &round.to_string())
    )
}

/// The draw method in a few words of `lang`.
pub(crate) fn method_words(lang: Lang, method: &DrawMethod) -> String {
    match method {
        DrawMethod::Phrase(phrase) => {
            text(lang, "con_phrase").replace("{phrase}", &format!("{phrase:?}"))
        }
        DrawMethod::Seed(seed) => text(lang, "con_seed").replace("{seed}", &seed.to_string()),
    }
}
