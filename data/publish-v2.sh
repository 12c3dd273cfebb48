#!/usr/bin/env bash
# How data/research-v2/ and reports/research-v2/ are made, from nothing and
# resumably (every stage journals its work; run the script again after an
# interruption and it continues where it stopped):
#
#   bash data/publish-v2.sh sweeps   # the consensus sweep only (about 1 hour on 2 cores)
#   bash data/publish-v2.sh all      # plus adaptive self-play (about 4 hours more)
#
# 1. Stockfish 15.1 sweeps all 960 positions with the research profile's
#    repeats: 4 searches of 250,000 nodes each, budgets drawn from seed 0
#    (`c960 run --profile research --games 0`).
# 2. Ethereal 12 (Debian ethereal-chess, contempt options at 0) searches each
#    position to depth 14 (about 0.8M nodes; Ethereal 12 does not honour node
#    limits, so one deterministic search per position: it joins the
#    agreement between engines, not the noise-weighted consensus).
# 3. With `all`: the research profile's adaptive self-play (20 games per
#    position, then rounds of 10 for the open positions), stopped at 24,000
#    games, what this 2-core machine plays in about 4 hours (1.04
#    core-seconds a game; the profile's own budget, 96,000, and the 566,000
#    games a reliability of 0.9 takes are a cluster's: docs/datasets.md "Research
#    dataset v2"); 5,000 nodes a move, one process per side.
# 4. `c960 report` over every run: the per-position table with the consensus
#    estimate, verdicts and q-values, the agreement between engines, and the
#    site; copied with all manifests into the repository.
#
# On a cluster the same stages run sharded: see docs/cluster.md.
set -euo pipefail
what=${1:?usage: publish-v2.sh sweeps|all}
case "$what" in sweeps|all) ;; *) echo "usage: publish-v2.sh sweeps|all" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
# C960_BIN: an already built c960 (the engines do the work, so any build
# gives the same tables).
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
runs=runs/research-v2

games=(--games 0)
[ "$what" = all ] && games=(--games 20 --budget 24000)
"$c960" run --profile research --engine stockfish "${games[@]}" --out "$runs" --quiet
"$c960" sweep --engine ethereal --depth 14 --quiet --out "$runs/ethereal"

sources=(--sweep "$runs/sweep" --sweep "$runs/ethereal")
[ "$what" = all ] && sources+=(--selfplay "$runs/selfplay")
"$c960" report "${sources[@]}" --out "$runs/published" --quiet

data=data/research-v2
site=reports/research-v2
rm -rf "$data.tmp" "$site.tmp"
mkdir -p "$data.tmp"
# The notebook's findings stay: notebooks/research-v2.ipynb checks them
# against the new tables (rewrite them with C960_WRITE_FINDINGS=1).
if [ -e "$data/findings.json" ]; then cp "$data/findings.json" "$data.tmp/"; fi
cp "$runs/published/positions.parquet" "$runs/published/positions.csv" "$data.tmp/"
cp "$runs/published/balance.csv" "$runs/published/balance.json" "$data.tmp/"
cp "$runs/sweep/repeats.parquet" "$data.tmp/stockfish-repeats.parquet"
cp "$runs/sweep/sweep.parquet" "$data.tmp/stockfish-sweep.parquet"
cp "$runs/sweep/manifest.json" "$data.tmp/stockfish-manifest.json"
cp "$runs/ethereal/sweep.parquet" "$data.tmp/ethereal-sweep.parquet"
cp "$runs/ethereal/manifest.json" "$data.tmp/ethereal-manifest.json"
cp "$runs/run.json" "$data.tmp/run.json"
if [ "$what" = all ]; then
  cp "$runs/selfplay/games.parquet" "$data.tmp/games.parquet"
  # The per-position table of the games: with it the site regenerates
  # from the published files alone (crates/c960/tests/regenerate.rs).
  cp "$runs/selfplay/positions.parquet" "$data.tmp/selfplay-positions.parquet"
  cp "$runs/selfplay/manifest.json" "$data.tmp/selfplay-manifest.json"
  cp "$runs/selfplay/rounds.jsonl" "$data.tmp/selfplay-rounds.jsonl"
fi
cp -r "$runs/published" "$site.tmp"
rm -f "$site.tmp/positions.parquet" "$site.tmp/positions.csv"
rm -rf "$data" "$site"
mv "$data.tmp" "$data"
mv "$site.tmp" "$site"
echo "published $data and $site ($what)"
