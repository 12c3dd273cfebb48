#!/usr/bin/env bash
# `just bench-sweep [POSITIONS] [NODES] [RUNS]`: the same positions and node
# limit swept by c960 (all cores) and by a sequential python-chess loop with
# one Stockfish process. Prints both wall times (medians over RUNS, timed by
# hyperfine), their ratio, c960's harness overhead against the engine's own
# search time, and whether best moves and scores agree.
set -euo pipefail
positions=${1:-0-63}
nodes=${2:-200000}
runs=${3:-3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

engine=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$engine" ] || { echo "bench-sweep needs Stockfish: apt-get install stockfish" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "bench-sweep needs hyperfine: apt-get install hyperfine" >&2; exit 1; }

venv=${XDG_CACHE_HOME:-$HOME/.cache}/c960-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import chess.engine' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet chess
fi

cargo build --release --locked --quiet
c960="$target/release/c960"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$c960" positions --out "$work/positions.csv"

echo "== $positions at nodes $nodes, $runs runs each ($(nproc) cores)"
hyperfine --runs "$runs" --export-json "$work/times.json" \
  --prepare "rm -rf $work/c960" \
  -n "c960 sweep (all cores)" \
  "$c960 sweep --engine $engine --positions $positions --nodes $nodes --quiet --out $work/c960" \
  -n "python-chess loop (1 engine)" \
  "$venv/bin/python crates/c960-sweep/bench/python_chess_sweep.py $engine $work/positions.csv $positions $nodes $work/py.csv"

# Harness overhead: c960 with one engine process against the time that
# engine reports for its own searches.
rm -rf "$work/one"
start=$(date +%s.%N)
"$c960" sweep --engine "$engine" --positions "$positions" --nodes "$nodes" --jobs 1 --quiet --out "$work/one"
end=$(date +%s.%N)

"$venv/bin/python" - "$work" "$start" "$end" <<'PY'
import csv, json, statistics, sys
work, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
times = {r["command"]: statistics.median(r["times"]) for r in json.load(open(f"{work}/times.json"))["results"]}
c960 = times["c960 sweep (all cores)"]
py = times["python-chess loop (1 engine)"]
print(f"c960 sweep (all cores):        median {c960:.2f}s")
print(f"python-chess loop (1 engine):  median {py:.2f}s")
print(f"ratio: c960 is {py / c960:.2f}x faster")
one = list(csv.DictReader(open(f"{work}/one/sweep.csv")))
engine_s = sum(int(r["time_ms"]) for r in one) / 1000
wall = end - start
print(f"harness overhead (c960 --jobs 1): {wall:.2f}s wall, {engine_s:.2f}s engine search time, "
      f"{100 * (wall - engine_s) / engine_s:.1f}% overhead (engine start-up included)")
# The --jobs 1 run has the same settings, hence the same rows.
ours = {r["sp"]: r for r in one}
theirs = {r["sp"]: r for r in csv.DictReader(open(f"{work}/py.csv"))}
same_move = sum(ours[sp]["best_move_uci"] == theirs[sp]["best_move_uci"] for sp in theirs)
same_score = sum(
    (ours[sp]["score_cp"], ours[sp]["score_mate"]) == (theirs[sp]["score_cp"], theirs[sp]["score_mate"])
    for sp in theirs
)
print(f"identical best moves: {same_move}/{len(theirs)}, identical scores: {same_score}/{len(theirs)}")
PY
