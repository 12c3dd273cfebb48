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
#
#   bash data/publish-research.sh site
#
# rebuilds the per-position table and reports/research/ from the published
# files alone, with no engine: `c960 restore` turns the published game
# table back into the self-play run directory, and `c960 report` joins it
# with the published sweep (data/sweep-stockfish-15.1-nodes1000000-mpv3:
# the research run's sweep stage took all its 960 searches from that
# sweep's journal, so the rows are the same and its manifest gives the
# searches' own times). crates/c960/tests/regenerate.rs checks that this
# gives the committed files byte for byte.
set -euo pipefail
what=${1:?usage: publish-research.sh GAMES|site}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
data=data/research-stockfish-15.1
site=reports/research

if [ "$what" = site ]; then
  # The report names its run directories in its provenance: these paths
  # are part of the site.
  work=runs/research-v1
  rm -rf "$work"
  "$c960" restore "$data/games.parquet" --out "$work/selfplay" --quiet
  "$c960" report --sweep data/sweep-stockfish-15.1-nodes1000000-mpv3 \
    --selfplay "$work/selfplay" --out "$work/report" --quiet
  rm -rf "$site.tmp"
  cp "$work/report/positions.parquet" "$work/report/positions.csv" "$data/"
  cp -r "$work/report" "$site.tmp"
  rm -f "$site.tmp/positions.parquet" "$site.tmp/positions.csv"
  rm -rf "$site"
  mv "$site.tmp" "$site"
  echo "rebuilt $data/positions.* and $site from the published files"
  exit 0
fi
case "$what" in *[!0-9]*) echo "usage: publish-research.sh GAMES|site" >&2; exit 2 ;; esac

"$c960" run --profile research --engine stockfish --games "$what" --out runs/research
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
