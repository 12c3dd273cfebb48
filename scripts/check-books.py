#!/usr/bin/env python3
"""Check opening books with python-chess, independently of c960's reader.

Usage: check-books.py [BOOK.epd ...]   (default: every data/books/*.epd)

Each line must be a six-field FEN that python-chess reads in Chess960 mode
(chess.Board(fen, chess960=True)) as a valid position, whose castling rights
are exactly those the line states (the rooks its castling field names), where
the game is not over, and which no earlier line of the book repeats (same
placement, side to move, castling rooks and legal en-passant square). Bad
lines are printed as FILE:LINE: reason; the exit status is 1 when there is
one, 2 when python-chess is missing or a book cannot be read.
"""

import glob
import os
import sys

try:
    import chess
except ImportError:
    print(
        "check-books.py: python-chess is missing: pip install chess "
        "(or set C960_PYTHON to a Python that has it)",
        file=sys.stderr,
    )
    sys.exit(2)


def stated_rooks(board, field):
    """The squares of the rooks a castling field names (Shredder-FEN file
    letters, or K/Q read as the outermost rook, as X-FEN does)."""
    squares = set()
    if field == "-":
        return squares
    for ch in field:
        color = chess.WHITE if ch.isupper() else chess.BLACK
        rank = 0 if color == chess.WHITE else 7
        rooks = [
            sq
            for sq in board.pieces(chess.ROOK, color)
            if chess.square_rank(sq) == rank
        ]
        king = board.king(color)
        if ch.lower() in "abcdefgh":
            squares.add(chess.square("abcdefgh".index(ch.lower()), rank))
        elif ch.lower() == "k" and king is not None:
            side = [sq for sq in rooks if sq > king]
            squares.add(max(side) if side else -1)
        elif ch.lower() == "q" and king is not None:
            side = [sq for sq in rooks if sq < king]
            squares.add(min(side) if side else -1)
        else:
            squares.add(-1)
    return squares


def check(path):
    bad = 0
    lines = 0
    seen = {}
    with open(path, encoding="utf-8") as book:
        for number, text in enumerate(book, start=1):
            lines += 1
            line = text.rstrip("\n")

            def fail(reason):
                nonlocal bad
                bad += 1
                print(f"{path}:{number}: {reason}")

            fields = line.split(" ")
            if len(fields) != 6 or ";" in line:
                fail(f"not a six-field FEN without ';': {line!r}")
                continue
            try:
                board = chess.Board(line, chess960=True)
            except ValueError as error:
                fail(f"python-chess cannot read it: {error}")
                continue
            if not board.is_valid():
                fail(f"not a valid position: {board.status()!r}")
                continue
            rights = set(chess.scan_forward(board.clean_castling_rights()))
            if rights != stated_rooks(board, fields[2]):
                fail(
                    f"castling {fields[2]} states other rooks than python-chess "
                    f"keeps ({board.castling_shredder_fen()})"
                )
                continue
            if board.is_game_over():
                fail(f"game over: {board.outcome().termination.name.lower()}")
                continue
            key = (
                board.board_fen(),
                board.turn,
                board.castling_rights,
                board.ep_square if board.has_legal_en_passant() else None,
            )
            if key in seen:
                fail(f"duplicate of line {seen[key]}")
                continue
            seen[key] = number
    print(f"{path}: {lines} lines, {bad} bad (python-chess {chess.__version__})")
    return bad


def main():
    paths = sys.argv[1:] or sorted(
        glob.glob(os.path.join(os.path.dirname(__file__), "..", "data", "books", "*.epd"))
    )
    if not paths:
        print("check-books.py: no book to check", file=sys.stderr)
        sys.exit(2)
    bad = 0
    for path in paths:
        try:
            bad += check(path)
        except (OSError, UnicodeDecodeError) as error:
            print(f"check-books.py: cannot read {path}: {error}", file=sys.stderr)
            sys.exit(2)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
