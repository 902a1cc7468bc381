//! `remove_joint`: a joint and everything below it, or a marker, removed.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::core::Skeleton;
use crate::core::capture::Capture;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Removes a joint and every joint below it (fingers, helper bones), or a marker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveJoint {
    /// Its name.
    pub name: String,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "remove_joint",
    label: "Remove the selected joint",
    help: "Removes a joint and every joint below it (fingers, helper bones), or a marker.",
    notes: "",
    params: &[Param {
        key: "name",
        kind: Kind::Text { default: Absent::Required("") },
        help: "the joint or marker",
        from: Taken::Selection { optional: false },
    }],
    value: &["name"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for RemoveJoint {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let j = at.joint(w, &self.name)?;
        if w.motion.skeleton.len() == 1 {
            return Err(at.bad(format!("'{}' is the only joint", self.name)));
        }
        Ok(remove_joint(w, j))
    }
}

/// Removes joint `j` and everything below it.
fn remove_joint(w: &mut Work, j: usize) -> String {
    let old = &w.motion.skeleton;
    let mut gone = vec![false; old.len()];
    for (i, joint) in old.joints().iter().enumerate() {
        gone[i] = i == j || joint.parent.is_some_and(|p| gone[p]);
    }
    let mut new_index = vec![None; old.len()];
    let mut joints = Vec::new();
    let mut keep_channels = Vec::new();
    for (i, joint) in old.joints().iter().enumerate().filter(|(i, _)| !gone[*i]) {
        new_index[i] = Some(joints.len());
        let mut jt = joint.clone();
        jt.parent = joint.parent.and_then(|p| new_index[p]);
        keep_channels.extend(joint.first_channel..joint.first_channel + joint.channels.len());
        joints.push(jt);
    }
    let removed = gone.iter().filter(|g| **g).count();
    let cpf = old.channels_per_frame();
    let pick = |v: &[f32]| -> Vec<f32> { v.chunks_exact(cpf.max(1)).flat_map(|row| keep_channels.iter().map(|&c| row[c])).collect() };
    let pick_mask =
        |v: &[bool]| -> Vec<bool> { v.chunks_exact(cpf.max(1)).flat_map(|row| keep_channels.iter().map(|&c| row[c])).collect() };
    let rest = old.rest_values().map(pick);
    let (rule, name) = (old.position_rule, old.joints()[j].name.clone());
    w.values = if cpf == 0 { Vec::new() } else { pick(&w.values) };
    w.filled = if cpf == 0 { Vec::new() } else { pick_mask(&w.filled) };
    if let Some(c) = &mut w.capture {
        let points: Vec<usize> = (0..gone.len()).filter(|&k| gone[k]).filter_map(|k| c.marker_point(k)).collect();
        remove_points(c, &points);
    }
    if let Ok(s) = Skeleton::new(joints, rule) {
        w.motion.skeleton = match rest {
            Some(r) => s.clone().with_rest_values(r).unwrap_or(s),
            None => s,
        };
    }
    let meshes = w.motion.meshes.take();
    w.motion.meshes = meshes.as_deref().and_then(|set| set.remapped(|j| new_index[j])).map(std::sync::Arc::new);
    let dropped = if meshes.is_some() && w.motion.meshes.is_none() { "; the meshes are dropped (bound to a removed joint)" } else { "" };
    format!("removed '{name}' ({removed} joints with those below it){dropped}")
}

/// Removes `points` (indices) from a capture.
fn remove_points(c: &mut Capture, points: &[usize]) {
    let n = c.points.len();
    let keep: Vec<usize> = (0..n).filter(|p| !points.contains(p)).collect();
    let mut positions = Vec::with_capacity(c.frames * keep.len() * 3);
    let mut residuals = Vec::with_capacity(c.frames * keep.len());
    for f in 0..c.frames {
        for &p in &keep {
            positions.extend_from_slice(&c.positions[(f * n + p) * 3..][..3]);
            residuals.push(c.residuals[f * n + p]);
        }
    }
    c.points = keep.iter().map(|&p| c.points[p].clone()).collect();
    c.positions = positions;
    c.residuals = residuals;
}
