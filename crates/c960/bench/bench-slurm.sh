#!/usr/bin/env bash
# `just bench-slurm [POSITIONS] [GAMES] [NODES] [RUNS] [MERGE_GAMES]`: what
# sharding costs, measured on the one-node Slurm cluster of
# scripts/slurm-cluster.sh (started here when it is not running, and stopped
# again afterwards).
#
# 1. Throughput. The same self-play (POSITIONS x GAMES games of Stockfish at
#    NODES nodes a move) as one `c960 selfplay --jobs 2` process and as
#    `c960 slurm selfplay --shards 2 --cpus-per-task 1 --submit` (two array
#    tasks of one CPU each, then the merge job), interleaved RUNS times.
#    Prints the medians, the slower array task's own wall time (from its
#    manifest), the time from `sbatch` to the merged run, and both ratios
#    against the single process.
# 2. Merging. MERGE_GAMES games of the built-in engine (1 node a move, at
#    most 120 plies: real journals' size per game) played once in 4 shards
#    and kept in a cache directory (resumable), then `c960 merge` of the 4
#    shards against the baseline of rewriting the same run's outputs from its
#    own journal (`c960 selfplay` on the finished merged directory), RUNS
#    times each: median wall and CPU seconds, peak memory, and the merge of
#    a quarter as many games (also cached) to show memory stays flat.
#    MERGE_GAMES=0 skips this part, and GAMES=0 the first.
#
# C960_BIN: an already built c960 (default: a release build of this tree).
set -euo pipefail
positions=${1:-0-15}
games=${2:-48}
nodes=${3:-2000}
runs=${4:-3}
merge_games=${5:-100000}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

engine=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$engine" ] || { echo "bench-slurm needs Stockfish: apt-get install stockfish" >&2; exit 1; }
command -v bc >/dev/null || { echo "bench-slurm needs bc: apt-get install bc" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-slurm needs GNU time: apt-get install time" >&2; exit 1; }
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi

work=$(mkdir -p "$root/runs" && mktemp -d "$root/runs/.bench-slurm.XXXXXX")
started_cluster=0
cleanup() {
  rm -rf "$work"
  if [ "$started_cluster" = 1 ]; then scripts/slurm-cluster.sh stop; fi
}
trap cleanup EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
wall_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["this_run"]["wall_seconds"])' "$1"; }
games_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["games"])' "$1"; }

if [ "$games" -gt 0 ]; then
  if ! scripts/slurm-cluster.sh status >/dev/null 2>&1; then
    scripts/slurm-cluster.sh start
    started_cluster=1
  fi
  eval "$(scripts/slurm-cluster.sh env)"
  # Slurm needs the run directory on a file system the nodes see: the
  # repository's runs/ here (the one node is this machine).
  same="--engine $engine --positions $positions --games-per-position $games --nodes $nodes --seed 7 --quiet"
  echo "== 1. throughput: positions $positions x $games games at $nodes nodes a move, $runs runs each, interleaved ($(nproc) cores)"
  : > "$work/one" ; : > "$work/task" ; : > "$work/array"
  for run in $(seq 1 "$runs"); do
    rm -rf "$work/single"
    t0=$(now)
    "$c960" selfplay $same --jobs 2 --out "$work/single"
    t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/one"

    rm -rf "$work/sharded"
    t0=$(now)
    "$c960" slurm selfplay $same --shards 2 --cpus-per-task 1 --out "$work/sharded" --submit > "$work/submit.log"
    # Poll the file often and the queue rarely (each squeue call costs the
    # controller and munged CPU that the tasks would be measured without).
    polls=0
    until [ -e "$work/sharded/manifest.json" ]; do
      sleep 0.05
      polls=$((polls + 1))
      if [ $((polls % 100)) = 0 ] && ! squeue -h -o %i | grep -q . && [ ! -e "$work/sharded/manifest.json" ]; then
        sleep 1
        [ -e "$work/sharded/manifest.json" ] || { echo "bench-slurm: the jobs ended without a merged run; see $work/sharded/slurm/logs" >&2; cat "$work/sharded/slurm/logs/"* >&2; exit 1; }
      fi
    done
    t1=$(now)
    echo "$t1 - $t0" | bc >> "$work/array"
    slower=0
    for shard in 0 1; do
      w=$(wall_of "$work/sharded/shards/$shard/manifest.json")
      slower=$(echo "if ($w > $slower) $w else $slower" | bc)
    done
    echo "$slower" >> "$work/task"
    [ "$(games_of "$work/single/manifest.json")" = "$(games_of "$work/sharded/manifest.json")" ] ||
      { echo "bench-slurm: the merged run has not the single run's number of games" >&2; exit 1; }
    echo "   run $run: --jobs 2 $(tail -1 "$work/one") s; slower task $(tail -1 "$work/task") s; sbatch to merged $(tail -1 "$work/array") s"
  done
  one=$(median < "$work/one"); task=$(median < "$work/task"); array=$(median < "$work/array")
  printf '   median: one process --jobs 2 %.2f s | slower of 2 array tasks %.2f s (%.3fx) | sbatch to merged run %.2f s (%.3fx)\n' \
    "$one" "$task" "$(echo "$task / $one" | bc -l)" "$array" "$(echo "$array / $one" | bc -l)"
fi

[ "$merge_games" -gt 0 ] || exit 0
per=$(( (merge_games + 959) / 960 ))
quarter=$(( (per + 3) / 4 ))
builtin() { # games per position
  echo "--engine builtin --nodes 1 --max-plies 120 --positions all --games-per-position $1 --seed 3 --quiet"
}
# Plays 960 x $1 built-in games in 4 shards into the cache (once; resumed
# when interrupted) and prints the cache directory.
shards() {
  local dir=${XDG_CACHE_HOME:-$HOME/.cache}/c960-bench-merge/$1
  for shard in 0 1 2 3; do
    "$c960" selfplay $(builtin "$1") --shard "$shard/4" --jobs "$(nproc)" --out "$dir/shards/$shard" >&2
  done
  echo "$dir"
}
echo "== 2. merge: 960 x $per = $((960 * per)) built-in games in 4 shards, and 960 x $quarter"
cache=$(shards "$per")
small=$(shards "$quarter")
echo "   journals: $(du -cm "$cache"/shards/*/journal.jsonl | tail -1 | cut -f1) MB and $(du -cm "$small"/shards/*/journal.jsonl | tail -1 | cut -f1) MB"
: > "$work/merge"; : > "$work/rewrite"; : > "$work/quarter"
for run in $(seq 1 "$runs"); do
  rm -rf "$work/merged" "$work/quarter-run"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$c960" merge "$cache"/shards/* --out "$work/merged" > /dev/null
  cat "$work/t" >> "$work/merge"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$c960" selfplay $(builtin "$per") --out "$work/merged" > /dev/null
  cat "$work/t" >> "$work/rewrite"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$c960" merge "$small"/shards/* --out "$work/quarter-run" > /dev/null
  cat "$work/t" >> "$work/quarter"
done
report() { # name file
  local wall cpu rss
  wall=$(awk '{print $1}' "$2" | median)
  cpu=$(awk '{print $2 + $3}' "$2" | median)
  rss=$(awk '{print $4}' "$2" | median)
  printf '   %-44s %7.2f s wall %7.2f s CPU %6d MB peak\n' "$1" "$wall" "$cpu" $((rss / 1024))
}
report "merge of 4 shards ($((960 * per)) games)" "$work/merge"
report "baseline: one run rewriting its outputs" "$work/rewrite"
report "merge of 4 shards ($((960 * quarter)) games)" "$work/quarter"
m=$(awk '{print $1}' "$work/merge" | median); b=$(awk '{print $1}' "$work/rewrite" | median)
mq=$(awk '{print $4}' "$work/quarter" | median); mf=$(awk '{print $4}' "$work/merge" | median)
printf '   merge / baseline wall: %.3fx; peak memory, %d games / %d games: %.3fx\n' \
  "$(echo "$m / $b" | bc -l)" $((960 * per)) $((960 * quarter)) "$(echo "$mf / $mq" | bc -l)"
