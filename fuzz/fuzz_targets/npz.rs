#![no_main]
//! Fuzz target: arbitrary bytes as a NumPy motion, `.npy` or `.npz` (run: cargo +nightly fuzz run npz).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::npz::Npz, vec![("x.npz", data)]);
});
