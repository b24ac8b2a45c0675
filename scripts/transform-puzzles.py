#!/usr/bin/env python3
"""Random isomorphic copies of a puzzle file, to check that a speed-up is not tuned to the
orientation of the puzzles (which cell comes first, which digit is lowest).

Each puzzle gets its own random transform of the Sudoku symmetry group: digits relabelled, rows
permuted within their band, bands permuted, columns permuted within their stack, stacks permuted,
and with probability 1/2 the grid transposed. A transform maps a valid puzzle with one solution to
a valid puzzle with one solution, so every solver must still solve it; only the search order
changes. The same seed gives the same file.

Reads one puzzle per line (81 characters, `.` or `0` for an empty cell; `#` lines are skipped)
and writes one transformed puzzle per line, `.` for empty cells.

Usage: scripts/transform-puzzles.py SEED < IN > OUT
"""
import random
import sys


def lines_of(rng):
    """A random order of the 9 lines (rows or columns) that keeps bands (stacks) together."""
    blocks = [0, 1, 2]
    rng.shuffle(blocks)
    order = []
    for b in blocks:
        inner = [0, 1, 2]
        rng.shuffle(inner)
        order.extend(3 * b + i for i in inner)
    return order


def transform(puzzle, rng):
    digits = list("123456789")
    rng.shuffle(digits)
    relabel = {str(d + 1): digits[d] for d in range(9)}
    rows, cols = lines_of(rng), lines_of(rng)
    transpose = rng.random() < 0.5
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = (c, r) if transpose else (r, c)
            ch = puzzle[9 * rows[rr] + cols[cc]]
            out.append(relabel.get(ch, "."))
    return "".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/transform-puzzles.py SEED < IN > OUT")
    rng = random.Random(int(sys.argv[1]))
    for n, line in enumerate(sys.stdin, 1):
        line = line.rstrip("\r\n")
        if not line or line.startswith("#"):
            continue
        if len(line) < 81 or any(ch not in ".0123456789" for ch in line[:81]):
            sys.exit(f"<stdin>:{n}: not a puzzle line (81 characters of 1-9, . or 0)")
        sys.stdout.write(transform(line[:81], rng) + "\n")


if __name__ == "__main__":
    main()
