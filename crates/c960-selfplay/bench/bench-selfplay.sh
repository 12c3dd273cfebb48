#!/usr/bin/env bash
# `just bench-selfplay [POSITIONS] [GAMES] [NODES] [RUNS]`: the same games
# (positions x games per position, NODES per move, no jitter, no
# adjudication, 400-ply cap) played by c960 (all cores) and by a plain
# python-chess loop with one Stockfish. Prints games/s and moves/s (medians
# over RUNS, timed by hyperfine), their ratio, and c960's harness overhead
# per move with one job: (wall time - time inside engine searches) / moves.
set -euo pipefail
positions=${1:-0-9}
games=${2:-4}
nodes=${3:-3000}
runs=${4:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

engine=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$engine" ] || { echo "bench-selfplay needs Stockfish: apt-get install stockfish" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "bench-selfplay needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
venv=${XDG_CACHE_HOME:-$HOME/.cache}/c960-venv
if ! "$venv/bin/python" -c 'import chess.engine' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet chess
fi

cargo build --release --locked --quiet
c960="$target/release/c960"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$c960" positions --out "$work/positions.csv"
same="--positions $positions --games-per-position $games --nodes $nodes --jitter 0 --resign-plies 0 --draw-plies 0 --max-plies 400 --quiet"

echo "== $positions x $games games at $nodes nodes per move, $runs runs each ($(nproc) cores)"
hyperfine --runs "$runs" --export-json "$work/times.json" \
  --prepare "rm -rf $work/c960" \
  -n "c960 selfplay (all cores)" "$c960 selfplay --engine $engine $same --out $work/c960" \
  -n "python-chess loop (1 engine)" \
  "$venv/bin/python crates/c960-selfplay/bench/python_chess_selfplay.py $engine $work/positions.csv $positions $games $nodes 400 > $work/py-moves"

# Harness overhead per move, with one engine process.
"$c960" selfplay --engine "$engine" $same --jobs 1 --out "$work/one"

"$venv/bin/python" - "$work" <<'PY'
import json, statistics, sys
work = sys.argv[1]
times = {r["command"]: statistics.median(r["times"]) for r in json.load(open(f"{work}/times.json"))["results"]}
# The --jobs 1 run plays the same games as the timed runs.
one = json.load(open(f"{work}/one/manifest.json"))
games, moves = one["games"], one["this_run"]["moves"]
py_moves = int(open(f"{work}/py-moves").read())
c960, py = times["c960 selfplay (all cores)"], times["python-chess loop (1 engine)"]
print(f"c960 selfplay (all cores):     median {c960:.2f}s  {games / c960:.2f} games/s  {moves / c960:.0f} moves/s")
print(f"python-chess loop (1 engine):  median {py:.2f}s  {games / py:.2f} games/s  {py_moves / py:.0f} moves/s")
print(f"ratio: c960 is {py / c960:.2f}x faster; same games: {moves == py_moves} ({moves} vs {py_moves} moves)")
one = one["this_run"]
overhead = (one["wall_seconds"] - one["search_seconds"]) / one["moves"] * 1000
print(f"harness overhead (c960 --jobs 1): {overhead:.3f} ms per move "
      f"({one['wall_seconds']:.2f}s wall, {one['search_seconds']:.2f}s in searches, {one['moves']} moves, engine start-up included)")
PY
