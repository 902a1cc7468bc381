//! `rename`: a joint or marker renamed.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::work::rebuild;
use crate::edit::{EditError, Work};

/// Renames a joint or marker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    /// The name it has.
    pub from: String,
    /// The name it gets.
    pub to: String,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "rename",
    label: "Rename the selected joint",
    help: "Renames a joint or marker.",
    notes: "",
    params: &[
        Param {
            key: "from",
            kind: Kind::Text { default: Absent::Required("") },
            help: "the name it has",
            from: Taken::Selection { optional: false },
        },
        Param {
            key: "to",
            kind: Kind::Text { default: Absent::Required("") },
            help: "the name it gets (no other joint's)",
            from: Taken::Form,
        },
    ],
    value: &["from", "to"],
    separator: '=',
    free_part: FreePart::Last,
    prefix: None,
    in_form: true,
};

impl Operation for Rename {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let (from, to) = (&self.from, &self.to);
        let j = at.joint(w, from)?;
        if to.trim().is_empty() || (w.motion.skeleton.find(to).is_some_and(|k| k != j)) {
            return Err(at.bad(format!("to '{to}': expected a name no other joint has")));
        }
        rename(w, j, to);
        Ok(format!("'{from}' is now '{to}'"))
    }
}

fn rename(w: &mut Work, j: usize, to: &str) {
    let mut joints = w.motion.skeleton.joints().to_vec();
    joints[j].name = to.to_owned();
    rebuild(w, joints);
    if let Some(c) = &mut w.capture
        && let Some(p) = c.marker_point(j)
    {
        c.points[p].label = to.to_owned();
    }
}
