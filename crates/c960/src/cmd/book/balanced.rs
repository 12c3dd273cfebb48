//! `c960 book balanced`: the start positions of a balance table nearest a
//! reference, each position's 95 % interval included, chosen by the
//! selection code `c960 draw` uses (`c960_ops::draw::balance_table`),
//! written in SP order with a manifest naming the table, the reference and
//! the window.

use anyhow::{Context, Result};
use c960_book::{BookKind, BookManifest, BookOutputs, FORMAT, book_line};
use c960_core::{Setup, Variant};
use serde_json::{Value, json};

use c960_ops::draw::balance_table::{Selection, Table};

use crate::{
    cli::{BookBalancedArgs, InputError},
    output::say,
};

pub(crate) fn run(args: &BookBalancedArgs) -> Result<()> {
    let outputs = BookOutputs::claim(
        &args.out,
        c960_store::Claim::new().input(&args.balance, "--balance"),
    )?;
    let selection = match (args.fairest, args.within) {
        (Some(n), _) => Selection::Fairest(n.get(), args.reference),
        (None, Some(cp)) if cp.is_finite() && cp > 0.0 => Selection::Within(cp, args.reference),
        (None, Some(cp)) => {
            return Err(InputError(format!("--within {cp} must be a distance above 0 cp")).into());
        }
        (None, None) => unreachable!("clap requires --fairest or --within"),
    };
    let table = Table::read(&args.balance)?;
    let (positions, reference_cp) = table.select(selection, None)?;
    let record = table.record(selection, None, positions.len(), reference_cp);
    if positions.is_empty() {
        return Err(InputError(format!(
            "--balance {}: no position's whole 95 % interval lies within {} cp of {} ({:.1} cp): \
             the book would be empty; widen --within or use --fairest",
            record.file,
            record.within.unwrap_or_default(),
            record.reference.as_deref().unwrap_or_default(),
            record.reference_cp.unwrap_or_default()
        ))
        .into());
    }
    let setups: Vec<Setup> = positions.iter().map(|&p| Setup::Chess960(p)).collect();
    let mut balance = serde_json::to_value(&record)?;
    if let Value::Object(section) = &mut balance {
        use c960_store::columns::balance as column;
        section.insert("estimate_column".to_owned(), json!(column::ESTIMATE));
        section.insert(
            "interval_columns".to_owned(),
            json!([column::LOW, column::HIGH]),
        );
        section.insert(
            "distance".to_owned(),
            json!(
                "each position's distance is that of the farther end of its 95 % interval \
                 from the reference; fairest keeps the N nearest (ties: lower SP first), within \
                 those at most that many centipawns away"
            ),
        );
    }
    let mut made_with = serde_json::Map::new();
    made_with.insert("balance".to_owned(), balance);
    let manifest = BookManifest {
        kind: BookKind::Balanced,
        variant: Variant::Chess960,
        file: String::new(),
        format: FORMAT.to_owned(),
        lines: 0,
        sha256: String::new(),
        contents: None,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        setups: Setup::format_set(&setups),
        made_with,
        notes: format!(
            "The {} Chess960 start positions of {} nearest {} ({:.1} cp White edge), \
             interval included, in SP order.",
            positions.len(),
            record.file,
            record.reference.as_deref().unwrap_or_default(),
            record.reference_cp.unwrap_or_default()
        ),
    };
    let lines = positions.iter().map(|p| book_line(&p.to_position()));
    let written = c960_book::write_book(&outputs, lines, manifest)
        .with_context(|| format!("writing {}", args.out.display()))?;
    say!(
        "{} written to {} (SHA-256 {})",
        c960_core::plural(written.lines, "line", "lines"),
        args.out.display(),
        written.sha256
    );
    Ok(())
}
