#!/usr/bin/env bash
# How data/research-v4/ and reports/research-v4/ are made, from nothing and
# resumably:
#
#   bash data/publish-v4.sh
#
# 1. The new raters (data/v4-raters.sh): each a sweep of all 960 positions,
#    one search each, one thread, node limits, journaled in $C960_V4_RUNS
#    (default ~/.cache/c960-v4); running this script again after an
#    interruption continues where the searches stopped.
# 2. Their tables and manifests are copied into data/research-v4/ as
#    NAME-sweep.parquet and NAME-manifest.json. v3's four raters are read
#    where v3 published them (data/research-v3/NAME-sweep.parquet), not
#    copied.
# 3. `c960 report` over all of them from the published tables (so the
#    regeneration test runs the same command): the robust consensus, the
#    verdicts with FDR control, and the agreement with the independent
#    analyses in $C960_VALIDATION (default ../shared/validation; compared
#    with, never committed), and the difficulty of the first moves from
#    the sweep with replies (data/publish-difficulty.sh). Its tables go to
#    data/research-v4/, its site to reports/research-v4/.
# 4. The design bench on the same raters, as data/research-v4/validity-960.csv.
#
# Which raters enter v4 is decided by `just bench-validity-960`
# (docs/validity.md): V4_NEW below. Needs Stockfish 15.1 (apt-get install
# stockfish) and Stockfish 17.1, 18 and 19 from npm side by side (npm
# install stockfish@19.0.0 sf17@npm:stockfish@17.1.0
# sf18@npm:stockfish@18.0.8; C960_NODE_MODULES names that node_modules).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
validation=${C960_VALIDATION:-$root/../shared/validation}
runs=${C960_V4_RUNS:-$HOME/.cache/c960-v4}
shopt -s nullglob
tables=("$validation"/*.csv)
if [ ${#tables[@]} -lt 2 ]; then
  echo "publish-v4: the independent analyses are not in $validation (set C960_VALIDATION; docs/validity.md names their sources)" >&2
  exit 1
fi
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
  export C960_BIN=$c960
fi

# v3's raters, as v3 published them, and v4's new ones.
V3_RATERS=(stockfish-npm-4m stockfish-4m stockfish-npm-1m-multipv3 stockfish-1m-hash64)
V4_NEW=(sf17-1m sf18-1m sf15-1m sf19-1m)
# The difficulty sweep whose measures join the tables and pages
# (data/publish-difficulty.sh makes it; it is not a rater).
DIFFICULTY=(difficulty-sf19)

bash data/v4-raters.sh "$(nproc)" "${V4_NEW[@]}"
data=data/research-v4
site=reports/research-v4
mkdir -p "$data"
for rater in "${V4_NEW[@]}"; do
  [ -f "$runs/$rater/sweep.parquet" ] || {
    echo "publish-v4: rater $rater has not finished in $runs/$rater" >&2
    exit 1
  }
  cp "$runs/$rater/sweep.parquet" "$data/$rater-sweep.parquet.tmp"
  cp "$runs/$rater/manifest.json" "$data/$rater-manifest.json.tmp"
  mv "$data/$rater-sweep.parquet.tmp" "$data/$rater-sweep.parquet"
  mv "$data/$rater-manifest.json.tmp" "$data/$rater-manifest.json"
done

sources=()
for rater in "${V3_RATERS[@]}"; do sources+=(--sweep "data/research-v3/$rater-sweep.parquet"); done
for rater in "${V4_NEW[@]}"; do sources+=(--sweep "$data/$rater-sweep.parquet"); done
with=()
for table in "${tables[@]}"; do with+=(--validation "$table"); done
for sweep in "${DIFFICULTY[@]}"; do
  [ -f "$data/$sweep-sweep.parquet" ] || {
    echo "publish-v4: $data/$sweep-sweep.parquet is missing: run bash data/publish-difficulty.sh first" >&2
    exit 1
  }
  with+=(--difficulty "$data/$sweep-sweep.parquet")
done
out=runs/research-v4
rm -rf "$out/published"
mkdir -p "$out"
"$c960" report "${sources[@]}" "${with[@]}" --out "$out/compared" --quiet
# The site as anyone rebuilds it from the record (the regeneration test):
# without the tables, each table's row is marked as recorded.
"$c960" report "${sources[@]}" --agreement "$out/compared/agreement.json" --out "$out/published" --quiet

for table in positions.parquet positions.csv balance.csv balance.json agreement.csv agreement.json; do
  cp "$out/published/$table" "$data/$table"
done
rm -f "$out/published/positions.parquet" "$out/published/positions.csv"
rm -rf "$site.tmp"
mv "$out/published" "$site.tmp"
rm -rf "$site"
mv "$site.tmp" "$site"

# 4. The design bench over the same raters (crates/c960/bench/
#    bench-validity-960.sh): each rater alone and each design's r with the
#    analyses' standardized mean and its engine core-hours, published as
#    validity-960.csv (docs/validity.md quotes it).
C960_BENCH_DIR="$out/bench" bash crates/c960/bench/bench-validity-960.sh
cp "$out/bench/validity-960.csv" "$data/validity-960.csv.tmp"
mv "$data/validity-960.csv.tmp" "$data/validity-960.csv"
echo "published $data and $site"
