//! sin and cos of half of every value of a clip row at once: the parts of the quaternions of
//! Euler channels. libm's `sincosf` takes one value per call and cannot be vectorised; this
//! loop is (f64 polynomial on a reduced argument, no branches), and gives the correctly
//! rounded f32 in nearly every case: within one f32 ulp of libm's.

use std::f64::consts::FRAC_2_PI;

/// π/2 in two parts (fdlibm's `pio2_1`, `pio2_1t`): `k × HI` is exact for |k| < 2²⁰.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;
/// Adding it rounds an f64 below 2⁵¹ to an integer, which its low mantissa bits then hold.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// Beyond this (radians) the two-part reduction loses digits: those values go to libm.
const LIMIT: f32 = 1.0e6;

/// Writes sin(x/2) and cos(x/2) of every `x` in `row` to `sin` and `cos` (resized to it).
pub fn half_sin_cos(row: &[f32], sin: &mut Vec<f32>, cos: &mut Vec<f32>) {
    sin.resize(row.len(), 0.0);
    cos.resize(row.len(), 0.0);
    #[cfg(target_arch = "x86_64")]
    let outside = if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { fill_avx2(row, sin, cos) }
    } else {
        fill(row, sin, cos)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let outside = fill(row, sin, cos);
    if outside {
        for ((&x, s), c) in row.iter().zip(sin.iter_mut()).zip(cos.iter_mut()) {
            if !(x.abs() < LIMIT) {
                (*s, *c) = (0.5 * x).sin_cos();
            }
        }
    }
}

/// The polynomial over the row; true when a value is beyond [`LIMIT`] (or not a number).
#[inline(always)]
fn fill(row: &[f32], sin: &mut [f32], cos: &mut [f32]) -> bool {
    let mut outside = false;
    for ((&x, s), c) in row.iter().zip(sin.iter_mut()).zip(cos.iter_mut()) {
        let (sx, cx) = sin_cos(0.5 * f64::from(x));
        *s = sx as f32;
        *c = cx as f32;
        outside |= !(x.abs() < LIMIT);
    }
    outside
}

/// [`fill`] four lanes wide: the same operations (no fused multiply-adds), so the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fill_avx2(row: &[f32], sin: &mut [f32], cos: &mut [f32]) -> bool {
    fill(row, sin, cos)
}

/// sin and cos of `x` (|x| < 2²⁰·π/2): `x = k·π/2 + r` with |r| ≤ π/4, Taylor polynomials in
/// `r` (truncation below 2e-9 relative, far under an f32 ulp), then the quadrant `k mod 4`
/// swaps and signs them.
#[inline(always)]
fn sin_cos(x: f64) -> (f64, f64) {
    let shifted = x * FRAC_2_PI + ROUNDER;
    let k = shifted - ROUNDER;
    let quadrant = shifted.to_bits();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let r2 = r * r;
    let s = r + r * r2 * (-1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 + r2 * (1.0 / 362_880.0))));
    let c = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40_320.0 + r2 * (-1.0 / 3_628_800.0)))));
    // Quadrant q: sin = (s, c, −s, −c)[q], cos = (c, −s, −c, s)[q].
    let swap = quadrant & 1 == 1;
    let (a, b) = if swap { (c, s) } else { (s, c) };
    let sin_sign = (quadrant & 2) << 62;
    let cos_sign = (quadrant.wrapping_add(1) & 2) << 62;
    (f64::from_bits(a.to_bits() ^ sin_sign), f64::from_bits(b.to_bits() ^ cos_sign))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> u32 {
        if a == b {
            return 0;
        }
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    fn check(values: &[f32]) {
        let (mut s, mut c) = (Vec::new(), Vec::new());
        half_sin_cos(values, &mut s, &mut c);
        for (k, &x) in values.iter().enumerate() {
            let (ws, wc) = (0.5 * x).sin_cos();
            if x.is_finite() {
                // Against libm: one ulp, or an absolute 1e-7 near a zero crossing.
                assert!(ulps(s[k], ws) <= 1 || (s[k] - ws).abs() < 1e-7, "sin({x}/2): {} vs {ws}", s[k]);
                assert!(ulps(c[k], wc) <= 1 || (c[k] - wc).abs() < 1e-7, "cos({x}/2): {} vs {wc}", c[k]);
            } else {
                assert!(s[k].is_nan() && c[k].is_nan(), "{x}");
            }
        }
    }

    #[test]
    fn agrees_with_libm_over_every_quadrant_and_far_out() {
        let mut values: Vec<f32> = (-20_000..=20_000).map(|i| i as f32 * 0.0371).collect();
        values.extend([0.0, -0.0, 1e-30, -1e-30, std::f32::consts::PI, -std::f32::consts::PI, 3.0e5, -7.5e5, 9.99e5]);
        // Beyond the limit, and not numbers: libm's own answers.
        values.extend([1.0e6, -3.0e7, 1.0e30, f32::MAX, f32::NAN, f32::INFINITY, f32::NEG_INFINITY]);
        check(&values);
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_libm_on_any_angle(x in -1.0e6f32..1.0e6f32) {
            check(&[x]);
        }
    }
}
