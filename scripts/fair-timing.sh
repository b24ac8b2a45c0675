#!/usr/bin/env bash
# Checks that a solver's time does not depend on who else is in the run (docs/reports.md,
# "Fair timing").
#
#   scripts/fair-timing.sh alone DATASET SOLVER... [-- RUN OPTIONS]
#       One all-solver run and one run of each SOLVER alone, single thread, in both orders
#       (all first, then alone first); prints each SOLVER's median µs all / alone and their ratio.
#   scripts/fair-timing.sh pairs N [-- RUN OPTIONS]
#       N pairs of back-to-back identical runs of the default datasets; `harness compare` on each
#       pair; prints how many solver x dataset cells said "same".
#
# HARNESS (default: target/release/harness) is the binary; OUT (default: a new temporary folder)
# keeps the runs.
set -euo pipefail
harness=${HARNESS:-target/release/harness}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

# The median µs of SOLVER on DATASET in the summary.csv of RUN.
median() {
    python3 - "$1/summary.csv" "$2" "$3" <<'EOF'
import csv, sys
path, dataset, solver = sys.argv[1:]
for r in csv.DictReader(open(path)):
    if r["dataset"] == dataset and r["solver"] == solver:
        print(r["median_micros"])
        break
else:
    sys.exit(f"{path}: no row for {dataset} x {solver}")
EOF
}

run() { "$harness" run -q --no-report -j 1 "$@" >/dev/null; }

split_options() {
    local -n before=$1 after=$2
    shift 2
    before=() after=()
    local seen=0
    for a in "$@"; do
        if [[ $seen == 0 && $a == -- ]]; then seen=1; continue; fi
        if [[ $seen == 0 ]]; then before+=("$a"); else after+=("$a"); fi
    done
}

case "${1:-}" in
alone)
    shift
    split_options args opts "$@"
    dataset=${args[0]:?dataset}
    solvers=("${args[@]:1}")
    [[ ${#solvers[@]} -gt 0 ]] || { echo "name at least one solver" >&2; exit 2; }
    name=$(basename "$dataset")
    printf '%-18s %-6s %12s %12s %8s\n' solver order "all µs" "alone µs" "all/alone"
    for order in all-first alone-first; do
        dir="$out/$order"
        mkdir -p "$dir"
        if [[ $order == alone-first ]]; then
            for s in "${solvers[@]}"; do run -d "$dataset" -s "$s" -o "$dir/alone-$s" "${opts[@]}"; done
        fi
        run -d "$dataset" -o "$dir/all" "${opts[@]}"
        if [[ $order == all-first ]]; then
            for s in "${solvers[@]}"; do run -d "$dataset" -s "$s" -o "$dir/alone-$s" "${opts[@]}"; done
        fi
        for s in "${solvers[@]}"; do
            a=$(median "$dir/all" "$name" "$s")
            b=$(median "$dir/alone-$s" "$name" "$s")
            printf '%-18s %-6s %12.2f %12.2f %8.3f\n' "$s" "${order%%-*}" "$a" "$b" \
                "$(python3 -c "print($a / $b)")"
        done
    done
    ;;
pairs)
    shift
    split_options args opts "$@"
    n=${args[0]:?number of pairs}
    same=0 cells=0
    for i in $(seq 1 "$n"); do
        "$harness" run -q --no-report -o "$out/pair$i-a" "${opts[@]}" >/dev/null
        "$harness" run -q --no-report -o "$out/pair$i-b" "${opts[@]}" >/dev/null
        "$harness" compare "$out/pair$i-a" "$out/pair$i-b" -o "$out/pair$i.csv" >/dev/null
        read -r s c < <(python3 - "$out/pair$i.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["verdict"] and not r["verdict"].startswith("too few")]
same = sum(1 for r in rows if r["verdict"] == "same")
print(same, len(rows))
EOF
        )
        echo "pair $i: $s of $c cells same"
        same=$((same + s)) cells=$((cells + c))
    done
    python3 -c "print(f'{$same} of {$cells} cells same ({100 * $same / max($cells, 1):.1f}%)')"
    ;;
*)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
echo "runs kept in $out" >&2
