//! `c960 draw --verify`: what `c960_ops::draw::verify` found of a kit's
//! draw record, in words.

use std::{fmt::Write as _, path::Path};

use anyhow::Result;
use c960_core::{StartPosition, plural};
use c960_ops::draw::{Opened, TableCheck};

use crate::output::Text;

/// `c960 draw --verify FILE [--key KEY]`: recomputes a kit's published
/// rounds from its draw record and, with a key, the sealed rounds that key
/// opens.
pub(super) fn verify(file: &Path, key: Option<&str>, table: Option<&Path>) -> Result<()> {
    let verified = c960_ops::draw::verify(file, key, table)?;
    let published = &verified.published;
    let mut text = Text::default();
    writeln!(
        text,
        "{}: {} from {} and its {}",
        file.display(),
        if published.len() == 1 {
            "round 1 follows".to_owned()
        } else {
            format!("rounds 1-{} follow", published.len())
        },
        verified.method,
        plural(verified.candidates, "candidate", "candidates")
    )?;
    match (&verified.table, table) {
        (TableCheck::Matched { kept, label }, Some(table)) => writeln!(
            text,
            "its candidates are exactly the positions its filters keep of {} (its SHA-256 \
             matches; {} kept by {label})",
            table.display(),
            plural(*kept, "position", "positions"),
        )?,
        (TableCheck::NotGiven { file, sha256 }, _) => writeln!(
            text,
            "its balance filter read {file} (SHA-256 {sha256}): give --balance with that table \
             to check the candidates against it"
        )?,
        _ => {}
    }
    let mut opened: &[StartPosition] = &[];
    match (verified.sealed, &verified.opened) {
        (Some((commitment, _)), Some(Opened { positions, steps })) => {
            writeln!(
                text,
                "the key opens sealed round {}: it hashes to the fingerprint {commitment} in {} {}",
                published.len() + steps,
                steps,
                if *steps == 1 { "step" } else { "steps" }
            )?;
            opened = positions;
        }
        (Some((commitment, count)), None) => writeln!(
            text,
            "{} (fingerprint {commitment}); give --key with a key the organizer published to \
             open {}",
            if count == 1 {
                format!("round {} is sealed", verified.total)
            } else {
                format!(
                    "rounds {}-{} are sealed",
                    published.len() + 1,
                    verified.total
                )
            },
            if count == 1 { "it" } else { "them" }
        )?,
        (None, _) => {}
    }
    for (i, p) in published.iter().chain(opened).enumerate() {
        let how = if i < published.len() {
            "published"
        } else {
            "opened by the key"
        };
        writeln!(
            text,
            "round {:<3} SP {:>3}  {}  {}  {how}",
            i + 1,
            p.sp(),
            p.placement(),
            p.to_xfen()
        )?;
    }
    for round in published.len() + opened.len() + 1..=verified.total {
        writeln!(text, "round {round:<3} sealed")?;
    }
    text.print()?;
    Ok(())
}
