//! A motion as VRM's normalized humanoid: one node per humanoid bone, named after it, in a
//! T-pose facing +Z (left +X, up +Y, metres; limbs more than 10° off it are put in it, the
//! rest keeps the source's shape), every rest rotation the identity, so that a
//! bone's rotation is its turn away from that T-pose, as VRM animation players (three-vrm)
//! apply it to an avatar's normalized bones. Joints between two humanoid bones (a twist bone,
//! CMU's `LHipJoint`) fold into them; the hips' rest height is the source's standing height.

use glam::{Mat3, Vec3};

use super::bone_map::{BONES, BoneMap, Found, MapEntry};
use super::transfer::{HipScale, RetargetError, RetargetOptions, hips_frame, legs_height, rest_posed, retarget};
use crate::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose};
use crate::core::{ChannelKind, Clip, Joint, LengthUnit, Motion, PositionRule, Skeleton, UpAxis};

/// Each bone's humanoid parent: the first of these the map has.
const PARENTS: &[(&str, &[&str])] = &[
    ("spine", &["hips"]),
    ("chest", &["spine", "hips"]),
    ("upperChest", &["chest", "spine", "hips"]),
    ("neck", &["upperChest", "chest", "spine", "hips"]),
    ("head", &["neck", "upperChest", "chest", "spine", "hips"]),
    ("leftEye", &["head"]),
    ("rightEye", &["head"]),
    ("jaw", &["head"]),
    ("leftUpperLeg", &["hips"]),
    ("leftLowerLeg", &["leftUpperLeg"]),
    ("leftFoot", &["leftLowerLeg"]),
    ("leftToes", &["leftFoot"]),
    ("rightUpperLeg", &["hips"]),
    ("rightLowerLeg", &["rightUpperLeg"]),
    ("rightFoot", &["rightLowerLeg"]),
    ("rightToes", &["rightFoot"]),
    ("leftShoulder", &["upperChest", "chest", "spine"]),
    ("leftUpperArm", &["leftShoulder", "upperChest", "chest", "spine"]),
    ("leftLowerArm", &["leftUpperArm"]),
    ("leftHand", &["leftLowerArm"]),
    ("rightShoulder", &["upperChest", "chest", "spine"]),
    ("rightUpperArm", &["rightShoulder", "upperChest", "chest", "spine"]),
    ("rightLowerArm", &["rightUpperArm"]),
    ("rightHand", &["rightLowerArm"]),
];

/// The T-pose direction of a limb bone (towards its next bone down the chain): arms out to
/// the sides, legs straight down. The spine, neck, feet and toes have none: the T-pose leaves
/// their curve to the model, so they keep the source's own.
fn t_pose_direction(bone: &str) -> Option<Vec3> {
    Some(match bone {
        "leftUpperLeg" | "leftLowerLeg" | "rightUpperLeg" | "rightLowerLeg" => Vec3::NEG_Y,
        "leftShoulder" | "leftUpperArm" | "leftLowerArm" | "leftHand" => Vec3::X,
        "rightShoulder" | "rightUpperArm" | "rightLowerArm" | "rightHand" => Vec3::NEG_X,
        _ => return None,
    })
}

/// A limb whose rest direction is within this of the T-pose's keeps its own (a VRM avatar,
/// already in a T-pose, then plays its own retargets exactly); one further off (an A-pose's
/// arms) is put in the T-pose.
const T_POSE_SNAP_DEG: f32 = 10.0;

/// The parent of `bone` among the mapped ones (fingers: the previous joint of their finger,
/// else the hand).
fn parent_of(map: &BoneMap, bone: &str) -> Option<&'static str> {
    if let Some((_, list)) = PARENTS.iter().find(|(b, _)| *b == bone) {
        return list.iter().copied().find(|p| map.joint(p).is_some());
    }
    let side = if bone.starts_with("left") { "left" } else { "right" };
    let at = BONES.iter().position(|b| *b == bone)?;
    let finger = ["Thumb", "Index", "Middle", "Ring", "Little"].into_iter().find(|f| bone.contains(f))?;
    let earlier = BONES[..at].iter().rev().take_while(|b| b.contains(finger) && b.starts_with(side)).find(|b| map.joint(b).is_some());
    earlier.copied().or_else(|| BONES.iter().copied().find(|b| *b == format!("{side}Hand")).filter(|h| map.joint(h).is_some()))
}

/// `m` on VRM's normalized humanoid (see the module), with that skeleton's bone map.
pub fn normalized(m: &Motion, map: &BoneMap) -> Result<(Motion, BoneMap), RetargetError> {
    let rest = rest_posed(m);
    // Source axes to the T-pose's: the hips' across to +X by a turn about the vertical only
    // (display space is Y-up already; a hips frame would also tilt the whole rest by the
    // pelvis' lean, Godette's 2.6°, and every bone with it).
    let turn = hips_frame(map, &rest)
        .and_then(|f| Vec3::new(f.x_axis.x, 0.0, f.x_axis.z).try_normalize())
        .map_or(Mat3::IDENTITY, |across| Mat3::from_rotation_y(across.z.atan2(across.x)));
    let bones: Vec<(&'static str, usize)> = BONES.iter().filter_map(|b| Some((*b, map.joint(b)?))).collect();
    let index = |b: &str| bones.iter().position(|(x, _)| *x == b);
    // The hips stand at the source's standing height.
    let hips_j = map.joint("hips").ok_or(RetargetError::Missing { which: "source", missing: vec!["hips"] })?;
    let first_height = {
        let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
        frame_pose(&m.skeleton, &m.clip, 0, &mut local);
        global_pose(&m.skeleton, &local, &mut global);
        m.display_from_file().transform_point3(global.position(hips_j)).y
    };
    // A rest pose standing on the floor keeps its height (an avatar's own, so that three-vrm
    // scales nothing when it plays the VRMA on that avatar); one with the hips down at the
    // floor takes the first frame's.
    let standing = legs_height(map, &rest).is_some_and(|legs| rest.pos[hips_j].y > 0.5 * legs);
    let hips_height = if standing { rest.pos[hips_j].y } else { first_height.max(rest.pos[hips_j].y) }.max(0.01);
    // A VRM avatar's own humanoid (the file names its bones): its rest is the T-pose its
    // players take, kept as it is (Godette's collarbones rise 15°), so that three-vrm plays
    // the VRMA on it exactly as skelview retargeted.
    let avatar = map.entries.iter().any(|e| e.bone == "hips" && e.found == Found::File);
    let mut joints = Vec::with_capacity(bones.len());
    for &(bone, j) in &bones {
        let parent = if bone == "hips" { None } else { parent_of(map, bone).and_then(index) };
        let offset = match parent {
            None => Vec3::new(0.0, hips_height, 0.0),
            Some(p) => {
                let (pb, pj) = bones[p];
                let from_parent = rest.pos[j] - rest.pos[pj];
                // Along a limb, the parent's T-pose direction; elsewhere the source's offset,
                // turned to face +Z.
                let along = super::transfer::next_bone(map, pb) == Some(bone);
                let own = turn * from_parent;
                match (along, t_pose_direction(pb)) {
                    (true, Some(d)) if !avatar && own.angle_between(d).to_degrees() > T_POSE_SNAP_DEG => d * from_parent.length(),
                    _ => own,
                }
            }
        };
        let mut joint = Joint::new(bone, parent, offset);
        let rotation = [ChannelKind::QuatX, ChannelKind::QuatY, ChannelKind::QuatZ, ChannelKind::QuatW];
        joint.channels = if parent.is_none() {
            [ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ].into_iter().chain(rotation).collect()
        } else {
            rotation.to_vec()
        };
        joint.humanoid = Some(bone.to_owned());
        joints.push(joint);
    }
    let skeleton =
        Skeleton::new(joints, PositionRule::Replace).map_err(|_| RetargetError::Missing { which: "source", missing: vec!["hips"] })?;
    let mut target = m.clone();
    target.clip = Clip::empty(m.clip.frame_time_secs, skeleton.channels_per_frame());
    target.skeleton = skeleton;
    target.capture = None;
    // The source's meshes are bound to its own joints, not to the normalized humanoid's.
    target.meshes = None;
    let s = &mut target.source;
    (s.unit, s.unit_detected, s.up_axis, s.up_detected, s.length_divisor, s.screen_right) =
        (LengthUnit::Metre, false, UpAxis::Y, false, 1.0, None);
    let target_map =
        BoneMap { entries: bones.iter().enumerate().map(|(i, (b, _))| MapEntry { bone: b, joint: i, found: Found::File }).collect() };
    let out = retarget(m, map, &target, &target_map, &RetargetOptions { hips: HipScale::Factor(1.0), keep_feet: false }, &|_| true)?
        .ok_or(RetargetError::NoFrames)?;
    Ok((out, target_map))
}
