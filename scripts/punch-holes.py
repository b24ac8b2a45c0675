#!/usr/bin/env python3
"""Punch holes in solved grids: reads a file of `harness generate grids --format ints` (a
`# shape` line, then each grid as N rows of N integers, a blank line after each), empties a
seeded random FRACTION of each grid's cells (round(F*N*N) cells, `.` for a hole) and writes the
puzzles in the same form. The puzzles are satisfiable (the grid is a solution) but may have several
solutions.

    scripts/punch-holes.py GRIDS FRACTION SEED > PUZZLES
"""
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, fraction, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    if not 0 <= fraction <= 1:
        sys.exit(f"fraction {fraction} is not in 0..=1")
    rng = random.Random(seed)
    header, grids, rows = [], [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("#"):
                header.append(line.rstrip("\n"))
            elif words:
                rows.append(words)
            elif rows:
                grids.append(rows)
                rows = []
    if rows:
        grids.append(rows)
    print("\n".join(header))
    for grid in grids:
        n = len(grid)
        holes = set(rng.sample(range(n * n), round(fraction * n * n)))
        for r, row in enumerate(grid):
            print(" ".join("." if r * n + c in holes else w for c, w in enumerate(row)))
        print()


if __name__ == "__main__":
    main()
