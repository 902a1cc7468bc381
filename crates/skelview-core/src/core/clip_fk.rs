//! Forward kinematics for passes over a whole clip (checks, batch tools): each joint's
//! channels are sorted once by what they drive, so posing a frame walks plain column indices
//! instead of matching channel kinds, and transforms stay rotation + translation (no
//! matrices) when nothing scales. Frames are posed eight at a time ([`lanes`]); skeletons
//! that scale take the viewer's matrix path.

pub(crate) mod lanes;

use glam::{Quat, Vec3};
pub use lanes::{LANES, LanePose, Lanes};

use super::pose::{self, GlobalPose, LocalPose};
use super::skeleton::{ChannelKind, EulerConvention, PositionRule, Skeleton};

/// How one joint's row values become its `parent_from_joint`.
#[derive(Clone, Debug)]
struct JointPlan {
    parent: Option<usize>,
    offset: Vec3,
    /// `None` when identity: most formats have no fixed rotations.
    pre: Option<Quat>,
    post: Option<Quat>,
    tail: Vec3,
    /// Euler rotations as (axis 0–2, row column), in composition order (outermost first);
    /// joints with more than three rotation channels use the rest through `extra_euler`.
    euler: [(u8, usize); 3],
    /// How many of `euler` are used.
    euler_len: usize,
    /// Rotation channels past the third (rare: repeated axes).
    extra_euler: Vec<(u8, usize)>,
    /// Columns of x, y, z, w when the rotation is a quaternion.
    quat: Option<[usize; 4]>,
    /// Translations as (axis 0–2, row column).
    translate: Vec<(u8, usize)>,
    /// Bone-stretch columns (ASF `l`), added to the tail's length.
    length: Vec<usize>,
}

/// A skeleton compiled for [`ClipFk::pose_frame`]. Gives the same pose as
/// [`pose::frame_pose`] + [`pose::global_pose`] (to rounding).
#[derive(Clone, Debug)]
pub struct ClipFk {
    plans: Vec<JointPlan>,
    rule: PositionRule,
    /// A joint scales: world transforms then need matrices, and the general path is used.
    scales: bool,
    local: LocalPose,
    global: GlobalPose,
    /// Some joint has Euler channels (else no half angles are needed).
    has_euler: bool,
    /// sin and cos of half of every value of the group being posed, channel-major
    /// ([`ClipFk::pose_lanes`]).
    half_sin: Vec<f32>,
    half_cos: Vec<f32>,
    /// The group's values, channel-major ([`ClipFk::pose_lanes`]).
    lane_values: Vec<f32>,
    /// The lanes [`ClipFk::pose_frame`] poses one frame in.
    one_frame: LanePose,
}

/// One frame's result: per joint, the local rotation and translation and the world origin.
#[derive(Clone, Debug, Default)]
pub struct FramePose {
    /// `parent_from_joint` rotation.
    pub local_rotation: Vec<Quat>,
    /// `parent_from_joint` translation (file units).
    pub local_translation: Vec<Vec3>,
    /// `world_from_joint` rotation (file axes): the chain of local rotations, scales left out.
    pub world_rotation: Vec<Quat>,
    /// Joint origin in file space.
    pub world_position: Vec<Vec3>,
}

fn axis_of(kind: ChannelKind) -> Option<u8> {
    match kind {
        ChannelKind::RotateX | ChannelKind::TranslateX => Some(0),
        ChannelKind::RotateY | ChannelKind::TranslateY => Some(1),
        ChannelKind::RotateZ | ChannelKind::TranslateZ => Some(2),
        _ => None,
    }
}

impl ClipFk {
    /// Compiles `skeleton`.
    pub fn new(skeleton: &Skeleton) -> Self {
        let mut scales = false;
        let plans: Vec<JointPlan> = skeleton
            .joints()
            .iter()
            .map(|j| {
                let (mut euler, mut translate, mut length) = (Vec::new(), Vec::new(), Vec::new());
                let mut quat = [usize::MAX; 4];
                for (i, &kind) in j.channels.iter().enumerate() {
                    let col = j.first_channel + i;
                    match kind {
                        k if k.is_rotation() => euler.extend(axis_of(k).map(|a| (a, col))),
                        k if k.is_translation() => translate.extend(axis_of(k).map(|a| (a, col))),
                        ChannelKind::Length => length.push(col),
                        ChannelKind::QuatX => quat[0] = col,
                        ChannelKind::QuatY => quat[1] = col,
                        ChannelKind::QuatZ => quat[2] = col,
                        ChannelKind::QuatW => quat[3] = col,
                        ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ => scales = true,
                        _ => {}
                    }
                }
                if j.euler == EulerConvention::LastOutermost {
                    euler.reverse();
                }
                // A joint names all four quaternion channels or none; a partial set reads the
                // identity's value for the missing ones, as `Joint::channel_quaternion` does.
                let quat = quat.iter().any(|&c| c != usize::MAX).then_some(quat);
                let euler_len = euler.len().min(3);
                let mut first_three = [(0u8, 0usize); 3];
                first_three[..euler_len].copy_from_slice(&euler[..euler_len]);
                JointPlan {
                    parent: j.parent,
                    offset: j.offset,
                    pre: (j.pre_rotation != Quat::IDENTITY).then_some(j.pre_rotation),
                    post: (j.post_rotation != Quat::IDENTITY).then_some(j.post_rotation),
                    tail: j.tail,
                    euler: first_three,
                    euler_len,
                    extra_euler: euler.split_off(euler_len),
                    quat,
                    translate,
                    length,
                }
            })
            .collect();
        Self {
            has_euler: plans.iter().any(|p: &JointPlan| p.euler_len > 0),
            plans,
            rule: skeleton.position_rule,
            scales,
            local: LocalPose::default(),
            global: GlobalPose::default(),
            half_sin: Vec::new(),
            half_cos: Vec::new(),
            lane_values: Vec::new(),
            one_frame: LanePose::default(),
        }
    }

    /// Poses one clip row (`row` holds every channel of a frame) into `out`. Skeletons that do
    /// not scale go through [`ClipFk::pose_lanes`] (the one forward kinematics of the batch
    /// tools) with the row in every lane; callers that pose runs of frames group them
    /// ([`crate::core::batch::FramePoser`]) and pay once per eight.
    pub fn pose_frame(&mut self, skeleton: &Skeleton, row: &[f32], out: &mut FramePose) {
        if self.scales {
            let n = self.plans.len();
            out.local_rotation.resize(n, Quat::IDENTITY);
            out.local_translation.resize(n, Vec3::ZERO);
            out.world_position.resize(n, Vec3::ZERO);
            out.world_rotation.resize(n, Quat::IDENTITY);
            return self.pose_general(skeleton, row, out);
        }
        let mut lanes = std::mem::take(&mut self.one_frame);
        self.pose_lanes([row; LANES], &mut lanes);
        lanes.lane_into(0, out);
        self.one_frame = lanes;
    }

    /// Scaling skeletons: the matrix path of the viewer.
    fn pose_general(&mut self, skeleton: &Skeleton, row: &[f32], out: &mut FramePose) {
        self.local.parent_from_joint.clear();
        self.local.parent_from_joint.extend(
            skeleton
                .joints()
                .iter()
                .map(|j| pose::joint_local(j, Some(&row[j.first_channel..j.first_channel + j.channels.len()]), skeleton.position_rule)),
        );
        pose::global_pose(skeleton, &self.local, &mut self.global);
        for (j, (l, w)) in self.local.parent_from_joint.iter().zip(&self.global.world_from_joint).enumerate() {
            out.local_rotation[j] = l.rotation;
            out.local_translation[j] = l.translation;
            out.world_position[j] = w.translation.into();
            // The chain of rotations, scales left out: under a non-uniform or zero scale the
            // world matrix holds no rotation to take out.
            out.world_rotation[j] = match skeleton.joints()[j].parent {
                Some(p) => out.world_rotation[p] * l.rotation,
                None => l.rotation,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Clip, Joint};

    /// Every kind of joint the compiler sorts: Euler in both conventions, fixed rotations,
    /// a tail with a stretch, a quaternion, a repeated axis, a plain tail, translations under
    /// both position rules; last, one that scales.
    pub(super) fn skeletons() -> Vec<(Skeleton, usize)> {
        use ChannelKind::*;
        let mut out = Vec::new();
        for rule in [PositionRule::Replace, PositionRule::Add] {
            let mut root = Joint::new("root", None, Vec3::new(1.0, 2.0, 3.0));
            root.channels = vec![TranslateX, TranslateY, TranslateZ, RotateZ, RotateX, RotateY];
            let mut asf = Joint::new("asf", Some(0), Vec3::new(0.0, 1.0, 0.0));
            asf.channels = vec![RotateX, RotateY, RotateZ, Length];
            asf.euler = EulerConvention::LastOutermost;
            asf.pre_rotation = Quat::from_rotation_y(0.4) * Quat::from_rotation_x(-0.2);
            asf.post_rotation = asf.pre_rotation.inverse();
            asf.tail = Vec3::new(0.0, 0.0, 2.0);
            let mut q = Joint::new("quat", Some(1), Vec3::new(0.5, 0.0, 0.0));
            q.channels = vec![QuatX, QuatY, QuatZ, QuatW, TranslateY];
            let mut twice = Joint::new("twice", Some(2), Vec3::new(0.0, 0.3, 0.0));
            twice.channels = vec![RotateY, RotateX, RotateY, RotateZ];
            let mut tailed = Joint::new("tailed", Some(3), Vec3::new(0.2, 0.0, 0.1));
            tailed.channels = vec![RotateX];
            tailed.tail = Vec3::new(0.0, 0.4, 0.0);
            let mut end = Joint::new("end", Some(4), Vec3::new(0.0, 0.3, 0.0));
            end.is_end_site = true;
            out.push((Skeleton::new(vec![root, asf, q, twice, tailed, end], rule).unwrap(), 20));
        }
        let mut scaled = Joint::new("scaled", None, Vec3::ZERO);
        scaled.channels = vec![RotateZ, ScaleX];
        let child = Joint::new("child", Some(0), Vec3::X);
        out.push((Skeleton::new(vec![scaled, child], PositionRule::Replace).unwrap(), 2));
        out
    }

    #[test]
    fn matches_the_viewer_pose() {
        for (skeleton, channels) in skeletons() {
            let mut fk = ClipFk::new(&skeleton);
            let (mut local, mut global, mut out) = (LocalPose::default(), GlobalPose::default(), FramePose::default());
            for frame in 0..20 {
                let row: Vec<f32> = (0..channels).map(|c| ((frame * 7 + c * 13) % 17) as f32 * 0.37 - 2.5).collect();
                let clip = Clip::new(1.0, channels, 1, row.clone());
                pose::frame_pose(&skeleton, &clip, 0, &mut local);
                pose::global_pose(&skeleton, &local, &mut global);
                fk.pose_frame(&skeleton, &row, &mut out);
                for j in 0..skeleton.len() {
                    let (want, got) = (global.position(j), out.world_position[j]);
                    assert!((want - got).length() < 1e-4, "frame {frame} joint {j}: {want} vs {got}");
                    let (want_r, got_r) = (local.parent_from_joint[j].rotation, out.local_rotation[j]);
                    assert!(want_r.dot(got_r).abs() > 1.0 - 1e-5, "frame {frame} joint {j}: {want_r} vs {got_r}");
                    assert!((local.parent_from_joint[j].translation - out.local_translation[j]).length() < 1e-4);
                }
            }
        }
    }
}
