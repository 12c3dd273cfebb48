"""The baseline for `just bench-sweep`: how peers sweep Chess960 positions,
a sequential python-chess loop over one Stockfish process.

usage: python_chess_sweep.py ENGINE POSITIONS_CSV SPS NODES OUT_CSV
"""
import csv
import sys
import time

import chess
import chess.engine


def main() -> None:
    engine_path, positions_csv, sps, nodes, out_csv = sys.argv[1:6]
    wanted = set()
    for part in sps.split(","):
        lo, _, hi = part.partition("-")
        wanted.update(range(int(lo), int(hi or lo) + 1))
    with open(positions_csv, newline="") as f:
        fens = {int(r["sp"]): r["shredder_fen"] for r in csv.DictReader(f) if int(r["sp"]) in wanted}
    started = time.perf_counter()
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    engine.configure({"Threads": 1, "Hash": 16})
    rows = []
    for sp in sorted(fens):
        board = chess.Board(fens[sp], chess960=True)
        # A new `game` object makes python-chess send ucinewgame: fresh hash.
        info = engine.analyse(board, chess.engine.Limit(nodes=int(nodes)), game=object())
        score = info["score"].white()
        best = info["pv"][0]
        rows.append((sp, board.uci(best, chess960=True), score.score(), score.mate()))
    engine.quit()
    elapsed = time.perf_counter() - started
    with open(out_csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sp", "best_move_uci", "score_cp", "score_mate"])
        w.writerows(rows)
    print(f"python-chess: {len(rows)} positions in {elapsed:.2f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
