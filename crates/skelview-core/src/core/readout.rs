//! What an inspector shows of one joint: its channel values at a frame, their limits and
//! gaps, its local transform with the Euler angles in the joint's own order, and its global
//! rotation and bone length. Front doors format these; none computes a pose itself.

use glam::{EulerRot, Quat, Vec3};

use super::pose::{GlobalPose, LocalTransform, compose_rotation, joint_local};
use super::{EulerConvention, Motion};

/// One channel of the joint at the frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelReadout {
    /// The channel's name as its format names it (`Xrotation`, `rx`).
    pub name: &'static str,
    /// Its value in file units (radians for rotations).
    pub value: f32,
    /// True when the file has no value here (the value shown is held from a neighbour).
    pub missing: bool,
    /// Its limits in file units, when the file gives some.
    pub limits: Option<(f32, f32)>,
    /// True when the value lies outside its limits.
    pub outside: bool,
}

/// A joint at one frame, in the file's units and axes.
#[derive(Clone, Debug, PartialEq)]
pub struct JointReadout {
    /// The frame read (clamped to the clip).
    pub frame: usize,
    /// The joint's channels at the frame; empty when the clip has no frames.
    pub channels: Vec<ChannelReadout>,
    /// The channel values the local transform was built from: the frame's, else the rest
    /// values the file gives, else none (the offset alone).
    pub values: Option<Vec<f32>>,
    /// Translation, rotation and scale relative to the parent.
    pub local: LocalTransform,
    /// The rotation channels as Euler angles in degrees, in the joint's listed order
    /// (`ZXY`), when it has three rotation channels in a known order.
    pub euler_deg: Option<(String, [f32; 3])>,
}

impl JointReadout {
    /// Joint `joint` of `motion` at `frame`.
    pub fn of(motion: &Motion, joint: usize, frame: usize) -> Option<Self> {
        let j = motion.skeleton.joints().get(joint)?;
        let range = j.first_channel..j.first_channel + j.channels.len();
        let frames = motion.clip.num_frames();
        let frame = frame.min(frames.saturating_sub(1));
        let at_frame = (frames > 0).then(|| motion.clip.frame(frame)[range.clone()].to_vec());
        let channels = at_frame.as_ref().map_or_else(Vec::new, |values| {
            j.channels
                .iter()
                .zip(values)
                .enumerate()
                .map(|(k, (kind, &value))| {
                    let limits = j.limits.get(k).copied();
                    ChannelReadout {
                        name: motion.source.format.channel_name(*kind),
                        value,
                        missing: motion.clip.is_missing(frame, j.first_channel + k),
                        limits,
                        outside: limits.is_some_and(|(lo, hi)| value < lo - 1e-4 || value > hi + 1e-4),
                    }
                })
                .collect()
        });
        let values = at_frame.or_else(|| motion.skeleton.rest_values().map(|rest| rest[range].to_vec()));
        let local = joint_local(j, values.as_deref(), motion.skeleton.position_rule);
        let order = j.rotation_order();
        let euler_deg = values
            .as_ref()
            .filter(|_| !order.is_empty())
            .and_then(|v| euler_in_order(compose_rotation(&j.channels, v, j.euler), &order, j.euler))
            .map(|e| (order, e));
        Some(Self { frame, channels, values, local, euler_deg })
    }
}

/// The joint's global rotation and, with a parent, the length of its bone (file units), from
/// a pose of the whole skeleton.
pub fn global_readout(motion: &Motion, global: &GlobalPose, joint: usize) -> Option<(Quat, Option<f32>)> {
    let g = global.world_from_joint.get(joint)?;
    let parent = motion.skeleton.joints().get(joint)?.parent;
    let length =
        parent.and_then(|p| global.world_from_joint.get(p)).map(|p| (Vec3::from(g.translation) - Vec3::from(p.translation)).length());
    Some((Quat::from_mat3a(&g.matrix3).normalize(), length))
}

/// glam's rotation order for channels listed as `order` (`ZXY`) composed by `convention`:
/// glam's intrinsic orders have the first listed outermost (`ZXY` is R = Rz·Rx·Ry, the BVH
/// convention); ASF's listed order is the reverse product.
pub fn euler_rot(order: &str, convention: EulerConvention) -> Option<EulerRot> {
    let listed: String = match convention {
        EulerConvention::FirstOutermost => order.to_owned(),
        EulerConvention::LastOutermost => order.chars().rev().collect(),
    };
    Some(match listed.as_str() {
        "XYZ" => EulerRot::XYZ,
        "XZY" => EulerRot::XZY,
        "YXZ" => EulerRot::YXZ,
        "YZX" => EulerRot::YZX,
        "ZXY" => EulerRot::ZXY,
        "ZYX" => EulerRot::ZYX,
        _ => return None,
    })
}

/// Euler angles (degrees) of `q` in a joint's own channel order and convention.
pub fn euler_in_order(q: Quat, order: &str, convention: EulerConvention) -> Option<[f32; 3]> {
    let rot = euler_rot(order, convention)?;
    let (a, b, c) = q.to_euler(rot);
    let v = [a.to_degrees(), b.to_degrees(), c.to_degrees()];
    Some(match convention {
        EulerConvention::FirstOutermost => v,
        EulerConvention::LastOutermost => [v[2], v[1], v[0]],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ChannelKind;

    #[test]
    fn euler_readout_recovers_channel_angles() {
        use ChannelKind::*;
        for (order, kinds, convention) in [
            ("ZXY", [RotateZ, RotateX, RotateY], EulerConvention::FirstOutermost),
            ("XYZ", [RotateX, RotateY, RotateZ], EulerConvention::LastOutermost),
            ("ZYX", [RotateZ, RotateY, RotateX], EulerConvention::FirstOutermost),
        ] {
            let angles = [10f32.to_radians(), -20f32.to_radians(), 30f32.to_radians()];
            let q = compose_rotation(&kinds, &angles, convention);
            let e = euler_in_order(q, order, convention).unwrap();
            assert!((e[0] - 10.0).abs() < 1e-3 && (e[1] + 20.0).abs() < 1e-3 && (e[2] - 30.0).abs() < 1e-3, "{order}: {e:?}");
        }
        assert_eq!(euler_in_order(Quat::IDENTITY, "XY", EulerConvention::FirstOutermost), None);
    }
}
