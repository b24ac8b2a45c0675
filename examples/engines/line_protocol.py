"""The program side of sudoku-harness's line protocol (docs/external-solvers.md), shared by the
adapters of this folder, which race the field's engines through `cmd:`:

    minizinc_gecode.py   MiniZinc + Gecode on sudoku.mzn, one minizinc process per request
    cp_sat.py            OR-Tools CP-SAT in this process, one model per request

An adapter gives `serve` a function `answer(shape, cells, limit)` that returns
`(solutions, counters)`: the solutions found, stopping at `limit` (lists of cells, 1..n; fewer
than `limit` only when there are no more), and a dict of effort counters (`nodes`, `guesses`, `backtracks`, `propagations`) as the engine reports them.
`serve` reads the requests, checks them, and writes one answer line per request:

    solve PUZZLE / solve SHAPE CELLS              -> the cells of the solution, or "none"
    count PUZZLE LIMIT / count SHAPE CELLS LIMIT  -> the number of solutions found, 0..LIMIT

A request the adapter cannot read, or an engine failure (an exception), is answered
`error MESSAGE`, and the program goes on with the next request.
"""
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Shape:
    """Side n and boxes (rows, cols), or None for a Latin square."""

    def __init__(self, n, boxes):
        self.n = n
        self.boxes = boxes

    def units(self):
        """Every unit as a list of cell indices (rows, columns, then boxes)."""
        n = self.n
        units = [[r * n + c for c in range(n)] for r in range(n)]
        units += [[r * n + c for r in range(n)] for c in range(n)]
        if self.boxes:
            br, bc = self.boxes
            for top in range(0, n, br):
                for left in range(0, n, bc):
                    units.append(
                        [(top + i) * n + left + j for i in range(br) for j in range(bc)]
                    )
        return units


CLASSIC = Shape(9, (3, 3))


def parse_shape(text):
    """`NxN`, `NxN/RxC` or `NxN/latin` -> Shape, or None."""
    grid, _, boxes = text.lower().partition("/")
    a, x, b = grid.partition("x")
    if not (x and a.isdigit() and a == b) or not 1 <= int(a) <= 256:
        return None
    n = int(a)
    if boxes == "latin":
        return Shape(n, None)
    if boxes:
        r, x, c = boxes.partition("x")
        if not (x and r.isdigit() and c.isdigit()) or int(r) * int(c) != n or int(r) == 0:
            return None
        return Shape(n, (int(r), int(c)))
    root = round(n**0.5)
    return Shape(n, (root, root)) if root * root == n else None


def read_cells(shape, text):
    """The cells (0 = empty) of CELLS, or None."""
    n = shape.n
    if n <= len(SYMBOLS):
        cells = []
        for ch in text.upper():
            if ch in ".0":
                cells.append(0)
            elif ch in SYMBOLS[:n]:
                cells.append(SYMBOLS.index(ch) + 1)
            else:
                return None
    else:
        try:
            cells = [int(w) for w in text.split(",")]
        except ValueError:
            return None
        if any(not 0 <= v <= n for v in cells):
            return None
    return cells if len(cells) == n * n else None


def write_cells(shape, cells):
    if shape.n <= len(SYMBOLS):
        return "".join(SYMBOLS[v - 1] for v in cells)
    return ",".join(map(str, cells))


def consistent(shape, cells):
    """True when no symbol is given twice in a unit."""
    for unit in shape.units():
        seen = [cells[i] for i in unit if cells[i]]
        if len(seen) != len(set(seen)):
            return False
    return True


def respond(line, answer):
    """The answer line to one request line."""
    words = line.split()
    bad = "error expected 'solve PUZZLE', 'count PUZZLE LIMIT' or SHAPE before PUZZLE"
    if not words or words[0] not in ("solve", "count"):
        return bad
    args = words[1:]
    shaped = len(args) == (2 if words[0] == "solve" else 3)
    if shaped:
        shape = parse_shape(args[0])
        if shape is None:
            return f"error bad shape {args[0]!r}"
        args = args[1:]
    else:
        shape = CLASSIC
    if len(args) != (1 if words[0] == "solve" else 2):
        return bad
    cells = read_cells(shape, args[0])
    if cells is None:
        return f"error bad puzzle for {shape.n}x{shape.n}"
    if words[0] == "count":
        if not args[1].isdigit() or int(args[1]) < 1:
            return "error bad limit"
        limit = int(args[1])
    else:
        limit = 1
    if consistent(shape, cells):
        try:
            found, counters = answer(shape, cells, limit)
        except Exception as e:  # an engine failure is this request's error, not the program's end
            return "error " + " ".join(f"{type(e).__name__}: {e}".split())[:500]
    else:
        found, counters = [], {}
    stats = " ".join(f"{k}={int(v)}" for k, v in counters.items())
    tail = f" {stats}" if stats else ""
    if words[0] == "count":
        return f"{len(found)}{tail}"
    if not found:
        return f"none{tail}"
    return write_cells(shape, found[0]) + tail


def serve(answer):
    """Answers the requests of standard input until it closes."""
    for line in sys.stdin:
        if line.strip():
            print(respond(line, answer), flush=True)
