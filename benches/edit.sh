#!/usr/bin/env bash
# Clean-up speed against SciPy, same file, same run: every gap of the generated 1,300-marker
# x 17,000-frame float C3D (benches/make_c3d.py, about 350 MB) filled by a spline and every
# marker low-passed (4th-order Butterworth at 6 Hz, forward and backward), written as C3D.
# skelview: `skelview edit BIG --fill-gaps spline --filter butterworth:6 -o OUT.c3d`, whole
# process (read, edit, write a new file; then again replacing the file, made durable first).
# SciPy (benches/edit_scipy.py, in-process, the array already in memory): `filtfilt` alone,
# and a CubicSpline fill of the same gaps (10 samples each side) followed by the same filtfilt.
#
#   benches/edit.sh [RUNS]        (default 3)
#
# Python: $SKELVIEW_TEST_PYTHON, else target/test-python (made by the tests; SciPy included).
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-3}}
"${BUILD[@]}" --bin skelview
SKELVIEW=$BIN/skelview
PY=${SKELVIEW_TEST_PYTHON:-target/test-python/bin/python}
"$PY" -c 'import ezc3d, scipy' 2>/dev/null || { echo "needs ezc3d and SciPy in $PY (run the tests once, or set SKELVIEW_TEST_PYTHON)" >&2; exit 2; }
BIG=$OUT/big_1300x17000.c3d
[ -f "$BIG" ] || "$PY" benches/make_c3d.py "$BIG" 1300 $((17000 / SCALE + 1))
OUTFILE=$OUT/edited.c3d
# Each run writes a new file, as a user's edit does (a file that replaces another is made
# durable first, which waits for the disk: measured apart below), after a `sync` so that no
# run waits for the last one's writing.
read -r ours peak < <(BEFORE_RUN="rm -f '$OUTFILE'; sync" median_runs "$RUNS" "$SKELVIEW" edit "$BIG" --fill-gaps spline --filter butterworth:6 -o "$OUTFILE")
touch "$OUTFILE"
read -r replacing _ < <(BEFORE_RUN="sync" median_runs "$RUNS" "$SKELVIEW" edit "$BIG" --fill-gaps spline --filter butterworth:6 -o "$OUTFILE")
scipy=$("$PY" benches/edit_scipy.py "$BIG")
filt=$(echo "$scipy" | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["filtfilt_s"])')
both=$(echo "$scipy" | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["spline_fill_and_filtfilt_s"])')
printf '%-44s %10s\n' "skelview edit, whole process (s)" "$ours"
printf '%-44s %10s\n' "skelview edit replacing a file (s)" "$replacing"
printf '%-44s %10s\n' "skelview peak memory (MB)" "$((peak / 1024))"
printf '%-44s %10.3f\n' "SciPy filtfilt alone, in-process (s)" "$filt"
printf '%-44s %10.3f\n' "SciPy CubicSpline fill + filtfilt (s)" "$both"
printf '%-44s %10.2f\n' "filtfilt alone / skelview" "$(echo "$filt / $ours" | bc -l)"
printf '%-44s %10.2f\n' "fill + filtfilt / skelview" "$(echo "$both / $ours" | bc -l)"
rm -f "$OUTFILE"
