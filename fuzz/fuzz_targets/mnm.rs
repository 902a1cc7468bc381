#![no_main]
//! Fuzz target: arbitrary bytes as an MNM name map, and as `KEY=VALUE` format options (run:
//! cargo +nightly fuzz run mnm).

use skelview_core::formats::NameMapFormat;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = skelview_core::formats::mnm::Mnm.read(data);
    if let Ok(text) = std::str::from_utf8(data) {
        let mut options = skelview_core::formats::FormatOptions::default();
        for line in text.lines() {
            let _ = options.set_pair(line);
        }
        let _ = skelview_core::formats::acclaim::FRAME_RATE.number(&options);
        let _ = skelview_core::formats::bvh::position_rule(&skelview_core::formats::LoadOptions { format: options, ..Default::default() });
    }
});
