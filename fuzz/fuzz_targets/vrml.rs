#![no_main]
//! Fuzz target: arbitrary bytes as H-Anim ClassicVRML (run: cargo +nightly fuzz run vrml).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::hanim::HAnim, vec![("x.x3dv", data)]);
});
