//! `face`: the clip turned about the up axis so that the body faces a direction.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::pose_ops;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Turns the clip about the up axis, through the root, so that at the first frame the
/// body (its left and right joints or markers) faces this way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    /// `+x`, `-x`, `+y`, `-y`, `+z` or `-z`, in the file's axes; not the up axis.
    pub toward: String,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "face",
    label: "Face a direction",
    help: "Turns the clip about the up axis, through the root's place at the first frame, so that the body faces `+x`, `-x`, `+y`, `-y`, `+z` or `-z` (the file's axes; not the up axis) at its first frame. Where the body faces is read from its mirrored left and right joints or markers (hips, pelvis, shoulders and head first: feet a stride apart say little).",
    notes: "Rotations are composed onto the root's (its Euler order kept); a capture's markers and force-platform corners turn.",
    params: &[Param {
        key: "toward",
        kind: Kind::Choice { choices: &["+x", "-x", "+y", "-y", "+z", "-z"], default: Absent::Required("+z") },
        help: "the direction, in the file's axes",
        from: Taken::Form,
    }],
    value: &["toward"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Face {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let toward = &self.toward;
        let Some(dir) = pose_ops::axis(toward) else {
            return Err(at.bad(format!("toward '{toward}': expected +x, -x, +y, -y, +z or -z (the file's axes)")));
        };
        pose_ops::face(w, dir).map_err(|m| at.bad(m))
    }
}
