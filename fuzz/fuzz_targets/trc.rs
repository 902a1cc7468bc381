#![no_main]
//! Fuzz target: arbitrary bytes as TRC (run: cargo +nightly fuzz run trc).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::trc::Trc, vec![("x.trc", data)]);
});
