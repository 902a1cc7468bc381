#![no_main]
//! Fuzz target: arbitrary bytes as BVH (run: cargo +nightly fuzz run bvh).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::bvh::Bvh, vec![("walk.bvh", data)]);
});
