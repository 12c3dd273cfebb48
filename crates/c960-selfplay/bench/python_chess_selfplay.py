"""The baseline for `just bench-selfplay`: a plain python-chess self-play
loop that plays the same games as c960's default: one Stockfish process per
side (`ucinewgame` to each before every game), the same positions, the same
nodes per move without jitter, the same end rules (checkmate, stalemate,
insufficient material, threefold repetition and fifty moves as they happen,
and a ply cap).

usage: python_chess_selfplay.py ENGINE POSITIONS_CSV SPS GAMES NODES MAX_PLIES
Prints the number of moves played on standard output.
"""
import csv
import sys
import time

import chess
import chess.engine


def over(board: chess.Board) -> bool:
    # Not is_game_over(claim_draw=True): that also allows claiming a draw
    # one move before the repetition or the fiftieth move happens.
    return (
        board.is_checkmate()
        or board.is_stalemate()
        or board.is_insufficient_material()
        or board.is_repetition(3)
        or board.halfmove_clock >= 100
    )


def main() -> None:
    engine_path, positions_csv, sps, games, nodes, max_plies = sys.argv[1:7]
    wanted = set()
    for part in sps.split(","):
        lo, _, hi = part.partition("-")
        wanted.update(range(int(lo), int(hi or lo) + 1))
    with open(positions_csv, newline="") as f:
        fens = {int(r["sp"]): r["shredder_fen"] for r in csv.DictReader(f) if int(r["sp"]) in wanted}
    started = time.perf_counter()
    sides = [chess.engine.SimpleEngine.popen_uci(engine_path) for _ in range(2)]
    for engine in sides:
        engine.configure({"Threads": 1, "Hash": 16})
    moves = played = 0
    for sp in sorted(fens):
        for _ in range(int(games)):
            board = chess.Board(fens[sp], chess960=True)
            game = object()  # a new game: python-chess sends ucinewgame
            plies = 0
            while not over(board) and plies < int(max_plies):
                engine = sides[0] if board.turn == chess.WHITE else sides[1]
                result = engine.play(board, chess.engine.Limit(nodes=int(nodes)), game=game)
                board.push(result.move)
                plies += 1
            moves += plies
            played += 1
    for engine in sides:
        engine.quit()
    elapsed = time.perf_counter() - started
    print(f"python-chess: {played} games, {moves} moves in {elapsed:.2f}s", file=sys.stderr)
    print(moves)


if __name__ == "__main__":
    main()
