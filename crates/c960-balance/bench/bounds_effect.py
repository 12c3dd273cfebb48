"""What re-searching the bound scores changes (docs/validity.md, "Scores that
are bounds"), from the journal bounds.py writes.

Step `tables OUT JOURNAL RATER=SWEEP.parquet:MANIFEST.json ...`: for each
re-searched rater, writes OUT/VARIANT/RATER-sweep.parquet (+ its manifest)
with every journaled bound score replaced by an exact one: `next` (the first
iteration finished after the node limit) or `last` (the deepest one finished
within it), and the `bound` column set to `exact` there.

Step `compare PUBLISHED_BALANCE JOURNAL RATER,RATER VARIANT=BALANCE.csv:AGREEMENT.json ...`:
prints, per variant, how the consensus moved against the published one.
"""

import csv
import json
import math
import sys
from pathlib import Path

import polars as pl


def journal_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def tables(out, journal, specs):
    rows = journal_rows(journal)
    # `control` rewrites the tables the same way with no score changed: it
    # must give the published consensus back exactly.
    for variant, column in (("control", None), ("next", "next_exact_cp"), ("last", "last_exact_cp")):
        for spec in specs:
            name, paths = spec.split("=", 1)
            sweep, manifest = paths.split(":", 1)
            exact = {
                int(r["sp"]): int(r[column])
                for r in rows
                if column and r["rater"] == name and r[column] != ""
            }
            frame = pl.read_parquet(sweep)
            sp = frame["sp"].to_list()
            scores = [exact.get(s, v) for s, v in zip(sp, frame["score_cp"].to_list())]
            bounds = ["exact" if s in exact else b for s, b in zip(sp, frame["bound"].to_list())]
            frame = frame.with_columns(
                pl.Series("score_cp", scores, dtype=frame["score_cp"].dtype),
                pl.Series("bound", bounds, dtype=pl.String),
            )
            target = Path(out) / variant
            target.mkdir(parents=True, exist_ok=True)
            frame.write_parquet(target / f"{name}-sweep.parquet")
            # The rewritten table carries no seal: its manifest copy says
            # so (no `tables`/`repeats` marks), or c960 would refuse it as
            # changed by another tool, which it is.
            with open(manifest) as f:
                m = json.load(f)
            m.pop("tables", None)
            m.pop("repeats", None)
            m["notes"] = m.get("notes", "") + " Bound scores replaced by bench-bounds (" + variant + ")."
            (target / f"{name}-manifest.json").write_text(json.dumps(m, indent=2) + "\n")
            print(f"{variant}: {name}: {len(exact)} bound scores made exact", file=sys.stderr)


def spearman(a, b):
    def ranks(x):
        order = sorted(range(len(x)), key=lambda i: x[i])
        r = [0.0] * len(x)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    return pearson(ranks(a), ranks(b))


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return sab / math.sqrt(saa * sbb)


def read_balance(path):
    with open(path, newline="") as f:
        return {int(r["sp"]): r for r in csv.DictReader(f)}


def headline(path):
    with open(path) as f:
        a = json.load(f)
    r = a["references"][-1]["comparison"]["pearson"]
    return r["value"], r["low"], r["high"]


def compare(published, journal, raters, specs):
    rows = [r for r in journal_rows(journal) if r["rater"] in raters.split(",")]
    replays = [r for r in rows if r["replay_cp"] != ""]
    same = sum(
        r["replay_cp"] == r["published_cp"] and r["replay_bound"] == r["bound"] for r in replays
    )
    raters = sorted({r["rater"] for r in rows})
    print(f"re-searched: {len(rows)} bound scores of {', '.join(raters)}")
    print(f"replays: {same} of {len(replays)} reproduce the published score and bound exactly")
    moved = [abs(int(r["next_exact_cp"]) - int(r["published_cp"])) for r in rows if r["next_exact_cp"]]
    moved.sort()
    extra = sorted(
        int(r["next_exact_nodes"]) for r in rows if r["next_exact_nodes"]
    )
    if extra:
        print(f"the next exact score came at a median of {extra[len(extra) // 2]:,} nodes")
    missing = sum(1 for r in rows if not r["next_exact_cp"])
    print(f"scores with no exact iteration within the cap: {missing}")
    if moved:
        print(
            f"a bound against the next exact score: median |change| {moved[len(moved) // 2]} cp, "
            f"90th percentile {moved[int(0.9 * len(moved))]} cp, largest {moved[-1]} cp "
            f"({len(moved)} scores)"
        )
    base = read_balance(published)
    sps = sorted(base)
    est = lambda t: [float(t[s]["balance_estimate"]) for s in sps]
    half = lambda t: [(float(t[s]["balance_high"]) - float(t[s]["balance_low"])) / 2 for s in sps]
    print("variant,spearman_estimates,pearson_estimates,mean_abs_change_cp,max_abs_change_cp,"
          "mean_half_width_cp,verdicts_changed,agreement_r,agreement_low,agreement_high")
    published_agreement = Path(published).with_name("agreement.json")
    r, lo, hi = headline(published_agreement)
    print(f"published,1,1,0,0,{sum(half(base)) / len(sps):.2f},0,{r:.4f},{lo:.4f},{hi:.4f}")
    for spec in specs:
        variant, paths = spec.split("=", 1)
        balance, agreement = paths.split(":", 1)
        other = read_balance(balance)
        a, b = est(base), est(other)
        changes = [abs(x - y) for x, y in zip(a, b)]
        verdicts = sum(base[s]["verdict"] != other[s]["verdict"] for s in sps)
        r, lo, hi = headline(agreement)
        moves = {}
        for sp in sps:
            key = f"{base[sp]['verdict']}->{other[sp]['verdict']}"
            if base[sp]["verdict"] != other[sp]["verdict"]:
                moves[key] = moves.get(key, 0) + 1
        print(f"# {variant}: verdicts changed: {dict(sorted(moves.items()))}", file=sys.stderr)
        print(
            f"{variant},{spearman(a, b):.4f},{pearson(a, b):.4f},{sum(changes) / len(changes):.2f},"
            f"{max(changes):.2f},{sum(half(other)) / len(sps):.2f},{verdicts},{r:.4f},{lo:.4f},{hi:.4f}"
        )


if __name__ == "__main__":
    if sys.argv[1] == "tables":
        tables(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        sys.exit("bounds_effect.py tables|compare ...")
