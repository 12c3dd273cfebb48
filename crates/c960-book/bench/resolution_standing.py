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
# build of the same engine").
PACE = 25


def number(x):
    """A count with thousands separated by commas, as the page writes them."""
    return f"{x:,}"


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
    """The paragraph, or None when the budget lacks a compared book."""
    at = {r["book"]: r for r in rows if r["budget"] == BUDGET and r["source"].startswith("journal ")}
    if BOOK not in at or any(ref not in at for ref in REFERENCES):
        return None
    book, starts = at[BOOK], at[STARTS]
    refs = [at[ref] for ref in REFERENCES]
    compared = [book, *refs]
    left = sum(max(0, TARGET_PAIRS - int(r["pairs"])) for r in compared)
    done = left == 0
    parts = [f"**Where it stands** (recomputed from the journals with the table below):", f"At `{BUDGET}` "
             f"the starts draw {starts['draw_rate']} % of their games (the calibration asks at least "
             f"55 %: {holds(float(starts['draw_rate']) >= 55)}) and `{BOOK}` {book['draw_rate']} % "
             f"(the book aims at 40–60 %: {holds(40 <= float(book['draw_rate']) <= 60)})."]
    parts.append(f"The book's nElo is {nelo(book)} over {book['pairs']} pairs; "
                 + "; ".join(f"`{r['book']}`'s {nelo(r)} over {r['pairs']}" for r in refs) + ".")
    differences = []
    for ref in refs:
        d, low, high = difference(book, ref)
        differences.append(f"`{ref['book']}` {signed(d)} [{signed(low)}, {signed(high)}]")
    parts.append("The book's nElo minus each reference's, with the difference's 95 % interval: "
                 + "; ".join(differences) + ".")
    highest = max(refs, key=lambda r: float(r["nelo_high"]))
    gap = float(book["nelo_low"]) - float(highest["nelo_high"])
    better = gap > 0
    parts.append(f"The acceptance asks the book's `nelo_low` ({book['nelo_low']}) to lie above both "
                 f"references' `nelo_high` ("
                 + " and ".join(r["nelo_high"] for r in refs)
                 + f"): it lies {abs(gap):.1f} {'above' if better else 'below'} the higher, `{highest['book']}`'s, "
                 + ("so the book resolves more than both" if better and done
                    else "so the book is not called better" if not better
                    else "but the book is not called better before every book has its pairs") + ".")
    mean_move = "raises" if float(book["pair_score"]) > float(starts["pair_score"]) else "does not raise"
    spread_move = "widens" if float(book["pair_sd"]) > float(starts["pair_sd"]) else "does not widen"

    def lopsided(r):
        return 100 * (int(r["ll"]) + int(r["ww"])) / int(r["pairs"])
    parts.append(f"Against the starts, the book {mean_move} engine A's mean score per pair "
                 f"({book['pair_score']} % against {starts['pair_score']} %) and {spread_move} the pairs' "
                 f"spread ({book['pair_sd']} against {starts['pair_sd']}); colour-decided pairs are "
                 f"{book['colour_decided_rate']} % of its pairs against {starts['colour_decided_rate']} %, "
                 f"2–0 and 0–2 pairs {lopsided(book):.1f} % against {lopsided(starts):.1f} %.")
    others = sorted((r for r in at.values() if r not in compared and r["nelo"]),
                    key=lambda r: -float(r["nelo"]))
    if others:
        parts.append("Outside the acceptance, at the same budget: "
                     + "; ".join(f"`{r['book']}` {nelo(r)} over {r['pairs']} pairs" for r in others) + ".")
    if done:
        parts.append(f"Every compared book has its {number(TARGET_PAIRS)} pairs: the measurement is complete.")
    else:
        parts.append("Pairs so far: " + ", ".join(f"{r['pairs']} of `{r['book']}`" for r in compared)
                     + f". The run stops at {number(TARGET_PAIRS)} pairs of every book whatever these interim "
                     f"figures show, so looking at them does not change the final comparison's error rate. "
                     f"The {number(left)} pairs left take about {left * PACE / 3600:.1f} core-hours "
                     f"at {PACE} core-seconds a pair.")
    return parts[0] + "\n\n" + "".join(f"- {part}\n" for part in parts[1:])
