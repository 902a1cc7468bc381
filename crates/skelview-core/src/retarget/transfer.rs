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
use super::feet;
use crate::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose, joint_local, rest_pose};
use crate::core::rotation_channels::RotationChannels;
use crate::core::{ChannelKind, Clip, Motion, Skeleton};
use crate::par::*;

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
pub(super) const TOWARDS: &[(&str, &[&str])] = &[
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
pub(super) fn axes(m: &Motion) -> Quat {
    let d = m.display_from_file();
    Quat::from_mat3(&Mat3::from_cols(d.x_axis.truncate().normalize(), d.y_axis.truncate().normalize(), d.z_axis.truncate().normalize()))
        .normalize()
}

/// One pose in display space: each joint's global rotation and position.
pub(super) struct Posed {
    pub(super) rot: Vec<Quat>,
    pub(super) pos: Vec<Vec3>,
}

pub(super) fn posed(global: &GlobalPose, display: Mat4, a: Quat) -> Posed {
    let mut p = Posed { rot: Vec::new(), pos: Vec::new() };
    posed_into(global, display, a, &mut p);
    p
}

/// The source's frame `local` posed into `out` (reused frame after frame): through rotations
/// alone where no joint scales (a third of the cost of composing and taking apart affine
/// transforms), else through [`global_pose`].
fn source_posed(skeleton: &Skeleton, local: &LocalPose, display: Mat4, a: Quat, global: &mut GlobalPose, out: &mut Posed) {
    if local.parent_from_joint.iter().any(|l| l.scale != Vec3::ONE) {
        global_pose(skeleton, local, global);
        return posed_into(global, display, a, out);
    }
    out.rot.clear();
    out.pos.clear();
    for (joint, l) in skeleton.joints().iter().zip(&local.parent_from_joint) {
        let (rot, pos) = match joint.parent {
            Some(p) => (out.rot[p] * l.rotation, out.pos[p] + out.rot[p] * l.translation),
            None => (l.rotation, l.translation),
        };
        out.rot.push(rot);
        out.pos.push(pos);
    }
    let turn = a != Quat::IDENTITY;
    for (r, p) in out.rot.iter_mut().zip(&mut out.pos) {
        *r = if turn { a * *r * a.inverse() } else { *r }.normalize();
        *p = display.transform_point3(*p);
    }
}

/// [`posed`] into `out`'s buffers (reused frame after frame).
fn posed_into(global: &GlobalPose, display: Mat4, a: Quat, out: &mut Posed) {
    out.rot.clear();
    out.rot.extend(global.world_from_joint.iter().map(|g| (a * rotation_of(g) * a.inverse()).normalize()));
    out.pos.clear();
    out.pos.extend((0..global.world_from_joint.len()).map(|j| display.transform_point3(global.position(j))));
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

/// The bone `bone` points towards in both skeletons: the first of its next bones both maps
/// name, when it is some way from `bone` at rest in both (a bone of no length, CMU's Spine1
/// on top of its Neck, has no direction of its own).
pub(super) fn common_towards(bone: &str, a: (&BoneMap, &Posed), b: (&BoneMap, &Posed)) -> Option<&'static str> {
    let (_, next) = TOWARDS.iter().find(|(t, _)| *t == bone)?;
    let long = |(map, rest): (&BoneMap, &Posed), n: &str| match (map.joint(bone), map.joint(n)) {
        (Some(j), Some(k)) => rest.pos[j].distance(rest.pos[k]) > 1e-3,
        _ => false,
    };
    let n = next.iter().copied().find(|n| a.0.joint(n).is_some() && b.0.joint(n).is_some())?;
    (long(a, n) && long(b, n)).then_some(n)
}

/// The direction from `bone` to `towards`, in `p`.
fn direction(map: &BoneMap, p: &Posed, bone: &str, towards: &str) -> Option<Vec3> {
    (p.pos[map.joint(towards)?] - p.pos[map.joint(bone)?]).try_normalize()
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
pub(super) fn leg_length(map: &BoneMap, p: &Posed) -> Option<f32> {
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

/// The target's rest row: every channel at its rest value (rotations zero, scale one, and
/// positions that replace the offset at the offset: Bandai-Namco's and Perception Neuron's
/// BVH carry them on every joint).
fn rest_row(s: &Skeleton) -> Vec<f32> {
    if let Some(r) = s.rest_values() {
        return r.to_vec();
    }
    let replace = s.position_rule == crate::core::PositionRule::Replace;
    let mut row = vec![0.0; s.channels_per_frame()];
    for j in s.joints() {
        for (i, c) in j.channels.iter().enumerate() {
            row[j.first_channel + i] = match c {
                ChannelKind::QuatW | ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ => 1.0,
                ChannelKind::TranslateX if replace => j.offset.x,
                ChannelKind::TranslateY if replace => j.offset.y,
                ChannelKind::TranslateZ if replace => j.offset.z,
                _ => 0.0,
            };
        }
    }
    row
}

/// Frames posed together between two looks at the cancel flag.
const PIECE_FRAMES: usize = 1024;
/// Frames one task poses with one set of buffers.
const RUN_FRAMES: usize = 64;

/// How a motion is put on another skeleton.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetargetOptions {
    /// How the hips' travel is scaled.
    pub hips: HipScale,
    /// Keep the target's feet planted while the source's stand (two-bone leg IK).
    pub keep_feet: bool,
}

impl Default for RetargetOptions {
    fn default() -> Self {
        Self { hips: HipScale::Auto, keep_feet: false }
    }
}

/// What stays the same over the frames: the bone pairs, their rest corrections and the
/// target's rest shape.
pub(super) struct Transfer {
    /// `(bone, source joint, target joint)` for bones both maps name.
    bones: Vec<(&'static str, usize, usize)>,
    /// For each entry of `bones`: the source bone's rest undone, the turn that makes the
    /// target bone at rest point as the source's does at rest, and the target bone's rest, in
    /// one (a frame's rotation is the source bone's now times this).
    from_source: Vec<Quat>,
    /// For each entry of `bones` with a bone both point towards: the source's joint there, and
    /// the target bone's direction towards it in the bone's own frame.
    aim: Vec<Option<(usize, Vec3)>>,
    /// Each target joint's rest rotation relative to its parent (display space).
    rest_local: Vec<Quat>,
    /// Which entry of `bones` moves each target joint.
    target_of: Vec<Option<usize>>,
    /// Each target joint's rest offset from its parent, in the parent's rest frame (display).
    offset: Vec<Vec3>,
    parents: Vec<Option<usize>>,
    rest_pos: Vec<Vec3>,
    s_rest: Posed,
    t_rest: Posed,
}

impl Transfer {
    fn new(source: &Motion, source_map: &BoneMap, target: &Motion, target_map: &BoneMap) -> Self {
        let ts = &target.skeleton;
        let (s_rest, t_rest) = (rest_posed(source), rest_posed(target));
        let bones: Vec<(&'static str, usize, usize)> =
            BONES.iter().filter_map(|b| Some((*b, source_map.joint(b)?, target_map.joint(b)?))).collect();
        let hips_turn = match (hips_frame(source_map, &s_rest), hips_frame(target_map, &t_rest)) {
            (Some(fs), Some(ft)) => Quat::from_mat3(&(fs * ft.transpose())).normalize(),
            _ => Quat::IDENTITY,
        };
        let towards: Vec<Option<&'static str>> =
            bones.iter().map(|(b, _, _)| common_towards(b, (source_map, &s_rest), (target_map, &t_rest))).collect();
        let correction: Vec<Quat> = bones
            .iter()
            .zip(&towards)
            .map(|((b, _, _), n)| {
                let dirs = n.and_then(|n| Some((direction(source_map, &s_rest, b, n)?, direction(target_map, &t_rest, b, n)?)));
                match dirs {
                    Some((ds, dt)) => Quat::from_rotation_arc((hips_turn * dt).normalize(), ds) * hips_turn,
                    None => hips_turn,
                }
            })
            .collect();
        let aim = bones
            .iter()
            .zip(&towards)
            .map(|((b, _, t), n)| {
                let n = (*n)?;
                Some((source_map.joint(n)?, t_rest.rot[*t].inverse() * direction(target_map, &t_rest, b, n)?))
            })
            .collect();
        let parents: Vec<Option<usize>> = ts.joints().iter().map(|j| j.parent).collect();
        let rest_local = (0..ts.len())
            .map(|j| match parents[j] {
                Some(p) => (t_rest.rot[p].inverse() * t_rest.rot[j]).normalize(),
                None => t_rest.rot[j],
            })
            .collect();
        let offset =
            (0..ts.len()).map(|j| parents[j].map_or(Vec3::ZERO, |p| t_rest.rot[p].inverse() * (t_rest.pos[j] - t_rest.pos[p]))).collect();
        let target_of = (0..ts.len()).map(|j| bones.iter().position(|(_, _, t)| *t == j)).collect();
        let rest_pos = t_rest.pos.clone();
        let from_source =
            bones.iter().zip(&correction).map(|((_, s, t), c)| (s_rest.rot[*s].inverse() * *c * t_rest.rot[*t]).normalize()).collect();
        Self { bones, from_source, aim, rest_local, target_of, offset, parents, rest_pos, s_rest, t_rest }
    }

    /// Every target joint's display-space rotation for the source posed as `s_now`: mapped
    /// bones follow their source bone, the others their parent.
    fn rotations(&self, s_now: &Posed, rot: &mut [Quat]) {
        for (r, k) in rot.iter_mut().zip(&self.target_of) {
            if let Some(k) = *k {
                let (_, s, _) = self.bones[k];
                let turned = (s_now.rot[s] * self.from_source[k]).normalize();
                // Joints the target lacks between this bone and the next (CMU's Neck1, a
                // twist bone) bend the source's bone: point where its next bone really is.
                let swing = self.aim[k].and_then(|(next, local)| {
                    let want = (s_now.pos[next] - s_now.pos[s]).try_normalize()?;
                    Some(Quat::from_rotation_arc((turned * local).normalize(), want))
                });
                *r = swing.map_or(turned, |q| (q * turned).normalize());
            }
        }
        self.follow_parents(rot);
    }

    /// Unmapped joints (twist bones, fingers the source lacks) keep their rest turn from
    /// their parent.
    fn follow_parents(&self, rot: &mut [Quat]) {
        for j in 0..rot.len() {
            if self.target_of[j].is_none() {
                // Unit times unit: no normalising (a chain is a few joints deep, each frame fresh).
                rot[j] = match self.parents[j] {
                    Some(p) => rot[p] * self.rest_local[j],
                    None => self.rest_local[j],
                };
            }
        }
    }

    /// Display-space positions of the joints for rotations `rot` with the joint `hips` at
    /// `hips_at` (joints outside the hips' subtree stay where they rest).
    fn positions(&self, rot: &[Quat], hips: usize, hips_at: Vec3) -> Vec<Vec3> {
        let mut pos = self.rest_pos.clone();
        pos[hips] = hips_at;
        let mut below = vec![false; rot.len()];
        below[hips] = true;
        for j in hips + 1..rot.len() {
            if let Some(p) = self.parents[j].filter(|&p| below[p]) {
                below[j] = true;
                pos[j] = pos[p] + rot[p] * self.offset[j];
            }
        }
        pos
    }
}

impl feet::Rig for Transfer {
    fn joints(&self) -> usize {
        self.parents.len()
    }
    fn positions(&self, rot: &[Quat], hips: usize, hips_at: Vec3) -> Vec<Vec3> {
        Transfer::positions(self, rot, hips, hips_at)
    }
    fn follow_parents(&self, rot: &mut [Quat]) {
        Transfer::follow_parents(self, rot)
    }
}

/// `source`'s motion on `target`'s skeleton (its rest pose, offsets and units), through the
/// two bone maps; `keep_going(fraction)` false stops (`None`).
pub fn retarget(
    source: &Motion,
    source_map: &BoneMap,
    target: &Motion,
    target_map: &BoneMap,
    options: &RetargetOptions,
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
    let transfer = Transfer::new(source, source_map, target, target_map);
    let scale = match options.hips {
        HipScale::Factor(k) => k,
        HipScale::Auto => match (leg_length(source_map, &transfer.s_rest), leg_length(target_map, &transfer.t_rest)) {
            (Some(ls), Some(lt)) if ls > 0.0 => lt / ls,
            _ => 1.0,
        },
    };
    let hips_t = target_map.joint("hips").unwrap_or(0);
    let hips_s = source_map.joint("hips").unwrap_or(0);
    let (sa, s_display) = (axes(source), source.display_from_file());
    // First every frame's rotations and hips place, so that the feet can look ahead; frames
    // are independent here, so they are posed on every core, a piece at a time (progress and
    // cancel between pieces).
    let n = ts.len();
    let mut rots = Vec::with_capacity(frames * n);
    let mut hips_at = Vec::with_capacity(frames);
    let mut source_feet: [Vec<Vec3>; 2] = Default::default();
    let feet_s = ["leftFoot", "rightFoot"].map(|b| source_map.joint(b));
    let transfer_ref = &transfer;
    // A run of frames with its buffers made once (per frame, the allocations cost a fifth).
    let run = |frames: std::ops::Range<usize>| {
        let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
        let mut s_now = Posed { rot: Vec::new(), pos: Vec::new() };
        let mut rot = vec![Quat::IDENTITY; frames.len() * n];
        let mut hips = Vec::with_capacity(frames.len());
        let mut feet: [Vec<Vec3>; 2] = Default::default();
        for (k, f) in frames.enumerate() {
            frame_pose(&source.skeleton, &source.clip, f, &mut local);
            source_posed(&source.skeleton, &local, s_display, sa, &mut global, &mut s_now);
            transfer_ref.rotations(&s_now, &mut rot[k * n..(k + 1) * n]);
            hips.push(s_now.pos[hips_s] * scale);
            for (track, foot) in feet.iter_mut().zip(feet_s) {
                track.extend(foot.map(|j| s_now.pos[j]));
            }
        }
        (rot, hips, feet)
    };
    for start in (0..frames).step_by(PIECE_FRAMES) {
        if !keep_going(start as f32 / frames as f32) {
            return Ok(None);
        }
        let end = (start + PIECE_FRAMES).min(frames);
        let runs: Vec<usize> = (start..end).step_by(RUN_FRAMES).collect();
        let piece: Vec<_> = runs.into_par_iter().map(|s| run(s..(s + RUN_FRAMES).min(end))).collect();
        for (rot, hips, feet) in piece {
            rots.extend_from_slice(&rot);
            hips_at.extend(hips);
            for (track, at) in source_feet.iter_mut().zip(feet) {
                track.extend(at);
            }
        }
    }
    if options.keep_feet {
        let legs = ["left", "right"].map(|side| feet::Leg::of(target_map, ts, side));
        let leg_s = leg_length(source_map, &transfer.s_rest).unwrap_or(0.9);
        let dt = source.clip.frame_time_secs as f32;
        feet::plant(&transfer, &legs, &source_feet, leg_s, dt, hips_t, &hips_at, &mut rots);
    }
    let moving = transfer.target_of.iter().map(Option::is_some).collect();
    let values = channel_values(target, &channels, &rots, moving, hips_t, &hips_at);
    let mut out = target.clone();
    out.clip = Clip::new(source.clip.frame_time_secs, ts.channels_per_frame(), frames, values);
    out.capture = None;
    out.source.declared_frames = None;
    out.source.takes.clear();
    out.source.take = None;
    out.warnings.clear();
    Ok(Some(out))
}

/// Writes the target's channel rows from the display rotations of each frame.
struct Rows<'a> {
    target: &'a Skeleton,
    channels: &'a [Option<RotationChannels>],
    rots: &'a [Quat],
    hips_at: &'a [Vec3],
    /// The target's axes and display transform.
    ta: Quat,
    t_display: Mat4,
    /// The joint whose translation channels carry the hips' travel: the hips or an ancestor.
    mover: Option<usize>,
    /// The hips' ancestors, root first (only they place the hips), the hips last.
    chain: Vec<usize>,
    /// Whether each joint turns from its parent over the frames: the others (twist bones,
    /// fingers the source lacks) keep one rotation, written once into `base`.
    moving: Vec<bool>,
    base: Vec<f32>,
}

impl Rows<'_> {
    /// Joint `j`'s rotation in its own channels' terms for the frame's display rotations `rot`.
    fn channel_rotation(&self, rot: &[Quat], j: usize) -> Quat {
        let joint = &self.target.joints()[j];
        let local_display = joint.parent.map_or(rot[j], |p| rot[p].inverse() * rot[j]);
        // Most skeletons are Y-up with no pre- or post-rotations: those products skipped.
        let local_file = if self.ta == Quat::IDENTITY { local_display } else { self.ta.inverse() * local_display * self.ta };
        let pre = if joint.pre_rotation == Quat::IDENTITY { local_file } else { joint.pre_rotation.inverse() * local_file };
        let post = if joint.post_rotation == Quat::IDENTITY { pre } else { pre * joint.post_rotation.inverse() };
        post.normalize()
    }

    /// Frame `f`'s row into `row`; Euler angles nearest `near` (the previous frame's row).
    fn write(&self, f: usize, near: Option<&[f32]>, row: &mut [f32], worlds: &mut Vec<glam::Affine3A>) {
        let ts = self.target;
        let n = ts.len();
        let rot = &self.rots[f * n..(f + 1) * n];
        row.copy_from_slice(&self.base);
        for j in 0..ts.len() {
            let Some(ch) = &self.channels[j] else { continue };
            if self.moving[j] {
                ch.write(row, self.channel_rotation(rot, j), near);
            }
        }
        let Some(m) = self.mover else { return };
        // Where the hips are with the rotations set and the rest translation; moved to the
        // source's hips place scaled, through the mover's parent's frame.
        worlds.clear();
        for &j in &self.chain {
            let joint = &ts.joints()[j];
            let local = joint_local(joint, Some(&row[joint.first_channel..joint.first_channel + joint.channels.len()]), ts.position_rule);
            let world = worlds.last().map_or(local.to_affine(), |w| *w * local.to_affine());
            worlds.push(world);
        }
        let now = self.t_display.transform_point3(worlds.last().map_or(Vec3::ZERO, |w| w.translation.into()));
        let delta_file = self.t_display.inverse().transform_vector3(self.hips_at[f] - now);
        let at = self.chain.iter().position(|&j| j == m).unwrap_or(0);
        let parent = if at == 0 { glam::Affine3A::IDENTITY } else { worlds[at - 1] };
        let delta_local = parent.inverse().transform_vector3(delta_file);
        if let Some(t) = translation(ts, m) {
            for (i, d) in t.into_iter().zip(delta_local.to_array()) {
                row[i] += d;
            }
        }
    }

    /// The rows of `frames`, the first nearest `near`, each next nearest the one before.
    fn piece(&self, frames: std::ops::Range<usize>, near: Option<&[f32]>) -> Vec<f32> {
        let cpf = self.base.len();
        let mut out = vec![0.0; frames.len() * cpf];
        let mut worlds = Vec::with_capacity(self.chain.len());
        for (k, f) in frames.enumerate() {
            let (done, rest) = out.split_at_mut(k * cpf);
            let before = if k == 0 { near } else { Some(&done[(k - 1) * cpf..]) };
            self.write(f, before, &mut rest[..cpf], &mut worlds);
        }
        out
    }
}

/// Makes `piece` (rows of `cpf` channels) start with `first`, the row the frame-by-frame pass
/// gives there, by mapping each joint's channels as the pass would have: Euler angles by whole
/// turns and, where the pass is on the other branch (a+π, π−b, c+π), by that branch (the
/// nearest-triple choice commutes with both, so the rest of the piece follows); a quaternion
/// by its sign. False when some difference is none of these (the piece is then written again).
fn restitch(channels: &[Option<RotationChannels>], first: &[f32], piece: &mut [f32], cpf: usize) -> bool {
    use std::f32::consts::{PI, TAU};
    let turns = |d: f32| {
        let k = (d / TAU).round();
        ((d - k * TAU).abs() < 1e-3).then_some(k * TAU)
    };
    let mut maps: Vec<Box<dyn Fn(&mut [f32])>> = Vec::new();
    let mut covered = vec![false; cpf];
    for ch in channels.iter().flatten() {
        match *ch {
            RotationChannels::Euler { at, .. } => {
                let (want, got) = (at.map(|i| first[i]), at.map(|i| piece[i]));
                let branch = [got[0] + PI, PI - got[1], got[2] + PI];
                let same: Option<Vec<f32>> = (0..3).map(|k| turns(want[k] - got[k])).collect();
                let other: Option<Vec<f32>> = (0..3).map(|k| turns(want[k] - branch[k])).collect();
                match (same, other) {
                    (Some(t), _) => maps.push(Box::new(move |row: &mut [f32]| (0..3).for_each(|k| row[at[k]] += t[k]))),
                    (None, Some(t)) => maps.push(Box::new(move |row: &mut [f32]| {
                        let v = at.map(|i| row[i]);
                        let mapped = [v[0] + PI + t[0], PI - v[1] + t[1], v[2] + PI + t[2]];
                        (0..3).for_each(|k| row[at[k]] = mapped[k]);
                    })),
                    (None, None) => return false,
                }
                at.iter().for_each(|&i| covered[i] = true);
            }
            RotationChannels::Quaternion(at) => {
                let flip = at.iter().all(|&i| (first[i] + piece[i]).abs() < 1e-5) && at.iter().any(|&i| first[i] != piece[i]);
                if flip {
                    maps.push(Box::new(move |row: &mut [f32]| at.iter().for_each(|&i| row[i] = -row[i])));
                } else if at.iter().any(|&i| first[i] != piece[i]) {
                    return false;
                }
                at.iter().for_each(|&i| covered[i] = true);
            }
        }
    }
    // Translations and other channels come from the rotations: they must already agree.
    if (0..cpf).any(|i| !covered[i] && (first[i] - piece[i]).abs() > 1e-5) {
        return false;
    }
    for row in piece.chunks_exact_mut(cpf) {
        maps.iter().for_each(|m| m(row));
    }
    true
}

/// The target's channel rows for the rotations `rots` (a frame after another) with the hips
/// at `hips_at`: pieces of frames on every core, each piece's Euler angles nearest the frame
/// before it; a piece whose first frame would have come out otherwise after the piece before
/// (a wrap or the other Euler branch) is written again after it, so the rows are the ones a
/// frame-by-frame pass gives (a piece's first row mapped onto it where it can: [`restitch`]).
/// `moving`: which joints turn from their parent at all.
fn channel_values(
    target: &Motion,
    channels: &[Option<RotationChannels>],
    rots: &[Quat],
    moving: Vec<bool>,
    hips_t: usize,
    hips_at: &[Vec3],
) -> Vec<f32> {
    let ts = &target.skeleton;
    let mut chain: Vec<usize> = std::iter::successors(Some(hips_t), |&j| ts.joints()[j].parent).collect();
    chain.reverse();
    let mut rows = Rows {
        target: ts,
        channels,
        rots,
        hips_at,
        ta: axes(target),
        t_display: target.display_from_file(),
        mover: std::iter::successors(Some(hips_t), |&j| ts.joints()[j].parent).find(|&j| translation(ts, j).is_some()),
        chain,
        moving,
        base: rest_row(ts),
    };
    let n = ts.len();
    let mut base = std::mem::take(&mut rows.base);
    for j in (0..n).filter(|&j| !rows.moving[j]) {
        if let Some(ch) = &channels[j] {
            ch.write(&mut base, rows.channel_rotation(&rots[..n], j), None);
        }
    }
    rows.base = base;
    let (frames, cpf) = (hips_at.len(), rows.base.len());
    let starts: Vec<usize> = (0..frames).step_by(PIECE_FRAMES).collect();
    let pieces: Vec<Vec<f32>> = starts
        .par_iter()
        .map(|&start| {
            let end = (start + PIECE_FRAMES).min(frames);
            // Nearest the frame before, as it comes out alone: mostly what the pass gives.
            let before = start.checked_sub(1).map(|p| rows.piece(p..start, None));
            rows.piece(start..end, before.as_deref())
        })
        .collect();
    let mut values: Vec<f32> = Vec::with_capacity(frames * cpf);
    let mut first = vec![0.0; cpf];
    let mut worlds = Vec::new();
    for (mut piece, &start) in pieces.into_iter().zip(&starts) {
        let near = start.checked_sub(1).map(|p| values[p * cpf..(p + 1) * cpf].to_vec());
        if let Some(near) = &near {
            rows.write(start, Some(near), &mut first, &mut worlds);
            if first[..] != piece[..cpf] && !restitch(channels, &first, &mut piece, cpf) {
                // Not a joint's turns or its other Euler branch: written again after the piece before.
                piece = rows.piece(start..(start + PIECE_FRAMES).min(frames), Some(near));
            }
        }
        values.extend(piece);
    }
    values
}
