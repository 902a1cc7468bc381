#!/usr/bin/env bash
# C3D read speed, whole process, against ezc3d (the Python package, same files, same run, in
# turn): the largest corpus C3D (art_human_sample_cm_float.c3d, 4 MB) and a generated
# 1,300 markers x 17,000 frames float file (about 350 MB; benches/make_c3d.py).
# skelview: `skelview info FILE` (read, gaps, the motion, units; prints the summary).
# ezc3d: `python -c 'ezc3d.c3d(FILE)'`, whole process, and the c3d() call alone as ezc3d
# reports it in-process.
#
#   benches/c3d.sh [RUNS]        (default 5, 3 on the big file; needs ../shared/corpus)
#
# Python: $SKELVIEW_TEST_PYTHON, else target/test-python (made here as the tests make it).
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-5}}
BIG_RUNS=${DEFAULT_RUNS:-3}

"${BUILD[@]}" --bin skelview
SKELVIEW=$BIN/skelview
PY=${SKELVIEW_TEST_PYTHON:-target/test-python/bin/python}
if ! "$PY" -c 'import ezc3d, numpy' 2>/dev/null; then
    python3 -m venv target/test-python
    target/test-python/bin/python -m pip install -q ezc3d==1.7.2 c3d==0.6.0 numpy==2.4.6
    PY=target/test-python/bin/python
fi

CORPUS_FILE=${SKELVIEW_CORPUS:-../shared/corpus}/c3d/art_human_sample_cm_float.c3d
BIG=$OUT/big_1300x17000.c3d
[ -f "$BIG" ] || "$PY" benches/make_c3d.py "$BIG" 1300 $((17000 / SCALE + 1))

inprocess() { "$PY" -c 'import sys, time, ezc3d; t = time.perf_counter(); ezc3d.c3d(sys.argv[1]); print(time.perf_counter() - t)' "$1"; }

printf '%-28s %12s %12s %12s %14s %10s\n' file bytes skelview_s ezc3d_s ezc3d_call_s ratio
for pair in "$CORPUS_FILE:$RUNS" "$BIG:$BIG_RUNS"; do
    path=${pair%:*} runs=${pair##*:}
    ours=() theirs=() calls=() ratios=()
    for _ in $(seq "$runs"); do
        read -r a _ < <(measure "$SKELVIEW" info "$path")
        read -r b _ < <(measure "$PY" -c 'import sys, ezc3d; ezc3d.c3d(sys.argv[1])' "$path")
        calls+=("$(inprocess "$path")")
        ours+=("$a") theirs+=("$b")
        ratios+=("$(echo "$b / $a" | bc -l)")
    done
    printf '%-28s %12d %12.3f %12.3f %14.3f %9.1fx\n' "$(basename "$path")" "$(stat -c %s "$path")" \
        "$(printf '%s\n' "${ours[@]}" | median)" "$(printf '%s\n' "${theirs[@]}" | median)" \
        "$(printf '%s\n' "${calls[@]}" | median)" "$(printf '%s\n' "${ratios[@]}" | median)"
done
echo "(ratio: the median of ezc3d whole-process time / skelview whole-process time, per pair)"
