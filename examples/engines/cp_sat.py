#!/usr/bin/env python3
"""OR-Tools CP-SAT as a `cmd:` solver of sudoku-harness, at every shape:

    harness run --solver cp-sat -d gecode-25                # named in solvers.toml
    harness run --solver 'cpsat=cmd:python3 examples/engines/cp_sat.py --workers 8'

One long-lived process: ortools is imported once, when the harness starts the program (its
untimed warm-up request), so a request's time is building the model and solving it. The model:
one integer variable 1..n per cell, a given fixes its cell's domain, one AddAllDifferent per
unit (row, column, box; rows and columns only for a Latin square). CP-SAT expands each
alldifferent into its own Boolean encoding with linear and clause propagation.

`--workers N` (default 1): CP-SAT's search workers. One by default, as every built-in solver
runs on one thread; with more, the time is wall time on several cores.

Counting to LIMIT enumerates solutions (`enumerate_all_solutions`) and stops at LIMIT. The
counters are CP-SAT's own: nodes = its branches, backtracks = its conflicts.
Needs `python3 -m pip install ortools`.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the examples
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import line_protocol  # noqa: E402

try:
    from ortools.sat.python import cp_model
except ImportError:
    sys.exit("cp_sat.py needs OR-Tools: python3 -m pip install ortools")


class Collect(cp_model.CpSolverSolutionCallback):
    """Keeps the solutions, stopping the search at `limit`."""

    def __init__(self, cells, limit):
        super().__init__()
        self.cells, self.limit, self.found = cells, limit, []

    def on_solution_callback(self):
        self.found.append([self.Value(v) for v in self.cells])
        if len(self.found) >= self.limit:
            self.StopSearch()


def main():
    args = sys.argv[1:]
    workers = 1
    if args[:1] == ["--workers"] and len(args) == 2 and args[1].isdigit() and int(args[1]) >= 1:
        workers = int(args[1])
    elif args:
        sys.exit(f"cp_sat.py: unknown arguments {' '.join(args)!r} (only --workers N)")

    def answer(shape, cells, limit):
        n = shape.n
        model = cp_model.CpModel()
        x = [
            model.NewIntVar(v, v, f"c{i}") if v else model.NewIntVar(1, n, f"c{i}")
            for i, v in enumerate(cells)
        ]
        for unit in shape.units():
            model.AddAllDifferent([x[i] for i in unit])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if limit > 1:
            solver.parameters.enumerate_all_solutions = True
        collect = Collect(x, limit)
        status = solver.Solve(model, collect)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
            raise RuntimeError(f"CP-SAT ended with status {solver.StatusName(status)}")
        counters = {"nodes": solver.NumBranches(), "backtracks": solver.NumConflicts()}
        return collect.found[:limit], counters

    line_protocol.serve(answer)


if __name__ == "__main__":
    main()
