//! `remove_event`: a capture's event removed.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Removes a capture's event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveEvent {
    /// Its label.
    pub label: String,
    /// Its time (the event nearest it, within half a frame).
    pub time_secs: f64,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "remove_event",
    label: "Remove an event",
    help: "Removes a capture's event (the one with that label within half a frame).",
    notes: "",
    params: &[
        Param { key: "label", kind: Kind::Text { default: Absent::Required("") }, help: "its label", from: Taken::Nowhere },
        Param {
            key: "time_secs",
            kind: Kind::Number { min: -1e12, max: 1e12, integer: false, unit: "s", default: Absent::Required("0") },
            help: "its time, seconds on the capture's clock",
            from: Taken::Nowhere,
        },
    ],
    value: &["label", "time_secs"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    // The Edits window's event list and the timeline remove events.
    in_form: false,
};

impl Operation for RemoveEvent {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let (label, time_secs) = (&self.label, self.time_secs);
        let half_frame = 0.5 * w.frame_time_secs.max(1e-6);
        let Some(c) = w.capture.as_mut() else { return Err(at.bad("events belong to captures (C3D, TRC)")) };
        let hit = c.events.iter().position(|e| e.label == *label && (e.time_secs - time_secs).abs() <= half_frame);
        let Some(k) = hit else {
            let listed: Vec<String> = c.events.iter().map(|e| format!("{} at {:.3} s", e.label, e.time_secs)).collect();
            return Err(at.bad(format!(
                "no event '{label}' at {time_secs} s (events: {})",
                if listed.is_empty() { "none".into() } else { listed.join(", ") }
            )));
        };
        c.events.remove(k);
        Ok(format!("{label} at {time_secs} s removed"))
    }
}
