#!/usr/bin/env bash
# How data/dfrc-sample-stockfish-15.1/ and reports/dfrc-sample/ are made, from
# nothing and resumably (the sweep journals every search; run the script
# again after an interruption and it continues where it stopped):
#
#   bash data/publish-dfrc.sh        # about 2 hours on 2 cores
#
# 1. Stockfish 15.1 (one thread, 16 MB hash) searches a stratified sample of
#    20,000 Double Fischer Random setups (`sample:20000:1`: every White SP
#    and every Black SP about 21 times), twice each at 100,000 nodes with
#    budgets jittered by ±25% from seed 0. A pilot of 200 setups at this
#    budget repeated at split-half r = 0.993 (setups differ far more than
#    the 960 symmetric ones do), so two searches resolve the setups; the
#    published manifest states the repeatability measured on all 20,000.
# 2. `c960 report` builds the DFRC report: White's advantage by each
#    asymmetry (group means with intervals), a regression on the per-side
#    features, the symmetric setups against the rest, and the most and
#    least balanced setups with verdicts.
#
# All 921,600 setups are a cluster's job (docs/researcher.md, "Double Fischer Random"):
#   c960 slurm sweep --variant dfrc --positions all --engine stockfish \
#       --nodes 100000 --repeats 2 --seed 0 --shards 200 --out runs/dfrc-all --submit
# about 164 core-hours at the 0.32 core-seconds per search measured here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
# C960_BIN: an already built c960 (the engine does the work, so any build
# gives the same tables).
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
runs=runs/dfrc

"$c960" sweep --variant dfrc --positions sample:20000:1 --engine stockfish \
  --nodes 100000 --repeats 2 --seed 0 --quiet --out "$runs/sample"
"$c960" report --sweep "$runs/sample" --out "$runs/published" --quiet

data=data/dfrc-sample-stockfish-15.1
site=reports/dfrc-sample
rm -rf "$data.tmp" "$site.tmp"
mkdir -p "$data.tmp"
for f in sweep.parquet sweep.csv repeats.parquet manifest.json; do
  cp "$runs/sample/$f" "$data.tmp/$f"
done
cp -r "$runs/published" "$site.tmp"
rm -rf "$data" "$site"
mv "$data.tmp" "$data"
mv "$site.tmp" "$site"
echo "published $data and $site"
