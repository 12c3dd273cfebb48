//! What the kit records about its draw: `draw.json` (the public record,
//! enough to recompute every published round and, with a revealed key, the
//! sealed ones), `VERIFY.md` (how anyone does that with standard tools, in
//! the kit's language) and `SECRET.txt` (the organizer's secret and the
//! sealed rounds' keys).

use std::fmt::Write as _;

use c960_core::{DrawFilter, DrawMethod, Key, SEAL_LABEL};

use super::{
    KitPlan,
    draw_record::{DrawRecord, FilterSettings, MethodName, RoundRecord, SealRecord},
    pages::{Kit, Texts, table},
};

/// The public draw record: method, filters and candidates, the published
/// rounds, and for sealed rounds the scheme and its commitment (never a
/// sealed round's position or key).
pub(crate) fn draw_json(kit: &Kit<'_>) -> DrawRecord {
    let plan = kit.plan;
    let (method, seed, phrase) = MethodName::of(&plan.method);
    DrawRecord {
        kind: "tournament-draw".to_owned(),
        method,
        algorithm: plan.method.to_string(),
        seed,
        phrase,
        filters: plan.filter.to_string(),
        filter_settings: FilterSettings {
            exclude_preset: plan.excluded.preset.clone(),
            exclude_drawn: plan.excluded.drawn.clone(),
            ..FilterSettings::of(&plan.filter)
        },
        balance: plan.balance.clone(),
        candidates: kit.candidates.len(),
        candidate_sps: kit.candidates.iter().map(|p| p.sp()).collect(),
        rounds: kit.positions[..plan.publish]
            .iter()
            .enumerate()
            .map(|(i, p)| RoundRecord::new(i + 1, *p))
            .collect(),
        published_rounds: plan.publish,
        total_rounds: Some(plan.rounds),
        sealed: plan
            .seal
            .as_ref()
            .map(|seal| SealRecord::new(seal.first_round, seal.keys.len(), seal.commitment)),
        lang: plan.lang.code().to_owned(),
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// Text in Markdown's running text: the ASCII punctuation that opens
/// code, emphasis, links, HTML, entities or a heading escaped (so a phrase
/// or file name cannot), other punctuation (`balance.csv`) left as it
/// reads, and line breaks shown as `\n` (so it cannot start a block).
fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\\\n"),
            '\r' => out.push_str("\\\\r"),
            c if c.is_control() => out.push(' '),
            c if "\\`*_[]<>!&#|~$".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A fenced code block around `code`, its fence longer than any run of
/// backticks inside (`CommonMark`), so no phrase can close it early.
fn fenced(info: &str, code: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in code.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}{info}\n{code}\n{fence}\n")
}

/// A Python string literal of `text` (JSON's escapes are Python's).
fn py_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// How anyone recomputes the draw: with Python's standard library (phrase)
/// or the `cryptography` package (seed), and the sealed rounds from a
/// published key.
pub(crate) fn verify_md(kit: &Kit<'_>) -> String {
    let plan = kit.plan;
    let t = kit.texts();
    let published: Vec<String> = kit.positions[..plan.publish]
        .iter()
        .map(|p| p.sp().to_string())
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", t.get("verify_title"));
    let drawn = if plan.seal.is_some() {
        t.get("verify_published")
    } else {
        t.get("verify_drawn")
    };
    let _ = writeln!(
        s,
        "{} {}\n{}\n\n{}\n",
        kit.method_sentence_with(md_text),
        t.count("candidates", kit.candidates.len())
            .replace("{filters}", &kit.filters_with(md_text)),
        drawn.replace("{list}", &published.join(", ")),
        t.get("verify_rule"),
    );
    let (intro, program) = draw_program(kit);
    let _ = writeln!(s, "{intro}\n\n{}", fenced("python", &program));
    let _ = writeln!(
        s,
        "{} {}",
        t.get("verify_prints")
            .replace("{list}", &format!("[{}]", published.join(", "))),
        t.get("verify_c960")
    );
    if plan.filter == DrawFilter::default()
        && let DrawMethod::Phrase(phrase) = &plan.method
    {
        let _ = write!(
            s,
            "\n{}\n\n{}",
            t.get("verify_shell"),
            fenced(
                "sh",
                &format!(
                    "printf '%s' {} | sha256sum | cut -c1-16 | python3 -c 'print(int(input(), 16) % 960)'",
                    shell_quote(phrase)
                )
            )
        );
    }
    if let Some(seal) = &plan.seal {
        sealed_section(&mut s, kit, seal);
    }
    s
}

/// VERIFY.md's program that repeats the draw, with the sentence before it.
fn draw_program(kit: &Kit<'_>) -> (&'static str, String) {
    let plan = kit.plan;
    let t = kit.texts();
    let (intro, stream) = match &plan.method {
        DrawMethod::Phrase(phrase) => (
            t.get("verify_phrase"),
            format!(
                "import hashlib, json\n\nphrase = {}\n\
                 candidates = json.load(open(\"draw.json\"))[\"candidate_sps\"]\nrounds = {}\n\n\
                 def values():\n    h = phrase.encode(\"utf-8\")\n    while True:\n        \
                 h = hashlib.sha256(h).digest()\n        yield int.from_bytes(h[:8], \"big\")\n",
                py_string(phrase),
                plan.publish
            ),
        ),
        DrawMethod::Seed(seed) => (
            t.get("verify_seed"),
            format!(
                "import json\nfrom cryptography.hazmat.primitives.ciphers import Cipher, algorithms\n\n\
                 seed = {seed}\ncandidates = json.load(open(\"draw.json\"))[\"candidate_sps\"]\nrounds = {}\n\n\
                 def values():\n    key = seed.to_bytes(8, \"little\") + bytes(24)\n    \
                 stream = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()\n    \
                 while True:\n        yield int.from_bytes(stream.update(bytes(8)), \"little\")\n",
                plan.publish
            ),
        ),
    };
    let program = format!(
        "{stream}\ndrawn, left = [], list(candidates)\nfor v in values():\n    if len(drawn) == rounds:\n        \
         break\n    n = len(left)\n    if v < n * (2**64 // n):\n        drawn.append(left.pop(v % n))\n\
         print(drawn)"
    );
    (intro, program)
}

/// VERIFY.md's section on the sealed rounds.
fn sealed_section(s: &mut String, kit: &Kit<'_>, seal: &c960_core::Seal) {
    let plan = kit.plan;
    let t = kit.texts();
    let one = seal.keys.len() == 1;
    let how = if one {
        t.get("sealed_how_one")
    } else {
        t.get("sealed_how")
    };
    let _ = writeln!(
        s,
        "\n## {}\n\n{}\n\n{}\n\n{}\n\n{}\n{}",
        t.get("sealed_title"),
        how.replace("{a}", &seal.first_round.to_string())
            .replace("{b}", &plan.rounds.to_string())
            .replace("{commitment}", &seal.commitment.to_string()),
        t.get("sealed_check"),
        t.get("sealed_draw"),
        fenced("python", &sealed_program(t.get("not_a_key"))),
        t.get("sealed_c960"),
    );
}

/// The program of VERIFY.md that opens sealed rounds with a key.
fn sealed_program(not_a_key: &str) -> String {
    format!(
        "import hashlib, json, sys\n\n\
         record = json.load(open(\"draw.json\"))\n\
         seal = record[\"sealed\"]\n\
         keys = [bytes.fromhex(sys.argv[1])]\n\
         while hashlib.sha256(keys[0]).hexdigest() != seal[\"commitment\"]:\n    \
         if len(keys) == seal[\"rounds\"]:\n        sys.exit({})\n    \
         keys.insert(0, hashlib.sha256(keys[0]).digest())\n\n\
         drawn = [r[\"sp\"] for r in record[\"rounds\"]]\n\
         left = [sp for sp in record[\"candidate_sps\"] if sp not in drawn]\n\
         for key in keys:\n    \
         h = hashlib.sha256({} + key).digest()\n    \
         while True:\n        \
         v = int.from_bytes(h[:8], \"big\")\n        \
         n = len(left)\n        \
         if v < n * (2**64 // n):\n            \
         drawn.append(left.pop(v % n))\n            \
         break\n        \
         h = hashlib.sha256(h).digest()\n\
         print(drawn)",
        py_string(not_a_key),
        format_args!("b{}", py_string(SEAL_LABEL)),
    )
}

/// Single-quotes `text` for a POSIX shell.
fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,".contains(&b))
    {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The organizer's secret file: the secret, the fingerprint, each sealed
/// round's key with when to publish it, and the command that makes the
/// same kit again.
pub(crate) fn secret_txt(plan: &KitPlan, secret: Key) -> String {
    let t = Texts(plan.lang);
    let Some(seal) = &plan.seal else {
        return String::new();
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}\n\n{}\n\n{}: {secret}\n{}: {}\n",
        t.get("secret_title"),
        t.get("secret_what"),
        t.get("secret_label"),
        t.get("fingerprint_label"),
        seal.commitment
    );
    for (i, key) in seal.keys.iter().enumerate() {
        let _ = writeln!(
            s,
            "{}: {key}",
            t.get("secret_round")
                .replace("{n}", &(seal.first_round + i).to_string())
        );
    }
    let _ = writeln!(
        s,
        "\n{}\n\n{}",
        t.get("secret_after"),
        t.get("secret_remake")
            .replace("{secret}", &secret.to_string())
    );
    s
}

/// The secret a kit's `SECRET.txt` holds, in any of the kit languages.
pub fn secret_of(text: &str) -> Option<Key> {
    let labels = table().every("secret_label");
    text.lines().find_map(|line| {
        let (label, value) = line.split_once(": ")?;
        labels
            .contains(&label.trim())
            .then(|| value.parse().ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_any_backticks_inside() {
        assert_eq!(fenced("sh", "echo"), "```sh\necho\n```\n");
        assert_eq!(fenced("", "a ```` b"), "`````\na ```` b\n`````\n");
    }

    #[test]
    fn markdown_text_cannot_open_code_or_blocks() {
        assert_eq!(md_text("a```b"), "a\\`\\`\\`b");
        assert_eq!(md_text("x\n# y"), "x\\\\n\\# y");
    }
}
