#!/usr/bin/env bash
# Prints the application's version (Cargo.toml's [package] version): one source for every
# packaging script (linux/, windows/, web/, release/).
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n '/^\[package\]/,/^\[/ s/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
[ -n "$version" ] || { echo "release/version.sh: no [package] version in Cargo.toml" >&2; exit 1; }
echo "$version"
