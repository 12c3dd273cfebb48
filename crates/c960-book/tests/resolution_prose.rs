//! The resolution measurement's final comparison is also written by hand,
//! in docs/books.md ("Why the book is not called better") and in
//! data/books/README.md: every figure written there must be what the table
//! and the committed journals give.

mod common;

use std::fs;

use common::{
    BOOK, CP_EXITS, REFERENCES, Row, against, at_budget, compared, counts, difference, journal_dir,
    journal_rows, journaled, kind, nelo_of, number, page, pairs_left, root, signed, table,
};

/// Text with its whitespace runs as single spaces (prose wraps its lines).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of docs/books.md between two headings, flattened.
fn between(start: &str, end: &str) -> String {
    let page = page();
    flat(
        page.split_once(start)
            .and_then(|(_, rest)| rest.split_once(end))
            .unwrap_or_else(|| panic!("docs/books.md has {start} and then {end}"))
            .0,
    )
}

/// "Why the book is not called better", flattened.
fn why() -> String {
    between(
        "**Why the book is not called better.**",
        "**The pace, and the budget.**",
    )
}

/// data/books/README.md, flattened.
fn readme() -> String {
    flat(&fs::read_to_string(root().join("data/books/README.md")).expect("data/books/README.md"))
}

/// The page's introduction to exit books, flattened.
fn intro() -> String {
    between("## Exit books", "**How they are made.**")
}

/// Once the compared books have their pairs, the final comparison is also
/// written by hand: in "Why the book is not called better", in the page's
/// introduction to exit books and in data/books/README.md. Their figures
/// must be the table's.
#[test]
fn the_final_comparison_is_quoted_where_it_is_written_by_hand() {
    let rows = table();
    let (book, refs) = compared(&rows);
    if pairs_left([book, refs[0], refs[1]]) > 0 {
        return; // Not final yet: the generated standing alone speaks.
    }
    let why = why();
    let readme = readme();
    let mut in_why = Vec::new();
    for reference in refs {
        let (d, low, high) = difference(book, reference);
        let (d, low, high) = (format!("{:.1}", d.abs()), signed(low), signed(high));
        assert!(
            readme.contains(&format!("by {d} [{low}, {high}]")),
            "data/books/README.md does not quote {} {d} [{low}, {high}]",
            reference["book"]
        );
        in_why.extend([format!("by {d}"), format!("[{low}, {high}]")]);
    }
    let drawn = format!(
        "({:.1} % of their games drawn)",
        number(refs[0], "draw_rate")
    );
    assert!(
        readme.contains(&drawn),
        "data/books/README.md lacks the table's {drawn}"
    );
    let intro = intro();
    let (d, low, high) = difference(book, refs[0]);
    let lead = format!("by {d:.1} [{}, {}]", signed(low), signed(high));
    for text in [&drawn, &lead] {
        assert!(
            intro.contains(text.as_str()),
            "the page's introduction to exit books lacks the table's {text}"
        );
    }
    let gap = number(refs[0], "nelo_high") - number(book, "nelo_low");
    let overlap = number(refs[1], "nelo_high") - number(book, "nelo_low");
    in_why.extend([
        format!("lies {gap:.1} below"),
        format!("overlap by {overlap:.1}"),
    ]);
    for text in in_why {
        assert!(
            why.contains(&text),
            "\"Why the book is not called better\" lacks the table's {text}"
        );
    }
}

/// The cp window's exits lie outside the acceptance, but once they and the
/// compared books have their pairs, the page and data/books/README.md put
/// them to the acceptance's test by hand too: the figures must be the
/// table's, and the words must follow the test's outcome.
#[test]
fn the_cp_exits_are_quoted_once_they_have_their_pairs() {
    let rows = table();
    let (book, refs) = compared(&rows);
    let cp = journaled(&rows, CP_EXITS);
    if pairs_left([book, refs[0], refs[1], cp]) > 0 {
        return; // Not final yet: the generated standing alone speaks.
    }
    let estimate = format!(
        "{} [{}, {}] over their 800 pairs",
        cp["nelo"], cp["nelo_low"], cp["nelo_high"]
    );
    let lead = |reference: &Row| {
        let (d, low, high) = difference(cp, reference);
        format!("by {d:.1} [{}, {}]", signed(low), signed(high))
    };
    let (_, gap, lies) = against(cp, refs);
    let outcome = if gap > 0.0 {
        "they resolve more than"
    } else {
        "they are not shown to resolve more than"
    };
    // "The highest nElo of the Chess960 books": DFRC_4852_v1, a DFRC
    // reference point, is not one of them.
    let highest_of_chess960 = rows
        .iter()
        .filter(|r| at_budget(r) && !r["book"].starts_with("DFRC"))
        .all(|r| number(r, "nelo") <= number(cp, "nelo"));
    assert!(
        highest_of_chess960,
        "the page calls the cp exits' nElo the highest of the Chess960 books"
    );
    let (starts_lead, highest) = (lead(refs[0]), "the highest nElo of the Chess960 books");
    let said = [
        estimate.as_str(),
        &format!("({} % of their games drawn", cp["draw_rate"]),
        &starts_lead,
        &lead(refs[1]),
        &lies,
        outcome,
        highest,
    ];
    let why = why();
    for text in said {
        assert!(
            why.contains(text),
            "\"Why the book is not called better\" lacks the cp exits' {text}"
        );
    }
    assert!(
        intro().contains(&format!("cp exits {starts_lead}")),
        "the page's introduction to exit books lacks the cp exits' {starts_lead}"
    );
    let readme = readme();
    for text in [estimate.as_str(), &starts_lead, outcome, highest] {
        assert!(
            readme.contains(text),
            "data/books/README.md lacks the cp exits' {text}"
        );
    }
}

/// A journal's pairs at the calibrated budget.
fn pairs_of(book: &str) -> Vec<Row> {
    journal_rows(&journal_dir().join(format!("{book}.csv")))
}

/// The nElo of some pairs.
fn nelo(pairs: &[Row]) -> f64 {
    nelo_of(counts(pairs).0).value
}

/// "a, b, c and d".
fn listed(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => items.join(""),
    }
}

/// The book's lead over the starts as the pairs came in, and what became
/// of the pairs of two draws the book removes, as the page tells them.
#[test]
fn the_history_and_the_kinds_of_pairs_are_the_journals() {
    let rows = table();
    let (book, refs) = compared(&rows);
    if pairs_left([book, refs[0], refs[1]]) > 0 {
        return; // Not final yet.
    }
    let (ours, starts) = (pairs_of(BOOK), pairs_of(REFERENCES[0]));
    let lead = |n: usize| nelo(&ours[..n]) - nelo(&starts[..n]);
    let blocks = |pairs: &[Row]| -> Vec<String> {
        pairs
            .chunks(200)
            .map(|c| format!("{:.0}", nelo(c)))
            .collect()
    };
    // 1.96 · (800 / ln 10) / √(2 · n): one book's half-width over n pairs;
    // the difference of two books' is √2 times as wide.
    let half = |n: u32| 1.96 * 800.0 / std::f64::consts::LN_10 / (2.0 * f64::from(n)).sqrt();
    let block_half = half(200);
    // The lead at every 10 pairs from 100 on: its lowest and its highest.
    let looks: Vec<(f64, u32)> = (100..=800u32)
        .step_by(10)
        .map(|n| (lead(n as usize), n))
        .collect();
    let (low, at_low) = looks
        .iter()
        .copied()
        .fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a });
    let (high, at_high) = looks
        .iter()
        .copied()
        .fold((f64::MIN, 0), |a, b| if b.0 > a.0 { b } else { a });
    assert!(
        low + half(at_low) * 2f64.sqrt() < 0.0,
        "the look at {at_low} pairs no longer excludes zero"
    );
    // Pairs of two draws and colour-decided pairs both score 1 of 2.
    let split = |pairs: &[Row]| -> [i64; 6] {
        let mut n = [0i64; 6]; // LL, LD, two draws, colour-decided, WD, WW
        for pair in pairs {
            let k = kind(pair);
            let slot = match k {
                2 if pair["a_white_result"] != "1/2-1/2" => 3,
                0..=2 => k,
                _ => k + 1,
            };
            n[slot] += 1;
        }
        n
    };
    let (b, s) = (split(&ours), split(&starts));
    let removed = s[2] - b[2];
    let decided = b[3] - s[3];
    // "About half": 40 to 60 %.
    assert!(
        (4 * removed..=6 * removed).contains(&(10 * decided)),
        "not about half"
    );
    let said = [
        format!(
            "ranged from {} nElo (at {at_low} pairs) to {} (at {at_high})",
            signed(low),
            signed(high)
        ),
        format!("a look at {at_low} pairs alone would have called the book worse"),
        format!("known to about ±{block_half:.0}"),
        format!(
            "the starts scored {} nElo block by block",
            listed(&blocks(&starts))
        ),
        format!("the book {}.", listed(&blocks(&ours))),
        format!(
            "{removed} fewer pairs of two draws ({} against {} of 800)",
            b[2], s[2]
        ),
        format!(
            "About half of them, {decided}, come back as colour-decided pairs ({} against {})",
            b[3], s[3]
        ),
        format!(
            "The other {} become {} more pairs A wins ({} more at 1½–½, {} more at 2–0) and {} more it loses ({} at ½–1½, {} at 0–2)",
            removed - decided,
            b[4] + b[5] - s[4] - s[5],
            b[4] - s[4],
            b[5] - s[5],
            b[0] + b[1] - s[0] - s[1],
            b[1] - s[1],
            b[0] - s[0]
        ),
        format!(
            "the nElo they add, {:.1},",
            number(book, "nelo") - number(refs[0], "nelo")
        ),
    ];
    let why = why();
    for text in said {
        assert!(
            why.contains(&text),
            "\"Why the book is not called better\" lacks the journals' {text}"
        );
    }
}
