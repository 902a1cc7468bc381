//! A joint's rotation channels as one rotation: read as a quaternion, written back as the
//! joint's own Euler triple nearest a previous one (so that edits never add ±360° steps),
//! quaternion series made hemisphere-continuous, Euler series unrolled.

use glam::{EulerRot, Quat};

use super::pose::compose_rotation;
use super::{ChannelKind, EulerConvention, Joint};

/// `$f::<I, J, K, EVEN>(args)` for a Tait-Bryan `$order`: its axes as constants (an even,
/// cyclic, permutation of XYZ or not), so that the function's copy for them computes only
/// what they need; `None` for the orders that repeat an axis. `$f` returns an `Option`.
macro_rules! by_tait_bryan_order {
    ($order:expr, $f:ident($($arg:expr),*)) => {
        match $order {
            glam::EulerRot::XYZ => $f::<0, 1, 2, true>($($arg),*),
            glam::EulerRot::YZX => $f::<1, 2, 0, true>($($arg),*),
            glam::EulerRot::ZXY => $f::<2, 0, 1, true>($($arg),*),
            glam::EulerRot::XZY => $f::<0, 2, 1, false>($($arg),*),
            glam::EulerRot::YXZ => $f::<1, 0, 2, false>($($arg),*),
            glam::EulerRot::ZYX => $f::<2, 1, 0, false>($($arg),*),
            _ => None,
        }
    };
}
pub(crate) use by_tait_bryan_order;

/// Where a joint's rotation lives in a clip row.
#[derive(Clone, Debug)]
pub enum RotationChannels {
    /// Three Euler channels at these row indices, in the joint's listed order.
    Euler {
        /// Row indices.
        at: [usize; 3],
        /// The channels, in listed order.
        kinds: [ChannelKind; 3],
        /// How they compose.
        convention: EulerConvention,
        /// glam's order for them (found once: writing is in every frame's hot path).
        order: EulerRot,
    },
    /// Quaternion x, y, z, w at these row indices.
    Quaternion([usize; 4]),
}

impl RotationChannels {
    /// The rotation channels of `joint`, when it has a full set (three Euler or four
    /// quaternion channels).
    pub fn of(joint: &Joint) -> Option<Self> {
        let at = |pred: fn(ChannelKind) -> bool| -> Vec<(usize, ChannelKind)> {
            joint.channels.iter().enumerate().filter(|(_, k)| pred(**k)).map(|(i, k)| (joint.first_channel + i, *k)).collect()
        };
        let q = at(ChannelKind::is_quaternion);
        if q.len() == 4 {
            let find = |k: ChannelKind| q.iter().find(|(_, c)| *c == k).map(|(i, _)| *i);
            return Some(Self::Quaternion([
                find(ChannelKind::QuatX)?,
                find(ChannelKind::QuatY)?,
                find(ChannelKind::QuatZ)?,
                find(ChannelKind::QuatW)?,
            ]));
        }
        let e = at(ChannelKind::is_rotation);
        if e.len() != 3 {
            return None;
        }
        let kinds = [e[0].1, e[1].1, e[2].1];
        let order = euler_rot(&kinds, joint.euler)?;
        Some(Self::Euler { at: [e[0].0, e[1].0, e[2].0], kinds, convention: joint.euler, order })
    }

    /// The row indices it covers.
    pub fn indices(&self) -> Vec<usize> {
        match self {
            Self::Euler { at, .. } => at.to_vec(),
            Self::Quaternion(at) => at.to_vec(),
        }
    }

    /// The rotation in `row`.
    pub fn read(&self, row: &[f32]) -> Quat {
        match self {
            Self::Euler { at, kinds, convention, .. } => compose_rotation(kinds, &at.map(|i| row[i]), *convention),
            Self::Quaternion(at) => super::skeleton::unit_quaternion(at.map(|i| row[i])),
        }
    }

    /// Writes `q` into `row`: the Euler triple (or the quaternion's sign) nearest `near`'s.
    /// The angles come from [`tait_bryan`] (a third of glam's time, within 2.4e-7 rad of it:
    /// every edit and retarget writes them for every frame), glam's near gimbal lock.
    pub fn write(&self, row: &mut [f32], q: Quat, near: Option<&[f32]>) {
        match self {
            Self::Euler { order, .. } => {
                let angles = tait_bryan(q, *order).unwrap_or_else(|| q.to_euler(*order));
                self.write_euler(row, angles, near);
            }
            Self::Quaternion(at) => {
                let mut v = [q.x, q.y, q.z, q.w];
                if let Some(prev) = near {
                    let dot: f32 = at.iter().zip(v).map(|(i, c)| prev[*i] * c).sum();
                    if dot < 0.0 {
                        v = v.map(|c| -c);
                    }
                }
                for (i, c) in at.iter().zip(v) {
                    row[*i] = c;
                }
            }
        }
    }

    /// Writes the Euler angles `(a, b, c)` (glam's order, as [`tait_bryan`] gives them) into
    /// `row`: the triple nearest `near`'s. Nothing for quaternion channels.
    #[inline(always)]
    pub fn write_euler(&self, row: &mut [f32], (a, b, c): (f32, f32, f32), near: Option<&[f32]>) {
        let Self::Euler { at, convention, .. } = self else { return };
        // Scalars, not arrays, until written: an array built lane by lane and read whole
        // stalls the store buffer (a fifth of this function's time).
        let (l0, l1, l2) = match convention {
            EulerConvention::FirstOutermost => (a, b, c),
            EulerConvention::LastOutermost => (c, b, a),
        };
        let (t0, t1, t2) = match near {
            Some(prev) => {
                let (n0, n1, n2) = (prev[at[0]], prev[at[1]], prev[at[2]]);
                if close_triples((l0, l1, l2), (n0, n1, n2)) {
                    (l0, l1, l2)
                } else {
                    let [t0, t1, t2] = nearest_triple_far([l0, l1, l2], [n0, n1, n2]);
                    (t0, t1, t2)
                }
            }
            None => (l0, l1, l2),
        };
        (row[at[0]], row[at[1]], row[at[2]]) = (t0, t1, t2);
    }
}

/// The three angles of `q` for a Tait-Bryan `order` (three different axes, intrinsic, as
/// glam's `to_euler` gives them), from the quaternion's matrix entries with [`atan2_quick`];
/// `None` for the other orders and near gimbal lock (where glam's own rule applies). Whole
/// clips go eight rotations at a time through [`crate::core::euler_lanes`], to the bit the same.
#[inline(always)]
pub fn tait_bryan(q: Quat, order: EulerRot) -> Option<(f32, f32, f32)> {
    if q.is_nan() {
        return None;
    }
    // One copy of the matrix entries per order (the axes are constants, so only the five
    // used are computed).
    let (y, x) = by_tait_bryan_order!(order, sides_clear(q))?;
    Some((atan2_quick(y[0], x[0]), atan2_quick(y[1], x[1]), atan2_quick(y[2], x[2])))
}

/// [`sides`] of `q`, `None` near gimbal lock.
#[inline(always)]
fn sides_clear<const I: usize, const J: usize, const K: usize, const EVEN: bool>(q: Quat) -> Option<([f32; 3], [f32; 3])> {
    let (y, x) = sides::<I, J, K, EVEN>(q.x, q.y, q.z, q.w);
    (x[1] > GIMBAL).then_some((y, x))
}

/// Where the middle angle's cosine (the second `x` of [`sides`]) is this small or less, the
/// first and last angles are lost in rounding: glam's rule applies there.
pub(crate) const GIMBAL: f32 = 16.0 * f32::EPSILON;

/// The `y` and `x` sides of the three angles' `atan2` for the unit quaternion (x, y, z, w)
/// and the axes `I`, `J`, `K` (an even, cyclic, permutation of XYZ or not), from the five
/// entries of its rotation matrix they need. Plain arithmetic: a loop of it over lanes is
/// vector code.
#[inline(always)]
pub(crate) fn sides<const I: usize, const J: usize, const K: usize, const EVEN: bool>(
    x: f32,
    y: f32,
    z: f32,
    w: f32,
) -> ([f32; 3], [f32; 3]) {
    let v = [x, y, z];
    // Entry (r, c) of the rotation matrix.
    let m = |r: usize, c: usize| {
        if r == c {
            let (a, b) = ((r + 1) % 3, (r + 2) % 3);
            1.0 - 2.0 * (v[a] * v[a] + v[b] * v[b])
        } else {
            // The third axis, and the sign of w's term: − when (r, c) runs X→Y→Z→X.
            let o = 3 - r - c;
            let sign = if (r + 1) % 3 == c { -1.0 } else { 1.0 };
            2.0 * (v[r] * v[c] + sign * w * v[o])
        }
    };
    let s = if EVEN { 1.0 } else { -1.0 };
    let (mii, mij) = (m(I, I), m(I, J));
    let cos_b = (mii * mii + mij * mij).sqrt();
    ([-s * m(J, K), s * m(I, K), -s * mij], [m(K, K), cos_b, mii])
}

/// `atan2(y, x)` without the library call: the quotient of the smaller over the larger side
/// reduced to [0, tan(π/8)] and Cephes' polynomial for `atanf` (relative error about 2e-7);
/// 0 for (0, 0), the library's `atan2` for NaN and infinities. Selects, not branches, past
/// that check (the quadrant of each angle of each joint of each frame is as good as random to
/// a branch predictor).
#[inline]
pub fn atan2_quick(y: f32, x: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    // The sum is NaN or infinite where a side is (min and max would drop a NaN): those, and
    // (0, 0), here.
    if !atan2_fits(ax, ay) {
        return if ax == 0.0 && ay == 0.0 { 0.0 } else { y.atan2(x) };
    }
    atan2_fitting(y, x)
}

/// Whether [`atan2_fitting`] takes the sides whose sizes are `ax` and `ay`: finite, not both
/// zero.
#[inline(always)]
pub(crate) fn atan2_fits(ax: f32, ay: f32) -> bool {
    ax + ay <= f32::MAX && ax.max(ay) > 0.0
}

/// [`atan2_quick`] of sides that [`atan2_fits`] takes: no branch (a loop of them over lanes
/// is vector code).
#[inline(always)]
pub(crate) fn atan2_fitting(y: f32, x: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    let (ax, ay) = (x.abs(), y.abs());
    let (small, large) = (ax.min(ay), ax.max(ay));
    // The smaller side over the larger (t ≤ 1), reduced past tan(π/8) by atan(t) = π/4 +
    // atan((t − 1)/(t + 1)): one division either way.
    let reduce = small > 0.414_213_57 * large;
    let u = if reduce { small - large } else { small } / if reduce { small + large } else { large };
    let base = if reduce { FRAC_PI_4 } else { 0.0 };
    let z = u * u;
    let poly = (((8.053_744_5e-2 * z - 1.387_768_6e-1) * z + 1.997_771_1e-1) * z - 3.333_295e-1) * z * u + u;
    let r = base + poly;
    let r = if ay > ax { FRAC_PI_2 - r } else { r };
    let r = if x < 0.0 { PI - r } else { r };
    if y < 0.0 { -r } else { r }
}

/// Where a joint's translation lives in a clip row: its three channels' row indices, when it
/// has all three (the edits and the retargeting write through them).
pub fn translation_channels(joint: &Joint) -> Option<[usize; 3]> {
    let at = |k: ChannelKind| joint.channels.iter().position(|&c| c == k).map(|i| joint.first_channel + i);
    Some([at(ChannelKind::TranslateX)?, at(ChannelKind::TranslateY)?, at(ChannelKind::TranslateZ)?])
}

/// glam's order for three listed channels composed by `convention`.
fn euler_rot(kinds: &[ChannelKind; 3], convention: EulerConvention) -> Option<EulerRot> {
    let letter = |k: &ChannelKind| match k {
        ChannelKind::RotateX => 'X',
        ChannelKind::RotateY => 'Y',
        _ => 'Z',
    };
    super::readout::euler_rot(&kinds.iter().map(letter).collect::<String>(), convention)
}

/// `v` moved by whole turns to lie within half a turn of `near`.
#[inline]
pub fn wrap_near(v: f32, near: f32) -> f32 {
    let tau = std::f32::consts::TAU;
    // Mostly already there: no rounding call (a library call without SSE4.1).
    if (v - near).abs() <= std::f32::consts::PI {
        return v;
    }
    v - ((v - near) / tau).round() * tau
}

/// Of the two Euler triples that give the same rotation, `(a, b, c)` and `(a + π, π − b,
/// c + π)`, each moved by whole turns towards `near`, the one nearer `near`.
#[inline(always)]
pub fn nearest_triple(t: [f32; 3], near: [f32; 3]) -> [f32; 3] {
    if close_triples((t[0], t[1], t[2]), (near[0], near[1], near[2])) {
        return t;
    }
    nearest_triple_far(t, near)
}

/// Whether `t` is within 0.9π of `near` in all (most frames: each angle a little way from the
/// frame before's), when it is the nearest of the triples with no wrapping: the other triple's
/// first and last angles are each half a turn from these, so it is at least 2π − 0.9π away.
#[inline(always)]
fn close_triples(t: (f32, f32, f32), near: (f32, f32, f32)) -> bool {
    (t.0 - near.0).abs() + (t.1 - near.1).abs() + (t.2 - near.2).abs() < 0.9 * std::f32::consts::PI
}

/// [`nearest_triple`] past its common case.
#[cold]
#[inline(never)]
fn nearest_triple_far(t: [f32; 3], near: [f32; 3]) -> [f32; 3] {
    let pi = std::f32::consts::PI;
    let first = [wrap_near(t[0], near[0]), wrap_near(t[1], near[1]), wrap_near(t[2], near[2])];
    let dist = |x: &[f32; 3]| x.iter().zip(&near).map(|(a, b)| (a - b).abs()).sum::<f32>();
    // The other triple's first and last angles are each half a turn from these: it is at
    // least 2π − d away, so a triple within 0.9π is the nearer (the common case, no more work).
    let d = dist(&first);
    if d < 0.9 * pi {
        return first;
    }
    let other = [wrap_near(t[0] + pi, near[0]), wrap_near(pi - t[1], near[1]), wrap_near(t[2] + pi, near[2])];
    if dist(&other) < d { other } else { first }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_angles_agree_with_glam_for_every_tait_bryan_order() {
        let mut worst = (0.0f32, 0.0f32);
        for order in [EulerRot::XYZ, EulerRot::XZY, EulerRot::YXZ, EulerRot::YZX, EulerRot::ZXY, EulerRot::ZYX] {
            for k in 0..4000 {
                // A spread of rotations, some near gimbal lock.
                let f = k as f32;
                let (a, b, c) = ((f * 0.7371).sin() * 3.1, (f * 0.3113).sin() * 1.57, (f * 1.931).cos() * 3.1);
                let q = Quat::from_euler(order, a, b, c);
                let want = q.to_euler(order);
                let got = tait_bryan(q, order).unwrap_or(want);
                let back = Quat::from_euler(order, got.0, got.1, got.2);
                worst.0 = worst.0.max(1.0 - q.dot(back).abs());
                let d = [got.0 - want.0, got.1 - want.1, got.2 - want.2].map(|d| wrap_near(d, 0.0).abs());
                worst.1 = worst.1.max(d.into_iter().fold(0.0, f32::max));
            }
        }
        assert!(worst.0 < 1e-6 && worst.1 < 1e-6, "{worst:?}");
        for (y, x) in [(0.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (0.0, -1.0), (-0.5, -2.0), (3.0, 1e-6), (1e-30, 1.0)] {
            assert!((atan2_quick(y, x) - y.atan2(x)).abs() < 1e-6 || (y == 0.0 && x < 0.0), "{y} {x}");
        }
        let mut max_ulp = 0.0f32;
        for k in 0..100_000 {
            let t = k as f32 / 100_000.0 * std::f32::consts::TAU;
            let (y, x) = (t.sin() * 2.0, t.cos() * 2.0);
            max_ulp = max_ulp.max((atan2_quick(y, x) - y.atan2(x)).abs());
        }
        assert!(max_ulp < 5e-7, "atan2_quick off by {max_ulp} rad");
    }

    #[test]
    fn a_nan_gives_nan_or_glams_rule() {
        // A NaN side gives NaN, not a plausible angle (min and max would drop it), and a
        // quaternion with a NaN goes to glam's rule.
        for (y, x) in [(f32::NAN, 1.0), (f32::NAN, 0.0), (0.0, f32::NAN), (1.0, f32::NAN)] {
            assert!(atan2_quick(y, x).is_nan(), "({y}, {x})");
        }
        let broken = Quat::from_xyzw(0.1, f32::NAN, 0.2, 0.9);
        assert!(tait_bryan(broken, EulerRot::ZYX).is_none());
        assert_eq!((atan2_quick(0.0, 0.0), atan2_quick(1.0, f32::INFINITY)), (0.0, 0.0));
    }

    #[test]
    fn the_nearest_triple_is_the_same_rotation() {
        let kinds = [ChannelKind::RotateZ, ChannelKind::RotateX, ChannelKind::RotateY];
        let near = [3.0, 0.2, -3.0];
        let t = nearest_triple([-3.1, 0.25, 3.05], near);
        assert!(t.iter().zip(near).all(|(a, b)| (a - b).abs() < 0.5), "{t:?}");
        let q0 = compose_rotation(&kinds, &[-3.1, 0.25, 3.05], EulerConvention::FirstOutermost);
        let q1 = compose_rotation(&kinds, &t, EulerConvention::FirstOutermost);
        assert!(q0.dot(q1).abs() > 1.0 - 1e-6);
        let alt = nearest_triple([0.1, 0.2, 0.3], [0.1 + std::f32::consts::PI, std::f32::consts::PI - 0.2, 0.3 + std::f32::consts::PI]);
        let q2 = compose_rotation(&kinds, &alt, EulerConvention::FirstOutermost);
        let q3 = compose_rotation(&kinds, &[0.1, 0.2, 0.3], EulerConvention::FirstOutermost);
        assert!(q2.dot(q3).abs() > 1.0 - 1e-6, "the other triple is the same rotation");
    }
}
