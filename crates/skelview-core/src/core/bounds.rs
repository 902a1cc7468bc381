//! Bounds of what is drawn that one absurd sample cannot stretch, and the floor a clip
//! stands on.

use glam::{Mat4, Vec3};

pub use super::sampler::bounds_of;
use super::{Interpolation, Motion, PoseAt, Sampler};

/// Bounds that one absurd sample cannot stretch: points beyond 10 km are left out; with
/// many points, the 1st to 99th percentile on each axis; with few, every other point.
pub fn robust_bounds(points: &[Vec3]) -> Option<(Vec3, Vec3)> {
    // Display space is metres: beyond 10 km is no motion capture (the loader warns).
    let finite: Vec<Vec3> = points.iter().copied().filter(|p| p.is_finite() && p.abs().max_element() < 1e4).collect();
    if finite.len() < 100 {
        return bounds_of(&finite);
    }
    let mut lo = Vec3::ZERO;
    let mut hi = Vec3::ZERO;
    let cut = finite.len() / 100;
    for axis in 0..3 {
        let mut v: Vec<f32> = finite.iter().map(|p| p[axis]).collect();
        v.sort_by(f32::total_cmp);
        (lo[axis], hi[axis]) = (v[cut], v[v.len() - 1 - cut]);
    }
    Some((lo, hi))
}

/// Bounds of a motion's joints over up to 32 frames spread across the clip (the joints its
/// source leaves out of framing are not counted).
pub fn clip_bounds(m: &Motion, world_from_file: Mat4) -> Option<(Vec3, Vec3)> {
    let n = m.clip.num_frames().max(1);
    let k = n.min(32);
    let mut sampler = Sampler::default();
    let mut points = Vec::with_capacity(k * m.skeleton.len());
    for s in 0..k {
        let f = if k == 1 { 0 } else { s * (n - 1) / (k - 1) };
        let posed = sampler.positions(m, PoseAt::Frame(f), Interpolation::Nearest, world_from_file);
        points.extend(posed.iter().enumerate().filter(|(j, _)| !m.source.left_out.contains(j)).map(|(_, p)| *p));
    }
    robust_bounds(&points)
}

/// A body's spread, by which points lie far outside it: a point whose typical place is more
/// than this many times the typical distance of the points from their centre away.
const FAR: f32 = 10.0;

/// The points of a cloud (a capture's markers, joints without parents) that lie far outside
/// the body: each point's median place over up to 64 frames, against the median of those
/// places and their median distance from it. Model outputs stored as points (a Nexus
/// `lt_thighMag` at 197 m) are; markers of a body, however it moves, are not.
pub fn far_points(skeleton: &crate::core::Skeleton, clip: &crate::core::Clip) -> Vec<usize> {
    let (n, joints) = (clip.num_frames(), skeleton.len());
    if n == 0 || joints < 4 || skeleton.joints().iter().any(|j| j.parent.is_some()) {
        return Vec::new();
    }
    let k = n.min(64);
    let mut sampler = Sampler::default();
    let mut tracks: Vec<Vec<Vec3>> = vec![Vec::new(); joints];
    for s in 0..k {
        let f = if k == 1 { 0 } else { s * (n - 1) / (k - 1) };
        // A gap holds the last value: not a place of the point.
        let mut gap = vec![false; clip.channels_per_frame()];
        for r in clip.missing().iter().filter(|r| (r.first as usize..=r.last as usize).contains(&f)) {
            if let Some(g) = gap.get_mut(r.channel as usize) {
                *g = true;
            }
        }
        sampler.pose(skeleton, clip, PoseAt::Frame(f), Interpolation::Nearest);
        for (j, p) in sampler.place(Mat4::IDENTITY).iter().enumerate() {
            let joint = &skeleton.joints()[j];
            if p.is_finite() && !gap.get(joint.first_channel).copied().unwrap_or(false) {
                tracks[j].push(*p);
            }
        }
    }
    let median = |v: &mut Vec<f32>| -> Option<f32> {
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let place = |t: &[Vec3]| -> Option<Vec3> {
        let axis = |a: usize| median(&mut t.iter().map(|p| p[a]).collect());
        Some(Vec3::new(axis(0)?, axis(1)?, axis(2)?))
    };
    let places: Vec<Option<Vec3>> = tracks.iter().map(|t| place(t)).collect();
    let known: Vec<Vec3> = places.iter().flatten().copied().collect();
    let Some(centre) = place(&known) else { return Vec::new() };
    let Some(spread) = median(&mut known.iter().map(|p| p.distance(centre)).collect()) else { return Vec::new() };
    if !(spread > 0.0) {
        return Vec::new();
    }
    places.iter().enumerate().filter(|(_, p)| p.is_some_and(|p| p.distance(centre) > FAR * spread)).map(|(j, _)| j).collect()
}

/// The height (display space) of the floor the clip stands on: the lowest joints over the
/// clip, one absurd sample aside.
pub fn floor_y(m: &Motion, display: Mat4) -> f32 {
    clip_bounds(m, display).map_or(0.0, |(lo, _)| lo.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_absurd_sample_does_not_stretch_the_bounds() {
        let mut points: Vec<Vec3> = (0..500).map(|i| Vec3::new((i % 10) as f32 * 0.1, (i / 10) as f32 * 0.03, 0.0)).collect();
        points[137] = Vec3::new(1e25, -1e25, 3e20);
        points[200] = Vec3::NAN;
        let (lo, hi) = robust_bounds(&points).unwrap();
        assert!(hi.x < 1.0 && lo.y > -0.1 && hi.z < 1.0, "{lo} {hi}");
        assert_eq!(robust_bounds(&[Vec3::ONE, Vec3::NAN]), Some((Vec3::ONE, Vec3::ONE)), "few points: every finite one");
    }
}
