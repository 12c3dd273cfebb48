#!/usr/bin/env bash
# How data/research-stockfish-15.1/ and reports/research/ are made:
#
#   bash data/publish-research.sh GAMES
#
# runs (or resumes, or reuses) `c960 run --profile research --games GAMES`
# with Stockfish into runs/research — sweep of all 960 positions at
# 1,000,000 nodes with MultiPV 3, GAMES self-play games per position at
# 5,000 nodes a move — and copies the per-position table, the self-play
# game table, the provenance and the report site into the repository.
# The self-play stage plays round by round (one game from every position,
# then the next), so a run stopped at any time can be published with
# GAMES = the number of complete rounds in its journal.
set -euo pipefail
games=${1:?usage: publish-research.sh GAMES}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
cargo build --release --locked --quiet -p c960
"$target/release/c960" run --profile research --engine stockfish --games "$games" --out runs/research

data=data/research-stockfish-15.1
site=reports/research
rm -rf "$data.tmp" "$site.tmp"
mkdir -p "$data.tmp"
cp runs/research/report/positions.parquet runs/research/report/positions.csv "$data.tmp/"
cp runs/research/selfplay/games.parquet "$data.tmp/games.parquet"
cp runs/research/run.json "$data.tmp/run.json"
cp runs/research/sweep/manifest.json "$data.tmp/sweep-manifest.json"
cp runs/research/selfplay/manifest.json "$data.tmp/selfplay-manifest.json"
cp -r runs/research/report "$site.tmp"
rm -f "$site.tmp/positions.parquet" "$site.tmp/positions.csv"
rm -rf "$data" "$site"
mv "$data.tmp" "$data"
mv "$site.tmp" "$site"
echo "published $data and $site"
