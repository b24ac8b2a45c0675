#!/usr/bin/env python3
"""A Sudoku solver speaking sudoku-harness's line protocol, as a `cmd:` solver:

    harness run --solver 'py=cmd:python3 examples/line_solver.py'

It reads one request per line on standard input and answers one line on standard output:

    solve PUZZLE        ->  81 digits (the solution), or "none"
    count PUZZLE LIMIT  ->  the number of solutions, stopping at LIMIT

PUZZLE is 81 characters, 1-9 for a given and '.' for an empty cell. Each answer is followed by
its effort counters (nodes, guesses, propagations), as the harness's own solvers count them.

The search: candidates from row, column and box bitmasks; naked singles placed until none is
left (each one a propagation); then a branch on the empty cell with the fewest candidates (a
guess when it has two or more); depth-first, one node per placement tried.
"""
import sys

ALL = 0x3FE  # digits 1..9 as bits 1..9
ROW = [i // 9 for i in range(81)]
COL = [i % 9 for i in range(81)]
BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]


def candidates(cells):
    """The candidate bitmask of each empty cell, as {cell: mask}."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, d in enumerate(cells):
        if d:
            rows[ROW[i]] |= 1 << d
            cols[COL[i]] |= 1 << d
            boxes[BOX[i]] |= 1 << d
    return {i: ALL & ~(rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]])
            for i, d in enumerate(cells) if not d}


def search(cells, limit, found, stats):
    """Depth-first search from `cells`, appending solutions to `found` until `limit`."""
    stats["nodes"] += 1
    cells = list(cells)
    while True:
        cands = candidates(cells)
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
            if candidates(cells).get(i, 0) & (1 << d) == 0:
                return
            cells[i] = d
            stats["propagations"] += 1
    cell = min(cands, key=lambda i: bin(cands[i]).count("1"))
    digits = [d for d in range(1, 10) if cands[cell] >> d & 1]
    if len(digits) > 1:
        stats["guesses"] += 1
    for d in digits:
        if len(found) >= limit:
            return
        cells[cell] = d
        search(cells, limit, found, stats)


def consistent(cells):
    """True when no digit is given twice in a row, column or box."""
    seen = set()
    for i, d in enumerate(cells):
        if d:
            for unit in (("r", ROW[i]), ("c", COL[i]), ("b", BOX[i])):
                if (unit, d) in seen:
                    return False
                seen.add((unit, d))
    return True


def answer(line):
    words = line.split()
    if len(words) not in (2, 3) or words[0] not in ("solve", "count") or len(words[1]) != 81:
        return "error expected 'solve PUZZLE' or 'count PUZZLE LIMIT'"
    cells = [int(c) if c in "123456789" else 0 for c in words[1]]
    limit = 1 if words[0] == "solve" else int(words[2])
    stats = {"nodes": 0, "guesses": 0, "propagations": 0}
    found = []
    if consistent(cells):
        search(cells, limit, found, stats)
    counters = " ".join(f"{k}={v}" for k, v in stats.items())
    if words[0] == "count":
        return f"{len(found)} {counters}"
    if not found:
        return f"none {counters}"
    return "".join(map(str, found[0])) + " " + counters


def main():
    for line in sys.stdin:
        if line.strip():
            print(answer(line), flush=True)


if __name__ == "__main__":
    main()
