//! `trim`: only a range of frames kept.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, FrameRange, Work};

/// Keeps only a range of frames.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trim {
    /// The frames kept (inclusive).
    pub range: FrameRange,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "trim",
    label: "Trim to the in/out range",
    help: "Keeps frames A to B inclusive, numbered from 0 as `positions` numbers them (negative: from the end), or seconds (`1.5s:3s`).",
    notes: "A capture's other points, analog samples and events follow; events outside the range go.",
    params: &[Param {
        key: "range",
        kind: Kind::Range { required: true },
        help: "the frames kept",
        from: Taken::InOut { optional: false },
    }],
    value: &["range"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Trim {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let (first, last) = at.frames(w, Some(&self.range))?;
        Ok(crate::edit::timing::trim(w, first, last))
    }
}
