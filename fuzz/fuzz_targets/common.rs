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
    if m.meshes.is_some() {
        pose_and_write_meshes(&m);
    }
}

/// A character's meshes posed on the CPU at its first and last frames, then written as a GLB
/// (the mesh writer) and read back: the writer must take whatever a reader lets through.
fn pose_and_write_meshes(m: &skelview_core::core::Motion) {
    let Some(set) = m.meshes.as_deref() else { return };
    let all: Vec<usize> = (0..set.meshes.len()).collect();
    let last = m.clip.num_frames().saturating_sub(1);
    let _ = skelview_core::core::mesh_frames::vertices(m, &all, &[0, last], m.display_from_file());
    use skelview_core::export::gltf_writer::{Animation, document, write_glb};
    let Ok((doc, bin)) = document(&[Animation { name: "take".into(), motion: m }]) else { return };
    let mut glb = Vec::new();
    if write_glb(&doc, &bin, &mut glb).is_ok() {
        let source = Source::Memory { name: "written.glb".into(), bytes: Arc::from(glb) };
        let request = LoadRequest { format: &formats::gltf::Gltf, sources: vec![source] };
        let back = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet);
        assert!(back.is_ok_and(|b| b.meshes.as_ref().map(|s| s.meshes.len()) == Some(set.meshes.len())), "a written character reads back with its meshes");
    }
    // A VRM avatar's extensions (whatever JSON the file held) renumbered for a `.vrm`.
    if set.extensions.is_some() {
        let _ = skelview_core::export::vrm_writer::document(&[Animation { name: "take".into(), motion: m }]);
    }
}
