//! Posed mesh vertices over frames, on the CPU: `positions --vertices`, Python's
//! `Motion.vertices` and the tests (the viewer skins on the GPU from the same palette).

use glam::{Mat4, Vec3};

use super::mesh::{Mesh, skin_vertices};
use super::motion::Motion;
use super::pose::GlobalPose;
use super::sampler::{PoseAt, Sampler};
use crate::par::*;

/// Buffers for posing meshes (palette and morph weights), reused between calls.
#[derive(Clone, Debug, Default)]
pub struct MeshPoser {
    palette: Vec<Mat4>,
    weights: Vec<f32>,
}

impl MeshPoser {
    /// `mesh`'s vertices for `pose` at `time_secs` (its morph weights), in `space_from_file`.
    pub fn vertices(&mut self, mesh: &Mesh, pose: &GlobalPose, time_secs: f64, space_from_file: Mat4, out: &mut Vec<Vec3>) {
        mesh.palette(pose, time_secs, &mut self.palette);
        for m in &mut self.palette {
            *m = space_from_file * *m;
        }
        mesh.posed_weights(time_secs, pose, &mut self.weights);
        skin_vertices(mesh, &self.palette, &self.weights, out);
    }
}

/// The time of frame `f` (frames at the clip's rate from 0).
pub fn frame_time(m: &Motion, f: usize) -> f64 {
    f as f64 * m.clip.frame_time_secs
}

/// Vertices of the meshes `which` (indices in the motion's mesh list) at each of `frames`,
/// frame after frame, in `space_from_file`; frames posed in parallel.
pub fn vertices(m: &Motion, which: &[usize], frames: &[usize], space_from_file: Mat4) -> Vec<Vec3> {
    let Some(set) = m.meshes.as_deref() else { return Vec::new() };
    let meshes: Vec<&Mesh> = which.iter().filter_map(|&k| set.meshes.get(k)).collect();
    let one_frame = |f: usize| {
        let (mut sampler, mut poser, mut out, mut part) = (Sampler::default(), MeshPoser::default(), Vec::new(), Vec::new());
        let pose = sampler.pose(&m.skeleton, &m.clip, PoseAt::Frame(f), super::Interpolation::Linear);
        for mesh in &meshes {
            poser.vertices(mesh, pose, frame_time(m, f), space_from_file, &mut part);
            out.extend_from_slice(&part);
        }
        out
    };
    let per_frame: Vec<Vec<Vec3>> = frames.to_vec().into_par_iter().map(one_frame).collect();
    per_frame.concat()
}
