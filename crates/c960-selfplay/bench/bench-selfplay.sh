#!/usr/bin/env bash
# `just bench-selfplay [POSITIONS] [GAMES] [NODES] [RUNS]`: the same games
# (positions x games per position, NODES per move, no jitter, no
# adjudication, 400-ply cap) played by c960's default (one Stockfish process
# per side, all cores) and by a plain python-chess loop with one Stockfish
# process per side. Prints games/s and moves/s (medians over RUNS, timed by
# hyperfine), their ratio, c960's harness overhead per move with one job,
# and what the second process per side costs: moves/s against
# --shared-process and the engines' peak memory.
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

cargo build --release --locked --quiet -p c960
c960="$target/release/c960"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$c960" positions --out "$work/positions.csv"
same="--positions $positions --games-per-position $games --nodes $nodes --jitter 0 --resign-plies 0 --draw-plies 0 --max-plies 400 --quiet"

echo "== $positions x $games games at $nodes nodes per move, $runs runs each ($(nproc) cores)"
hyperfine --runs "$runs" --export-json "$work/times.json" \
  --prepare "rm -rf $work/c960" \
  -n "c960 selfplay (all cores)" "$c960 selfplay --engine $engine $same --out $work/c960" \
  -n "python-chess loop (1 game at a time)" \
  "$venv/bin/python crates/c960-selfplay/bench/python_chess_selfplay.py $engine $work/positions.csv $positions $games $nodes 400 > $work/py-moves"

# One job: the harness overhead per move, and the cost of a second process
# per side against --shared-process (peak resident memory of the engine
# processes, sampled every 50 ms, and moves/s).
peak_engine_rss() { # prints the peak summed RSS (KiB) of the children of $1
  local pid=$1 peak=0 now
  while kill -0 "$pid" 2>/dev/null; do
    # ps fails while there is no child yet: that is 0 KiB, not an error.
    now=$({ ps --ppid "$pid" -o rss= 2>/dev/null || true; } | awk '{s += $1} END {print s + 0}')
    [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.05
  done
  echo "$peak"
}
"$c960" selfplay --engine "$engine" $same --jobs 1 --out "$work/one" &
peak_engine_rss $! > "$work/one-rss"
wait
"$c960" selfplay --engine "$engine" $same --jobs 1 --shared-process --out "$work/shared" &
peak_engine_rss $! > "$work/shared-rss"
wait

"$venv/bin/python" - "$work" <<'PY'
import json, statistics, sys
work = sys.argv[1]
times = {r["command"]: statistics.median(r["times"]) for r in json.load(open(f"{work}/times.json"))["results"]}
# The --jobs 1 run plays the same games as the timed runs.
one = json.load(open(f"{work}/one/manifest.json"))
games, moves = one["games"], one["this_run"]["moves"]
py_moves = int(open(f"{work}/py-moves").read())
c960, py = times["c960 selfplay (all cores)"], times["python-chess loop (1 game at a time)"]
print(f"c960 selfplay (all cores):           median {c960:.2f}s  {games / c960:.2f} games/s  {moves / c960:.0f} moves/s")
print(f"python-chess loop (1 game at a time): median {py:.2f}s  {games / py:.2f} games/s  {py_moves / py:.0f} moves/s")
print(f"ratio: c960 is {py / c960:.2f}x faster; same games: {moves == py_moves} ({moves} vs {py_moves} moves)")
run = one["this_run"]
overhead = (run["wall_seconds"] - run["search_seconds"]) / run["moves"] * 1000
print(f"harness overhead (c960 --jobs 1): {overhead:.3f} ms per move "
      f"({run['wall_seconds']:.2f}s wall, {run['search_seconds']:.2f}s in searches, {run['moves']} moves, engine start-up included)")
shared = json.load(open(f"{work}/shared/manifest.json"))["this_run"]
rss_one, rss_shared = (int(open(f"{work}/{n}-rss").read()) / 1024 for n in ("one", "shared"))
print(f"second process per side (--jobs 1): {run['moves'] / run['wall_seconds']:.0f} moves/s and "
      f"{rss_one:.0f} MiB of engines, against {shared['moves'] / shared['wall_seconds']:.0f} moves/s and "
      f"{rss_shared:.0f} MiB with --shared-process (those games differ: each side sees the other's hash)")
PY
