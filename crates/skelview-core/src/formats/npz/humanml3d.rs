//! HumanML3D's features (`new_joint_vecs`, T×263) back to joint positions, as its
//! `recover_from_ric` does: the root's yaw and ground position integrated from their
//! velocities, each joint's root-relative position turned back by the yaw.

/// Joints of HumanML3D's skeleton.
const JOINTS: usize = 22;
/// Features per frame.
/// Features per frame of `new_joint_vecs`.
pub const HUMANML3D_FEATURES: usize = 263;
const WIDTH: usize = HUMANML3D_FEATURES;

/// Frames × 22 × 3 positions from frames × 263 features.
pub fn recover_from_ric(features: &[f64], frames: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(frames * JOINTS * 3);
    let (mut angle, mut root) = (0.0f64, [0.0f64; 3]);
    for f in 0..frames {
        let row = &features[f * WIDTH..(f + 1) * WIDTH];
        if f > 0 {
            let prev = &features[(f - 1) * WIDTH..f * WIDTH];
            angle += prev[0];
            // The previous frame's ground velocity, turned by this frame's yaw.
            let v = unrotate(angle, [prev[1], 0.0, prev[2]]);
            root[0] += v[0];
            root[2] += v[2];
        }
        let root_here = [root[0], row[3], root[2]];
        out.extend_from_slice(&root_here);
        for j in 0..JOINTS - 1 {
            let p = unrotate(angle, [row[4 + j * 3], row[5 + j * 3], row[6 + j * 3]]);
            out.extend_from_slice(&[p[0] + root[0], p[1], p[2] + root[2]]);
        }
    }
    out
}

/// `qrot(qinv(q), v)` for HumanML3D's yaw quaternion q = (cos a, 0, sin a, 0): a turn of
/// −2a about Y.
fn unrotate(a: f64, v: [f64; 3]) -> [f64; 3] {
    let t = -2.0 * a;
    let (s, c) = t.sin_cos();
    [v[0] * c + v[2] * s, v[1], -v[0] * s + v[2] * c]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_still_root_keeps_its_joints_and_a_velocity_moves_it() {
        let mut rows = vec![0.0; 2 * WIDTH];
        rows[3] = 0.9;
        rows[4..7].copy_from_slice(&[0.1, 0.8, 0.0]);
        rows[1] = 0.05; // forward ground velocity (x) in frame 0
        rows[WIDTH + 3] = 0.9;
        rows[WIDTH + 4..WIDTH + 7].copy_from_slice(&[0.1, 0.8, 0.0]);
        let p = recover_from_ric(&rows, 2);
        assert_eq!(&p[..6], &[0.0, 0.9, 0.0, 0.1, 0.8, 0.0]);
        assert!((p[JOINTS * 3] - 0.05).abs() < 1e-12 && (p[JOINTS * 3 + 1] - 0.9).abs() < 1e-12);
        // A yaw velocity turns the next frame's joints: a = 0.25 π turns them by −π/2 about Y.
        rows[0] = 0.25 * std::f64::consts::PI;
        rows[1] = 0.0;
        let p = recover_from_ric(&rows, 2);
        let j1 = &p[JOINTS * 3 + 3..JOINTS * 3 + 6];
        assert!((j1[0] - 0.0).abs() < 1e-12 && (j1[2] - 0.1).abs() < 1e-12, "{j1:?}");
    }
}
