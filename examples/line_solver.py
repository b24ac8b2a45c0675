#!/usr/bin/env python3
"""A Sudoku solver speaking sudoku-harness's line protocol, as a `cmd:` solver:

    harness run --solver 'py=cmd:python3 examples/line_solver.py'

It reads one request per line on standard input and answers one line on standard output:

    solve PUZZLE              ->  81 digits (the solution), or "none"
    count PUZZLE LIMIT        ->  the number of solutions, stopping at LIMIT
    solve SHAPE CELLS         ->  the same for a grid of another shape
    count SHAPE CELLS LIMIT

PUZZLE is 81 characters, 1-9 for a given and '.' for an empty cell. SHAPE is `16x16` (square
boxes), `12x12/3x4` (boxes of 3 rows x 4 columns) or `10x10/latin` (a Latin square: rows and
columns only); CELLS is one character a cell up to side 35 (1-9, then A = 10 ... Z = 35, '.'
empty), or comma-separated numbers (0 empty) from side 36. The solution is written the same
way. Each answer is followed by its effort counters (nodes, guesses, propagations), as the
harness's own solvers count them. Declared in solvers.toml with `shapes = "any"`, it gets the
shaped requests; without, 9x9 ones only.

The search: candidates from unit bitmasks; naked singles placed until none is left (each one a
propagation); then a branch on the empty cell with the fewest candidates (a guess when it has
two or more); depth-first, one node per placement tried.
"""
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Shape:
    """Side n and the units of each cell (row, column, box if any), numbered as the harness does."""

    def __init__(self, n, boxes):
        self.n = n
        self.all = ((1 << n) - 1) << 1  # symbols 1..n as bits 1..n
        units = []
        for i in range(n * n):
            row, col = divmod(i, n)
            u = [row, n + col]
            if boxes:
                r, c = boxes
                u.append(2 * n + (row // r) * (n // c) + col // c)
            units.append(u)
        self.units = units
        self.count = 3 * n if boxes else 2 * n


CLASSIC = Shape(9, (3, 3))


def parse_shape(text):
    """`NxN`, `NxN/RxC` or `NxN/latin` -> Shape, or None."""
    grid, _, boxes = text.lower().partition("/")
    a, x, b = grid.partition("x")
    if not (x and a.isdigit() and a == b) or not 1 <= int(a) <= 128:
        return None
    n = int(a)
    if boxes == "latin":
        return Shape(n, None)
    if boxes:
        r, x, c = boxes.partition("x")
        if not (x and r.isdigit() and c.isdigit()) or int(r) * int(c) != n:
            return None
        return Shape(n, (int(r), int(c)))
    root = round(n ** 0.5)
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


def candidates(shape, cells):
    """The candidate bitmask of each empty cell, as {cell: mask}."""
    used = [0] * shape.count
    for i, d in enumerate(cells):
        if d:
            for u in shape.units[i]:
                used[u] |= 1 << d
    cands = {}
    for i, d in enumerate(cells):
        if not d:
            m = shape.all
            for u in shape.units[i]:
                m &= ~used[u]
            cands[i] = m
    return cands


def search(shape, cells, limit, found, stats):
    """Depth-first search from `cells`, appending solutions to `found` until `limit`."""
    stats["nodes"] += 1
    cells = list(cells)
    while True:
        cands = candidates(shape, cells)
        if not cands:
            found.append(cells)
            return
        if any(m == 0 for m in cands.values()):
            return  # a cell without candidates: dead end
        singles = [(i, m) for i, m in cands.items() if m & (m - 1) == 0]
        if not singles:
            break
        for i, m in singles:
            d = m.bit_length() - 1
            # Two singles of one unit may want the same digit: re-check before placing.
            if candidates(shape, cells).get(i, 0) & (1 << d) == 0:
                return
            cells[i] = d
            stats["propagations"] += 1
    cell = min(cands, key=lambda i: bin(cands[i]).count("1"))
    digits = [d for d in range(1, shape.n + 1) if cands[cell] >> d & 1]
    if len(digits) > 1:
        stats["guesses"] += 1
    for d in digits:
        if len(found) >= limit:
            return
        cells[cell] = d
        search(shape, cells, limit, found, stats)


def consistent(shape, cells):
    """True when no symbol is given twice in a unit."""
    seen = set()
    for i, d in enumerate(cells):
        if d:
            for u in shape.units[i]:
                if (u, d) in seen:
                    return False
                seen.add((u, d))
    return True


def answer(line):
    words = line.split()
    bad = "error expected 'solve PUZZLE', 'count PUZZLE LIMIT' or SHAPE before PUZZLE"
    if not words or words[0] not in ("solve", "count"):
        return bad
    args = words[1:]
    # 9x9: solve PUZZLE (1 word), count PUZZLE LIMIT (2); other shapes: one word more.
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
    stats = {"nodes": 0, "guesses": 0, "propagations": 0}
    found = []
    if consistent(shape, cells):
        search(shape, cells, limit, found, stats)
    counters = " ".join(f"{k}={v}" for k, v in stats.items())
    if words[0] == "count":
        return f"{len(found)} {counters}"
    if not found:
        return f"none {counters}"
    return write_cells(shape, found[0]) + " " + counters


def main():
    sys.setrecursionlimit(100_000)
    for line in sys.stdin:
        if line.strip():
            print(answer(line), flush=True)


if __name__ == "__main__":
    main()
