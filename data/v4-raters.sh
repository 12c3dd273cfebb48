#!/usr/bin/env bash
# The candidate raters of dataset v4, each a sweep of all 960 positions
# (one search each, one thread, node limits), resumable: every rater
# journals its searches, so running the script again continues where it
# stopped. v4 combines them with v3's four published raters; which of them
# enter v4 is chosen on all 960 positions by their validity per engine
# core-hour (docs/validity.md), never on a subset.
#
#   bash data/v4-raters.sh [PARALLEL [NAME...]]
#
# With NAMEs, only those raters run (data/publish-v4.sh names v4's).
#
# Raters (name | c960 sweep flags):
#   sf17-1m      Stockfish 17.1 from npm, 1,000,000 nodes
#   sf18-1m      Stockfish 18 from npm, 1,000,000 nodes
#   sf15-1m      Stockfish 15.1 (Debian), 1,000,000 nodes
#   sf19-1m      Stockfish 19 from npm, 1,000,000 nodes
#   sf17-1m-h64  Stockfish 17.1 from npm, 1,000,000 nodes, Hash 64 MiB
#   sf18-1m-h64  Stockfish 18 from npm, 1,000,000 nodes, Hash 64 MiB
#
# Runs go to $C960_V4_RUNS (default ~/.cache/c960-v4), outside the clone;
# PARALLEL raters run at once (default: the machine's cores), each with one
# engine. Needs Stockfish 15.1 (apt-get install stockfish) and the npm
# packages side by side (npm install stockfish@19.0.0
# sf17@npm:stockfish@17.1.0 sf18@npm:stockfish@18.0.8; C960_NODE_MODULES
# names that node_modules).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
runs=${C960_V4_RUNS:-$HOME/.cache/c960-v4}
parallel=${1:-$(nproc)}
shift || true
only=("$@")
mkdir -p "$runs"
raters=(
  "sf17-1m|--engine stockfish-npm@17.1 --nodes 1000000"
  "sf18-1m|--engine stockfish-npm@18 --nodes 1000000"
  "sf15-1m|--engine stockfish --nodes 1000000"
  "sf19-1m|--engine stockfish-npm@19 --nodes 1000000"
  "sf17-1m-h64|--engine stockfish-npm@17.1 --nodes 1000000 --hash 64"
  "sf18-1m-h64|--engine stockfish-npm@18 --nodes 1000000 --hash 64"
)
run_rater() {
  local tag=${1%%|*} flags
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $tag "* ]]; then
    return 0
  fi
  read -r -a flags <<<"${1#*|}"
  if [ -f "$runs/$tag/manifest.json" ] && ! grep -q '"failed": \[[^]]' "$runs/$tag/manifest.json"; then
    return 0
  fi
  echo "-- $tag: ${flags[*]}"
  nice -n 10 "$c960" sweep "${flags[@]}" --positions all --jobs 1 --quiet --out "$runs/$tag"
}
running=0
for entry in "${raters[@]}"; do
  run_rater "$entry" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
echo "v4 raters complete in $runs"
