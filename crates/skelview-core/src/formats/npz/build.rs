//! Skeletons and clips from rest joints and poses: a joint per model joint, its rest offset
//! the rest joint minus its parent's, its rotation per frame a quaternion channel from the
//! axis-angle, the root's translation channel the rest root plus `trans` (SMPL rotates
//! about the rest root, so the pelvis sits at J₀ + trans).

use glam::{DQuat, DVec3, Vec3};

use super::layouts::{BodyMotion, JointMotion};
use crate::core::{ChannelKind, Clip, Joint, PositionRule, Skeleton};
use crate::par::*;

const QUATERNION: [ChannelKind; 4] = [ChannelKind::QuatX, ChannelKind::QuatY, ChannelKind::QuatZ, ChannelKind::QuatW];
const TRANSLATION: [ChannelKind; 3] = [ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ];

/// Rest joints that move from frame to frame (an SMPL-X face's expressions move the joints
/// regressed from it): each frame's shift of each joint's rest position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RestMotion {
    /// Frames × joints shifts (model space; zero for a joint that stays).
    pub shifts: Vec<DVec3>,
    /// Joints whose offset from their parent changes (they or their parent shift): they get
    /// a translation channel (the root has one anyway).
    pub moved: Vec<bool>,
}

impl RestMotion {
    /// Joint `j`'s rest shift at frame `f`.
    fn shift(&self, f: usize, j: usize) -> DVec3 {
        self.shifts.get(f * self.moved.len() + j).copied().unwrap_or(DVec3::ZERO)
    }

    fn moves(&self, j: usize) -> bool {
        self.moved.get(j) == Some(&true)
    }
}

/// The skeleton of `names` and `parents` at rest joint positions `rest`; joints whose rest
/// moves (`moving`) get translation channels.
pub fn body_skeleton(names: &[String], parents: &[Option<usize>], rest: &[DVec3], moving: Option<&RestMotion>) -> Skeleton {
    let mut joints = Vec::with_capacity(names.len());
    let mut rest_values = Vec::new();
    for (j, (name, parent)) in names.iter().zip(parents).enumerate() {
        let offset = rest[j] - parent.map_or(DVec3::ZERO, |p| rest[p]);
        let mut joint = Joint::new(name.clone(), *parent, offset.as_vec3());
        joint.humanoid = super::joints::humanoid(name);
        if parent.is_none() || moving.is_some_and(|m| m.moves(j)) {
            joint.channels.extend(TRANSLATION);
            rest_values.extend(offset.as_vec3().to_array());
        }
        joint.channels.extend(QUATERNION);
        rest_values.extend([0.0, 0.0, 0.0, 1.0]);
        joints.push(joint);
    }
    // Parents come first and the rest row has a value per channel, by construction.
    let skeleton = Skeleton::new(joints, PositionRule::Replace).unwrap_or_default();
    skeleton.clone().with_rest_values(rest_values).unwrap_or(skeleton)
}

/// The clip of `motion` on [`body_skeleton`]'s channels (the same `moving`), at `fps`.
pub fn body_clip(motion: &BodyMotion, parents: &[Option<usize>], rest: &[DVec3], moving: Option<&RestMotion>, fps: f64) -> Clip {
    let joints = parents.len();
    let still = RestMotion::default();
    let moving = moving.unwrap_or(&still);
    let translated = |j: usize| parents[j].is_none() || moving.moves(j);
    let per_frame = joints * 4 + (0..joints).filter(|&j| translated(j)).count() * 3;
    let mut values = vec![0f32; per_frame * motion.frames];
    if values.is_empty() {
        return Clip::new(1.0 / fps, per_frame, motion.frames, values);
    }
    // Frames on every core (a rotation vector's sine and cosine per joint and frame), then the
    // hemispheres made continuous in order.
    const PIECE: usize = 512;
    values.par_chunks_mut(per_frame * PIECE).enumerate().for_each(|(k, rows)| {
        for (i, row) in rows.chunks_exact_mut(per_frame).enumerate() {
            let f = k * PIECE + i;
            let pose = &motion.poses[f * joints * 3..(f + 1) * joints * 3];
            let mut at = 0;
            for (j, parent) in parents.iter().enumerate() {
                if translated(j) {
                    let here = rest[j] + moving.shift(f, j);
                    let from = match parent {
                        // SMPL rotates about the rest root: the pelvis sits at J₀ + trans.
                        None => -DVec3::from_slice(&motion.trans[f * 3..f * 3 + 3]),
                        Some(p) => rest[*p] + moving.shift(f, *p),
                    };
                    row[at..at + 3].copy_from_slice(&(here - from).as_vec3().to_array());
                    at += 3;
                }
                let q = DQuat::from_scaled_axis(DVec3::from_slice(&pose[j * 3..j * 3 + 3]));
                row[at..at + 4].copy_from_slice(&q.as_quat().to_array());
                at += 4;
            }
        }
    });
    // The same hemisphere as the last frame's (the first frame's as the identity's), so that
    // sampling between frames turns the short way.
    let starts = starts_of(joints, translated);
    for &q in &starts {
        if values[q + 3] < 0.0 {
            values[q..q + 4].iter_mut().for_each(|v| *v = -*v);
        }
    }
    for f in 1..motion.frames {
        let (before, now) = values.split_at_mut(f * per_frame);
        let last = &before[(f - 1) * per_frame..];
        for &q in &starts {
            let dot: f32 = (0..4).map(|i| last[q + i] * now[q + i]).sum();
            if dot < 0.0 {
                now[q..q + 4].iter_mut().for_each(|v| *v = -*v);
            }
        }
    }
    Clip::new(1.0 / fps, per_frame, motion.frames, values)
}

/// Where each joint's quaternion starts in a row of [`body_clip`] (a translation first where
/// the joint has one).
fn starts_of(joints: usize, translated: impl Fn(usize) -> bool) -> Vec<usize> {
    (0..joints)
        .scan(0, |at, j| {
            *at += if translated(j) { 7 } else { 4 };
            Some(*at - 4)
        })
        .collect()
}

/// A skeleton and clip of joint positions: every joint translated from its parent per frame
/// (no rotations), the first frame as the rest pose.
pub fn joints_skeleton_clip(motion: &JointMotion, names: &[String], parents: &[Option<usize>], fps: f64) -> (Skeleton, Clip) {
    let n = parents.len();
    let local = |f: usize, j: usize| -> Vec3 {
        let at = |k: usize| DVec3::from_slice(&motion.positions[(f * n + k) * 3..(f * n + k) * 3 + 3]);
        (at(j) - parents[j].map_or(DVec3::ZERO, at)).as_vec3()
    };
    let joints: Vec<Joint> = names
        .iter()
        .zip(parents)
        .enumerate()
        .map(|(j, (name, parent))| {
            let offset = if motion.frames > 0 { local(0, j) } else { Vec3::ZERO };
            let mut joint = Joint::new(name.clone(), *parent, offset);
            joint.humanoid = super::joints::humanoid(name);
            joint.channels.extend(TRANSLATION);
            joint
        })
        .collect();
    let mut values = Vec::with_capacity(motion.frames * n * 3);
    for f in 0..motion.frames {
        for j in 0..n {
            values.extend(local(f, j).to_array());
        }
    }
    let skeleton = Skeleton::new(joints, PositionRule::Replace).unwrap_or_default();
    (skeleton, Clip::new(1.0 / fps, n * 3, motion.frames, values))
}
