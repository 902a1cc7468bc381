//! The source's frames posed in display space (metres, +Y up) for the transfer: each joint's
//! global rotation and place. Every frame of a take goes through here, so the way each joint
//! reads a row is found once ([`SourcePoser`]): three Euler channels and maybe three
//! translations, the joints of nearly every capture, composed straight from the row.

use glam::{EulerRot, Mat4, Quat, Vec3};

use crate::core::pose::{GlobalPose, LocalPose, frame_pose_of, global_pose};
use crate::core::rotation_channels::{RotationChannels, from_tait_bryan, translation_channels};
use crate::core::{ChannelKind, EulerConvention, Joint, PositionRule, Skeleton};

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
    let mut p = Posed::empty();
    posed_into(global, display, a, &mut p);
    p
}

/// [`posed`] into `out`'s buffers (reused frame after frame).
fn posed_into(global: &GlobalPose, display: Mat4, a: Quat, out: &mut Posed) {
    out.rot.clear();
    out.rot.extend(global.world_from_joint.iter().map(|g| (a * rotation_of(g) * a.inverse()).normalize()));
    out.pos.clear();
    out.pos.extend((0..global.world_from_joint.len()).map(|j| display.transform_point3(global.position(j))));
}

/// The rotation of a transform that may carry scale.
fn rotation_of(g: &glam::Affine3A) -> Quat {
    let (_, r, _) = g.to_scale_rotation_translation();
    r
}

/// How one joint reads a row.
#[derive(Clone, Copy)]
enum Read {
    /// Not read by the transfer (nor any joint it reads hangs from it): left as it is.
    Skip,
    /// Up to three rotation channels, and a translation from three channels (one of each
    /// axis) or the offset alone; a tail turned with the joint.
    Plain { turns: Turns, translation: Option<[usize; 3]>, offset: Vec3, tail: Vec3 },
}

/// A plain joint's rotation channels.
#[derive(Clone, Copy)]
enum Turns {
    /// Three about different axes (nearly every joint of every capture): glam's order and
    /// the channels' row indices in that order.
    TaitBryan(EulerRot, [usize; 3]),
    /// Up to three about any axes, composed as listed (`outer_first`) or the other way round.
    Any { turns: [(usize, Axis); 3], count: usize, outer_first: bool },
}

#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
    Z,
}

/// The source posed frame after frame.
pub(super) struct SourcePoser<'a> {
    skeleton: &'a Skeleton,
    display: Mat4,
    axes: Quat,
    needed: &'a [bool],
    /// Each joint's read, when every joint that is read reads plainly (no more than three rotation
    /// channels, none or one translation channel per axis, no quaternion, scale or stretch
    /// channels, no fixed pre- or post-rotations); else every frame goes through
    /// [`frame_pose_of`] and [`global_pose`].
    plan: Option<Vec<Read>>,
}

/// A task's buffers for the general path.
#[derive(Default)]
pub(super) struct PoseScratch {
    local: LocalPose,
    global: GlobalPose,
}

impl<'a> SourcePoser<'a> {
    /// The poser of `skeleton` (display transform `display`, axes `axes`) for the joints
    /// `needed` names (their ancestors among them).
    pub(super) fn new(skeleton: &'a Skeleton, display: Mat4, axes: Quat, needed: &'a [bool]) -> Self {
        // A joint read is composed from its parent's pose: the parent must be read too.
        debug_assert!(skeleton.joints().iter().zip(needed).all(|(j, &n)| !n || j.parent.is_none_or(|p| needed[p])));
        let plan = skeleton.joints().iter().zip(needed).map(|(j, &n)| if n { plain(j) } else { Some(Read::Skip) }).collect();
        Self { skeleton, display, axes, needed, plan }
    }

    /// Frame `frame` of `clip` posed into `out`.
    pub(super) fn pose(&self, clip: &crate::core::Clip, frame: usize, scratch: &mut PoseScratch, out: &mut Posed) {
        // A clip without frames poses the rest (the general path knows it).
        let plan = self.plan.as_ref().filter(|_| clip.num_frames() > 0);
        let Some(plan) = plan else {
            frame_pose_of(self.skeleton, clip, frame, |j| self.needed[j], &mut scratch.local);
            return general(self.skeleton, &scratch.local, self.display, self.axes, &mut scratch.global, out);
        };
        let row = clip.frame(frame.min(clip.num_frames() - 1));
        let n = plan.len();
        out.rot.resize(n, Quat::IDENTITY);
        out.pos.resize(n, Vec3::ZERO);
        // File space first (each joint from its parent's file-space rotation and place).
        for (j, (read, joint)) in plan.iter().zip(self.skeleton.joints()).enumerate() {
            let Read::Plain { turns, translation, offset, tail } = *read else { continue };
            let local = match turns {
                Turns::TaitBryan(order, [a, b, c]) => from_tait_bryan(order, row[a], row[b], row[c]).unwrap_or_default(),
                Turns::Any { turns, count, outer_first } => {
                    let mut local = Quat::IDENTITY;
                    for &(at, axis) in &turns[..count] {
                        let (s, c) = (row[at] * 0.5).sin_cos();
                        let q = match axis {
                            Axis::X => Quat::from_xyzw(s, 0.0, 0.0, c),
                            Axis::Y => Quat::from_xyzw(0.0, s, 0.0, c),
                            Axis::Z => Quat::from_xyzw(0.0, 0.0, s, c),
                        };
                        local = if outer_first { local * q } else { q * local };
                    }
                    local
                }
            };
            let mut t = match (translation, self.skeleton.position_rule) {
                (Some([x, y, z]), PositionRule::Replace) => Vec3::new(row[x], row[y], row[z]),
                (Some([x, y, z]), PositionRule::Add) => offset + Vec3::new(row[x], row[y], row[z]),
                (None, _) => offset,
            };
            if tail != Vec3::ZERO {
                t += local * tail;
            }
            (out.rot[j], out.pos[j]) = match joint.parent {
                Some(p) => (out.rot[p] * local, out.pos[p] + out.rot[p] * t),
                None => (local, t),
            };
        }
        // Then display space, for the joints read.
        let turn = self.axes != Quat::IDENTITY;
        for ((r, p), _) in out.rot.iter_mut().zip(&mut out.pos).zip(self.needed).filter(|(_, n)| **n) {
            *r = if turn { self.axes * *r * self.axes.inverse() } else { *r }.normalize();
            *p = self.display.transform_point3(*p);
        }
    }
}

/// How `joint` reads a row, when it reads plainly.
fn plain(joint: &Joint) -> Option<Read> {
    if joint.pre_rotation != Quat::IDENTITY || joint.post_rotation != Quat::IDENTITY {
        return None;
    }
    let mut turns = [(0, Axis::X); 3];
    let mut count = 0;
    for (i, kind) in joint.channels.iter().enumerate() {
        let axis = match kind {
            ChannelKind::RotateX => Axis::X,
            ChannelKind::RotateY => Axis::Y,
            ChannelKind::RotateZ => Axis::Z,
            ChannelKind::TranslateX | ChannelKind::TranslateY | ChannelKind::TranslateZ => continue,
            _ => return None,
        };
        *turns.get_mut(count)? = (joint.first_channel + i, axis);
        count += 1;
    }
    let moves =
        joint.channels.iter().filter(|k| matches!(k, ChannelKind::TranslateX | ChannelKind::TranslateY | ChannelKind::TranslateZ)).count();
    let translation = translation_channels(joint);
    if moves != 0 && (moves != 3 || translation.is_none()) {
        return None;
    }
    let outer_first = joint.euler == EulerConvention::FirstOutermost;
    let turns = match RotationChannels::of(joint) {
        Some(RotationChannels::Euler { at, order, .. }) if count == 3 && from_tait_bryan(order, 0.0, 0.0, 0.0).is_some() => {
            Turns::TaitBryan(order, if outer_first { at } else { [at[2], at[1], at[0]] })
        }
        _ => Turns::Any { turns, count, outer_first },
    };
    Some(Read::Plain { turns, translation, offset: joint.offset, tail: joint.tail })
}

/// The frame `local` posed into `out` through [`global_pose`] (any joint: scale, quaternion
/// channels, fixed rotations).
fn general(skeleton: &Skeleton, local: &LocalPose, display: Mat4, a: Quat, global: &mut GlobalPose, out: &mut Posed) {
    global_pose(skeleton, local, global);
    posed_into(global, display, a, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ChannelKind as K, Clip};

    /// Joints of every plain kind: channels in odd orders, two rotations, translations on a
    /// child in a scrambled order, a tail, a joint with none.
    fn odd(rule: PositionRule, euler: EulerConvention, four: bool) -> (Skeleton, Clip) {
        let joint = |name: &str, parent: Option<usize>, offset: [f32; 3], channels: &[K]| Joint {
            channels: channels.to_vec(),
            euler,
            ..Joint::new(name, parent, Vec3::from(offset))
        };
        let neck: &[K] = if four { &[K::RotateX, K::RotateZ, K::RotateY, K::RotateX] } else { &[K::RotateX, K::RotateZ, K::RotateY] };
        let joints = vec![
            joint("Hips", None, [1.0, 2.0, 3.0], &[K::TranslateZ, K::TranslateX, K::TranslateY, K::RotateY, K::RotateX, K::RotateZ]),
            joint("Chest", Some(0), [0.0, 10.0, 0.0], &[K::TranslateY, K::RotateX, K::TranslateZ, K::RotateZ, K::TranslateX]),
            Joint { tail: Vec3::new(0.0, 2.0, 0.5), ..joint("Neck", Some(1), [0.0, 8.0, 1.0], neck) },
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

    /// A Z-up file in centimetres.
    fn display() -> (Mat4, Quat) {
        let turn = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
        (Mat4::from_quat(turn) * Mat4::from_scale(Vec3::splat(0.01)), turn)
    }

    fn general(skeleton: &Skeleton, clip: &Clip, f: usize) -> Posed {
        let needed = vec![true; skeleton.len()];
        let (d, a) = display();
        let mut poser = SourcePoser::new(skeleton, d, a, &needed);
        poser.plan = None;
        let mut out = Posed::empty();
        poser.pose(clip, f, &mut PoseScratch::default(), &mut out);
        out
    }

    #[test]
    fn the_plain_path_poses_as_the_general_one() {
        let conventions = [EulerConvention::FirstOutermost, EulerConvention::LastOutermost];
        for (rule, convention) in [PositionRule::Replace, PositionRule::Add].into_iter().flat_map(|r| conventions.map(|c| (r, c))) {
            let (skeleton, clip) = odd(rule, convention, false);
            let needed = vec![true; skeleton.len()];
            let (d, a) = display();
            let poser = SourcePoser::new(&skeleton, d, a, &needed);
            assert!(poser.plan.is_some(), "every joint of the fixture reads plainly");
            let mut out = Posed::empty();
            for f in 0..clip.num_frames() {
                poser.pose(&clip, f, &mut PoseScratch::default(), &mut out);
                let want = general(&skeleton, &clip, f);
                for j in 0..skeleton.len() {
                    assert!(
                        out.rot[j].dot(want.rot[j]).abs() > 1.0 - 1e-6,
                        "{rule:?} {convention:?} frame {f} joint {j}: {} vs {}",
                        out.rot[j],
                        want.rot[j]
                    );
                    assert!(
                        out.pos[j].distance(want.pos[j]) < 1e-5,
                        "{rule:?} {convention:?} frame {f} joint {j}: {} vs {}",
                        out.pos[j],
                        want.pos[j]
                    );
                }
            }
        }
    }

    #[test]
    fn a_clip_without_frames_poses_the_rest() {
        let (skeleton, _) = odd(PositionRule::Replace, EulerConvention::FirstOutermost, false);
        let clip = Clip::new(0.1, skeleton.channels_per_frame(), 0, Vec::new());
        let needed = vec![true; skeleton.len()];
        let (d, a) = display();
        let mut out = Posed::empty();
        SourcePoser::new(&skeleton, d, a, &needed).pose(&clip, 0, &mut PoseScratch::default(), &mut out);
        let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
        crate::core::pose::rest_pose(&skeleton, &mut local);
        global_pose(&skeleton, &local, &mut global);
        let rest = posed(&global, d, a);
        assert!((0..skeleton.len()).all(|j| out.pos[j].distance(rest.pos[j]) < 1e-6));
    }

    #[test]
    fn joints_that_do_not_read_plainly_take_the_general_path() {
        let (skeleton, _) = odd(PositionRule::Replace, EulerConvention::FirstOutermost, true);
        let needed = vec![true; skeleton.len()];
        let (d, a) = display();
        assert!(SourcePoser::new(&skeleton, d, a, &needed).plan.is_none(), "four rotation channels on a joint are not plain");
    }
}
