#!/usr/bin/env python3
"""Independent check of a generated puzzle file (CSV name,puzzle,solution), sharing no code with
harness: every solution is a valid grid keeping the givens, every puzzle has exactly one solution
(counted up to 2 by a plain MRV backtracking counter), and with --minimal, removing any single
given leaves two or more solutions.

Usage: scripts/check_puzzles.py FILE.csv [--minimal]
"""
import csv
import sys

UNITS = [[r * 9 + c for c in range(9)] for r in range(9)] + \
        [[r * 9 + c for r in range(9)] for c in range(9)] + \
        [[(br + i // 3) * 9 + bc + i % 3 for i in range(9)] for br in (0, 3, 6) for bc in (0, 3, 6)]
PEERS = [sorted({p for u in UNITS if i in u for p in u} - {i}) for i in range(81)]


def count(g, limit=2):
    g = list(g)
    found = 0

    def go():
        nonlocal found
        best, best_c = None, None
        for i in range(81):
            if g[i] == 0:
                c = set(range(1, 10)) - {g[p] for p in PEERS[i]}
                if best is None or len(c) < len(best_c):
                    best, best_c = i, c
                    if len(c) <= 1:
                        break
        if best is None:
            found += 1
            return
        for v in best_c:
            g[best] = v
            go()
            g[best] = 0
            if found >= limit:
                return

    go()
    return found


def valid_solution(p, s):
    return all(sorted(s[i] for i in u) == list(range(1, 10)) for u in UNITS) and \
        all(p[i] in (0, s[i]) for i in range(81))


def main():
    path, minimal = sys.argv[1], "--minimal" in sys.argv
    bad = n = 0
    for row in csv.DictReader(open(path)):
        n += 1
        p = [int(ch) for ch in row["puzzle"]]
        s = [int(ch) for ch in row["solution"]]
        problems = []
        if not valid_solution(p, s):
            problems.append("solution invalid")
        if count(p) != 1:
            problems.append("not exactly one solution")
        if minimal:
            for i in range(81):
                if p[i]:
                    q = p[:]
                    q[i] = 0
                    if count(q) < 2:
                        problems.append(f"r{i // 9 + 1}c{i % 9 + 1} removable")
        if problems:
            bad += 1
            print(f"{row['name']}: {', '.join(problems)}")
    print(f"{n} puzzles checked, {bad} with problems")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
