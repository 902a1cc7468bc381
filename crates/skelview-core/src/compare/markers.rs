//! A capture's markers against a skeleton: each marker's distance to the skeleton's nearest
//! joint at the same time, in metres (display space: each motion's units and up axis
//! applied), the marker's frames in a gap left out. How well a solve follows its markers.

use glam::Vec3;

use crate::core::{Interpolation, Motion, PoseAt, Sampler};

/// Distances per frame of the capture that the skeleton covers.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkerFit {
    /// Frames of the capture compared, with their time.
    pub frames: Vec<(usize, f64)>,
    /// `distances[f][j]`: marker (joint of the capture) `j` to the nearest joint, metres; NaN
    /// in a gap.
    pub distances: Vec<Vec<f32>>,
    /// `nearest[f][j]`: that joint of the skeleton.
    pub nearest: Vec<Vec<u32>>,
}

impl MarkerFit {
    /// Per marker: mean and largest distance over the frames where it has a position, and the
    /// joint it was nearest most often (`None` when never seen).
    pub fn per_marker(&self) -> Vec<Option<(f32, f32, usize)>> {
        let n = self.distances.first().map_or(0, Vec::len);
        (0..n)
            .map(|j| {
                let (mut sum, mut count, mut max) = (0.0f64, 0usize, 0.0f32);
                let mut votes = std::collections::HashMap::<u32, usize>::new();
                for (row, near) in self.distances.iter().zip(&self.nearest) {
                    if row[j].is_finite() {
                        sum += f64::from(row[j]);
                        count += 1;
                        max = max.max(row[j]);
                        *votes.entry(near[j]).or_default() += 1;
                    }
                }
                let joint = votes.into_iter().max_by_key(|&(k, v)| (v, std::cmp::Reverse(k)))?.0 as usize;
                (count > 0).then(|| ((sum / count as f64) as f32, max, joint))
            })
            .collect()
    }

    /// Mean over every marker and frame with a position, metres.
    pub fn mean(&self) -> f32 {
        let v: Vec<f32> = self.distances.iter().flatten().copied().filter(|d| d.is_finite()).collect();
        if v.is_empty() { 0.0 } else { (v.iter().map(|&d| f64::from(d)).sum::<f64>() / v.len() as f64) as f32 }
    }
}

/// Measures `capture` (a motion with a capture) against `skeleton`, sampled at `t −
/// offset_secs` for each frame time `t` of the capture. `None` when `capture` has none.
pub fn marker_fit(capture: &Motion, skeleton: &Motion, offset_secs: f64) -> Option<MarkerFit> {
    let c = capture.capture.as_ref()?;
    let markers = c.marker_indices();
    let (mut sc, mut ss) = (Sampler::default(), Sampler::default());
    let end = skeleton.clip.last_frame_time_secs() + 1e-9;
    let mut fit = MarkerFit { frames: Vec::new(), distances: Vec::new(), nearest: Vec::new() };
    for f in 0..capture.clip.num_frames() {
        let t = f as f64 * capture.clip.frame_time_secs;
        let ts = t - offset_secs;
        if !(-1e-9..=end).contains(&ts) {
            continue;
        }
        let pc = sc.positions(capture, PoseAt::Frame(f), Interpolation::Nearest, capture.display_from_file());
        let joints = ss.positions(skeleton, PoseAt::Time(ts.max(0.0)), Interpolation::Linear, skeleton.display_from_file());
        let (mut row, mut near) = (Vec::with_capacity(markers.len()), Vec::with_capacity(markers.len()));
        for (j, &p) in markers.iter().enumerate() {
            let found = (!c.is_gap(f, p)).then(|| nearest(pc[j], joints)).flatten();
            row.push(found.map_or(f32::NAN, |(_, d)| d));
            near.push(found.map_or(0, |(k, _)| k as u32));
        }
        fit.frames.push((f, t));
        fit.distances.push(row);
        fit.nearest.push(near);
    }
    Some(fit)
}

fn nearest(p: Vec3, joints: &[Vec3]) -> Option<(usize, f32)> {
    joints.iter().enumerate().map(|(k, q)| (k, (p - *q).length())).filter(|(_, d)| d.is_finite()).min_by(|a, b| a.1.total_cmp(&b.1))
}
