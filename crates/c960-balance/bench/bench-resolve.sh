#!/usr/bin/env bash
# `just bench-resolve [POSITIONS] [NODES] [K] [GAMES] [GAME_NODES]`: how much
# per-position resolution each design buys per core-hour, on a fixed subset
# of positions with Stockfish (one thread, one job per core).
#
# Sweeps, at the same total nodes per position:
#   deep    one search of K x NODES nodes per position
#   repeats K searches of NODES nodes each (budgets perturbed by the seed)
# Each design is run twice over (two independent replicates, as `--repeats`
# with different budgets), so its reliability is measured, not assumed: the
# split-half correlation between the replicates is the reliability of one
# replicate of the design.
#
# Self-play, at the same total games:
#   uniform  GAMES games per position
#   adaptive 4 games each, then rounds of 4 for the positions whose
#            anytime-valid interval is open (wider than +-TARGET and
#            overlapping the band's edge), widest first, until none is open
#            or the same budget is spent
# Both are judged by the same anytime-valid verdicts (`c960 balance`):
# split-half reliability of the per-position scores, positions decided, and
# the mean interval half width.
#
# Prints each design's figures, core-hours (engine search time) and the ratio
# of the two designs' reliability per core-hour, measured in this same run.
set -euo pipefail
count=${1:-48}
nodes=${2:-250000}
k=${3:-4}
games=${4:-24}
game_nodes=${5:-1000}
target=${6:-0.3}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}

engine=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$engine" ] || { echo "bench-resolve needs Stockfish: apt-get install stockfish" >&2; exit 1; }

# C960_BIN runs an already built binary (the figures are the engine's, so a
# debug build measures the same reliability and engine time).
if [ -n "${C960_BIN:-}" ]; then
  c960=$C960_BIN
else
  cargo build --release --locked --quiet
  c960="$target/release/c960"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A fixed subset spread over all 960 positions (every 960/count-th SP).
positions=$(python3 -c "n=$count; print(','.join(str(i*960//n) for i in range(n)))")
deep=$((k * nodes))
echo "== $count positions, Stockfish at one thread, $(nproc) jobs"

echo "-- sweeps: deep ($deep nodes x 1) against repeats ($nodes nodes x $k), two replicates each"
"$c960" sweep --engine "$engine" --positions "$positions" --nodes "$deep" --repeats 2 \
  --seed 11 --quiet --out "$work/deep"
"$c960" sweep --engine "$engine" --positions "$positions" --nodes "$nodes" --repeats $((2 * k)) \
  --seed 11 --quiet --out "$work/repeats"

echo "-- self-play: uniform ($games games each) against adaptive (target +-$target, same budget)"
budget=$((count * games))
"$c960" selfplay --engine "$engine" --positions "$positions" --nodes "$game_nodes" \
  --games-per-position "$games" --seed 5 --quiet --out "$work/uniform"
"$c960" selfplay --engine "$engine" --positions "$positions" --nodes "$game_nodes" \
  --games-per-position 4 --round-games 4 --budget "$budget" --target-halfwidth "$target" \
  --seed 5 --quiet --out "$work/adaptive"
for design in uniform adaptive; do
  "$c960" balance --games "$work/$design" --out "$work/$design-balance" >/dev/null
done

python3 - "$work" "$k" <<'PY'
import csv, json, math, sys
work, k = sys.argv[1], int(sys.argv[2])

def fisher(r, n):
    """95% interval of a correlation over n positions (Fisher z)."""
    if n <= 3 or abs(r) >= 1:
        return (r, r)
    z, h = math.atanh(r), 1.96 / math.sqrt(n - 3)
    return (math.tanh(z - h), math.tanh(z + h))

def sweep(name):
    m = json.load(open(f"{work}/{name}/manifest.json"))
    rows = list(csv.DictReader(open(f"{work}/{name}/repeats.csv")))
    hours = sum(float(r["time_ms"] or 0) for r in rows) / 3.6e6 / 2  # one replicate
    rel = m["repeatability"]
    return rel["split_half"], rel["positions"], hours

print()
print(f"{'sweep design':<28}{'reliability':>12}{'95% interval':>18}{'core-h':>9}{'rel/core-h':>12}")
figures = {}
for name, label in [("deep", "deep (1 search)"), ("repeats", f"repeats ({k} searches)")]:
    r, n, hours = sweep(name)
    lo, hi = fisher(r, n)
    figures[name] = (r, hours)
    print(f"{label:<28}{r:>12.3f}{f'[{lo:.2f}, {hi:.2f}]':>18}{hours:>9.4f}{r / hours:>12.1f}")
(rd, hd), (rr, hr) = figures["deep"], figures["repeats"]
print(f"ratio repeats/deep, reliability per core-hour: {(rr / hr) / (rd / hd):.2f}"
      f" (reliability {rr / rd:.2f}x, core-hours {hr / hd:.2f}x)")

print()
print(f"{'self-play design':<28}{'games':>7}{'reliability':>12}{'decided':>9}{'mean +-':>9}{'core-h':>9}{'rel/core-h':>12}")
sp = {}
for name in ["uniform", "adaptive"]:
    m = json.load(open(f"{work}/{name}/manifest.json"))
    b = json.load(open(f"{work}/{name}-balance/balance.json"))
    g = b["games"]
    rel = (g.get("reliability") or {}).get("whole")
    decided = sum(v for key, v in g["verdicts"].items() if key != "unresolved")
    rows = list(csv.DictReader(open(f"{work}/{name}-balance/balance.csv")))
    widths = [(float(r["games_score_high"]) - float(r["games_score_low"])) / 2
              for r in rows if r["games_score_low"]]
    width = sum(widths) / len(widths) if widths else float("nan")
    hours = m["this_run"]["search_seconds"] / 3600
    sp[name] = (rel, hours, decided, width)
    per = f"{rel / hours:.1f}" if rel is not None and hours > 0 else "n/a"
    rel_text = f"{rel:.3f}" if rel is not None else "n/a"
    print(f"{name:<28}{m['games']:>7}{rel_text:>12}{decided:>9}{width:>9.3f}{hours:>9.4f}{per:>12}")
(ru, hu, du, wu), (ra, ha, da, wa) = sp["uniform"], sp["adaptive"]
ratio = ((ra / ha) / (ru / hu)) if ru and ra and ru > 0 and ra > 0 else float("nan")
print(f"ratio adaptive/uniform: reliability per core-hour {ratio:.2f}, decided {da} vs {du}, "
      f"mean half width {wa / wu:.2f}x")
a = json.load(open(f"{work}/adaptive/manifest.json"))["adaptive"]
print(f"adaptive: {a['rounds']} rounds, games per position {a['games_min']}..{a['games_max']}, "
      f"stopped: {a['stopped']}")
PY
