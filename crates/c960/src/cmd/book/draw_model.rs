//! `c960 book draw-model`: fit the draw chance of game pairs from exits,
//! at the budget they were played at, to game-pair journals.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use c960_book::exits::{self, fit_draw_model, read_journal};

use crate::{
    cli::{BookDrawModelArgs, InputError},
    output::{Out, Text},
};

pub(crate) fn run(args: &BookDrawModelArgs) -> Result<()> {
    let mut claim = c960_store::Claim::new();
    for dir in &args.from {
        claim = claim.input_dir(dir, "--from");
    }
    for journal in &args.journal {
        claim = claim.input(journal, "--journal");
    }
    let out = Out::claim(Some(&args.out), claim)?;
    let journals = args
        .journal
        .iter()
        .map(|path| read_journal(path).map(|j| (path.as_path(), j)))
        .collect::<Result<Vec<_>, String>>()
        .map_err(InputError)?;
    let expansion = exits::read_runs(&args.from, &|_| 0).context("reading the runs")?;
    let model = fit_draw_model(&expansion, &journals).map_err(InputError)?;
    let json = serde_json::to_string_pretty(&model)?;
    out.write(|file| {
        file.write_all(json.as_bytes())?;
        file.write_all(b"\n")
    })
    .with_context(|| format!("writing {}", args.out.display()))?;
    let fit = &model.fit;
    let m = fit.model;
    let mut text = Text::default();
    writeln!(
        text,
        "draw model written to {}: {} games, {:.1} % drawn; a = {:.1} cp, b = {:.1} cp, \
         stronger engine's edge {:.1} cp",
        args.out.display(),
        fit.games,
        100.0 * fit.observed_draws,
        m.a,
        m.b,
        m.shift
    )?;
    for band in &fit.bands {
        writeln!(
            text,
            "  |score| {:>5.0}..{:<5.0} cp: {:>4} games, drawn {:>5.1} %, model {:>5.1} %",
            band.low_cp,
            band.high_cp,
            band.games,
            100.0 * band.observed_draws,
            100.0 * band.predicted_draws
        )?;
    }
    match fit.score_band(0.48, 0.52) {
        Some((from, to)) => writeln!(
            text,
            "a pair draws 48-52 % of games where the favoured side's score is {from:.0}..{to:.0} cp"
        )?,
        None => writeln!(text, "no score gives a pair 48-52 % draws")?,
    }
    text.print()?;
    Ok(())
}
