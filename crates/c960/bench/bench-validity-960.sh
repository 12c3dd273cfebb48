#!/usr/bin/env bash
# `just bench-validity-960`: how right each rater and each design is per
# engine core-hour, on ALL 960 positions (the 96-position pilot of
# `just bench-validity` overstated validity twice, so every figure used to
# choose dataset v4's design is measured here on the full set).
#
# Candidates: v3's four published raters (data/research-v3/NAME-sweep.parquet)
# and the v4 candidate raters of data/v4-raters.sh, each a sweep of all 960
# positions in $C960_V4_RUNS (default ~/.cache/c960-v4); a candidate whose
# sweep is not finished is listed as such and left out.
#
# Each single rater, and each design (a set of raters combined by
# `c960 balance`, the robust consensus), is judged by `c960 compare` against
# the independent public analyses in $C960_VALIDATION (default
# ../shared/validation): Pearson's r with their standardized mean, with its
# 95% percentile bootstrap interval (2,000 resamples, seed 0), and the
# lowest and highest r against any single analysis. Engine core-hours are
# the searches' own times as the raters recorded them (time_ms: one search,
# one thread), summed over the 960 positions.
#
# Designs: v3's four; v3's four plus each new candidate alone; every
# candidate; and the new candidates alone. Output: a table on standard
# output, and CSV in $C960_BENCH_DIR (default target/bench-validity-960).
# Needs Python with polars ($C960_PYTHON, default python3) to read the
# tables' search times.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
validation=${C960_VALIDATION:-$root/../shared/validation}
runs=${C960_V4_RUNS:-$HOME/.cache/c960-v4}
work=${C960_BENCH_DIR:-$target/bench-validity-960}

shopt -s nullglob
tables=("$validation"/*.csv)
if [ ${#tables[@]} -lt 2 ]; then
  echo "bench-validity-960 needs the independent per-position tables in $validation (set C960_VALIDATION; docs/validity.md names their sources)" >&2
  exit 1
fi
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
rm -rf "$work"
mkdir -p "$work/designs"

# tag | table
candidates=()
for name in stockfish-npm-4m stockfish-4m stockfish-npm-1m-multipv3 stockfish-1m-hash64; do
  candidates+=("v3:$name|data/research-v3/$name-sweep.parquet")
done
for tag in sf17-1m sf18-1m sf15-1m sf19-1m sf17-1m-h64 sf18-1m-h64; do
  if [ -f "$runs/$tag/sweep.parquet" ]; then
    candidates+=("$tag|$runs/$tag/sweep.parquet")
  else
    echo "-- $tag: not finished in $runs/$tag (run data/v4-raters.sh), left out" >&2
  fi
done

with=()
for table in "${tables[@]}"; do with+=(--with "$table"); done
: >"$work/list.txt"
for entry in "${candidates[@]}"; do
  tag=${entry%%|*}
  table=${entry#*|}
  stem=single-${tag//[:\/]/-}
  "$c960" compare "$table:score_cp" "${with[@]}" --format csv --out "$work/designs/$stem.csv"
  echo "$tag|$tag|$table|$stem" >>"$work/list.txt"
done

design() {
  local name=$1 stem=$2
  shift 2
  local sweeps=() tags=()
  for entry in "${candidates[@]}"; do
    for want in "$@"; do
      if [ "${entry%%|*}" = "$want" ]; then
        sweeps+=(--sweep "${entry#*|}")
        tags+=("$want")
      fi
    done
  done
  "$c960" balance "${sweeps[@]}" --out "$work/designs/$stem" >/dev/null
  "$c960" compare "$work/designs/$stem/balance.csv:sweep_cp" "${with[@]}" --format csv \
    --out "$work/designs/$stem.csv"
  echo "$name|${tags[*]}||$stem" >>"$work/list.txt"
}

v3=(v3:stockfish-npm-4m v3:stockfish-4m v3:stockfish-npm-1m-multipv3 v3:stockfish-1m-hash64)
all=()
for entry in "${candidates[@]}"; do all+=("${entry%%|*}"); done
design "v3's four raters" d-v3 "${v3[@]}"
for entry in "${candidates[@]}"; do
  tag=${entry%%|*}
  case $tag in v3:*) continue ;; esac
  design "v3's four + $tag" "d-v3-$tag" "${v3[@]}" "$tag"
done
design "every candidate (${#all[@]} raters)" d-all "${all[@]}"
new=()
for tag in "${all[@]}"; do case $tag in v3:*) ;; *) new+=("$tag") ;; esac; done
if [ ${#new[@]} -ge 2 ]; then
  design "the new 1M raters only (${#new[@]})" d-new "${new[@]}"
fi

"${C960_PYTHON:-python3}" - "$work" <<'PY'
import csv, sys
import polars as pl
work = sys.argv[1]

def rater_hours(table):
    return pl.read_parquet(table, columns=["time_ms"])["time_ms"].fill_null(0).sum() / 3.6e6

def agreement(stem):
    rows = list(csv.DictReader(open(f"{work}/designs/{stem}.csv")))
    mean = [r for r in rows if not r["source"]][0]
    singles = [float(r["pearson"]) for r in rows if r["source"]]
    return mean, min(singles), max(singles)

lines = [l.rstrip("\n").split("|") for l in open(f"{work}/list.txt")]
table_of = {l[0]: l[2] for l in lines if l[2]}
print("\n== validity per engine core-hour, all 960 positions: r with the standardized mean of the "
      "independent analyses (95% bootstrap interval), core-hours from the raters' own search times")
print(f"{'design':<46}{'raters':>7}{'r (mean)':>9}{'95% interval':>17}{'single r':>12}{'core-h':>8}{'r/core-h':>9}")
out = csv.writer(open(f"{work}/validity-960.csv", "w", newline=""))
out.writerow(["design", "raters", "positions", "pearson", "pearson_low", "pearson_high",
              "single_low", "single_high", "core_hours"])
for name, tags, _table, stem in lines:
    tags = tags.split()
    mean, low, high = agreement(stem)
    h = 0.0
    for t in tags:
        h += rater_hours(table_of[t])
    r = float(mean["pearson"])
    interval = "[%.3f, %.3f]" % (float(mean["pearson_low"]), float(mean["pearson_high"]))
    print(f"{name:<46}{len(tags):>7}{r:>9.3f}{interval:>17}{'%.2f-%.2f' % (low, high):>12}{h:>8.2f}{r / h:>9.3f}")
    out.writerow([name, " ".join(tags), mean["positions"], mean["pearson"], mean["pearson_low"],
                  mean["pearson_high"], f"{low:.6f}", f"{high:.6f}", f"{h:.4f}"])
PY
