//! Feet kept planted: while a source foot stands (the contact rule of the capture checks,
//! scaled by the source's legs), the target's foot stays where it was when the contact began
//! (horizontally; its height follows the motion) and eases back over a few frames after it
//! lifts. Each leg reaches its foot's place with a two-bone IK in the leg's own bending plane,
//! so the knee keeps bending the way it bent; the foot's own rotation stays the source's.

use glam::{Quat, Vec3};

use super::bone_map::BoneMap;
use crate::core::Skeleton;
use crate::core::contacts::{ContactRule, contacts, ground_level};

/// The target skeleton as the legs need it: posed from display rotations.
pub(super) trait Rig {
    /// How many joints.
    fn joints(&self) -> usize;
    /// Display-space position of joint `j` for rotations `rot`, the joint `hips` at `hips_at`.
    fn position(&self, rot: &[Quat], hips: usize, hips_at: Vec3, j: usize) -> Vec3;
    /// Joints that follow their parent, turned with it again after their parent moved; from
    /// joint `below` on (what hangs below it comes after it).
    fn follow_parents(&self, rot: &mut [Quat], below: usize);
}

/// A target leg: upper leg, lower leg and foot joints, each below the one before.
pub(super) struct Leg {
    upper: usize,
    lower: usize,
    foot: usize,
}

impl Leg {
    /// The `side` ("left", "right") leg of `map`, when its three bones are mapped in a chain.
    pub(super) fn of(map: &BoneMap, skeleton: &Skeleton, side: &str) -> Option<Self> {
        let [upper, lower, foot] = ["UpperLeg", "LowerLeg", "Foot"].map(|part| map.joint(&format!("{side}{part}")));
        let (upper, lower, foot) = (upper?, lower?, foot?);
        let below =
            |j: usize, a: usize| std::iter::successors(skeleton.joints()[j].parent, |&p| skeleton.joints()[p].parent).any(|p| p == a);
        (below(lower, upper) && below(foot, lower)).then_some(Self { upper, lower, foot })
    }
}

/// Frames over which a planted foot eases back to the motion after a contact.
const EASE_FRAMES: usize = 5;

/// Moves the legs in `rots` (a frame of display rotations after another) so that each target
/// foot holds still while its source foot (`source_feet`, display positions) stands.
#[allow(clippy::too_many_arguments)]
pub(super) fn plant(
    transfer: &dyn Rig,
    legs: &[Option<Leg>; 2],
    source_feet: &[Vec<Vec3>; 2],
    source_leg_m: f32,
    dt: f32,
    hips: usize,
    hips_at: &[Vec3],
    rots: &mut [Quat],
) {
    let n = transfer.joints();
    let frames = hips_at.len();
    // The capture checks' rule (3 cm, 0.6 m/s for a 0.9 m leg), scaled by the source's legs.
    let k = source_leg_m / 0.9;
    let rule = ContactRule { height_m: 0.03 * k, speed_m_s: 0.6 * k, min_frames: ((0.1 / dt.max(1e-6)).ceil() as usize).max(3) };
    for (leg, track) in legs.iter().zip(source_feet) {
        let Some(leg) = leg else { continue };
        if track.len() != frames {
            continue;
        }
        let Some(ground) = ground_level(track) else { continue };
        // Where the target's foot is before any planting.
        let free: Vec<Vec3> = rots.chunks_exact(n).zip(hips_at).map(|(rot, &at)| transfer.position(rot, hips, at, leg.foot)).collect();
        let goals = goals(&contacts(track, dt, ground, &rule), &free, frames);
        let mut bend_axis = None;
        for (f, goal) in goals.into_iter().enumerate() {
            let Some(goal) = goal else { continue };
            let rot = &mut rots[f * n..(f + 1) * n];
            reach(transfer, leg, hips, hips_at[f], goal, &mut bend_axis, rot);
        }
    }
}

/// Where the foot should be at each frame: held at the contact's first place (its height
/// free), then eased back.
fn goals(runs: &[(usize, usize)], free: &[Vec3], frames: usize) -> Vec<Option<Vec3>> {
    let mut goals = vec![None; frames];
    for (r, &(a, b)) in runs.iter().enumerate() {
        let pin = free[a];
        let next = runs.get(r + 1).map_or(frames, |n| n.0);
        for (f, goal) in goals.iter_mut().enumerate().take((b + EASE_FRAMES + 1).min(next)).skip(a) {
            let at = free[f];
            let held = Vec3::new(pin.x, at.y, pin.z);
            let w = if f <= b { 1.0 } else { 1.0 - (f - b) as f32 / (EASE_FRAMES + 1) as f32 };
            *goal = Some(at.lerp(held, w));
        }
    }
    goals
}

/// Two-bone IK: bends the knee in the leg's plane so that hip to foot is as long as hip to
/// `goal`, then swings the leg onto it.
fn reach(transfer: &dyn Rig, leg: &Leg, hips: usize, hips_at: Vec3, goal: Vec3, bend_axis: &mut Option<Vec3>, rot: &mut [Quat]) {
    let [h, k, a] = [leg.upper, leg.lower, leg.foot].map(|j| transfer.position(rot, hips, hips_at, j));
    let (u, v) = (k - h, a - k);
    let (l1, l2) = (u.length(), v.length());
    if l1 < 1e-6 || l2 < 1e-6 {
        return;
    }
    // A straight leg has no plane of its own: it bends in the plane it last bent in.
    let axis = match u.cross(v).try_normalize().filter(|_| u.cross(v).length() > 1e-3 * l1 * l2) {
        Some(axis) => axis,
        None => match *bend_axis {
            Some(axis) => axis,
            None => return,
        },
    };
    *bend_axis = Some(axis);
    let d = (goal - h).length().clamp((l1 - l2).abs() + 1e-5, l1 + l2 - 1e-5);
    let wanted = ((d * d - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)).clamp(-1.0, 1.0).acos();
    let bend = Quat::from_axis_angle(axis, wanted - u.angle_between(v));
    let (Some(from), Some(to)) = ((u + bend * v).try_normalize(), (goal - h).try_normalize()) else { return };
    let swing = Quat::from_rotation_arc(from, to);
    rot[leg.upper] = (swing * rot[leg.upper]).normalize();
    rot[leg.lower] = (swing * bend * rot[leg.lower]).normalize();
    transfer.follow_parents(rot, leg.upper);
}
