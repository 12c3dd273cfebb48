"""The resolution table of the opening books from their game-pair journals.

resolution_table.py PENTANOMIAL RESOLUTION_DIR OUT_CSV [CHART [PAGE]]
    Reads every journal RESOLUTION_DIR/BUDGET/BOOK.csv (journal.py's
    format) and the fixed rows of RESOLUTION_DIR/fixed.csv (measurements
    kept as pentanomial counts and a draw rate, such as the fast budget's), computes for each book and
    budget the pentanomial statistics with c960's own code (the PENTANOMIAL
    program: Elo, normalized Elo per game pair, normalized game-pair Elo
    and the pairs ratio, with 95 % intervals; engine A's mean score per
    pair and its standard deviation), and writes one row per book
    and budget to OUT_CSV (atomically). With CHART, also draws nElo with
    its interval per book and budget (SVG). Prints the table as markdown;
    with PAGE (a markdown file), also writes the journals' rows of that
    table between its lines `<!-- resolution table -->` and
    `<!-- end resolution table -->`, and where the measurement stands
    against its acceptance (resolution_standing.py) between
    `<!-- resolution standing -->` and `<!-- end resolution standing -->`
    (atomically, both or neither).
"""

import csv
import glob
import json
import math
import os
import subprocess
import sys

from atomic import replacing
from resolution_standing import standing

COLUMNS = ["book", "budget", "pairs", "games", "draw_rate", "pair_draw_rate",
           "colour_decided_rate", "white_score", "elo", "elo_low", "elo_high",
           "nelo", "nelo_low", "nelo_high", "ngpelo", "ngpelo_low", "ngpelo_high",
           "pairs_ratio", "pair_score", "pair_sd", "ll", "ld", "dd_wl", "wd", "ww", "source"]
POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)


def pair_spread(penta):
    """Engine A's mean score per game pair and its standard deviation over
    the pairs: nElo is (mean - 1/2) / (sqrt(2) * sd) * 800 / ln 10, so the
    two say whether a book resolves more by moving the mean or by
    narrowing the spread."""
    pairs = sum(penta)
    mean = sum(n * x for n, x in zip(penta, POINTS)) / pairs
    variance = sum(n * (x - mean) ** 2 for n, x in zip(penta, POINTS)) / pairs
    return mean, variance ** 0.5
INDEX = {0.0: 0, 0.5: 1, 1.0: 2, 1.5: 3, 2.0: 4}


def journal_counts(path):
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
        if not first.startswith("#"):
            raise SystemExit(f"resolution_table: {path} is not a game-pair journal")
        rows = list(csv.DictReader(handle))
    penta = [0] * 5
    wins = draws = losses = white_points = colour_decided = 0
    for row in rows:
        penta[INDEX[float(row["a_points"])]] += 1
        for result, a_is_white in ((row["a_white_result"], True), (row["a_black_result"], False)):
            if result == "1/2-1/2":
                draws += 1
                white_points += 0.5
            elif (result == "1-0") == a_is_white:
                wins += 1
                white_points += result == "1-0"
            else:
                losses += 1
                white_points += result == "1-0"
        if row["a_white_result"] == row["a_black_result"] and row["a_white_result"] != "1/2-1/2":
            colour_decided += 1
    return penta, wins, draws, losses, white_points, colour_decided, len(rows)


def stats(program, penta, wins, draws, losses):
    out = subprocess.run([program, *map(str, penta), str(wins), str(draws), str(losses)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def fmt(x, digits=1):
    return "" if x is None else f"{x:.{digits}f}"


def row_of(book, budget, penta, wins, draws, losses, white_points, colour_decided, source, program,
           draw_rate=None):
    pairs = sum(penta)
    games = 2 * pairs
    s = stats(program, penta, wins, draws, losses)
    elo, nelo, ngp = s["elo"], s["normalized_elo"], s["game_pair_elo"]
    mean, sd = pair_spread(penta)
    if nelo and sd > 0:
        implied = (mean - 0.5) / (2 ** 0.5 * sd) * 800 / math.log(10)
        if abs(implied - nelo["value"]) > 0.05:
            raise SystemExit(f"resolution_table: {book} at {budget}: the pairs' mean and spread give "
                             f"nElo {implied:.2f}, c960's statistics {nelo['value']:.2f}")
    return {
        "book": book, "budget": budget, "pairs": pairs, "games": games,
        "draw_rate": fmt(100 * draws / games if draw_rate is None else draw_rate), "pair_draw_rate": fmt(100 * penta[2] / pairs),
        "colour_decided_rate": fmt(None if colour_decided is None else 100 * colour_decided / pairs),
        "white_score": fmt(None if white_points is None else 100 * white_points / games),
        "elo": fmt(elo and elo["value"]), "elo_low": fmt(elo and elo["low"]), "elo_high": fmt(elo and elo["high"]),
        "nelo": fmt(nelo and nelo["value"]), "nelo_low": fmt(nelo and nelo["low"]),
        "nelo_high": fmt(nelo and nelo["high"]),
        "ngpelo": fmt(ngp and ngp["value"]), "ngpelo_low": fmt(ngp and ngp["low"]),
        "ngpelo_high": fmt(ngp and ngp["high"]),
        "pairs_ratio": fmt(s["pairs_ratio"], 2),
        "pair_score": fmt(100 * mean), "pair_sd": fmt(sd, 3),
        "ll": penta[0], "ld": penta[1], "dd_wl": penta[2], "wd": penta[3], "ww": penta[4],
        "source": source,
    }


def main():
    if len(sys.argv) not in (4, 5, 6):
        raise SystemExit(__doc__)
    program, directory, out = sys.argv[1:4]
    chart = sys.argv[4] if len(sys.argv) >= 5 else None
    page = sys.argv[5] if len(sys.argv) == 6 else None
    inputs = os.path.realpath(directory) + os.sep
    for output in (out, chart, page):
        if output and os.path.realpath(output).startswith(inputs):
            raise SystemExit(f"resolution_table: {output} lies among the journals it is computed from")
    if page:
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        # A page without the blocks' places is refused before anything is written.
        page_blocks(text, page)
    rows = []
    fixed = os.path.join(directory, "fixed.csv")
    if os.path.exists(fixed):
        with open(fixed, encoding="utf-8") as handle:
            for r in csv.DictReader(line for line in handle if not line.startswith("#")):
                penta = [int(r[k]) for k in ("ll", "ld", "dd_wl", "wd", "ww")]
                rows.append(row_of(r["book"], r["budget"], penta, 0, 0, 0, None, None, r["source"],
                                   program, draw_rate=float(r["draw_rate"])))
    for path in sorted(glob.glob(os.path.join(directory, "*", "*.csv"))):
        budget = os.path.basename(os.path.dirname(path))
        book = os.path.splitext(os.path.basename(path))[0]
        counts = journal_counts(path)
        if counts[-1] == 0:
            continue
        rows.append(row_of(book, budget, *counts[:-1],
                           f"journal {os.path.relpath(path, directory)}", program))
    # Everything the page gets is made before any file is written.
    blocks = {"table": markdown([r for r in rows if r["source"].startswith("journal ")]),
              "standing": standing(rows)}
    with replacing(out, encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(markdown(rows), end="")
    if chart:
        draw_chart(rows, chart)
    if page:
        write_page(page, blocks)


def markdown(rows):
    def with_interval(r, name):
        # Undefined (a count of zero under a ratio): said, not left blank.
        if not r[name]:
            return "undefined"
        return f"{r[name]} [{r[name + '_low']}, {r[name + '_high']}]"

    lines = ["| Book | Budget | Pairs | Draw rate | Pair draws | Colour-decided pairs | A's pair score (sd, 0–1) "
             "| nElo [95 %] | ngpElo [95 %] | PairsRatio |",
             "|---|---|---:|---:|---:|---:|---:|---|---|---:|"]
    for r in rows:
        lines.append(f"| `{r['book']}` | {r['budget']} | {r['pairs']} | {r['draw_rate']} % | {r['pair_draw_rate']} % | "
                     f"{r['colour_decided_rate'] and r['colour_decided_rate'] + ' %'} | "
                     f"{r['pair_score']} % ({r['pair_sd']}) | "
                     f"{with_interval(r, 'nelo')} | {with_interval(r, 'ngpelo')} | "
                     f"{r['pairs_ratio'] or 'undefined'} |")
    return "".join(line + "\n" for line in lines)


BLOCKS = ("table", "standing")


def block_span(text, block, page):
    """Where the block `<!-- resolution BLOCK -->` ... `<!-- end resolution
    BLOCK -->` lies in TEXT: the end of its first line and the start of
    its last. A page without it once is refused."""
    begin, end = f"<!-- resolution {block} -->\n", f"<!-- end resolution {block} -->\n"
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise SystemExit(f"resolution_table: {page} has not one {begin.strip()} ... {end.strip()} block")
    return text.index(begin) + len(begin), text.index(end)


def page_blocks(text, page):
    """Checks that TEXT has each block once and that no block lies inside
    another (replacing one would then drop the other). Spans are the
    blocks' insides: two blocks apart have at least two marker lines
    between them, so a span that reaches the next one's start overlaps it."""
    spans = sorted(block_span(text, block, page) for block in BLOCKS)
    if any(a[1] >= b[0] for a, b in zip(spans, spans[1:])):
        raise SystemExit(f"resolution_table: {page} has its resolution blocks inside one another")


def write_page(page, contents):
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    page_blocks(text, page)
    for block in BLOCKS:
        start, stop = block_span(text, block, page)
        text = text[:start] + "\n" + contents[block].rstrip("\n") + "\n\n" + text[stop:]
    with replacing(page, encoding="utf-8", newline="") as handle:
        handle.write(text)


def draw_chart(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    # The SVG's element ids are random unless salted: a fixed salt makes
    # the chart a function of the table alone.
    matplotlib.rcParams["svg.hashsalt"] = "c960-resolution"
    import matplotlib.pyplot as plt
    budgets = sorted({r["budget"] for r in rows})
    # One panel under another, so that a phone's narrow screen shows each
    # at full width; in a panel the highest nElo is on top.
    panels = [sorted((r for r in rows if r["budget"] == b and r["nelo"]), key=lambda r: float(r["nelo"]))
              for b in budgets]
    heights = [max(1, len(mine)) for mine in panels]
    fig, axes = plt.subplots(len(budgets), 1, figsize=(6.4, 1.2 + 0.55 * sum(heights) + 0.9 * len(budgets)),
                             squeeze=False, gridspec_kw={"height_ratios": heights})
    for ax, budget, mine in zip(axes[:, 0], budgets, panels):
        y = list(range(len(mine)))
        values = [float(r["nelo"]) for r in mine]
        low = [float(r["nelo"]) - float(r["nelo_low"]) for r in mine]
        high = [float(r["nelo_high"]) - float(r["nelo"]) for r in mine]
        ax.errorbar(values, y, xerr=[low, high], fmt="o", color="#1f4e79", capsize=3)
        ax.set_yticks(y, [f"{r['book']}\n{r['draw_rate']} % drawn, {r['pairs']} pairs" for r in mine], fontsize=9)
        ax.set_ylim(-0.6, len(mine) - 0.4)
        ax.set_xlabel("nElo per game pair, 95 % interval", fontsize=9)
        ax.set_title(budget, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    with replacing(path, "wb") as handle:
        fig.savefig(handle, format="svg", metadata={"Date": None})


if __name__ == "__main__":
    main()
