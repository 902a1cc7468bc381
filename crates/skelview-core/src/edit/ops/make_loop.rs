//! `loop`: the end blended into the start so that the clip loops.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Blends the end into the start over `frames` frames, so that the last frame leads into
/// the first without a jump (same frame count). The root's horizontal travel is kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loop {
    /// Frames of the blend.
    pub frames: usize,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "loop",
    label: "Make it loop",
    help: "Blends the end into the start over FRAMES frames so that the last frame leads into the first without a jump; same frame count.",
    notes: "The root's horizontal translation keeps travelling (a walk keeps walking); the seam is judged on positions relative to the root's horizontal place. Skeleton clips only.",
    params: &[Param {
        key: "frames",
        kind: Kind::Number { min: 1.0, max: 1e9, integer: true, unit: "frames", default: Absent::Required("10") },
        help: "frames of the blend",
        from: Taken::Form,
    }],
    value: &["frames"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Loop {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let frames = self.frames;
        if w.capture.is_some() {
            return Err(at.bad("loops are made of skeleton clips; a capture's markers have no root to keep travelling"));
        }
        if frames == 0 || frames + 2 > w.frames {
            return Err(at.bad(format!("frames {frames}: expected 1 to {} (the clip's frames less two)", w.frames.saturating_sub(2))));
        }
        Ok(crate::edit::timing::make_loop(w, frames))
    }
}
