#!/usr/bin/env python3
"""Empties a fraction of the cells of every grid of an `ints` file, at random (seeded).

    harness generate grids --order 100 -n 3 --seed 25 --format ints -o grids.txt
    scripts/blank-cells.py grids.txt 0.5 25 > holes.txt

Reads `# shape ...` and grids of N rows of N integers (a blank line after each); writes the
same format with round(f·N²) cells of each grid set to 0. The same seed gives the same file.
The result has the grid as one solution, usually among many.
"""
import random
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: blank-cells.py FILE FRACTION SEED")
    path, frac, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    out, grid = [], []

    def flush():
        if grid:
            cells = [v for row in grid for v in row]
            for i in rng.sample(range(len(cells)), round(frac * len(cells))):
                cells[i] = 0
            n = len(grid)
            for r in range(n):
                out.append(" ".join(str(v) for v in cells[r * n:(r + 1) * n]))
            out.append("")
            grid.clear()

    for line in open(path):
        line = line.strip()
        if line.startswith("#"):
            out.append(line)
        elif not line:
            flush()
        else:
            grid.append([int(v) for v in line.split()])
    flush()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
