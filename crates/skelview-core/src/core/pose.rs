//! Local poses from clip rows, and forward kinematics to global poses.

use glam::{Affine3A, Quat, Vec3, Vec3A};

use super::clip::{Clip, Interpolation};
use super::skeleton::{ChannelKind, EulerConvention, Joint, PositionRule, Skeleton, stretched_tail};

/// A joint's transform relative to its parent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalTransform {
    /// Translation in the parent's frame.
    pub translation: Vec3,
    /// Rotation relative to the parent.
    pub rotation: Quat,
    /// Scale in the joint's frame.
    pub scale: Vec3,
}

impl LocalTransform {
    /// No translation, rotation or scale.
    pub const IDENTITY: Self = Self { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    /// As an affine transform `parent_from_joint`.
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Translation lerped, rotation slerped along the shorter arc, scale lerped.
    pub fn blend(&self, other: &Self, t: f32) -> Self {
        let mut b = other.rotation;
        if self.rotation.dot(b) < 0.0 {
            b = -b;
        }
        Self {
            translation: self.translation.lerp(other.translation, t),
            rotation: self.rotation.slerp(b, t).normalize(),
            scale: self.scale.lerp(other.scale, t),
        }
    }
}

/// Every joint's `parent_from_joint` at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalPose {
    /// One entry per joint, in skeleton order.
    pub parent_from_joint: Vec<LocalTransform>,
}

/// Every joint's `world_from_joint` at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlobalPose {
    /// One entry per joint, in skeleton order.
    pub world_from_joint: Vec<Affine3A>,
}

impl GlobalPose {
    /// Origin of joint `i` in world space.
    pub fn position(&self, i: usize) -> Vec3 {
        Vec3::from(self.world_from_joint[i].translation)
    }
}

/// The rotation of `channels` with their `values` (radians), composed per `euler`.
pub fn compose_rotation(channels: &[ChannelKind], values: &[f32], euler: EulerConvention) -> Quat {
    let mut rotation = Quat::IDENTITY;
    for (kind, &v) in channels.iter().zip(values) {
        let q = match kind {
            ChannelKind::RotateX => Quat::from_rotation_x(v),
            ChannelKind::RotateY => Quat::from_rotation_y(v),
            ChannelKind::RotateZ => Quat::from_rotation_z(v),
            _ => continue,
        };
        rotation = match euler {
            EulerConvention::FirstOutermost => rotation * q,
            EulerConvention::LastOutermost => q * rotation,
        };
    }
    rotation
}

/// `parent_from_joint` for one joint given its channel values (`None`: rest, channels ignored).
pub fn joint_local(joint: &Joint, values: Option<&[f32]>, rule: PositionRule) -> LocalTransform {
    let mut translation = joint.offset;
    let mut channel_rotation = Quat::IDENTITY;
    let mut stretch = 0.0;
    let mut scale = Vec3::ONE;
    if let Some(values) = values {
        // One pass over the channels (this runs for every joint of every frame drawn).
        let mut quat = [0.0f32, 0.0, 0.0, 1.0];
        let mut has_quat = false;
        for (kind, &v) in joint.channels.iter().zip(values) {
            let turn = match kind {
                ChannelKind::RotateX => Quat::from_rotation_x(v),
                ChannelKind::RotateY => Quat::from_rotation_y(v),
                ChannelKind::RotateZ => Quat::from_rotation_z(v),
                ChannelKind::TranslateX => {
                    rule.apply(&mut translation, 0, v);
                    continue;
                }
                ChannelKind::TranslateY => {
                    rule.apply(&mut translation, 1, v);
                    continue;
                }
                ChannelKind::TranslateZ => {
                    rule.apply(&mut translation, 2, v);
                    continue;
                }
                ChannelKind::Length => {
                    stretch += v;
                    continue;
                }
                ChannelKind::ScaleX => {
                    scale.x = v;
                    continue;
                }
                ChannelKind::ScaleY => {
                    scale.y = v;
                    continue;
                }
                ChannelKind::ScaleZ => {
                    scale.z = v;
                    continue;
                }
                ChannelKind::QuatX | ChannelKind::QuatY | ChannelKind::QuatZ | ChannelKind::QuatW => {
                    let k = match kind {
                        ChannelKind::QuatX => 0,
                        ChannelKind::QuatY => 1,
                        ChannelKind::QuatZ => 2,
                        _ => 3,
                    };
                    quat[k] = v;
                    has_quat = true;
                    continue;
                }
            };
            channel_rotation = match joint.euler {
                EulerConvention::FirstOutermost => channel_rotation * turn,
                EulerConvention::LastOutermost => turn * channel_rotation,
            };
        }
        // Quaternion channels win over Euler ones (a joint has one or the other).
        if has_quat {
            channel_rotation = super::skeleton::unit_quaternion(quat);
        }
    }
    let rotation = match (joint.pre_rotation == Quat::IDENTITY, joint.post_rotation == Quat::IDENTITY) {
        (true, true) => channel_rotation,
        _ => joint.pre_rotation * channel_rotation * joint.post_rotation,
    };
    let tail = stretched_tail(joint.tail, stretch);
    if tail != Vec3::ZERO {
        translation += rotation * (scale * tail);
    }
    LocalTransform { translation, rotation, scale }
}

/// Fills `out` with the rest pose: the skeleton's rest values where the format has them (ACL
/// bind pose, H-Anim fields), else offsets and fixed rotations with channels ignored.
pub fn rest_pose(skeleton: &Skeleton, out: &mut LocalPose) {
    out.parent_from_joint.clear();
    let rest = skeleton.rest_values();
    out.parent_from_joint.extend(skeleton.joints().iter().map(|j| {
        let values = rest.map(|r| &r[j.first_channel..j.first_channel + j.channels.len()]);
        joint_local(j, values, skeleton.position_rule)
    }));
}

/// Fills `out` with the local pose of one frame. O(joints).
pub fn frame_pose(skeleton: &Skeleton, clip: &Clip, frame: usize, out: &mut LocalPose) {
    if clip.num_frames() == 0 {
        return rest_pose(skeleton, out);
    }
    let row = clip.frame(frame.min(clip.num_frames() - 1));
    out.parent_from_joint.clear();
    out.parent_from_joint.extend(skeleton.joints().iter().map(|j| {
        let values = &row[j.first_channel..j.first_channel + j.channels.len()];
        joint_local(j, Some(values), skeleton.position_rule)
    }));
}

/// Fills `out` with the local pose at `time_secs` (clamped to the clip). O(joints).
pub fn sample_pose(skeleton: &Skeleton, clip: &Clip, time_secs: f64, interp: Interpolation, out: &mut LocalPose) {
    let Some((a, b, t)) = clip.locate(time_secs) else {
        return rest_pose(skeleton, out);
    };
    let nearest = if t < 0.5 { a } else { b };
    if interp == Interpolation::Nearest || a == b || t == 0.0 {
        return frame_pose(skeleton, clip, nearest, out);
    }
    let (row_a, row_b) = (clip.frame(a), clip.frame(b));
    out.parent_from_joint.clear();
    out.parent_from_joint.extend(skeleton.joints().iter().map(|j| {
        let range = j.first_channel..j.first_channel + j.channels.len();
        let la = joint_local(j, Some(&row_a[range.clone()]), skeleton.position_rule);
        let lb = joint_local(j, Some(&row_b[range]), skeleton.position_rule);
        la.blend(&lb, t)
    }));
}

/// Forward kinematics: `world_from_joint = world_from_parent * parent_from_joint`.
pub fn global_pose(skeleton: &Skeleton, local: &LocalPose, out: &mut GlobalPose) {
    out.world_from_joint.clear();
    out.world_from_joint.reserve(skeleton.len());
    for (joint, parent_from_joint) in skeleton.joints().iter().zip(&local.parent_from_joint) {
        let parent_from_joint = parent_from_joint.to_affine();
        let world_from_joint = match joint.parent {
            Some(p) => out.world_from_joint[p] * parent_from_joint,
            None => parent_from_joint,
        };
        out.world_from_joint.push(world_from_joint);
    }
}

/// Axis-aligned bounds of a pose's joint origins, `None` for an empty pose.
pub fn bounds(pose: &GlobalPose) -> Option<(Vec3, Vec3)> {
    let mut it = pose.world_from_joint.iter().map(|m| m.translation);
    let first = it.next()?;
    let (lo, hi) = it.fold((first, first), |(lo, hi): (Vec3A, Vec3A), p| (lo.min(p), hi.max(p)));
    Some((lo.into(), hi.into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    fn approx(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() < 1e-5
    }

    #[test]
    fn bvh_order_first_listed_is_outermost() {
        // Z X Y with 90° each: R = Rz·Rx·Ry applied to +X.
        let ch = [ChannelKind::RotateZ, ChannelKind::RotateX, ChannelKind::RotateY];
        let q = compose_rotation(&ch, &[FRAC_PI_2; 3], EulerConvention::FirstOutermost);
        let expect = Quat::from_rotation_z(FRAC_PI_2) * Quat::from_rotation_x(FRAC_PI_2) * Quat::from_rotation_y(FRAC_PI_2);
        assert!(approx(q * Vec3::X, expect * Vec3::X));
        // Ry(+X) = -Z; Rx(-Z) = +Y; Rz(+Y) = -X.
        assert!(approx(q * Vec3::X, -Vec3::X));
    }

    #[test]
    fn asf_order_listed_is_evaluation_order() {
        let ch = [ChannelKind::RotateX, ChannelKind::RotateY, ChannelKind::RotateZ];
        let q = compose_rotation(&ch, &[0.1, 0.2, 0.3], EulerConvention::LastOutermost);
        let expect = Quat::from_rotation_z(0.3) * Quat::from_rotation_y(0.2) * Quat::from_rotation_x(0.1);
        assert!(approx(q * Vec3::new(1.0, 2.0, 3.0), expect * Vec3::new(1.0, 2.0, 3.0)));
    }

    #[test]
    fn position_rules() {
        let mut j = Joint::new("j", None, Vec3::new(1.0, 2.0, 3.0));
        j.channels = vec![ChannelKind::TranslateX, ChannelKind::TranslateZ];
        let r = joint_local(&j, Some(&[10.0, 30.0]), PositionRule::Replace);
        assert_eq!(r.translation, Vec3::new(10.0, 2.0, 30.0));
        let a = joint_local(&j, Some(&[10.0, 30.0]), PositionRule::Add);
        assert_eq!(a.translation, Vec3::new(11.0, 2.0, 33.0));
        assert_eq!(joint_local(&j, None, PositionRule::Replace).translation, j.offset);
    }

    #[test]
    fn fk_chains_offsets_through_rotations() {
        let mut root = Joint::new("root", None, Vec3::ZERO);
        root.channels = vec![ChannelKind::RotateZ];
        let child = Joint::new("child", Some(0), Vec3::new(1.0, 0.0, 0.0));
        let s = Skeleton::new(vec![root, child], PositionRule::Replace).unwrap();
        let clip = Clip::new(1.0, 1, 2, vec![0.0, FRAC_PI_2]);
        let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
        sample_pose(&s, &clip, 1.0, Interpolation::Linear, &mut local);
        global_pose(&s, &local, &mut global);
        assert!(approx(global.position(1), Vec3::Y));
        // Halfway: a quaternion slerp gives 45°, on the unit circle (an Euler lerp would too here,
        // but a translation lerp would not stay on the circle).
        sample_pose(&s, &clip, 0.5, Interpolation::Linear, &mut local);
        global_pose(&s, &local, &mut global);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!(approx(global.position(1), Vec3::new(h, h, 0.0)));
        sample_pose(&s, &clip, 0.4, Interpolation::Nearest, &mut local);
        global_pose(&s, &local, &mut global);
        assert!(approx(global.position(1), Vec3::X));
    }

    #[test]
    fn quaternion_and_scale_channels() {
        use ChannelKind::*;
        let mut j = Joint::new("j", None, Vec3::new(1.0, 0.0, 0.0));
        j.channels = vec![QuatX, QuatY, QuatZ, QuatW, ScaleX, ScaleY, ScaleZ];
        // 90° about Z as (x, y, z, w) = (0, 0, sin 45°, cos 45°), scaled 2 along the joint's X.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let l = joint_local(&j, Some(&[0.0, 0.0, h, h, 2.0, 1.0, 1.0]), PositionRule::Replace);
        assert_eq!(l.scale, Vec3::new(2.0, 1.0, 1.0));
        // A child one unit along the joint's X lands at offset + R·S·(1,0,0) = (1,0,0) + (0,2,0).
        let child = l.to_affine().transform_point3(Vec3::X);
        assert!(approx(child, Vec3::new(1.0, 2.0, 0.0)), "{child}");
        // A zero quaternion (junk) is the identity, not NaN.
        let z = joint_local(&j, Some(&[0.0; 7]), PositionRule::Replace);
        assert_eq!(z.rotation, Quat::IDENTITY);
    }

    #[test]
    fn rest_values_drive_the_rest_pose() {
        let mut j = Joint::new("j", None, Vec3::ZERO);
        j.channels = vec![ChannelKind::RotateZ];
        let s = Skeleton::new(vec![j.clone(), Joint::new("c", Some(0), Vec3::X)], PositionRule::Replace).unwrap();
        let mut local = LocalPose::default();
        rest_pose(&s, &mut local);
        assert_eq!(local.parent_from_joint[0].rotation, Quat::IDENTITY);
        let s = s.with_rest_values(vec![FRAC_PI_2]).unwrap();
        rest_pose(&s, &mut local);
        let mut global = GlobalPose::default();
        global_pose(&s, &local, &mut global);
        assert!(approx(global.position(1), Vec3::Y));
        assert!(Skeleton::new(vec![j], PositionRule::Replace).unwrap().with_rest_values(vec![]).is_err());
    }

    #[test]
    fn tail_is_rotated_with_the_joint() {
        let mut j = Joint::new("bone", None, Vec3::ZERO);
        j.tail = Vec3::X;
        j.channels = vec![ChannelKind::RotateZ, ChannelKind::Length];
        j.euler = EulerConvention::LastOutermost;
        let l = joint_local(&j, Some(&[FRAC_PI_2, 1.0]), PositionRule::Replace);
        assert!(approx(l.translation, Vec3::new(0.0, 2.0, 0.0)));
    }
}
