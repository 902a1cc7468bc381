//! A readout of a skeleton's rest pose: which way is up and forward, T-pose or A-pose, and
//! whether it matches Character Studio Biped's neutral pose (upright on +Z, facing −Y).

use glam::Vec3;

use super::pose::{self, GlobalPose, LocalPose};
use super::skeleton::Skeleton;
use super::units::UpAxis;

/// What the rest pose looks like.
#[derive(Clone, Debug, PartialEq)]
pub struct RestReadout {
    /// Up axis of the file (as detected for the motion).
    pub up: UpAxis,
    /// Unit vector the body faces, in file axes, when left and right limbs are found.
    pub facing: Option<Vec3>,
    /// Mean angle of the upper arms below horizontal, in degrees (T-pose ≈ 0, A-pose ≈ 30–50).
    pub arm_angle_deg: Option<f32>,
    /// True when upright on +Z and facing −Y (the Biped convention).
    pub matches_biped: bool,
}

/// Left (`Some(true)`), right or neither, from the naming habits of BVH, ASF, Biped, H-Anim
/// and Mixamo: `LeftArm`, `lhumerus`, `Bip01 L UpperArm`, `l_shoulder`, `mixamorig:RightLeg`,
/// `LHipJoint`, `arm.L`.
pub fn side_of(name: &str) -> Option<bool> {
    let raw = name.rsplit([':', '|']).next().unwrap_or(name);
    let lower = raw.to_ascii_lowercase();
    for token in lower.split(|c: char| !c.is_ascii_alphanumeric()) {
        match token {
            "l" | "left" => return Some(true),
            "r" | "right" => return Some(false),
            _ => {}
        }
    }
    if lower.starts_with("left") {
        return Some(true);
    }
    if lower.starts_with("right") {
        return Some(false);
    }
    let mut chars = raw.chars();
    if let (Some(first @ ('L' | 'R')), Some(second)) = (chars.next(), chars.next())
        && second.is_ascii_uppercase()
    {
        return Some(first == 'L');
    }
    const ASF_PARTS: [&str; 12] =
        ["femur", "humerus", "tibia", "radius", "clavicle", "hand", "foot", "toes", "wrist", "fingers", "thumb", "hipjoint"];
    if lower.len() > 1 && (lower.starts_with('l') || lower.starts_with('r')) && ASF_PARTS.iter().any(|p| lower[1..].starts_with(p)) {
        return Some(lower.starts_with('l'));
    }
    None
}

/// The first joint on `left`'s side whose name contains a key of the earliest group that
/// matches and none of `exclude`.
pub fn limb(skeleton: &Skeleton, left: bool, groups: Limb) -> Option<usize> {
    groups.iter().find_map(|(keys, exclude)| {
        skeleton.joints().iter().position(|j| {
            let n = j.name.rsplit([':', '|']).next().unwrap_or(&j.name).to_ascii_lowercase();
            !j.is_marker && side_of(&j.name) == Some(left) && keys.iter().any(|k| n.contains(k)) && !exclude.iter().any(|e| n.contains(e))
        })
    })
}

/// How a limb's joint is named: groups of (name fragments, fragments that rule a joint out),
/// tried in order, so that `LeftArm` wins over H-Anim's `l_shoulder` only where both exist.
pub type Limb = &'static [(&'static [&'static str], &'static [&'static str])];

/// The upper arm (`LeftArm`, `lhumerus`, `Bip01 L UpperArm`, H-Anim `l_shoulder`).
pub const UPPER_ARM: Limb = &[(&["uparm", "upperarm", "humerus"], &[]), (&["arm"], &["fore", "low"]), (&["shoulder"], &[])];
/// The forearm (`LeftForeArm`, `lradius`, `l_elbow`).
pub const FOREARM: Limb = &[(&["forearm", "lowarm", "lowerarm", "radius", "elbow"], &[])];
/// The thigh (`LeftUpLeg`, `lfemur`, `Bip01 L Thigh`, `l_hip`; not `LHipJoint`).
pub const THIGH: Limb = &[(&["upleg", "upperleg", "thigh", "femur"], &[]), (&["hip"], &["hipjoint"])];
/// The shin (`LeftLeg`, `ltibia`, `Bip01 L Calf`, `l_knee`).
pub const SHIN: Limb = &[(&["lowleg", "lowerleg", "calf", "tibia", "shin", "knee"], &[]), (&["leg"], &["up"])];

/// `T-pose` (arms within 20° of horizontal), `A-pose` (20° to 65° below) or `other`, from
/// the mean angle of the upper arms below horizontal in degrees.
pub fn arm_shape(arm_angle_deg: f32) -> &'static str {
    match arm_angle_deg {
        a if a.abs() < 20.0 => "T-pose",
        a if (20.0..65.0).contains(&a) => "A-pose",
        _ => "other",
    }
}

/// Reads the rest pose (offsets only) of `skeleton` whose up axis is `up`.
pub fn rest_readout(skeleton: &Skeleton, up: UpAxis) -> RestReadout {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    pose::rest_pose(skeleton, &mut local);
    pose::global_pose(skeleton, &local, &mut global);
    let up_v = up.vector();
    let hips = |left| limb(skeleton, left, THIGH);
    let shoulders = |left| limb(skeleton, left, UPPER_ARM);
    let pair = hips(true).zip(hips(false)).or_else(|| shoulders(true).zip(shoulders(false)));
    let facing = pair.and_then(|(l, r)| {
        let across = global.position(l) - global.position(r);
        let f = across.cross(up_v);
        (f.length() > 1e-6).then(|| f.normalize())
    });
    let arm = |left| {
        let upper = limb(skeleton, left, UPPER_ARM)?;
        let child = skeleton.children(upper).next()?;
        let d = global.position(child) - global.position(upper);
        (d.length() > 1e-6).then(|| (-d.normalize().dot(up_v)).clamp(-1.0, 1.0).asin().to_degrees())
    };
    let arms: Vec<f32> = [arm(true), arm(false)].into_iter().flatten().collect();
    let arm_angle_deg = (!arms.is_empty()).then(|| arms.iter().sum::<f32>() / arms.len() as f32);
    let matches_biped = up == UpAxis::Z && facing.is_some_and(|f| f.dot(Vec3::NEG_Y) > 0.9);
    RestReadout { up, facing, arm_angle_deg, matches_biped }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Joint, PositionRule};

    #[test]
    fn reads_a_t_pose_facing_plus_z() {
        let joints = vec![
            Joint::new("Hips", None, Vec3::ZERO),
            Joint::new("LeftUpLeg", Some(0), Vec3::new(0.1, 0.0, 0.0)),
            Joint::new("RightUpLeg", Some(0), Vec3::new(-0.1, 0.0, 0.0)),
            Joint::new("LeftArm", Some(0), Vec3::new(0.2, 0.5, 0.0)),
            Joint::new("LeftForeArm", Some(3), Vec3::new(0.3, 0.0, 0.0)),
            Joint::new("RightArm", Some(0), Vec3::new(-0.2, 0.5, 0.0)),
            Joint::new("RightForeArm", Some(5), Vec3::new(-0.3, -0.3, 0.0)),
        ];
        let s = Skeleton::new(joints, PositionRule::Replace).unwrap();
        let r = rest_readout(&s, UpAxis::Y);
        assert!((r.facing.unwrap() - Vec3::Z).length() < 1e-6);
        assert!((r.arm_angle_deg.unwrap() - 22.5).abs() < 1e-3, "mean of 0° and 45°");
        assert!(!r.matches_biped);
    }

    #[test]
    fn sides_from_every_naming_habit() {
        for left in ["LeftArm", "lhumerus", "Bip01 L UpperArm", "l_shoulder", "mixamorig:LeftLeg", "LHipJoint", "arm.L", "ltibia"] {
            assert_eq!(side_of(left), Some(true), "{left}");
        }
        for right in ["RightArm", "rfemur", "Bip01 R Calf", "r_knee", "RUpperArm", "hand_r"] {
            assert_eq!(side_of(right), Some(false), "{right}");
        }
        for neither in ["Hips", "lowerback", "Spine", "root", "LowerBack", "Lumbar", "rootJoint"] {
            assert_eq!(side_of(neither), None, "{neither}");
        }
    }
}
