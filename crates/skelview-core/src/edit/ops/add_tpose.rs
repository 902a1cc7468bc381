//! `add_tpose`: the rest pose put in front of the clip as frame 0.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::core::ChannelKind;
use crate::edit::spec::{FreePart, OpSpec};
use crate::edit::{EditError, Work};

/// Adds the rest pose (for most BVH files a T-pose) as a new first frame, at the first
/// frame's place (bvhacker's "Set T"): rotations zero, or the file's own rest values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddTpose {}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "add_tpose",
    label: "Add a rest-pose frame first",
    help: "Adds the rest pose (for most BVH files a T-pose) as a new first frame, at the place where the clip starts: bvhacker's \"Set T\", for retargeting tools that want one. Rotations zero, or the file's own rest values (ACL, glTF, H-Anim).",
    notes: "Skeleton clips only.",
    params: &[],
    value: &[],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for AddTpose {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        if w.capture.is_some() {
            return Err(at.bad("a capture's markers have no rest pose to add"));
        }
        Ok(add_tpose(w))
    }
}

/// Puts the rest pose in front of the clip as frame 0: rotations zero (identity quaternions,
/// scale 1, no stretch), or the skeleton's own rest values where the format has them;
/// translations as in the first frame, so that the pose stands where the clip starts.
fn add_tpose(w: &mut Work) -> String {
    let cpf = w.cpf();
    let skeleton = &w.motion.skeleton;
    let mut row = vec![0.0f32; cpf];
    for j in skeleton.joints() {
        for (i, c) in j.channels.iter().enumerate() {
            let at = j.first_channel + i;
            row[at] = match c {
                ChannelKind::QuatW | ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ => 1.0,
                c if c.is_translation() => w.values.get(at).copied().filter(|v| v.is_finite()).unwrap_or(0.0),
                _ => 0.0,
            };
        }
    }
    if let Some(rest) = skeleton.rest_values() {
        let channels = skeleton.joints().iter().flat_map(|j| j.channels.iter().map(move |c| (j.parent.is_none(), *c)));
        for ((root, kind), (slot, v)) in channels.zip(row.iter_mut().zip(rest)) {
            // The root keeps the first frame's place.
            if !(root && kind.is_translation()) {
                *slot = *v;
            }
        }
    }
    let mut values = row;
    values.extend_from_slice(&w.values);
    w.values = values;
    let mut filled = vec![false; cpf];
    filled.extend_from_slice(&w.filled);
    w.filled = filled;
    w.frames += 1;
    w.source_offset_secs -= w.frame_time_secs;
    w.motion.source.declared_frames = None;
    format!("the rest pose added as frame 0 ({} frames now)", w.frames)
}
