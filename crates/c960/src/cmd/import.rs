//! `c960 import`: Chess960 games from PGN files into the game table.

use std::{fmt::Write as _, fs, io, time::Instant};

use anyhow::{Context, Result, bail};
use c960_games::{Filters, SkipReason, import_to};
use c960_store::{GAMES_TABLE, IMPORT_SUMMARY_FILE, MANIFEST_FILE, POSITIONS_CSV, POSITIONS_TABLE};

use crate::{
    cli::{ImportArgs, InputError},
    output::Text,
};

/// A `--since`/`--until` date as PGN writes dates (`YYYY.MM.DD`), if it is
/// a day of the calendar.
fn date(flag: &str, value: Option<&String>) -> Result<Option<String>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let normal = value.replace('-', ".");
    let parts: Vec<&str> = normal.split('.').collect();
    let ok = parts.len() == 3
        && [4, 2, 2]
            .iter()
            .zip(&parts)
            .all(|(n, p)| p.len() == *n && p.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        bail!(InputError(format!(
            "{flag} {value:?} is not a date (YYYY-MM-DD or YYYY.MM.DD)"
        )));
    }
    let number = |part: &str| part.parse::<u32>().unwrap_or_default();
    let (year, month, day) = (number(parts[0]), number(parts[1]), number(parts[2]));
    if !(1..=12).contains(&month) {
        bail!(InputError(format!(
            "{flag} {value:?} is not a date: there is no month {month}"
        )));
    }
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days).contains(&day) {
        bail!(InputError(format!(
            "{flag} {value:?} is not a date: month {month} of {year} has days 1 to {days}"
        )));
    }
    Ok(Some(normal))
}

/// Refuses what cannot be read as PGN before anything is written: missing
/// files, directories, unreadable files and `.zst` files that are not zstd
/// data. Pipes and devices are read as streams.
fn check_input(file: &std::path::Path) -> Result<()> {
    let shown = file.display();
    let metadata = match fs::metadata(file) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            bail!(InputError(format!("{shown}: no such file")))
        }
        Err(e) => bail!(InputError(format!("cannot read {shown}: {e}"))),
    };
    if metadata.is_dir() {
        bail!(InputError(format!(
            "{shown} is a directory, not a PGN file"
        )));
    }
    if metadata.is_file()
        && let Err(e) = c960_games::check_file(file)
    {
        bail!(InputError(e.to_string()));
    }
    Ok(())
}

pub(crate) fn run(args: &ImportArgs) -> Result<()> {
    if let (Some(low), Some(high)) = (args.min_rating, args.max_rating)
        && low > high
    {
        bail!(InputError(format!(
            "--min-rating {low} is above --max-rating {high}"
        )));
    }
    for file in &args.files {
        check_input(file)?;
    }
    let filters = Filters {
        min_rating: args.min_rating,
        max_rating: args.max_rating,
        time_controls: args.time_control.clone(),
        since: date("--since", args.since.as_ref())?,
        until: date("--until", args.until.as_ref())?,
    };
    if let (Some(since), Some(until)) = (&filters.since, &filters.until)
        && since > until
    {
        bail!(InputError(format!(
            "--since {since} is after --until {until}: no game could be kept"
        )));
    }
    // One import into a directory at a time; its outputs must be files,
    // none of them a file it reads.
    let mut claim = c960_store::Claim::new().run_dir(
        &args.out,
        "--out",
        &[
            GAMES_TABLE,
            IMPORT_SUMMARY_FILE,
            POSITIONS_TABLE,
            POSITIONS_CSV,
            MANIFEST_FILE,
        ],
    );
    for file in &args.files {
        claim = claim.input(file, "the games");
    }
    let _claimed = claim.take()?;
    let _dir = c960_store::RunDir::lock(&args.out)?;
    let started = Instant::now();
    let summary = import_to(&args.files, &filters, &args.out)
        .with_context(|| format!("import into {}", args.out.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    if !args.quiet {
        let mut text = Text::default();
        #[allow(clippy::cast_precision_loss)]
        let megabytes = summary.bytes as f64 / 1e6;
        writeln!(
            text,
            "{} read, {} kept, {} skipped from {}, {megabytes:.1} MB of PGN in {seconds:.1}s",
            c960_core::plural(summary.read, "game", "games"),
            summary.kept,
            summary.read - summary.kept,
            c960_core::plural(summary.files.len(), "file", "files"),
        )?;
        for reason in SkipReason::ALL {
            if let Some(n) = summary.skipped.get(&reason) {
                writeln!(
                    text,
                    "  skipped {n:>8}  {}  (first: {})",
                    reason.describe(),
                    summary.examples.get(&reason).map_or("", String::as_str)
                )?;
            }
        }
        for file in &summary.truncated_files {
            writeln!(text, "  truncated file: {}", file.display())?;
        }
        writeln!(text, "  {}/{GAMES_TABLE}", args.out.display())?;
        writeln!(text, "  {}/{IMPORT_SUMMARY_FILE}", args.out.display())?;
        text.print()?;
    }
    Ok(())
}
