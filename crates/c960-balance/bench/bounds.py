"""Searches a rater's bound scores again until they are exact (docs/validity.md,
"Scores that are bounds").

A rater of dataset v4 searched each start position once to a node limit N; when
the limit fell inside an aspiration re-search, its score is a lower or upper
bound (the sweep table's `bound` column). For every such position this replays
the rater's search (same engine, options, fresh hash, one thread) with a node
cap of CAP x N and records, from the engine's own lines:

- `last_exact_cp`: the exact score of the deepest iteration finished within N
  nodes (what the rater knew exactly when it stopped);
- `next_exact_cp`: the exact score of the first iteration finished after N
  nodes (the search carried on until its score is exact), with its nodes;
- for every fourth position, a replay to exactly N nodes (`replay_cp`,
  `replay_bound`): whether this harness reproduces the published score.

Rows are appended to the journal as they finish (one line each, flushed), so an
interrupted run resumes where it stopped. Usage:

    bounds.py JOURNAL WORKERS CAP RATER=SWEEP.parquet:MANIFEST.json ...
"""

import csv
import json
import multiprocessing
import os
import sys

import chess
import chess.engine
import polars as pl

COLUMNS = [
    "rater", "sp", "bound", "published_cp", "last_exact_cp", "last_exact_depth",
    "next_exact_cp", "next_exact_depth", "next_exact_nodes", "replay_cp", "replay_bound",
]


def score_of(info):
    score = info.get("score")
    if score is None:
        return None
    return score.white().score()


def bound_of(info):
    if info.get("lowerbound"):
        return "lower"
    if info.get("upperbound"):
        return "upper"
    return "exact"


class Rater:
    def __init__(self, name, path, options, nodes):
        self.name, self.path, self.options, self.nodes = name, path, options, nodes
        self.engine = None

    def open(self):
        if self.engine is None:
            self.engine = chess.engine.SimpleEngine.popen_uci(self.path)
            self.engine.configure(
                # UCI_ShowWDL changes no search, and python-chess reads a
                # line's bound only when it follows the score directly.
                {
                    k: v
                    for k, v in self.options.items()
                    if k not in ("UCI_Chess960", "MultiPV", "UCI_ShowWDL")
                }
            )
        return self.engine

    def search(self, board, cap, stop_after_exact):
        """The engine's info lines of one search from a new game, stopping at
        the first exact line past N nodes when asked."""
        engine = self.open()
        lines = []
        with engine.analysis(board, chess.engine.Limit(nodes=cap), game=object()) as analysis:
            for info in analysis:
                if "score" not in info or "nodes" not in info or info.get("multipv", 1) != 1:
                    continue
                lines.append(info)
                if stop_after_exact and info["nodes"] > self.nodes and bound_of(info) == "exact":
                    analysis.stop()
        return lines


RATERS = {}


def work(job):
    name, sp, placement, bound, published, cap = job
    rater = RATERS[name]
    board = chess.Board.from_chess960_pos(sp)
    assert board.fen().split()[0].split("/")[-1] == placement, (sp, placement)
    lines = rater.search(board, cap * rater.nodes, True)
    before = [i for i in lines if i["nodes"] <= rater.nodes and bound_of(i) == "exact"]
    after = [i for i in lines if i["nodes"] > rater.nodes and bound_of(i) == "exact"]
    row = {"rater": name, "sp": sp, "bound": bound, "published_cp": published}
    if before:
        row["last_exact_cp"] = score_of(before[-1])
        row["last_exact_depth"] = before[-1].get("depth")
    if after:
        row["next_exact_cp"] = score_of(after[0])
        row["next_exact_depth"] = after[0].get("depth")
        row["next_exact_nodes"] = after[0]["nodes"]
    if sp % 4 == 0:
        replay = rater.search(board, rater.nodes, False)
        if replay:
            row["replay_cp"] = score_of(replay[-1])
            row["replay_bound"] = bound_of(replay[-1])
    return row


def init(raters):
    RATERS.update(raters)


def main():
    journal, workers, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    raters, jobs = {}, []
    done = set()
    if os.path.exists(journal):
        # A run killed mid-line leaves a partial last line: cut it.
        with open(journal, "rb+") as f:
            data = f.read()
            f.truncate(data.rfind(b"\n") + 1)
        with open(journal, newline="") as f:
            done = {(r["rater"], int(r["sp"])) for r in csv.DictReader(f)}
    for spec in sys.argv[4:]:
        name, paths = spec.split("=", 1)
        sweep, manifest = paths.split(":", 1)
        with open(manifest) as f:
            m = json.load(f)
        limit = m["limit"].split()
        if limit[0] != "nodes" or m.get("multipv", 1) != 1 or m.get("repeats", 1) != 1:
            sys.exit(f"bounds: {name} is not one search per position at a node limit")
        engine = m["engine"]
        raters[name] = Rater(name, engine["path"], dict(engine["options"]), int(limit[1]))
        frame = pl.read_parquet(sweep, columns=["sp", "placement", "score_cp", "score_mate", "bound"])
        for sp, placement, cp, mate, bound in frame.iter_rows():
            if bound != "exact" and mate is None and (name, sp) not in done:
                jobs.append((name, sp, placement, bound, cp, cap))
    fresh = not os.path.exists(journal)
    print(f"bounds: {len(jobs)} bound scores to search again ({len(done)} in the journal)", file=sys.stderr)
    with open(journal, "a", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        if fresh:
            writer.writeheader()
        with multiprocessing.Pool(workers, initializer=init, initargs=(raters,)) as pool:
            for k, row in enumerate(pool.imap_unordered(work, jobs), 1):
                writer.writerow(row)
                out.flush()
                os.fsync(out.fileno())
                if k % 50 == 0:
                    print(f"bounds: {k}/{len(jobs)}", file=sys.stderr)


if __name__ == "__main__":
    main()
