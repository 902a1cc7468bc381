//! sin and cos of half of every value of a clip row at once: the parts of the quaternions of
//! Euler channels. libm's `sincosf` takes one value per call and cannot be vectorised; this
//! loop is (f32 polynomials on a reduced argument, no branches, eight lanes with AVX2), and
//! stays within two f32 ulps of libm's (or 1e-7 absolute near a zero).

/// 2/π.
const FRAC_2_PI: f32 = std::f32::consts::FRAC_2_PI;
/// π/2 in three parts (Cephes' `DP1`…`DP3`, doubled): `k × P1` and `k × P2` are exact for
/// the quadrants below [`LIMIT`], and the third carries the rest.
const P1: f32 = 1.570_312_5;
const P2: f32 = 4.837_513e-4;
const P3: f32 = 7.549_79e-8;
/// Adding it (1.5 × 2²³) rounds an f32 below 2²² to an integer, which its low mantissa bits
/// then hold.
const ROUNDER: f32 = 12_582_912.0;
/// Beyond this (radians, before halving) the three-part reduction loses digits: those values
/// go to libm.
const LIMIT: f32 = 16_384.0;

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

/// The polynomials over the row; true when a value is beyond [`LIMIT`] (or not a number).
#[inline(always)]
fn fill(row: &[f32], sin: &mut [f32], cos: &mut [f32]) -> bool {
    let mut outside = false;
    for ((&x, s), c) in row.iter().zip(sin.iter_mut()).zip(cos.iter_mut()) {
        (*s, *c) = sin_cos(0.5 * x);
        outside |= !(x.abs() < LIMIT);
    }
    outside
}

/// [`fill`] eight lanes wide: the same operations (no fused multiply-adds), so the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn fill_avx2(row: &[f32], sin: &mut [f32], cos: &mut [f32]) -> bool {
    fill(row, sin, cos)
}

/// sin and cos of `x` (|x| < [`LIMIT`]/2): `x = k·π/2 + r` with |r| ≲ π/4, Cephes' `sinf` and
/// `cosf` polynomials in `r`, then the quadrant `k mod 4` swaps and signs them.
#[inline(always)]
fn sin_cos(x: f32) -> (f32, f32) {
    let shifted = x * FRAC_2_PI + ROUNDER;
    let k = shifted - ROUNDER;
    let quadrant = shifted.to_bits();
    let r = ((x - k * P1) - k * P2) - k * P3;
    let r2 = r * r;
    let s = r + r * r2 * (-1.666_665_5e-1 + r2 * (8.332_161e-3 + r2 * -1.951_529_6e-4));
    let c = (1.0 - 0.5 * r2) + r2 * r2 * (4.166_664_6e-2 + r2 * (-1.388_731_6e-3 + r2 * 2.443_315_7e-5));
    // Quadrant q: sin = (s, c, −s, −c)[q], cos = (c, −s, −c, s)[q].
    let swap = quadrant & 1 == 1;
    let (a, b) = if swap { (c, s) } else { (s, c) };
    let sin_sign = (quadrant & 2) << 30;
    let cos_sign = (quadrant.wrapping_add(1) & 2) << 30;
    (f32::from_bits(a.to_bits() ^ sin_sign), f32::from_bits(b.to_bits() ^ cos_sign))
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
                // Against libm: two ulps, or an absolute 1e-7 near a zero crossing.
                assert!(ulps(s[k], ws) <= 2 || (s[k] - ws).abs() < 1e-7, "sin({x}/2): {} vs {ws}", s[k]);
                assert!(ulps(c[k], wc) <= 2 || (c[k] - wc).abs() < 1e-7, "cos({x}/2): {} vs {wc}", c[k]);
            } else {
                assert!(s[k].is_nan() && c[k].is_nan(), "{x}");
            }
        }
    }

    #[test]
    fn agrees_with_libm_over_every_quadrant_and_far_out() {
        let mut values: Vec<f32> = (-20_000..=20_000).map(|i| i as f32 * 0.0371).collect();
        values.extend((-40_000..40_000).map(|i| i as f32 * 0.409_5 + 0.013));
        values.extend([0.0, -0.0, 1e-30, -1e-30, std::f32::consts::PI, -std::f32::consts::PI, 16_383.9, -16_383.0, 12_000.0]);
        // Beyond the limit, and not numbers: libm's own answers.
        values.extend([16_384.0, 1.0e6, -3.0e7, 1.0e30, f32::MAX, f32::NAN, f32::INFINITY, f32::NEG_INFINITY]);
        check(&values);
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_libm_on_any_angle(x in -2.0e4f32..2.0e4f32) {
            check(&[x]);
        }
    }
}
