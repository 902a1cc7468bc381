//! Euler angles of eight rotations at once (a frame in each lane): the matrix entries and
//! the three `atan2` of [`tait_bryan`] as loops over lanes, which the compiler turns into
//! vector code (AVX2 where the processor has it). Writing a whole clip's angles (a retarget)
//! one rotation at a time leaves the vector units nearly idle.

// A lane loop indexes several arrays by the lane: that is the shape that vectorises.
#![allow(clippy::needless_range_loop)]

use glam::{EulerRot, Quat};

use super::clip_fk::{LANES, Lanes};
use super::rotation_channels::{GIMBAL, atan2_fits, atan2_fitting, by_tait_bryan_order, sides, tait_bryan};

/// The angles `(a, b, c)` of each of `qs` (unit quaternions) for `order`, as glam's
/// `to_euler` gives them: [`tait_bryan`]'s, to the bit, lane by lane (glam's own where it
/// applies its rule: near gimbal lock, a NaN, the orders that repeat an axis).
pub fn euler_lanes(qs: &[Quat; LANES], order: EulerRot) -> [Lanes; 3] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { lanes_avx2(qs, order) };
    }
    lanes(qs, order)
}

/// [`lanes`] compiled for AVX2: eight lanes in one register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lanes_avx2(qs: &[Quat; LANES], order: EulerRot) -> [Lanes; 3] {
    lanes(qs, order)
}

#[inline(always)]
fn lanes(qs: &[Quat; LANES], order: EulerRot) -> [Lanes; 3] {
    let found = by_tait_bryan_order!(order, angles(qs));
    found.unwrap_or_else(|| {
        let mut out = [[0.0; LANES]; 3];
        for (k, q) in qs.iter().enumerate() {
            let (a, b, c) = tait_bryan(*q, order).unwrap_or_else(|| q.to_euler(order));
            (out[0][k], out[1][k], out[2][k]) = (a, b, c);
        }
        out
    })
}

/// [`lanes`] for the axes `I`, `J`, `K`; `None` when a lane needs glam's rule (the caller then
/// takes every lane one by one: rare, and [`tait_bryan`] gives the same numbers for the rest).
#[inline(always)]
fn angles<const I: usize, const J: usize, const K: usize, const EVEN: bool>(qs: &[Quat; LANES]) -> Option<[Lanes; 3]> {
    let (mut y, mut x) = ([[0.0; LANES]; 3], [[0.0; LANES]; 3]);
    for k in 0..LANES {
        let q = qs[k];
        let (ys, xs) = sides::<I, J, K, EVEN>(q.x, q.y, q.z, q.w);
        for i in 0..3 {
            (y[i][k], x[i][k]) = (ys[i], xs[i]);
        }
    }
    // Every lane clear of gimbal lock, NaN and infinities (a NaN fails every comparison).
    let mut fine = true;
    for k in 0..LANES {
        fine &= x[1][k] > GIMBAL && (0..3).all(|i| atan2_fits(x[i][k].abs(), y[i][k].abs()));
    }
    if !fine {
        return None;
    }
    let mut out = [[0.0; LANES]; 3];
    for i in 0..3 {
        for k in 0..LANES {
            out[i][k] = atan2_fitting(y[i][k], x[i][k]);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_at_once_are_one_at_a_time() {
        let orders =
            [EulerRot::XYZ, EulerRot::XZY, EulerRot::YXZ, EulerRot::YZX, EulerRot::ZXY, EulerRot::ZYX, EulerRot::XYX, EulerRot::ZXZ];
        for order in orders {
            for g in 0..300 {
                let mut qs: [Quat; LANES] = std::array::from_fn(|k| {
                    let f = (g * LANES + k) as f32;
                    Quat::from_euler(order, (f * 0.7371).sin() * 3.1, (f * 0.3113).sin() * 1.57, (f * 1.931).cos() * 3.1)
                });
                // Now and then a lane at gimbal lock, or one with a NaN.
                if g % 7 == 3 {
                    qs[g % LANES] = Quat::from_euler(order, 0.3, std::f32::consts::FRAC_PI_2, -0.2);
                }
                if g % 11 == 5 {
                    qs[(g + 3) % LANES] = Quat::from_xyzw(0.1, f32::NAN, 0.2, 0.9);
                }
                let got = euler_lanes(&qs, order);
                for (k, q) in qs.iter().enumerate() {
                    let (a, b, c) = tait_bryan(*q, order).unwrap_or_else(|| q.to_euler(order));
                    let same = |g: f32, w: f32| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
                    assert!(same(got[0][k], a) && same(got[1][k], b) && same(got[2][k], c), "{order:?} lane {k}: {q}");
                }
            }
        }
    }
}
