//! The kit's languages and paper: what a balance filter means, in each
//! language of the kit; no English in the new filters' words; console
//! output in the kit's language; every sheet on one printed page.

use crate::util;

use util::Dir;

use super::{rows, sha256, table};
use crate::tournament_language::{english_words, prose};

/// `--verdict balanced` in the announcement says what balanced means
/// (within the table's band around the average position) and names the
/// table with its SHA-256, in every language of the kit.
#[test]
fn the_announcement_says_what_the_balance_filter_means_in_every_kit_language() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    let csv_arg = csv.display().to_string();
    let sha = sha256(&csv);
    for (lang, meaning) in [
        ("en", "within the table's band around the average position"),
        (
            "de",
            "im Band der Tabelle um die durchschnittliche Stellung",
        ),
        (
            "nl",
            "binnen de band van de tabel rond de gemiddelde stelling",
        ),
        ("tr", "ortalama konum çevresindeki bandının içindedir"),
    ] {
        let out = format!("kit-{lang}");
        dir.ok(&[
            "tournament",
            "--seed",
            "2",
            "--rounds",
            "2",
            "--verdict",
            "balanced",
            "--balance",
            &csv_arg,
            "--lang",
            lang,
            "--out",
            &out,
        ]);
        for file in ["announcement.html", "VERIFY.md"] {
            let text = std::fs::read_to_string(dir.file(&format!("{out}/{file}"))).unwrap();
            assert!(text.contains(meaning), "{lang} {file}: {text}");
            assert!(text.contains("±10 cp"), "{lang} {file}");
            assert!(text.contains(&sha), "{lang} {file}");
        }
    }
}

/// `c960 draw --lang` prints in the kit's languages.
#[test]
fn draw_prints_in_the_kit_language() {
    let dir = Dir::new();
    // The draw's console output in the kit's languages.
    let tr = dir.ok(&["draw", "--seed", "1", "--rounds", "2", "--lang", "tr"]);
    assert!(tr.contains("2. tur") && tr.contains("çekiliş"), "{tr}");
    let nl = dir.ok(&[
        "draw",
        "--seed",
        "1",
        "--exclude-preset",
        "freestyle",
        "--lang",
        "nl",
    ]);
    assert!(
        nl.contains("ronde 1") && nl.contains("Freestyle-toernooien"),
        "{nl}"
    );
}

/// Every round sheet prints on one page, in German and Turkish, on A4
/// and Letter: a kit of the positions with the longest castling rules in
/// these languages and a long title, printed by headless Chromium, has as
/// many PDF pages as sheets.
#[test]
fn every_sheet_prints_on_one_page_in_german_and_turkish_on_a4_and_letter() {
    let dir = Dir::new();
    // Leaves SP 710, 713, 717, 725, 746 and 750.
    let exclude = "0-709,711,712,714-716,718-724,726-745,747-749,751-959";
    for lang in ["de", "tr"] {
        for paper in ["a4", "letter"] {
            let out = format!("kit-{lang}-{paper}");
            dir.ok(&[
                "tournament",
                "--seed",
                "1",
                "--rounds",
                "6",
                "--exclude",
                exclude,
                "--title",
                "Offene Vereinsmeisterschaft im Chess960 des Schachklubs \
                 Musterstadt-Unterrheinhausen 2026",
                "--lang",
                lang,
                "--paper",
                paper,
                "--out",
                &out,
                "--pdf",
            ]);
            let html = std::fs::read_to_string(dir.file(&format!("{out}/kit.html"))).unwrap();
            let sheets = html.matches("<section class=\"sheet\"").count();
            assert_eq!(sheets, 6);
            let pages = crate::tournament::pdf_pages(&dir.file(&format!("{out}/kit.pdf")));
            assert_eq!(
                pages, sheets,
                "{lang} on {paper}: {pages} pages for {sheets} sheets"
            );
        }
    }
}

/// The words of the new filters (what `--fairest`, `--within`,
/// `--exclude-preset` and `--exclude-drawn` keep, and the meaning of a
/// verdict) hold no English sentence in the German, Dutch and Turkish kits.
#[test]
fn the_new_filters_hold_no_english_sentence_in_german_dutch_turkish() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    let csv_arg = csv.display().to_string();
    dir.ok(&[
        "tournament",
        "--seed",
        "3",
        "--rounds",
        "1",
        "--out",
        "earlier",
    ]);
    for lang in ["de", "nl", "tr"] {
        for (i, filter) in [
            vec!["--fairest", "3", "--reference", "equal"],
            vec!["--within", "15", "--reference", "typical"],
            vec!["--verdict", "unresolved"],
        ]
        .into_iter()
        .enumerate()
        {
            let out = format!("kit-{lang}-{i}");
            let mut args = vec![
                "tournament",
                "--seed",
                "5",
                "--rounds",
                "1",
                "--exclude-preset",
                "freestyle",
                "--exclude-drawn",
                "earlier/draw.json",
                "--balance",
                &csv_arg,
                "--lang",
                lang,
                "--out",
                &out,
            ];
            args.extend(filter);
            let stdout = dir.ok(&args);
            for (name, text) in [
                (
                    "announcement.html",
                    std::fs::read_to_string(dir.file(&format!("{out}/announcement.html"))).unwrap(),
                ),
                (
                    "VERIFY.md",
                    std::fs::read_to_string(dir.file(&format!("{out}/VERIFY.md"))).unwrap(),
                ),
                // The list of file names aside.
                (
                    "stdout.txt",
                    stdout
                        .lines()
                        .filter(|l| !l.contains(".html"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
            ] {
                let words: Vec<String> = prose(name, &text)
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .map(str::to_lowercase)
                    .collect();
                for english in english_words(lang) {
                    assert!(
                        !words.iter().any(|w| w == english),
                        "{lang} {name}: English {english:?} in\n{}",
                        prose(name, &text)
                    );
                }
            }
        }
    }
}
