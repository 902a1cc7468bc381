#!/usr/bin/env bash
# SMPL-X joints, whole process: `skelview positions --raw` of a 10,000-frame AMASS-layout
# motion with a body model folder, against a vectorised NumPy implementation of the same
# joints (benches/bodies.py: Rodrigues for all joints of all frames at once, one batched 4x4
# product per joint down the tree), in turn, same inputs: both writing .npy (NumPy's fastest
# output; `positions -o FILE.npy`), and both writing the same CSV. The model and motion are synthetic with
# the real files' array sizes (their licences forbid using real ones here); the outputs are
# compared once.
#
#   benches/bodies.sh [RUNS]        (default 5)
#
# Python: $SKELVIEW_TEST_PYTHON, else target/test-python (made here as the tests make it).
set -euo pipefail
cd "$(dirname "$0")/.."
# The corpus is not needed; bench_files.sh asks for it only to make BVH files.
SKELVIEW_CORPUS=${SKELVIEW_CORPUS:-../shared/corpus}
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-5}}

"${BUILD[@]}" --bin skelview
SKELVIEW=$BIN/skelview
PY=${SKELVIEW_TEST_PYTHON:-target/test-python/bin/python}
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    python3 -m venv target/test-python
    target/test-python/bin/python -m pip install -q numpy==2.4.6
    PY=target/test-python/bin/python
fi

FRAMES=$((10000 / SCALE + 1))
DIR=$OUT/bodies
"$PY" benches/bodies.py make "$DIR" "$FRAMES" >/dev/null
MOTION=$DIR/motion_$FRAMES.npz
MODEL=$DIR/models/smplx/SMPLX_NEUTRAL.npz

"$SKELVIEW" positions --raw "$MOTION" --body-model "$DIR/models" >"$DIR/ours.csv"
"$SKELVIEW" positions --raw "$MOTION" --body-model "$DIR/models" -o "$DIR/ours.npy"
"$PY" benches/bodies.py numpy "$MOTION" "$MODEL" "$DIR/numpy.npy" 2>/dev/null
echo "largest difference, skelview against NumPy: CSV $("$PY" benches/bodies.py compare "$DIR/ours.csv" "$DIR/numpy.npy") m, .npy $("$PY" benches/bodies.py compare "$DIR/ours.npy" "$DIR/numpy.npy") m"

ours=() ours_npy=() npy=() csv=() r_npy=() r_csv=()
# `sync` before each run, so that no run waits for the data the last one left unwritten.
# skelview's .npy is a new file each run, as NumPy's is to NumPy (a file that replaces another
# is made durable first, which NumPy never does).
for k in $(seq "$RUNS"); do
    sync
    read -r a _ < <(measure "$SKELVIEW" positions --raw "$MOTION" --body-model "$DIR/models")
    rm -f "$DIR/ours.npy"
    sync
    read -r o _ < <(measure "$SKELVIEW" positions --raw "$MOTION" --body-model "$DIR/models" -o "$DIR/ours.npy")
    sync
    read -r b _ < <(measure "$PY" benches/bodies.py numpy "$MOTION" "$MODEL" "$DIR/numpy.npy")
    ours+=("$a") ours_npy+=("$o") npy+=("$b") r_npy+=("$(echo "$b / $o" | bc -l)")
    # The CSV side takes seconds: every other run.
    if [ $((k % 2)) = 1 ]; then
        sync
        read -r c _ < <(measure "$PY" benches/bodies.py numpy "$MOTION" "$MODEL" "$DIR/numpy.csv")
        csv+=("$c") r_csv+=("$(echo "$c / $a" | bc -l)")
    fi
done
printf '%s frames, SMPL-X (55 joints, 10,475 vertices), %s runs in turn:\n' "$FRAMES" "$RUNS"
printf 'skelview positions --raw -o .npy: %.3f s\n' "$(printf '%s\n' "${ours_npy[@]}" | median)"
printf 'NumPy, joints to .npy:            %.3f s  (median ratio %.1fx)\n' "$(printf '%s\n' "${npy[@]}" | median)" "$(printf '%s\n' "${r_npy[@]}" | median)"
printf 'skelview positions --raw (CSV):   %.3f s\n' "$(printf '%s\n' "${ours[@]}" | median)"
printf 'NumPy, joints to the same CSV:    %.3f s  (median ratio %.1fx)\n' "$(printf '%s\n' "${csv[@]}" | median)" "$(printf '%s\n' "${r_csv[@]}" | median)"
