#!/usr/bin/env bash
# Builds Rust's standard library for TARGET once, from the source in the rustc-web unpack at
# ROOT, into ROOT's rustlib (rustup cannot add targets on machines without a route to
# static.rust-lang.org). Used by web/toolchain.sh (wasm32) and windows/toolchain.sh.
# Usage: web/build-std.sh ROOT TARGET PANIC   (PANIC: abort or unwind)
set -euo pipefail
root="$1" target="$2" panic="$3"
lib="$root/usr/lib/rustlib/$target/lib"
ls "$lib"/libstd-*.rlib >/dev/null 2>&1 && exit 0
die() { echo "build-std: error: $*" >&2; exit 1; }
cargo +nightly --version >/dev/null 2>&1 || die "building std needs a nightly cargo (-Zbuild-std): rustup toolchain install nightly"
echo "build-std: building the $target standard library (a minute or two)" >&2
probe="$(mktemp -d)"
mkdir -p "$probe/src"
printf '[package]\nname = "probe"\nversion = "0.0.0"\nedition = "2021"\n[workspace]\n[profile.release]\npanic = "%s"\n' "$panic" >"$probe/Cargo.toml"
echo 'fn main() { println!("probe"); }' >"$probe/src/main.rs"
linker_var="CARGO_TARGET_$(echo "$target" | tr 'a-z-' 'A-Z_')_LINKER"
( cd "$probe" && RUSTC="$root/usr/bin/rustc" RUSTDOC="$root/usr/bin/rustdoc" RUSTC_BOOTSTRAP=1 \
    LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    cargo +nightly build -q "-Zbuild-std=std,panic_$panic" --target "$target" --release ) \
  || die "building std for $target failed (above; $linker_var names its linker)"
mkdir -p "$lib"
cp "$probe/target/$target/release/deps/"*.rlib "$lib/"
rm -rf "$probe"
