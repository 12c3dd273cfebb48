#!/usr/bin/env bash
# How data/research-v3/ and reports/research-v3/ are made, from nothing and
# resumably (every rater journals its searches; run the script again after
# an interruption and it continues where it stopped):
#
#   bash data/publish-v3.sh
#
# 1. The research profile's sweep (`c960 run --profile research --games 0`)
#    with both engines installed: four raters search all 960 positions once
#    each, one thread, node limits, into runs/research-v3/raters/NAME/:
#      stockfish-npm-4m           Stockfish 19 (npm), 4,000,000 nodes
#      stockfish-4m               Stockfish 15.1 (Debian), 4,000,000 nodes
#      stockfish-npm-1m-multipv3  Stockfish 19, 1,000,000 nodes, MultiPV 3
#      stockfish-1m-hash64        Stockfish 15.1, 1,000,000 nodes, Hash 64 MiB
#    The design was chosen with `just bench-validity` (docs/validity.md);
#    about 8 engine core-hours.
# 2. `c960 report` over the four raters: the consensus (each rater weighted
#    by its noise and its own view, the raters' disagreement in every
#    interval), verdicts with FDR control, and the agreement with the
#    independent analyses in $C960_VALIDATION (default ../shared/validation;
#    docs/validity.md names their sources; they are compared with, never
#    committed).
# 3. The tables, manifests and verdicts are copied into data/research-v3/,
#    the site into reports/research-v3/.
#
# Needs Stockfish 15.1 (apt-get install stockfish) and Stockfish 19 from npm
# (npm install stockfish@19.0.0; set C960_NODE_MODULES to its node_modules
# unless it is in ./node_modules).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
validation=${C960_VALIDATION:-$root/../shared/validation}
shopt -s nullglob
tables=("$validation"/*.csv)
if [ ${#tables[@]} -lt 2 ]; then
  echo "publish-v3: the independent analyses are not in $validation (set C960_VALIDATION; docs/validity.md names their sources)" >&2
  exit 1
fi
# C960_BIN: an already built c960 (the engines do the work).
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
runs=runs/research-v3
raters=(stockfish-npm-4m stockfish-4m stockfish-npm-1m-multipv3 stockfish-1m-hash64)

"$c960" run --profile research --games 0 --out "$runs" --quiet
for rater in "${raters[@]}"; do
  [ -f "$runs/raters/$rater/manifest.json" ] || {
    echo "publish-v3: rater $rater is missing: both Stockfish 19 (npm) and Stockfish 15.1 must be installed" >&2
    exit 1
  }
done

sources=()
for rater in "${raters[@]}"; do sources+=(--sweep "$runs/raters/$rater"); done
with=()
for table in "${tables[@]}"; do with+=(--validation "$table"); done
"$c960" report "${sources[@]}" "${with[@]}" --out "$runs/compared" --quiet
# The site as anyone rebuilds it from the record (the regeneration test):
# without the tables, each table's row is marked as recorded.
"$c960" report "${sources[@]}" --agreement "$runs/compared/agreement.json" --out "$runs/published" --quiet

data=data/research-v3
site=reports/research-v3
rm -rf "$data.tmp" "$site.tmp"
mkdir -p "$data.tmp"
for rater in "${raters[@]}"; do
  cp "$runs/raters/$rater/sweep.parquet" "$data.tmp/$rater-sweep.parquet"
  cp "$runs/raters/$rater/manifest.json" "$data.tmp/$rater-manifest.json"
done
cp "$runs/published/positions.parquet" "$runs/published/positions.csv" "$data.tmp/"
cp "$runs/published/balance.csv" "$runs/published/balance.json" "$data.tmp/"
cp "$runs/published/agreement.csv" "$runs/published/agreement.json" "$data.tmp/"
cp "$runs/run.json" "$data.tmp/run.json"
cp -r "$runs/published" "$site.tmp"
rm -f "$site.tmp/positions.parquet" "$site.tmp/positions.csv"
rm -rf "$data" "$site"
mv "$data.tmp" "$data"
mv "$site.tmp" "$site"
echo "published $data and $site"
