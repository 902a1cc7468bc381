#![no_main]
//! Fuzz target: arbitrary bytes as H-Anim X3D XML (run: cargo +nightly fuzz run x3d).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::hanim::HAnim, vec![("x.x3d", data)]);
});
