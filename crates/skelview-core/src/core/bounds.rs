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

/// Bounds of a motion's joints over up to 32 frames spread across the clip.
pub fn clip_bounds(m: &Motion, world_from_file: Mat4) -> Option<(Vec3, Vec3)> {
    let n = m.clip.num_frames().max(1);
    let k = n.min(32);
    let mut sampler = Sampler::default();
    let mut points = Vec::with_capacity(k * m.skeleton.len());
    for s in 0..k {
        let f = if k == 1 { 0 } else { s * (n - 1) / (k - 1) };
        points.extend_from_slice(sampler.positions(m, PoseAt::Frame(f), Interpolation::Nearest, world_from_file));
    }
    robust_bounds(&points)
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
