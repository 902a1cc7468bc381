//! How well a retarget worked, bone by bone: the angle between a bone's world direction in
//! the source and in the result, frame against frame (so a frame offset shows as error).

use glam::Vec3;

use super::bone_map::BoneMap;
use super::source::{Posed, posed};
use super::transfer::{TOWARDS, axes, common_towards, rest_posed};
use crate::core::Motion;
use crate::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose};

/// One bone's direction error over the frames, degrees.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneAgreement {
    /// The VRM humanoid bone.
    pub bone: &'static str,
    /// The bone it points towards in both skeletons.
    pub towards: &'static str,
    /// Median over the frames.
    pub median_deg: f32,
    /// Largest, and at which frame.
    pub max_deg: f32,
    /// The frame (index into the angles given) of the largest.
    pub worst_frame: usize,
}

/// A bone both skeletons have, and the joints that give its direction in each.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionPair {
    /// The VRM humanoid bone.
    pub bone: &'static str,
    /// The bone it points towards in both.
    pub towards: &'static str,
    /// `(bone's joint, towards' joint)` in the first skeleton.
    pub a: (usize, usize),
    /// The same in the second.
    pub b: (usize, usize),
}

impl DirectionPair {
    /// The angle between the bone's directions in two poses (display positions), degrees;
    /// NaN where either has no direction.
    pub fn angle_deg(&self, pa: &[Vec3], pb: &[Vec3]) -> f32 {
        let dir = |p: &[Vec3], (j, k): (usize, usize)| (*p.get(k)? - *p.get(j)?).try_normalize();
        match (dir(pa, self.a), dir(pb, self.b)) {
            (Some(da), Some(db)) => da.angle_between(db).to_degrees(),
            _ => f32::NAN,
        }
    }

    /// Median and largest of `angles` (NaN left out).
    pub fn summary(&self, angles: Vec<f32>) -> BoneAgreement {
        let (worst_frame, max_deg) =
            angles.iter().copied().enumerate().filter(|(_, d)| d.is_finite()).fold((0, 0f32), |w, (f, d)| if d > w.1 { (f, d) } else { w });
        let mut finite: Vec<f32> = angles.into_iter().filter(|d| d.is_finite()).collect();
        let median_deg = if finite.is_empty() {
            f32::NAN
        } else {
            let mid = finite.len() / 2;
            *finite.select_nth_unstable_by(mid, f32::total_cmp).1
        };
        BoneAgreement { bone: self.bone, towards: self.towards, median_deg, max_deg, worst_frame }
    }
}

/// The bones both maps name that point towards a next bone both maps name (of some length at
/// rest in both), in `TOWARDS`' order.
pub fn direction_pairs(a: &Motion, a_map: &BoneMap, b: &Motion, b_map: &BoneMap) -> Vec<DirectionPair> {
    let (rest_a, rest_b) = (rest_posed(a), rest_posed(b));
    TOWARDS
        .iter()
        .filter_map(|(bone, _)| {
            let towards = common_towards(bone, (a_map, &rest_a), (b_map, &rest_b))?;
            Some(DirectionPair {
                bone,
                towards,
                a: (a_map.joint(bone)?, a_map.joint(towards)?),
                b: (b_map.joint(bone)?, b_map.joint(towards)?),
            })
        })
        .collect()
}

/// Each bone's direction error of `b` against `a` over the frames both have (frame against
/// frame).
pub fn bone_directions(a: &Motion, a_map: &BoneMap, b: &Motion, b_map: &BoneMap) -> Vec<BoneAgreement> {
    let pairs = direction_pairs(a, a_map, b, b_map);
    let frames = a.clip.num_frames().min(b.clip.num_frames());
    let mut angles: Vec<Vec<f32>> = vec![Vec::with_capacity(frames); pairs.len()];
    let (mut pa, mut pb) = (Poser::new(a), Poser::new(b));
    for f in 0..frames {
        let (qa, qb) = (pa.at(a, f), pb.at(b, f));
        for (pair, out) in pairs.iter().zip(&mut angles) {
            out.push(pair.angle_deg(&qa.pos, &qb.pos));
        }
    }
    pairs.iter().zip(angles).map(|(p, v)| p.summary(v)).collect()
}

/// Poses one motion frame by frame in display space, reusing its buffers.
struct Poser {
    local: LocalPose,
    global: GlobalPose,
    display: glam::Mat4,
    axes: glam::Quat,
}

impl Poser {
    fn new(m: &Motion) -> Self {
        Self { local: LocalPose::default(), global: GlobalPose::default(), display: m.display_from_file(), axes: axes(m) }
    }

    fn at(&mut self, m: &Motion, f: usize) -> Posed {
        frame_pose(&m.skeleton, &m.clip, f, &mut self.local);
        global_pose(&m.skeleton, &self.local, &mut self.global);
        posed(&self.global, self.display, self.axes)
    }
}
