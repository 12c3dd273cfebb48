"""The resolution table of bench-books.sh from fastchess's outputs.

resolution.py PENTANOMIAL CONCURRENCY TSV
    TSV rows: book name, wall seconds, fastchess output file. For each book,
    reads fastchess's final result (games, wins, draws, losses and the
    pentanomial counts), computes Elo and normalized Elo with 95 % intervals
    with c960's own statistics (the PENTANOMIAL program, c960-balance's
    `MatchStats`), checks them against the figures fastchess printed, and
    prints a markdown table with the cost per game pair. Exits 1 when a
    result is missing or c960 and fastchess disagree.
"""

import json
import math
import re
import subprocess
import sys

GAMES = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
PTNML = re.compile(r"Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]")
# fastchess prints nan or inf when every pair scored the same.
ELO = re.compile(r"Elo: (\S+) \+/- (\S+), nElo: (\S+) \+/- (\S+)")
# Both print two decimals; the interval ends are mapped through the same
# formulas, so any larger gap is a different computation.
TOLERANCE = 0.011


def final_result(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    block = text[text.rfind("Results of "):]
    games, ptnml, elo = GAMES.search(block), PTNML.search(block), ELO.search(block)
    if not (text.count("Results of ") and games and ptnml and elo):
        raise SystemExit(f"resolution: no final result with pentanomial counts in {path}")
    total, wins, losses, draws = (int(x) for x in games.groups())
    printed = [float(x.rstrip(",")) for x in elo.groups()]
    return total, wins, draws, losses, [int(x) for x in ptnml.groups()], printed


def signed(x):
    return f"{x:+.1f}"


def interval(estimate):
    if estimate is None:
        return "n/a"
    return f"{signed(estimate['value'])} [{signed(estimate['low'])}, {signed(estimate['high'])}]"


def main():
    program, concurrency, tsv = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rows, problems, costs = [], [], []
    for line in open(tsv, encoding="utf-8"):
        if not line.strip():
            continue
        name, seconds, out = line.rstrip("\n").split("\t")
        total, wins, draws, losses, penta, printed = final_result(out)
        pairs = sum(penta)
        if total != 2 * pairs or wins + draws + losses != total:
            problems.append(f"{name}: {total} games, {wins}+{draws}+{losses} results, {pairs} pairs")
        stats = json.loads(subprocess.run(
            [program, *map(str, penta), str(wins), str(draws), str(losses)],
            check=True, capture_output=True, text=True).stdout)
        elo, nelo = stats["elo"], stats["normalized_elo"]
        for what, estimate, (value, error) in [("Elo", elo, printed[:2]), ("nElo", nelo, printed[2:])]:
            if estimate is None or not (math.isfinite(value) and math.isfinite(error)):
                continue
            half = (estimate["high"] - estimate["low"]) / 2
            if abs(estimate["value"] - value) > TOLERANCE or abs(half - error) > TOLERANCE:
                problems.append(f"{name}: c960's {what} {estimate['value']:.4f} ± {half:.4f}, "
                                f"fastchess's {value:.2f} ± {error:.2f}")
        core_seconds = float(seconds) * concurrency / pairs
        costs.append(core_seconds)
        rows.append([
            f"`{name}.epd`", str(pairs), f"{100 * draws / total:.1f} %",
            "[" + ", ".join(map(str, penta)) + "]", interval(elo), interval(nelo),
            f"{float(seconds):.0f} s", f"{core_seconds:.2f}",
        ])
    print("| Book | Pairs | Draw rate | Pentanomial [LL, LD, DD+WL, WD, WW] | Elo [95 %] | nElo [95 %] | Wall | Core-s per pair |")
    print("|---|---:|---:|---|---|---|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    mean = sum(costs) / len(costs)
    print(f"Elo and nElo (per game pair) are c960's (c960-balance `MatchStats`), equal to fastchess's printed "
          f"figures within {TOLERANCE}. Mean cost {mean:.2f} core-seconds per game pair: 1,000 pairs on each of "
          f"{len(costs)} books take {mean * 1000 * len(costs) / 3600:.1f} core-hours "
          f"({mean * 1000 * len(costs) / 3600 / concurrency:.1f} h at concurrency {concurrency}).")
    if problems:
        for problem in problems:
            print(f"resolution: {problem}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
