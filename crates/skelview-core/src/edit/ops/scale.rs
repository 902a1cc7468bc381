//! `scale`: every length scaled.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::core::ChannelKind;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::work::rebuild;
use crate::edit::{EditError, Work};

/// Scales lengths (offsets, translations, marker positions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// The factor.
    pub factor: f64,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "scale",
    label: "Scale",
    help: "Scales every length: offsets, translations, marker positions, force-platform corners.",
    notes: "",
    params: &[Param {
        key: "factor",
        kind: Kind::Number { min: 1e-9, max: 1e9, integer: false, unit: "", default: Absent::Required("1") },
        help: "the factor (above 0)",
        from: Taken::Form,
    }],
    value: &["factor"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Scale {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let factor = self.factor;
        if !(factor.is_finite() && factor > 0.0) {
            return Err(at.bad(format!("factor {factor}: expected a number above 0")));
        }
        Ok(scale(w, factor as f32))
    }
}

/// Scales every length by `k`.
fn scale(w: &mut Work, k: f32) -> String {
    let cpf = w.cpf();
    let mut joints = w.motion.skeleton.joints().to_vec();
    for j in &mut joints {
        j.offset *= k;
        j.tail *= k;
        for (i, c) in j.channels.iter().enumerate() {
            if c.is_translation() || *c == ChannelKind::Length {
                (0..w.frames).for_each(|f| w.values[f * cpf + j.first_channel + i] *= k);
            }
        }
    }
    rebuild(w, joints);
    // Joints' frames keep their turn and move k times as far: meshes scale with them.
    let grown = glam::Mat4::from_scale(glam::Vec3::splat(k));
    w.motion.meshes = w.motion.meshes.as_deref().map(|set| std::sync::Arc::new(set.rebound(|_, m| grown * m)));
    if let Some(c) = &mut w.capture {
        // Every point of the capture that is a position (markers are rewritten at the end).
        c.positions.iter_mut().for_each(|v| *v *= k);
        c.residuals.iter_mut().filter(|r| **r > 0.0).for_each(|r| *r *= k);
        for p in &mut c.plates {
            p.corners.iter_mut().for_each(|v| *v *= k);
            p.origin *= k;
        }
    }
    format!("lengths scaled by {k}")
}
