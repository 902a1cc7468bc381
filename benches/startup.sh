#!/usr/bin/env bash
# Viewer start-up with SKELVIEW_TRACE=1: milliseconds since process start to each milestone,
# for a tiny BVH and the 100 MB BVH made from the same corpus file (same skeleton), run in
# turn under Xvfb RUNS times each. Prints the median of each milestone, the median per-frame
# times the trace prints on exit, and the first-pose ratio (100 MB / tiny).
#
#   benches/startup.sh [RUNS]        (default 7; needs ../shared/corpus and xvfb-run)
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-7}}
command -v xvfb-run >/dev/null || { echo "needs xvfb-run (apt install xvfb mesa-vulkan-drivers)" >&2; exit 2; }
"${BUILD[@]}" --bin skelview
make bench_tiny.bvh 8192
make bench_100mb.bvh $((100 << 20))
# Saved settings of whoever runs this must not change what is drawn.
XDG_CONFIG_HOME=$(mktemp -d) XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_CONFIG_HOME XDG_RUNTIME_DIR
chmod 700 "$XDG_RUNTIME_DIR"

# trace FILE: the trace lines of one viewer run that quits after 40 frames.
trace() {
    SKELVIEW_TRACE=1 SKELVIEW_QUIT_AFTER_FRAMES=40 xvfb-run -a -s "-screen 0 1280x800x24" \
        $BIN/skelview "$1" 2>&1 >/dev/null | grep '^skelview trace:' || true
}

LABELS=("window created" "adapter ready" "first frame presented" "first pose drawn" "files fully loaded")
declare -A got
for _ in $(seq "$RUNS"); do
    for f in bench_tiny.bvh bench_100mb.bvh; do
        lines=$(trace "$OUT/$f")
        for label in "${LABELS[@]}"; do
            ms=$(awk -v l="$label" '$0 ~ l"$" {print $3}' <<<"$lines")
            got["$f|$label"]+="${ms:-nan} "
        done
        app=$(sed -n 's/.*app + UI CPU per frame: mean \([0-9.]*\) ms, p95 \([0-9.]*\) ms.*/\1 \2/p' <<<"$lines")
        got["$f|app mean"]+="${app% *} " got["$f|app p95"]+="${app#* } "
    done
done

printf '%-28s %14s %14s\n' "median of $RUNS runs (ms)" "tiny ($(stat -c %s "$OUT/bench_tiny.bvh") B)" "100 MB"
for label in "${LABELS[@]}" "app mean" "app p95"; do
    printf '%-28s' "$label"
    for f in bench_tiny.bvh bench_100mb.bvh; do
        printf ' %14.1f' "$(tr ' ' '\n' <<<"${got["$f|$label"]}" | grep . | median)"
    done
    echo
done
tiny=$(tr ' ' '\n' <<<"${got["bench_tiny.bvh|first pose drawn"]}" | grep . | median)
big=$(tr ' ' '\n' <<<"${got["bench_100mb.bvh|first pose drawn"]}" | grep . | median)
printf 'first pose, 100 MB / tiny: %.2fx\n' "$(echo "$big / $tiny" | bc -l)"
