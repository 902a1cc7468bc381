#![no_main]
//! Fuzz target: arbitrary bytes as an edit recipe (TOML), applied to the bundled sample walk
//! and to a small capture (run: cargo +nightly fuzz run recipe). Bad recipes and bad
//! parameters are errors; panics and hangs are bugs.

use std::sync::Arc;

use skelview_core::edit::{Recipe, apply};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};

const TRC: &[u8] = b"PathFileType\t4\t(X/Y/Z)\tx.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n100\t100\t6\t2\tmm\t100\t1\t6\nFrame#\tTime\tA\t\t\tB\t\t\n\t\tX1\tY1\tZ1\tX2\tY2\tZ2\n\n1\t0\t0\t0\t0\t10\t0\t0\n2\t0.01\t1\t0\t0\t11\t0\t0\n3\t0.02\t\t\t\t12\t0\t0\n4\t0.03\t3\t0\t0\t13\t0\t0\n5\t0.04\t4\t0\t0\t14\t0\t0\n6\t0.05\t5\t0\t0\t15\t0\t0\n";

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(recipe) = Recipe::from_toml(text) else { return };
    let _ = Recipe::from_toml(&recipe.to_toml()).expect("a recipe written reads back");
    for (name, bytes) in [("walk.bvh", formats::SAMPLE_BVH), ("x.trc", TRC)] {
        let Ok(request) = LoadRequest::memory(name, Arc::<[u8]>::from(bytes)) else { continue };
        let Ok(m) = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet) else { continue };
        if let Ok(edited) = apply(&m, &recipe, &|_| true) {
            let mut sink = Vec::new();
            let _ = skelview_core::export::c3d_writer::write_c3d(&edited.motion, &mut sink);
        }
    }
});
