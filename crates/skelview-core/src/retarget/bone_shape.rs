//! Humanoid bones read from the skeleton's shape, for what names leave out: legs, spine, neck
//! and arms from the branches below the hips, the hips where the legs and the spine meet, and
//! hands that fork without a wrist.

use glam::Vec3;

use super::bone_map::{BONES, BoneMap, Found};
use crate::core::pose::{GlobalPose, LocalPose, global_pose, rest_pose};
use crate::core::rest::side_of;
use crate::core::{Skeleton, UpAxis};

/// The hips are where both legs and the spine hang from: when the joint named so is not
/// (RobotExpressive hangs its legs from `Body`, the parent of its `Hips`), the joint where the
/// legs and the spine meet is the hips instead. Otherwise the hips would travel without the
/// legs.
pub(super) fn hips_above_legs(skeleton: &Skeleton, map: &mut BoneMap) {
    let (Some(hips), Some(l), Some(r), Some(spine)) =
        (map.joint("hips"), map.joint("leftUpperLeg"), map.joint("rightUpperLeg"), map.joint("spine"))
    else {
        return;
    };
    let ancestors = |j: usize| -> Vec<usize> { std::iter::successors(Some(j), |&k| skeleton.joints()[k].parent).collect() };
    if ancestors(l).contains(&hips) && ancestors(r).contains(&hips) {
        return;
    }
    let (al, ar, asp) = (ancestors(l), ancestors(r), ancestors(spine));
    // The deepest joint above all three (ancestor lists run from the joint to the root).
    let Some(&meet) = al.iter().find(|j| ar.contains(j) && asp.contains(j)) else { return };
    if meet != l && meet != r && meet != spine {
        map.set("hips", meet, Found::Shape);
    }
}

/// A hand with no wrist joint (RobotExpressive's lower arm forks straight into palm bones
/// and a thumb): the branch that carries on the forearm's direction furthest is the hand.
pub(super) fn hands_of_fans(skeleton: &Skeleton, map: &mut BoneMap) {
    let kids = skeleton.child_lists();
    let pose = rest_positions(skeleton);
    for side in ["left", "right"] {
        let (Some(upper), Some(lower)) = (map.joint(&format!("{side}UpperArm")), map.joint(&format!("{side}LowerArm"))) else {
            continue;
        };
        let hand = if side == "left" { "leftHand" } else { "rightHand" };
        let branches: Vec<usize> = kids[lower].iter().copied().filter(|&k| !skeleton.joints()[k].is_end_site).collect();
        if map.joint(hand).is_some() || branches.len() < 2 {
            continue;
        }
        let Some(forearm) = (pose[lower] - pose[upper]).try_normalize() else { continue };
        let along = |k: usize| kids[k].first().and_then(|&g| (pose[g] - pose[k]).try_normalize()).map_or(-1.0, |d| d.dot(forearm));
        let best = branches.iter().copied().max_by(|a, b| along(*a).total_cmp(&along(*b)));
        if let Some(j) = best.filter(|&j| along(j) > 0.5 && !map.entries.iter().any(|e| e.joint == j)) {
            map.set(hand, j, Found::Shape);
        }
    }
}

/// Positions of the rest pose (file space).
fn rest_positions(skeleton: &Skeleton) -> Vec<Vec3> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    rest_pose(skeleton, &mut local);
    global_pose(skeleton, &local, &mut global);
    (0..skeleton.len()).map(|j| global.position(j)).collect()
}

/// What names left out, from the tree: the hips are the first joint with three or more
/// children; of its branches the two reaching lowest are the legs (upper leg, lower leg,
/// foot, toes down each, joints that sit on their parent skipped) and the highest is the
/// spine, up to the joint where it forks into the arms and the neck. Left is the side the
/// names say, else +X of a rest pose facing +Z (the BVH and glTF habit).
pub(super) fn by_shape(skeleton: &Skeleton, up: UpAxis, map: &mut BoneMap) {
    let kids = skeleton.child_lists();
    let Some(hips) = map.joint("hips").or_else(|| (0..skeleton.len()).find(|&j| kids[j].len() >= 3)) else { return };
    if map.joint("hips").is_none() {
        map.set("hips", hips, Found::Shape);
    }
    let t = Tree { skeleton, pose: rest_positions(skeleton), kids, up: up.vector(), hips };
    let mut branches: Vec<usize> = t.kids[hips].clone();
    branches.sort_by(|a, b| t.lowest(*a).total_cmp(&t.lowest(*b)));
    if branches.len() >= 3 {
        for &leg in &branches[..2] {
            t.limb(leg, &["UpperLeg", "LowerLeg", "Foot", "Toes"], map);
        }
        // The spine: the branch reaching highest, up to where it forks.
        let Some(&spine) = branches.iter().max_by(|a, b| t.height(**a).total_cmp(&t.height(**b))) else { return };
        let (spine_joints, fork) = t.chain(spine);
        for (bone, &j) in ["spine", "chest", "upperChest"].iter().zip(&spine_joints) {
            set_shape(map, bone, j);
        }
        // At the fork: the neck and head, and the arms.
        let mut arms: Vec<usize> = t.kids[fork].clone();
        if arms.len() >= 3 {
            let neck = t.neck_of(fork, &mut arms, map);
            let (neck_joints, _) = t.chain(neck);
            for (bone, &j) in ["neck", "head"].iter().zip(&neck_joints) {
                set_shape(map, bone, j);
            }
            for &arm in arms.iter().rev().take(2) {
                let parts: &[&str] = if t.chain(arm).0.len() >= 4 {
                    &["Shoulder", "UpperArm", "LowerArm", "Hand"]
                } else {
                    &["UpperArm", "LowerArm", "Hand"]
                };
                t.limb(arm, parts, map);
            }
        }
    }
}

/// Maps `bone` to joint `j` by shape, unless the bone or the joint is mapped already.
fn set_shape(map: &mut BoneMap, bone: &str, j: usize) {
    if let Some(&b) = BONES.iter().find(|b| **b == bone)
        && map.joint(b).is_none()
        && !map.entries.iter().any(|e| e.joint == j)
    {
        map.set(b, j, Found::Shape);
    }
}

/// The rest pose as a tree below the hips, for reading bones from its shape.
struct Tree<'a> {
    skeleton: &'a Skeleton,
    kids: Vec<Vec<usize>>,
    pose: Vec<Vec3>,
    up: Vec3,
    hips: usize,
}

impl Tree<'_> {
    /// Height of joint `j` along the up axis.
    fn height(&self, j: usize) -> f32 {
        self.pose[j].dot(self.up)
    }

    /// A branch's joints down its first children, skipping joints on top of their parent,
    /// and the joint where it forks or ends.
    fn chain(&self, start: usize) -> (Vec<usize>, usize) {
        let (skeleton, pose, kids) = (self.skeleton, &self.pose, &self.kids);
        let mut out = Vec::new();
        let mut j = start;
        loop {
            let on_parent = skeleton.joints()[j].parent.is_some_and(|p| pose[p].distance(pose[j]) < 1e-6);
            if !on_parent && !skeleton.joints()[j].is_end_site {
                out.push(j);
            }
            match kids[j].first() {
                Some(&next) if kids[j].len() == 1 => j = next,
                _ => break,
            }
        }
        (out, j)
    }

    /// The lowest height reached at or below `start`.
    fn lowest(&self, start: usize) -> f32 {
        let mut stack = vec![start];
        let mut low = f32::INFINITY;
        while let Some(j) = stack.pop() {
            low = low.min(self.height(j));
            stack.extend(self.kids[j].iter().copied());
        }
        low
    }

    /// Whether joint `j` is on the left: as its name says, else +X of the hips.
    fn left_of(&self, j: usize) -> bool {
        side_of(&self.skeleton.joints()[j].name).unwrap_or(self.pose[j].x - self.pose[self.hips].x > 0.0)
    }

    /// Takes the neck out of the branches at the top of the spine (left sorted by height) and
    /// returns it: the branch reaching highest, unless that one reaches out to a side while
    /// the two arms it leaves do not go to opposite sides, the symmetry a body has (a HumanIK
    /// right shoulder starting above the neck); then the branch that stays nearest the middle.
    fn neck_of(&self, fork: usize, branches: &mut Vec<usize>, map: &BoneMap) -> usize {
        branches.sort_by(|a, b| self.height(*a).total_cmp(&self.height(*b)));
        let across = self.across(map);
        // How far out a branch reaches, signed: + on the left.
        let reach = |b: usize| {
            let mut stack = vec![b];
            let mut best = 0.0f32;
            while let Some(j) = stack.pop() {
                let s = (self.pose[j] - self.pose[fork]).dot(across);
                best = if s.abs() > best.abs() { s } else { best };
                stack.extend(self.kids[j].iter().copied());
            }
            best
        };
        let n = branches.len();
        let highest = branches[n - 1];
        let (a, b) = (reach(branches[n - 2]), reach(branches[n - 3]));
        let narrowest = branches.iter().copied().min_by(|x, y| reach(*x).abs().total_cmp(&reach(*y).abs())).unwrap_or(highest);
        // Mirror images: on opposite sides, each reaching at least half as far as the other.
        let mirrored = a * b < 0.0 && a.abs().min(b.abs()) >= 0.5 * a.abs().max(b.abs());
        let neck = if mirrored || narrowest == highest { highest } else { narrowest };
        branches.retain(|&x| x != neck);
        neck
    }

    /// The body's left-right direction, across the up axis: from the right upper leg to the
    /// left where both are known, else +X (a rest pose facing +Z).
    fn across(&self, map: &BoneMap) -> Vec3 {
        let legs = map.joint("leftUpperLeg").zip(map.joint("rightUpperLeg"));
        let d = legs.map_or(Vec3::X, |(l, r)| self.pose[l] - self.pose[r]);
        (d - d.dot(self.up) * self.up).try_normalize().unwrap_or(Vec3::X)
    }

    /// Maps the chain from `start` to `parts` (`UpperLeg`, …) on the side its first joint is on.
    fn limb(&self, start: usize, parts: &[&str], map: &mut BoneMap) {
        let (joints, _) = self.chain(start);
        let left = self.left_of(*joints.first().unwrap_or(&start));
        let side = if left { "left" } else { "right" };
        for (part, &j) in parts.iter().zip(&joints) {
            set_shape(map, &format!("{side}{part}"), j);
        }
    }
}
