#![no_main]
//! Fuzz target: arbitrary bytes as HTR (run: cargo +nightly fuzz run htr).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::htr::Htr, vec![("x.htr", data)]);
});
