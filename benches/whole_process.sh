#!/usr/bin/env bash
# Whole-process BVH load time and peak memory, from the command line as a user runs it.
#
# Makes BVH files of about 1 MB, 10 MB, 100 MB and 1 GB (the header of the corpus file
# cmu_cgspeed_01_03.bvh, then its motion rows repeated), then times `skelview info` on each,
# and `skelview info` against the bvh_anim crate (crates/skelview-core/examples/bvh_anim_load.rs) in turn on the
# 100 MB file. Prints median wall seconds, median peak RSS and, for the pair, the median of
# the per-pair ratios.
#
#   benches/whole_process.sh [RUNS]        (default 7; needs ../shared/corpus)
#
# The files go to target/bench-data/ and are kept for the next run.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-7}}

"${BUILD[@]}" --bin skelview
# Without -p: the workspace's features, so that the smoke run takes the example `cargo test` built.
"${BUILD[@]}" --example bvh_anim_load
SKELVIEW=$BIN/skelview
BVH_ANIM=$BIN/examples/bvh_anim_load

make bench_1mb.bvh $((1 << 20))
make bench_10mb.bvh $((10 << 20))
make bench_100mb.bvh $((100 << 20))
make bench_1gb.bvh $((1 << 30))

printf '%-16s %12s %10s %10s %10s %8s\n' file bytes frames wall_s peak_MB MB/s
for f in bench_1mb.bvh bench_10mb.bvh bench_100mb.bvh bench_1gb.bvh; do
    path="$OUT/$f"
    bytes=$(stat -c %s "$path")
    frames=$("$SKELVIEW" info "$path" | awk '/^frames:/ {print $2}')
    read -r wall peak < <(median_runs "$RUNS" "$SKELVIEW" info "$path")
    printf '%-16s %12d %10d %10.3f %10.1f %8.0f\n' "$f" "$bytes" "$frames" "$wall" "$(echo "$peak / 1024" | bc -l)" \
        "$(echo "$bytes / 1000000 / $wall" | bc -l)"
done

echo
echo "skelview info against bvh_anim 0.4, 100 MB file, $RUNS pairs in turn:"
path="$OUT/bench_100mb.bvh"
bytes=$(stat -c %s "$path")
ratios=() ours=() theirs=() our_peaks=() their_peaks=()
for _ in $(seq "$RUNS"); do
    read -r a pa < <(measure "$SKELVIEW" info "$path")
    read -r b pb < <(measure "$BVH_ANIM" "$path")
    ours+=("$a") theirs+=("$b") our_peaks+=("$pa") their_peaks+=("$pb")
    ratios+=("$(echo "$b / $a" | bc -l)")
done
printf 'skelview: %.3f s, %.1f MB peak (%.2fx the file)\n' "$(printf '%s\n' "${ours[@]}" | median)" \
    "$(echo "$(printf '%s\n' "${our_peaks[@]}" | median) / 1024" | bc -l)" \
    "$(echo "$(printf '%s\n' "${our_peaks[@]}" | median) * 1024 / $bytes" | bc -l)"
printf 'bvh_anim: %.3f s, %.1f MB peak\n' "$(printf '%s\n' "${theirs[@]}" | median)" \
    "$(echo "$(printf '%s\n' "${their_peaks[@]}" | median) / 1024" | bc -l)"
printf 'median ratio (bvh_anim time / skelview time, per pair): %.2fx\n' "$(printf '%s\n' "${ratios[@]}" | median)"
