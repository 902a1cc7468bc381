//! `despike`: the samples the checks call pops (jumps, for markers) replaced from their
//! neighbours.

use serde::{Deserialize, Serialize};

use super::fill_gaps::fill_rotation;
use super::{Operation, StepAt, column};
use crate::edit::fill::{self, Gap};
use crate::edit::rotations::RotationChannels;
use crate::edit::spec::{FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::work::snapshot;
use crate::edit::{EditError, FrameRange, Work};

/// Replaces the samples the capture checks call pops (jumps, for markers) from their
/// neighbours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Despike {
    /// Joints or markers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<String>,
    /// Frames.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<FrameRange>,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "despike",
    label: "Remove spikes",
    help: "Replaces the samples the checks call pops (jumps, for markers) by a line (a slerp, for rotations) between the samples either side.",
    notes: "",
    params: &[
        Param { key: "joints", kind: Kind::Names, help: "the joints or markers despiked", from: Taken::Selection { optional: true } },
        Param { key: "range", kind: Kind::Range { required: false }, help: "the frames despiked", from: Taken::InOut { optional: true } },
    ],
    value: &[],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Despike {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let joints = at.joints(w, &self.joints)?;
        let range = at.frames(w, self.range.as_ref())?;
        Ok(despike(w, &joints, range))
    }
}

/// Replaces the samples the capture checks call pops (jumps for markers) from the samples
/// either side.
fn despike(w: &mut Work, joints: &[usize], (lo, hi): (usize, usize)) -> String {
    let m = snapshot(w);
    let kinds = if w.capture.is_some() { [crate::qa::Kind::Jump] } else { [crate::qa::Kind::Pop] };
    let report = crate::qa::analyse(&m, &crate::qa::Thresholds::default(), &kinds, &|_| {});
    let cpf = w.cpf();
    let mut fixed = 0;
    for finding in &report.findings {
        let Some(j) = finding.joint.filter(|j| joints.contains(j)) else { continue };
        let g = Gap { first: finding.start_frame, last: finding.end_frame };
        if g.first < lo.max(1) || g.last > hi || g.last + 1 >= w.frames {
            continue;
        }
        let joint = &w.motion.skeleton.joints()[j];
        let rot = RotationChannels::of(joint);
        let rot_idx = rot.as_ref().map(|r| r.indices()).unwrap_or_default();
        let mut writes = Vec::new();
        if rot.is_some() {
            fill_rotation(w, rot.as_ref(), g, &mut writes);
        }
        for c in (joint.first_channel..joint.first_channel + joint.channels.len()).filter(|c| !rot_idx.contains(c)) {
            let mut col = column(w, c);
            if col[g.first - 1].is_finite() && col[g.last + 1].is_finite() {
                fill::linear(&mut col, g);
                writes.extend((g.first..=g.last).map(|f| (f, c, col[f] as f32)));
            }
        }
        for (f, c, v) in writes {
            w.values[f * cpf + c] = v;
        }
        fixed += 1;
    }
    format!("{fixed} spikes replaced from their neighbours")
}
