//! `resample`: another frame rate, translations lerped and rotations slerped.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Resamples to another frame rate (translations lerped, rotations slerped).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resample {
    /// Frames per second.
    pub fps: f64,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "resample",
    label: "Resample",
    help: "Resamples to any rate.",
    notes: "Translations and other channels are lerped, rotations slerped; a sample next to a gap is a gap. A capture's analog channels are kept when the new rate divides their rate, else dropped (said).",
    params: &[Param {
        key: "fps",
        kind: Kind::Number { min: 1e-9, max: 100_000.0, integer: false, unit: "fps", default: Absent::Required("30") },
        help: "the new frame rate",
        from: Taken::Form,
    }],
    value: &["fps"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Resample {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let fps = self.fps;
        if !(fps.is_finite() && fps > 0.0 && fps <= 100_000.0) {
            return Err(at.bad(format!("fps {fps}: expected a rate above 0 (and at most 100000)")));
        }
        if w.frame_time_secs <= 0.0 {
            return Err(at.bad("the clip has no frame rate to resample from"));
        }
        Ok(crate::edit::timing::resample(w, fps))
    }
}
