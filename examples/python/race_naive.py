"""Race a naive Python solver of your own beside the harness's `hybrid` and `dlx`.

    pip install ./python            # once, from the repository's root
    python examples/python/race_naive.py [DATASET] [--out DIR]

DATASET is a shipped dataset's name (default `seed`: the write-up's two puzzles, one of them the
"17-second hard case") or a file of puzzles. Every answer, yours included, is checked by the
harness's checker; your solver is called in this process and timed around the call alone, under
the same budget as the others. The rows are printed as a table (and, with pandas installed, as a
DataFrame summary); with --out the run folder and report are written as `harness run` writes them.
"""

import argparse
import statistics

import sudoku_harness as sh


def naive_backtracking(puzzle):
    """Backtracking as a first solver does it: take the empty cell with the fewest digits its
    row, column and box allow, try each digit in turn, recurse, undo on failure.

    Takes a 9x9 puzzle as 81 characters ('.' empty), returns the solved grid as 81 digits, or
    None when the puzzle has no solution.
    """
    cells = [0 if c in ".0" else int(c) for c in puzzle]
    peers = [
        {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
        | {(r - r % 3 + k // 3) * 9 + c - c % 3 + k % 3 for k in range(9)}
        for r, c in (divmod(i, 9) for i in range(81))
    ]

    def search():
        best, best_digits = None, None
        for i in range(81):
            if cells[i] == 0:
                digits = set(range(1, 10)) - {cells[p] for p in peers[i]}
                if best is None or len(digits) < len(best_digits):
                    best, best_digits = i, digits
                    if len(digits) <= 1:
                        break
        if best is None:
            return True
        for d in best_digits:
            cells[best] = d
            if search():
                return True
        cells[best] = 0
        return False

    return "".join(map(str, cells)) if search() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default="seed")
    parser.add_argument("--timeout-ms", type=int, default=60_000)
    parser.add_argument("--out", help="write the run folder and report here")
    args = parser.parse_args()

    rows = sh.race(
        [naive_backtracking, "hybrid", "dlx"],
        args.dataset,
        timeout_ms=args.timeout_ms,
        out=args.out,
    )
    print(f"{'solver':<20} {'puzzle':<16} {'status':<8} {'checked':<8} {'µs':>14}")
    for r in rows:
        checked = {True: "right", False: "WRONG", None: "-"}[r["correct"]]
        print(f"{r['solver']:<20} {r['puzzle']:<16} {r['status']:<8} {checked:<8} "
              f"{r['micros']:>14,.1f}")
    for solver in dict.fromkeys(r["solver"] for r in rows):
        times = [r["micros"] for r in rows if r["solver"] == solver]
        right = sum(r["correct"] is True for r in rows if r["solver"] == solver)
        print(f"{solver}: {right}/{len(times)} right, median {statistics.median(times):,.1f} µs")
    try:
        import pandas as pd
    except ImportError:
        return
    df = pd.DataFrame(rows)
    print(df.groupby("solver")["micros"].describe())


if __name__ == "__main__":
    main()
