#!/usr/bin/env bash
# Whole-process load time of FBX and glTF, from the command line as a user runs it: the
# largest corpus FBX (ozz_pab_atlas.fbx, 2.05 MB, 67 joints, 451 frames) and glTF
# (Fox.glb, 163 kB), and a BVH of the same size as the FBX (the corpus CMU header with its
# rows repeated) for comparison. Prints median wall seconds, median peak RSS and MB/s.
#
#   benches/fbx_gltf.sh [RUNS]        (default 11; needs ../shared/corpus)
#
# The in-memory load (no process start, no file read) is `cargo bench -p skelview-core --bench formats`.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/bench_files.sh
RUNS=${1:-${DEFAULT_RUNS:-11}}
CORPUS=${SKELVIEW_CORPUS:-../shared/corpus}

"${BUILD[@]}" --bin skelview
SKELVIEW=$BIN/skelview

FBX="$CORPUS/fbx/ozz_pab_atlas.fbx"
make bench_fbx_size.bvh "$(stat -c %s "$FBX")"

printf '%-28s %10s %8s %8s %10s %8s\n' file bytes frames wall_s peak_MB MB/s
for path in "$FBX" "$CORPUS/fbx/ozz_pab_locomotions.fbx" "$CORPUS/gltf/Fox.glb" "$OUT/bench_fbx_size.bvh"; do
    bytes=$(stat -c %s "$path")
    frames=$("$SKELVIEW" info "$path" | awk '/^frames:/ {print $2}')
    read -r wall peak < <(median_runs "$RUNS" "$SKELVIEW" info "$path")
    printf '%-28s %10d %8d %8.4f %10.1f %8.1f\n' "$(basename "$path")" "$bytes" "$frames" "$wall" \
        "$(echo "$peak / 1024" | bc -l)" "$(echo "$bytes / $wall / 1000000" | bc -l)"
done
