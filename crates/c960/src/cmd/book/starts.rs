//! `c960 book starts`: the start positions as a book, Chess960 in SP
//! order and DFRC setups in index order, streamed (all 921,600 DFRC
//! setups never sit in memory as text).

use anyhow::{Context, Result};
use c960_book::{BookKind, BookManifest, BookOutputs, FORMAT, book_line};
use c960_core::{Setup, Variant};

use crate::cli::BookStartsArgs;
use crate::output::say;

pub(crate) fn run(args: &BookStartsArgs) -> Result<()> {
    let outputs = BookOutputs::claim(&args.out, c960_store::Claim::new())?;
    let mut setups = Setup::parse_set(args.variant, &args.positions)?;
    // DFRC books list setups White's SP first, then Black's (line =
    // white SP × 960 + black SP + 1), as the books testers already use do.
    setups.sort_by_key(|s| book_order(*s));
    let manifest = BookManifest {
        kind: BookKind::Starts,
        variant: args.variant,
        file: String::new(),
        format: FORMAT.to_owned(),
        lines: 0,
        sha256: String::new(),
        contents: None,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        setups: if args.variant == Variant::Dfrc {
            args.positions.trim().to_owned()
        } else {
            Setup::format_set(&setups)
        },
        made_with: serde_json::Map::new(),
        notes: match args.variant {
            Variant::Chess960 => "The Chess960 start positions in Scharnagl order (SP 0..=959; \
                                  SP 518 is the classical setup)."
                .to_owned(),
            Variant::Dfrc => "Double Fischer Random setups ordered by White's SP, then \
                              Black's: in the full book, line white SP × 960 + black SP + 1 \
                              (c960's own DFRC index is white SP + 960 × black SP)."
                .to_owned(),
        },
    };
    let lines = setups.iter().map(|s| book_line(&s.to_position()));
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

/// Where a setup goes in a book: Chess960 by SP, DFRC by (White's SP,
/// Black's SP).
fn book_order(setup: Setup) -> (u32, u32) {
    match setup {
        Setup::Chess960(p) => (u32::from(p.sp()), 0),
        Setup::Dfrc(d) => (u32::from(d.white().sp()), u32::from(d.black().sp())),
    }
}
