#!/usr/bin/env bash
# Whole process, `skelview qa --json` against `skelview info` on the same ~100 MB BVH, runs in
# turn (the capture-check issue asks qa to stay within 3× info). Usage: benches/qa_info.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-9}}
"${BUILD[@]}" --bin skelview
make bench_100mb.bvh $((100 << 20))
f="$OUT/bench_100mb.bvh"
qa=() info=() ratios=()
for _ in $(seq "$RUNS"); do
    read -r i _ < <(measure "$BIN/skelview" info "$f")
    read -r q _ < <(measure "$BIN/skelview" qa --json "$f")
    info+=("$i") qa+=("$q") ratios+=("$(echo "$q / $i" | bc -l)")
done
m() { printf '%s\n' "$@" | median; }
printf 'info %.3f s  qa --json %.3f s  (medians of %d runs in turn)  qa/info %.2fx (median of paired ratios)\n' \
    "$(m "${info[@]}")" "$(m "${qa[@]}")" "$RUNS" "$(m "${ratios[@]}")"
