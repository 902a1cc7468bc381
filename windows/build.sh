#!/usr/bin/env bash
# Builds skelview for Windows (x86_64-pc-windows-gnu) from this Linux machine, into one folder:
#   skelview.exe (stripped), skelview-VERSION-windows-x86_64.zip (portable: the program, README,
#   licences; `skelview --install-desktop` registers the file types) and
#   skelview-VERSION-windows-x86_64-setup.exe (a per-user installer, no administrator).
# Usage: windows/build.sh [--profile release|windows-test] [--out DIR]
#   release (the default) is what ships; windows-test is CI's quicker build for the Wine tests.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
out=target/windows-dist
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: windows/build.sh [--profile release|windows-test] [--out DIR]" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
# shellcheck source=windows/env.sh
source windows/env.sh
version="$(release/version.sh)"
cargo +stable build -q --target x86_64-pc-windows-gnu --profile "$profile" --bin skelview --locked --target-dir target/windows
built=$(( $(date +%s) - start ))
case "$profile" in dev) dir=debug ;; *) dir="$profile" ;; esac
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cp "target/windows/x86_64-pc-windows-gnu/$dir/skelview.exe" "$out/skelview.exe"
x86_64-w64-mingw32-strip "$out/skelview.exe"

name="skelview-$version-windows-x86_64"
stage="$(mktemp -d)"
mkdir "$stage/$name"
cp "$out/skelview.exe" "$stage/$name/"
cp README.md "$stage/$name/README.md"
cp LICENSE-MIT "$stage/$name/LICENSE-MIT.txt"
cp LICENSE-APACHE "$stage/$name/LICENSE-APACHE.txt"
rm -f "$out/$name.zip"
( cd "$stage" && zip -q -9 -r "$out/$name.zip" "$name" )
rm -rf "$stage"

makensis -V2 -DVERSION="$version" -DEXE="$out/skelview.exe" -DICON="$PWD/assets/skelview.ico" -DROOT="$PWD" \
  -DOUT="$out/$name-setup.exe" windows/installer.nsi

size() { du -k "$1" | cut -f1; }
echo "windows build ($profile): compiled in ${built} s, all in $(( $(date +%s) - start )) s"
echo "  $out/skelview.exe $(size "$out/skelview.exe") KiB"
echo "  $out/$name.zip $(size "$out/$name.zip") KiB"
echo "  $out/$name-setup.exe $(size "$out/$name-setup.exe") KiB"
