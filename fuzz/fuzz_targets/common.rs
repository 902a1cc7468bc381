//! Shared by every target: bytes → in-memory loader → sample and pose a few frames.

use std::sync::Arc;

use skelview_core::core::{Interpolation, PoseAt, Sampler};
use skelview_core::formats::{self, FileFormat, LoadOptions, LoadRequest, Quiet, Sequential, Source};

/// Loads `sources` as `format` and, when it loads, poses the first, middle and last frames
/// and a time between frames. Errors are fine; panics, hangs and huge allocations are bugs.
pub fn load_and_pose(format: &'static dyn FileFormat, sources: Vec<(&str, &[u8])>) {
    let sources = sources.into_iter().map(|(name, bytes)| Source::Memory { name: name.into(), bytes: Arc::from(bytes) }).collect();
    let request = LoadRequest { format, sources };
    let Ok(m) = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet) else { return };
    let mut s = Sampler::default();
    let n = m.clip.num_frames();
    for at in [PoseAt::Rest, PoseAt::Frame(0), PoseAt::Frame(n / 2), PoseAt::Frame(n.saturating_sub(1)), PoseAt::Time(0.37)] {
        s.positions(&m, at, Interpolation::Linear, m.display_from_file());
    }
}
