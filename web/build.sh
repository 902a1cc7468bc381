#!/usr/bin/env bash
# Builds skelview for the browser into a folder of static files (default target/web/dist):
#   web/build.sh [OUT_DIR]
# then serve it:  python3 -m http.server 8000 --bind 127.0.0.1 --directory target/web/dist
# and open http://127.0.0.1:8000/ (or .../?file=capture.bvh for a file beside index.html).
# The first run sets up the toolchain (web/toolchain.sh: several minutes, once).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web/dist}"
# The folder is emptied first: only a folder under target/ (or a new or empty one) is taken.
case "$(realpath -m "$out")" in
  "$(realpath -m target)"/*) ;;
  *) if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
       echo "web/build.sh: $out is not under target/ and not empty; refusing to replace it" >&2; exit 2
     fi ;;
esac
source web/env.sh
cargo +stable build -p skelview-web --lib --target wasm32-unknown-unknown --profile web --target-dir target/web --locked
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out/pkg" target/web/wasm32-unknown-unknown/web/skelview_web.wasm
cp web/jspi.js "$out/pkg/"
cp web/skelview.js "$out/"
# The version in the page: Cargo.toml's, and the commit it was built from.
version="$(release/version.sh)"
commit="${SKELVIEW_COMMIT:-$(git rev-parse --short=10 HEAD 2>/dev/null || echo "unknown commit")}"
sed "s/@SKELVIEW_VERSION@/$version ($commit)/g" web/index.html >"$out/index.html"
size="$(stat -c %s "$out/pkg/skelview_web_bg.wasm")"
gz="$(gzip -9 -c "$out/pkg/skelview_web_bg.wasm" | wc -c)"
echo "built $out: skelview_web_bg.wasm $((size / 1024)) KiB, $((gz / 1024)) KiB gzipped" >&2
