//! `c960 tournament`: what an organizer prints and posts for a Chess960
//! event — the announcement, one sheet per round (large diagram, number,
//! FENs, castling rules for that position in words), the draw record and
//! how anyone recomputes it.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs,
    io::Write as _,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::OnceLock,
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use c960_core::{
    CastlingText, Draw, DrawFilter, DrawMethod, Features, Lang, StartPosition, castling_rules,
    draw, format_position_set,
    shakmaty::{CastlingSide, Color},
};
use c960_report::{
    board::{Marks, diagram_svg},
    html::escape,
};
use serde_json::json;

use crate::{
    cli::{InputError, Paper, TournamentArgs},
    cmd::draw::method,
};

/// Everything the kit needs, validated before any file is written.
struct Plan {
    method: DrawMethod,
    rounds: usize,
    filter: DrawFilter,
    publish: usize,
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
        if args.out.exists() && !args.out.is_dir() {
            return Err(InputError(format!(
                "--out {} exists and is not a directory",
                args.out.display()
            ))
            .into());
        }
        Ok(Plan {
            method: method(args.source.phrase.as_ref(), args.source.seed),
            rounds: args.rounds,
            filter: args.filters.to_filter()?,
            publish,
            title: args.title.clone(),
            lang: args.lang.lang(),
            paper: args.paper,
            pdf: args.pdf,
            out: args.out.clone(),
        })
    }
}

pub(crate) fn run(args: &TournamentArgs) -> Result<()> {
    let plan = Plan::from_args(args)?;
    let features = Features::all();
    let result = draw(&plan.method, plan.rounds, &plan.filter, &features)?;
    let candidates = plan.filter.candidates(&features);
    let kit = Kit {
        plan: &plan,
        draw: &result,
    };
    fs::create_dir_all(&plan.out)
        .with_context(|| format!("cannot create {}", plan.out.display()))?;
    let write = |name: &str, text: &str| -> Result<()> {
        let path = plan.out.join(name);
        c960_store::write_atomically(&path, |out| out.write_all(text.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))
    };
    for (i, position) in result.positions.iter().enumerate() {
        let sheet = kit.sheet(i + 1, *position);
        write(
            &format!("round-{}.html", i + 1),
            &kit.page(
                &kit.text("round").replace("{n}", &(i + 1).to_string()),
                &sheet,
            ),
        )?;
    }
    let all: String = (0..plan.rounds)
        .map(|i| kit.sheet(i + 1, result.positions[i]))
        .collect();
    write("kit.html", &kit.page(&kit.event(), &all))?;
    write("announcement.html", &kit.announcement())?;
    let record = record(&plan, &result, &candidates);
    write(
        "draw.json",
        &format!("{}\n", serde_json::to_string_pretty(&record)?),
    )?;
    write("VERIFY.md", &verify_md(&plan, &result))?;
    if plan.pdf {
        print_pdf(&plan.out.join("kit.html"), &plan.out.join("kit.pdf"))?;
    }
    let mut text = crate::output::Text::default();
    writeln!(
        text,
        "tournament kit in {}: {} round(s) drawn by {} from {} positions",
        plan.out.display(),
        plan.rounds,
        plan.method,
        result.candidates
    )?;
    for (i, p) in result.positions.iter().enumerate() {
        writeln!(
            text,
            "round {:<3} SP {:>3}  {}",
            i + 1,
            p.sp(),
            p.placement()
        )?;
    }
    let pdf = if plan.pdf { ", kit.pdf" } else { "" };
    writeln!(
        text,
        "files: announcement.html, round-1..{}.html, kit.html{pdf}, draw.json, VERIFY.md",
        plan.rounds
    )?;
    text.print()?;
    Ok(())
}

/// The kit's fixed texts: `lang/kit.toml`.
fn table() -> &'static BTreeMap<String, BTreeMap<String, String>> {
    static TABLE: OnceLock<BTreeMap<String, BTreeMap<String, String>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        toml::from_str(include_str!("../../lang/kit.toml"))
            .expect("lang/kit.toml is valid (tested)")
    })
}

struct Kit<'a> {
    plan: &'a Plan,
    draw: &'a Draw,
}

impl Kit<'_> {
    fn text(&self, key: &str) -> &'static str {
        table()
            .get(self.plan.lang.code())
            .and_then(|t| t.get(key))
            .map_or_else(
                || panic!("lang/kit.toml has no {key:?} for {}", self.plan.lang),
                String::as_str,
            )
    }

    fn event(&self) -> String {
        self.plan
            .title
            .clone()
            .unwrap_or_else(|| self.text("event").to_owned())
    }

    /// A whole HTML page around `body`.
    fn page(&self, title: &str, body: &str) -> String {
        let size = match self.plan.paper {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        };
        format!(
            "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>\n@page {{ size: {size}; margin: 12mm; }}\n{CSS}</style>\n\
             </head>\n<body>\n{body}</body>\n</html>\n",
            lang = self.plan.lang.code(),
            title = escape(title),
        )
    }

    /// One round's sheet: a printed page of its own.
    fn sheet(&self, round: usize, position: StartPosition) -> String {
        let lang = self.plan.lang;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<section class=\"sheet\" id=\"round-{round}\">\n<header><p class=\"event\">{}</p>\
             <h1>{} <span class=\"sp\">SP {}</span></h1></header>",
            escape(&self.event()),
            escape(&self.text("round").replace("{n}", &round.to_string())),
            position.sp()
        );
        let _ = writeln!(
            s,
            "<div class=\"diagram\">{}</div>",
            diagram_svg(position, Marks::NONE, None)
        );
        let _ = writeln!(
            s,
            "<table class=\"facts\">\n<tr><th>{}</th><td>SP {}</td></tr>\n\
             <tr><th>{}</th><td class=\"mono\">{}</td></tr>\n\
             <tr><th>{}</th><td class=\"mono\">{}</td></tr>\n\
             <tr><th>{}</th><td class=\"mono\">{}</td></tr>\n</table>\n<p class=\"note\">{}</p>",
            escape(self.text("number")),
            position.sp(),
            escape(self.text("placement")),
            position.placement(),
            escape(self.text("xfen")),
            position.to_xfen(),
            escape(self.text("shredder")),
            position.to_shredder_fen(),
            escape(self.text("black_mirrors")),
        );
        let _ = writeln!(
            s,
            "<h2>{}</h2>\n<p class=\"general\">{}</p>\n<div class=\"castling\">",
            escape(self.text("castling")),
            escape(self.text("castling_general"))
        );
        let rules = castling_rules(position);
        for color in [Color::White, Color::Black] {
            s.push_str("<div class=\"color\">\n");
            for side in [CastlingSide::QueenSide, CastlingSide::KingSide] {
                let text = CastlingText::new(rules.get(color).get(side), lang);
                let _ = writeln!(
                    s,
                    "<div class=\"rule\" data-color=\"{}\" data-side=\"{}\"><h3>{}</h3><p>{}</p></div>",
                    color.char(),
                    match side {
                        CastlingSide::QueenSide => 'a',
                        CastlingSide::KingSide => 'h',
                    },
                    escape(&text.title),
                    escape(&text.sentences())
                );
            }
            s.push_str("</div>\n");
        }
        let _ = writeln!(
            s,
            "</div>\n<footer>{} {}</footer>\n</section>",
            escape(&self.method_sentence()),
            escape(
                &self
                    .text("made_with")
                    .replace("{version}", env!("CARGO_PKG_VERSION"))
            )
        );
        s
    }

    fn method_sentence(&self) -> String {
        match &self.plan.method {
            DrawMethod::Phrase(phrase) => self.text("by_phrase").replace("{phrase}", phrase),
            DrawMethod::Seed(seed) => self.text("by_seed").replace("{seed}", &seed.to_string()),
        }
    }

    /// The active filters in the kit's language.
    fn filters(&self) -> String {
        let f = &self.plan.filter;
        let mut parts = Vec::new();
        if !f.exclude.is_empty() {
            let list: Vec<StartPosition> = f.exclude.iter().copied().collect();
            parts.push(
                self.text("f_exclude")
                    .replace("{list}", &format!("SP {}", format_position_set(&list))),
            );
        }
        for (limit, key) in [
            (f.max_undefended, "f_undefended"),
            (f.max_king_only, "f_king_only"),
            (f.max_weak, "f_weak"),
        ] {
            if let Some(n) = limit {
                parts.push(self.text(key).replace("{n}", &n.to_string()));
            }
        }
        if f.no_first_move_attack {
            parts.push(self.text("f_no_attack").to_owned());
        }
        if f.no_first_move_castling {
            parts.push(self.text("f_no_castling").to_owned());
        }
        if let Some(only) = &f.only {
            parts.push(
                self.text("f_only")
                    .replace("{label}", &only.label)
                    .replace("{n}", &only.positions.len().to_string()),
            );
        }
        if parts.is_empty() {
            self.text("filters_none").to_owned()
        } else {
            parts.join("; ")
        }
    }

    fn announcement(&self) -> String {
        let mut body = String::new();
        let _ = writeln!(
            body,
            "<section class=\"intro\">\n<p class=\"event\">{}</p>\n<h1>{}</h1>\n<h2>{}</h2>\n\
             <p>{}</p>\n<p>{}</p>\n<p>{}</p>\n<p>{}</p>\n</section>",
            escape(&self.event()),
            escape(self.text("announcement")),
            escape(self.text("drawn")),
            escape(&self.method_sentence()),
            escape(
                &self
                    .text("candidates")
                    .replace("{n}", &self.draw.candidates.to_string())
                    .replace("{filters}", &self.filters())
            ),
            escape(
                &self
                    .text("rounds_drawn")
                    .replace("{k}", &self.plan.rounds.to_string())
                    .replace("{p}", &self.plan.publish.to_string())
            ),
            escape(self.text("verify")),
        );
        for i in 0..self.plan.publish {
            body.push_str(&self.sheet(i + 1, self.draw.positions[i]));
        }
        for i in self.plan.publish..self.plan.rounds {
            let _ = writeln!(
                body,
                "<section class=\"sealed\"><h2>{}</h2><p>{}</p></section>",
                escape(&self.text("round").replace("{n}", &(i + 1).to_string())),
                escape(self.text("sealed"))
            );
        }
        self.page(
            &format!("{} — {}", self.event(), self.text("announcement")),
            &body,
        )
    }
}

/// The draw record: everything needed to recompute the draw.
fn record(plan: &Plan, result: &Draw, candidates: &[StartPosition]) -> serde_json::Value {
    let (seed, phrase) = match &plan.method {
        DrawMethod::Seed(seed) => (Some(*seed), None),
        DrawMethod::Phrase(phrase) => (None, Some(phrase.clone())),
    };
    let f = &plan.filter;
    json!({
        "kind": "tournament-draw",
        "method": match plan.method { DrawMethod::Seed(_) => "seed", DrawMethod::Phrase(_) => "phrase" },
        "algorithm": plan.method.to_string(),
        "seed": seed,
        "phrase": phrase,
        "filters": plan.filter.to_string(),
        "filter_settings": {
            "exclude": f.exclude.iter().map(|p| p.sp()).collect::<Vec<_>>(),
            "max_undefended": f.max_undefended,
            "max_king_only": f.max_king_only,
            "max_weak": f.max_weak,
            "no_first_move_attack": f.no_first_move_attack,
            "no_first_move_castling": f.no_first_move_castling,
            "only": f.only.as_ref().map(|o| o.label.clone()),
        },
        "candidates": result.candidates,
        "candidate_sps": candidates.iter().map(|p| p.sp()).collect::<Vec<_>>(),
        "rounds": result.positions.iter().enumerate().map(|(i, p)| json!({
            "round": i + 1,
            "sp": p.sp(),
            "placement": p.placement(),
            "xfen": p.to_xfen(),
            "shredder_fen": p.to_shredder_fen(),
        })).collect::<Vec<_>>(),
        "published_rounds": plan.publish,
        "lang": plan.lang.code(),
        "c960_version": env!("CARGO_PKG_VERSION"),
    })
}

/// How anyone recomputes the draw, with Python's standard library (phrase)
/// or the `cryptography` package (seed).
fn verify_md(plan: &Plan, result: &Draw) -> String {
    let drawn: Vec<String> = result
        .positions
        .iter()
        .map(|p| p.sp().to_string())
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Verifying this draw\n\n{} position(s) were drawn by {} from {} candidates \
         (filters: {}).\nDrawn, round 1 first: SP {}.\n\n\
         Every pick takes a 64-bit value `v` from the method's stream, keeps it only if \
         `v < n * floor(2^64 / n)` for the `n` candidates left (so every candidate is equally \
         likely), and removes candidate number `v mod n` from the list, which is in ascending \
         SP order. The candidates are the positions that pass the filters; `c960 positions` \
         lists every position's features, and `draw.json` lists the candidates \
         (`candidate_sps`).\n",
        plan.rounds,
        plan.method,
        result.candidates,
        plan.filter,
        drawn.join(", ")
    );
    let stream = match &plan.method {
        DrawMethod::Phrase(phrase) => format!(
            "The stream is a SHA-256 chain: `h1 = SHA-256(phrase)`, `h(k+1) = SHA-256(hk)`, and \
             `v` is the first 8 bytes of each hash read big-endian. With Python's standard \
             library:\n\n```python\nimport hashlib, json\n\nphrase = {phrase}\n\
             candidates = json.load(open(\"draw.json\"))[\"candidate_sps\"]\nrounds = {rounds}\n\n\
             def values():\n    h = phrase.encode(\"utf-8\")\n    while True:\n        \
             h = hashlib.sha256(h).digest()\n        yield int.from_bytes(h[:8], \"big\")\n",
            phrase = serde_json::to_string(phrase).unwrap_or_default(),
            rounds = plan.rounds
        ),
        DrawMethod::Seed(seed) => format!(
            "The stream is the ChaCha20 keystream (20 rounds, nonce 0, block counter from 0) \
             keyed with the seed as 8 little-endian bytes followed by 24 zero bytes, cut into \
             8-byte little-endian values. With Python and the `cryptography` package:\n\n\
             ```python\nimport json\nfrom cryptography.hazmat.primitives.ciphers import Cipher, algorithms\n\n\
             seed = {seed}\ncandidates = json.load(open(\"draw.json\"))[\"candidate_sps\"]\nrounds = {rounds}\n\n\
             def values():\n    key = seed.to_bytes(8, \"little\") + bytes(24)\n    \
             stream = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()\n    \
             while True:\n        yield int.from_bytes(stream.update(bytes(8)), \"little\")\n",
            rounds = plan.rounds
        ),
    };
    s.push_str(&stream);
    s.push_str(
        "\ndrawn, left = [], list(candidates)\nfor v in values():\n    if len(drawn) == rounds:\n        \
         break\n    n = len(left)\n    if v < n * (2**64 // n):\n        drawn.append(left.pop(v % n))\n\
         print(drawn)\n```\n",
    );
    let _ = writeln!(s, "\nIt prints `[{}]`.", drawn.join(", "));
    if plan.filter == DrawFilter::default()
        && let DrawMethod::Phrase(phrase) = &plan.method
    {
        let _ = writeln!(
            s,
            "\nWithout filters round 1 is simply `int(sha256(phrase)[:8 bytes]) mod 960` (unless \
             that value is rejected, which has probability 960 / 2^64). In a shell:\n\n\
             ```sh\nprintf '%s' {} | sha256sum | cut -c1-16 | python3 -c 'print(int(input(), 16) % 960)'\n```",
            shell_quote(phrase)
        );
    }
    s
}

/// Single-quotes `text` for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Prints `html` to `pdf` with headless Chromium; the PDF appears only once
/// complete.
fn print_pdf(html: &Path, pdf: &Path) -> Result<()> {
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
                html.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if !status.success() || !partial.is_file() {
        let _ = fs::remove_file(&partial);
        bail!("{chromium} could not print {} ({status})", html.display());
    }
    fs::rename(&partial, pdf).with_context(|| format!("cannot write {}", pdf.display()))?;
    Ok(())
}

/// Screen and print styles: each round sheet is one printed page on A4 and
/// on Letter (the content fits the smaller of both, 186 × 255 mm).
const CSS: &str = "body { font-family: 'DejaVu Sans', sans-serif; color: #111; margin: 0 auto; \
max-width: 52rem; padding: 1rem; font-size: 11pt; line-height: 1.35; }
.sheet, .intro, .sealed { margin-bottom: 2rem; }
.sheet header h1 { margin: 0 0 0.2rem; font-size: 20pt; }
.sheet header .sp { font-weight: normal; color: #444; }
.event { margin: 0; color: #555; font-size: 10pt; text-transform: uppercase; letter-spacing: 0.05em; }
.diagram svg.board { display: block; width: min(100%, 110mm); height: auto; margin: 0.4rem auto; }
.diagram text { font-family: 'DejaVu Sans', sans-serif; }
table.facts { border-collapse: collapse; margin: 0.3rem 0; font-size: 9.5pt; }
table.facts th { text-align: left; padding: 0.1rem 0.8rem 0.1rem 0; font-weight: 600; white-space: nowrap; }
table.facts td { padding: 0.1rem 0; word-break: break-all; }
.mono { font-family: 'DejaVu Sans Mono', monospace; }
.note, .general, footer { font-size: 9pt; color: #333; margin: 0.2rem 0; }
h2 { font-size: 12.5pt; margin: 0.5rem 0 0.2rem; }
.castling { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
.rule h3 { font-size: 9.5pt; margin: 0.35rem 0 0.05rem; }
.rule p { font-size: 8.8pt; margin: 0; }
footer { margin-top: 0.4rem; border-top: 1px solid #ccc; padding-top: 0.2rem; }
@media (max-width: 40rem) { .castling { grid-template-columns: 1fr; } }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  .sheet { break-after: page; page-break-after: always; margin: 0; }
  .sheet:last-child { break-after: auto; page-break-after: auto; }
  .intro { break-after: page; page-break-after: always; }
  .sealed { margin: 0 0 0.5rem; }
}
";
