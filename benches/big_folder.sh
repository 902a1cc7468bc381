#!/usr/bin/env bash
# `skelview check` and `skelview qa` over a big folder: the corpus copied 20 times (hard
# links: same bytes, read as separate files). Prints each command's own summary line (files/s,
# MB/s), its wall time, CPU use and peak RSS, and the largest file for scale.
#
#   benches/big_folder.sh [RUNS]        (default 3; needs ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-3}}
CORPUS=${SKELVIEW_CORPUS:-../shared/corpus}
COPIES=$((20 / SCALE > 0 ? 20 : 1))
OUT=$OUT/corpus$COPIES
[ -d "$CORPUS" ] || { echo "needs $CORPUS (the corpus)" >&2; exit 2; }
"${BUILD[@]}" --bin skelview
if [ ! -d "$OUT" ]; then
    mkdir -p "$OUT.part"
    for k in $(seq "$COPIES"); do cp -rl "$(realpath "$CORPUS")" "$OUT.part/copy_$k" 2>/dev/null || cp -r "$CORPUS" "$OUT.part/copy_$k"; done
    mv "$OUT.part" "$OUT"
fi
files=$(find "$OUT" -type f | wc -l)
bytes=$(find "$OUT" -type f -printf '%s\n' | awk '{s += $1} END {print s}')
largest=$(find "$OUT" -type f -printf '%s %p\n' | sort -n | tail -1)
echo "folder: $files files, $(echo "$bytes / 1000000" | bc -l | xargs printf '%.1f') MB; largest: ${largest%% *} bytes (${largest##*/})"
echo "cores: $(nproc)"
for cmd in check qa; do
    for _ in $(seq "$RUNS"); do
        summary=$( { /usr/bin/time -f 'TIME %e s wall, %P CPU, %M KB peak' $BIN/skelview "$cmd" "$OUT" >/tmp/skelview-bench-$$.out; } 2>&1 || true)
        printf '%-6s %s | %s\n' "$cmd" "$(grep '^checked' /tmp/skelview-bench-$$.out | tail -1 | sed 's/: pop.*//')" "$(grep TIME <<<"$summary" | sed 's/TIME //')"
    done
done
rm -f /tmp/skelview-bench-$$.out
