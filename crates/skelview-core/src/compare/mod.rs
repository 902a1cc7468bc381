//! Comparing two captures: joint matching, alignment, per-joint position errors over a
//! shared clock, MPJPE. No GPU, no threads.

pub mod markers;
pub mod matching;

use glam::{Mat4, Vec3};

use crate::core::{GlobalPose, Interpolation, Motion, PoseAt, Sampler};
pub use markers::{MarkerFit, marker_fit};
pub use matching::{MatchKind, Placement, fold, match_joints, match_with_map};

/// How clip B is moved onto clip A before measuring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// As loaded (metres, Y-up).
    None,
    /// Translate B so the first frames' roots coincide (on the ground plane and in height).
    Roots,
    /// Also turn B about the up axis so the roots face the same way at the first frame.
    RootsAndHeading,
}

impl Align {
    /// Parses `none`, `roots`, `roots+heading`.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "none" => Self::None,
            "roots" => Self::Roots,
            "roots+heading" => Self::RootsAndHeading,
            _ => return None,
        })
    }
}

/// Errors per frame of A (metres), for the matched pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Matched joints `(a, b, how)`.
    pub pairs: Vec<(usize, usize, MatchKind)>,
    /// Frames of A that B covers (after the offset), with their time.
    pub frames: Vec<(usize, f64)>,
    /// `errors[f][p]`: distance of pair `p` at `frames[f]`, metres.
    pub errors: Vec<Vec<f32>>,
}

impl Comparison {
    /// Mean per-joint position error over all pairs and frames (metres).
    pub fn mpjpe(&self) -> f32 {
        let n: usize = self.errors.iter().map(Vec::len).sum();
        if n == 0 { 0.0 } else { self.errors.iter().flatten().map(|&e| e as f64).sum::<f64>() as f32 / n as f32 }
    }

    /// Largest error (metres).
    pub fn max(&self) -> f32 {
        self.errors.iter().flatten().copied().fold(0.0, f32::max)
    }

    /// Per pair: (mean, max) over frames, metres.
    pub fn per_pair(&self) -> Vec<(f32, f32)> {
        (0..self.pairs.len())
            .map(|p| {
                let values: Vec<f32> = self.errors.iter().map(|row| row[p]).collect();
                let mean = if values.is_empty() { 0.0 } else { values.iter().sum::<f32>() / values.len() as f32 };
                (mean, values.iter().copied().fold(0.0, f32::max))
            })
            .collect()
    }
}

/// Heading (radians about +Y) of a root's forward axis in display space.
fn heading(m: &Motion, global: &GlobalPose, root: usize) -> f32 {
    let forward = m.display_from_file().transform_vector3(global.world_from_joint[root].transform_vector3(Vec3::Z));
    forward.x.atan2(forward.z)
}

/// Compares B with A: B is sampled at `t − offset_secs` for each frame time `t` of A (frames
/// where B has no data are left out), moved by `align`, and every matched joint's distance
/// is measured in metres.
pub fn compare(a: &Motion, b: &Motion, align: Align, offset_secs: f64) -> Comparison {
    compare_with_map(a, b, align, offset_secs, None)
}

/// [`compare`], with an MNM name map as the last matching stage.
pub fn compare_with_map(a: &Motion, b: &Motion, align: Align, offset_secs: f64, map: Option<&[(String, String)]>) -> Comparison {
    let placement = |m: &Motion| if m.source.format.joints_at_far_end { Placement::FarEnd } else { Placement::Origin };
    let mut pairs = match_joints(&a.skeleton, placement(a), &b.skeleton, placement(b));
    if let Some(map) = map {
        match_with_map(&a.skeleton, &b.skeleton, map, &mut pairs);
    }
    compare_pairs(a, b, align, offset_secs, pairs)
}

/// Pairs of joints that are the same humanoid bone in the two skeletons' bone maps (the
/// joint where each bone starts, so an ASF pairs with a BVH), in `a`'s order.
pub fn humanoid_pairs(a: &Motion, b: &Motion) -> Vec<(usize, usize, MatchKind)> {
    let map = |m: &Motion| crate::retarget::bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
    let (ma, mb) = (map(a), map(b));
    let mut pairs: Vec<(usize, usize, MatchKind)> =
        ma.entries.iter().filter_map(|e| Some((e.joint, mb.joint(e.bone)?, MatchKind::Humanoid))).collect();
    pairs.sort_by_key(|p| p.0);
    pairs
}

/// [`compare`] over the given joint pairs.
pub fn compare_pairs(a: &Motion, b: &Motion, align: Align, offset_secs: f64, pairs: Vec<(usize, usize, MatchKind)>) -> Comparison {
    let (mut sa, mut sb) = (Sampler::default(), Sampler::default());
    // Metres, Y-up, linear sampling between frames.
    let posed = |s: &mut Sampler, m: &Motion, t: f64| {
        s.positions(m, PoseAt::Time(t), Interpolation::Linear, m.display_from_file());
    };
    // Alignment from the first compared frame.
    let b_end = b.clip.last_frame_time_secs() + 1e-9;
    let na = a.clip.num_frames().max(1);
    let frames: Vec<(usize, f64)> = (0..na)
        .map(|f| (f, f as f64 * a.clip.frame_time_secs))
        .filter(|&(_, t)| {
            let tb = t - offset_secs;
            tb >= -1e-9 && tb <= b_end
        })
        .collect();
    let mut b_from_display = Mat4::IDENTITY;
    if let (Some(&(_, t0)), Some(ra), Some(rb)) = (frames.first(), a.skeleton.roots().next(), b.skeleton.roots().next())
        && align != Align::None
    {
        posed(&mut sa, a, t0);
        posed(&mut sb, b, t0 - offset_secs);
        let turn = if align == Align::RootsAndHeading { heading(a, &sa.global, ra) - heading(b, &sb.global, rb) } else { 0.0 };
        let rotate = Mat4::from_rotation_y(turn);
        let moved_root = rotate.transform_point3(sb.positions[rb]);
        b_from_display = Mat4::from_translation(sa.positions[ra] - moved_root) * rotate;
    }
    let mut errors = Vec::with_capacity(frames.len());
    for &(_, t) in &frames {
        posed(&mut sa, a, t);
        posed(&mut sb, b, t - offset_secs);
        let (pa, pb) = (&sa.positions, &sb.positions);
        errors.push(pairs.iter().map(|&(i, k, _)| (pa[i] - b_from_display.transform_point3(pb[k])).length()).collect());
    }
    Comparison { pairs, frames, errors }
}
