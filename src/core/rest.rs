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

fn side_of(name: &str) -> Option<bool> {
    let n = name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase();
    if n.starts_with("left") || n.starts_with("l_") || n.ends_with("_l") || n.ends_with(".l") {
        Some(true)
    } else if n.starts_with("right") || n.starts_with("r_") || n.ends_with("_r") || n.ends_with(".r") {
        Some(false)
    } else if n.len() > 1
        && (n.starts_with('l') || n.starts_with('r'))
        && ["femur", "humerus", "upleg", "uparm", "hip", "shoulder", "arm"].iter().any(|k| n[1..].starts_with(k))
    {
        Some(n.starts_with('l'))
    } else {
        None
    }
}

fn find(skeleton: &Skeleton, left: bool, keys: &[&str]) -> Option<usize> {
    skeleton.joints().iter().position(|j| {
        let n = j.name.to_ascii_lowercase();
        side_of(&j.name) == Some(left) && keys.iter().any(|k| n.contains(k))
    })
}

/// Reads the rest pose (offsets only) of `skeleton` whose up axis is `up`.
pub fn rest_readout(skeleton: &Skeleton, up: UpAxis) -> RestReadout {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    pose::rest_pose(skeleton, &mut local);
    pose::global_pose(skeleton, &local, &mut global);
    let up_v = up.vector();
    let hips = |left| find(skeleton, left, &["upleg", "hip", "femur", "thigh"]);
    let shoulders = |left| find(skeleton, left, &["arm", "humerus", "shoulder"]);
    let pair = hips(true).zip(hips(false)).or_else(|| shoulders(true).zip(shoulders(false)));
    let facing = pair.and_then(|(l, r)| {
        let across = global.position(l) - global.position(r);
        let f = across.cross(up_v);
        (f.length() > 1e-6).then(|| f.normalize())
    });
    let arm = |left| {
        let upper = find(skeleton, left, &["uparm", "humerus", "arm"])?;
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
}
