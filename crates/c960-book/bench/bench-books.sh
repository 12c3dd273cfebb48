#!/usr/bin/env bash
# The opening books in fastchess and cutechess-cli: both runners load and
# play every published book (data/books/*.epd) and the official FRC books,
# read each played line as python-chess does, and fastchess measures each
# book's resolution (Stockfish at 1.5×N against N nodes per move, the same
# seed and game pairs for every book). docs/books.md describes the method.
#
# Usage: bench-books.sh [PAIRS] [NODES] [LOAD_PAIRS] [LOAD_NODES] [CONCURRENCY] [SEED]
#   PAIRS        game pairs per book in the resolution run (default 1000; 0 skips it)
#   NODES        N, the weaker engine's nodes per move (default 2000; the stronger plays 1.5×N)
#   LOAD_PAIRS   game pairs per book and runner in the load check (default 4)
#   LOAD_NODES   nodes per move in the load check (default 1000)
#   CONCURRENCY  games at once (default 2)
#   SEED         the runners' -srand (default 960)
# Environment:
#   C960_BENCH_BOOKS_CACHE  runners, official books, runs and tables (default ~/.cache/c960-bench-books)
#   C960_OFFICIAL_BOOKS     a directory holding FRC_openings.epd and 3moves_FRC.epd (default CACHE/official;
#                           fetched from C960_BOOKS_URL when missing)
#   C960_BOOKS_URL          default https://github.com/official-stockfish/books/raw/master
#   C960_FASTCHESS_REPO/REF default https://github.com/Disservin/fastchess.git, v1.8.2-alpha
#   C960_CUTECHESS_REPO/REF default https://github.com/cutechess/cutechess.git, v1.5.1
#   C960_STOCKFISH          default /usr/games/stockfish (Debian's Stockfish 15.1)
#   C960_PYTHON             a Python with python-chess (default python3)
# Neither runner comes from a package registry, so this is a script, not CI.
set -euo pipefail

pairs=${1:-1000}
nodes=${2:-2000}
load_pairs=${3:-4}
load_nodes=${4:-1000}
concurrency=${5:-2}
seed=${6:-960}
for value in "$pairs" "$nodes" "$load_pairs" "$load_nodes" "$concurrency" "$seed"; do
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "bench-books: $value is not a whole number" >&2; exit 2; }
done
((nodes >= 2 && load_nodes >= 1 && load_pairs >= 1 && concurrency >= 1)) ||
  { echo "bench-books: NODES must be at least 2, LOAD_PAIRS, LOAD_NODES and CONCURRENCY at least 1" >&2; exit 2; }
strong_nodes=$((nodes * 3 / 2))

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
here="$root/crates/c960-book/bench"
cache=${C960_BENCH_BOOKS_CACHE:-$HOME/.cache/c960-bench-books}
official=${C960_OFFICIAL_BOOKS:-$cache/official}
books_url=${C960_BOOKS_URL:-https://github.com/official-stockfish/books/raw/master}
fastchess_repo=${C960_FASTCHESS_REPO:-https://github.com/Disservin/fastchess.git}
fastchess_ref=${C960_FASTCHESS_REF:-v1.8.2-alpha}
cutechess_repo=${C960_CUTECHESS_REPO:-https://github.com/cutechess/cutechess.git}
cutechess_ref=${C960_CUTECHESS_REF:-v1.5.1}
stockfish=${C960_STOCKFISH:-/usr/games/stockfish}
python=${C960_PYTHON:-python3}
mkdir -p "$cache"

say() { printf '%s\n' "$*" >&2; }
die() { say "bench-books: $*"; exit 1; }

[[ -x "$stockfish" ]] || die "no Stockfish at $stockfish (apt-get install stockfish, or set C960_STOCKFISH)"
"$python" -c 'import chess' 2>/dev/null || die "$python has no python-chess (pip install chess, or set C960_PYTHON)"

# --- 1. The runners, built once from source into the cache -----------------

# shellcheck source=runners.sh
source "$here/runners.sh"
build_fastchess
build_cutechess

# --- The books ---------------------------------------------------------------

fetch_official FRC_openings 3moves_FRC

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run="$cache/runs/$stamp"
mkdir -p "$run"
# The runners write their own files (fastchess its config.json) into the working directory.
cd "$run"
engines_load=(-engine "cmd=$stockfish" name=sf-a -engine "cmd=$stockfish" name=sf-b
  -each proto=uci tc=inf "nodes=$load_nodes" option.Hash=16 option.Threads=1)
adjudication=(-draw movenumber=34 movecount=8 score=20 -resign movecount=3 score=600)

# --- 2. Both runners load every book ------------------------------------------

load_books=("$root"/data/books/*.epd "$official/FRC_openings.epd" "$official/3moves_FRC.epd")
say "== load check: ${#load_books[@]} books, $load_pairs game pairs each per runner at $load_nodes nodes"
load_failed=0
: >"$run/load.tsv"
for book in "${load_books[@]}"; do
  name=$(basename "$book" .epd)
  dir="$run/load/$name"
  mkdir -p "$dir"
  status=0
  "$fastchess" "${engines_load[@]}" "${adjudication[@]}" -variant fischerandom \
    -openings "file=$book" format=epd order=random -srand "$seed" \
    -rounds "$load_pairs" -games 2 -repeat -concurrency "$concurrency" \
    -pgnout "file=$dir/fastchess.pgn" >"$dir/fastchess.out" 2>&1 || status=$?
  echo "exit code $status" >>"$dir/fastchess.out"
  status=0
  "$cutechess" "${engines_load[@]}" "${adjudication[@]}" -variant fischerandom \
    -openings "file=$book" format=epd order=random -srand "$seed" \
    -rounds "$load_pairs" -games 2 -repeat -concurrency "$concurrency" \
    -pgnout "$dir/cutechess.pgn" >"$dir/cutechess.out" 2>&1 || status=$?
  echo "exit code $status" >>"$dir/cutechess.out"
  "$python" "$here/check_played.py" "$book" $((2 * load_pairs)) \
    "fastchess=$dir/fastchess.pgn=$dir/fastchess.out" \
    "cutechess=$dir/cutechess.pgn=$dir/cutechess.out" >>"$run/load.tsv" || load_failed=1
done
"$python" "$here/check_played.py" --table "$run/load.tsv" >"$run/load.md"
cat "$run/load.md"
((load_failed == 0)) || die "a runner did not load a book as python-chess reads it; see $run/load.md and $run/load/"

# --- 3. Resolution -------------------------------------------------------------

table="$cache/bench-books-$stamp.md"
(cd "$root" && cargo build --locked -q --release -p c960-balance --example pentanomial)
pentanomial="${CARGO_TARGET_DIR:-$root/target}/release/examples/pentanomial"
{
  echo "# just bench-books, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, concurrency $concurrency"
  echo "- c960 $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
  echo "- fastchess $fastchess_ref $fastchess_commit; cutechess-cli $cutechess_ref $cutechess_commit"
  echo "- Engine: $(echo quit | "$stockfish" | head -1) ($stockfish), Hash 16, 1 thread, at $strong_nodes (A) against $nodes (B) nodes per move"
  echo "- python-chess $("$python" -c 'import chess; print(chess.__version__)')"
  echo "- Load check: every book, $load_pairs game pairs per runner at $load_nodes nodes (seed $seed): every book loaded by both runners, every game's FEN tag the book line as python-chess reads it"
  echo
  cat "$run/load.md"
  echo
} >"$table"
if ((pairs > 0)); then
  res_books=("$root/data/books/c960_FRC_starts.epd" "$root/data/books/c960_FRC_balanced_v3.epd"
    "$root/data/books/c960_FRC_exits_cp90-120.epd" "$root/data/books/c960_FRC_exits_dr48-52.epd"
    "$official/FRC_openings.epd" "$official/3moves_FRC.epd")
  say "== resolution: ${#res_books[@]} books, $pairs game pairs each, $strong_nodes against $nodes nodes, seed $seed"
  # Each book's match is kept under the settings' name, so a run stopped
  # between books (a session's end, a kill) resumes with the next book;
  # a book's match itself starts again if it was stopped midway.
  done_dir="$cache/resolution/pairs$pairs-nodes$nodes-seed$seed-c$concurrency"
  mkdir -p "$done_dir"
  : >"$run/resolution.tsv"
  for book in "${res_books[@]}"; do
    name=$(basename "$book" .epd)
    if [ -f "$done_dir/$name.tsv" ] && [ -f "$done_dir/$name.out" ] && grep -q '^Elo' "$done_dir/$name.out"; then
      say "$name: done in an earlier run ($done_dir)"
      cat "$done_dir/$name.tsv" >>"$run/resolution.tsv"
      continue
    fi
    out="$done_dir/$name.out"
    start=$(date +%s.%N)
    "$fastchess" -engine "cmd=$stockfish" "name=sf-$strong_nodes" "nodes=$strong_nodes" \
      -engine "cmd=$stockfish" "name=sf-$nodes" "nodes=$nodes" \
      -each proto=uci tc=inf option.Hash=16 option.Threads=1 "${adjudication[@]}" -variant fischerandom \
      -openings "file=$book" format=epd order=random -srand "$seed" \
      -rounds "$pairs" -games 2 -repeat -concurrency "$concurrency" -report penta=true \
      -ratinginterval "$pairs" -pgnout "file=$done_dir/$name.pgn" >"$out.tmp" 2>&1 ||
      die "fastchess failed on $name; see $out.tmp"
    mv "$out.tmp" "$out"
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    printf '%s\t%s\t%s\n' "$name" "$seconds" "$out" >"$done_dir/$name.tsv"
    cat "$done_dir/$name.tsv" >>"$run/resolution.tsv"
    say "$name: $seconds s"
  done
  {
    echo "- Resolution: $pairs game pairs per book (fastchess -rounds $pairs -games 2 -repeat, -srand $seed, openings order=random), fishtest adjudication (-draw movenumber=34 movecount=8 score=20 -resign movecount=3 score=600)"
    echo
    "$python" "$here/resolution.py" "$pentanomial" "$concurrency" "$run/resolution.tsv"
  } >>"$table"
fi
echo
cat "$table"
say "written: $table (runs in $run)"
