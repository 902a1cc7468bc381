# Sourced by web/build.sh: points cargo at the browser toolchain that web/toolchain.sh set up.
root="$(web/toolchain.sh)"
export SKELVIEW_WEB_TOOLCHAIN="$root"
export RUSTC="$root/usr/bin/rustc"
export RUSTDOC="$root/usr/bin/rustdoc"
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$root/bin:$PATH"
# ufbx's C for wasm32: Debian's clang, no libc (skelview-core supplies ufbx's few libc calls).
export CC_wasm32_unknown_unknown=clang
export AR_wasm32_unknown_unknown=llvm-ar
export CFLAGS_wasm32_unknown_unknown="-DUFBX_NO_LIBC -DUFBX_NO_STDIO"
# WebGL2 through wgpu; getrandom (egui's hashing) from the browser's crypto.
export RUSTFLAGS="--cfg getrandom_backend=\"wasm_js\" ${RUSTFLAGS:-}"
