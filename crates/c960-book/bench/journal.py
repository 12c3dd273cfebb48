"""Game pairs from an opening book, journaled: the resolution measurement of
docs/books.md, resumable across sessions.

journal.py play --book NAME=FILE --journal DIR --fastchess PATH --stockfish PATH
                --nodes N --pairs P [--chunk C] [--concurrency J] [--seed S]
    Plays game pairs of Stockfish at 2N (A) against Stockfish at N (B) nodes
    per move from the book's lines in a seeded order, C pairs per fastchess
    run, and after each run appends its finished pairs to DIR/NAME.csv (the
    whole file rewritten atomically). A stopped run (a session's end, a
    kill) loses at most the pairs of the run under way; the same command
    resumes after the last journaled pair. The journal's header line records
    the settings; a journal made with other settings is refused.

journal.py check --journal-root DIR --book-dir DIR [--official DIR]
    Re-reads every journal DIR/BUDGET/BOOK.csv against its book (BOOK.epd
    in --book-dir or --official): the book's SHA-256 is the one recorded,
    each pair's line is the book line its pair number names in the seeded
    order, and each pair's points are its two results'. Exits 1 naming the
    first problem.

journal.py provenance --journal DIR --stockfish PATH --fastchess PATH
                      --fastchess-version TEXT --c960 TEXT --nodes N
                      --concurrency J --seed S --books NAME...
    Appends one line to DIR/runs.jsonl saying who plays a run: the engine
    (its UCI name, path, SHA-256, nodes and options), fastchess (version,
    path, SHA-256), the adjudication, c960's version, the books and the
    pairs each had journaled when the run started (the file rewritten
    atomically).

Each pair is one opening played twice with colours reversed (fastchess
-games 2 -repeat), with fishtest's adjudication.
"""

import argparse
import csv
import glob
import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

import chess

from atomic import replacing

# fishtest's adjudication, as fastchess takes it.
ADJUDICATION = ["-draw", "movenumber=34", "movecount=8", "score=20",
                "-resign", "movecount=3", "score=600"]
# Each engine's UCI options, in every game and in the journals' settings.
ENGINE_OPTIONS = {"Hash": 16, "Threads": 1}
COLUMNS = ["pair", "line", "fen", "a_white_result", "a_black_result",
           "a_points", "plies_a_white", "plies_a_black",
           "termination_a_white", "termination_a_black"]
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def die(message):
    print(f"journal: {message}", file=sys.stderr)
    sys.exit(1)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def book_lines(path):
    """The book's lines as a runner reads them (CR stripped, blanks skipped),
    with their 1-based line numbers."""
    lines = []
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, 1):
            text = text.rstrip("\r\n").strip()
            if text:
                lines.append((number, text))
    return lines


def order(lines, seed):
    """The seeded order of the book's lines: by SHA-256 of the seed and the
    line number, so any book is shuffled the same way on every machine."""
    def key(entry):
        return hashlib.sha256(f"{seed}:{entry[0]}".encode()).digest()
    return sorted(lines, key=key)


def position_key(fen):
    """Placement, side to move, castling rooks and legal en passant square,
    as python-chess reads the line in Chess960 mode."""
    board = chess.Board(fen, chess960=True)
    return board.epd(en_passant="legal")


def settings_line(args, book_sha):
    return (f"# book={args.book_name} sha256={book_sha} seed={args.seed} "
            f"engine_a={args.engine_name}@{2 * args.nodes} engine_b={args.engine_name}@{args.nodes} "
            f"hash={ENGINE_OPTIONS['Hash']} threads={ENGINE_OPTIONS['Threads']} adjudication=fishtest")


def read_journal(path, header):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        first = handle.readline().rstrip("\n")
        if first != header:
            die(f"{path} was made with other settings:\n  {first}\nnot\n  {header}")
        rows = list(csv.DictReader(handle))
    for index, row in enumerate(rows):
        if int(row["pair"]) != index:
            die(f"{path}: row {index + 2} is pair {row['pair']}, expected {index}")
    return rows


def write_journal(path, header, rows):
    with replacing(path, encoding="utf-8", newline="") as handle:
        handle.write(header + "\n")
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def pgn_games(text):
    """(tags, movetext) of each game of a PGN text."""
    games, tags, moves = [], {}, []
    for line in text.splitlines():
        match = TAG.match(line.strip())
        if match:
            if moves:
                games.append((tags, " ".join(moves)))
                tags, moves = {}, []
            tags[match.group(1)] = match.group(2)
        elif line.strip():
            moves.append(line.strip())
    if tags:
        games.append((tags, " ".join(moves)))
    return games


POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def pairs_from_pgn(text, name_a, chunk):
    """The finished pairs of one fastchess run, in round order: for each
    round, the game A played with White and the one it played with Black."""
    rounds = {}
    for tags, _ in pgn_games(text):
        result = tags.get("Result")
        if result not in POINTS:
            die(f"a game of round {tags.get('Round')} has no result ({result})")
        rounds.setdefault(int(tags["Round"]), []).append(tags)
    pairs = []
    for number in sorted(rounds):
        games = rounds[number]
        if len(games) != 2:
            die(f"round {number} has {len(games)} games, not 2")
        white = [g for g in games if g["White"] == name_a]
        black = [g for g in games if g["Black"] == name_a]
        if len(white) != 1 or len(black) != 1:
            die(f"round {number}: engine A did not play each colour once")
        if white[0]["FEN"] != black[0]["FEN"]:
            die(f"round {number}: the two games started from different positions")
        pairs.append((number, white[0], black[0]))
    if len(pairs) != chunk:
        die(f"fastchess finished {len(pairs)} pairs, not {chunk}")
    return pairs


def play(args):
    lines = book_lines(args.book_file)
    if not lines:
        die(f"{args.book_file} holds no line")
    book_sha = sha256(args.book_file)
    header = settings_line(args, book_sha)
    os.makedirs(args.journal, exist_ok=True)
    path = os.path.join(args.journal, f"{args.book_name}.csv")
    rows = read_journal(path, header)
    ordered = order(lines, args.seed)
    name_a, name_b = "A", "B"
    # SIGTERM or SIGINT stops the run after the chunk in hand: fastchess, if
    # it is playing, is told to stop at once (its unfinished chunk is lost);
    # a chunk it finished is journaled first. No signal raises, so none can
    # land in the middle of a write; a second one changes nothing.
    stopping = {"now": False, "fastchess": None, "cut": False}

    def cut(fastchess):
        stopping["cut"] = True
        fastchess.terminate()

    def stop(_signum, _frame):
        stopping["now"] = True
        if stopping["fastchess"] is not None:
            cut(stopping["fastchess"])

    def stopped():
        print(f"journal: stopped; {len(rows)} pairs of {args.book_name} are journaled in {path}",
              file=sys.stderr)
        sys.exit(130)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while len(rows) < args.pairs:
        if stopping["now"]:
            stopped()
        first = len(rows)
        chunk = min(args.chunk, args.pairs - first)
        picked = [ordered[(first + i) % len(ordered)] for i in range(chunk)]
        with tempfile.TemporaryDirectory(prefix="c960-journal-") as work:
            epd = os.path.join(work, "chunk.epd")
            with open(epd, "w", encoding="utf-8") as handle:
                handle.writelines(text + "\n" for _, text in picked)
            pgn = os.path.join(work, "games.pgn")
            command = [
                args.fastchess,
                "-engine", f"cmd={args.stockfish}", f"name={name_a}", f"nodes={2 * args.nodes}",
                "-engine", f"cmd={args.stockfish}", f"name={name_b}", f"nodes={args.nodes}",
                "-each", "proto=uci", "tc=inf", *(f"option.{k}={v}" for k, v in ENGINE_OPTIONS.items()),
                *ADJUDICATION, "-variant", "fischerandom",
                "-openings", f"file={epd}", "format=epd", "order=sequential",
                "-rounds", str(chunk), "-games", "2", "-repeat",
                "-concurrency", str(args.concurrency), "-srand", str(args.seed),
                "-pgnout", f"file={pgn}",
            ]
            fastchess = subprocess.Popen(command, cwd=work, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True)
            stopping["fastchess"] = fastchess
            if stopping["now"]:
                cut(fastchess)  # the signal came before fastchess started
            out, err = fastchess.communicate()
            stopping["fastchess"] = None
            if stopping["cut"]:
                stopped()  # whatever fastchess wrote after the signal is not a chunk
            if fastchess.returncode != 0:
                die(f"fastchess exited {fastchess.returncode}:\n{out[-2000:]}{err[-2000:]}")
            if not os.path.exists(pgn):
                die(f"fastchess exited 0 but wrote no games:\n{out[-2000:]}{err[-2000:]}")
            with open(pgn, encoding="utf-8") as handle:
                pairs = pairs_from_pgn(handle.read(), name_a, chunk)
        for (number, a_white, a_black), (line_number, text) in zip(pairs, picked):
            if position_key(a_white["FEN"]) != position_key(text):
                die(f"pair {first + number - 1}: fastchess played {a_white['FEN']}, not line {line_number} {text}")
            white_points = POINTS[a_white["Result"]][0]
            black_points = POINTS[a_black["Result"]][1]
            rows.append({
                "pair": len(rows), "line": line_number, "fen": text,
                "a_white_result": a_white["Result"], "a_black_result": a_black["Result"],
                "a_points": white_points + black_points,
                "plies_a_white": a_white.get("PlyCount", ""), "plies_a_black": a_black.get("PlyCount", ""),
                "termination_a_white": a_white.get("Termination", ""),
                "termination_a_black": a_black.get("Termination", ""),
            })
        write_journal(path, header, rows)
        print(f"journal: {args.book_name}: {len(rows)}/{args.pairs} pairs", file=sys.stderr, flush=True)
    if stopping["now"]:
        stopped()


HEADER = re.compile(r"^# book=(\S+) sha256=([0-9a-f]{64}) seed=(\d+) ")


def check(args):
    for path in sorted(glob.glob(os.path.join(args.journal_root, "*", "*.csv"))):
        with open(path, encoding="utf-8") as handle:
            first = handle.readline()
            rows = list(csv.DictReader(handle))
        match = HEADER.match(first)
        if not match:
            die(f"{path}: the first line is not a journal's settings line")
        name, sha, seed = match.group(1), match.group(2), int(match.group(3))
        candidates = [os.path.join(d, f"{name}.epd") for d in (args.book_dir, args.official) if d]
        book = next((c for c in candidates if os.path.exists(c)), None)
        if book is None:
            die(f"{path}: no book {name}.epd in {' or '.join(candidates)}")
        if sha256(book) != sha:
            die(f"{path}: {book} is not the book the pairs were played from (SHA-256 differs)")
        ordered = order(book_lines(book), seed)
        for index, row in enumerate(rows):
            number, text = ordered[index % len(ordered)]
            if int(row["pair"]) != index or int(row["line"]) != number or row["fen"] != text:
                die(f"{path}: pair {index} is not line {number} of {name} in the order of seed {seed}")
            white = POINTS[row["a_white_result"]][0]
            black = POINTS[row["a_black_result"]][1]
            if float(row["a_points"]) != white + black:
                die(f"{path}: pair {index} scores {row['a_points']}, its results {white + black}")
        print(f"journal: {os.path.relpath(path, args.journal_root)}: {len(rows)} pairs match {name}",
              file=sys.stderr)


def engine_name(path):
    """The engine's UCI `id name`."""
    try:
        done = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        die(f"{path} did not answer uci: {error}")
    for line in done.stdout.splitlines():
        if line.startswith("id name "):
            return line[len("id name "):].strip()
    die(f"{path} gave no id name to uci")


def home_relative(path):
    """PATH with the home directory written as ~ (no user's home in data)."""
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if path.startswith(home + os.sep) else path


def provenance(args):
    journaled = {}
    for name in args.books:
        journal = os.path.join(args.journal, f"{name}.csv")
        if os.path.exists(journal):
            with open(journal, encoding="utf-8") as handle:
                journaled[name] = max(0, sum(1 for _ in handle) - 2)
        else:
            journaled[name] = 0
    record = {
        "started_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "c960": args.c960,
        "engine": {"id_name": engine_name(args.stockfish), "path": home_relative(args.stockfish),
                   "sha256": sha256(args.stockfish), "nodes_a": 2 * args.nodes, "nodes_b": args.nodes,
                   "options": ENGINE_OPTIONS},
        "fastchess": {"version": args.fastchess_version, "path": home_relative(args.fastchess),
                      "sha256": sha256(args.fastchess)},
        "adjudication": " ".join(ADJUDICATION),
        "concurrency": args.concurrency,
        "seed": args.seed,
        "journaled_pairs": journaled,
    }
    os.makedirs(args.journal, exist_ok=True)
    path = os.path.join(args.journal, "runs.jsonl")
    before = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            before = handle.read()
    with replacing(path, encoding="utf-8", newline="") as handle:
        handle.write(before + json.dumps(record, sort_keys=True) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--book", required=True, help="NAME=FILE")
    p.add_argument("--journal", required=True)
    p.add_argument("--fastchess", required=True)
    p.add_argument("--stockfish", required=True)
    p.add_argument("--engine-name", default="Stockfish 15.1")
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--pairs", type=int, required=True)
    p.add_argument("--chunk", type=int, default=10)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--seed", type=int, default=960)
    c = sub.add_parser("check")
    c.add_argument("--journal-root", required=True)
    c.add_argument("--book-dir", required=True)
    c.add_argument("--official")
    v = sub.add_parser("provenance")
    v.add_argument("--journal", required=True)
    v.add_argument("--stockfish", required=True)
    v.add_argument("--fastchess", required=True)
    v.add_argument("--fastchess-version", required=True)
    v.add_argument("--c960", required=True)
    v.add_argument("--nodes", type=int, required=True)
    v.add_argument("--concurrency", type=int, required=True)
    v.add_argument("--seed", type=int, required=True)
    v.add_argument("--books", nargs="+", required=True)
    args = parser.parse_args()
    if args.command == "provenance":
        provenance(args)
        return
    if args.command == "check":
        check(args)
        return
    if args.command == "play":
        if "=" not in args.book:
            die("--book takes NAME=FILE")
        args.book_name, args.book_file = args.book.split("=", 1)
        # fastchess runs in a scratch directory: engines are named by
        # absolute path (a bare name is looked up on PATH).
        for option in ("fastchess", "stockfish"):
            found = shutil.which(getattr(args, option))
            if found is None:
                die(f"--{option} {getattr(args, option)}: no such executable")
            setattr(args, option, os.path.abspath(found))
        if args.nodes < 1 or args.pairs < 1 or args.chunk < 1 or args.concurrency < 1:
            die("--nodes, --pairs, --chunk and --concurrency must be at least 1")
        play(args)


if __name__ == "__main__":
    main()
