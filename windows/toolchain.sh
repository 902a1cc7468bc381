#!/usr/bin/env bash
# Sets up what the Windows build needs, once (rustup cannot add the Windows target on machines
# without a route to static.rust-lang.org):
#   - Debian's rustc-web compiler, the same unpack as the browser build (web/toolchain.sh);
#   - the x86_64-pc-windows-gnu standard library, built once from Debian's rust-web-src with
#     -Zbuild-std, into that unpack;
#   - Debian's mingw-w64 (linker, C compiler for ufbx, strip, windres, objdump), NSIS for the
#     installer, and wine64 for the tests.
# Usage: windows/toolchain.sh          (idempotent; prints the toolchain folder last)
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian 12 (bookworm) package versions; apt says below when one is gone.
PACKAGES="gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 nsis wine64 zip"
say() { echo "windows toolchain: $*" >&2; }
die() { echo "windows toolchain: error: $*" >&2; exit 1; }
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

missing=""
for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-strip x86_64-w64-mingw32-windres makensis zip; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
# Debian's wine64 puts its loader beside its libraries, not on PATH.
[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null || missing="$missing wine64"
if [ -n "$missing" ]; then
  command -v apt-get >/dev/null || die "missing$missing; install: $PACKAGES (Debian package names)"
  say "installing $PACKAGES (missing:$missing)"
  ( $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $PACKAGES ) \
    >/tmp/skelview-windows-apt.log 2>&1 || { cat /tmp/skelview-windows-apt.log >&2; die "apt-get install $PACKAGES failed (above)"; }
fi

# The compiler: the browser build's unpack of Debian's rustc-web.
root="$(web/toolchain.sh)"
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# The Windows standard library, built once from Debian's source of the same version.
CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc web/build-std.sh "$root" x86_64-pc-windows-gnu unwind
echo "$root"
