#!/usr/bin/env bash
# `just bench-engine [NODES_SPEED] [MATCH_POSITIONS] [MATCH_NODES]`:
# 1. speed: the built-in engine and Stockfish each search the same 16 start
#    positions to NODES_SPEED nodes with one process; prints nodes/s of each
#    (total nodes / total search time) and their ratio;
# 2. strength: a match against Stockfish with UCI_LimitStrength at its
#    lowest UCI_Elo, equal nodes per move, every position played twice with
#    colours reversed; prints the built-in engine's score with a 95% interval.
set -euo pipefail
speed_nodes=${1:-300000}
positions=${2:-0-959:19}
match_nodes=${3:-20000}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
engine=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$engine" ] || { echo "bench-engine needs Stockfish: apt-get install stockfish" >&2; exit 1; }
cargo build --release --locked --quiet
c960="$target/release/c960"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every 19th position from 0 gives 51 positions, 102 games.
if [[ "$positions" == *:* ]]; then
  range=${positions%:*}; step=${positions##*:}
  positions=$(seq -s, "${range%-*}" "$step" "${range#*-}")
fi
speed_set="0,42,91,292,412,518,534,671,700,794,848,880,900,920,940,959"

echo "== speed: 16 positions at $speed_nodes nodes, one process each"
for e in builtin stockfish; do
  "$c960" sweep --engine "$e" --positions "$speed_set" --nodes "$speed_nodes" --jobs 1 --quiet --out "$work/speed-$e"
done
python3 - "$work" <<'PY'
import csv, sys
work = sys.argv[1]
nps = {}
for e in ("builtin", "stockfish"):
    rows = list(csv.DictReader(open(f"{work}/speed-{e}/sweep.csv")))
    nodes = sum(int(r["nodes"]) for r in rows)
    ms = sum(int(r["time_ms"]) for r in rows)
    nps[e] = nodes / (ms / 1000)
    print(f"{e:>10}: {nps[e]:,.0f} nodes/s ({nodes:,} nodes in {ms / 1000:.2f}s)")
print(f"ratio: the built-in engine searches {nps['builtin'] / nps['stockfish']:.2f}x Stockfish's nodes/s")
PY

echo "== strength: built-in vs Stockfish (UCI_LimitStrength, UCI_Elo 1350), $match_nodes nodes per move"
"$c960" selfplay --engine builtin --engine-b stockfish \
  --option-b UCI_LimitStrength=true --option-b UCI_Elo=1350 \
  --positions "$positions" --games-per-position 2 --nodes "$match_nodes" --jitter 0 \
  --quiet --out "$work/match"
python3 - "$work" <<'PY'
import csv, io, json, math, subprocess, sys
work = sys.argv[1]
# Per game from the PGN: the built-in engine's score.
wins = draws = losses = 0
white = None
for line in open(f"{work}/match/games.pgn"):
    if line.startswith("[White "):
        white = line.split('"')[1]
    elif line.startswith("[Result "):
        result = line.split('"')[1]
        builtin_white = white.startswith("c960 builtin")
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == builtin_white:
            wins += 1
        else:
            losses += 1
n = wins + draws + losses
score = (wins + draws / 2) / n
var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
half = 1.96 * math.sqrt(var / n)
print(f"built-in engine: +{wins} ={draws} -{losses} in {n} games: score {score:.3f} "
      f"(95% interval {max(0, score - half):.3f}..{min(1, score + half):.3f})")
PY
