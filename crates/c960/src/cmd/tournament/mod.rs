//! `c960 tournament`: what an organizer prints and posts for a Chess960
//! event — the announcement, one sheet per round (large diagram, number,
//! FENs, castling rules for that position in words), the draw record and
//! how anyone recomputes it. Rounds not published with the announcement
//! are sealed by a hash commitment (`c960_core::Seal`), so nobody can
//! compute them before their keys are published.
//!
//! `folder.rs` owns the output folder (locked, built whole, swapped in),
//! `pages.rs` the HTML pages, `record.rs` draw.json, VERIFY.md and
//! SECRET.txt.

mod folder;
mod pages;
mod record;

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use c960_core::{DrawFilter, DrawMethod, Features, Key, Lang, Seal, draw, draw_sealed};

use crate::{
    cli::{InputError, Paper, TournamentArgs},
    cmd::draw::{BalanceSource, method},
};

/// The event's details for the announcement, as the organizer gives them.
#[derive(Clone, Debug, Default)]
struct Details {
    date: Option<String>,
    venue: Option<String>,
    time_control: Option<String>,
    schedule: Vec<String>,
}

/// Everything the kit needs, validated before any file is written.
struct Plan {
    method: DrawMethod,
    rounds: usize,
    filter: DrawFilter,
    balance: Option<BalanceSource>,
    publish: usize,
    /// The organizer's secret, when rounds are sealed.
    secret: Option<Key>,
    /// The sealed rounds' keys and commitment.
    seal: Option<Seal>,
    details: Details,
    title: Option<String>,
    lang: Lang,
    paper: Paper,
    pdf: bool,
    out: PathBuf,
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
        let secret = match (&args.secret, sealed) {
            (Some(_), false) => {
                return Err(InputError(
                    "--secret seals rounds: give it with --publish-rounds below --rounds"
                        .to_owned(),
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
        };
        for (flag, value) in [
            ("--title", args.title.as_deref()),
            ("--date", args.date.as_deref()),
            ("--venue", args.venue.as_deref()),
            ("--time-control", args.time_control.as_deref()),
        ]
        .into_iter()
        .chain(
            args.schedule
                .iter()
                .map(|s| ("--schedule", Some(s.as_str()))),
        ) {
            if value.is_some_and(|v| v.chars().any(char::is_control)) {
                return Err(InputError(format!("{flag} must be one line of text")).into());
            }
        }
        let (filter, balance) = args.filters.to_filter()?;
        Ok(Plan {
            method: method(args.source.phrase.as_ref(), args.source.seed),
            rounds: args.rounds,
            filter,
            balance,
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
            lang: args.lang.lang(),
            paper: args.paper,
            pdf: args.pdf,
            out: args.out.clone(),
        })
    }

    /// Refuses to replace a kit whose sealed rounds' secret this kit would
    /// lose: its fingerprint may already be published.
    fn keeps_secret_of(&self, old: Option<&str>) -> Result<()> {
        let Some(text) = old else {
            return Ok(());
        };
        let file = self.out.join(folder::SECRET_FILE);
        let old = record::secret_of(text);
        if old.is_some() && old == self.secret {
            return Ok(());
        }
        Err(InputError(format!(
            "{} holds sealed rounds whose secret ({}) a new kit would lose: give --secret with \
             the secret from that file to make the same draw again, or choose another --out",
            self.out.display(),
            file.display()
        ))
        .into())
    }
}

pub(crate) fn run(args: &TournamentArgs) -> Result<()> {
    let plan = Plan::from_args(args)?;
    // Checked before anything is written; checked again under the lock.
    plan.keeps_secret_of(folder::check_replaceable(&plan.out)?.as_deref())?;
    let features = Features::all();
    let result = draw(&plan.method, plan.rounds, &plan.filter, &features)?;
    let candidates = plan.filter.candidates(&features);
    let positions = match &plan.seal {
        Some(seal) => draw_sealed(&plan.method, plan.publish, &seal.keys, &candidates)?.positions,
        None => result.positions,
    };
    let kit = pages::Kit {
        plan: &plan,
        positions: &positions,
        candidates: result.candidates,
    };
    let (folder, old_secret) = folder::KitFolder::begin(&plan.out)?;
    plan.keeps_secret_of(old_secret.as_deref())?;
    for round in 1..=plan.rounds {
        folder.write(
            &format!("round-{round}.html"),
            kit.round_page(round).as_bytes(),
        )?;
    }
    folder.write("kit.html", kit.all_sheets().as_bytes())?;
    folder.write("announcement.html", kit.announcement().as_bytes())?;
    let record = record::draw_json(&kit, &candidates);
    folder.write(
        "draw.json",
        format!("{}\n", serde_json::to_string_pretty(&record)?).as_bytes(),
    )?;
    folder.write("VERIFY.md", record::verify_md(&kit).as_bytes())?;
    if let Some(secret) = plan.secret {
        folder.write(
            folder::SECRET_FILE,
            record::secret_txt(&plan, secret).as_bytes(),
        )?;
    }
    if plan.pdf {
        print_pdf(
            &folder.building().join("kit.html"),
            &folder.building().join("kit.pdf"),
            &plan.out.join("kit.pdf"),
        )?;
    }
    folder.finish()?;
    let mut text = crate::output::Text::default();
    writeln!(
        text,
        "tournament kit in {}: {} round(s) drawn by {} from {} positions",
        plan.out.display(),
        plan.rounds,
        plan.method,
        result.candidates
    )?;
    for (i, p) in positions.iter().enumerate() {
        let sealed = if i < plan.publish { "" } else { "  (sealed)" };
        writeln!(
            text,
            "round {:<3} SP {:>3}  {}{sealed}",
            i + 1,
            p.sp(),
            p.placement()
        )?;
    }
    let pdf = if plan.pdf { ", kit.pdf" } else { "" };
    let secret = if plan.seal.is_some() {
        ", SECRET.txt"
    } else {
        ""
    };
    writeln!(
        text,
        "files: announcement.html, round-1..{}.html, kit.html{pdf}, draw.json, VERIFY.md{secret}",
        plan.rounds
    )?;
    if let Some(seal) = &plan.seal {
        writeln!(
            text,
            "rounds {}-{} are sealed: the announcement publishes the fingerprint {}; \
             {} holds the secret and each round's key: keep it private until the end of the event",
            seal.first_round,
            plan.rounds,
            seal.commitment,
            plan.out.join(folder::SECRET_FILE).display()
        )?;
    }
    text.print()?;
    Ok(())
}

/// Prints `html` to `pdf` with headless Chromium; the PDF appears only once
/// complete. Errors name `shown`, where the PDF goes in the finished kit.
fn print_pdf(html: &Path, pdf: &Path, shown: &Path) -> Result<()> {
    let chromium = std::env::var("C960_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
    let html = fs::canonicalize(html)?;
    let profile = tempfile::tempdir()?;
    let partial = pdf.with_extension("pdf.partial");
    let mut child = Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
            "--print-to-pdf-no-header",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", partial.display()))
        .arg(format!("file://{}", html.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| {
            InputError(format!(
                "--pdf needs headless Chromium: cannot run {chromium}: {e} \
                 (apt-get install chromium, or set C960_CHROMIUM)"
            ))
        })?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > Duration::from_mins(2) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = fs::remove_file(&partial);
            bail!(
                "{chromium} did not finish printing {} within 120 s",
                shown.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if !status.success() || !partial.is_file() {
        let _ = fs::remove_file(&partial);
        bail!("{chromium} could not print {} ({status})", shown.display());
    }
    fs::rename(&partial, pdf).with_context(|| format!("cannot write {}", shown.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::pages::all_texts;

    #[test]
    fn every_language_has_every_text_of_english() {
        let table: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> =
            toml::from_str(include_str!("../../../lang/kit.toml")).unwrap();
        let english = &table["en"];
        for lang in c960_core::Lang::ALL {
            let texts = &table[lang.code()];
            for key in english.keys().filter(|k| !k.ends_with("_one")) {
                assert!(texts.contains_key(key), "{lang} lacks {key}");
            }
            for key in texts.keys() {
                assert!(
                    english.contains_key(key),
                    "{lang} has {key}, English does not"
                );
            }
        }
        assert_eq!(all_texts("secret_label").len(), 4);
    }
}
