"""Type stubs of the compiled module sudoku_harness._native (re-exported by sudoku_harness)."""

import os
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

Puzzle = Union[str, Sequence[int]]
"""A puzzle: a str in any form the harness reads, or N*N ints (0 = empty)."""

Answer = Union[str, List[int]]
"""An answer, as its puzzle was given: a line (one character a cell) or a list of ints."""

PythonSolver = Callable[[str], Union[str, Sequence[int], None]]
"""A solver of your own: the puzzle as one line in, the solved grid (or None: no solution) out."""

SolverSpec = Union[str, PythonSolver, Tuple[str, PythonSolver]]
"""A built-in name, a solvers.toml entry or external spec, a callable, or a (name, callable)."""

Row = Dict[str, Union[str, int, float, bool, None]]
"""One row of results.csv: dataset, puzzle, solver, status, correct, micros, nodes, ..."""

__version__: str

def solve(
    puzzle: Puzzle,
    solver: Optional[str] = None,
    timeout_ms: Optional[int] = None,
    shape: Optional[str] = None,
) -> Optional[Answer]:
    """Solves one puzzle; returns its checked solution, or None when it has none.

    Raises ValueError (bad puzzle: names the cell and why; unknown solver), TimeoutError
    (budget spent), RuntimeError (the solver failed or its answer was rejected).
    """

def solve_many(
    puzzles: Sequence[Puzzle],
    solver: Optional[str] = None,
    timeout_ms: Optional[int] = None,
    threads: int = 1,
    shape: Optional[str] = None,
) -> List[Optional[Answer]]:
    """Solves every puzzle with the GIL released (threads=0: one per core); None where a puzzle
    has no solution or its budget ran out. ValueError names the first bad puzzle's index."""

def count(
    puzzle: Puzzle,
    limit: int = 2,
    solver: Optional[str] = None,
    timeout_ms: Optional[int] = None,
    shape: Optional[str] = None,
) -> int:
    """Counts solutions up to `limit` (a result equal to `limit` means "at least")."""

def check(puzzle: Puzzle, answer: Answer, shape: Optional[str] = None) -> bool:
    """True when `answer` solves `puzzle`, by the harness's checker."""

def why_wrong(puzzle: Puzzle, answer: Answer, shape: Optional[str] = None) -> Optional[str]:
    """None when `answer` solves `puzzle`, else why not (naming the cell or unit)."""

def generate(
    kind: str = "puzzle",
    seed: int = 0,
    index: int = 0,
    shape: str = "9x9",
    clues: Optional[int] = None,
    order: Optional[int] = None,
    holes: float = 0.42,
    balanced: bool = False,
) -> str:
    """One seeded "grid", "puzzle" (exactly one solution) or "qwh" (quasigroup with holes)."""

def generate_many(
    n: int,
    kind: str = "puzzle",
    seed: int = 0,
    shape: str = "9x9",
    clues: Optional[int] = None,
    order: Optional[int] = None,
    holes: float = 0.42,
    balanced: bool = False,
    threads: int = 1,
) -> List[str]:
    """Items 0..n of generate()'s batch, the same list whatever `threads`."""

def rate(puzzle: Puzzle) -> Dict[str, object]:
    """HoDoKu-scale rating: score, level, hardest, guesses, techniques."""

def rate_many(puzzles: Sequence[Puzzle], threads: int = 1) -> List[Dict[str, object]]:
    """rate() over a sequence; an unratable puzzle gives {"error": why}."""

def hint(puzzle: Puzzle) -> Optional[str]:
    """The next human step on a 9x9 board, described; None when the board is full."""

def solvers() -> List[Dict[str, Union[str, bool]]]:
    """The built-in solvers: name, description, shapes ("9x9" or "any"), counts."""

def race(
    solvers: Union[SolverSpec, Sequence[SolverSpec]],
    puzzles: Union[str, "os.PathLike[str]", Sequence[Puzzle]],
    timeout_ms: int = 1000,
    threads: Optional[int] = 1,
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    report: Optional[bool] = None,
    max_nodes: Optional[int] = None,
    repeat: int = 1,
    name: str = "puzzles",
) -> List[Row]:
    """Races solvers (built-in, external, Python callables) as `harness run` does; returns its
    rows, and writes its run folder (and report) to `out` when given."""
