//! The step the Edits window is putting together: an operation and every parameter its form
//! shows, kept in the view (the form reads it and sends a new one), made into an [`Op`] for
//! the selection and the in/out range when the user adds it.

use skelview_core::edit::{At, FillMethod, FrameRange, Op};

/// The operations the Edits window offers, in its list's order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DraftOp {
    #[default]
    FillGaps,
    Filter,
    Despike,
    Unroll,
    Trim,
    Resample,
    Loop,
    Ground,
    AddTpose,
    RestFromFrame,
    Face,
    Scale,
    Rename,
    RemoveJoint,
    AddEvent,
}

impl DraftOp {
    /// Every operation, in menu order.
    pub const ALL: [Self; 15] = [
        Self::FillGaps,
        Self::Filter,
        Self::Despike,
        Self::Unroll,
        Self::Trim,
        Self::Resample,
        Self::Loop,
        Self::Ground,
        Self::AddTpose,
        Self::RestFromFrame,
        Self::Face,
        Self::Scale,
        Self::Rename,
        Self::RemoveJoint,
        Self::AddEvent,
    ];

    /// Its label in the window.
    pub fn label(self) -> &'static str {
        match self {
            Self::FillGaps => "Fill gaps",
            Self::Filter => "Butterworth low-pass",
            Self::Despike => "Remove spikes",
            Self::Unroll => "Unroll Euler angles",
            Self::Trim => "Trim to the in/out range",
            Self::Resample => "Resample",
            Self::Loop => "Make it loop",
            Self::Ground => "Put it on the ground",
            Self::AddTpose => "Add a rest-pose frame first",
            Self::RestFromFrame => "Rest pose from this frame",
            Self::Face => "Face a direction",
            Self::Scale => "Scale",
            Self::Rename => "Rename the selected joint",
            Self::RemoveJoint => "Remove the selected joint",
            Self::AddEvent => "Add an event here",
        }
    }

    /// True when it narrows to the selected joint and the in/out range on request.
    pub fn scoped(self) -> bool {
        matches!(self, Self::FillGaps | Self::Filter | Self::Despike | Self::Unroll)
    }
}

/// The form's values.
#[derive(Clone, Debug, PartialEq)]
pub struct EditDraft {
    /// Which operation.
    pub op: DraftOp,
    /// Gap fill method.
    pub method: FillMethod,
    /// Longest gap to fill, frames (0: half a second of frames).
    pub max_gap: usize,
    /// Filter cutoff, Hz.
    pub cutoff_hz: f64,
    /// Filter order.
    pub order: usize,
    /// Resampling rate, frames per second.
    pub fps: f64,
    /// Frames of a loop's blend.
    pub loop_frames: usize,
    /// Scale factor.
    pub factor: f64,
    /// Direction to face (`+z`…).
    pub toward: String,
    /// The selected joint's new name.
    pub new_name: String,
    /// An event's label.
    pub event_label: String,
    /// An event's context: `Left`, `Right` or `General`.
    pub event_context: String,
    /// Only the selected joint.
    pub selected_only: bool,
    /// Only the in/out range.
    pub range_only: bool,
}

impl Default for EditDraft {
    fn default() -> Self {
        Self {
            op: DraftOp::FillGaps,
            method: FillMethod::Auto,
            max_gap: 0,
            cutoff_hz: 6.0,
            order: 4,
            fps: 30.0,
            loop_frames: 10,
            factor: 1.0,
            toward: "+z".into(),
            new_name: String::new(),
            event_label: "Foot Strike".into(),
            event_context: "Left".into(),
            selected_only: false,
            range_only: false,
        }
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
}

impl EditDraft {
    /// The step the draft describes at `scope`.
    pub fn op(&self, scope: &EditScope) -> Result<Op, DraftError> {
        let joints = match (&scope.joint, self.selected_only && self.op.scoped()) {
            (Some(j), true) => vec![j.clone()],
            (None, true) => return Err(DraftError::NoJoint),
            _ => Vec::new(),
        };
        let frames = |(a, b): (usize, usize)| FrameRange { start: Some(At::Frame(a as i64)), end: Some(At::Frame(b as i64)) };
        let range = (self.range_only && self.op.scoped()).then(|| frames(scope.range));
        let joint = || scope.joint.clone().ok_or(DraftError::NoJoint);
        Ok(match self.op {
            DraftOp::FillGaps => {
                let max_gap = (self.max_gap > 0).then_some(self.max_gap);
                Op::FillGaps { method: self.method, max_gap, donors: Vec::new(), joints, range }
            }
            DraftOp::Filter => Op::Filter { cutoff_hz: self.cutoff_hz, order: self.order, joints, range },
            DraftOp::Despike => Op::Despike { joints, range },
            DraftOp::Unroll => Op::Unroll { joints },
            DraftOp::Trim => Op::Trim { range: frames(scope.range) },
            DraftOp::Resample => Op::Resample { fps: self.fps },
            DraftOp::Loop => Op::Loop { frames: self.loop_frames },
            DraftOp::Ground => Op::Ground,
            DraftOp::AddTpose => Op::AddTpose,
            DraftOp::RestFromFrame => Op::RestFromFrame { frame: scope.frame },
            DraftOp::Face => Op::Face { toward: self.toward.clone() },
            DraftOp::Scale => Op::Scale { factor: self.factor },
            DraftOp::Rename => {
                let to = self.new_name.trim();
                if to.is_empty() {
                    return Err(DraftError::NoName);
                }
                Op::Rename { from: joint()?, to: to.to_owned() }
            }
            DraftOp::RemoveJoint => Op::RemoveJoint { name: joint()? },
            DraftOp::AddEvent => {
                if self.event_label.trim().is_empty() {
                    return Err(DraftError::NoName);
                }
                Op::AddEvent {
                    label: self.event_label.trim().to_owned(),
                    context: self.event_context.clone(),
                    time_secs: (scope.event_time_secs * 1e6).round() / 1e6,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draft_narrows_to_the_selection_and_the_range_only_where_asked_and_possible() {
        let scope = EditScope { joint: Some("LeftArm".into()), range: (10, 40), frame: 7, event_time_secs: 1.2345678 };
        let mut d = EditDraft { op: DraftOp::Filter, selected_only: true, range_only: true, ..Default::default() };
        let Op::Filter { joints, range, order: 4, .. } = d.op(&scope).unwrap() else { panic!() };
        assert_eq!(joints, ["LeftArm"]);
        assert_eq!(range.unwrap().to_string(), "10:40");
        d.op = DraftOp::Ground;
        assert_eq!(d.op(&scope).unwrap(), Op::Ground, "ground takes neither");
        d.op = DraftOp::Trim;
        assert_eq!(d.op(&scope).unwrap(), Op::Trim { range: "10:40".parse().unwrap() });
        d.op = DraftOp::RestFromFrame;
        assert_eq!(d.op(&scope).unwrap(), Op::RestFromFrame { frame: 7 });
        d.op = DraftOp::AddEvent;
        assert_eq!(d.op(&scope).unwrap(), Op::AddEvent { label: "Foot Strike".into(), context: "Left".into(), time_secs: 1.234568 });
        let none = EditScope { joint: None, ..scope };
        d.op = DraftOp::Despike;
        assert_eq!(d.op(&none), Err(DraftError::NoJoint));
        d.op = DraftOp::Rename;
        assert_eq!(d.op(&scope), Err(DraftError::NoName));
        d.new_name = "Skull".into();
        assert_eq!(d.op(&scope).unwrap(), Op::Rename { from: "LeftArm".into(), to: "Skull".into() });
    }
}
