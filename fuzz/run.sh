#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) each, seeded from ../shared/corpus, with a
# keyword dictionary per format. Needs a nightly toolchain; with cargo-fuzz it drives the runs,
# without it the targets are built with libFuzzer's coverage flags directly (what cargo-fuzz
# passes, less AddressSanitizer) and run as plain programs:
#   cargo install cargo-fuzz      # optional
#   fuzz/run.sh 20            # a quick pass (CI)
#   fuzz/run.sh 3600 bvh      # a long campaign on one target
# A crash leaves its input under fuzz/artifacts/TARGET/; replay it with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-…
# and add it as a regression test under tests/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(bvh asf amc htr acl_sjson acl_zip x3d vrml fbx gltf mnm c3d trc mot recipe bone_map npz); fi
corpus_src="../shared/corpus"
seed() { # target, find patterns...
  local t="$1"; shift
  mkdir -p "fuzz/corpus/$t"
  if [ -d "$corpus_src" ]; then
    find "$corpus_src" -type f \( "$@" \) -size -2M -exec cp -n {} "fuzz/corpus/$t/" \; 2>/dev/null || true
  fi
}
seed bvh -name '*.bvh'
seed asf -name '*.asf'
seed amc -name 'cmu_*.amc'
seed htr -name '*.htr' -o -name '*.gtr'
seed acl_sjson -name '*.acl.sjson'
seed acl_zip -name '*.acl.zip'
seed x3d -name '*.x3d'
seed vrml -name '*.x3dv' -o -name '*.wrl'
seed fbx -name '*.fbx'
seed gltf -name '*.gltf' -o -name '*.glb'
seed mnm -name '*.mnm'
seed c3d -name '*.c3d' -size -400k
seed trc -name '*.trc'
cp -n crates/skelview-core/tests/data/fbx/*.fbx fuzz/corpus/fbx/ 2>/dev/null || true
# Characters: skins, rigid meshes, morph targets, textures (the mesh paths and the writer).
cp -n tests/data/avatars/*.glb tests/data/avatars/*.vrm fuzz/corpus/gltf/ 2>/dev/null || true
cp -n tests/data/trc/*.trc fuzz/corpus/trc/ 2>/dev/null || true
mkdir -p fuzz/corpus/mot
printf 'Coordinates\nversion=1\nnRows=3\nnColumns=3\ninDegrees=yes\nendheader\ntime\tpelvis_tx\tknee_angle_r\n0.00\t0.5\t10\n0.01\t0.51\t12\n0.02\t0.52\t14\n' > fuzz/corpus/mot/seed.mot
mkdir -p fuzz/corpus/npz
{ printf '\223NUMPY\001\000v\000'; printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 22, 3), }"; head -c 264 /dev/zero; } > fuzz/corpus/npz/seed.npy
mkdir -p fuzz/corpus/bone_map
printf '[bones]\nhips = "Hips"\nchest = "Spine1"\nleftToes = ""\nrightHand = "RightHand"\n' > fuzz/corpus/bone_map/seed.toml
mkdir -p fuzz/corpus/recipe
printf '[[step]]\nop = "fill_gaps"\nmethod = "auto"\nmax_gap = 30\n\n[[step]]\nop = "filter"\ncutoff_hz = 6.0\n\n[[step]]\nop = "trim"\nrange = "1:-2"\n\n[[step]]\nop = "resample"\nfps = 45.0\n\n[[step]]\nop = "loop"\nframes = 3\n' > fuzz/corpus/recipe/seed.toml
options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=262144 -print_final_stats=1)
summary='^(stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|Done)'
if cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo +nightly fuzz build -O
  run() { cargo +nightly fuzz run -O "$1" "fuzz/corpus/$1" -- "${options[@]}" -dict="fuzz/dict/$1.dict"; }
else
  triple="$(rustc +nightly -vV | sed -n 's/^host: //p')"
  RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks" \
    cargo +nightly build --manifest-path fuzz/Cargo.toml --release --bins --target "$triple" --target-dir fuzz/target
  run() {
    mkdir -p "fuzz/artifacts/$1"
    "fuzz/target/$triple/release/$1" "fuzz/corpus/$1" "${options[@]}" -dict="fuzz/dict/$1.dict" -artifact_prefix="fuzz/artifacts/$1/"
  }
fi
for t in "${targets[@]}"; do
  echo "fuzzing $t for ${seconds}s"
  run "$t" 2>&1 | grep -E "$summary" || true
  if [ -n "$(ls -A "fuzz/artifacts/$t" 2>/dev/null)" ]; then
    echo "fuzz target $t found a crash: see fuzz/artifacts/$t" >&2
    exit 1
  fi
done
