//! One pass of forward kinematics over every frame, in parallel chunks: joint positions in
//! display space (metres, Y up) and each animated joint's frame-to-frame local change.

use std::sync::atomic::{AtomicUsize, Ordering};

use glam::{Quat, Vec3};
use rayon::prelude::*;

use crate::core::{Interpolation, LocalTransform, Motion, PoseAt, Sampler};

/// Frames per parallel chunk: large enough to amortise a chunk's first pose.
const CHUNK: usize = 2048;

/// Per-frame data of a whole clip, one contiguous series per joint (the detectors work a
/// joint at a time).
pub struct Tracks {
    /// Joints per frame.
    pub joints: usize,
    /// Frames.
    pub frames: usize,
    /// Seconds between frames.
    pub dt: f32,
    /// `positions[j][f]`: joint origins, metres, Y up.
    pub positions: Vec<Vec<Vec3>>,
    /// Joints with rotation channels (Euler or quaternion).
    pub rot_joints: Vec<usize>,
    /// `rot_steps[k][f]`: the rotation from frame `f − 1` to `f` of joint `rot_joints[k]` in
    /// its own frame, as a rotation vector in degrees (zero at frame 0).
    pub rot_steps: Vec<Vec<Vec3>>,
    /// Joints with translation (or bone length) channels.
    pub trans_joints: Vec<usize>,
    /// `trans_steps[k][f]`: the change of the local translation from frame `f − 1` to `f`,
    /// metres (zero at frame 0).
    pub trans_steps: Vec<Vec<Vec3>>,
}

/// Rotation vector (degrees) taking `a` to `b`, the short way round.
fn rotation_step(a: Quat, b: Quat) -> Vec3 {
    let mut d = a.inverse() * b;
    if d.w < 0.0 {
        d = -d;
    }
    let v = d.to_scaled_axis() * (180.0 / std::f32::consts::PI);
    if v.is_finite() { v } else { Vec3::ZERO }
}

/// One chunk of frames, joint by joint.
struct Part {
    positions: Vec<Vec<Vec3>>,
    rot: Vec<Vec<Vec3>>,
    trans: Vec<Vec<Vec3>>,
}

/// Joins the chunks' series of each joint end to end.
fn join(parts: &mut [Part], pick: impl Fn(&mut Part) -> &mut Vec<Vec<Vec3>> + Sync, count: usize, n: usize) -> Vec<Vec<Vec3>> {
    let mut out: Vec<Vec<Vec3>> = (0..count).map(|_| Vec::with_capacity(n)).collect();
    for part in parts.iter_mut() {
        for (series, piece) in out.iter_mut().zip(pick(part).drain(..)) {
            series.extend_from_slice(&piece);
        }
    }
    out
}

impl Tracks {
    /// Poses every frame of `m`; `progress` gets the fraction of frames done.
    pub fn compute(m: &Motion, space: &super::Space, progress: &(dyn Fn(f32) + Sync)) -> Self {
        let skeleton = &m.skeleton;
        let (n, nj) = (m.clip.num_frames(), skeleton.len());
        let (display, metres) = (space.display, space.metres);
        let rot_joints: Vec<usize> =
            (0..nj).filter(|&j| skeleton.joints()[j].channels.iter().any(|c| c.is_rotation() || c.is_quaternion())).collect();
        let trans_joints: Vec<usize> = (0..nj)
            .filter(|&j| skeleton.joints()[j].channels.iter().any(|c| c.is_translation() || *c == crate::core::ChannelKind::Length))
            .collect();
        let done = AtomicUsize::new(0);
        let mut parts: Vec<Part> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                let series = |count: usize| -> Vec<Vec<Vec3>> { (0..count).map(|_| Vec::with_capacity(end - start)).collect() };
                let mut part = Part { positions: series(nj), rot: series(rot_joints.len()), trans: series(trans_joints.len()) };
                let mut sampler = Sampler::default();
                let mut prev: Vec<LocalTransform> = Vec::new();
                if start > 0 {
                    sampler.pose(skeleton, &m.clip, PoseAt::Frame(start - 1), Interpolation::Nearest);
                    prev.clone_from(&sampler.local.parent_from_joint);
                }
                for f in start..end {
                    sampler.pose(skeleton, &m.clip, PoseAt::Frame(f), Interpolation::Nearest);
                    for (out, w) in part.positions.iter_mut().zip(&sampler.global.world_from_joint) {
                        out.push(display.transform_point3(w.translation.into()));
                    }
                    let local = &sampler.local.parent_from_joint;
                    let first = prev.is_empty();
                    for (out, &j) in part.rot.iter_mut().zip(&rot_joints) {
                        out.push(if first { Vec3::ZERO } else { rotation_step(prev[j].rotation, local[j].rotation) });
                    }
                    for (out, &j) in part.trans.iter_mut().zip(&trans_joints) {
                        out.push(if first { Vec3::ZERO } else { (local[j].translation - prev[j].translation) * metres });
                    }
                    prev.clone_from(local);
                }
                let finished = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                progress(finished as f32 / n.max(1) as f32);
                part
            })
            .collect();
        let positions = join(&mut parts, |p| &mut p.positions, nj, n);
        let rot_steps = join(&mut parts, |p| &mut p.rot, rot_joints.len(), n);
        let trans_steps = join(&mut parts, |p| &mut p.trans, trans_joints.len(), n);
        Tracks { joints: nj, frames: n, dt: m.clip.frame_time_secs as f32, positions, rot_joints, rot_steps, trans_joints, trans_steps }
    }

    /// Position of joint `j` at frame `f`.
    pub fn pos(&self, f: usize, j: usize) -> Vec3 {
        self.positions[j][f]
    }

    /// The rotation step of the `k`-th rotating joint at frame `f`.
    pub fn rot_step(&self, f: usize, k: usize) -> Vec3 {
        self.rot_steps[k][f]
    }
}
