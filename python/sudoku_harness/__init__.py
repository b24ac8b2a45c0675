"""sudoku_harness: the sudoku-harness's solvers, checker, generator, rater and runner from Python.

Puzzles are strings in any form the harness reads (a line of 81 characters with ``.`` or ``0``
for an empty cell, integers separated by spaces, block form, a CSV row after its header,
``.pls``, each after an optional ``# shape 12x12/3x4`` line), or lists of N*N ints (0 = empty).

>>> import sudoku_harness as sh
>>> grid = sh.solve("...6...3.5.....6...9...5.....4.1...6...4.3...8...9.5.....7...4...5.....8.3...8...")

``race`` runs built-in solvers, external ones and your own Python functions side by side, as
``harness run`` does, and returns its rows (see ``help(sudoku_harness.race)``).
"""

from ._native import (
    __version__,
    check,
    count,
    generate,
    generate_many,
    hint,
    race,
    rate,
    rate_many,
    solve,
    solve_many,
    solvers,
    why_wrong,
)

__all__ = [
    "__version__",
    "check",
    "count",
    "generate",
    "generate_many",
    "hint",
    "race",
    "rate",
    "rate_many",
    "solve",
    "solve_many",
    "solvers",
    "why_wrong",
]
