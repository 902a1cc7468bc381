#!/usr/bin/env bash
# Sets up what the browser build needs, once, in a folder outside the checkout (printed last):
#   - Debian's rustc-web compiler (rustup cannot add the wasm32 target on machines without a
#     route to static.rust-lang.org), unpacked, not installed, so rustup's rustc stays on PATH;
#   - the wasm32 standard library, built once from Debian's rust-web-src with -Zbuild-std;
#   - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock;
#   - clang (Debian's has the wasm32 target) for ufbx's C.
# Usage: web/toolchain.sh            (idempotent; web/build.sh calls it)
# Override the folder with SKELVIEW_WEB_TOOLCHAIN=/path.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned versions. The Debian security archive keeps only the newest build of a package: when
# these are gone, apt says so below and this script stops with the versions to update.
RUST_WEB_VERSION="1.96.0+dfsg1-1~deb12u2"
RUST_WEB_STD="libstd-rust-web-1.96"
LLVM_PACKAGE="libllvm22"
LLVM_VERSION="1:22.1.8-1~deb12u1"
WASM_BINDGEN_VERSION="0.2.130"

root="${SKELVIEW_WEB_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/skelview-web-toolchain}"
mkdir -p "$root"
say() { echo "web toolchain: $*" >&2; }
die() { echo "web toolchain: error: $*" >&2; exit 1; }
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

lock_version="$( (grep -A1 '^name = "wasm-bindgen"$' Cargo.lock || true) | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)"
if [ -n "$lock_version" ] && [ "$lock_version" != "$WASM_BINDGEN_VERSION" ]; then
  die "Cargo.lock has wasm-bindgen $lock_version but this script pins wasm-bindgen-cli $WASM_BINDGEN_VERSION; they must match"
fi

# 1. rustc-web, unpacked into $root.
if [ ! -x "$root/usr/bin/rustc" ] || ! grep -qx "$RUST_WEB_VERSION" "$root/rustc-web.version" 2>/dev/null; then
  command -v apt-get >/dev/null || die "needs apt-get (Debian) to fetch rustc-web"
  say "fetching Debian rustc-web $RUST_WEB_VERSION"
  $sudo apt-get update -qq >/dev/null 2>&1 || say "apt-get update failed; trying the package lists as they are"
  debs="$(mktemp -d)"
  if ! ( cd "$debs" && apt-get download -q \
      "rustc-web=$RUST_WEB_VERSION" "$RUST_WEB_STD=$RUST_WEB_VERSION" \
      "libstd-rust-web-dev=$RUST_WEB_VERSION" "rust-web-src=$RUST_WEB_VERSION" \
      "$LLVM_PACKAGE=$LLVM_VERSION" ) >"$debs/apt.log" 2>&1; then
    cat "$debs/apt.log" >&2
    echo >&2
    echo "available versions:" >&2
    apt-cache policy rustc-web "$LLVM_PACKAGE" 2>/dev/null | sed 's/^/  /' >&2 || true
    die "apt no longer has rustc-web $RUST_WEB_VERSION or $LLVM_PACKAGE $LLVM_VERSION (the security archive keeps only the newest); update RUST_WEB_VERSION/LLVM_VERSION in web/toolchain.sh to a version listed above"
  fi
  rm -rf "$root/usr"
  for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
  rm -rf "$debs"
  echo "$RUST_WEB_VERSION" >"$root/rustc-web.version"
fi
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$root/usr/bin/rustc" -vV >/dev/null || die "the unpacked rustc-web does not run: $root/usr/bin/rustc"

# 2. The wasm target links with rust-lld; Debian's is a symlink to an lld we do not have.
host_lib="$root/usr/lib/rustlib/x86_64-unknown-linux-gnu/bin"
mkdir -p "$host_lib"
lld="$(rustc +stable --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
[ -x "$lld" ] || die "rustup's rust-lld is missing ($lld)"
ln -sf "$lld" "$host_lib/rust-lld"

# 3. The wasm32 standard library, built once from Debian's source of the same version.
web/build-std.sh "$root" wasm32-unknown-unknown abort

# 4. wasm-bindgen-cli, the exact version of the crate (its lock file pins a crate the registry
#    no longer has, hence no --locked).
if ! "$root/bin/wasm-bindgen" --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (several minutes)"
  cargo +stable install -q --root "$root" wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" \
    || die "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION failed (above)"
fi

# 5. clang for the C in ufbx (Debian's clang has the wasm32 target).
if ! command -v clang >/dev/null; then
  say "installing clang"
  ( $sudo apt-get install -y -qq --no-install-recommends clang >/dev/null ) || die "could not install clang (apt-get install clang)"
fi

echo "$root"
