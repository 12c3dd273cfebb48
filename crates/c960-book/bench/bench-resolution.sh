#!/usr/bin/env bash
# How well each Chess960 opening book resolves an engine difference where
# engine testers play, at high draw rates: Stockfish 15.1 at 2N against N
# nodes per move, PAIRS game pairs per book (colours reversed within each
# pair), fishtest's adjudication, played by fastchess in chunks whose
# finished pairs are journaled in data/books/resolution/BUDGET/BOOK.csv
# (committed as they grow, so the measurement can span several sessions),
# and each run that plays appends who played (engine, fastchess, c960) to
# data/books/resolution/BUDGET/runs.jsonl.
# Then the table data/books/resolution.csv, its chart, and the table and
# where the measurement stands in docs/books.md ("Resolution at high draw
# rates") are computed from the journals with c960's statistics.
#
# Usage: bench-resolution.sh [PAIRS] [NODES] [CONCURRENCY] [SEED]
#   PAIRS        game pairs per book (default 800; 0 only recomputes the
#                table from the committed journals, playing nothing)
#   NODES        N, the weaker engine's nodes per move (default 80000, the
#                calibrated budget; the stronger plays 2N)
#   CONCURRENCY  games at once (default 2)
#   SEED         the order the book lines are played in (default 960)
# Environment: as bench-books.sh (C960_BENCH_BOOKS_CACHE, C960_OFFICIAL_BOOKS,
#   C960_BOOKS_URL, C960_FASTCHESS_REPO/REF, C960_PYTHON);
#   C960_STOCKFISH         the engine; by default Debian's Stockfish 15.1
#                          rebuilt from source for this CPU's AVX2 (the same
#                          bench signature, so the same games, faster; see
#                          build_stockfish in runners.sh), or Debian's own
#                          build without AVX2;
#   C960_STOCKFISH_REPO    where Stockfish's source is cloned from (default
#                          its GitHub repository);
#   C960_RESOLUTION_BOOKS  the books to play, NAME=FILE separated by spaces
#                          (default: the five of docs/books.md).
# A stopped run (Ctrl-C, a kill, a session's end) loses at most the pairs
# of the chunk under way: run the same command again. Runs on the same
# journal directory at once are refused by a lock.
set -euo pipefail

pairs=${1:-800}
nodes=${2:-80000}
concurrency=${3:-2}
seed=${4:-960}
for value in "$pairs" "$nodes" "$concurrency" "$seed"; do
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "bench-resolution: $value is not a whole number" >&2; exit 2; }
done
((nodes >= 1 && concurrency >= 1)) || { echo "bench-resolution: NODES and CONCURRENCY must be at least 1" >&2; exit 2; }

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here="$root/crates/c960-book/bench"
cache=${C960_BENCH_BOOKS_CACHE:-$HOME/.cache/c960-bench-books}
official=${C960_OFFICIAL_BOOKS:-$cache/official}
books_url=${C960_BOOKS_URL:-https://github.com/official-stockfish/books/raw/master}
fastchess_repo=${C960_FASTCHESS_REPO:-https://github.com/Disservin/fastchess.git}
fastchess_ref=${C960_FASTCHESS_REF:-v1.8.2-alpha}
debian_stockfish=/usr/games/stockfish
stockfish=${C960_STOCKFISH:-}
python=${C960_PYTHON:-python3}
mkdir -p "$cache"

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-resolution: $*"; exit 1; }

"$python" -c 'import chess, matplotlib' 2>/dev/null ||
  die "$python lacks python-chess or matplotlib (pip install chess matplotlib, or set C960_PYTHON)"
resolution="$root/data/books/resolution"
budget="sf15.1-$((2 * nodes / 1000))k-vs-$((nodes / 1000))k"
((nodes % 1000 == 0)) || budget="sf15.1-$((2 * nodes))-vs-$nodes"

# The table, its chart and the page's table from the journals as they
# stand: after every pass over the books (so that they never lag the
# committed journals by more than a pass) and at the end.
pentanomial="${CARGO_TARGET_DIR:-$root/target}/release/examples/pentanomial"
(cd "$root" && cargo build --locked -q --release -p c960-balance --example pentanomial) ||
  die "c960's pentanomial statistics did not build"
recompute() {
  local checked
  checked=$("$python" "$here/journal.py" check --journal-root "$resolution" \
    --book-dir "$root/data/books" --official "$official" 2>&1) ||
    { say "$checked"; die "a journal does not match its book"; }
  "$python" "$here/resolution_table.py" "$pentanomial" "$resolution" "$root/data/books/resolution.csv" \
    "$root/docs/books-resolution.svg" "$root/docs/books.md" >/dev/null ||
    die "the resolution table was not written"
  say "written: data/books/resolution.csv, docs/books-resolution.svg, and the table and standing in docs/books.md"
}

if ((pairs > 0)); then
  mkdir -p "$resolution/$budget"
  exec 9>"$resolution/$budget/.lock"
  flock -n 9 || die "another run is playing into $resolution/$budget"
  # shellcheck source=runners.sh
  source "$here/runners.sh"
  if [[ -z "$stockfish" ]]; then
    [[ -x "$debian_stockfish" ]] || die "no Stockfish at $debian_stockfish (apt-get install stockfish, or set C960_STOCKFISH)"
    build_stockfish "$debian_stockfish"
  fi
  [[ -x "$stockfish" ]] || die "no Stockfish at $stockfish (apt-get install stockfish, or set C960_STOCKFISH)"
  build_fastchess
  fetch_official 3moves_FRC DFRC_4852_v1
  books=${C960_RESOLUTION_BOOKS:-"c960_FRC_starts=$root/data/books/c960_FRC_starts.epd
    3moves_FRC=$official/3moves_FRC.epd
    DFRC_4852_v1=$official/DFRC_4852_v1.epd
    c960_FRC_4852=$root/data/books/c960_FRC_4852.epd
    c960_FRC_exits_cp90-120=$root/data/books/c960_FRC_exits_cp90-120.epd"}
  # Who plays this run, beside the journals (runs.jsonl).
  names=()
  for entry in $books; do names+=("${entry%%=*}"); done
  version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
  "$python" "$here/journal.py" provenance --journal "$resolution/$budget" \
    --stockfish "$stockfish" --fastchess "$fastchess" --fastchess-version "$fastchess_ref $fastchess_commit" \
    --c960 "$version (git $(git -C "$root" rev-parse HEAD))" --nodes "$nodes" \
    --concurrency "$concurrency" --seed "$seed" --books "${names[@]}" ||
    die "the run's provenance was not recorded"
  # One chunk of every book in turn, so that a session's engine hours
  # advance all books alike.
  while :; do
    left=0
    for entry in $books; do
      name=${entry%%=*}
      file=${entry#*=}
      [[ -s "$file" ]] || die "no book $file for $name"
      done_pairs=$(($(wc -l <"$resolution/$budget/$name.csv" 2>/dev/null || echo 2) - 2))
      ((done_pairs < pairs)) || continue
      left=1
      nice -n 10 "$python" "$here/journal.py" play --book "$name=$file" --journal "$resolution/$budget" \
        --fastchess "$fastchess" --stockfish "$stockfish" --nodes "$nodes" \
        --pairs $((done_pairs + 10 < pairs ? done_pairs + 10 : pairs)) --chunk 10 \
        --concurrency "$concurrency" --seed "$seed"
    done
    ((left)) || break
    recompute
  done
fi
recompute
