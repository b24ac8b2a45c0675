"""Calling overhead of solve_many against `harness run -s hybrid -j 1` on the same puzzles.

    python examples/python/overhead.py [--puzzles FILE] [--count 10000] [--rounds 5]
                                       [--harness target/release/harness]

Takes the first COUNT puzzles of FILE (default: the public 17-clue set,
$HARNESS_DATA/datasets/puzzles2_17_clue), then, in interleaved rounds, times
`sh.solve_many(puzzles, solver="hybrid")` (one thread, every answer checked) and the command
`harness run -s hybrid -j 1 --dataset FILE --no-report --quiet` (its whole wall time, and the sum
of its rows' solve times). Prints the median of each and their ratios, and the load average
before and after.
"""

import argparse
import csv
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

import sudoku_harness as sh


def main():
    data = pathlib.Path(os.environ.get("HARNESS_DATA", "../shared"))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--puzzles", default=str(data / "datasets" / "puzzles2_17_clue"))
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--harness", default="target/release/harness")
    args = p.parse_args()

    with open(args.puzzles) as f:
        puzzles = [l.strip() for l in f if l.strip() and not l.startswith("#")][: args.count]
    tmp = pathlib.Path(tempfile.mkdtemp())
    file = tmp / "clues17.txt"
    file.write_text("\n".join(puzzles) + "\n")
    print(f"{len(puzzles)} puzzles from {args.puzzles}; load before {os.getloadavg()}")

    py_walls, run_walls, run_solves = [], [], []
    sh.solve_many(puzzles[:100], solver="hybrid")  # warm the module once
    for k in range(args.rounds):
        t0 = time.perf_counter()
        answers = sh.solve_many(puzzles, solver="hybrid")
        py_walls.append(time.perf_counter() - t0)
        assert all(a is not None for a in answers)

        out = tmp / f"run{k}"
        t0 = time.perf_counter()
        subprocess.run(
            [args.harness, "run", "-s", "hybrid", "-j", "1", "--dataset", str(file),
             "--no-report", "--quiet", "--out", str(out)],
            check=True, stdout=subprocess.DEVNULL,
        )
        run_walls.append(time.perf_counter() - t0)
        with open(out / "results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == len(puzzles) and all(r["correct"] == "true" for r in rows), "run"
        run_solves.append(sum(float(r["micros"]) for r in rows) / 1e6)
        print(f"round {k + 1}: solve_many {py_walls[-1]:.3f} s, harness run {run_walls[-1]:.3f} s "
              f"(its solves {run_solves[-1]:.3f} s)")

    py, run, solves = (statistics.median(v) for v in (py_walls, run_walls, run_solves))
    print(f"median: solve_many {py:.3f} s ({py / len(puzzles) * 1e6:.1f} µs a puzzle), "
          f"harness run {run:.3f} s, its solves alone {solves:.3f} s")
    print(f"solve_many / harness run wall: {py / run:.2f}; "
          f"solve_many / harness run's summed solve times: {py / solves:.2f}")
    print(f"fastest round: solve_many {min(py_walls):.3f} s, harness run {min(run_walls):.3f} s, "
          f"its solves alone {min(run_solves):.3f} s")
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
