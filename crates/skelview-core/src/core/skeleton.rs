//! Joints in a flat `Vec`, parents before children, checked once on load.

use glam::{Quat, Vec3};
use thiserror::Error;

/// One animated degree of freedom of a joint, as stored in a clip row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// Translation along the parent's X axis (file units).
    TranslateX,
    /// Translation along the parent's Y axis (file units).
    TranslateY,
    /// Translation along the parent's Z axis (file units).
    TranslateZ,
    /// Rotation about X (radians in the clip).
    RotateX,
    /// Rotation about Y (radians in the clip).
    RotateY,
    /// Rotation about Z (radians in the clip).
    RotateZ,
    /// Stretch along the bone (ASF `l`): added to the tail's length (file units).
    Length,
    /// X component of a rotation given as a quaternion (ACL, H-Anim); the four `Quat*`
    /// channels of a joint replace its Euler rotation.
    QuatX,
    /// Y component of a rotation quaternion.
    QuatY,
    /// Z component of a rotation quaternion.
    QuatZ,
    /// W (real) component of a rotation quaternion.
    QuatW,
    /// Scale along the joint's X axis, applied after its rotation (so it scales the children).
    ScaleX,
    /// Scale along the joint's Y axis.
    ScaleY,
    /// Scale along the joint's Z axis.
    ScaleZ,
}

impl ChannelKind {
    /// Translation, rotation quaternion (x y z w) and scale: the channels of a joint in formats
    /// that store transforms rather than Euler angles (ACL, glTF).
    pub const TRANSLATION_QUATERNION_SCALE: [Self; 10] = [
        Self::TranslateX,
        Self::TranslateY,
        Self::TranslateZ,
        Self::QuatX,
        Self::QuatY,
        Self::QuatZ,
        Self::QuatW,
        Self::ScaleX,
        Self::ScaleY,
        Self::ScaleZ,
    ];

    /// True for the three rotation channels.
    pub fn is_rotation(self) -> bool {
        matches!(self, Self::RotateX | Self::RotateY | Self::RotateZ)
    }

    /// True for the three translation channels.
    pub fn is_translation(self) -> bool {
        matches!(self, Self::TranslateX | Self::TranslateY | Self::TranslateZ)
    }

    /// True for the four quaternion components.
    pub fn is_quaternion(self) -> bool {
        matches!(self, Self::QuatX | Self::QuatY | Self::QuatZ | Self::QuatW)
    }

    /// True for the three scale channels.
    pub fn is_scale(self) -> bool {
        matches!(self, Self::ScaleX | Self::ScaleY | Self::ScaleZ)
    }

    /// Unit axis of a rotation, translation or scale channel (zero for the others).
    pub fn axis(self) -> Vec3 {
        match self {
            Self::TranslateX | Self::RotateX | Self::ScaleX => Vec3::X,
            Self::TranslateY | Self::RotateY | Self::ScaleY => Vec3::Y,
            Self::TranslateZ | Self::RotateZ | Self::ScaleZ => Vec3::Z,
            _ => Vec3::ZERO,
        }
    }

    /// Name as BVH writes it (`Xposition`, `Zrotation`, ...).
    pub fn bvh_name(self) -> &'static str {
        match self {
            Self::TranslateX => "Xposition",
            Self::TranslateY => "Yposition",
            Self::TranslateZ => "Zposition",
            Self::RotateX => "Xrotation",
            Self::RotateY => "Yrotation",
            Self::RotateZ => "Zrotation",
            Self::Length => "length",
            Self::QuatX => "Xquaternion",
            Self::QuatY => "Yquaternion",
            Self::QuatZ => "Zquaternion",
            Self::QuatW => "Wquaternion",
            Self::ScaleX => "Xscale",
            Self::ScaleY => "Yscale",
            Self::ScaleZ => "Zscale",
        }
    }

    /// Short name as ASF writes it (`tx`, `rz`, `l`, ...).
    pub fn short_name(self) -> &'static str {
        match self {
            Self::TranslateX => "tx",
            Self::TranslateY => "ty",
            Self::TranslateZ => "tz",
            Self::RotateX => "rx",
            Self::RotateY => "ry",
            Self::RotateZ => "rz",
            Self::Length => "l",
            Self::QuatX => "qx",
            Self::QuatY => "qy",
            Self::QuatZ => "qz",
            Self::QuatW => "qw",
            Self::ScaleX => "sx",
            Self::ScaleY => "sy",
            Self::ScaleZ => "sz",
        }
    }
}

/// How the listed rotation channels of a joint compose into one rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EulerConvention {
    /// The first listed channel is outermost: `Z X Y` gives R = Rz·Rx·Ry (BVH).
    FirstOutermost,
    /// Channels are applied in listed order: `rx ry rz` gives M = Rz·Ry·Rx (ASF/AMC).
    LastOutermost,
}

/// What a joint's translation channels do to its rest offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PositionRule {
    /// Channel values replace the offset on the axes they name (Blender, bvhio, pybvh).
    #[default]
    Replace,
    /// Channel values are added to the offset (Meredith & Maddock, three.js).
    Add,
}

impl PositionRule {
    /// Lower-case name used on the command line and in `info`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Replace => "replace",
            Self::Add => "add",
        }
    }

    /// Applies a translation channel's value `v` on `axis` (0–2) to `translation`.
    pub fn apply(self, translation: &mut Vec3, axis: usize, v: f32) {
        match self {
            Self::Replace => translation[axis] = v,
            Self::Add => translation[axis] += v,
        }
    }
}

/// A rotation from stored quaternion components `[x, y, z, w]`: normalised; a zero one
/// (junk) is the identity.
pub fn unit_quaternion(xyzw: [f32; 4]) -> Quat {
    let q = Quat::from_array(xyzw);
    if q.length_squared() > 0.0 { q.normalize() } else { Quat::IDENTITY }
}

/// The bone vector `tail` lengthened by `stretch` along itself (ASF `l` channels).
pub fn stretched_tail(tail: Vec3, stretch: f32) -> Vec3 {
    if stretch == 0.0 { tail } else { tail + tail.normalize_or_zero() * stretch }
}

/// Lower and upper angles (radians) about the X, Y and Z axes of a limit frame for a joint's
/// channel rotation. The rotation `R` is read in the limit frame `L` as `L⁻¹·R·L` and split
/// as `Rx(x)·Ry(y)·Rz(z)`; an axis whose two limits are equal is free (H-Anim: "if llimit and
/// ulimit are equal, no constraints are applied").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationLimits {
    /// Smallest allowed angle per axis.
    pub lower: Vec3,
    /// Largest allowed angle per axis.
    pub upper: Vec3,
    /// `joint_from_limit`: the frame the angles are measured in (H-Anim `limitOrientation`).
    pub frame: Quat,
}

impl RotationLimits {
    /// The angles (radians) of `rotation` about the limit frame's X, Y and Z axes.
    pub fn angles(&self, rotation: Quat) -> Vec3 {
        let in_frame = self.frame.inverse() * rotation * self.frame;
        let (x, y, z) = in_frame.to_euler(glam::EulerRot::XYZ);
        Vec3::new(x, y, z)
    }

    /// The largest excess (radians) of `rotation` past a limit, with its axis (0–2) and
    /// whether it is past the upper one; `None` when inside on every constrained axis.
    pub fn excess(&self, rotation: Quat) -> Option<(f32, usize, bool)> {
        let angles = self.angles(rotation);
        let mut worst: Option<(f32, usize, bool)> = None;
        for axis in 0..3 {
            let (lo, hi, v) = (self.lower[axis], self.upper[axis], angles[axis]);
            if lo >= hi {
                continue;
            }
            let (past, upper) = if v > hi { (v - hi, true) } else { (lo - v, false) };
            if past > 0.0 && worst.is_none_or(|w| past > w.0) {
                worst = Some((past, axis, upper));
            }
        }
        worst
    }
}

/// One joint. Its local transform is
/// `parent_from_joint = T(offset ⊕ translation channels) · pre_rotation · R(channels) ·
/// post_rotation · T(tail + length channel)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Name as written in the file (decoded as UTF-8, else Latin-1).
    pub name: String,
    /// Index of the parent joint; always smaller than this joint's index.
    pub parent: Option<usize>,
    /// Rest translation in the parent's frame, applied before the rotation.
    pub offset: Vec3,
    /// Fixed rotation applied before the channel rotation (ASF axis C, HTR base rotation).
    pub pre_rotation: Quat,
    /// Fixed rotation applied after the channel rotation (ASF C⁻¹).
    pub post_rotation: Quat,
    /// Translation applied after the rotation (ASF bone vector `direction × length`).
    pub tail: Vec3,
    /// Channels in the order their values appear in a clip row.
    pub channels: Vec<ChannelKind>,
    /// Index of this joint's first channel within a clip row.
    pub first_channel: usize,
    /// How the rotation channels compose.
    pub euler: EulerConvention,
    /// Lower/upper limits per channel in the clip's units (radians for rotations), if declared.
    pub limits: Vec<(f32, f32)>,
    /// Limits on the whole channel rotation about three axes (H-Anim `llimit`/`ulimit`), for
    /// joints whose rotation is not given as one channel per axis.
    pub rotation_limits: Option<RotationLimits>,
    /// True for a BVH End Site (or another marker without channels that ends a chain).
    pub is_end_site: bool,
    /// A named point on the body (H-Anim site), drawn as a marker without a bone from its parent.
    pub is_marker: bool,
    /// A transform above a skin's joints (glTF `Armature`, `Z_UP`): in the tree and the
    /// inspector, it moves its children, but no bone or joint is drawn for it.
    pub is_transform: bool,
    /// Format-specific facts shown by the inspector and `info` (H-Anim limits and segment,
    /// HTR bone length, ACL bind values), as label/value pairs.
    pub details: Vec<(String, String)>,
    /// The standard humanoid bone it is (VRM's `leftUpperArm`), when the file maps one: the
    /// comparison pairs joints by it.
    pub humanoid: Option<String>,
}

impl Joint {
    /// A joint at `offset` with no channels and identity rotations.
    pub fn new(name: impl Into<String>, parent: Option<usize>, offset: Vec3) -> Self {
        Self {
            name: name.into(),
            parent,
            offset,
            pre_rotation: Quat::IDENTITY,
            post_rotation: Quat::IDENTITY,
            tail: Vec3::ZERO,
            channels: Vec::new(),
            first_channel: 0,
            euler: EulerConvention::FirstOutermost,
            limits: Vec::new(),
            rotation_limits: None,
            is_end_site: false,
            is_marker: false,
            is_transform: false,
            details: Vec::new(),
            humanoid: None,
        }
    }

    /// The channel rotation given by this joint's quaternion channels in `values` (its own
    /// channel values), `None` when it has none. A component the joint lacks reads as the
    /// identity's; a zero quaternion (junk) is the identity.
    pub fn channel_quaternion(&self, values: &[f32]) -> Option<Quat> {
        let mut q = [0.0f32, 0.0, 0.0, 1.0];
        let mut any = false;
        for (kind, &v) in self.channels.iter().zip(values) {
            let k = match kind {
                ChannelKind::QuatX => 0,
                ChannelKind::QuatY => 1,
                ChannelKind::QuatZ => 2,
                ChannelKind::QuatW => 3,
                _ => continue,
            };
            q[k] = v;
            any = true;
        }
        any.then(|| unit_quaternion(q))
    }

    /// The rotation channels in listed order, e.g. `ZXY`.
    pub fn rotation_order(&self) -> String {
        self.channels
            .iter()
            .filter(|c| c.is_rotation())
            .map(|c| match c {
                ChannelKind::RotateX => 'X',
                ChannelKind::RotateY => 'Y',
                _ => 'Z',
            })
            .collect()
    }
}

/// A skeleton whose joints are ordered parents first.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Skeleton {
    joints: Vec<Joint>,
    channels_per_frame: usize,
    rest_values: Option<Vec<f32>>,
    /// How translation channels combine with offsets.
    pub position_rule: PositionRule,
}

/// A skeleton that breaks the ordering or channel-layout invariants. Each variant's fields
/// are the joint index and name and the counts its message names.
#[derive(Debug, Error, PartialEq)]
#[allow(missing_docs)]
pub enum SkeletonError {
    /// A parent index points at itself or a later joint.
    #[error("joint {joint} ('{name}') has parent {parent}, which does not come before it")]
    ParentAfterChild { joint: usize, name: String, parent: usize },
    /// A rest row whose length differs from the channel count.
    #[error("rest pose has {found} values for {expected} channels")]
    RestValues { found: usize, expected: usize },
    /// Channel ranges are not packed in joint order.
    #[error("joint {joint} ('{name}') starts at channel {found}, expected {expected}")]
    ChannelLayout { joint: usize, name: String, found: usize, expected: usize },
    /// A limits list whose length differs from the channel count.
    #[error("joint {joint} ('{name}') has {limits} limits for {channels} channels")]
    LimitCount { joint: usize, name: String, limits: usize, channels: usize },
}

impl Skeleton {
    /// Builds a skeleton, assigning `first_channel` in joint order and checking that every
    /// parent comes before its children.
    pub fn new(mut joints: Vec<Joint>, position_rule: PositionRule) -> Result<Self, SkeletonError> {
        let mut next = 0;
        for (i, joint) in joints.iter_mut().enumerate() {
            if let Some(p) = joint.parent
                && p >= i
            {
                return Err(SkeletonError::ParentAfterChild { joint: i, name: joint.name.clone(), parent: p });
            }
            if !joint.limits.is_empty() && joint.limits.len() != joint.channels.len() {
                return Err(SkeletonError::LimitCount {
                    joint: i,
                    name: joint.name.clone(),
                    limits: joint.limits.len(),
                    channels: joint.channels.len(),
                });
            }
            joint.first_channel = next;
            next += joint.channels.len();
        }
        Ok(Self { joints, channels_per_frame: next, rest_values: None, position_rule })
    }

    /// Sets the channel values of the rest pose (ACL bind pose, H-Anim field values); without
    /// them the rest pose is offsets and fixed rotations with channels ignored (BVH, ASF, HTR).
    pub fn with_rest_values(mut self, values: Vec<f32>) -> Result<Self, SkeletonError> {
        if values.len() != self.channels_per_frame {
            return Err(SkeletonError::RestValues { found: values.len(), expected: self.channels_per_frame });
        }
        self.rest_values = Some(values);
        Ok(self)
    }

    /// The rest pose's channel values, where the format defines one.
    pub fn rest_values(&self) -> Option<&[f32]> {
        self.rest_values.as_deref()
    }

    /// All joints, parents before children.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Number of joints (end sites included).
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// True when the skeleton has no joints.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// Number of f32 values in one clip row.
    pub fn channels_per_frame(&self) -> usize {
        self.channels_per_frame
    }

    /// Indices of the joints without a parent.
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.joints.iter().enumerate().filter(|(_, j)| j.parent.is_none()).map(|(i, _)| i)
    }

    /// Index of the joint with this exact name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Indices of the direct children of `joint`. Scans every joint: for all joints at once
    /// use [`Skeleton::child_counts`] or [`Skeleton::child_lists`].
    pub fn children(&self, joint: usize) -> impl Iterator<Item = usize> + '_ {
        self.joints.iter().enumerate().filter(move |(_, j)| j.parent == Some(joint)).map(|(i, _)| i)
    }

    /// How many direct children each joint has, in one pass.
    pub fn child_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.joints.len()];
        for p in self.joints.iter().filter_map(|j| j.parent) {
            counts[p] += 1;
        }
        counts
    }

    /// Each joint's direct children in order, in one pass.
    pub fn child_lists(&self) -> Vec<Vec<usize>> {
        let mut lists = vec![Vec::new(); self.joints.len()];
        for (i, j) in self.joints.iter().enumerate() {
            if let Some(p) = j.parent {
                lists[p].push(i);
            }
        }
        lists
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_limits_read_angles_in_their_frame() {
        let (x, y, z) = (0.3f32, -0.5f32, 1.1f32);
        let r = Quat::from_rotation_x(x) * Quat::from_rotation_y(y) * Quat::from_rotation_z(z);
        let free = RotationLimits { lower: Vec3::ZERO, upper: Vec3::ZERO, frame: Quat::IDENTITY };
        assert!((free.angles(r) - Vec3::new(x, y, z)).abs().max_element() < 1e-5);
        assert_eq!(free.excess(r), None, "equal limits are free");
        // The same turn seen from a frame turned 90° about Z: the X turn reads as a Y turn.
        let frame = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let turned = RotationLimits { lower: Vec3::splat(-0.2), upper: Vec3::splat(0.2), frame };
        let a = turned.angles(frame * Quat::from_rotation_x(0.5) * frame.inverse());
        assert!((a - Vec3::new(0.5, 0.0, 0.0)).abs().max_element() < 1e-5, "{a}");
        // The joint's Y axis is the limit frame's X axis.
        let (past, axis, upper) = turned.excess(Quat::from_rotation_y(0.5)).unwrap();
        assert!((past - 0.3).abs() < 1e-5 && axis == 0 && upper, "{past} {axis} {upper}");
        assert_eq!(turned.excess(Quat::from_rotation_z(0.1)), None);
    }

    #[test]
    fn channel_quaternion_reads_its_four_channels() {
        let mut j = Joint::new("j", None, Vec3::ZERO);
        assert_eq!(j.channel_quaternion(&[]), None);
        j.channels = vec![ChannelKind::TranslateX, ChannelKind::QuatW, ChannelKind::QuatX, ChannelKind::QuatY, ChannelKind::QuatZ];
        assert_eq!(j.channel_quaternion(&[5.0, 2.0, 0.0, 0.0, 0.0]), Some(Quat::IDENTITY));
        assert_eq!(j.channel_quaternion(&[5.0, 0.0, 0.0, 0.0, 0.0]), Some(Quat::IDENTITY), "zero is junk: identity");
    }

    #[test]
    fn rejects_parent_after_child() {
        let joints = vec![Joint::new("a", Some(1), Vec3::ZERO), Joint::new("b", None, Vec3::ZERO)];
        assert!(matches!(Skeleton::new(joints, PositionRule::Replace), Err(SkeletonError::ParentAfterChild { joint: 0, .. })));
    }

    #[test]
    fn packs_channels_in_joint_order() {
        let mut a = Joint::new("a", None, Vec3::ZERO);
        a.channels = vec![ChannelKind::TranslateX, ChannelKind::RotateZ];
        let mut b = Joint::new("b", Some(0), Vec3::ZERO);
        b.channels = vec![ChannelKind::RotateY];
        let s = Skeleton::new(vec![a, b], PositionRule::Replace).unwrap();
        assert_eq!(s.channels_per_frame(), 3);
        assert_eq!(s.joints()[1].first_channel, 2);
        assert_eq!(s.roots().collect::<Vec<_>>(), vec![0]);
        assert_eq!(s.children(0).collect::<Vec<_>>(), vec![1]);
        let lists = s.child_lists();
        assert_eq!(lists[0], vec![1]);
        assert_eq!(s.child_counts(), lists.iter().map(Vec::len).collect::<Vec<_>>());
    }
}
