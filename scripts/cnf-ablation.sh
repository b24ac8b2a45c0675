#!/bin/sh
# The encoding ablation of docs/sat.md ("Encodings that scale"): makes the instances in DIR
# (punched Sudoku of orders 3 to 10 at HOLES, one grid each, seeded; quasigroups with holes of
# orders 20 to 60 at 42% holes) and runs examples/cnf_scaling.rs over them.
#
#   scripts/cnf-ablation.sh DIR [HOLES] [TIMEOUT] [ENCODINGS]  > table.md
set -eu
dir=${1:?usage: scripts/cnf-ablation.sh DIR [HOLES] [TIMEOUT] [ENCODINGS]}
holes=${2:-0.3}
timeout=${3:-20}
encodings=${4:-all}
here=$(cd "$(dirname "$0")/.." && pwd)
harness="$here/target/release/harness"
mkdir -p "$dir"
files=""
for order in 3 4 5 6 7 8 9 10; do
  "$harness" generate grids --order "$order" -n 1 --seed 40 --format ints -q -o "$dir/grid-$order.txt"
  python3 "$here/scripts/punch-holes.py" "$dir/grid-$order.txt" "$holes" 1 > "$dir/sudoku-$order.txt"
  files="$files $dir/sudoku-$order.txt"
done
for order in 20 30 40 50 60; do
  "$harness" generate qwh --order "$order" --holes 0.42 -n 1 --seed 40 --format ints -q -o "$dir/qwh-$order.txt"
  files="$files $dir/qwh-$order.txt"
done
cd "$here"
# shellcheck disable=SC2086
cargo run --release --quiet --example cnf_scaling -- --timeout "$timeout" --encodings "$encodings" $files
