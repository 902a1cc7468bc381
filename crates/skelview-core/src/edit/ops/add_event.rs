//! `add_event`: an event added to a capture.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::core::capture::Event;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Adds an event to a capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddEvent {
    /// Label (`Foot Strike`).
    pub label: String,
    /// `Left`, `Right` or `General`.
    pub context: String,
    /// Seconds on the capture's clock (as `info` lists events).
    pub time_secs: f64,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "add_event",
    label: "Add an event here",
    help: "Adds an event to a capture (`Left`, `Right` or `General`; times as `info` lists them).",
    notes: "",
    params: &[
        Param { key: "label", kind: Kind::Text { default: Absent::Required("Foot Strike") }, help: "its label", from: Taken::Form },
        Param {
            key: "context",
            kind: Kind::Choice { choices: &["Left", "Right", "General"], default: Absent::Required("Left") },
            help: "its side",
            from: Taken::Form,
        },
        Param {
            key: "time_secs",
            kind: Kind::Number { min: -1e12, max: 1e12, integer: false, unit: "s", default: Absent::Required("0") },
            help: "seconds on the capture's clock",
            from: Taken::TimeShown,
        },
    ],
    value: &["label", "context", "time_secs"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for AddEvent {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let (label, context, time_secs) = (&self.label, &self.context, self.time_secs);
        let Some(c) = w.capture.as_mut() else { return Err(at.bad("events belong to captures (C3D, TRC)")) };
        if !time_secs.is_finite() {
            return Err(at.bad(format!("time {time_secs}: expected seconds")));
        }
        if !["Left", "Right", "General"].contains(&context.as_str()) {
            return Err(at.bad(format!("context '{context}': expected Left, Right or General")));
        }
        c.events.push(Event { label: label.clone(), context: context.clone(), time_secs, description: String::new() });
        c.events.sort_by(|a, b| a.time_secs.total_cmp(&b.time_secs));
        Ok(format!("{context} {label} at {time_secs} s"))
    }
}
