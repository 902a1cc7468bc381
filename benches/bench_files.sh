# Sourced by the whole-process benchmarks: the corpus file their BVH files are made from,
# where they go, and two helpers.
SRC=${SKELVIEW_CORPUS:-../shared/corpus}/bvh/cmu_cgspeed_01_03.bvh
# SKELVIEW_BENCH_SMOKE=1 (CI): the build the tests made (profile test, no rebuild), inputs 1/1024 of their size and
# one run each, so that the scripts keep working; their figures mean nothing then.
if [ -n "${SKELVIEW_BENCH_SMOKE:-}" ]; then
    BUILD=(cargo build --quiet --profile test) BIN=target/debug SCALE=1024 OUT=target/bench-data/smoke DEFAULT_RUNS=1
else
    BUILD=(cargo build --release --quiet) BIN=target/release SCALE=1 OUT=target/bench-data DEFAULT_RUNS=
fi
[ -f "$SRC" ] || { echo "needs $SRC (the corpus)" >&2; exit 2; }
mkdir -p "$OUT"

# make NAME BYTES: the corpus header, then its rows repeated (and cut at a row) to about BYTES.
make() {
    local rows
    rows=$(mktemp)
    tail -n +$(( $(grep -n '^Frame Time' "$SRC" | head -1 | cut -d: -f1) + 1 )) "$SRC" | sed -e '$a\' >"$rows"
    make_frames "$1" $(( $(wc -l <"$rows") * ($2 / SCALE) / $(stat -c %s "$rows") + 1 ))
    rm -f "$rows"
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

# measure CMD...: prints "wall_secs peak_kb" of one run (wall from the shell's microsecond
# clock: /usr/bin/time rounds to 10 ms; the peak from /usr/bin/time).
measure() {
    local start end peak
    start=$EPOCHREALTIME
    peak=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1)
    end=$EPOCHREALTIME
    echo "$(echo "$end - $start" | bc -l) $peak"
}

# median_runs RUNS CMD...: prints "wall_secs peak_kb", each the median of RUNS runs;
# $BEFORE_RUN, when set, is run (untimed) before each.
median_runs() {
    local runs=$1 walls=() peaks=() w p
    shift
    for _ in $(seq "$runs"); do
        [ -n "${BEFORE_RUN:-}" ] && eval "$BEFORE_RUN"
        read -r w p < <(measure "$@")
        walls+=("$w") peaks+=("$p")
    done
    echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${peaks[@]}" | median)"
}

# make_frames NAME FRAMES [SKIP]: the corpus header, then exactly FRAMES of its rows (repeated
# as needed), starting SKIP rows in, so that two files of the same skeleton differ.
make_frames() {
    local file="$OUT/$1" frames=$2 skip=${3:-0}
    [ -f "$file" ] && return
    local header rows motion_line time_line copies
    motion_line=$(grep -n '^MOTION' "$SRC" | head -1 | cut -d: -f1)
    time_line=$(grep -n '^Frame Time' "$SRC" | head -1 | cut -d: -f1)
    header=$(mktemp) rows=$(mktemp)
    head -n $((motion_line - 1)) "$SRC" >"$header"
    tail -n +$((time_line + 1)) "$SRC" | sed -e '$a\' >"$rows"
    copies=$(( (frames + skip) / $(wc -l <"$rows") + 1 ))
    {
        cat "$header"
        printf 'MOTION\nFrames: %d\nFrame Time: 0.0083333\n' "$frames"
        # head stops reading once it has its rows: the writers' SIGPIPE is expected.
        (for _ in $(seq "$copies"); do cat "$rows" 2>/dev/null || break; done) | tail -n +$((skip + 1)) | head -n "$frames" || true
    } >"$file.part"
    mv "$file.part" "$file"
    rm -f "$header" "$rows"
}
