//! `rest_from_frame`: a frame made the rest pose; the motion does not change.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Makes a frame the rest pose: offsets from where it puts the joints, every frame's
/// rotations re-expressed from it (it reads all zeros); the motion does not change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestFromFrame {
    /// The frame (numbered from 0).
    pub frame: usize,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "rest_from_frame",
    label: "Rest pose from this frame",
    help: "Makes frame N the rest pose: each joint's offset becomes where frame N puts it from its parent, fixed axes (ASF, HTR) and bone vectors go, and every frame's rotations are re-expressed from it, so frame N reads all zeros. For tools that want the capture's own neutral pose as the bind pose.",
    notes: "The motion does not change (every joint within 1e-4 m, tested on BVH and glTF). Skeleton clips only; a joint with one or two rotation channels (ASF's knees) or translation channels is refused by name.",
    params: &[Param {
        key: "frame",
        kind: Kind::Number { min: 0.0, max: 1e12, integer: true, unit: "", default: Absent::Required("0") },
        help: "the frame, numbered from 0",
        from: Taken::FrameShown,
    }],
    value: &["frame"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for RestFromFrame {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let frame = self.frame;
        if w.frames == 0 {
            return Err(at.bad("the clip has no frames"));
        }
        if frame >= w.frames {
            return Err(at.bad(format!("frame {frame}: expected 0 to {}", w.frames.saturating_sub(1))));
        }
        crate::edit::pose_ops::rest_from_frame(w, frame).map_err(|m| at.bad(m))
    }
}
