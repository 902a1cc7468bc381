//! Operations on the pose as a whole: make a frame the rest pose, and turn the clip to face a
//! direction. Both keep what the body does: every joint's path is the same motion after.

use glam::{Quat, Vec3};

use super::Work;
use super::rotations::RotationChannels;
use super::work::{rebuild, snapshot, translation};
use crate::core::Skeleton;
use crate::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose};
use crate::core::rest::side_of;

/// Why a pose operation cannot run on this clip.
pub(super) type Refusal = String;

/// What a root's translation channels add to: its offset (the `add` rule), or nothing (they
/// replace it).
fn base(s: &Skeleton, joint: &crate::core::Joint) -> Vec3 {
    if s.position_rule == crate::core::PositionRule::Add { joint.offset } else { Vec3::ZERO }
}

/// The global pose of every frame of `w` (file space).
fn global_poses(w: &Work) -> Vec<GlobalPose> {
    let m = snapshot(w);
    let mut local = LocalPose::default();
    (0..w.frames)
        .map(|f| {
            let mut g = GlobalPose::default();
            frame_pose(&m.skeleton, &m.clip, f, &mut local);
            global_pose(&m.skeleton, &local, &mut g);
            g
        })
        .collect()
}

/// Makes frame `n` the rest pose: each joint's offset becomes where frame `n` puts it from
/// its parent, the fixed axes go (ASF, HTR), and every frame's rotations are re-expressed
/// from there, so frame `n` reads all zeros and every joint's path stays where it was.
pub(super) fn rest_from_frame(w: &mut Work, n: usize) -> Result<String, Refusal> {
    if w.capture.is_some() {
        return Err("a capture's markers have no rest pose".into());
    }
    let skeleton = w.motion.skeleton.clone();
    let joints = skeleton.joints();
    let translations: Vec<Option<[usize; 3]>> = (0..joints.len()).map(|j| translation(&skeleton, j)).collect();
    if let Some((j, _)) = joints.iter().zip(&translations).find(|(j, t)| t.is_none() && j.channels.iter().any(|c| c.is_translation())) {
        return Err(format!("'{}' has one or two translation channels: skelview writes back three", j.name));
    }
    if let Some(j) = joints.iter().find(|j| j.channels.iter().any(|c| c.is_rotation()) && RotationChannels::of(j).is_none()) {
        return Err(format!("'{}' has rotation channels skelview cannot write back (not three Euler or four quaternion)", j.name));
    }
    let poses = global_poses(w);
    let rest = &poses[n];
    let rotation = |g: &GlobalPose, j: usize| {
        let (_, r, _) = g.world_from_joint[j].to_scale_rotation_translation();
        r.normalize()
    };
    let rest_inverse: Vec<Quat> = (0..joints.len()).map(|j| rotation(rest, j).inverse()).collect();
    let mut new_joints = joints.to_vec();
    for (j, joint) in new_joints.iter_mut().enumerate() {
        joint.offset = match joint.parent {
            Some(p) => rest.position(j) - rest.position(p),
            None => joint.offset,
        };
        (joint.pre_rotation, joint.post_rotation, joint.tail) = (Quat::IDENTITY, Quat::IDENTITY, Vec3::ZERO);
    }
    let add = skeleton.position_rule == crate::core::PositionRule::Add;
    let cpf = w.cpf();
    let rotations: Vec<Option<RotationChannels>> = joints.iter().map(RotationChannels::of).collect();
    for (f, g) in poses.iter().enumerate() {
        // The new global rotation of each joint: its old one from frame n on.
        let new_global: Vec<Quat> = (0..joints.len()).map(|j| rotation(g, j) * rest_inverse[j]).collect();
        let (before, row) = w.values.split_at_mut(f * cpf);
        let row = &mut row[..cpf];
        let near = f.checked_sub(1).map(|p| &before[p * cpf..(p + 1) * cpf]);
        for (j, joint) in joints.iter().enumerate() {
            if let Some(rot) = &rotations[j] {
                let parent = joint.parent.map_or(Quat::IDENTITY, |p| new_global[p]);
                rot.write(row, (parent.inverse() * new_global[j]).normalize(), near);
            }
            if let Some(t) = translations[j] {
                // The joint's origin where it was, from its parent's new frame: the channels
                // carry what the new offset does not (all of it, by the replace rule).
                let (parent_at, parent_rot) = joint.parent.map_or((Vec3::ZERO, Quat::IDENTITY), |p| (g.position(p), new_global[p]));
                let local = parent_rot.inverse() * (g.position(j) - parent_at);
                let p = if add { local - new_joints[j].offset } else { local };
                for (i, v) in t.into_iter().zip(p.to_array()) {
                    row[i] = v;
                }
            }
        }
    }
    let rule = skeleton.position_rule;
    w.motion.skeleton = Skeleton::new(new_joints, rule).map_err(|e| e.to_string())?;
    // Each joint's frame is now its old one turned by frame n's inverse: meshes bound to the
    // old frames are bound by that turn too, so that they stay where they were.
    let turn = |j: Option<usize>| j.map_or(glam::Mat4::IDENTITY, |j| glam::Mat4::from_quat(rest_inverse[j].inverse()));
    w.motion.meshes = w.motion.meshes.as_deref().map(|set| std::sync::Arc::new(set.rebound(|j, m| turn(j) * m)));
    Ok(format!("frame {n} is the rest pose (offsets from it, fixed axes removed, every frame's rotations from it)"))
}

/// A direction in the file's axes: `+x`, `-x`, `+y`, `-y`, `+z` or `-z`.
pub(super) fn axis(name: &str) -> Option<Vec3> {
    Some(match name.trim().to_ascii_lowercase().as_str() {
        "+x" | "x" => Vec3::X,
        "-x" => Vec3::NEG_X,
        "+y" | "y" => Vec3::Y,
        "-y" => Vec3::NEG_Y,
        "+z" | "z" => Vec3::Z,
        "-z" => Vec3::NEG_Z,
        _ => return None,
    })
}

/// The right-side twin of a left-side name (`LeftArm` → `RightArm`, `LASI` → `RASI`,
/// `l_hip` → `r_hip`, `arm.L` → `arm.R`), each way a name can say left.
fn twins(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (l, r) in [("Left", "Right"), ("left", "right"), ("LEFT", "RIGHT"), ("_l", "_r"), ("_L", "_R"), (".L", ".R"), (" L ", " R ")] {
        if let Some(at) = name.find(l) {
            out.push(format!("{}{r}{}", &name[..at], &name[at + l.len()..]));
        }
    }
    let last = name.rfind([':', '|']).map_or(0, |i| i + 1);
    for (l, r) in [('L', 'R'), ('l', 'r')] {
        if name[last..].starts_with(l) {
            out.push(format!("{}{r}{}", &name[..last], &name[last + 1..]));
        }
    }
    out
}

/// Name fragments of points fixed to the trunk (hips, pelvis, shoulders, head): their left
/// and right twins lie across the body whatever the limbs do (feet a stride apart do not).
const TRUNK: [&str; 14] = ["upleg", "thigh", "femur", "hip", "asi", "psi", "pelv", "sho", "clav", "collar", "acr", "fhd", "bhd", "ear"];

/// Where the body faces at frame 0 (file axes, horizontal), from its left and right joints
/// or markers: across from right to left, crossed with up. Each mirrored pair (`LASI` and
/// `RASI`) votes with one unit vector, so that far model outputs weigh no more than a
/// marker; pairs on the trunk vote first, then any pair, then the mean of every left point
/// against every right one.
fn facing(w: &Work, up: Vec3) -> Option<Vec3> {
    let poses = global_poses(w);
    let g = poses.first()?;
    let skeleton = &w.motion.skeleton;
    let flat = |v: Vec3| v - up * v.dot(up);
    let at = |j: usize| Some(g.position(j)).filter(|p| p.is_finite());
    let trunk = |name: &str| {
        let n = name.rsplit([':', '|']).next().unwrap_or(name).to_ascii_lowercase();
        TRUNK.iter().any(|k| n.contains(k)) && !n.contains("fore")
    };
    let (mut votes, mut trunk_votes) = (Vec3::ZERO, Vec3::ZERO);
    let (mut left, mut right) = ((Vec3::ZERO, 0), (Vec3::ZERO, 0));
    for (j, joint) in skeleton.joints().iter().enumerate() {
        let Some(p) = at(j) else { continue };
        match side_of(&joint.name) {
            Some(true) => {
                left = (left.0 + p, left.1 + 1);
                let twin = twins(&joint.name)
                    .iter()
                    .find_map(|t| skeleton.find(t).filter(|&k| side_of(&skeleton.joints()[k].name) == Some(false)));
                if let Some(q) = twin.and_then(at) {
                    let v = flat(p - q).normalize_or_zero();
                    votes += v;
                    if trunk(&joint.name) {
                        trunk_votes += v;
                    }
                }
            }
            Some(false) => right = (right.0 + p, right.1 + 1),
            None => {}
        }
    }
    let across = if trunk_votes.length() > 1e-6 {
        trunk_votes
    } else if votes.length() > 1e-6 {
        votes
    } else if left.1 > 0 && right.1 > 0 {
        left.0 / left.1 as f32 - right.0 / right.1 as f32
    } else {
        return None;
    };
    let f = flat(across.cross(up));
    (f.length() > 1e-6).then(|| f.normalize())
}

/// Turns the clip about the up axis (through the root's place at frame 0) so that at frame 0
/// the body faces `toward`.
pub(super) fn face(w: &mut Work, toward: Vec3) -> Result<String, Refusal> {
    let up = w.motion.source.up_axis.vector();
    if toward.dot(up).abs() > 1e-3 {
        return Err(format!("{toward} is the up axis: expected a horizontal direction"));
    }
    let Some(now) = facing(w, up) else {
        return Err("no joints or markers named left and right to tell where the body faces".into());
    };
    let angle = now.cross(toward).dot(up).atan2(now.dot(toward));
    eprintln!("DEBUG now {now} toward {toward} angle {}", angle.to_degrees());
    let turn = Quat::from_axis_angle(up, angle);
    let cpf = w.cpf();
    let skeleton = w.motion.skeleton.clone();
    if let Some(c) = &mut w.capture {
        for j in 0..skeleton.len() {
            let Some(t) = translation(&skeleton, j) else { continue };
            for f in 0..w.frames {
                let p = Vec3::from(t.map(|i| w.values[f * cpf + i]));
                if p.is_finite() {
                    let q = turn * p;
                    for (i, v) in t.into_iter().zip(q.to_array()) {
                        w.values[f * cpf + i] = v;
                    }
                }
            }
        }
        for plate in &mut c.plates {
            plate.corners = plate.corners.map(|k| turn * k);
        }
        return Ok(format!("turned {:.1}° about the up axis to face {toward}", angle.to_degrees()));
    }
    let poses = global_poses(w);
    let mut joints = skeleton.joints().to_vec();
    for (j, joint) in skeleton.joints().iter().enumerate().filter(|(_, j)| j.parent.is_none()) {
        let centre = poses.first().map_or(Vec3::ZERO, |g| g.position(j));
        let centre = centre - up * centre.dot(up);
        let rot = RotationChannels::of(joint);
        if rot.is_none() && angle.abs() > 1e-6 {
            return Err(format!("the root '{}' has no rotation channels to turn", joint.name));
        }
        // The root's local rotation is pre · R · post: R' = pre⁻¹ · turn · pre · R.
        let pre = joint.pre_rotation;
        let t = translation(&skeleton, j);
        for f in 0..w.frames {
            let (before, row) = w.values.split_at_mut(f * cpf);
            let row = &mut row[..cpf];
            let near = f.checked_sub(1).map(|p| &before[p * cpf..(p + 1) * cpf]);
            if let Some(rot) = &rot {
                let r = rot.read(row);
                rot.write(row, (pre.inverse() * turn * pre * r).normalize(), near);
            }
            match t {
                Some(t) => {
                    let origin = base(&skeleton, joint) + Vec3::from(t.map(|i| row[i]));
                    let moved = turn * (origin - centre) + centre - base(&skeleton, joint);
                    for (i, v) in t.into_iter().zip(moved.to_array()) {
                        row[i] = v;
                    }
                }
                None if f == 0 => joints[j].offset = turn * (joint.offset - centre) + centre,
                None => {}
            }
        }
    }
    rebuild(w, joints);
    Ok(format!("turned {:.1}° about the up axis to face {toward}", angle.to_degrees()))
}
