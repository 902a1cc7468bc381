//! One pass of forward kinematics over every frame, in parallel chunks: joint positions in
//! display space (metres, Y up) and each animated joint's frame-to-frame local change.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::par::*;
use glam::{Quat, Vec3};

use crate::core::Motion;
use crate::core::batch::{FramePose, FramePoser};
use crate::core::clip_fk::{LANES, LanePose, Lanes};

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

/// [`rotation_step`] of each lane of a group from the lane before it (the first from
/// `prev`), written over arrays so that it runs on vector lanes: the same arithmetic, its
/// branches as selects.
fn rotation_steps(prev: Quat, q: &[Lanes; 4]) -> [Vec3; LANES] {
    let before = |c: usize, p: f32| -> Lanes { std::array::from_fn(|k| if k == 0 { p } else { q[c][k - 1] }) };
    let (ax, ay, az, aw) = (before(0, prev.x), before(1, prev.y), before(2, prev.z), before(3, prev.w));
    let (bx, by, bz, bw) = (&q[0], &q[1], &q[2], &q[3]);
    let mut out = [[0f32; LANES]; 3];
    for k in 0..LANES {
        // conj(a) * b
        let (x, y, z, w) = (-ax[k], -ay[k], -az[k], aw[k]);
        let dx = w * bx[k] + x * bw[k] + y * bz[k] - z * by[k];
        let dy = w * by[k] - x * bz[k] + y * bw[k] + z * bx[k];
        let dz = w * bz[k] + x * by[k] - y * bx[k] + z * bw[k];
        let dw = w * bw[k] - x * bx[k] - y * by[k] - z * bz[k];
        let sign = if dw < 0.0 { -1.0 } else { 1.0 };
        let (vx, vy, vz, vw) = (dx * sign, dy * sign, dz * sign, dw * sign);
        let s = (vx * vx + vy * vy + vz * vz).sqrt();
        let (small, big) = if s <= vw { (s, vw) } else { (vw, s) };
        let t = atan_unit(small / big);
        let half = if s <= vw { t } else { std::f32::consts::FRAC_PI_2 - t };
        let scale = 2.0 * half * (180.0 / std::f32::consts::PI) / s;
        let zero = s.is_nan() || s <= 1e-12 || !vw.is_finite();
        let scale = if zero { 0.0 } else { scale };
        out[0][k] = vx * scale;
        out[1][k] = vy * scale;
        out[2][k] = vz * scale;
    }
    std::array::from_fn(|k| Vec3::new(out[0][k], out[1][k], out[2][k]))
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

/// One posed frame's joints, wherever the poser left them.
trait FrameView {
    fn position(&self, j: usize) -> Vec3;
    fn rotation(&self, j: usize) -> Quat;
    fn translation(&self, j: usize) -> Vec3;
}

impl FrameView for FramePose {
    fn position(&self, j: usize) -> Vec3 {
        self.world_position[j]
    }
    fn rotation(&self, j: usize) -> Quat {
        self.local_rotation[j]
    }
    fn translation(&self, j: usize) -> Vec3 {
        self.local_translation[j]
    }
}

/// Lane `.1` of a group of frames posed in vector lanes.
struct Lane<'a>(&'a LanePose, usize);

impl FrameView for Lane<'_> {
    fn position(&self, j: usize) -> Vec3 {
        let (v, k) = (&self.0.world_position[j], self.1);
        Vec3::new(v[0][k], v[1][k], v[2][k])
    }
    fn rotation(&self, j: usize) -> Quat {
        let (q, k) = (&self.0.local_rotation[j], self.1);
        Quat::from_xyzw(q[0][k], q[1][k], q[2][k], q[3][k])
    }
    fn translation(&self, j: usize) -> Vec3 {
        let (v, k) = (&self.0.local_translation[j], self.1);
        Vec3::new(v[0][k], v[1][k], v[2][k])
    }
}

/// Where one chunk's frames go, and the previous frame's local transforms for the steps.
struct Sink<'a, 'b> {
    start: usize,
    display: glam::Mat4,
    metres: f32,
    rot_joints: &'a [usize],
    trans_joints: &'a [usize],
    pos: Vec<&'b mut [Vec3]>,
    rot: Vec<&'b mut [Vec3]>,
    trans: Vec<&'b mut [Vec3]>,
    prev_rot: Vec<Quat>,
    prev_trans: Vec<Vec3>,
}

impl Sink<'_, '_> {
    /// Frame `f`: its positions and steps written when it is in the chunk (the frame before
    /// the chunk only gives the steps their start).
    #[inline(always)]
    fn frame(&mut self, f: usize, view: &impl FrameView) {
        if let Some(i) = f.checked_sub(self.start) {
            for (j, out) in self.pos.iter_mut().enumerate() {
                out[i] = self.display.transform_point3(view.position(j));
            }
            if f > 0 {
                for ((out, &j), prev) in self.rot.iter_mut().zip(self.rot_joints).zip(&self.prev_rot) {
                    out[i] = rotation_step(*prev, view.rotation(j));
                }
                for ((out, &j), prev) in self.trans.iter_mut().zip(self.trans_joints).zip(&self.prev_trans) {
                    out[i] = (view.translation(j) - *prev) * self.metres;
                }
            }
        }
        for (prev, &j) in self.prev_rot.iter_mut().zip(self.rot_joints) {
            *prev = view.rotation(j);
        }
        for (prev, &j) in self.prev_trans.iter_mut().zip(self.trans_joints) {
            *prev = view.translation(j);
        }
    }

    /// Frames `f..f + count` of the chunk from lanes `k..k + count` of a posed group, a joint
    /// at a time (each joint's series is written in one run, not one value per frame).
    #[inline(always)]
    fn group(&mut self, f: usize, lanes: &LanePose, k: usize, count: usize) {
        let i = f - self.start;
        for (j, out) in self.pos.iter_mut().enumerate() {
            let v = &lanes.world_position[j];
            for (slot, lane) in out[i..i + count].iter_mut().zip(k..) {
                *slot = self.display.transform_point3(Vec3::new(v[0][lane], v[1][lane], v[2][lane]));
            }
        }
        for ((out, &j), prev) in self.rot.iter_mut().zip(self.rot_joints).zip(&mut self.prev_rot) {
            let q = &lanes.local_rotation[j];
            if k == 0 && count == LANES {
                // A whole group: every lane's step at once, on vector lanes.
                let steps = rotation_steps(*prev, q);
                for (slot, step) in out[i..i + LANES].iter_mut().zip(steps) {
                    *slot = step;
                }
                if f == 0 {
                    out[0] = Vec3::ZERO;
                }
                *prev = Quat::from_xyzw(q[0][LANES - 1], q[1][LANES - 1], q[2][LANES - 1], q[3][LANES - 1]);
                continue;
            }
            for (g, lane) in (f..f + count).zip(k..) {
                let now = Quat::from_xyzw(q[0][lane], q[1][lane], q[2][lane], q[3][lane]);
                if g > 0 {
                    out[g - self.start] = rotation_step(*prev, now);
                }
                *prev = now;
            }
        }
        for ((out, &j), prev) in self.trans.iter_mut().zip(self.trans_joints).zip(&mut self.prev_trans) {
            let v = &lanes.local_translation[j];
            for (g, lane) in (f..f + count).zip(k..) {
                let now = Vec3::new(v[0][lane], v[1][lane], v[2][lane]);
                if g > 0 {
                    out[g - self.start] = (now - *prev) * self.metres;
                }
                *prev = now;
            }
        }
    }
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
            .for_each(|(c, ((pos, rot), trans))| {
                let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(n));
                let mut sink = Sink {
                    start,
                    display,
                    metres,
                    rot_joints: &rot_joints,
                    trans_joints: &trans_joints,
                    pos,
                    rot,
                    trans,
                    prev_rot: vec![Quat::IDENTITY; rot_joints.len()],
                    prev_trans: vec![Vec3::ZERO; trans_joints.len()],
                };
                // Frames in order: the poser poses each group of eight once, and each frame's
                // joints are read straight from its lane (no copy of the whole pose).
                let mut poser = poser.clone();
                let mut f = start.saturating_sub(1);
                while f < end {
                    let Some((lanes, k)) = poser.lanes_at(m, f) else {
                        sink.frame(f, poser.pose(m, f));
                        f += 1;
                        continue;
                    };
                    if f < start {
                        sink.frame(f, &Lane(lanes, k));
                        f += 1;
                        continue;
                    }
                    // The rest of the group, a joint at a time: each series written in a run.
                    let count = (LANES - k).min(end - f);
                    sink.group(f, lanes, k, count);
                    f += count;
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

    #[test]
    fn lane_steps_are_the_frame_steps() {
        let frames: Vec<Quat> = (0..=LANES * 40)
            .map(|k| {
                let axis = Vec3::new((k as f32 * 0.37).sin(), 0.4, (k as f32 * 0.11).cos()).normalize();
                // Large turns, a half turn, the sign flipped, and repeats (zero steps).
                let q = Quat::from_axis_angle(axis, (k / 2) as f32 * 0.23 - 3.0);
                if k % 3 == 0 { -q } else { q }
            })
            .collect();
        for g in 0..40 {
            let prev = frames[g * LANES];
            let group = &frames[g * LANES + 1..=(g + 1) * LANES];
            let lanes: [Lanes; 4] = std::array::from_fn(|c| std::array::from_fn(|k| group[k].to_array()[c]));
            let steps = rotation_steps(prev, &lanes);
            for k in 0..LANES {
                let a = if k == 0 { prev } else { group[k - 1] };
                let want = rotation_step(a, group[k]);
                assert!((steps[k] - want).length() <= 1e-3 * want.length().max(1.0), "{g}/{k}: {} vs {want}", steps[k]);
            }
        }
    }
}
