#![no_main]
//! Fuzz target: arbitrary bytes as an OpenSim .mot (run: cargo +nightly fuzz run mot).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::mot::Mot, vec![("x.mot", data)]);
});
