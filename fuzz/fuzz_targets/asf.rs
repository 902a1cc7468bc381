#![no_main]
//! Fuzz target: arbitrary bytes as an ASF skeleton (run: cargo +nightly fuzz run asf).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::acclaim::Acclaim, vec![("x.asf", data)]);
});
