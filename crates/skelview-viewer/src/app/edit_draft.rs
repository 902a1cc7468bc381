//! The step the Edits window is putting together: an operation and the values its form shows,
//! kept in the view (the form reads it and sends a new one). Both the form and the step it
//! makes come from the operations' declarations ([`OPERATIONS`]): a new operation needs
//! nothing here.

use std::collections::BTreeMap;

use skelview_core::edit::spec::{Absent, Kind, Param, Taken};
use skelview_core::edit::{OPERATIONS, Op, OpSpec};

/// A value the form holds for a parameter: a number, or text (a choice, a name, a label).
#[derive(Clone, Debug, PartialEq)]
pub enum FormValue {
    /// A number (0 for an optional one left to the clip: `max_gap`'s half a second).
    Number(f64),
    /// Text.
    Text(String),
}

/// The form's values.
#[derive(Clone, Debug, PartialEq)]
pub struct EditDraft {
    /// Which operation (its name, as a recipe writes it).
    pub op: &'static str,
    /// Values the user changed, by operation and parameter key; the others are the
    /// declarations' starting values.
    pub values: BTreeMap<(&'static str, &'static str), FormValue>,
    /// Only the selected joint.
    pub selected_only: bool,
    /// Only the in/out range.
    pub range_only: bool,
}

impl Default for EditDraft {
    fn default() -> Self {
        Self { op: OPERATIONS[0].name, values: BTreeMap::new(), selected_only: false, range_only: false }
    }
}

/// Where the viewer stands, for the draft's step: the active clip's selected joint, its
/// frames of the in/out range, its frame now, and the capture-clock time now (events).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditScope {
    /// The selected joint's name.
    pub joint: Option<String>,
    /// First and last frame of the in/out range, in the clip's frames.
    pub range: (usize, usize),
    /// The frame shown.
    pub frame: usize,
    /// Seconds on the capture's clock now (as `info` lists events).
    pub event_time_secs: f64,
}

/// Why the draft cannot be added yet.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DraftError {
    /// It acts on the selected joint and none is selected.
    #[error("select a joint first")]
    NoJoint,
    /// A name or label is empty.
    #[error("type a name first")]
    NoName,
    /// A value the operation refuses (out of range, not one of its choices).
    #[error("{0}")]
    Invalid(String),
}

/// The operations the Edits window offers, in its list's order.
pub fn form_operations() -> impl Iterator<Item = &'static OpSpec> {
    OPERATIONS.iter().copied().filter(|s| s.in_form)
}

impl EditDraft {
    /// A draft of operation `name` with its starting values.
    pub fn of(name: &'static str) -> Self {
        Self { op: name, ..Self::default() }
    }

    /// The chosen operation's declaration.
    pub fn spec(&self) -> &'static OpSpec {
        OPERATIONS.iter().copied().find(|s| s.name == self.op).unwrap_or(OPERATIONS[0])
    }

    /// The value the form shows for `param` of the chosen operation.
    pub fn value(&self, param: &Param) -> FormValue {
        if let Some(v) = self.values.get(&(self.spec().name, param.key)) {
            return v.clone();
        }
        let start = param.kind.form_start();
        match param.kind {
            Kind::Number { .. } => FormValue::Number(start.parse().unwrap_or(0.0)),
            _ => FormValue::Text(start.to_owned()),
        }
    }

    /// Sets the form's value of `param` for the chosen operation.
    pub fn set(&mut self, param: &'static Param, value: FormValue) {
        self.values.insert((self.spec().name, param.key), value);
    }

    /// The step the draft describes at `scope`.
    pub fn op(&self, scope: &EditScope) -> Result<Op, DraftError> {
        let spec = self.spec();
        let mut step = toml::Table::new();
        step.insert("op".into(), toml::Value::String(spec.name.into()));
        let range = |(a, b): (usize, usize)| toml::Value::String(format!("{a}:{b}"));
        for p in spec.params {
            let value = match p.from {
                Taken::Form => self.form_value(p)?,
                Taken::Selection { optional } if optional && !self.selected_only => None,
                Taken::Selection { .. } => {
                    let joint = scope.joint.clone().ok_or(DraftError::NoJoint)?;
                    Some(match p.kind {
                        Kind::Names => toml::Value::Array(vec![toml::Value::String(joint)]),
                        _ => toml::Value::String(joint),
                    })
                }
                Taken::InOut { optional } if optional && !self.range_only => None,
                Taken::InOut { .. } => Some(range(scope.range)),
                Taken::FrameShown => Some(toml::Value::Integer(scope.frame as i64)),
                Taken::TimeShown => Some(toml::Value::Float((scope.event_time_secs * 1e6).round() / 1e6)),
                Taken::Nowhere => None,
            };
            if let Some(v) = value {
                step.insert(p.key.into(), v);
            }
        }
        <Op as serde::Deserialize>::deserialize(toml::Value::Table(step)).map_err(|e| DraftError::Invalid(e.message().to_owned()))
    }

    /// What the form's field for `p` puts in the step (`None`: left to its default).
    fn form_value(&self, p: &Param) -> Result<Option<toml::Value>, DraftError> {
        Ok(match (&p.kind, self.value(p)) {
            (Kind::Number { default: Absent::Auto(_), .. }, FormValue::Number(0.0)) => None,
            (Kind::Number { integer: true, .. }, FormValue::Number(v)) => Some(toml::Value::Integer(v.round() as i64)),
            (Kind::Number { .. }, FormValue::Number(v)) => Some(toml::Value::Float(v)),
            (kind, FormValue::Text(t)) if kind.required() && t.trim().is_empty() => return Err(DraftError::NoName),
            (_, FormValue::Text(t)) => Some(toml::Value::String(t.trim().to_owned())),
            (_, FormValue::Number(v)) => Some(toml::Value::Float(v)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::edit::{AddEvent, Filter, Ground, Rename, RestFromFrame, Trim};

    #[test]
    fn the_draft_narrows_to_the_selection_and_the_range_only_where_asked_and_possible() {
        let scope = EditScope { joint: Some("LeftArm".into()), range: (10, 40), frame: 7, event_time_secs: 1.2345678 };
        let mut d = EditDraft { op: "filter", selected_only: true, range_only: true, ..Default::default() };
        let Op::Filter(Filter { joints, range, order: 4, cutoff_hz, .. }) = d.op(&scope).unwrap() else { panic!() };
        assert_eq!((joints, cutoff_hz), (vec!["LeftArm".to_owned()], 6.0));
        assert_eq!(range.unwrap().to_string(), "10:40");
        d.op = "ground";
        assert_eq!(d.op(&scope).unwrap(), Op::Ground(Ground {}), "ground takes neither");
        d.op = "trim";
        assert_eq!(d.op(&scope).unwrap(), Op::Trim(Trim { range: "10:40".parse().unwrap() }));
        d.op = "rest_from_frame";
        assert_eq!(d.op(&scope).unwrap(), Op::RestFromFrame(RestFromFrame { frame: 7 }));
        d.op = "add_event";
        let event = AddEvent { label: "Foot Strike".into(), context: "Left".into(), time_secs: 1.234568 };
        assert_eq!(d.op(&scope).unwrap(), Op::AddEvent(event));
        let none = EditScope { joint: None, ..scope.clone() };
        d.op = "despike";
        assert_eq!(d.op(&none), Err(DraftError::NoJoint));
        d.op = "rename";
        assert_eq!(d.op(&scope), Err(DraftError::NoName));
        let to = d.spec().param("to").unwrap();
        d.set(to, FormValue::Text("Skull".into()));
        assert_eq!(d.op(&scope).unwrap(), Op::Rename(Rename { from: "LeftArm".into(), to: "Skull".into() }));
    }

    #[test]
    fn every_operation_the_form_offers_makes_a_step_from_its_starting_values() {
        let scope = EditScope { joint: Some("Hips".into()), range: (0, 9), frame: 3, event_time_secs: 0.5 };
        let mut offered = 0;
        for spec in form_operations() {
            let mut d = EditDraft { selected_only: true, range_only: true, ..EditDraft::of(spec.name) };
            for p in spec.params.iter().filter(|p| p.from == Taken::Form && matches!(p.kind, Kind::Text { .. })) {
                if d.value(p) == FormValue::Text(String::new()) {
                    d.set(p, FormValue::Text("NewName".into()));
                }
            }
            let op = d.op(&scope).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            assert_eq!(op.name(), spec.name);
            offered += 1;
        }
        assert_eq!(offered, OPERATIONS.iter().filter(|s| s.in_form).count());
        assert!(offered >= 15);
    }
}
