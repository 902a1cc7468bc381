#![no_main]
//! Fuzz target: arbitrary bytes as FBX (ASCII or binary, read by ufbx) (run: cargo +nightly fuzz run fbx).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::fbx::Fbx, vec![("take.fbx", data)]);
});
