#!/usr/bin/env bash
# Builds the public reference solvers as shared libraries with tdoku's adapter signature, so that
# `harness` can race them (solvers.toml names them): libtdoku.so, libkudoku.so, libfast_solv_9r2.so.
#
#   scripts/build-anchors.sh SOURCES [OUT_DIR]
#
# SOURCES is a folder holding tdoku's src/ files (solver_dpll_triad_simd.cc, solver_basic.cc,
# util.cc and their headers), other/kudoku/kudoku.c, other/fast_solv_9r2/fast_solv_9r2.c and an
# adapter fast_solv_9r2_adapter.c, all in one folder (github t-dillon/tdoku); if SOURCES has its
# own build.sh, that one is used. OUT_DIR defaults to target/anchors. Needs gcc and g++; built
# -O3 -march=native, as tdoku's own benchmark builds them.
set -euo pipefail
SRC=${1:?usage: scripts/build-anchors.sh SOURCES [OUT_DIR]}
OUT=${2:-target/anchors}
mkdir -p "$OUT"
if [ -x "$SRC/build.sh" ] || [ -f "$SRC/build.sh" ]; then
  exec bash "$SRC/build.sh" "$OUT"
fi
CXX=${CXX:-g++}; CC=${CC:-gcc}
FLAGS="-O3 -march=native -fPIC -shared -w"
$CXX -std=c++14 $FLAGS -I"$SRC" "$SRC/solver_dpll_triad_simd.cc" "$SRC/solver_basic.cc" "$SRC/util.cc" -o "$OUT/libtdoku.so"
$CC $FLAGS "$SRC/kudoku.c" -o "$OUT/libkudoku.so"
$CC $FLAGS "$SRC/fast_solv_9r2.c" "$SRC/fast_solv_9r2_adapter.c" -o "$OUT/libfast_solv_9r2.so"
echo "built in $OUT: libtdoku.so libkudoku.so libfast_solv_9r2.so"
