# Sourced by windows/build.sh: points cargo at the Windows toolchain windows/toolchain.sh set up.
root="$(windows/toolchain.sh)"
export RUSTC="$root/usr/bin/rustc"
export RUSTDOC="$root/usr/bin/rustdoc"
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc
export CXX_x86_64_pc_windows_gnu=x86_64-w64-mingw32-g++
export AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
