//! The source's frames posed in display space (metres, +Y up) for the transfer: each joint's
//! global rotation and place. Every frame of a take goes through here, so frames are posed
//! by the batch tools' [`FramePoser`]: eight at a time in vector lanes, each joint's read of a
//! row worked out once ([`crate::core::clip_fk::ClipFk`]).

use glam::{Mat4, Quat, Vec3};

use crate::core::Motion;
use crate::core::batch::FramePoser;
use crate::core::clip_fk::FramePose;
use crate::core::pose::GlobalPose;

/// One pose in display space: each joint's global rotation and position.
pub(super) struct Posed {
    pub(super) rot: Vec<Quat>,
    pub(super) pos: Vec<Vec3>,
}

impl Posed {
    pub(super) fn empty() -> Self {
        Self { rot: Vec::new(), pos: Vec::new() }
    }
}

/// `global` in display space: through `display` (units and up axis) and `a` (the axes' turn).
pub(super) fn posed(global: &GlobalPose, display: Mat4, a: Quat) -> Posed {
    let rot = global.world_from_joint.iter().map(|g| (a * rotation_of(g) * a.inverse()).normalize()).collect();
    let pos = (0..global.world_from_joint.len()).map(|j| display.transform_point3(global.position(j))).collect();
    Posed { rot, pos }
}

/// The rotation of a transform that may carry scale.
fn rotation_of(g: &glam::Affine3A) -> Quat {
    let (_, r, _) = g.to_scale_rotation_translation();
    r
}

/// The source posed frame after frame, in display space.
pub(super) struct SourcePoser<'a> {
    source: &'a Motion,
    display: Mat4,
    axes: Quat,
    /// The joints the transfer reads: only they are taken to display space.
    needed: &'a [bool],
}

impl<'a> SourcePoser<'a> {
    /// The poser of `source` for the joints `needed` names.
    pub(super) fn new(source: &'a Motion, display: Mat4, axes: Quat, needed: &'a [bool]) -> Self {
        Self { source, display, axes, needed }
    }

    /// A task's poser (each keeps its own group of eight frames).
    pub(super) fn scratch(&self) -> FramePoser {
        FramePoser::new(self.source)
    }

    /// Frame `frame` posed into `out` (the rest pose for a clip without frames): frames
    /// asked for in order are posed once per eight, in vector lanes, and the joints read
    /// taken to display space straight from the frame's lane.
    pub(super) fn pose(&self, frame: usize, poser: &mut FramePoser, out: &mut Posed) {
        let Some((lanes, k)) = poser.lanes_at(self.source, frame) else {
            // A skeleton that scales, or a clip without frames: a frame at a time.
            return to_display(poser.pose(self.source, frame), self.display, self.axes, self.needed, out);
        };
        let (r, p) = (&lanes.world_rotation, &lanes.world_position);
        let at =
            |j: usize| (Quat::from_xyzw(r[j][0][k], r[j][1][k], r[j][2][k], r[j][3][k]), Vec3::new(p[j][0][k], p[j][1][k], p[j][2][k]));
        into_display(r.len(), at, self.display, self.axes, self.needed, out);
    }
}

/// The `needed` joints of a file-space pose in display space, into `out` (the others left
/// as they were).
fn to_display(file: &FramePose, display: Mat4, axes: Quat, needed: &[bool], out: &mut Posed) {
    let at = |j: usize| (file.world_rotation[j], file.world_position[j]);
    into_display(file.world_rotation.len(), at, display, axes, needed, out);
}

/// The `needed` of `n` joints, each's file-space world rotation and place given by `at`, in
/// display space into `out` (the others left as they were).
#[inline(always)]
fn into_display(n: usize, at: impl Fn(usize) -> (Quat, Vec3), display: Mat4, axes: Quat, needed: &[bool], out: &mut Posed) {
    out.rot.resize(n, Quat::IDENTITY);
    out.pos.resize(n, Vec3::ZERO);
    let turn = axes != Quat::IDENTITY;
    for (j, _) in needed.iter().enumerate().filter(|(_, n)| **n) {
        let (r, p) = at(j);
        out.rot[j] = if turn { axes * r * axes.inverse() } else { r }.normalize();
        out.pos[j] = display.transform_point3(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clip_fk::ClipFk;
    use crate::core::pose::{LocalPose, frame_pose, global_pose};
    use crate::core::{ChannelKind as K, Clip, EulerConvention, Joint, PositionRule, Skeleton};

    /// Joints of many kinds: channels in odd orders, two rotations, translations on a child
    /// in a scrambled order, a tail, a joint with none.
    fn odd(rule: PositionRule, euler: EulerConvention) -> (Skeleton, Clip) {
        let joint = |name: &str, parent: Option<usize>, offset: [f32; 3], channels: &[K]| Joint {
            channels: channels.to_vec(),
            euler,
            ..Joint::new(name, parent, Vec3::from(offset))
        };
        let joints = vec![
            joint("Hips", None, [1.0, 2.0, 3.0], &[K::TranslateZ, K::TranslateX, K::TranslateY, K::RotateY, K::RotateX, K::RotateZ]),
            joint("Chest", Some(0), [0.0, 10.0, 0.0], &[K::TranslateY, K::RotateX, K::TranslateZ, K::RotateZ, K::TranslateX]),
            Joint { tail: Vec3::new(0.0, 2.0, 0.5), ..joint("Neck", Some(1), [0.0, 8.0, 1.0], &[K::RotateX, K::RotateZ, K::RotateY]) },
            joint("NeckEnd", Some(2), [0.0, 4.0, 0.0], &[]),
            joint("Leg", Some(0), [3.0, -1.0, 0.0], &[]),
            joint("Shin", Some(4), [0.0, -9.0, 0.0], &[K::RotateZ, K::RotateX]),
            joint("ShinEnd", Some(5), [0.0, -9.0, 0.0], &[]),
        ];
        let skeleton = Skeleton::new(joints, rule).unwrap();
        let cpf = skeleton.channels_per_frame();
        let values: Vec<f32> = (0..3 * cpf).map(|k| ((k * 37 % 23) as f32 - 11.0) * 0.29).collect();
        (skeleton, Clip::new(0.1, cpf, 3, values))
    }

    #[test]
    fn the_display_pose_is_the_viewers() {
        // A Z-up file in centimetres; the joints not needed are left alone.
        let axes = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        let display = Mat4::from_quat(axes) * Mat4::from_scale(Vec3::splat(0.01));
        let conventions = [EulerConvention::FirstOutermost, EulerConvention::LastOutermost];
        for (rule, convention) in [PositionRule::Replace, PositionRule::Add].into_iter().flat_map(|r| conventions.map(|c| (r, c))) {
            let (skeleton, clip) = odd(rule, convention);
            let needed: Vec<bool> = (0..skeleton.len()).map(|j| j != 6).collect();
            let (mut fk, mut file, mut out) = (ClipFk::new(&skeleton), FramePose::default(), Posed::empty());
            let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
            for f in 0..clip.num_frames() {
                fk.pose_frame(&skeleton, clip.frame(f), &mut file);
                to_display(&file, display, axes, &needed, &mut out);
                frame_pose(&skeleton, &clip, f, &mut local);
                global_pose(&skeleton, &local, &mut global);
                let want = posed(&global, display, axes);
                for j in (0..skeleton.len()).filter(|&j| needed[j]) {
                    assert!(out.rot[j].dot(want.rot[j]).abs() > 1.0 - 1e-6, "{rule:?} {convention:?} frame {f} joint {j}");
                    assert!(out.pos[j].distance(want.pos[j]) < 1e-5, "{rule:?} {convention:?} frame {f} joint {j}");
                }
                assert_eq!((out.rot[6], out.pos[6]), (Quat::IDENTITY, Vec3::ZERO), "a joint not needed is not posed");
            }
        }
    }
}
