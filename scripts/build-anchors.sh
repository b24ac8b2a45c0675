#!/usr/bin/env bash
# Builds the public reference solvers as shared libraries with tdoku's adapter signature, so that
# `harness` can race them (solvers.toml names them): libtdoku.so, libkudoku.so, libfast_solv_9r2.so.
#
#   scripts/build-anchors.sh SOURCES [OUT_DIR]
#
# SOURCES is either a checkout of github t-dillon/tdoku as fetched (src/, other/kudoku/kudoku.c,
# other/fast_solv_9r2/fast_solv_9r2.c) or one flat folder holding those files, such as
# $HARNESS_DATA/anchors (scripts/fetch-data.sh fills it). The adapter of fast_solv_9r2 is ours:
# scripts/anchors/fast_solv_9r2_adapter.c. OUT_DIR defaults to target/anchors. Needs gcc and g++;
# built -O3 -march=native, as tdoku's own benchmark builds them. Writes only to OUT_DIR.
set -euo pipefail
SRC=${1:?usage: scripts/build-anchors.sh SOURCES [OUT_DIR]}
OUT=${2:-target/anchors}
HERE=$(cd "$(dirname "$0")" && pwd)
ADAPTER="$HERE/anchors/fast_solv_9r2_adapter.c"

if [ -f "$SRC/src/solver_dpll_triad_simd.cc" ]; then
  TDOKU="$SRC/src"
  KUDOKU="$SRC/other/kudoku/kudoku.c"
  FAST="$SRC/other/fast_solv_9r2/fast_solv_9r2.c"
else
  TDOKU="$SRC"
  KUDOKU="$SRC/kudoku.c"
  FAST="$SRC/fast_solv_9r2.c"
fi
for f in "$TDOKU/solver_dpll_triad_simd.cc" "$TDOKU/solver_basic.cc" "$TDOKU/util.cc" \
  "$KUDOKU" "$FAST" "$ADAPTER"; do
  if [ ! -f "$f" ]; then
    echo "build-anchors: $f is missing (SOURCES: a tdoku checkout or a flat folder;" \
      "scripts/fetch-data.sh DIR fetches one into DIR/anchors)" >&2
    exit 2
  fi
done

mkdir -p "$OUT"
CXX=${CXX:-g++}; CC=${CC:-gcc}
FLAGS=(-O3 -march=native -fPIC -shared -w)
"$CXX" -std=c++14 "${FLAGS[@]}" -I"$TDOKU" "$TDOKU/solver_dpll_triad_simd.cc" \
  "$TDOKU/solver_basic.cc" "$TDOKU/util.cc" -o "$OUT/libtdoku.so"
"$CC" "${FLAGS[@]}" "$KUDOKU" -o "$OUT/libkudoku.so"
"$CC" "${FLAGS[@]}" "$FAST" "$ADAPTER" -o "$OUT/libfast_solv_9r2.so"
echo "built in $OUT: libtdoku.so libkudoku.so libfast_solv_9r2.so"
