//! The viewer's way from a clip to a pose: time (or frame, or rest) → local pose → global pose
//! → joint positions in any space, in buffers the caller keeps so that nothing allocates once
//! warm. The viewer, comparison, overlays and renders use it; passes over whole frames
//! (positions, measurements, checks, the Python package) use [`super::batch`], which gives
//! the same poses to rounding (tests/batch_poses.rs).

use glam::{Mat4, Vec3};

use super::clip::{Clip, Interpolation};
use super::motion::Motion;
use super::pose::{self, GlobalPose, LocalPose};
use super::skeleton::Skeleton;

/// Which pose of a clip to take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PoseAt {
    /// The clip's own time in seconds, clamped to the clip (the rest pose when it has no frames).
    Time(f64),
    /// A whole frame, clamped to the clip (the rest pose when it has no frames).
    Frame(usize),
    /// Channels ignored: the format's bind pose.
    Rest,
}

/// Reusable buffers for posing one skeleton.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sampler {
    /// `parent_from_joint` of the last pose.
    pub local: LocalPose,
    /// `world_from_joint` of the last pose (file space).
    pub global: GlobalPose,
    /// Joint origins of the last pose after the last [`Sampler::place`].
    pub positions: Vec<Vec3>,
}

impl Sampler {
    /// Poses `skeleton` from `clip` into `local` and `global`.
    pub fn pose(&mut self, skeleton: &Skeleton, clip: &Clip, at: PoseAt, interpolation: Interpolation) -> &GlobalPose {
        match at {
            PoseAt::Rest => pose::rest_pose(skeleton, &mut self.local),
            PoseAt::Frame(f) => pose::frame_pose(skeleton, clip, f, &mut self.local),
            PoseAt::Time(t) => pose::sample_pose(skeleton, clip, t, interpolation, &mut self.local),
        }
        pose::global_pose(skeleton, &self.local, &mut self.global);
        &self.global
    }

    /// Joint origins of the last pose mapped by `space_from_file` into `positions`.
    pub fn place(&mut self, space_from_file: Mat4) -> &[Vec3] {
        joint_positions(&self.global, space_from_file, &mut self.positions);
        &self.positions
    }

    /// [`Sampler::pose`] then [`Sampler::place`] for a loaded motion.
    pub fn positions(&mut self, m: &Motion, at: PoseAt, interpolation: Interpolation, space_from_file: Mat4) -> &[Vec3] {
        self.pose(&m.skeleton, &m.clip, at, interpolation);
        self.place(space_from_file)
    }
}

/// Joint origins of `pose` mapped by `space_from_file`.
pub fn joint_positions(pose: &GlobalPose, space_from_file: Mat4, out: &mut Vec<Vec3>) {
    out.clear();
    out.extend(pose.world_from_joint.iter().map(|m| space_from_file.transform_point3(m.translation.into())));
}

/// Smallest box around `points` (`None` when empty or when no point is finite).
pub fn bounds_of(points: &[Vec3]) -> Option<(Vec3, Vec3)> {
    let (lo, hi) = points
        .iter()
        .filter(|p| p.is_finite())
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    (lo.x <= hi.x).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Joint, PositionRule};

    #[test]
    fn poses_frames_times_and_rest_into_the_same_buffers() {
        let mut root = Joint::new("root", None, Vec3::ZERO);
        root.channels = vec![crate::core::ChannelKind::TranslateX];
        let skeleton = Skeleton::new(vec![root, Joint::new("tip", Some(0), Vec3::Y)], PositionRule::Replace).unwrap();
        let clip = Clip::new(0.5, 1, 3, vec![0.0, 2.0, 4.0]);
        let mut s = Sampler::default();
        s.pose(&skeleton, &clip, PoseAt::Frame(1), Interpolation::Linear);
        assert_eq!(s.place(Mat4::IDENTITY), &[Vec3::new(2.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 0.0)]);
        s.pose(&skeleton, &clip, PoseAt::Time(0.75), Interpolation::Linear);
        assert_eq!(s.place(Mat4::from_scale(Vec3::splat(2.0)))[0], Vec3::new(6.0, 0.0, 0.0));
        s.pose(&skeleton, &clip, PoseAt::Time(0.75), Interpolation::Nearest);
        assert_eq!(s.place(Mat4::IDENTITY)[0], Vec3::new(4.0, 0.0, 0.0), "0.75 s rounds to frame 2");
        s.pose(&skeleton, &clip, PoseAt::Rest, Interpolation::Linear);
        assert_eq!(s.place(Mat4::IDENTITY)[1], Vec3::Y);
        assert_eq!(bounds_of(&s.positions), Some((Vec3::ZERO, Vec3::Y)));
        assert_eq!(bounds_of(&[Vec3::NAN]), None);
    }
}
