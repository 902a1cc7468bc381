#![no_main]
//! Fuzz target: arbitrary bytes as a humanoid bone map (TOML) over the bundled sample walk,
//! then the walk retargeted onto itself through it (feet planted or not) and written as a VRM animation (run:
//! cargo +nightly fuzz run bone_map). Bad maps are errors; panics and hangs are bugs.

use std::sync::Arc;

use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};
use skelview_core::retarget::{BoneMap, HipScale, RetargetOptions, apply_toml, bone_map, retarget};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(request) = LoadRequest::memory("walk.bvh", Arc::<[u8]>::from(formats::SAMPLE_BVH)) else { return };
    let Ok(m) = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet) else { return };
    let mut map: BoneMap = bone_map(&m.skeleton, m.source.up_axis, false);
    if apply_toml(&mut map, &m.skeleton, text).is_err() {
        return;
    }
    let mut again = BoneMap::default();
    apply_toml(&mut again, &m.skeleton, &map.to_toml(&m.skeleton)).expect("a map written reads back");
    let found = bone_map(&m.skeleton, m.source.up_axis, false);
    // Both ways of planting: a map that swaps legs or names odd joints must not break the IK.
    let options = RetargetOptions { hips: HipScale::Auto, keep_feet: data.len() % 2 == 0 };
    let _ = retarget(&m, &map, &m, &found, &options, &|_| true);
    let _ = skelview_core::export::vrma_writer::document(&m);
});
