#!/usr/bin/env bash
# Packages a built skelview for Linux, into one folder:
#   skelview_VERSION_amd64.deb: the program, desktop entry, MIME types, icon, thumbnailer, man
#     page and shell completions, system-wide (skelview opens its types by default);
#   skelview-VERSION-x86_64-linux.tar.gz: the program, README and licences (run
#     `skelview --install-desktop` for the desktop part, per user).
# Usage: linux/package.sh --binary PATH [--out DIR]
#   (release.sh passes the release build; the tests pass the debug one)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
out=target/linux-dist
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: linux/package.sh --binary PATH [--out DIR]" >&2; exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "linux/package.sh: --binary must name the built skelview (cargo build --release)" >&2; exit 2; }
for tool in dpkg-deb strip gzip tar; do
  command -v "$tool" >/dev/null || { echo "linux/package.sh: needs $tool" >&2; exit 2; }
done
version="$(release/version.sh)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The Debian package.
root="$work/deb"
install -d "$root/usr/bin" "$root/DEBIAN" "$root/usr/share/man/man1" "$root/usr/share/doc/skelview" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/usr/bin/skelview"
strip --strip-unneeded "$root/usr/bin/skelview"
"$binary" desktop-files "$root/usr/share" --exe /usr/bin/skelview >/dev/null
"$binary" manpage | gzip -9n >"$root/usr/share/man/man1/skelview.1.gz"
"$binary" completions bash >"$root/usr/share/bash-completion/completions/skelview"
"$binary" completions zsh >"$root/usr/share/zsh/vendor-completions/_skelview"
"$binary" completions fish >"$root/usr/share/fish/vendor_completions.d/skelview.fish"
gzip -9n <README.md >"$root/usr/share/doc/skelview/README.md.gz"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: skelview"
  echo
  echo "Files: *"
  echo "Copyright: 2026 the skelview authors"
  echo "License: MIT or Apache-2.0"
  echo " On Debian systems the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0."
  echo " The MIT licence:"
  echo " ."
  sed 's/^$/./; s/^/ /' LICENSE-MIT
} >"$root/usr/share/doc/skelview/copyright"
find "$root/usr" -type d -exec chmod 755 {} +
find "$root/usr" -type f ! -path "*/usr/bin/*" -exec chmod 644 {} +
size_kib="$(du -sk "$root/usr" | cut -f1)"
cat >"$root/DEBIAN/control" <<CONTROL
Package: skelview
Version: $version
Architecture: amd64
Maintainer: the skelview authors <skelview@users.noreply.github.com>
Installed-Size: $size_kib
Depends: libc6 (>= 2.34), libgcc-s1
Recommends: libvulkan1, mesa-vulkan-drivers | libgl1-mesa-dri, libxkbcommon-x11-0, libx11-xcb1, libxcursor1, libxi6, libxrandr2, libwayland-client0, shared-mime-info, desktop-file-utils, xdg-utils
Suggests: ffmpeg
Section: graphics
Priority: optional
Homepage: https://github.com/skelview/skelview
Description: real-time 3D skeleton viewer for motion-capture files
 Opens BVH, Acclaim ASF/AMC, HTR/GTR, ACL, H-Anim, FBX, glTF/VRM, C3D, TRC and
 OpenSim files, plays them, checks them for capture artifacts, fixes them,
 compares and retargets them, and writes BVH, glTF, VRMA, TRC, MOT and C3D.
 Also a command line (info, positions, qa, edit, retarget, render, convert...).
CONTROL
# The desktop and MIME databases follow the files (dpkg triggers do it on Debian; these
# scripts do it where the tools are but the triggers are not).
for script in postinst postrm; do
  cat >"$root/DEBIAN/$script" <<'SCRIPT'
#!/bin/sh
set -e
if command -v update-mime-database >/dev/null 2>&1; then update-mime-database /usr/share/mime || true; fi
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q /usr/share/applications || true; fi
SCRIPT
  chmod 755 "$root/DEBIAN/$script"
done
deb="$out/skelview_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null

# The portable archive.
name="skelview-$version-x86_64-linux"
mkdir "$work/$name"
install -m 755 "$root/usr/bin/skelview" "$work/$name/skelview"
cp README.md LICENSE-MIT LICENSE-APACHE "$work/$name/"
tar -C "$work" --owner=0 --group=0 -czf "$out/$name.tar.gz" "$name"

echo "linux packages:"
echo "  $deb $(du -k "$deb" | cut -f1) KiB"
echo "  $out/$name.tar.gz $(du -k "$out/$name.tar.gz" | cut -f1) KiB"
