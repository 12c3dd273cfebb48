#!/usr/bin/env bash
# `just bench-validity [JOBS]`: how right each sweep design is per engine
# core-hour. On a fixed stratified subset of 96 positions, every rater (an
# engine, version and settings) searches each position once; designs are
# single raters and sets of raters combined by `c960 balance` (the
# consensus, weighted by what the data say about each rater). Each design
# is judged by `c960 compare` against the independent public analyses in
# the validation directory: Pearson's r with the standardized mean of all
# of them (with its bootstrap interval), and the lowest and highest r
# against any single one.
#
# The subset: SP = k + 96 * ((3k) mod 10) for k = 0..95, so every placement
# of the two bishops and the queen appears once and each knight pair 9 or 10
# times.
#
# Raters (one thread each, Hash 16 MiB unless named): Stockfish 15.1
# (Debian) at 1M, 4M and 16M nodes, at 1M with MultiPV 3 and with Hash 64,
# and v2's design (4 searches of 250k nodes, budgets jittered); Stockfish 19
# from npm (WebAssembly under Node) at 250k, 1M and 4M nodes, at 1M with
# MultiPV 3 and with Hash 64; its lite network at 1M and 4M; Ethereal 12 at
# depth 14.
#
# Engine core-hours: each engine's speed is measured in this run as CPU
# time (user + system, so a busy machine does not inflate it) over a fixed
# calibration sweep (8 positions, 2M nodes each), and a rater's core-hours
# are its nodes searched over that speed; also projected to all 960
# positions. The two Stockfish builds' speeds are printed with their ratio.
#
# Needs: Stockfish (apt-get install stockfish), Stockfish from npm (npm
# install stockfish@19.0.0, in ./node_modules or $C960_NODE_MODULES),
# Ethereal (apt-get install ethereal-chess) and the validation tables
# ($C960_VALIDATION, default ../shared/validation; docs/validity.md says
# where each comes from). Runs go to $C960_BENCH_DIR (default
# target/bench-validity) and resume when interrupted.
set -euo pipefail
jobs=${1:-$(nproc)}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
validation=${C960_VALIDATION:-$root/../shared/validation}
work=${C960_BENCH_DIR:-$target/bench-validity}

shopt -s nullglob
tables=("$validation"/*.csv)
if [ ${#tables[@]} -lt 2 ]; then
  echo "bench-validity needs the independent per-position tables in $validation (set C960_VALIDATION; docs/validity.md names their sources)" >&2
  exit 1
fi
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet -p c960
  c960="$target/release/c960"
fi
mkdir -p "$work/raters" "$work/designs"
positions=$(python3 -c "print(','.join(str(k + 96 * ((3 * k) % 10)) for k in range(96)))")

# tag | flags
raters=(
  "eth-d14|--engine ethereal --depth 14"
  "sf15-v2|--engine stockfish --nodes 250000 --repeats 4 --seed 0"
  "sf19-250k|--engine stockfish-npm --nodes 250000"
  "sf15-1m|--engine stockfish --nodes 1000000"
  "sf15-1m-mpv3|--engine stockfish --nodes 1000000 --multipv 3"
  "sf15-1m-h64|--engine stockfish --nodes 1000000 --hash 64"
  "sf19-1m|--engine stockfish-npm --nodes 1000000"
  "sf19-1m-mpv3|--engine stockfish-npm --nodes 1000000 --multipv 3"
  "sf19-1m-h64|--engine stockfish-npm --nodes 1000000 --hash 64"
  "sf19lite-1m|--engine stockfish-npm-lite --nodes 1000000"
  "sf15-4m|--engine stockfish --nodes 4000000"
  "sf19-4m|--engine stockfish-npm --nodes 4000000"
  "sf19lite-4m|--engine stockfish-npm-lite --nodes 4000000"
  "sf15-16m|--engine stockfish --nodes 16000000"
)
for entry in "${raters[@]}"; do
  tag=${entry%%|*}
  read -r -a flags <<<"${entry#*|}"
  if [ ! -f "$work/raters/$tag/manifest.json" ]; then
    echo "-- $tag: ${flags[*]}"
    nice -n 5 "$c960" sweep "${flags[@]}" --positions "$positions" --jobs "$jobs" --quiet \
      --out "$work/raters/$tag"
  fi
done

# name | raters
designs=(
  "four 1M-class searches (v2's measurement)|sf15-v2 sf15-1m-mpv3 sf15-1m-h64 sf19-1m"
  "SF19 1M, three settings|sf19-1m sf19-1m-mpv3 sf19-1m-h64"
  "SF19 4M + SF15 4M|sf19-4m sf15-4m"
  "SF19 4M + SF15 16M|sf19-4m sf15-16m"
  "v3: SF19 4M, SF15 4M, SF19 1M MultiPV 3, SF15 1M Hash 64|sf19-4m sf15-4m sf19-1m-mpv3 sf15-1m-h64"
  "SF19 4M, SF15 4M, SF19 1M Hash 64, SF15 1M MultiPV 3|sf19-4m sf15-4m sf19-1m-h64 sf15-1m-mpv3"
  "SF19 4M, SF15 16M, SF19 1M MultiPV 3, SF15 1M Hash 64|sf19-4m sf15-16m sf19-1m-mpv3 sf15-1m-h64"
  "every Stockfish rater|sf15-v2 sf15-1m sf15-1m-mpv3 sf15-1m-h64 sf15-4m sf15-16m sf19-250k sf19-1m sf19-1m-mpv3 sf19-1m-h64 sf19-4m sf19lite-1m sf19lite-4m"
  "every rater, Ethereal too|sf15-v2 sf15-1m sf15-1m-mpv3 sf15-1m-h64 sf15-4m sf15-16m sf19-250k sf19-1m sf19-1m-mpv3 sf19-1m-h64 sf19-4m sf19lite-1m sf19lite-4m eth-d14"
)
with=()
for table in "${tables[@]}"; do with+=(--with "$table"); done
: >"$work/designs/list.txt"
for entry in "${raters[@]}"; do
  tag=${entry%%|*}
  "$c960" compare "$work/raters/$tag" "${with[@]}" --format csv --out "$work/designs/$tag.csv"
  echo "$tag|$tag" >>"$work/designs/list.txt"
done
i=0
for entry in "${designs[@]}"; do
  i=$((i + 1))
  name=${entry%%|*}
  sweeps=()
  for tag in ${entry#*|}; do sweeps+=(--sweep "$work/raters/$tag"); done
  "$c960" balance "${sweeps[@]}" --out "$work/designs/d$i" >/dev/null
  "$c960" compare "$work/designs/d$i/balance.csv" "${with[@]}" --format csv \
    --out "$work/designs/d$i.csv"
  echo "$name|${entry#*|}|d$i" >>"$work/designs/list.txt"
done

# Each engine's speed in CPU time (user + system of c960 and its engine
# processes), over the same 8 positions at 2M nodes, from scratch.
calibration=$(python3 -c "print(','.join(str(k * 120 + 7) for k in range(8)))")
: >"$work/speed.txt"
for engine in stockfish stockfish-npm stockfish-npm-lite ethereal; do
  rm -rf "$work/speed-$engine"
  limit=(--nodes 2000000)
  [ "$engine" = ethereal ] && limit=(--depth 14)
  TIMEFORMAT='%U %S'
  seconds=$( { time "$c960" sweep --engine "$engine" "${limit[@]}" --positions "$calibration" \
    --jobs 1 --quiet --out "$work/speed-$engine" >/dev/null 2>&1; } 2>&1 )
  echo "$engine $seconds" >>"$work/speed.txt"
done

python3 - "$work" <<'PY'
import csv, sys
work = sys.argv[1]

def searches(tag):
    for name in ("repeats.csv", "sweep.csv"):
        try:
            return list(csv.DictReader(open(f"{work}/raters/{tag}/{name}")))
        except FileNotFoundError:
            pass
    raise SystemExit(f"no table for rater {tag}")

def engine_of(tag):
    if tag.startswith("eth"):
        return "ethereal"
    if tag.startswith("sf19lite"):
        return "stockfish-npm-lite"
    return "stockfish-npm" if tag.startswith("sf19") else "stockfish"

speed = {}
for line in open(f"{work}/speed.txt"):
    engine, user, system = line.split()
    rows = list(csv.DictReader(open(f"{work}/speed-{engine}/sweep.csv")))
    nodes = sum(float(r["nodes"]) for r in rows)
    speed[engine] = nodes / (float(user) + float(system))

def hours(tag):
    nodes = sum(float(r["nodes"] or 0) for r in searches(tag))
    return nodes / speed[engine_of(tag)] / 3600

def agreement(stem):
    rows = list(csv.DictReader(open(f"{work}/designs/{stem}.csv")))
    mean = [r for r in rows if not r["source"]][0]
    singles = [float(r["pearson"]) for r in rows if r["source"]]
    return mean, min(singles), max(singles)

positions = len(searches("sf15-1m"))
print(f"\n== validity per engine core-hour: {positions} positions, r with the standardized mean "
      "of the independent analyses (95% bootstrap interval)")
header = f"{'design':<44}{'r (mean)':>8}{'95% interval':>16}{'single r':>14}{'core-h':>9}{'core-h 960':>11}{'r/core-h':>9}"
print(header)
lines = [l.rstrip("\n").split("|") for l in open(f"{work}/designs/list.txt")]
for name, tags, stem in ((l[0], l[1].split(), l[-1]) for l in lines):
    mean, low, high = agreement(stem)
    h = sum(hours(t) for t in tags)
    h960 = h * 960 / positions
    r = float(mean["pearson"])
    print(f"{name:<44}{r:>8.3f}{'[%.3f, %.3f]' % (float(mean['pearson_low']), float(mean['pearson_high'])):>16}"
          f"{'%.2f-%.2f' % (low, high):>14}{h:>9.3f}{h960:>11.2f}{r / h960:>9.3f}")

print("\n== engine speed in this run (nodes per CPU second, one thread, 8 positions)")
sf15, sf19, lite = speed["stockfish"], speed["stockfish-npm"], speed["stockfish-npm-lite"]
print(f"Stockfish 15.1 (native): {sf15:,.0f}; Stockfish 19 (npm, WebAssembly under Node): "
      f"{sf19:,.0f} = {sf19 / sf15:.2f}x native; its lite network: {lite:,.0f} = {lite / sf15:.2f}x")
PY
