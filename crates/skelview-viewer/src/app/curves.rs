//! Channel curves of one joint over a whole clip, for plotting: one series per channel on
//! the shared clock, rotations in degrees, translations in metres, and the frames where an Euler angle jumps by more
//! than 180° (a flip between equivalent solutions, not motion). Long clips are reduced to
//! [`STORED_COLUMNS`] columns as they are read, so a million frames cost the panel nothing.

use std::sync::Arc;

use skelview_core::core::Motion;
use skelview_core::core::envelope::{Decimator, STORED_COLUMNS, one_per_column};

/// One channel over the clip.
#[derive(Clone, Debug, PartialEq)]
pub struct ChannelCurve {
    /// Channel name as the file writes it (BVH) or short.
    pub name: String,
    /// `(shared time, value)`, min and max per column for long clips; rotations in degrees,
    /// translations in metres, others as in the file.
    pub points: Vec<[f64; 2]>,
    /// A translation channel (its values are metres).
    pub length: bool,
    /// Shared times of the frames that jump by more than 180° from the previous one (at
    /// most one per column).
    pub flips: Vec<f64>,
    /// How many frames jump so, in all.
    pub flip_count: usize,
}

/// What a set of curves is computed from.
#[derive(Clone, Debug)]
pub struct CurvesInput {
    /// The clip.
    pub motion: Arc<Motion>,
    /// Its serial (a new load is a new serial).
    pub serial: u64,
    /// The joint.
    pub joint: usize,
    /// A capture's signal to show instead of the joint's channels.
    pub signal: Option<skelview_core::core::signals::Signal>,
    /// Shared time of the clip's first frame.
    pub offset_secs: f64,
    /// Metres per file unit (the user's unit override applied).
    pub metres_per_unit: f32,
}

impl PartialEq for CurvesInput {
    fn eq(&self, o: &Self) -> bool {
        (self.serial, self.joint, self.signal, self.offset_secs, self.metres_per_unit)
            == (o.serial, o.joint, o.signal, o.offset_secs, o.metres_per_unit)
    }
}

/// The curves `input` asks for: its capture signal's, else its joint's channels.
pub fn curves_of(input: &CurvesInput, keep_going: &dyn Fn(f64) -> bool) -> Option<Vec<ChannelCurve>> {
    match (input.signal, &input.motion.capture) {
        (Some(signal), Some(capture)) => Some(signal_curves(capture, signal, input.offset_secs)),
        _ => channel_curves(&input.motion, input.joint, input.offset_secs, input.metres_per_unit, keep_going),
    }
}

/// One curve per component of a capture's signal, on the shared clock (the capture's first
/// frame at `offset_secs`), in the signal's own unit; samples without a value are left out.
pub fn signal_curves(
    capture: &skelview_core::core::capture::Capture,
    signal: skelview_core::core::signals::Signal,
    offset_secs: f64,
) -> Vec<ChannelCurve> {
    let Some(s) = skelview_core::core::signals::series(capture, signal) else { return Vec::new() };
    let n = s.values.len();
    let dt = if s.rate_hz > 0.0 { 1.0 / s.rate_hz } else { 0.0 };
    let (t0, t1) = (offset_secs, offset_secs + n.saturating_sub(1) as f64 * dt);
    let unit = if s.unit.is_empty() { String::new() } else { format!(" ({})", s.unit) };
    (0..s.components.len())
        .map(|k| {
            let mut points = Decimator::new(t0, t1, STORED_COLUMNS, n);
            for (i, row) in s.values.iter().enumerate() {
                if let Some(v) = row.get(k).filter(|v| v.is_finite()) {
                    points.push(offset_secs + i as f64 * dt, f64::from(*v));
                }
            }
            let name =
                if s.components.len() == 1 { format!("{}{unit}", s.label) } else { format!("{} {}{unit}", s.label, s.components[k]) };
            ChannelCurve { name, points: points.finish(), length: false, flips: Vec::new(), flip_count: 0 }
        })
        .collect()
}

/// The curves of `joint`'s channels in `m`, whose first frame is at shared time `offset_secs`
/// (translations scaled by `metres_per_unit`). Empty when the joint has no channels or the
/// clip no frames. `keep_going(fraction)` returns false to stop (then `None`).
pub fn channel_curves(
    m: &Motion,
    joint: usize,
    offset_secs: f64,
    metres_per_unit: f32,
    keep_going: &dyn Fn(f64) -> bool,
) -> Option<Vec<ChannelCurve>> {
    let Some(j) = m.skeleton.joints().get(joint) else { return Some(Vec::new()) };
    let n = m.clip.num_frames();
    let ft = m.clip.frame_time_secs;
    let (t0, t1) = (offset_secs, offset_secs + n.saturating_sub(1) as f64 * ft);
    let mut curves = Vec::with_capacity(j.channels.len());
    for (k, kind) in j.channels.iter().enumerate() {
        if !keep_going(k as f64 / j.channels.len() as f64) {
            return None;
        }
        let column = j.first_channel + k;
        let mut points = Decimator::new(t0, t1, STORED_COLUMNS, n);
        let (mut flips, mut previous) = (Vec::new(), None::<f64>);
        for f in 0..n {
            let Some(&raw) = m.clip.frame(f).get(column) else { break };
            let v = match () {
                _ if kind.is_rotation() => (raw as f64).to_degrees(),
                _ if kind.is_translation() => raw as f64 * metres_per_unit as f64,
                _ => raw as f64,
            };
            let t = offset_secs + f as f64 * ft;
            if kind.is_rotation() && previous.is_some_and(|p| (v - p).abs() > 180.0) {
                flips.push(t);
            }
            previous = Some(v);
            points.push(t, v);
        }
        let name = m.source.format.channel_name(*kind);
        let flip_count = flips.len();
        let flips = if flip_count > STORED_COLUMNS { one_per_column(&flips, t0, t1, STORED_COLUMNS) } else { flips };
        curves.push(ChannelCurve { name: name.to_string(), points: points.finish(), length: kind.is_translation(), flips, flip_count });
    }
    Some(curves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::formats::LoadOptions;

    const FLIP: &[u8] = b"HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 4 Xposition Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 4\nFrame Time: 0.5\n0 170 0 0\n1 179 0 0\n2 -179 0 0\n3 -170 0 0\n";

    #[test]
    fn curves_in_degrees_on_the_shared_clock_with_flips_marked() {
        let m = skelview_core::formats::open_bytes("flip.bvh", FLIP, &LoadOptions::default()).unwrap();
        let curves = channel_curves(&m, 0, 2.0, 0.01, &|_| true).unwrap();
        assert_eq!(curves.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Xposition", "Zrotation", "Xrotation", "Yrotation"]);
        let expected = [[2.0, 0.0], [2.5, 0.01], [3.0, 0.02], [3.5, 0.03]];
        assert!(
            curves[0].points.iter().zip(expected).all(|(p, e)| p[0] == e[0] && (p[1] - e[1]).abs() < 1e-8),
            "metres: {:?}",
            curves[0].points
        );
        assert_eq!(curves[0].points.len(), 4);
        assert!(curves[0].length && !curves[1].length);
        assert!((curves[1].points[1][1] - 179.0).abs() < 1e-3);
        assert_eq!(curves[1].flips, vec![3.0], "179 → −179 is a flip; 170 → 179 and −179 → −170 are not");
        assert!(curves[0].flips.is_empty() && curves[2].flips.is_empty());
        assert_eq!(curves[1].flip_count, 1);
        assert!(channel_curves(&m, 9, 0.0, 1.0, &|_| true).unwrap().is_empty());
        assert_eq!(channel_curves(&m, 0, 0.0, 1.0, &|_| false), None, "stops when told");
    }
}
