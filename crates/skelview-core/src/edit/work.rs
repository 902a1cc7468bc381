//! Helpers every operation on the motion being edited shares: a joint's translation channels,
//! the motion as it stands, the skeleton swapped, markers written back, angle steps.

use super::Work;
use super::rotations::wrap_near;
use crate::core::capture::Capture;
use crate::core::{Clip, Motion, Skeleton};

/// The three translation channels of `joint`, when it has them.
pub(super) fn translation(skeleton: &Skeleton, joint: usize) -> Option<[usize; 3]> {
    crate::core::rotation_channels::translation_channels(&skeleton.joints()[joint])
}

/// The motion as it stands (missing values held), for the checks and the sampler.
pub(super) fn snapshot(w: &Work) -> Motion {
    let mut m = w.motion.clone();
    let mut clip = Clip::new(w.frame_time_secs, w.cpf(), w.frames, w.values.clone());
    clip.hold_missing();
    m.clip = clip;
    if let Some(c) = &w.capture {
        let mut c = c.clone();
        write_markers(&mut c, &w.values, &w.filled, w.cpf());
        m.capture = Some(std::sync::Arc::new(c));
    }
    m
}

/// The skeleton with `joints` in place of its own (same channels).
pub(super) fn rebuild(w: &mut Work, joints: Vec<crate::core::Joint>) {
    let rule = w.motion.skeleton.position_rule;
    let rest = w.motion.skeleton.rest_values().map(<[f32]>::to_vec);
    if let Ok(s) = Skeleton::new(joints, rule) {
        w.motion.skeleton = match rest {
            Some(r) => s.clone().with_rest_values(r).unwrap_or(s),
            None => s,
        };
    }
}

/// Writes the markers' values back into the capture: positions, a residual of −1 where
/// missing, 0 where filled, the measured residual elsewhere.
pub(super) fn write_markers(c: &mut Capture, values: &[f32], filled: &[bool], cpf: usize) {
    let n = c.points.len();
    let markers = c.marker_indices();
    for f in 0..c.frames {
        for (j, &p) in markers.iter().enumerate() {
            let (vi, ci) = (f * cpf + 3 * j, f * n + p);
            let Some(v) = values.get(vi..vi + 3) else { continue };
            c.positions[ci * 3..ci * 3 + 3].copy_from_slice(v);
            c.residuals[ci] = if v.iter().any(|x| !x.is_finite()) {
                c.positions[ci * 3..ci * 3 + 3].fill(f32::NAN);
                -1.0
            } else if filled[vi] {
                0.0
            } else {
                c.residuals[ci].max(0.0)
            };
        }
    }
}

/// Keeps a wrapped Euler difference within half a turn.
pub(super) fn angle_step(from: f32, to: f32) -> f32 {
    wrap_near(to, from) - from
}
