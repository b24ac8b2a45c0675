#!/usr/bin/env python3
"""MiniZinc with Gecode as a `cmd:` solver of sudoku-harness, at every shape:

    harness run --solver minizinc-gecode -d gecode-25       # named in solvers.toml
    harness run --solver 'mzn=cmd:python3 examples/engines/minizinc_gecode.py'

Each request runs `minizinc --solver gecode -s` on the model `sudoku.mzn` beside this file, the
puzzle given as data (`-D`, or a .dzn file in a temporary folder when the data is long):
one alldifferent with domain consistency per unit, first-fail search. So every request pays
MiniZinc's start-up and flattening (about 0.1 s for 9x9, more for large grids) on top of
Gecode's search: docs/engines.md measures it apart, on already complete grids.

Counting to LIMIT asks for LIMIT solutions (`-n LIMIT`). The counters are Gecode's own:
nodes = its search nodes, backtracks = its failures.

Options: `--minizinc PROGRAM` (default `minizinc`), `--solver ID` (default `gecode`); any
other MiniZinc solver that takes the model works the same way.
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ beside the examples
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import line_protocol  # noqa: E402

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sudoku.mzn")

# Data longer than this goes in a file (one argument may hold at most 128 KiB on Linux).
MAX_ARGUMENT = 64 * 1024


def data(shape, cells):
    """The model's data for one puzzle, as MiniZinc text."""
    n = shape.n
    br, bc = shape.boxes or (0, 0)
    rows = "|".join(",".join(str(v) for v in cells[r * n:(r + 1) * n]) for r in range(n))
    return f"n={n};box_rows={br};box_cols={bc};givens=[|{rows}|];"


def parse(shape, text):
    """(solutions, counters) from MiniZinc's output with statistics (`-s`)."""
    n = shape.n
    found, current, stats = [], [], {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("%%%mzn-stat:"):
            key, _, value = line[len("%%%mzn-stat:"):].strip().partition("=")
            stats[key] = value
        elif not line or line.startswith("%") or line.startswith("====="):
            continue
        elif line == "----------":
            if len(current) != n * n:
                raise ValueError(f"a solution of {len(current)} cells, not {n * n}")
            found.append(current)
            current = []
        else:
            current.extend(int(w) for w in line.split())
    counters = {}
    for ours, theirs in (("nodes", "nodes"), ("backtracks", "failures")):
        if stats.get(theirs, "").isdigit():
            counters[ours] = int(stats[theirs])
    return found, counters


def run_minizinc(command):
    return subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def main():
    args = sys.argv[1:]
    program, solver = "minizinc", "gecode"
    while args:
        flag = args.pop(0)
        if flag in ("--minizinc", "--solver") and args:
            value = args.pop(0)
            if flag == "--minizinc":
                program = value
            else:
                solver = value
        else:
            sys.exit(f"minizinc_gecode.py: unknown argument {flag!r}")

    def answer(shape, cells, limit):
        text = data(shape, cells)
        command = [program, "--solver", solver, "-s", "-n", str(limit), MODEL]
        if len(text) > MAX_ARGUMENT:
            with tempfile.TemporaryDirectory(prefix="sudoku-minizinc-") as folder:
                path = os.path.join(folder, "puzzle.dzn")
                with open(path, "w") as f:
                    f.write(text)
                run = run_minizinc(command + [path])
        else:
            run = run_minizinc(command + ["-D", text])
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
            raise RuntimeError(f"{program} exited with status {run.returncode}: {last}")
        if "=====UNSATISFIABLE=====" in run.stdout:
            return [], parse(shape, run.stdout)[1]
        found, counters = parse(shape, run.stdout)
        if not found and "==========" not in run.stdout:
            raise RuntimeError(f"{program} gave no solution and no verdict")
        return found, counters

    line_protocol.serve(answer)


if __name__ == "__main__":
    main()
