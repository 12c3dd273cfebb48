//! `c960 tournament`: the organizer's kit (`c960_report::kit`) from the
//! command line. Here: the flags checked and turned into a
//! [`KitPlan`], the draw, the kit's files written into a folder that
//! `folder.rs` owns (locked, built whole, swapped in), and the PDF printed
//! by headless Chromium (`pdf.rs`). Rounds not published with the announcement are
//! sealed by a hash commitment (`c960_core::Seal`), so nobody can compute
//! them before their keys are published.

mod folder;
mod pdf;

use std::{fmt::Write as _, path::PathBuf};

use anyhow::Result;
use c960_core::{Features, Key, Lang, Seal, draw, draw_sealed};
use c960_report::kit::{Details, Kit, KitPlan, SECRET_FILE, secret_of, text_count};

use crate::{
    cli::{InputError, TournamentArgs},
    cmd::draw::{method_words, round_label, text_of},
};

/// Everything the kit needs, validated before any file is written.
struct Plan {
    kit: KitPlan,
    pdf: bool,
    out: PathBuf,
}

/// The secret that seals the unpublished rounds: given with --secret, or
/// drawn from the system; none when every round is published.
fn secret(args: &TournamentArgs, sealed: bool) -> Result<Option<Key>> {
    Ok(match (&args.secret, sealed) {
        (Some(_), false) => {
            return Err(InputError(
                "--secret seals rounds: give it with --publish-rounds below --rounds".to_owned(),
            )
            .into());
        }
        (Some(text), true) => Some(
            text.parse::<Key>()
                .map_err(|e| InputError(format!("--secret: {e}")))?,
        ),
        (None, true) => {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes)
                .map_err(|e| anyhow::anyhow!("cannot draw a secret from the system: {e}"))?;
            Some(Key(bytes))
        }
        (None, false) => None,
    })
}

/// Refuses a title, date, venue, time control, schedule line or phrase
/// that is not one line of plain text (a control of text direction would
/// make the kit show something else than it says).
fn check_one_line(args: &TournamentArgs) -> Result<()> {
    let texts = [
        ("--title", args.title.as_deref()),
        ("--date", args.date.as_deref()),
        ("--venue", args.venue.as_deref()),
        ("--time-control", args.time_control.as_deref()),
        ("--phrase", args.source.phrase.as_deref()),
    ]
    .into_iter()
    .chain(
        args.schedule
            .iter()
            .map(|s| ("--schedule", Some(s.as_str()))),
    );
    for (flag, value) in texts {
        let Some(value) = value else { continue };
        // A phrase is hashed as given, line breaks included.
        if flag != "--phrase" && value.chars().any(char::is_control) {
            return Err(InputError(format!("{flag} must be one line of text")).into());
        }
        if value.chars().any(c960_core::is_bidi_control) {
            return Err(InputError(format!(
                "{flag} holds a control of text direction (such as U+202E), which would show \
                 what follows it reversed; give plain text"
            ))
            .into());
        }
    }
    Ok(())
}

impl Plan {
    fn from_args(args: &TournamentArgs) -> Result<Plan> {
        if args.rounds == 0 {
            return Err(InputError("--rounds must be at least 1".to_owned()).into());
        }
        let publish = args.publish_rounds.unwrap_or(args.rounds);
        if publish == 0 || publish > args.rounds {
            return Err(InputError(format!(
                "--publish-rounds {publish} must be between 1 and the number of rounds ({})",
                args.rounds
            ))
            .into());
        }
        if args
            .source
            .phrase
            .as_deref()
            .is_some_and(|p| p.trim().is_empty())
        {
            return Err(InputError("--phrase must not be empty".to_owned()).into());
        }
        let sealed = publish < args.rounds;
        let secret = secret(args, sealed)?;
        check_one_line(args)?;
        let c960_ops::draw::Filters {
            filter,
            balance,
            excluded,
        } = args.filters.to_filter()?;
        Ok(Plan {
            kit: KitPlan {
                method: c960_ops::draw::method(args.source.phrase.as_deref(), args.source.seed)?,
                rounds: args.rounds,
                filter,
                balance,
                excluded,
                publish,
                seal: secret.map(|s| Seal::new(s, publish, args.rounds)),
                secret,
                details: Details {
                    date: args.date.clone(),
                    venue: args.venue.clone(),
                    time_control: args.time_control.clone(),
                    schedule: args.schedule.clone(),
                },
                title: args.title.clone(),
                lang: args.lang,
                paper: args.paper,
            },
            pdf: args.pdf,
            out: args.out.clone(),
        })
    }

    /// Refuses to replace a kit whose sealed rounds this kit would orphan:
    /// their fingerprint may already be published. The new kit keeps its
    /// secret (when its `SECRET.txt` is there) and the fingerprint its
    /// `draw.json` publishes (also when the secret file was moved away).
    fn keeps_seal_of(&self, old: &folder::OldKit) -> Result<()> {
        let file = self.out.join(SECRET_FILE);
        if let Some(text) = &old.secret_file {
            let secret = secret_of(text);
            if secret.is_none() || secret != self.kit.secret {
                return Err(InputError(format!(
                    "{} holds sealed rounds whose secret ({}) a new kit would lose: give \
                     --secret with the secret from that file to make the same draw again, or \
                     choose another --out",
                    self.out.display(),
                    file.display()
                ))
                .into());
            }
        }
        if let Some(commitment) = &old.commitment {
            let new = self.kit.seal.as_ref().map(|s| s.commitment.to_string());
            if new.as_ref() != Some(commitment) {
                return Err(InputError(format!(
                    "{} holds sealed rounds with the fingerprint {commitment} (its draw.json) \
                     that a new kit would orphan: give --secret with the secret of that kit \
                     (from its {SECRET_FILE}) and the same --rounds and --publish-rounds to \
                     make the same draw again, or choose another --out",
                    self.out.display()
                ))
                .into());
            }
        }
        Ok(())
    }
}

/// Claims the kit's folder before anything is read: it may not hold
/// (nor lie inside) the balance table or an earlier kit's draw record
/// and secret that this kit reads.
fn claim(args: &TournamentArgs) -> Result<c960_store::Claimed> {
    let mut claim = c960_store::Claim::new().dir(&args.out, "--out");
    if let Some(balance) = &args.filters.balance {
        claim = claim.input(balance, "--balance");
    }
    for drawn in &args.filters.exclude_drawn {
        claim = claim.input(drawn, "--exclude-drawn").input(
            &drawn.with_file_name(SECRET_FILE),
            "the secret beside --exclude-drawn",
        );
    }
    Ok(claim.take()?)
}

pub(crate) fn run(args: &TournamentArgs) -> Result<()> {
    let _claimed = claim(args)?;
    let plan = Plan::from_args(args)?;
    // Checked before anything is written; checked again under the lock.
    plan.keeps_seal_of(&folder::check_replaceable(&plan.out)?)?;
    let p = &plan.kit;
    let features = Features::all();
    let result = draw(&p.method, p.rounds, &p.filter, &features)?;
    let candidates = p.filter.candidates(&features);
    let positions = match &p.seal {
        Some(seal) => draw_sealed(&p.method, p.publish, &seal.keys, &candidates)?.positions,
        None => result.positions,
    };
    let kit = Kit {
        plan: p,
        positions: &positions,
        candidates: &candidates,
    };
    let (folder, old) = folder::KitFolder::begin(&plan.out)?;
    plan.keeps_seal_of(&old)?;
    for (name, content) in kit.files()? {
        folder.write(&name, content.as_bytes())?;
    }
    if plan.pdf {
        pdf::print_pdf(
            &folder.building().join("kit.html"),
            &folder.building().join("kit.pdf"),
            &plan.out.join("kit.pdf"),
        )?;
    }
    folder.finish()?;
    let lang = p.lang;
    let mut text = crate::output::Text::default();
    writeln!(
        text,
        "{}",
        c960_report::kit::text_count(lang, "con_kit", p.rounds)
            .replace("{out}", &plan.out.display().to_string())
            .replace("{method}", &method_words(lang, &p.method))
            .replace(
                "{positions}",
                &text_count(lang, "con_positions", candidates.len())
            )
    )?;
    for (i, position) in positions.iter().enumerate() {
        let sealed = if i < p.publish {
            String::new()
        } else {
            format!("  {}", text_of(lang, "con_sealed_mark"))
        };
        writeln!(
            text,
            "{}SP {:>3}  {}{sealed}",
            round_label(lang, i + 1),
            position.sp(),
            position.placement()
        )?;
    }
    writeln!(
        text,
        "{}",
        files_line(lang, p.rounds, plan.pdf, p.seal.is_some())
    )?;
    if let Some(seal) = &p.seal {
        writeln!(
            text,
            "{}",
            text_count(lang, "con_sealed", seal.keys.len())
                .replace("{a}", &seal.first_round.to_string())
                .replace("{b}", &p.rounds.to_string())
                .replace("{commitment}", &seal.commitment.to_string())
                .replace("{file}", &plan.out.join(SECRET_FILE).display().to_string())
        )?;
    }
    text.print()?;
    Ok(())
}

/// The kit's files, as the console lists them: `round-1.html` for one
/// round, `round-1..N.html` for more.
fn files_line(lang: Lang, rounds: usize, pdf: bool, sealed: bool) -> String {
    let pdf = if pdf { ", kit.pdf" } else { "" };
    let secret = if sealed { ", SECRET.txt" } else { "" };
    let rounds = match rounds {
        1 => "round-1.html".to_owned(),
        n => format!("round-1..{n}.html"),
    };
    format!(
        "{}: announcement.html, {rounds}, kit.html{pdf}, draw.json, VERIFY.md{secret}",
        text_of(lang, "con_files"),
    )
}
