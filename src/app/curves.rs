//! Channel curves of one joint over a whole clip, for plotting: one series per channel on
//! the shared clock, rotations in degrees, and the frames where an Euler angle jumps by more
//! than 180° (a flip between equivalent solutions, not motion).

use crate::core::Motion;

/// One channel over the clip.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelCurve {
    /// Channel name as the file writes it (BVH) or short.
    pub name: String,
    /// `(shared time, value)`; rotations in degrees, others in file units.
    pub points: Vec<[f64; 2]>,
    /// Shared times of the frames that jump by more than 180° from the previous one.
    pub flips: Vec<f64>,
}

/// The curves of `joint`'s channels in `m`, whose first frame is at shared time `offset_secs`.
/// Empty when the joint has no channels or the clip no frames.
pub fn channel_curves(m: &Motion, joint: usize, offset_secs: f64) -> Vec<ChannelCurve> {
    let Some(j) = m.skeleton.joints().get(joint) else { return Vec::new() };
    let n = m.clip.num_frames();
    let bvh = m.source.format.bvh_channel_names;
    j.channels
        .iter()
        .enumerate()
        .map(|(k, kind)| {
            let column = j.first_channel + k;
            let (mut points, mut flips) = (Vec::with_capacity(n), Vec::new());
            let mut previous: Option<f64> = None;
            for f in 0..n {
                let Some(&raw) = m.clip.frame(f).get(column) else { break };
                let v = if kind.is_rotation() { (raw as f64).to_degrees() } else { raw as f64 };
                let t = offset_secs + f as f64 * m.clip.frame_time_secs;
                if kind.is_rotation() && previous.is_some_and(|p| (v - p).abs() > 180.0) {
                    flips.push(t);
                }
                previous = Some(v);
                points.push([t, v]);
            }
            let name = if bvh { kind.bvh_name() } else { kind.short_name() };
            ChannelCurve { name: name.to_string(), points, flips }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};
    use std::sync::Arc;

    const FLIP: &[u8] = b"HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 4 Xposition Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 4\nFrame Time: 0.5\n0 170 0 0\n1 179 0 0\n2 -179 0 0\n3 -170 0 0\n";

    #[test]
    fn curves_in_degrees_on_the_shared_clock_with_flips_marked() {
        let request = LoadRequest::single(&crate::formats::bvh::Bvh, Source::Memory { name: "flip.bvh".into(), bytes: Arc::from(FLIP) });
        let m = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap();
        let curves = channel_curves(&m, 0, 2.0);
        assert_eq!(curves.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Xposition", "Zrotation", "Xrotation", "Yrotation"]);
        assert_eq!(curves[0].points, vec![[2.0, 0.0], [2.5, 1.0], [3.0, 2.0], [3.5, 3.0]]);
        assert!((curves[1].points[1][1] - 179.0).abs() < 1e-3);
        assert_eq!(curves[1].flips, vec![3.0], "179 → −179 is a flip; 170 → 179 and −179 → −170 are not");
        assert!(curves[0].flips.is_empty() && curves[2].flips.is_empty());
        assert!(channel_curves(&m, 9, 0.0).is_empty());
    }
}
