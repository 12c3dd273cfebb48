"""Where the resolution measurement stands against its acceptance, in
words, from the rows of the resolution table (docs/books.md, "Resolution
at high draw rates").

The acceptance: at the calibrated budget, with at least TARGET_PAIRS game
pairs of every compared book, the starts draw at least 55 % of their
games, the book 40-60 %, and the book's nElo interval lies wholly above
both references' intervals (its `nelo_low` above their `nelo_high`).
"""

import math

BUDGET = "sf15.1-160k-vs-80k"
BOOK = "c960_FRC_4852"
STARTS = "c960_FRC_starts"
REFERENCES = (STARTS, "3moves_FRC")
TARGET_PAIRS = 800
# Core-seconds a game pair takes at BUDGET with the AVX2 build of
# Stockfish 15.1, two games at once on two cores (docs/books.md, "A faster
# build of the same engine"): 25 over the three compared books, 27 to 30
# over the cp window's exits, whose chunks of 10 pairs took a median 151 s
# beside builds and tests on 2026-11-29. The higher is the safer estimate.
PACE = 28


def number(x):
    """A count with thousands separated by commas, as the page writes them."""
    return f"{x:,}"


def pairs_left(rows):
    """The pairs ROWS still need to reach TARGET_PAIRS."""
    return sum(max(0, TARGET_PAIRS - int(r["pairs"])) for r in rows)


def core_hours(pairs):
    """The core-hours PAIRS game pairs take at PACE, as the page writes them."""
    return f"{pairs * PACE / 3600:.1f}"


def nelo(row):
    return f"{row['nelo']} [{row['nelo_low']}, {row['nelo_high']}]"


def difference(a, b):
    """a's nElo minus b's with its 95 % interval: the two books' games are
    independent, so the standard errors, and with them the intervals'
    half-widths, add in quadrature."""
    def half_width(row):
        return (float(row["nelo_high"]) - float(row["nelo_low"])) / 2
    d = float(a["nelo"]) - float(b["nelo"])
    half = math.hypot(half_width(a), half_width(b))
    return d, d - half, d + half


def signed(x):
    return f"{x:+.1f}".replace("-", "−")


def holds(ok):
    return "it holds" if ok else "it does **not** hold"


def standing(rows):
    """The list, or a sentence naming the compared books that have no
    journaled pairs yet."""
    at = {r["book"]: r for r in rows if r["budget"] == BUDGET and r["source"].startswith("journal ")}
    missing = [name for name in (BOOK, *REFERENCES) if name not in at]
    if missing:
        return (f"Not every compared book has journaled pairs at `{BUDGET}` yet (none for "
                + ", ".join(f"`{name}`" for name in missing) + ").\n")
    book, starts = at[BOOK], at[STARTS]
    refs = [at[ref] for ref in REFERENCES]
    compared = [book, *refs]
    left = pairs_left(compared)
    done = left == 0
    starts_ok = float(starts["draw_rate"]) >= 55
    book_ok = 40 <= float(book["draw_rate"]) <= 60
    parts = ["**Where it stands** (recomputed from the journals with the table below):", f"At `{BUDGET}` "
             f"the starts draw {starts['draw_rate']} % of their games (the calibration asks at least "
             f"55 %: {holds(starts_ok)}) and `{BOOK}` {book['draw_rate']} % "
             f"(the acceptance asks it for 40–60 %: {holds(book_ok)})."]
    parts.append(f"The book's nElo is {nelo(book)} over {book['pairs']} pairs; "
                 + "; ".join(f"`{r['book']}`'s {nelo(r)} over {r['pairs']}" for r in refs) + ".")
    undefined = [r["book"] for r in compared if not r["nelo"]]
    if undefined:
        # nElo is undefined when every pair scored alike: nothing to compare.
        parts.append("The acceptance cannot be judged while the nElo of "
                     + ", ".join(f"`{name}`" for name in undefined)
                     + " is undefined, so the book is not called better.")
    else:
        parts.extend(verdict(book, refs, done, starts_ok and book_ok))
    parts.extend(spread(book, starts))
    outside = sorted((r for r in at.values() if r not in compared), key=lambda r: r["book"])
    others = sorted((r for r in outside if r["nelo"]), key=lambda r: -float(r["nelo"]))
    if others:
        parts.append("Outside the acceptance, at the same budget: "
                     + "; ".join(f"`{r['book']}` {nelo(r)} over {r['pairs']} pairs" for r in others) + ".")
    if done:
        parts.append(f"Every compared book has its {number(TARGET_PAIRS)} pairs: the comparison is final.")
    else:
        parts.append("Pairs so far: " + ", ".join(f"{r['pairs']} of `{r['book']}`" for r in compared)
                     + f". The run stops at {number(TARGET_PAIRS)} pairs of every book whatever these interim "
                     f"figures show, so looking at them does not change the final comparison's error rate. "
                     f"The {number(left)} pairs left take about {core_hours(left)} core-hours "
                     f"at {PACE} core-seconds a pair.")
    for row in outside:
        if done and int(row["pairs"]) >= TARGET_PAIRS and row["nelo"]:
            parts.extend(beside(row, refs))
    behind = [r for r in outside if int(r["pairs"]) < TARGET_PAIRS]
    if behind:
        rest = pairs_left(behind)
        parts.append("Of the books outside the acceptance, "
                     + " and ".join(f"`{r['book']}` has {r['pairs']}" for r in behind)
                     + f" of {'its' if len(behind) == 1 else 'their'} {number(TARGET_PAIRS)} pairs: "
                     f"{number(rest)} pairs are left to play, about {core_hours(rest)} core-hours.")
    return parts[0] + "\n\n" + "".join(f"- {part}\n" for part in parts[1:])


def against(row, refs):
    """ROW's nElo minus each reference's with the difference's interval, in
    words; the reference with the higher `nelo_high`; how far ROW's
    `nelo_low` lies above it (below when negative); and that distance in
    words, "lies X above" or "lies X below"."""
    differences = []
    for ref in refs:
        d, low, high = difference(row, ref)
        differences.append(f"`{ref['book']}` {signed(d)} [{signed(low)}, {signed(high)}]")
    highest = max(refs, key=lambda r: float(r["nelo_high"]))
    gap = float(row["nelo_low"]) - float(highest["nelo_high"])
    lies = f"lies {abs(gap):.1f} {'above' if gap > 0 else 'below'}"
    return "; ".join(differences), highest, gap, lies


def beside(row, refs):
    """A book outside the acceptance that has its pairs, put to the
    acceptance's test of intervals beside the complete references (the
    draw-rate condition is the book's own, so it is not asked here)."""
    differences, highest, gap, lies = against(row, refs)
    if gap > 0:
        outcome = "its interval lies wholly above both references' and by that test it resolves more than both"
    else:
        outcome = "its interval overlaps that reference's and by that test it is not shown to resolve more than both"
    return [f"`{row['book']}` has {row['pairs']} pairs ({row['draw_rate']} % of its games drawn); "
            f"its nElo minus each reference's: {differences}. Put to the acceptance's test, its `nelo_low` "
            f"({row['nelo_low']}) {lies} the higher "
            f"`nelo_high`, `{highest['book']}`'s, so {outcome}."]


def verdict(book, refs, done, draw_rates_hold):
    """The differences from the references and the acceptance's verdict."""
    differences, highest, gap, lies = against(book, refs)
    if gap <= 0:
        outcome = "so the book is not called better"
    elif not draw_rates_hold:
        outcome = "but a draw rate above misses its condition, so the book is not called better"
    elif not done:
        outcome = "but the book is not called better before every book has its pairs"
    else:
        outcome = "so the book resolves more than both: the acceptance holds"
    return ["The book's nElo minus each reference's, with the difference's 95 % interval: "
            + differences + ".",
            f"The acceptance asks the book's `nelo_low` ({book['nelo_low']}) to lie above both "
            "references' `nelo_high` (" + " and ".join(r["nelo_high"] for r in refs)
            + f"): it {lies} the higher, "
            f"`{highest['book']}`'s, {outcome}."]


def spread(book, starts):
    """How the book moves engine A's pair score against the starts."""
    mean_move = "raises" if float(book["pair_score"]) > float(starts["pair_score"]) else "does not raise"
    spread_move = "widens" if float(book["pair_sd"]) > float(starts["pair_sd"]) else "does not widen"

    def lopsided(r):
        return 100 * (int(r["ll"]) + int(r["ww"])) / int(r["pairs"])
    return [f"Against the starts, the book {mean_move} engine A's mean score per pair "
            f"({book['pair_score']} % against {starts['pair_score']} %) and {spread_move} the pairs' "
            f"spread ({book['pair_sd']} against {starts['pair_sd']}); colour-decided pairs are "
            f"{book['colour_decided_rate']} % of its pairs against {starts['colour_decided_rate']} %, "
            f"2–0 and 0–2 pairs {lopsided(book):.1f} % against {lopsided(starts):.1f} %."]
