#![no_main]
//! Fuzz target: arbitrary bytes as C3D (in memory, and read as a file is, block by block),
//! then its force platforms, its TRC and MOT writers, and the C3D writer, whose output must
//! load again (run: cargo +nightly fuzz run c3d).

#[path = "common.rs"]
mod common;

use std::sync::Arc;

use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    common::load_and_pose(&skelview_core::formats::c3d::C3d, vec![("x.c3d", data)]);
    let read = skelview_core::formats::c3d::ReadOptions { zero_is_gap: true };
    let continue_ = &mut |_, _| std::ops::ControlFlow::Continue(());
    // The length as taken, and as taken before the file got shorter.
    for len in [data.len() as u64, data.len() as u64 + 5000] {
        let _ = skelview_core::formats::c3d::parse_c3d_read(&mut std::io::Cursor::new(data), len, read, continue_);
    }
    let request = LoadRequest { format: &skelview_core::formats::c3d::C3d, sources: vec![Source::Memory { name: "x.c3d".into(), bytes: Arc::from(data) }] };
    let Ok(m) = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet) else { return };
    let mut sink = std::io::sink();
    let _ = skelview_core::export::trc_writer::write_trc(&m, "x.trc", &mut sink);
    if let Some(c) = &m.capture {
        let _ = skelview_core::export::mot_writer::write_mot(c, "x.mot", 10.0, &mut sink);
    }
    let mut written = Vec::new();
    if skelview_core::export::c3d_writer::write_c3d(&m, &mut written).is_ok() {
        let again = LoadRequest { format: &skelview_core::formats::c3d::C3d, sources: vec![Source::Memory { name: "y.c3d".into(), bytes: Arc::from(written) }] };
        let back = formats::load(&again, &LoadOptions::default(), &Sequential, &mut Quiet);
        assert!(back.is_ok(), "a written C3D does not load: {:?}", back.err());
    }
});
