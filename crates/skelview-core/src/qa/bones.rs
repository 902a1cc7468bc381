//! `bone_length`: bones whose length changes over the clip, where the file lets it change
//! (translation or bone-length channels on a joint that has a parent).

use super::ranges::{frames_text, median, runs};
use super::thresholds::BoneLengthThresholds;
use super::tracks::Tracks;
use super::{Finding, Kind};
use crate::core::Motion;

/// For each joint with translation channels and a parent: the frames where the distance to
/// the parent departs from its median by more than the threshold percentage.
pub fn bone_length(m: &Motion, t: &Tracks, th: &BoneLengthThresholds) -> Vec<Finding> {
    let n = t.frames;
    let mut out = Vec::new();
    for &j in &t.trans_joints {
        let Some(p) = m.skeleton.joints()[j].parent else { continue };
        // From a root the "bone" is where the body stands (a placement node to the hips).
        if m.skeleton.joints()[p].parent.is_none() {
            continue;
        }
        let lengths: Vec<f32> = (0..n).map(|f| (t.pos(f, j) - t.pos(f, p)).length()).collect();
        let mut sorted = lengths.clone();
        let typical = median(&mut sorted);
        // A joint on top of its parent has no bone to stretch.
        if typical.is_nan() || typical <= 1e-3 {
            continue;
        }
        let change = |f: usize| (lengths[f] - typical).abs() / typical * 100.0;
        for (a, b) in runs(n, 0, |f| change(f) > th.percent) {
            let (value, at) = (a..=b).map(|f| (change(f), f)).fold((0f32, a), |w, e| if e.0 > w.0 { e } else { w });
            let joint = &m.skeleton.joints()[j];
            out.push(Finding {
                kind: Kind::BoneLength,
                joint: Some(j),
                start_frame: a,
                end_frame: b,
                value,
                unit: "%",
                threshold: th.percent,
                message: format!(
                    "bone {} → {} is {:.1} cm at frame {at}, {value:.1}% off its usual {:.1} cm (over {})",
                    m.skeleton.joints()[p].name,
                    joint.name,
                    lengths[at] * 100.0,
                    typical * 100.0,
                    frames_text(a, b)
                ),
            });
        }
    }
    out
}
