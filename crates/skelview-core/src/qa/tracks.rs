//! One pass of forward kinematics over every frame, in parallel chunks: joint positions in
//! display space (metres, Y up) and each animated joint's frame-to-frame local change.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::par::*;
use glam::{Quat, Vec3};

use crate::core::Motion;
use crate::core::batch::{FramePose, FramePoser};

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

/// `atan(x)` for `x` in [0, 1] to within 1e-5 rad (a minimax polynomial): the rotation steps
/// of a whole clip take one each, and libm's `atan2f` was a tenth of the checks' time.
fn atan_unit(x: f32) -> f32 {
    let x2 = x * x;
    x * (0.999_866 + x2 * (-0.330_299_5 + x2 * (0.180_141 + x2 * (-0.085_133 + x2 * 0.020_835_1))))
}

/// Rotation vector (degrees) taking `a` to `b`, the short way round.
fn rotation_step(a: Quat, b: Quat) -> Vec3 {
    let d = a.conjugate() * b;
    let (v, w) = if d.w < 0.0 { (-d.xyz(), -d.w) } else { (d.xyz(), d.w) };
    let s = v.length();
    if s.is_nan() || s <= 1e-12 || !w.is_finite() {
        return Vec3::ZERO;
    }
    // Half the angle: atan2(s, w) with w ≥ 0, folded into [0, 1] for the polynomial.
    let half = if s <= w { atan_unit(s / w) } else { std::f32::consts::FRAC_PI_2 - atan_unit(w / s) };
    v * (2.0 * half * (180.0 / std::f32::consts::PI) / s)
}

/// Cuts each series into chunks of [`CHUNK`] frames: `[chunk][series]`, for filling in parallel.
fn by_chunk(series: &mut [Vec<Vec3>], chunks: usize) -> Vec<Vec<&mut [Vec3]>> {
    let mut out: Vec<Vec<&mut [Vec3]>> = (0..chunks).map(|_| Vec::with_capacity(series.len())).collect();
    for s in series.iter_mut() {
        for (c, piece) in s.chunks_mut(CHUNK).enumerate() {
            out[c].push(piece);
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
        let series = |count: usize| -> Vec<Vec<Vec3>> { (0..count).map(|_| vec![Vec3::ZERO; n]).collect() };
        let (mut positions, mut rot_steps, mut trans_steps) = (series(nj), series(rot_joints.len()), series(trans_joints.len()));
        let chunks = n.div_ceil(CHUNK);
        let done = AtomicUsize::new(0);
        let poser = FramePoser::new(m);
        by_chunk(&mut positions, chunks)
            .into_par_iter()
            .zip(by_chunk(&mut rot_steps, chunks))
            .zip(by_chunk(&mut trans_steps, chunks))
            .enumerate()
            .for_each(|(c, ((mut pos, mut rot), mut trans))| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                // Frames in order: the poser poses each group of eight once.
                let mut poser = poser.clone();
                let (mut now, mut prev) = (FramePose::default(), FramePose::default());
                if start > 0 {
                    prev.clone_from(poser.pose(m, start - 1));
                }
                for f in start..end {
                    let i = f - start;
                    now.clone_from(poser.pose(m, f));
                    for (out, &p) in pos.iter_mut().zip(&now.world_position) {
                        out[i] = display.transform_point3(p);
                    }
                    if f > 0 {
                        for (out, &j) in rot.iter_mut().zip(&rot_joints) {
                            out[i] = rotation_step(prev.local_rotation[j], now.local_rotation[j]);
                        }
                        for (out, &j) in trans.iter_mut().zip(&trans_joints) {
                            out[i] = (now.local_translation[j] - prev.local_translation[j]) * metres;
                        }
                    }
                    std::mem::swap(&mut now, &mut prev);
                }
                let finished = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                progress(finished as f32 / n.max(1) as f32);
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_steps_match_the_exact_angle() {
        for k in 0..2000 {
            let angle = k as f32 * 0.0016 - 0.1; // −6° to 177°
            let axis = Vec3::new((k as f32).sin(), 0.5, (k as f32 * 0.7).cos()).normalize();
            let a = Quat::from_rotation_y(k as f32 * 0.01) * Quat::from_rotation_x(0.3);
            let b = a * Quat::from_axis_angle(axis, angle);
            let step = rotation_step(a, if k % 2 == 0 { b } else { -b });
            let want = axis * angle.to_degrees();
            assert!((step - want).length() < 2e-3, "{angle}: {step} vs {want}");
        }
        assert_eq!(rotation_step(Quat::IDENTITY, Quat::IDENTITY), Vec3::ZERO);
    }
}
