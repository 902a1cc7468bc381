//! `unroll`: Euler channels made continuous, quaternions put in one hemisphere; the pose stays.

use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::rotations::RotationChannels;
use crate::edit::spec::{FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::{EditError, Work};

/// Makes every Euler channel continuous (no ±360° steps; the equivalent triple where it is
/// closer) and quaternions hemisphere-continuous. The pose does not move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unroll {
    /// Joints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<String>,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "unroll",
    label: "Unroll Euler angles",
    help: "Makes every Euler channel continuous: whole turns removed and, where it is closer, the other triple of the same rotation (a + 180°, 180° − b, c + 180°). Quaternions are made hemisphere-continuous.",
    notes: "The pose does not move (positions unchanged to 1e-6 m, tested); the checks then find no flips.",
    params: &[Param { key: "joints", kind: Kind::Names, help: "the joints unrolled", from: Taken::Selection { optional: true } }],
    value: &[],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Unroll {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, EditError> {
        let joints = at.joints(w, &self.joints)?;
        Ok(unroll(w, &joints))
    }
}

/// Makes the joints' rotations continuous over the clip without moving the pose.
pub(super) fn unroll(w: &mut Work, joints: &[usize]) -> String {
    let cpf = w.cpf();
    let mut changed = 0;
    for &j in joints {
        let Some(rot) = RotationChannels::of(&w.motion.skeleton.joints()[j]) else { continue };
        let idx = rot.indices();
        let mut prev: Option<Vec<f32>> = None;
        for f in 0..w.frames {
            let row = &mut w.values[f * cpf..(f + 1) * cpf];
            if idx.iter().any(|&i| !row[i].is_finite()) {
                continue;
            }
            if let Some(p) = &prev {
                let before: Vec<f32> = idx.iter().map(|&i| row[i]).collect();
                match &rot {
                    RotationChannels::Euler { at, .. } => {
                        let t = crate::edit::rotations::nearest_triple(at.map(|i| row[i]), at.map(|i| p[i]));
                        for (i, v) in at.iter().zip(t) {
                            row[*i] = v;
                        }
                    }
                    RotationChannels::Quaternion(at) => {
                        if at.iter().map(|&i| row[i] * p[i]).sum::<f32>() < 0.0 {
                            at.iter().for_each(|&i| row[i] = -row[i]);
                        }
                    }
                }
                if idx.iter().zip(&before).any(|(&i, b)| row[i] != *b) {
                    changed += 1;
                }
            }
            prev = Some(row.to_vec());
        }
    }
    format!("{changed} frames' rotations made continuous")
}
