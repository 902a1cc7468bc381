//! SMPL-X expressions: each frame's coefficients of the model's expression directions. They
//! move the face's vertices and, through `J_regressor`, the joints regressed from the face
//! (the jaw, the eyes, the head), so those joints' rest positions change from frame to frame.

use glam::DVec3;

use super::build::RestMotion;
use super::layouts::BodyMotion;
use super::smpl::BodyModel;
use crate::par::*;

/// A shift smaller than this is no move (a hundred-thousandth of the 1e-5 m that joints are
/// checked to): a joint regressed from vertices the expressions barely touch keeps its rest.
const STILL_M: f64 = 1e-10;

/// A motion's expressions as its model applies them.
#[derive(Clone, Debug, PartialEq)]
pub struct Expressed {
    /// Coefficients applied per frame (the file's first ones, as many as the model has
    /// directions for).
    pub used: usize,
    /// The first column of the model's `shapedirs` they weigh.
    pub first_column: usize,
    /// Frames × `used` coefficients.
    pub coefficients: Vec<f64>,
    /// Each frame's shift of the rest joints.
    pub rest: RestMotion,
    /// Joints that shift (their binds move).
    pub shifted: Vec<usize>,
}

/// `m`'s expressions on `model` (`None` when it has none, or the model has no expression
/// directions: then with a warning); a note on what was applied goes to `details`.
pub fn expressed(model: &BodyModel, m: &BodyMotion, warnings: &mut Vec<String>, details: &mut Vec<(String, String)>) -> Option<Expressed> {
    let width = m.expression_width;
    if width == 0 || m.frames == 0 {
        return None;
    }
    let (_, columns) = model.columns();
    let used = width.min(columns.len());
    if used == 0 {
        warnings.push(format!(
            "the file's {width} expression coefficients per frame are not applied: the body model {} has no expression directions (its shapedirs has {} columns; SMPL-X models have 10 after 10 of shape, or 100 after 300)",
            model.path.display(),
            model.num_shapes
        ));
        return None;
    }
    if used < width {
        warnings.push(format!(
            "the first {used} of the file's {width} expression coefficients per frame are applied: the body model {} has {used} expression directions",
            model.path.display()
        ));
    }
    let joints = model.joints();
    let per_unit = model.expression_joints();
    let e = columns.len();
    // Only joints regressed from vertices the expressions move can shift.
    let touched: Vec<usize> = (0..joints).filter(|&j| per_unit[j * e..j * e + used].iter().any(|d| *d != DVec3::ZERO)).collect();
    let mut shifts = vec![DVec3::ZERO; m.frames * joints];
    shifts.par_chunks_mut(joints).enumerate().for_each(|(f, row)| {
        let c = &m.expressions[f * width..f * width + used];
        for &j in &touched {
            row[j] = per_unit[j * e..j * e + used].iter().zip(c).fold(DVec3::ZERO, |acc, (d, x)| acc + *d * *x);
        }
    });
    let shifted: Vec<usize> =
        touched.into_iter().filter(|&j| shifts.iter().skip(j).step_by(joints).any(|s| s.abs().max_element() > STILL_M)).collect();
    // What stays is held exactly at rest.
    for (i, s) in shifts.iter_mut().enumerate() {
        if !shifted.contains(&(i % joints)) {
            *s = DVec3::ZERO;
        }
    }
    let moved: Vec<bool> = (0..joints).map(|j| shifted.contains(&j) || model.parents[j].is_some_and(|p| shifted.contains(&p))).collect();
    let coefficients = m.expressions.chunks_exact(width).flat_map(|row| row[..used].iter().copied()).collect();
    details.push((
        "expressions".into(),
        format!("{used} coefficients per frame applied (of {width}): they move the face and the rest of {} joints", shifted.len()),
    ));
    Some(Expressed { used, first_column: columns.start, coefficients, rest: RestMotion { shifts, moved }, shifted })
}
