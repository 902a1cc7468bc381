#!/usr/bin/env bash
# Builds everything a release ships into target/release-dist/skelview-VERSION/ (the version is
# Cargo.toml's), with SHA256SUMS, CHANGELOG.md and BUILD.txt (sizes and build times):
#   skelview_VERSION_amd64.deb, skelview-VERSION-x86_64-linux.tar.gz      (linux/package.sh)
#   skelview-VERSION-windows-x86_64.zip, …-setup.exe                      (windows/build.sh)
#   skelview-VERSION-cp39-abi3-manylinux_2_NN_x86_64.whl                  (python/build_wheel.sh)
#   skelview-VERSION-web.zip: the browser build, for any static host     (web/build.sh)
# Usage: release/build.sh [--only linux,windows,python,web]
# Release builds on 2 cores take about 40 minutes in all (Windows alone about 18).
set -euo pipefail
cd "$(dirname "$0")/.."
only="linux,windows,python,web"
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    *) echo "usage: release/build.sh [--only linux,windows,python,web]" >&2; exit 2 ;;
  esac
done
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
version="$(release/version.sh)"
out="target/release-dist/skelview-$version"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
log="$out/BUILD.txt"
echo "skelview $version ($(git rev-parse --short=10 HEAD 2>/dev/null || echo "unknown commit")), built $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores" >"$log"
timed() {
  local what="$1"; shift
  local start; start=$(date +%s)
  "$@"
  echo "$what: $(( $(date +%s) - start )) s" | tee -a "$log"
}

if wants linux || wants python; then
  timed "linux release build" cargo build --release --locked --bin skelview
fi
if wants linux; then
  timed "linux packages" linux/package.sh --binary target/release/skelview --out "$out"
fi
if wants windows; then
  timed "windows release build, zip and installer" windows/build.sh --profile release --out target/windows-release
  cp target/windows-release/skelview-"$version"-windows-x86_64.zip target/windows-release/skelview-"$version"-windows-x86_64-setup.exe "$out/"
fi
if wants python; then
  venv=target/release-python
  if [ ! -x "$venv/bin/maturin" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "maturin==1.16.0"
  fi
  timed "python wheel" env MATURIN="$venv/bin/maturin" python/build_wheel.sh --binary target/release/skelview --out "$out"
fi
if wants web; then
  timed "web build" web/build.sh target/web/release-dist
  stage="$(mktemp -d)"
  cp -r target/web/release-dist "$stage/skelview-$version-web"
  ( cd "$stage" && zip -q -9 -r "$out/skelview-$version-web.zip" "skelview-$version-web" )
  rm -rf "$stage"
fi
cp CHANGELOG.md "$out/"
( cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS ! -name BUILD.txt -printf '%f\n' | sort | xargs sha256sum >SHA256SUMS )
{
  echo "sizes:"
  for f in "$out"/*; do
    case "$f" in *SHA256SUMS|*BUILD.txt|*CHANGELOG.md) continue ;; esac
    echo "  $(basename "$f"): $(( $(stat -c %s "$f") / 1024 )) KiB"
  done
  if wants web; then echo "  web folder: $(du -sk target/web/release-dist | cut -f1) KiB"; fi
} | tee -a "$log"
echo "release in $out"
