"""Check that runners played a book's lines as python-chess reads them.

check_played.py BOOK GAMES RUNNER=PGN=LOG...
    For each runner: its log holds no complaint (illegal, invalid, error,
    failed, ...) and ends in "exit code 0"; its PGN holds GAMES games; every
    game's FEN tag is a line of BOOK read the same way by python-chess in
    chess960 mode (placement, side to move, castling rooks, legal en-passant
    square); every game replays legally from it and none ends by an illegal
    move. Prints one tab-separated row per runner; exits 1 on any failure.
check_played.py --table TSV
    The rows as a markdown table.
"""

import re
import sys
from pathlib import Path

import chess
import chess.pgn

COMPLAINT = re.compile(
    r"illegal|invalid|unreadable|malformed|could not|cannot|can't|failed|error|warning|"
    r"crash|disconnect|stall|unknown|not found|out of range|bad fen",
    re.IGNORECASE,
)
COLUMNS = ["Book", "Runner", "Games", "Lines", "Same as python-chess", "Castling played", "Result"]


def key(board: chess.Board):
    """What a runner must read the same: not the move counters."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.castling_rights, ep)


def book_index(path: Path):
    """Book lines by placement and side to move (the text), with numbers."""
    index = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, line in enumerate(handle, 1):
            fields = line.strip().split()
            if len(fields) >= 4:
                index.setdefault((fields[0], fields[1]), []).append((number, " ".join(fields[:6])))
    return index


def book_board(text: str) -> chess.Board:
    fields = text.split()
    if len(fields) == 4:
        fields += ["0", "1"]
    return chess.Board(" ".join(fields[:6]), chess960=True)


def check_runner(book: Path, index, expected: int, runner: str, pgn: Path, log: Path):
    problems = []
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    lines = text.splitlines()
    if not lines or lines[-1].strip() != "exit code 0":
        problems.append(f"{runner} {lines[-1].strip() if lines else 'wrote no log'}")
    for line in lines:
        if COMPLAINT.search(line):
            problems.append(f"{runner} said: {line.strip()}")
    games = same = castled = 0
    played = set()
    if not pgn.exists():
        problems.append(f"{runner} wrote no PGN")
    else:
        with pgn.open(encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games += 1
                label = f"{runner} game {games}"
                fen = game.headers.get("FEN")
                if fen is None:
                    problems.append(f"{label}: no FEN tag")
                    continue
                if not game.headers.is_chess960():
                    problems.append(f"{label}: Variant {game.headers.get('Variant')!r} is not Chess960")
                try:
                    runner_board = chess.Board(fen, chess960=True)
                except ValueError as error:
                    problems.append(f"{label}: FEN tag {fen!r} unreadable: {error}")
                    continue
                fields = fen.split()
                candidates = index.get((fields[0], fields[1]), [])
                match = None
                for number, line in candidates:
                    if key(book_board(line)) == key(runner_board):
                        match = number
                        break
                if match is None:
                    seen = candidates[0][1] if candidates else "no line with this placement"
                    problems.append(f"{label}: FEN tag {fen!r} differs from the book ({seen})")
                else:
                    same += 1
                    played.add(match)
                if game.errors:
                    problems.append(f"{label}: {game.errors[0]}")
                board = game.board()
                for move in game.mainline_moves():
                    if board.is_castling(move):
                        castled += 1
                        break
                    board.push(move)
                for node in game.mainline():
                    if "illegal" in node.comment.lower():
                        problems.append(f"{label}: {node.comment.strip()}")
                if "illegal" in game.headers.get("Termination", "").lower():
                    problems.append(f"{label}: Termination {game.headers['Termination']}")
    if games != expected:
        problems.append(f"{runner}: {games} games in the PGN, expected {expected}")
    return {
        "Book": book.name,
        "Runner": runner,
        "Games": str(games),
        "Lines": str(len(played)),
        "Same as python-chess": f"{same}/{games}",
        "Castling played": str(castled),
        "Result": "ok" if not problems else "FAILED: " + "; ".join(problems[:3]),
    }, problems


def table(path: Path) -> str:
    rows = [line.rstrip("\n").split("\t") for line in path.open(encoding="utf-8") if line.strip()]
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def main() -> int:
    if sys.argv[1:2] == ["--table"]:
        print(table(Path(sys.argv[2])))
        return 0
    book, expected = Path(sys.argv[1]), int(sys.argv[2])
    index = book_index(book)
    failed = False
    for spec in sys.argv[3:]:
        runner, pgn, log = spec.split("=", 2)
        row, problems = check_runner(book, index, expected, runner, Path(pgn), Path(log))
        print("\t".join(row[column] for column in COLUMNS))
        for problem in problems:
            print(f"{book.name}: {problem}", file=sys.stderr)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
