#!/usr/bin/env bash
# Downloads the public puzzle collections, HoDoKu's regression library and the anchors' sources
# from their origins into DIR, in the layout the tests, benches and docs read through
# HARNESS_DATA:
#
#   DIR/datasets/   puzzles2_17_clue, puzzles3_magictour_top1465,
#                   forum_hardest_1905_11+_sample10k, kaggle_bryanpark_first9999,
#                   norvig_top95.txt, norvig_hardest.txt
#   DIR/cases/hodoku-reglib/reglib-1.3.txt
#   DIR/anchors/    tdoku's sources (src/), kudoku.c, fast_solv_9r2.c, LICENSE-tdoku
#
#   scripts/fetch-data.sh DIR        then: export HARNESS_DATA=DIR
#
# Needs internet access, curl and sha256sum. Every file is pinned to a commit of its origin and
# checked against its sha256 before it is put in place; a file already in place with the right
# sum is kept. Files are written whole or not at all (a temporary file, then a rename).
set -euo pipefail
DIR=${1:?usage: scripts/fetch-data.sh DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
GH=https://raw.githubusercontent.com
TDOKU=$GH/t-dillon/tdoku/af426180dc53aef89b82868e7b3fdfcf42165654
PYTORCH=$GH/balmerdx/sudoku_pytorch/9c4391b1ea32bb7a9587f668fa51f35473e68e24
NORVIG=$GH/t-dillon/norvig-sudoku-bench/b816c29b05bb18159b973029ef66b8ab954b94fa
KAGGLE=$GH/jounathaen/Sudoku_Rust/9f2b60f0a97884ef93bbcec023c8ce28476dc33b
HODOKU=$GH/alexdej/hodoku-py/8ba1922d42409ba524270f35f0480facc3d7091c

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# have DEST SHA256: true when DEST exists with that sum.
have() { [ -f "$1" ] && echo "$2  $1" | sha256sum --check --status; }

# place TMPFILE DEST SHA256: checks the sum, then moves the file into place.
place() {
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$3" ]; then
    echo "fetch-data: $2: sha256 $got, expected $3 (the origin changed?)" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$2")"
  mv "$1" "$2"
  echo "ok  $2"
}

# get URL DEST SHA256: downloads a file as is.
get() {
  have "$2" "$3" && { echo "ok  $2 (already there)"; return; }
  curl --fail --silent --show-error --location --retry 3 -o "$TMP/f" "$1"
  place "$TMP/f" "$2" "$3"
}

D=$DIR/datasets
# Gordon Royle's 17-clue list as tdoku's data/ carries it (CRLF there: rewritten to LF).
S=6b98791a53f51997dea2d1a85dcc7fdd99798c3c6ccfae9c3d57df69b8d8dc16
if ! have "$D/puzzles2_17_clue" $S; then
  curl --fail --silent --show-error --location --retry 3 -o "$TMP/raw" "$PYTORCH/data/puzzles2_17_clue"
  tr -d '\r' <"$TMP/raw" >"$TMP/f"
  place "$TMP/f" "$D/puzzles2_17_clue" $S
fi
get "$PYTORCH/data/puzzles3_magictour_top1465" "$D/puzzles3_magictour_top1465" \
  ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce
# A fixed sample of 10,000 of the 48,766 forum-hardest puzzles: the line numbers it keeps are in
# scripts/data/forum-hardest-sample10k.lines.
S=c3e49f1c1677ff9dc5b0f94e73b01dfad402d52b30311740949bed792237f951
if ! have "$D/forum_hardest_1905_11+_sample10k" $S; then
  curl --fail --silent --show-error --location --retry 3 -o "$TMP/raw" \
    "$PYTORCH/data/puzzles5_forum_hardest_1905_11%2B"
  {
    echo "# 10,000-puzzle random sample (seed 20240601, original order kept) of tdoku data/puzzles5_forum_hardest_1905_11+"
    echo "# (Enjoy Sudoku Players Forum hardest list ph_1905, SE rating >= 11). Remaining puzzles are held back."
    awk 'NR == FNR { keep[$1]; next } FNR in keep' "$HERE/data/forum-hardest-sample10k.lines" "$TMP/raw"
  } >"$TMP/f"
  place "$TMP/f" "$D/forum_hardest_1905_11+_sample10k" $S
fi
# The first 9,999 rows of Kaggle's "1 million Sudoku games": the quizzes column, 0 written as '.'.
S=511968284e5d414c22e714fbffd3771fe6d3c83c73185937276568fb6e2119bc
if ! have "$D/kaggle_bryanpark_first9999" $S; then
  curl --fail --silent --show-error --location --retry 3 -o "$TMP/raw" "$KAGGLE/data/sudoku_small.csv"
  {
    echo "# Kaggle 'bryanpark/sudoku' 1M set, first 9,999 rows (quizzes column, '0' blanks rewritten as '.')"
    echo "# via github.com/jounathaen/Sudoku_Rust data/sudoku_small.csv"
    tr -d '\r' <"$TMP/raw" | head -n 9999 | cut -d, -f1 | tr 0 .
  } >"$TMP/f"
  place "$TMP/f" "$D/kaggle_bryanpark_first9999" $S
fi
get "$NORVIG/data/top95.txt" "$D/norvig_top95.txt" \
  b16eff35fbe41fb7b122f21c5c6ba30b85861b47946d33257070df1a69cddd36
get "$NORVIG/data/hardest.txt" "$D/norvig_hardest.txt" \
  398e1e5df4f50723078e3b510e00ea7eb9e104c521a9a186b4c20cd066c0459f

# HoDoKu's regression library (GPL-3.0-or-later), as hodoku-py carries it.
get "$HODOKU/tests/reglib/reglib-1.3.txt" "$DIR/cases/hodoku-reglib/reglib-1.3.txt" \
  114f50e820e89fe5848c1c20fe60a38aec95dbcab116e13f306d0d6c93a9f323

# The anchors' sources, flat (scripts/build-anchors.sh DIR/anchors builds them).
A=$DIR/anchors
get "$TDOKU/src/solver_dpll_triad_simd.cc" "$A/solver_dpll_triad_simd.cc" \
  6f2e43b0a1b79468caadf7060bf82293d1f6b6d1b9e2838c0c7448b11f01ab77
get "$TDOKU/src/solver_basic.cc" "$A/solver_basic.cc" \
  ca1219e0b4514966e4f8f923f07f02e8a1370c20d271c942852d0d6364f9b947
get "$TDOKU/src/util.cc" "$A/util.cc" fc6c26646a1beba1ac9440923435ce61cb8b8134b3e85f28423d532a1f51a32d
get "$TDOKU/src/util.h" "$A/util.h" 641c02e8d6960792abc93b6a4f4ab21118e2cf71e88d8e21ed1256cd26ce47ca
get "$TDOKU/src/bitutil.h" "$A/bitutil.h" 8b49ba4a2c2e12b33c72e225455f67b32be68ec2c028c697c23128b0ad7ee33d
get "$TDOKU/src/simd_vectors.h" "$A/simd_vectors.h" \
  f71f93ee48b77b4687eacaf9ea7fb11d0f186b518194c7ea3d568a59902abeb4
get "$TDOKU/other/kudoku/kudoku.c" "$A/kudoku.c" \
  3b21208ca03f5121bd763cbb94b5fe6cfb70199df7f6c623439a6a00f9473785
get "$TDOKU/other/fast_solv_9r2/fast_solv_9r2.c" "$A/fast_solv_9r2.c" \
  2cc59e924206b320637eda4b8a16f4184e3dcd1449dd67842bc06aac6b4186dc
get "$TDOKU/LICENSE" "$A/LICENSE-tdoku" a980f41bb61792ca3a4079531495f66d3e21a0d40e52774e2373ce9263127ceb

echo "done: export HARNESS_DATA=$(cd "$DIR" && pwd)"
