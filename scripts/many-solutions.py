#!/usr/bin/env python3
"""Puzzles with many solutions: a random subset of the cells of each solved grid kept as givens.

Reads solved grids from stdin, one a line (81 digits; `#` lines and blank lines are skipped),
and writes one puzzle a line, `.` for an empty cell. For each grid a uniformly random K in
MIN..MAX (both included) is drawn, then K distinct cells uniformly at random
(`rng.randint(MIN, MAX)`, then `rng.sample(range(81), K)` of one `random.Random(SEED)`); those
cells keep their digits. With 18 to 26 givens spread at random, almost every puzzle has many
solutions (the grid is one of them); none is made to have one. The same seed and input give the
same file.

Usage: scripts/many-solutions.py SEED [MIN MAX] < GRIDS > PUZZLES   (default MIN 18, MAX 26)

    harness generate grids -n 5000 --seed 11 --method random -q | scripts/many-solutions.py 11 > many-a.txt
"""
import random
import sys


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit("usage: scripts/many-solutions.py SEED [MIN MAX] < GRIDS > PUZZLES")
    seed = int(sys.argv[1])
    low, high = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (18, 26)
    if not 0 <= low <= high <= 81:
        sys.exit(f"need 0 <= MIN <= MAX <= 81, got {low} and {high}")
    rng = random.Random(seed)
    for n, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) != 81 or any(ch not in "123456789" for ch in line):
            sys.exit(f"<stdin>:{n}: not a solved grid (81 digits 1-9)")
        keep = set(rng.sample(range(81), rng.randint(low, high)))
        sys.stdout.write("".join(ch if i in keep else "." for i, ch in enumerate(line)) + "\n")


if __name__ == "__main__":
    main()
