#!/usr/bin/env bash
# The start-up cost of solvers, measured apart from their solving (docs/engines.md).
#
#   scripts/engines-startup.sh RUN_DIR[,RUN_DIR...] OUT_DIR [harness run options...]
#   scripts/engines-startup.sh RUN_DIR[,RUN_DIR...] OUT_DIR --table-only   (the table again)
#
# RUN_DIR is a finished `harness run` (several: runs of the same datasets, for instance one per
# solver, read as one). From their results.csv this writes the solved grids of its
# puzzles (each puzzle's checked solution, same shape, every cell given) to OUT_DIR/solved.txt,
# runs the same solvers on that file with the options given (`-j1 --solver ...`) into
# OUT_DIR/run, and prints one Markdown table: per solver, the race's median wall and CPU time,
# the median on the complete grids (the start-up: process start, reading, model building,
# flattening, with nothing left to search) and the median net of it (race median - start-up
# median), in wall time and in CPU time (CPU time is the steadier of the two on a loaded
# machine). A complete grid is the trivial instance of its shape: the same size of input and
# model, no search. Medians are over every puzzle, one not solved counting as infinitely long
# ("timeout" when that is the median).
# Needs python3 (standard library only) and target/release/harness (cargo build --release).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
run=$1
out=$2
shift 2
cd "$(dirname "$0")/.."
mkdir -p "$out"
if [ "${1:-}" != --table-only ]; then
python3 - "$run" "$out/solved.txt" <<'EOF'
import csv, sys
rows = [r for d in sys.argv[1].split(",") for r in csv.DictReader(open(d + "/results.csv", newline=""))]
solved, order = {}, []
for r in rows:
    key = (r["dataset"], r["puzzle"])
    if key not in solved:
        order.append(key)
        solved[key] = None
    if r["correct"] == "true" and r["solution"] and solved[key] is None:
        solved[key] = (r["shape"], r["solution"])
with open(sys.argv[2], "w") as f:
    shape = None
    for key in order:
        if solved[key] is None:
            print(f"no checked solution of {key[0]} puzzle {key[1]}: left out", file=sys.stderr)
            continue
        if solved[key][0] != shape:
            shape = solved[key][0]
            f.write(f"# shape {shape}\n")
        f.write(solved[key][1] + "\n")
EOF
target/release/harness run --quiet --no-report --dataset "$out/solved.txt" --out "$out/run" "$@"
fi
python3 - "$run" "$out/run" <<'EOF'
import csv, sys

def median(values):
    """Hyndman & Fan type 7 at 0.5; a puzzle not solved counts as infinitely long."""
    v = sorted(values)
    if not v:
        return None
    h = (len(v) - 1) / 2
    lo, hi = v[int(h)], v[min(int(h) + 1, len(v) - 1)]
    return lo if lo == hi else lo + (h - int(h)) * (hi - lo)

def medians(dirs):
    wall, cpu, solved = {}, {}, {}
    inf = float("inf")
    rows = [r for d in dirs.split(",") for r in csv.DictReader(open(d + "/results.csv", newline=""))]
    for r in rows:
        s = r["solver"]
        ok = r["status"] == "solved" and r["correct"] == "true"
        solved[s] = solved.get(s, 0) + ok
        wall.setdefault(s, []).append(float(r["micros"]) / 1e3 if ok else inf)
        cpu.setdefault(s, []).append(float(r["cpu_micros"] or "nan") / 1e3 if ok else inf)
    return {s: (solved[s], len(wall[s]), median(wall[s]), median(cpu[s])) for s in wall}

race, start = medians(sys.argv[1]), medians(sys.argv[2])
ms = lambda v: "-" if v is None else "timeout" if v == float("inf") else f"{v:,.1f}"
print("| solver | solved | median ms | start-up ms | net median ms | median CPU ms | start-up CPU ms | net CPU ms |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
inf = float("inf")
net = lambda v, up: None if v is None or up is None or up == inf else inf if v == inf else max(v - up, 0.0)
for s, (ok, n, wall, cpu) in race.items():
    _, _, up, up_cpu = start.get(s, (0, 0, None, None))
    print(f"| {s} | {ok}/{n} | {ms(wall)} | {ms(up)} | {ms(net(wall, up))} "
          f"| {ms(cpu)} | {ms(up_cpu)} | {ms(net(cpu, up_cpu))} |")
EOF
