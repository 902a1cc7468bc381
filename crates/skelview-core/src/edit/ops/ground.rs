//! `ground`: the clip moved up or down so that its lowest point is at height 0.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::{Operation, StepAt};
use crate::edit::spec::{FreePart, OpSpec};
use crate::edit::work::{rebuild, snapshot, translation};
use crate::edit::{EditError, Work};

/// Moves the clip up or down so that its lowest point over all frames is at height 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ground {}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "ground",
    label: "Put it on the ground",
    help: "Moves the clip so that its lowest point over all frames is at height 0.",
    notes: "",
    params: &[],
    value: &[],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for Ground {
    fn apply(&self, w: &mut Work, _: &StepAt) -> Result<String, EditError> {
        Ok(ground(w))
    }
}

/// Moves the clip so that its lowest point over every frame is at height 0.
fn ground(w: &mut Work) -> String {
    let m = snapshot(w);
    let display = m.display_from_file();
    let frames: Vec<usize> = (0..w.frames.max(1)).collect();
    let positions =
        crate::core::batch::joint_positions(&m, &frames, crate::core::batch::PositionSpace::World, display, &crate::par::Sequential);
    let lowest = positions.chunks_exact(3).map(|p| p[1]).filter(|y| y.is_finite()).fold(f32::INFINITY, f32::min);
    if !lowest.is_finite() {
        return "nothing to ground (no position)".into();
    }
    let shift = display.inverse().transform_vector3(Vec3::new(0.0, -lowest, 0.0));
    let cpf = w.cpf();
    let roots: Vec<usize> = w.motion.skeleton.roots().collect();
    let mut joints = w.motion.skeleton.joints().to_vec();
    for j in roots {
        let t = translation(&w.motion.skeleton, j);
        for axis in 0..3 {
            match t {
                Some(t) => (0..w.frames).for_each(|f| w.values[f * cpf + t[axis]] += shift[axis]),
                None => joints[j].offset[axis] += shift[axis],
            }
        }
    }
    rebuild(w, joints);
    let way = if lowest > 0.0 { "down" } else { "up" };
    format!("moved {:.4} m {way} (the lowest point was at {lowest:.4} m)", lowest.abs())
}
