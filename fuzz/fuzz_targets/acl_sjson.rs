#![no_main]
//! Fuzz target: arbitrary bytes as ACL SJSON (run: cargo +nightly fuzz run acl_sjson).

#[path = "common.rs"]
mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::acl::Acl, vec![("x.acl.sjson", data)]);
});
