# c960 tasks. Every recipe is a plain cargo or shell command, so nothing here
# is needed to use c960: the README gives the same commands without `just`.

# List the recipes.
default:
    @just --list

# The main job: positions, sweep, self-play and report (quick profile).
run *args:
    cargo run --release --locked -- run {{args}}

# The position table for all 960 positions.
positions out="positions.csv":
    cargo run --release --locked -- positions --out {{out}}

# Regenerate the committed position table (a test fails when it is stale).
data:
    cargo run --release --locked -- positions --out data/positions.csv

# Regenerate the published opening books in data/books (a test fails when one is stale; data/books/README.md).
books:
    cargo run --release --locked -- book starts --out data/books/c960_FRC_starts.epd
    cargo run --release --locked -- book balanced --balance data/research-v4/balance.csv --fairest 240 --reference equal --out data/books/c960_FRC_balanced_v4.epd
    cargo run --release --locked -- book balanced --balance data/research-v3/balance.csv --fairest 240 --reference equal --out data/books/c960_FRC_balanced_v3.epd
    cargo run --release --locked -- book starts --variant dfrc --positions sample:2000:1 --out data/books/c960_DFRC_sample2000.epd

# The test suite, exactly as the README and CI run it.
test:
    cargo test --workspace --locked

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets --locked -- -D warnings

# Format the code.
fmt:
    cargo fmt --all

# Everything CI runs.
ci:
    CI=true bash .ci/run

# Baselines: shakmaty set-up + move generation for the features bench;
# `c960 show 518` (start-up and one position) for the whole command.

# Time the position table against same-run baselines (medians, ratios).
bench-positions:
    cargo bench --locked -p c960-core --bench features
    cargo build --release --locked
    if command -v hyperfine >/dev/null; then \
      hyperfine --warmup 3 --runs 30 -N \
        "${CARGO_TARGET_DIR:-target}/release/c960 show 518" \
        "${CARGO_TARGET_DIR:-target}/release/c960 positions" ; \
    else echo "hyperfine not installed (apt-get install hyperfine): skipping the whole-command timing"; fi

# c960 sweep against a sequential python-chess loop with one Stockfish.
bench-sweep positions="0-63" nodes="200000" runs="3":
    bash crates/c960-sweep/bench/bench-sweep.sh {{positions}} {{nodes}} {{runs}}

# c960 selfplay (one Stockfish per side) against a plain python-chess loop playing the same games; the second process's cost.
bench-selfplay positions="0-9" games="4" nodes="3000" runs="3":
    bash crates/c960-selfplay/bench/bench-selfplay.sh {{positions}} {{games}} {{nodes}} {{runs}}

# PGN import throughput (MB/s, games/s) against pgn-reader's parse-only speed, on one core.
bench-import games="120000" runs="3":
    bash crates/c960-games/bench/bench-import.sh {{games}} {{runs}}

# The built-in engine: nodes/s against Stockfish's, and a match against Stockfish at its lowest UCI_Elo.
bench-engine nodes="300000" positions="0-959:19" match_nodes="20000":
    bash crates/c960-engine/bench/bench-engine.sh {{nodes}} {{positions}} {{match_nodes}}

# Reliability per core-hour on a fixed subset: one deep search against K repeats at the same nodes; uniform against adaptive self-play at the same games.
bench-resolve positions="48" nodes="250000" k="4" games="24" game_nodes="1000" target="0.3":
    bash crates/c960-balance/bench/bench-resolve.sh {{positions}} {{nodes}} {{k}} {{games}} {{game_nodes}} {{target}}

# What searching v4's bound scores again until exact would change: native Stockfish 15.1 raters replayed past their node limit (journal data/research-v4/bounds-searched.csv, resumable), the eight-rater consensus remade with those scores, against the published one and the independent analyses (docs/validity.md). SEARCH=0 uses the committed journal.
bench-bounds workers="2" cap="4":
    bash crates/c960-balance/bench/bench-bounds.sh {{workers}} {{cap}}

# Sharding on the one-node Slurm cluster: 2 array tasks of 1 CPU against one --jobs 2 process (medians, ratios); merging MERGE_GAMES games against a run rewriting its own outputs.
bench-slurm positions="0-15" games="48" nodes="2000" runs="3" merge_games="100000":
    bash crates/c960/bench/bench-slurm.sh {{positions}} {{games}} {{nodes}} {{runs}} {{merge_games}}

# The opening books in fastchess and cutechess-cli, both built from source into ~/.cache/c960-bench-books: each runner plays every published book and the official FRC books (LOAD_PAIRS game pairs at LOAD_NODES), each line read as python-chess reads it; then fastchess measures each book's resolution, Stockfish at 1.5×NODES against NODES nodes, PAIRS game pairs per book (docs/books.md).
bench-books pairs="1000" nodes="2000" load_pairs="4" load_nodes="1000" concurrency="2" seed="960":
    bash crates/c960-book/bench/bench-books.sh {{pairs}} {{nodes}} {{load_pairs}} {{load_nodes}} {{concurrency}} {{seed}}

# Resolution at high draw rates (docs/books.md): Stockfish 15.1 at 2×NODES against NODES nodes, PAIRS game pairs per book journaled in data/books/resolution/ (resumable, across sessions); after every pass over the books, data/books/resolution.csv, docs/books-resolution.svg, and the table and where the measurement stands in docs/books.md from the journals. PAIRS=0 only recomputes them from the committed journals.
bench-books-resolution pairs="800" nodes="80000" concurrency="2" seed="960":
    bash crates/c960-book/bench/bench-resolution.sh {{pairs}} {{nodes}} {{concurrency}} {{seed}}

# Validity per engine core-hour: sweep designs (raters alone and combined) on a fixed stratified subset of 96 positions, judged by their agreement with the independent analyses in $C960_VALIDATION (docs/validity.md).
bench-validity jobs="2":
    bash crates/c960/bench/bench-validity.sh {{jobs}}

# Validity per engine core-hour of every v4 candidate rater and design, on all 960 positions (docs/validity.md).
bench-validity-960:
    bash crates/c960/bench/bench-validity-960.sh

# What readers see, in real Chromium: the v3 index, fair.html, a position page and German and Turkish kits at 390 and 1366 px and printed on A4 and Letter (docs/screens; fails when a page sticks out sideways or a round sheet spills).
screenshots:
    bash scripts/screenshots.sh

# The candidate raters of dataset v4 over all 960 positions, resumable (data/v4-raters.sh).
v4-raters parallel="2":
    bash data/v4-raters.sh {{parallel}}

# The difficulty tables of data/research-v4 (good moves, gaps and their asymmetry, Stockfish 19 and 17.1 with replies), resumable (data/publish-difficulty.sh).
difficulty:
    bash data/publish-difficulty.sh
