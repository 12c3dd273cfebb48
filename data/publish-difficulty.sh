#!/usr/bin/env bash
# How the difficulty tables of data/research-v4/ are made, from nothing and
# resumably (docs/datasets.md, "Difficulty and asymmetry of the first two
# moves"):
#
#   bash data/publish-difficulty.sh
#
# 1. Stockfish 19 (npm) sweeps positions 0, 10, ..., 950 with --reply at
#    MultiPV 8 and 1,000,000 nodes: one engine, one thread, 16 MiB hash, a
#    cleared hash for every search. Then Stockfish 17.1 (npm) sweeps the
#    same 96 positions with the same settings: the stability check.
# 2. Stockfish 19 sweeps all 960 (resuming the 96 from its journal).
# 3. The tables and manifests are copied into data/research-v4/
#    (difficulty-sf19-sweep.csv and .parquet, difficulty-sf19-manifest.json;
#    the same of difficulty-sf17), and each
#    measure's agreement between the two versions over the 96 positions
#    (c960 compare: Spearman's and Pearson's correlation with 95%
#    percentile-bootstrap intervals, 2,000 resamples, seed 0) is written to
#    difficulty-stability.csv.
#
# Every sweep journals each finished position in $C960_DIFFICULTY_RUNS
# (default ~/.cache/c960-difficulty), outside the clone; running the script
# again continues where the searches stopped. The engines run one at a time
# (--jobs 1) at the lowest priority. A search waits up to --watchdog 1800 s
# before its engine counts as hung: on a busy machine a 1,000,000-node
# search of the npm engine can take minutes of wall time.
#
# Needs Stockfish 19 and 17.1 from npm side by side (npm install
# stockfish@19.0.0 sf17@npm:stockfish@17.1.0; C960_NODE_MODULES names that
# node_modules).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
runs=${C960_DIFFICULTY_RUNS:-$HOME/.cache/c960-difficulty}
mkdir -p "$runs"
every10=$(seq -s, 0 10 950)

sweep() { # ENGINE RUN-NAME POSITIONS
  nice -n 19 "$c960" sweep --engine "$1" --nodes 1000000 --multipv 8 --reply --jobs 1 \
    --watchdog 1800 --positions "$3" --out "$runs/$2" --quiet
}
sweep stockfish-npm@19 sf19-1m-mpv8-reply "$every10"
sweep stockfish-npm@17.1 sf17-1m-mpv8-reply "$every10"
sweep stockfish-npm@19 sf19-1m-mpv8-reply all

data=data/research-v4
publish() { # FROM TO
  cp "$1" "$2.tmp"
  mv "$2.tmp" "$2"
}
for run in sf19 sf17; do
  publish "$runs/$run-1m-mpv8-reply/sweep.csv" "$data/difficulty-$run-sweep.csv"
  publish "$runs/$run-1m-mpv8-reply/sweep.parquet" "$data/difficulty-$run-sweep.parquet"
  publish "$runs/$run-1m-mpv8-reply/manifest.json" "$data/difficulty-$run-manifest.json"
done

# Each measure of Stockfish 19 against the same measure of Stockfish 17.1,
# one CSV row each (the header once).
stability="$data/difficulty-stability.csv"
: >"$stability.tmp"
for measure in white_good_moves black_good_moves good_moves_asymmetry \
  white_gap_cp black_gap_cp gap_asymmetry_cp; do
  "$c960" compare "$data/difficulty-sf19-sweep.csv:$measure" \
    --with "$data/difficulty-sf17-sweep.csv:$measure" \
    --format csv --out "$runs/compare-$measure.csv"
  if [ -s "$stability.tmp" ]; then
    tail -n +2 "$runs/compare-$measure.csv" >>"$stability.tmp"
  else
    cat "$runs/compare-$measure.csv" >"$stability.tmp"
  fi
done
mv "$stability.tmp" "$stability"
echo "published $data/difficulty*; bash data/publish-v4.sh then joins them to the v4 tables and site"
