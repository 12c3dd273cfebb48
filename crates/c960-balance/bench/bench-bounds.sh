#!/usr/bin/env bash
# `just bench-bounds`: what searching v4's bound scores again until they
# are exact would change (docs/validity.md, "Scores that are bounds").
#
# 1. bounds.py replays each native Stockfish 15.1 rater's search at every
#    position where its published score is a bound (same engine, options
#    and node limit, fresh hash, one thread; every fourth one also replayed
#    to the limit exactly, to show the harness reproduces the published
#    score) and carries it on until an iteration finishes: the journal
#    data/research-v4/bounds-searched.csv (resumable, one row per score).
#    RATERS picks which (default: sf15-1m and stockfish-1m-hash64; add
#    stockfish-4m for 4M nodes, about four times the engine time).
# 2. bounds_effect.py writes the raters' tables with those scores exact
#    (`next`: the first iteration finished past the limit; `last`: the
#    deepest finished within it; `control`: rewritten with no score changed,
#    which must give the published consensus back), and `c960 report` makes the consensus of
#    all eight v4 raters with them, against the independent analyses in
#    $C960_VALIDATION (default ../shared/validation).
# 3. A table: how far the consensus moved from the published one (rank
#    and linear correlation, mean and largest change, verdicts changed) and
#    its agreement with the analyses (r with its 95% interval).
#
# Usage: bench-bounds.sh [WORKERS] [CAP]  (CAP: the node cap, a multiple of
# the rater's limit; default 4). Needs Stockfish 15.1 (Debian stockfish)
# and Python with python-chess and polars ($C960_PYTHON). SEARCH=0 skips
# step 1 and uses the committed journal.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
workers=${1:-2}
cap=${2:-4}
python=${C960_PYTHON:-python3}
target=${CARGO_TARGET_DIR:-$root/target}
validation=${C960_VALIDATION:-$root/../shared/validation}
work=$target/bench-bounds
journal=data/research-v4/bounds-searched.csv
shopt -s nullglob
tables=("$validation"/*.csv)
if [ ${#tables[@]} -lt 2 ]; then
  echo "bench-bounds needs the independent per-position tables in $validation (set C960_VALIDATION)" >&2
  exit 1
fi
table_of() {
  case $1 in
    sf15-1m) echo "data/research-v4/sf15-1m-sweep.parquet:data/research-v4/sf15-1m-manifest.json" ;;
    stockfish-1m-hash64 | stockfish-4m) echo "data/research-v3/$1-sweep.parquet:data/research-v3/$1-manifest.json" ;;
    *) echo "bench-bounds: unknown rater $1 (sf15-1m, stockfish-1m-hash64, stockfish-4m)" >&2; exit 1 ;;
  esac
}
specs=()
for rater in ${RATERS:-sf15-1m stockfish-1m-hash64}; do specs+=("$rater=$(table_of "$rater")"); done
if [ "${SEARCH:-1}" != 0 ]; then
  "$python" crates/c960-balance/bench/bounds.py "$journal" "$workers" "$cap" "${specs[@]}"
fi
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
rm -rf "$work"
mkdir -p "$work"
"$python" crates/c960-balance/bench/bounds_effect.py tables "$work/tables" "$journal" "${specs[@]}"
with=()
for table in "${tables[@]}"; do with+=(--validation "$table"); done
compared=()
for variant in control next last; do
  sources=()
  for rater in stockfish-npm-4m stockfish-4m stockfish-npm-1m-multipv3 stockfish-1m-hash64; do
    if [ -f "$work/tables/$variant/$rater-sweep.parquet" ]; then
      sources+=(--sweep "$work/tables/$variant/$rater-sweep.parquet")
    else
      sources+=(--sweep "data/research-v3/$rater-sweep.parquet")
    fi
  done
  for rater in sf17-1m sf18-1m sf15-1m sf19-1m; do
    if [ -f "$work/tables/$variant/$rater-sweep.parquet" ]; then
      sources+=(--sweep "$work/tables/$variant/$rater-sweep.parquet")
    else
      sources+=(--sweep "data/research-v4/$rater-sweep.parquet")
    fi
  done
  "$c960" report "${sources[@]}" "${with[@]}" --out "$work/$variant" --quiet
  compared+=("$variant=$work/$variant/balance.csv:$work/$variant/agreement.json")
done
raters=$(printf '%s\n' "${specs[@]}" | cut -d= -f1 | paste -sd,)
"$python" crates/c960-balance/bench/bounds_effect.py compare data/research-v4/balance.csv "$journal" "$raters" "${compared[@]}"
