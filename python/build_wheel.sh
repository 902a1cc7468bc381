#!/usr/bin/env bash
# Builds the Python package as one abi3 wheel (CPython 3.9 and later) that carries the
# skelview program: after `pip install skelview-….whl`, `skelview FILE`, `python -m skelview
# FILE` and `skelview.show(...)` open the viewer with nothing else installed.
# The wheel's manylinux tag is the newest glibc that the extension or the program needs
# (Debian 12 builds need 2.35: libm's hypot), so pip installs it only where both run.
# Usage: python/build_wheel.sh --binary PATH [--out DIR]   (maturin from $MATURIN or PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
out=target/python-dist
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: python/build_wheel.sh --binary PATH [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "python/build_wheel.sh: --binary must name the built skelview" >&2; exit 2; }
maturin="${MATURIN:-maturin}"
command -v "$maturin" >/dev/null || { echo "python/build_wheel.sh: needs maturin (pip install maturin==1.16.0)" >&2; exit 2; }
scripts=python/skelview.data/scripts
rm -rf python/skelview.data
# maturin takes a data folder only when pyproject.toml names it, and fails when the folder it
# names is missing: so it is named for this build only (a plain `pip install ./python` has
# neither), and pyproject.toml is put back afterwards.
cp python/pyproject.toml python/pyproject.toml.orig
trap 'mv python/pyproject.toml.orig python/pyproject.toml; rm -rf python/skelview.data' EXIT
sed -i 's/^module-name = "skelview._skelview"$/&\ndata = "skelview.data"/' python/pyproject.toml
grep -q '^data = "skelview.data"$' python/pyproject.toml || { echo "python/build_wheel.sh: pyproject.toml has no module-name line to add the data folder after" >&2; exit 1; }
mkdir -p "$scripts"
install -m 755 "$binary" "$scripts/skelview"
strip --strip-unneeded "$scripts/skelview"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/python-build}"
# The extension first (its glibc needs are read from it), then the wheel with the tag both allow.
"$maturin" build --release --manifest-path python/Cargo.toml --compatibility linux --out "$out/.probe" -q >/dev/null
glibc_minor() { objdump -T "$1" | grep -o 'GLIBC_2\.[0-9]*' | cut -d. -f2 | sort -n | tail -1; }
ext_minor="$(glibc_minor "$CARGO_TARGET_DIR/release/lib_skelview.so")"
bin_minor="$(glibc_minor "$scripts/skelview")"
minor=$(( ext_minor > bin_minor ? ext_minor : bin_minor ))
rm -rf "$out/.probe"
"$maturin" build --release --manifest-path python/Cargo.toml --compatibility "manylinux_2_$minor" --out "$out" -q
ls -1 "$out"/skelview-*manylinux_2_"$minor"*.whl
