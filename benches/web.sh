#!/usr/bin/env bash
# The browser build: the .wasm's size (raw and gzipped) and, in headless Chromium on
# SwiftShader, the time from navigation to the first pose of the bundled sample (median of
# RUNS page loads), and the in-page load of a 20 MB BVH (JSPI on).
#
#   benches/web.sh [RUNS]     (default 5; needs chromium, node with tests/web's playwright-core)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
if [ -n "${SKELVIEW_BENCH_SMOKE:-}" ]; then RUNS=1; fi
dist=target/web/dist
web/build.sh "$dist" >/dev/null
[ -d tests/web/node_modules/playwright-core ] || (cd tests/web && npm install --no-audit --no-fund >/dev/null)
wasm="$dist/pkg/skelview_web_bg.wasm"
echo "skelview_web_bg.wasm: $(( $(stat -c %s "$wasm") / 1024 )) KiB, gzip -9: $(( $(gzip -9 -c "$wasm" | wc -c) / 1024 )) KiB"
big=target/web-bench/big20.bvh
mkdir -p target/web-bench
if [ ! -f "$big" ]; then
  python3 - "$big" <<'PY'
import sys
src = open('../shared/corpus/bvh/cmu_cgspeed_01_03.bvh').read()
i = src.index('MOTION'); lines = src[i:].splitlines()
k = next(n for n, l in enumerate(lines) if l.startswith('Frame Time'))
rows = [l for l in lines[k + 1:] if l.strip()]
per = sum(len(r) + 1 for r in rows) / len(rows)
n = int((20 << 20) / per) + 1
with open(sys.argv[1], 'w') as f:
    f.write(src[:i] + 'MOTION\nFrames: %d\n%s\n' % (n, lines[k]))
    f.writelines(rows[j % len(rows)] + '\n' for j in range(n))
PY
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 0.5
node benches/web_load.mjs "http://127.0.0.1:$port/" "$RUNS" "$(realpath "$big")"
