//! Any loaded motion as BVH: rotations in a chosen Euler order, positions on the root, and on
//! any other joint whose offset from its parent changes over the clip (ASF bones hang their
//! far end off their own rotation, so that offset moves; BVH can only say so with position
//! channels). Loading the output (with the default "replace" rule) gives the same global
//! positions.

use std::io::Write;

use glam::{EulerRot, Quat, Vec3};

use crate::core::pose::{GlobalPose, LocalPose, LocalTransform};
use crate::core::rotation_channels::nearest_triple;
use crate::core::{Interpolation, PoseAt, Sampler};
use crate::core::{Joint, Motion, Skeleton};

/// Choices for the written file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BvhWriteOptions {
    /// Rotation channel order, first listed outermost (`ZXY`: R = Rz·Rx·Ry).
    pub order: [char; 3],
}

impl Default for BvhWriteOptions {
    fn default() -> Self {
        Self { order: ['Z', 'X', 'Y'] }
    }
}

impl BvhWriteOptions {
    /// The options that keep `m`'s rotation order when every joint with three rotation
    /// channels shares one (an edited BVH keeps its channels); ZXY otherwise.
    pub fn keeping(m: &Motion) -> Self {
        let mut orders = m.skeleton.joints().iter().filter(|j| j.channels.iter().filter(|c| c.is_rotation()).count() == 3).map(|j| {
            let o = j.rotation_order();
            if j.euler == crate::core::EulerConvention::LastOutermost { o.chars().rev().collect() } else { o }
        });
        let shared = orders.next().filter(|first| orders.all(|o| o == *first));
        Self { order: shared.and_then(|o| Self::parse_order(&o)).unwrap_or(Self::default().order) }
    }

    /// Parses an order such as `ZXY` (any permutation of X, Y, Z).
    pub fn parse_order(s: &str) -> Option<[char; 3]> {
        let c: Vec<char> = s.to_ascii_uppercase().chars().collect();
        let mut sorted = c.clone();
        sorted.sort();
        (sorted == ['X', 'Y', 'Z']).then(|| [c[0], c[1], c[2]])
    }

    fn euler(&self) -> EulerRot {
        match self.order {
            ['X', 'Y', 'Z'] => EulerRot::XYZ,
            ['X', 'Z', 'Y'] => EulerRot::XZY,
            ['Y', 'X', 'Z'] => EulerRot::YXZ,
            ['Y', 'Z', 'X'] => EulerRot::YZX,
            ['Z', 'Y', 'X'] => EulerRot::ZYX,
            _ => EulerRot::ZXY,
        }
    }
}

/// Local pose of every frame (the rest pose once for a clip without frames).
fn frames(motion: &Motion) -> Vec<LocalPose> {
    let n = motion.clip.num_frames();
    let scaled = motion.skeleton.joints().iter().any(|j| j.channels.iter().any(|c| c.is_scale()));
    let mut out = Vec::with_capacity(n.max(1));
    let mut sampler = Sampler::default();
    for f in 0..n.max(1) {
        sampler.pose(&motion.skeleton, &motion.clip, PoseAt::Frame(f), Interpolation::Nearest);
        out.push(if scaled { rigid_locals(&motion.skeleton, &sampler.global) } else { sampler.local.clone() });
    }
    out
}

/// BVH has no scale: re-expresses a scaled pose with rotations and translations only, keeping
/// every joint's global position. Each joint's frame is its global matrix made orthonormal
/// (the parent's when scale collapsed it), and its offset is measured in that rigid frame.
fn rigid_locals(skeleton: &Skeleton, global: &GlobalPose) -> LocalPose {
    let mut rotations: Vec<Quat> = Vec::with_capacity(skeleton.len());
    let mut local = LocalPose::default();
    for (i, j) in skeleton.joints().iter().enumerate() {
        let m = global.world_from_joint[i].matrix3;
        let (x, y) = (Vec3::from(m.x_axis), Vec3::from(m.y_axis));
        let parent_rotation = j.parent.map_or(Quat::IDENTITY, |p| rotations[p]);
        let rotation = match (x.try_normalize(), y.try_normalize()) {
            (Some(x), Some(y)) => match x.cross(y).try_normalize() {
                // A mirrored frame (negative scale) gets the right-handed frame sharing its X and
                // Y directions; positions stay exact because offsets come from global positions.
                Some(z) => Quat::from_mat3(&glam::Mat3::from_cols(x, z.cross(x), z)).normalize(),
                None => parent_rotation,
            },
            _ => parent_rotation,
        };
        rotations.push(rotation);
        let position = global.position(i);
        let (parent_position, parent_rotation) = match j.parent {
            Some(p) => (global.position(p), rotations[p]),
            None => (Vec3::ZERO, Quat::IDENTITY),
        };
        local.parent_from_joint.push(LocalTransform {
            translation: parent_rotation.inverse() * (position - parent_position),
            rotation: parent_rotation.inverse() * rotation,
            scale: Vec3::ONE,
        });
    }
    local
}

fn moving_offsets(skeleton: &Skeleton, poses: &[LocalPose]) -> Vec<bool> {
    (0..skeleton.len())
        .map(|i| {
            let first = poses[0].parent_from_joint[i].translation;
            let tolerance = 1e-6 * first.length().max(1.0);
            skeleton.joints()[i].parent.is_none()
                || poses.iter().any(|p| (p.parent_from_joint[i].translation - first).abs().max_element() > tolerance)
        })
        .collect()
}

/// `v` as BVH numbers; an error rather than `NaN` or `inf` in the file.
fn v3(v: Vec3) -> std::io::Result<String> {
    Ok(format!("{} {} {}", finite(v.x)?, finite(v.y)?, finite(v.z)?))
}

fn finite(v: f32) -> std::io::Result<f32> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a value is not a finite number ({v}): BVH has no way to say so, so nothing was written"),
        ))
    }
}

/// Writes `motion` as BVH text.
pub fn write_bvh(motion: &Motion, options: &BvhWriteOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let poses = frames(motion);
    let moving = moving_offsets(&motion.skeleton, &poses);
    writeln!(out, "HIERARCHY")?;
    let order = write_hierarchy(&motion.skeleton, options, &poses, &moving, out)?;
    writeln!(out, "MOTION\nFrames: {}\nFrame Time: {}", poses.len(), motion.clip.frame_time_secs)?;
    let euler = options.euler();
    let mut line = String::new();
    // Each joint's angles of the frame before: every frame's are the triple nearest them, so
    // that a turn past ±180° goes on (181°) instead of jumping a turn back (−179°), as an
    // unrolled motion asks and as players that interpolate Euler angles need.
    let mut last: Vec<Option<[f32; 3]>> = vec![None; motion.skeleton.len()];
    for pose in &poses {
        line.clear();
        for &i in &order {
            let local = pose.parent_from_joint[i];
            if moving[i] {
                line.push_str(&format!("{} ", v3(local.translation)?));
            }
            let [a, b, c] = continuous_euler(local.rotation.normalize(), euler, last[i]);
            last[i] = Some([a, b, c]);
            line.push_str(&format!("{} {} {} ", finite(a)?, finite(b)?, finite(c)?));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// `q`'s angles in degrees in `order`: of its two Euler triples, each angle moved by whole
/// turns towards `last`, the one nearest `last`; the principal triple without a `last`.
fn continuous_euler(q: Quat, order: EulerRot, last: Option<[f32; 3]>) -> [f32; 3] {
    let (a, b, c) = q.to_euler(order);
    let t = match last {
        Some(l) => nearest_triple([a, b, c], l.map(f32::to_radians)),
        None => [a, b, c],
    };
    t.map(f32::to_degrees)
}

/// How many ancestors joint `i` has.
fn depth(joints: &[Joint], i: usize) -> usize {
    let mut d = 0;
    let mut p = joints[i].parent;
    while let Some(q) = p {
        d += 1;
        p = joints[q].parent;
    }
    d
}

/// Writes the joint blocks (after `HIERARCHY`) depth first, iteratively (skeletons can be
/// deep), with the first pose's offsets; returns the joints that have channels, in row order.
fn write_hierarchy(
    skeleton: &Skeleton,
    options: &BvhWriteOptions,
    poses: &[LocalPose],
    moving: &[bool],
    out: &mut dyn Write,
) -> std::io::Result<Vec<usize>> {
    enum Step {
        Open(usize),
        Close(usize),
    }
    let joints = skeleton.joints();
    let rotation_names: Vec<String> = options.order.iter().map(|c| format!("{c}rotation")).collect();
    let children = skeleton.child_lists();
    let mut order = Vec::with_capacity(joints.len());
    let mut stack: Vec<Step> = skeleton.roots().collect::<Vec<_>>().into_iter().rev().map(Step::Open).collect();
    while let Some(step) = stack.pop() {
        match step {
            Step::Open(i) => {
                let j = &joints[i];
                let pad = "  ".repeat(depth(joints, i));
                let offset = poses[0].parent_from_joint[i].translation;
                // BVH end sites are nameless (readers call them `<parent>/EndSite`): only a parent's sole
                // end site can be one; others (H-Anim sites) stay named joints.
                let sole_end = j.parent.is_some_and(|p| children[p].iter().filter(|&&c| joints[c].is_end_site).count() == 1);
                if j.is_end_site && sole_end && children[i].is_empty() && !moving[i] {
                    writeln!(out, "{pad}End Site\n{pad}{{\n{pad}  OFFSET {}\n{pad}}}", v3(offset)?)?;
                    continue;
                }
                let keyword = if j.parent.is_none() { "ROOT" } else { "JOINT" };
                writeln!(out, "{pad}{keyword} {}\n{pad}{{\n{pad}  OFFSET {}", j.name.replace(['\n', '\r', '{', '}'], "_"), v3(offset)?)?;
                if moving[i] {
                    writeln!(out, "{pad}  CHANNELS 6 Xposition Yposition Zposition {}", rotation_names.join(" "))?;
                } else {
                    writeln!(out, "{pad}  CHANNELS 3 {}", rotation_names.join(" "))?;
                }
                order.push(i);
                stack.push(Step::Close(i));
                // A leaf with channels and no End Site (CMU and Meta files have them) stays so:
                // an End Site added here would be one more joint when the file is read back.
                stack.extend(children[i].iter().rev().map(|&c| Step::Open(c)));
            }
            Step::Close(i) => writeln!(out, "{}}}", "  ".repeat(depth(joints, i)))?,
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spin_past_half_a_turn_goes_on_and_both_triples_are_the_same_rotation() {
        let order = BvhWriteOptions::default().euler();
        let mut last = None;
        for step in 0..=72 {
            // Two turns about Y with a tilt: the principal angles jump at ±180°.
            let q = Quat::from_rotation_y((step as f32 * 10.0).to_radians()) * Quat::from_rotation_x(0.3);
            let t = continuous_euler(q, order, last);
            let back = Quat::from_euler(order, t[0].to_radians(), t[1].to_radians(), t[2].to_radians());
            assert!(back.dot(q).abs() > 1.0 - 1e-5, "step {step}: {t:?} is not the rotation");
            if let Some(l) = last {
                let jump = t.iter().zip(l).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
                assert!(jump < 15.0, "step {step}: {l:?} → {t:?}");
            }
            last = Some(t);
        }
        let y = last.unwrap()[2];
        assert!((y - 720.0).abs() < 1e-2, "two turns end at 720°, not {y}");
    }
}
