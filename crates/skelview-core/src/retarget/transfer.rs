//! Retargeting: a motion put on another skeleton, bone by bone through the two humanoid bone
//! maps. Rest poses are aligned by bone directions, not by raw local rotations (an A-pose
//! target takes a T-pose capture): each target bone first turns so that it points where the
//! source's bone points at rest (the hips by their up and across directions, so a target
//! facing another way turns too), then follows the source bone's rotation away from its rest.
//! Every bone then points where the source's points, frame by frame, whatever the two rest
//! poses, rolls or proportions. The hips' place is the source's scaled by the ratio of the leg
//! lengths; target joints the map does not name (twist bones, fingers the source lacks) keep
//! their rest rotation relative to their parent. Frame count and timing are the source's.
//! Everything is worked out in display space (metres, +Y up), so units and up axes may differ.

use glam::{Mat3, Mat4, Quat, Vec3};
use thiserror::Error;

use super::bone_map::{BONES, BoneMap};
use crate::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose, rest_pose};
use crate::core::rotation_channels::RotationChannels;
use crate::core::{ChannelKind, Clip, Motion, Skeleton};

/// Why a motion cannot be put on a skeleton.
#[derive(Debug, Error, PartialEq)]
pub enum RetargetError {
    /// One of the maps lacks bones a humanoid needs.
    #[error("the {which}'s humanoid bone map lacks {}: give them with a map file (info --save-map writes one to correct)", missing.join(", "))]
    Missing {
        /// `source` or `target`.
        which: &'static str,
        /// The bones.
        missing: Vec<&'static str>,
    },
    /// The source has no frames to put on the target.
    #[error("the source has no frames")]
    NoFrames,
    /// A target joint's rotation channels cannot take any rotation (one or two axes).
    #[error("the target's joint '{0}' has rotation channels skelview cannot write (not three Euler or four quaternion)")]
    Channels(String),
}

/// How the hips' travel is scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HipScale {
    /// By the ratio of the target's legs to the source's.
    Auto,
    /// By this factor.
    Factor(f32),
}

/// The mapped bone whose joint gives each bone's direction (its first mapped "child").
const TOWARDS: &[(&str, &[&str])] = &[
    ("spine", &["chest", "upperChest", "neck", "head"]),
    ("chest", &["upperChest", "neck", "head"]),
    ("upperChest", &["neck", "head"]),
    ("neck", &["head"]),
    ("leftUpperLeg", &["leftLowerLeg"]),
    ("leftLowerLeg", &["leftFoot"]),
    ("leftFoot", &["leftToes"]),
    ("rightUpperLeg", &["rightLowerLeg"]),
    ("rightLowerLeg", &["rightFoot"]),
    ("rightFoot", &["rightToes"]),
    ("leftShoulder", &["leftUpperArm"]),
    ("leftUpperArm", &["leftLowerArm"]),
    ("leftLowerArm", &["leftHand"]),
    ("leftHand", &["leftMiddleProximal", "leftIndexProximal"]),
    ("rightShoulder", &["rightUpperArm"]),
    ("rightUpperArm", &["rightLowerArm"]),
    ("rightLowerArm", &["rightHand"]),
    ("rightHand", &["rightMiddleProximal", "rightIndexProximal"]),
];

/// Rotation part of `display_from_file` (the axes; the scale is the unit).
fn axes(m: &Motion) -> Quat {
    let d = m.display_from_file();
    Quat::from_mat3(&Mat3::from_cols(d.x_axis.truncate().normalize(), d.y_axis.truncate().normalize(), d.z_axis.truncate().normalize()))
        .normalize()
}

/// One pose in display space: each joint's global rotation and position.
pub(super) struct Posed {
    pub(super) rot: Vec<Quat>,
    pub(super) pos: Vec<Vec3>,
}

fn posed(global: &GlobalPose, display: Mat4, a: Quat) -> Posed {
    let rot = global.world_from_joint.iter().map(|g| (a * rotation_of(g) * a.inverse()).normalize()).collect();
    let pos = (0..global.world_from_joint.len()).map(|j| display.transform_point3(global.position(j))).collect();
    Posed { rot, pos }
}

/// The rotation of a transform that may carry scale.
fn rotation_of(g: &glam::Affine3A) -> Quat {
    let (_, r, _) = g.to_scale_rotation_translation();
    r
}

pub(super) fn rest_posed(m: &Motion) -> Posed {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    rest_pose(&m.skeleton, &mut local);
    global_pose(&m.skeleton, &local, &mut global);
    posed(&global, m.display_from_file(), axes(m))
}

/// The mapped bone `bone` points towards (its next mapped bone down the chain).
pub(super) fn next_bone(map: &BoneMap, bone: &str) -> Option<&'static str> {
    let (_, next) = TOWARDS.iter().find(|(b, _)| *b == bone)?;
    next.iter().copied().find(|n| map.joint(n).is_some())
}

/// Each mapped bone's direction towards its next mapped bone, in `p`.
fn direction(map: &BoneMap, p: &Posed, bone: &str) -> Option<Vec3> {
    let j = map.joint(bone)?;
    let k = map.joint(next_bone(map, bone)?)?;
    (p.pos[k] - p.pos[j]).try_normalize()
}

/// The hips' frame from its up (towards the spine) and across (right to left upper leg).
pub(super) fn hips_frame(map: &BoneMap, p: &Posed) -> Option<Mat3> {
    let hips = map.joint("hips")?;
    let up = (p.pos[map.joint("spine")?] - p.pos[hips]).try_normalize()?;
    let across = p.pos[map.joint("leftUpperLeg")?] - p.pos[map.joint("rightUpperLeg")?];
    let across = (across - up * across.dot(up)).try_normalize()?;
    Some(Mat3::from_cols(across, up, across.cross(up)))
}

/// The length of the legs (upper leg to foot, both sides' mean), display metres.
fn leg_length(map: &BoneMap, p: &Posed) -> Option<f32> {
    let side = |s: &str| {
        let [a, b, c] = ["UpperLeg", "LowerLeg", "Foot"].map(|part| map.joint(&format!("{s}{part}")));
        Some(p.pos[a?].distance(p.pos[b?]) + p.pos[b?].distance(p.pos[c?]))
    };
    let v: Vec<f32> = [side("left"), side("right")].into_iter().flatten().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f32>() / v.len() as f32)
}

/// Joint `j`'s translation channels, when it has all three.
fn translation(s: &Skeleton, j: usize) -> Option<[usize; 3]> {
    crate::core::rotation_channels::translation_channels(&s.joints()[j])
}

/// The target's rest row: every channel at its rest value (rotations zero, scale one).
fn rest_row(s: &Skeleton) -> Vec<f32> {
    if let Some(r) = s.rest_values() {
        return r.to_vec();
    }
    let mut row = vec![0.0; s.channels_per_frame()];
    for j in s.joints() {
        for (i, c) in j.channels.iter().enumerate() {
            if matches!(c, ChannelKind::QuatW | ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ) {
                row[j.first_channel + i] = 1.0;
            }
        }
    }
    row
}

/// `source`'s motion on `target`'s skeleton (its rest pose, offsets and units), through the
/// two bone maps; `keep_going(fraction)` false stops (`None`).
pub fn retarget(
    source: &Motion,
    source_map: &BoneMap,
    target: &Motion,
    target_map: &BoneMap,
    hips: HipScale,
    keep_going: &dyn Fn(f32) -> bool,
) -> Result<Option<Motion>, RetargetError> {
    for (which, map) in [("source", source_map), ("target", target_map)] {
        let missing: Vec<&'static str> =
            ["hips", "spine", "leftUpperLeg", "rightUpperLeg"].into_iter().filter(|b| map.joint(b).is_none()).collect();
        if !missing.is_empty() {
            return Err(RetargetError::Missing { which, missing });
        }
    }
    let frames = source.clip.num_frames();
    if frames == 0 {
        return Err(RetargetError::NoFrames);
    }
    let ts = &target.skeleton;
    let channels: Vec<Option<RotationChannels>> = ts.joints().iter().map(RotationChannels::of).collect();
    if let Some(j) = ts.joints().iter().zip(&channels).find(|(j, c)| c.is_none() && j.channels.iter().any(|k| k.is_rotation())) {
        return Err(RetargetError::Channels(j.0.name.clone()));
    }
    let (s_rest, t_rest) = (rest_posed(source), rest_posed(target));
    // The corrections that turn each target bone at rest to point as the source's at rest.
    let bones: Vec<(&'static str, usize, usize)> =
        BONES.iter().filter_map(|b| Some((*b, source_map.joint(b)?, target_map.joint(b)?))).collect();
    let hips_turn = match (hips_frame(source_map, &s_rest), hips_frame(target_map, &t_rest)) {
        (Some(fs), Some(ft)) => Quat::from_mat3(&(fs * ft.transpose())).normalize(),
        _ => Quat::IDENTITY,
    };
    let correction: Vec<Quat> = bones
        .iter()
        .map(|(b, _, _)| match (direction(source_map, &s_rest, b), direction(target_map, &t_rest, b)) {
            (Some(ds), Some(dt)) => Quat::from_rotation_arc((hips_turn * dt).normalize(), ds) * hips_turn,
            _ => hips_turn,
        })
        .collect();
    let scale = match hips {
        HipScale::Factor(k) => k,
        HipScale::Auto => match (leg_length(source_map, &s_rest), leg_length(target_map, &t_rest)) {
            (Some(ls), Some(lt)) if ls > 0.0 => lt / ls,
            _ => 1.0,
        },
    };
    let (ta, t_display) = (axes(target), target.display_from_file());
    let t_file_from_display = t_display.inverse();
    let (sa, s_display) = (axes(source), source.display_from_file());
    let rest_local: Vec<Quat> = (0..ts.len())
        .map(|j| match ts.joints()[j].parent {
            Some(p) => (t_rest.rot[p].inverse() * t_rest.rot[j]).normalize(),
            None => t_rest.rot[j],
        })
        .collect();
    let target_of: Vec<Option<usize>> = (0..ts.len()).map(|j| bones.iter().position(|(_, _, t)| *t == j)).collect();
    let hips_t = target_map.joint("hips").unwrap_or(0);
    let hips_s = source_map.joint("hips").unwrap_or(0);
    // The joint whose translation channels carry the hips' travel: the hips or an ancestor.
    let mover = std::iter::successors(Some(hips_t), |&j| ts.joints()[j].parent).find(|&j| translation(ts, j).is_some());
    let cpf = ts.channels_per_frame();
    let base = rest_row(ts);
    let mut values = Vec::with_capacity(frames * cpf);
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    for f in 0..frames {
        if f % 64 == 0 && !keep_going(f as f32 / frames as f32) {
            return Ok(None);
        }
        frame_pose(&source.skeleton, &source.clip, f, &mut local);
        global_pose(&source.skeleton, &local, &mut global);
        let s_now = posed(&global, s_display, sa);
        let mut rot = vec![Quat::IDENTITY; ts.len()];
        for j in 0..ts.len() {
            rot[j] = match target_of[j] {
                Some(k) => {
                    let (_, s, t) = bones[k];
                    let delta = s_now.rot[s] * s_rest.rot[s].inverse();
                    (delta * correction[k] * t_rest.rot[t]).normalize()
                }
                None => match ts.joints()[j].parent {
                    Some(p) => (rot[p] * rest_local[j]).normalize(),
                    None => rest_local[j],
                },
            };
        }
        let mut row = base.clone();
        let near = f.checked_sub(1).map(|p| values[p * cpf..(p + 1) * cpf].to_vec());
        for (j, joint) in ts.joints().iter().enumerate() {
            let Some(ch) = &channels[j] else { continue };
            let parent = joint.parent.map_or(Quat::IDENTITY, |p| rot[p]);
            let local_display = parent.inverse() * rot[j];
            let local_file = ta.inverse() * local_display * ta;
            let channel_rot = joint.pre_rotation.inverse() * local_file * joint.post_rotation.inverse();
            ch.write(&mut row, channel_rot.normalize(), near.as_deref());
        }
        if let Some(m) = mover {
            // Where the hips are with the rotations set and the rest translation; moved to the
            // source's hips place scaled, through the mover's parent's frame.
            let probe = Clip::new(1.0, cpf, 1, row.clone());
            frame_pose(ts, &probe, 0, &mut local);
            global_pose(ts, &local, &mut global);
            let now = t_display.transform_point3(global.position(hips_t));
            let want = s_now.pos[hips_s] * scale;
            let delta_file = t_file_from_display.transform_vector3(want - now);
            let parent = ts.joints()[m].parent.map_or(glam::Affine3A::IDENTITY, |p| global.world_from_joint[p]);
            let delta_local = parent.inverse().transform_vector3(delta_file);
            if let Some(t) = translation(ts, m) {
                for (i, d) in t.into_iter().zip(delta_local.to_array()) {
                    row[i] += d;
                }
            }
        }
        values.extend_from_slice(&row);
    }
    let mut out = target.clone();
    out.clip = Clip::new(source.clip.frame_time_secs, cpf, frames, values);
    out.capture = None;
    out.source.declared_frames = None;
    out.source.takes.clear();
    out.source.take = None;
    out.warnings.clear();
    Ok(Some(out))
}
