"""The pilot book a draw model is fitted to: exits of an expansion sampled
across bands of score, so that games played from them show how the draw
rate falls as the favoured side's score grows.

pilot.py JOURNAL OUT [--per-band N] [--edges E0,E1,...] [--seed S]
    Reads a `c960 book exits` run's journal.jsonl and writes OUT, a book of
    N exits from each band of |score| [E_k, E_k+1) centipawns (default 30
    per band, edges 0,40,70,100,130,160,200,260,400), drawn at random from
    the seed among the exits with a centipawn score that are not game
    over, each position once and at most one exit per start in a band.
    Both sides to move are drawn alike when the run holds both. Lines go
    in a seeded random order; a band with fewer exits than N is taken
    whole and said so.
"""

import argparse
import hashlib
import json
import os
import random
import sys

from atomic import replacing


def key(fen):
    return " ".join(fen.split(" ")[:4])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("journal")
    parser.add_argument("out")
    parser.add_argument("--per-band", type=int, default=30)
    parser.add_argument("--edges", default="0,40,70,100,130,160,200,260,400")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    edges = [float(x) for x in args.edges.split(",")]
    if edges != sorted(edges) or len(edges) < 2:
        sys.exit("pilot: --edges must be at least two increasing numbers")
    bands = [[] for _ in edges[:-1]]
    with open(args.journal, encoding="utf-8") as handle:
        handle.readline()  # the journal's settings
        for line in handle:
            start = json.loads(line)
            for exit in start["exits"]:
                if exit.get("game_over") or exit.get("cp") is None:
                    continue
                score = abs(exit["cp"])
                for k in range(len(bands)):
                    if edges[k] <= score < edges[k + 1]:
                        bands[k].append((start["setup"], exit["fen"]))
    rng = random.Random(args.seed)
    chosen, seen = [], set()
    for k, band in enumerate(bands):
        band.sort()
        rng.shuffle(band)
        starts, taken = set(), 0
        for setup, fen in band:
            if taken == args.per_band:
                break
            if setup in starts or key(fen) in seen:
                continue
            starts.add(setup)
            seen.add(key(fen))
            chosen.append(fen)
            taken += 1
        if taken < args.per_band:
            print(f"pilot: band {edges[k]:g}..{edges[k + 1]:g} cp holds {taken} exits, not {args.per_band}",
                  file=sys.stderr)
    rng.shuffle(chosen)
    with replacing(args.out, encoding="utf-8") as handle:
        handle.writelines(fen + "\n" for fen in chosen)
    digest = hashlib.sha256(open(args.out, "rb").read()).hexdigest()
    print(f"pilot: {len(chosen)} exits written to {args.out} (SHA-256 {digest})", file=sys.stderr)


if __name__ == "__main__":
    main()
