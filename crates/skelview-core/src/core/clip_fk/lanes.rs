//! [`ClipFk`] eight frames at a time: each joint's quaternions and vectors held as one array
//! per component with a frame in each lane, so every step is the same arithmetic on eight
//! numbers, which the compiler turns into vector instructions (AVX2 where the processor has
//! it). Posing one frame at a time leaves the vector units nearly idle: a quaternion product
//! is a dozen dependent shuffles and multiplies on four numbers.

// A lane loop indexes several arrays by the lane: that is the shape that vectorises.
#![allow(clippy::needless_range_loop)]

use glam::{Quat, Vec3};

use super::{ClipFk, JointPlan};
use crate::core::half_angles::half_sin_cos;
use crate::core::skeleton::{PositionRule, stretched_tail, unit_quaternion};

/// Frames posed together.
pub const LANES: usize = 8;

/// One number per frame of a group.
pub type Lanes = [f32; LANES];

/// A group's poses: per joint, each component of its rotations and vectors, lane k for the
/// group's frame k. The same quantities as [`super::FramePose`].
#[derive(Clone, Debug, Default)]
pub struct LanePose {
    /// `parent_from_joint` rotation (x, y, z, w).
    pub local_rotation: Vec<[Lanes; 4]>,
    /// `parent_from_joint` translation (file units).
    pub local_translation: Vec<[Lanes; 3]>,
    /// `world_from_joint` rotation (file axes): the chain of local rotations.
    pub world_rotation: Vec<[Lanes; 4]>,
    /// Joint origin in file space.
    pub world_position: Vec<[Lanes; 3]>,
}

impl LanePose {
    /// Lane `k` as a one-frame pose.
    pub fn lane_into(&self, k: usize, out: &mut super::FramePose) {
        let quat = |q: &[Lanes; 4]| Quat::from_xyzw(q[0][k], q[1][k], q[2][k], q[3][k]);
        let vec = |v: &[Lanes; 3]| Vec3::new(v[0][k], v[1][k], v[2][k]);
        out.local_rotation.clear();
        out.local_rotation.extend(self.local_rotation.iter().map(quat));
        out.local_translation.clear();
        out.local_translation.extend(self.local_translation.iter().map(vec));
        out.world_rotation.clear();
        out.world_rotation.extend(self.world_rotation.iter().map(quat));
        out.world_position.clear();
        out.world_position.extend(self.world_position.iter().map(vec));
    }
}

impl ClipFk {
    /// True when [`ClipFk::pose_lanes`] can pose this skeleton: none of its joints scales
    /// (those take the matrix path, a frame at a time).
    pub fn poses_lanes(&self) -> bool {
        !self.scales
    }

    /// Poses [`LANES`] clip rows at once (`rows[k]` holds every channel of lane k's frame;
    /// a group of fewer frames repeats one). Gives [`ClipFk::pose_frame`]'s pose of each, to
    /// rounding. Only for skeletons that [`ClipFk::poses_lanes`].
    pub fn pose_lanes(&mut self, rows: [&[f32]; LANES], out: &mut LanePose) {
        debug_assert!(self.poses_lanes());
        let n = rows[0].len();
        // Channel-major, a lane per frame: each channel's eight values side by side.
        self.lane_values.resize(n * LANES, 0.0);
        // Rows cut to one length, so that reading column c of each needs no bounds check.
        let rows = rows.map(|row| &row[..n.min(row.len())]);
        for (c, lanes) in self.lane_values.chunks_exact_mut(LANES).enumerate() {
            for (slot, row) in lanes.iter_mut().zip(&rows) {
                *slot = row.get(c).copied().unwrap_or(0.0);
            }
        }
        if self.has_euler {
            half_sin_cos(&self.lane_values, &mut self.half_sin, &mut self.half_cos);
        }
        let joints = self.plans.len();
        out.local_rotation.resize(joints, [[0.0; LANES]; 4]);
        out.local_translation.resize(joints, [[0.0; LANES]; 3]);
        out.world_rotation.resize(joints, [[0.0; LANES]; 4]);
        out.world_position.resize(joints, [[0.0; LANES]; 3]);
        let inputs = Inputs { values: &self.lane_values, sin: &self.half_sin, cos: &self.half_cos, rule: self.rule };
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { pose_avx2(&self.plans, &inputs, out) };
        }
        pose(&self.plans, &inputs, out);
    }
}

/// A group's channel values and their half-angle sines and cosines, channel-major.
struct Inputs<'a> {
    values: &'a [f32],
    sin: &'a [f32],
    cos: &'a [f32],
    rule: PositionRule,
}

impl Inputs<'_> {
    /// Column `col`'s eight values of `of` (values, sines or cosines).
    #[inline(always)]
    fn lanes(of: &[f32], col: usize) -> &Lanes {
        of[col * LANES..col * LANES + LANES].try_into().expect("a lane group")
    }
}

/// [`pose`] compiled for AVX2: eight lanes in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pose_avx2(plans: &[JointPlan], inputs: &Inputs, out: &mut LanePose) {
    pose(plans, inputs, out);
}

/// Every joint of the group, parents first.
#[inline(always)]
fn pose(plans: &[JointPlan], inputs: &Inputs, out: &mut LanePose) {
    for (j, plan) in plans.iter().enumerate() {
        let rotation = local_rotation(plan, inputs);
        let mut translation = [plan.offset.x, plan.offset.y, plan.offset.z].map(|v| [v; LANES]);
        for &(axis, col) in &plan.translate {
            let v = Inputs::lanes(inputs.values, col);
            let t = &mut translation[axis as usize];
            match inputs.rule {
                PositionRule::Replace => *t = *v,
                PositionRule::Add => (0..LANES).for_each(|k| t[k] += v[k]),
            }
        }
        if !plan.length.is_empty() {
            for k in 0..LANES {
                let stretch = plan.length.iter().map(|&c| inputs.values[c * LANES + k]).sum();
                let q = Quat::from_xyzw(rotation[0][k], rotation[1][k], rotation[2][k], rotation[3][k]);
                let tail = q * stretched_tail(plan.tail, stretch);
                (0..3).for_each(|a| translation[a][k] += tail[a]);
            }
        } else if plan.tail != Vec3::ZERO {
            let tail = rotate(&rotation, &[plan.tail.x, plan.tail.y, plan.tail.z].map(|v| [v; LANES]));
            (0..3).for_each(|a| (0..LANES).for_each(|k| translation[a][k] += tail[a][k]));
        }
        let (world_rotation, world_position) = match plan.parent {
            Some(p) => {
                let (parent_rotation, parent_position) = (&out.world_rotation[p], &out.world_position[p]);
                let moved = rotate(parent_rotation, &translation);
                (
                    multiply(parent_rotation, &rotation),
                    std::array::from_fn(|a| std::array::from_fn(|k| parent_position[a][k] + moved[a][k])),
                )
            }
            None => (rotation, translation),
        };
        out.local_rotation[j] = rotation;
        out.local_translation[j] = translation;
        out.world_rotation[j] = world_rotation;
        out.world_position[j] = world_position;
    }
}

/// A joint's `parent_from_joint` rotation in each lane.
#[inline(always)]
fn local_rotation(plan: &JointPlan, inputs: &Inputs) -> [Lanes; 4] {
    let mut r = [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]];
    if let Some(cols) = plan.quat {
        // Stored quaternions (glTF, FBX): normalised one lane at a time, as the frame path does.
        for k in 0..LANES {
            let identity = [0.0, 0.0, 0.0, 1.0];
            let xyzw = std::array::from_fn(|i| {
                cols[i].checked_mul(LANES).and_then(|at| inputs.values.get(at + k)).copied().unwrap_or(identity[i])
            });
            let q = unit_quaternion(xyzw);
            (r[0][k], r[1][k], r[2][k], r[3][k]) = (q.x, q.y, q.z, q.w);
        }
    } else {
        for (i, &(axis, col)) in plan.euler[..plan.euler_len].iter().chain(&plan.extra_euler).enumerate() {
            let (s, c) = (Inputs::lanes(inputs.sin, col), Inputs::lanes(inputs.cos, col));
            if i == 0 {
                r = [[0.0; LANES], [0.0; LANES], [0.0; LANES], *c];
                r[axis as usize] = *s;
            } else {
                r = times_axis(&r, axis, s, c);
            }
        }
    }
    if let Some(pre) = plan.pre {
        r = multiply(&[pre.x, pre.y, pre.z, pre.w].map(|v| [v; LANES]), &r);
    }
    if let Some(post) = plan.post {
        r = multiply(&r, &[post.x, post.y, post.z, post.w].map(|v| [v; LANES]));
    }
    r
}

/// `a * (rotation about `axis` by the angle whose half has sine `s` and cosine `c`)`: the
/// quaternion product with the other factor's zero components left out.
#[inline(always)]
fn times_axis(a: &[Lanes; 4], axis: u8, s: &Lanes, c: &Lanes) -> [Lanes; 4] {
    let [x, y, z, w] = a;
    let mut out = [[0.0; LANES]; 4];
    // One loop per axis (not a choice per lane), so that each is straight vector code.
    let mut each = |q: &dyn Fn(usize) -> [f32; 4]| {
        for k in 0..LANES {
            let v = q(k);
            (0..4).for_each(|i| out[i][k] = v[i]);
        }
    };
    match axis {
        0 => each(&|k| [w[k] * s[k] + x[k] * c[k], y[k] * c[k] + z[k] * s[k], z[k] * c[k] - y[k] * s[k], w[k] * c[k] - x[k] * s[k]]),
        1 => each(&|k| [x[k] * c[k] - z[k] * s[k], w[k] * s[k] + y[k] * c[k], z[k] * c[k] + x[k] * s[k], w[k] * c[k] - y[k] * s[k]]),
        _ => each(&|k| [x[k] * c[k] + y[k] * s[k], y[k] * c[k] - x[k] * s[k], w[k] * s[k] + z[k] * c[k], w[k] * c[k] - z[k] * s[k]]),
    }
    out
}

/// The quaternion product `a * b` in each lane.
#[inline(always)]
pub(crate) fn multiply(a: &[Lanes; 4], b: &[Lanes; 4]) -> [Lanes; 4] {
    let ([x0, y0, z0, w0], [x1, y1, z1, w1]) = (a, b);
    let mut out = [[0.0; LANES]; 4];
    for k in 0..LANES {
        out[0][k] = w0[k] * x1[k] + x0[k] * w1[k] + y0[k] * z1[k] - z0[k] * y1[k];
        out[1][k] = w0[k] * y1[k] - x0[k] * z1[k] + y0[k] * w1[k] + z0[k] * x1[k];
        out[2][k] = w0[k] * z1[k] + x0[k] * y1[k] - y0[k] * x1[k] + z0[k] * w1[k];
        out[3][k] = w0[k] * w1[k] - x0[k] * x1[k] - y0[k] * y1[k] - z0[k] * z1[k];
    }
    out
}

/// The unit quaternion `q` applied to the vector `v` in each lane.
#[inline(always)]
fn rotate(q: &[Lanes; 4], v: &[Lanes; 3]) -> [Lanes; 3] {
    let ([x, y, z, w], [vx, vy, vz]) = (q, v);
    let mut out = [[0.0; LANES]; 3];
    for k in 0..LANES {
        // v (w² − |b|²) + 2 b (v·b) + 2 w (b × v), with b the vector part (as glam does).
        let (bx, by, bz, w) = (x[k], y[k], z[k], w[k]);
        let (vx, vy, vz) = (vx[k], vy[k], vz[k]);
        let scale = w * w - (bx * bx + by * by + bz * bz);
        let dot2 = (vx * bx + vy * by + vz * bz) * 2.0;
        let w2 = w * 2.0;
        out[0][k] = vx * scale + bx * dot2 + (by * vz - bz * vy) * w2;
        out[1][k] = vy * scale + by * dot2 + (bz * vx - bx * vz) * w2;
        out[2][k] = vz * scale + bz * dot2 + (bx * vy - by * vx) * w2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::FramePose;
    use super::super::tests::skeletons;
    use super::*;
    use crate::core::Clip;
    use crate::core::pose::{self, GlobalPose, LocalPose};

    /// Eight different rows in one group: each lane gives the viewer's pose of its own row.
    #[test]
    fn lanes_match_the_viewer_pose() {
        for (skeleton, channels) in skeletons() {
            let mut fk = ClipFk::new(&skeleton);
            if !fk.poses_lanes() {
                // Scaling skeletons take the frame path.
                assert!(skeleton.joints().iter().any(|j| j.channels.iter().any(|c| c.is_scale())));
                continue;
            }
            let rows: Vec<Vec<f32>> =
                (0..LANES).map(|f| (0..channels).map(|c| ((f * 7 + c * 13) % 17) as f32 * 0.37 - 2.5).collect()).collect();
            let mut lanes = LanePose::default();
            fk.pose_lanes(std::array::from_fn(|k| &rows[k][..]), &mut lanes);
            let (mut local, mut global, mut got) = (LocalPose::default(), GlobalPose::default(), FramePose::default());
            for (k, row) in rows.iter().enumerate() {
                pose::frame_pose(&skeleton, &Clip::new(1.0, channels, 1, row.clone()), 0, &mut local);
                pose::global_pose(&skeleton, &local, &mut global);
                lanes.lane_into(k, &mut got);
                let mut chain = vec![Quat::IDENTITY; skeleton.len()];
                for (j, joint) in skeleton.joints().iter().enumerate() {
                    let want = &local.parent_from_joint[j];
                    chain[j] = joint.parent.map_or(Quat::IDENTITY, |p| chain[p]) * want.rotation;
                    assert!((global.position(j) - got.world_position[j]).length() < 1e-4, "lane {k} joint {j}");
                    assert!((want.translation - got.local_translation[j]).length() < 1e-4, "lane {k} joint {j}");
                    assert!(want.rotation.dot(got.local_rotation[j]).abs() > 1.0 - 1e-5, "lane {k} joint {j}");
                    assert!(chain[j].dot(got.world_rotation[j]).abs() > 1.0 - 1e-5, "lane {k} joint {j}");
                }
            }
        }
    }
}
