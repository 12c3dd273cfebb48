#!/usr/bin/env bash
# `just bench-import [GAMES] [RUNS]`: PGN import throughput on one core.
# Generates GAMES realistic Chess960 games (Lichess-style tags and clock
# comments, all 960 start positions; ~2.6 kB per game, so the default
# 120,000 games are ~320 MB) once, compresses a .zst twin when `zstd` is
# installed, and times with hyperfine (medians over RUNS): the baseline —
# pgn-reader parsing the same file without checking a move — then
# `c960 import` of the plain and the compressed file. Prints MB/s and
# games/s of each, import against the baseline as a ratio, and the peak
# memory of an import.
set -euo pipefail
games=${1:-120000}
runs=${2:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
command -v hyperfine >/dev/null || { echo "bench-import needs hyperfine: apt-get install hyperfine" >&2; exit 1; }

cargo build --release --locked --quiet -p c960 -p c960-games --example pgn_tool
c960="$target/release/c960"
tool="$target/release/examples/pgn_tool"
data="$target/bench-import"
mkdir -p "$data"
pgn="$data/games-$games.pgn"
[ -s "$pgn" ] || "$tool" gen "$pgn.tmp" "$games" 1 && { [ -s "$pgn" ] || mv "$pgn.tmp" "$pgn"; }
inputs=("$pgn")
if command -v zstd >/dev/null; then
  [ -s "$pgn.zst" ] || zstd -q -19 -T0 "$pgn" -o "$pgn.zst"
  inputs+=("$pgn.zst")
fi
bytes=$(stat -c %s "$pgn")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== $games games, $((bytes / 1000000)) MB of PGN, $runs runs each (one core each)"
args=(-n "baseline: pgn-reader parse only" "$tool scan $pgn")
for input in "${inputs[@]}"; do
  args+=(-n "c960 import $(basename "$input")" "$c960 import $input --out $work/out --quiet")
done
hyperfine --runs "$runs" --warmup 1 -N --export-json "$work/times.json" "${args[@]}" >/dev/null

python3 - "$work/times.json" "$bytes" "$games" <<'PY'
import json, sys
times = json.load(open(sys.argv[1]))["results"]
size, games = int(sys.argv[2]), int(sys.argv[3])
base = times[0]["median"]
for t in times:
    m = t["median"]
    print(f"{t['command']:<44} {m:7.2f} s  {size / m / 1e6:7.1f} MB/s  {games / m:9.0f} games/s  {m / base:5.2f}x baseline")
PY
/usr/bin/time -f "peak memory of an import: %M kB" "$c960" import "$pgn" --out "$work/out" --quiet
