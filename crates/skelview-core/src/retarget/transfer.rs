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

use glam::{Mat3, Quat, Vec3};
use thiserror::Error;

use super::bone_map::{BONES, BoneMap};
use super::feet;
pub(super) use super::rows::axes;
use super::rows::{Follower, Frames, PIECE_FRAMES, Rows, Stored, channel_values};
use super::source::{Posed, SourcePoser, posed};
use crate::core::batch::FramePoser;
use crate::core::pose::{GlobalPose, LocalPose, global_pose, rest_pose};
use crate::core::rotation_channels::RotationChannels;
use crate::core::{Clip, Motion, Skeleton};
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
/// on top of its Neck, has no direction of its own; the next bone, mapped in both, moves
/// what lies beyond it).
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
    // Towards the first joint up the spine some way from the hips: a spine joint on top of
    // the hips (Godette's tummy, 50 nm away) gives no direction.
    let up = ["spine", "chest", "upperChest", "neck", "head"]
        .iter()
        .filter_map(|b| map.joint(b))
        .map(|j| p.pos[j] - p.pos[hips])
        .find(|d| d.length() > 1e-3)?
        .try_normalize()?;
    let across = p.pos[map.joint("leftUpperLeg")?] - p.pos[map.joint("rightUpperLeg")?];
    let across = (across - up * across.dot(up)).try_normalize()?;
    Some(Mat3::from_cols(across, up, across.cross(up)))
}

/// How high the legs hold the hips at rest: the hips' height above the feet (display up),
/// what the hips' travel is scaled by. On most rigs it is the legs' length; where the hips
/// joint sits away from the tops of the legs (VRM-Addon's debug robot hangs its legs from
/// 0.25 m above it) it is what keeps the feet on the ground. The legs' length where the feet
/// are missing or not below the hips.
pub(super) fn legs_height(map: &BoneMap, p: &Posed) -> Option<f32> {
    let hips = p.pos[map.joint("hips")?];
    let feet: Vec<f32> = ["leftFoot", "rightFoot"].iter().filter_map(|b| Some(p.pos[map.joint(b)?].y)).collect();
    let height = (!feet.is_empty()).then(|| hips.y - feet.iter().sum::<f32>() / feet.len() as f32);
    height.filter(|h| *h > 0.05).or_else(|| leg_length(map, p))
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
    /// Unmapped target joints some mapped joint hangs from (the others, fingers the source
    /// lacks, are turned only where the whole pose is needed: the feet's IK).
    carries: Vec<bool>,
    /// Source joints the transfer reads (mapped bones, the joints they aim at, their
    /// ancestors): only they are taken to display space.
    pub(super) source_needed: Vec<bool>,
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
        let proper = source.display_from_file().determinant() > 0.0;
        let aim: Vec<Option<(usize, Vec3)>> = bones
            .iter()
            .zip(&towards)
            .map(|((b, s, t), n)| {
                let next = source_map.joint((*n)?)?;
                // Where nothing between the two joints moves, the bone already points there.
                if proper && rigid_reach(&source.skeleton, *s, next) {
                    return None;
                }
                Some((next, t_rest.rot[*t].inverse() * direction(target_map, &t_rest, b, (*n)?)?))
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
        let target_of: Vec<Option<usize>> = (0..ts.len()).map(|j| bones.iter().position(|(_, _, t)| *t == j)).collect();
        let rest_pos = t_rest.pos.clone();
        let from_source =
            bones.iter().zip(&correction).map(|((_, s, t), c)| (s_rest.rot[*s].inverse() * *c * t_rest.rot[*t]).normalize()).collect();
        let mut carries = vec![false; ts.len()];
        for j in (0..ts.len()).rev() {
            if let (Some(p), true) = (parents[j], target_of[j].is_some() || carries[j]) {
                carries[p] = true;
            }
        }
        let source_parents: Vec<Option<usize>> = source.skeleton.joints().iter().map(|j| j.parent).collect();
        let mut source_needed = vec![false; source_parents.len()];
        for &(_, s, _) in &bones {
            source_needed[s] = true;
        }
        for &(next, _) in aim.iter().flatten() {
            source_needed[next] = true;
        }
        for j in (0..source_needed.len()).rev() {
            if let (Some(p), true) = (source_parents[j], source_needed[j]) {
                source_needed[p] = true;
            }
        }
        Self { bones, from_source, aim, rest_local, target_of, carries, source_needed, offset, parents, rest_pos, s_rest, t_rest }
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
        self.follow(rot, 0, true);
    }

    /// Unmapped joints (twist bones, fingers the source lacks) keep their rest turn from
    /// their parent; from joint `below` on (the joints below it come after it).
    fn follow_parents(&self, rot: &mut [Quat], below: usize) {
        self.follow(rot, below, false);
    }

    /// [`Transfer::follow_parents`]; `only_carrying`: only the joints a mapped one hangs from
    /// (what the rows read), the others left as they are.
    fn follow(&self, rot: &mut [Quat], from: usize, only_carrying: bool) {
        for j in from..rot.len() {
            if self.target_of[j].is_none() && (self.carries[j] || !only_carrying) {
                // Unit times unit: no normalising (a chain is a few joints deep, each frame fresh).
                rot[j] = match self.parents[j] {
                    Some(p) => rot[p] * self.rest_local[j],
                    None => self.rest_local[j],
                };
            }
        }
    }

    /// Display-space position of joint `j` for rotations `rot` with the joint `hips` at
    /// `hips_at` (a joint outside the hips' subtree stays where it rests).
    fn position(&self, rot: &[Quat], hips: usize, hips_at: Vec3, j: usize) -> Vec3 {
        let (mut from_hips, mut k) = (Vec3::ZERO, j);
        while k != hips {
            let Some(p) = self.parents[k] else { return self.rest_pos[j] };
            from_hips += rot[p] * self.offset[k];
            k = p;
        }
        hips_at + from_hips
    }
}

impl feet::Rig for Transfer {
    fn joints(&self) -> usize {
        self.parents.len()
    }
    fn position(&self, rot: &[Quat], hips: usize, hips_at: Vec3, j: usize) -> Vec3 {
        Transfer::position(self, rot, hips, hips_at, j)
    }
    fn follow_parents(&self, rot: &mut [Quat], below: usize) {
        Transfer::follow_parents(self, rot, below)
    }
}

/// Whether `to` hangs from `from` with nothing that can move it in `from`'s frame: the joints
/// between have no channels and no tail, `to` turns (at most) about its own place and has no
/// tail, and no joint of the skeleton scales. The bone from `from` then points at `to` in every frame as it does at
/// rest, and a bone turned to match the rest needs no aiming.
fn rigid_reach(s: &Skeleton, from: usize, to: usize) -> bool {
    let joints = s.joints();
    if joints.iter().flat_map(|j| &j.channels).any(|c| c.is_scale()) {
        return false;
    }
    let turns_only = joints[to].channels.iter().all(|c| c.is_rotation() || c.is_quaternion());
    if !turns_only || joints[to].tail != Vec3::ZERO {
        return false;
    }
    let mut j = to;
    while let Some(p) = joints[j].parent {
        if p == from {
            return true;
        }
        if !joints[p].channels.is_empty() || joints[p].tail != Vec3::ZERO {
            return false;
        }
        j = p;
    }
    false
}

/// Mapped joints of `s` that do not hang from the bone before them (an IK rig's feet, children
/// of its root): placed at that bone's end every frame, or they would stay where they rest.
fn followers(s: &Skeleton, map: &BoneMap) -> Vec<Follower> {
    let is_below = |j: usize, above: usize| std::iter::successors(s.joints()[j].parent, |&k| s.joints()[k].parent).any(|k| k == above);
    let (mut local, mut rest) = (LocalPose::default(), GlobalPose::default());
    rest_pose(s, &mut local);
    global_pose(s, &local, &mut rest);
    TOWARDS
        .iter()
        .filter_map(|(before, next)| {
            let (b, n) = (map.joint(before)?, map.joint(next.first()?)?);
            (!is_below(n, b)).then(|| Follower::new(s, &rest, n, b)).flatten()
        })
        .collect()
}

/// The target's rotations worked out from the source frame by frame.
struct Live<'a> {
    source: &'a Motion,
    transfer: &'a Transfer,
    poser: SourcePoser<'a>,
    /// The source's hips joint and how its travel is scaled.
    hips: usize,
    scale: f32,
}

/// A task's buffers for posing the source.
struct LiveScratch {
    poser: FramePoser,
    posed: Posed,
}

impl Frames for Live<'_> {
    type Scratch = LiveScratch;

    fn scratch(&self) -> LiveScratch {
        LiveScratch { poser: self.poser.scratch(), posed: Posed::empty() }
    }

    fn frame(&self, f: usize, s: &mut LiveScratch, rot: &mut [Quat]) -> Vec3 {
        self.poser.pose(f, &mut s.poser, &mut s.posed);
        self.transfer.rotations(&s.posed, rot);
        s.posed.pos[self.hips] * self.scale
    }
}

impl Live<'_> {
    /// Every frame's rotations (a frame after another), hips places and the source's feet
    /// (display metres), posed on every core a piece at a time; `keep_going(fraction)`
    /// between pieces, false stops (`None`).
    #[allow(clippy::type_complexity)]
    fn all(&self, source_map: &BoneMap, keep_going: &dyn Fn(f32) -> bool) -> Option<(Vec<Quat>, Vec<Vec3>, [Vec<Vec3>; 2])> {
        let (frames, n) = (self.source.clip.num_frames(), self.transfer.parents.len());
        let feet_s = ["leftFoot", "rightFoot"].map(|b| source_map.joint(b));
        let mut rots = vec![Quat::IDENTITY; frames * n];
        let mut hips_at = Vec::with_capacity(frames);
        let mut source_feet: [Vec<Vec3>; 2] = Default::default();
        // A run of frames with its buffers made once (per frame, the allocations cost a fifth).
        let run = |range: std::ops::Range<usize>| {
            let mut scratch = self.scratch();
            let mut rot = vec![Quat::IDENTITY; range.len() * n];
            let mut hips = Vec::with_capacity(range.len());
            let mut feet: [Vec<Vec3>; 2] = Default::default();
            for (k, f) in range.enumerate() {
                hips.push(self.frame(f, &mut scratch, &mut rot[k * n..(k + 1) * n]));
                for (track, foot) in feet.iter_mut().zip(feet_s) {
                    track.extend(foot.map(|j| scratch.posed.pos[j]));
                }
            }
            (rot, hips, feet)
        };
        for start in (0..frames).step_by(PIECE_FRAMES) {
            if !keep_going(start as f32 / frames as f32) {
                return None;
            }
            let end = (start + PIECE_FRAMES).min(frames);
            let runs: Vec<usize> = (start..end).step_by(RUN_FRAMES).collect();
            let piece: Vec<_> = runs.into_par_iter().map(|s| run(s..(s + RUN_FRAMES).min(end))).collect();
            let mut at = start * n;
            for (rot, hips, feet) in piece {
                rots[at..at + rot.len()].copy_from_slice(&rot);
                at += rot.len();
                hips_at.extend(hips);
                for (track, foot) in source_feet.iter_mut().zip(feet) {
                    track.extend(foot);
                }
            }
        }
        Some((rots, hips_at, source_feet))
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
        HipScale::Auto => match (legs_height(source_map, &transfer.s_rest), legs_height(target_map, &transfer.t_rest)) {
            (Some(ls), Some(lt)) if ls > 0.0 => lt / ls,
            _ => 1.0,
        },
    };
    let hips_t = target_map.joint("hips").unwrap_or(0);
    let live = Live {
        source,
        transfer: &transfer,
        poser: SourcePoser::new(source, source.display_from_file(), axes(source), &transfer.source_needed),
        hips: source_map.joint("hips").unwrap_or(0),
        scale,
    };
    let n = ts.len();
    let moving = transfer.target_of.iter().map(Option::is_some).collect();
    let mut first = vec![Quat::IDENTITY; n];
    live.frame(0, &mut live.scratch(), &mut first);
    let rows = Rows::new(target, &channels, moving, followers(ts, target_map), hips_t, &first);
    let values = if options.keep_feet {
        // Every frame's rotations first, so that the feet can look ahead; then the rows.
        let half = |f: f32| keep_going(f * 0.5);
        let Some((mut rots, hips_at, source_feet)) = live.all(source_map, &half) else { return Ok(None) };
        let legs = ["left", "right"].map(|side| feet::Leg::of(target_map, ts, side));
        let leg_s = leg_length(source_map, &transfer.s_rest).unwrap_or(0.9);
        let dt = source.clip.frame_time_secs as f32;
        feet::plant(&transfer, &legs, &source_feet, leg_s, dt, hips_t, &hips_at, &mut rots);
        channel_values(&rows, &Stored { rots: &rots, hips_at: &hips_at }, frames, &|f| keep_going(0.5 + f * 0.5))
    } else {
        // Each frame posed as its row is written: nothing is kept between the two.
        channel_values(&rows, &live, frames, keep_going)
    };
    let Some(values) = values else { return Ok(None) };
    let mut out = target.clone();
    out.clip = Clip::new(source.clip.frame_time_secs, ts.channels_per_frame(), frames, values);
    out.capture = None;
    // The character's own morph animation belongs to its take, not to this motion.
    out.meshes = out.meshes.as_deref().map(|set| std::sync::Arc::new(set.still()));
    out.source.declared_frames = None;
    out.source.takes.clear();
    out.source.take = None;
    out.warnings.clear();
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ChannelKind as K, Joint, PositionRule};

    #[test]
    fn a_reach_is_rigid_only_where_nothing_between_moves() {
        let turns: &[K] = &[K::RotateZ, K::RotateX, K::RotateY];
        let moves: &[K] = &[K::TranslateX, K::TranslateY, K::TranslateZ, K::RotateZ, K::RotateX, K::RotateY];
        let joint =
            |name: &str, parent: Option<usize>, channels: &[K]| Joint { channels: channels.to_vec(), ..Joint::new(name, parent, Vec3::Y) };
        let s = Skeleton::new(
            vec![
                joint("Hips", None, moves),
                joint("Chest", Some(0), turns),
                joint("Neck", Some(1), turns),
                joint("Mid", Some(0), &[]),
                joint("Leg", Some(3), turns),
                joint("Foot", Some(4), moves),
                Joint { tail: Vec3::X, ..joint("Tailed", Some(0), &[]) },
                joint("Toe", Some(6), turns),
            ],
            PositionRule::Replace,
        )
        .unwrap();
        let at = |name: &str| s.joints().iter().position(|j| j.name == name).unwrap();
        assert!(rigid_reach(&s, at("Hips"), at("Chest")), "a child that only turns");
        assert!(!rigid_reach(&s, at("Hips"), at("Neck")), "the chest between turns");
        assert!(rigid_reach(&s, at("Hips"), at("Leg")), "a joint between without channels");
        assert!(!rigid_reach(&s, at("Leg"), at("Foot")), "the foot has its own translation");
        assert!(!rigid_reach(&s, at("Chest"), at("Leg")), "not below it");
        assert!(!rigid_reach(&s, at("Hips"), at("Toe")), "a joint between with a tail (left to the aim)");
    }
}
