#![no_main]
//! Fuzz target: arbitrary bytes as glTF (JSON or binary .glb) (run: cargo +nightly fuzz run gltf).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::gltf::Gltf, vec![("scene.glb", data)]);
});
