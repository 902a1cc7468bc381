//! Keyframe tracks of glTF animation samplers and their values at any time: LINEAR (rotations
//! slerped along the shorter arc), STEP, and CUBICSPLINE (cubic Hermite with the file's in-
//! and out-tangents, scaled by the key interval, as the glTF 2.0 specification's appendix
//! gives it). Before the first key and after the last the track holds its end values.

use glam::{Quat, Vec4};

/// How a sampler interpolates between keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Straight lines (slerp for rotations).
    Linear,
    /// The previous key's value until the next key.
    Step,
    /// Cubic Hermite; three values a key: in-tangent, value, out-tangent.
    CubicSpline,
}

/// One channel's keys: times in seconds and values of 3 (translation, scale) or 4
/// (rotation, x y z w) components, stored as `Vec4`.
#[derive(Clone, Debug)]
pub struct Track {
    /// Key times, never decreasing; a time equal to the one before is a step to the later key.
    pub times: Vec<f32>,
    /// One value a key, or three (in-tangent, value, out-tangent) for CUBICSPLINE.
    pub values: Vec<Vec4>,
    /// The sampler's interpolation.
    pub interpolation: Interpolation,
    /// A rotation track (quaternions).
    pub rotation: bool,
}

impl Track {
    /// The value of key `k` (skipping the tangents of a cubic spline).
    fn key(&self, k: usize) -> Vec4 {
        match self.interpolation {
            Interpolation::CubicSpline => self.values[3 * k + 1],
            _ => self.values[k],
        }
    }

    /// True when the values ever change.
    pub fn moves(&self) -> bool {
        let n = self.times.len();
        (1..n).any(|k| (self.key(k) - self.key(0)).abs().max_element() > 1e-6)
    }

    /// The value at time `t` (seconds); rotations come back normalized.
    pub fn at(&self, t: f32) -> Vec4 {
        let n = self.times.len();
        if n == 0 {
            return Vec4::ZERO;
        }
        // At a repeated time the later key holds (a step, as three.js plays it): `t` equal to
        // the first key's time falls through to the search below, which finds the last such key.
        if n == 1 || t < self.times[0] {
            return self.finish(self.key(0));
        }
        if t >= self.times[n - 1] {
            return self.finish(self.key(n - 1));
        }
        // The key interval [k, k + 1] that holds t.
        let k = self.times.partition_point(|&x| x <= t).saturating_sub(1).min(n - 2);
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let d = t1 - t0;
        let s = if d > 0.0 { ((t - t0) / d).clamp(0.0, 1.0) } else { 0.0 };
        let v = match self.interpolation {
            Interpolation::Step => self.key(k),
            Interpolation::Linear if self.rotation => {
                let (a, b) = (Quat::from_vec4(self.key(k)).normalize(), Quat::from_vec4(self.key(k + 1)).normalize());
                Vec4::from(a.slerp(b, s))
            }
            Interpolation::Linear => self.key(k).lerp(self.key(k + 1), s),
            Interpolation::CubicSpline => {
                let (p0, m0) = (self.values[3 * k + 1], self.values[3 * k + 2] * d);
                let (p1, m1) = (self.values[3 * (k + 1) + 1], self.values[3 * (k + 1)] * d);
                let (s2, s3) = (s * s, s * s * s);
                p0 * (2.0 * s3 - 3.0 * s2 + 1.0) + m0 * (s3 - 2.0 * s2 + s) + p1 * (-2.0 * s3 + 3.0 * s2) + m1 * (s3 - s2)
            }
        };
        self.finish(v)
    }

    fn finish(&self, v: Vec4) -> Vec4 {
        if self.rotation { Vec4::from(Quat::from_vec4(v).normalize()) } else { v }
    }
}

/// The frame rate the keys share: the smallest interval between keys (refined over the last
/// key's time) when every key time is a whole number of it (within 0.1% of an interval);
/// `None` when the keys sit at mixed times.
pub fn shared_rate(tracks: &[&Track]) -> Option<f64> {
    // The first keys' intervals: early times are the most precise f32s.
    let step = tracks
        .iter()
        .flat_map(|t| t.times[..t.times.len().min(64)].windows(2).map(|w| (w[1] - w[0]) as f64))
        .filter(|d| *d > 1e-6)
        .fold(f64::INFINITY, f64::min);
    if !step.is_finite() {
        return None;
    }
    // Key times are f32: the smallest interval is off by up to ~1e-4 of itself late in a long
    // clip. Refine it over the whole span so that thousands of frames do not drift.
    let last = tracks.iter().filter_map(|t| t.times.last()).fold(0.0f32, |a, &b| a.max(b)) as f64;
    let spans = (last / step).round();
    let step = if spans >= 1.0 { last / spans } else { step };
    let whole = tracks.iter().flat_map(|t| t.times.iter()).all(|&x| {
        let k = x as f64 / step;
        (k - k.round()).abs() < 1e-3 * k.max(1.0).sqrt().max(1.0)
    });
    if !whole {
        return None;
    }
    // Not rounded to a whole rate: the frames must land on the keys (a BVH's 0.0333333 s
    // written as keys is 30.00003 fps, and 30 would slip a key's worth over a minute).
    Some(1.0 / step)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(times: &[f32], values: &[[f32; 4]], interpolation: Interpolation, rotation: bool) -> Track {
        Track { times: times.to_vec(), values: values.iter().map(|v| Vec4::from(*v)).collect(), interpolation, rotation }
    }

    #[test]
    fn linear_step_and_held_ends() {
        let t = track(&[1.0, 2.0], &[[0.0, 0.0, 0.0, 0.0], [2.0, 4.0, 0.0, 0.0]], Interpolation::Linear, false);
        assert_eq!(t.at(1.5), Vec4::new(1.0, 2.0, 0.0, 0.0));
        assert_eq!(t.at(0.0), Vec4::ZERO, "before the first key: its value");
        assert_eq!(t.at(9.0), Vec4::new(2.0, 4.0, 0.0, 0.0), "after the last: its value");
        let s = Track { interpolation: Interpolation::Step, ..t.clone() };
        assert_eq!(s.at(1.99), Vec4::ZERO);
        assert!(t.moves());
    }

    #[test]
    fn a_repeated_time_is_a_step_to_the_later_key() {
        let v = [[0.0; 4], [1.0, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 0.0]];
        let t = track(&[0.0, 1.0, 1.0, 2.0], &v, Interpolation::Linear, false);
        assert_eq!((t.at(0.5).x, t.at(1.0).x, t.at(1.5).x), (0.5, 5.0, 5.5));
        let first = track(&[0.0, 0.0, 1.0], &v[..3], Interpolation::Linear, false);
        assert_eq!((first.at(-1.0).x, first.at(0.0).x), (0.0, 1.0), "before the keys the first; at their time the later");
    }

    #[test]
    fn rotations_slerp_on_the_short_arc() {
        let a = Quat::IDENTITY;
        let b = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
        // The second key written as -b: the same rotation; the short way is still 45° at the middle.
        let t = track(&[0.0, 1.0], &[a.to_array(), (-b).to_array()], Interpolation::Linear, true);
        let mid = Quat::from_vec4(t.at(0.5));
        assert!(mid.angle_between(Quat::from_rotation_y(std::f32::consts::FRAC_PI_4)) < 1e-5, "{mid:?}");
    }

    #[test]
    fn cubic_spline_is_hermite_with_scaled_tangents() {
        // Keys 0 → 1 over 2 s, zero tangents: smoothstep; the middle is 0.5, a quarter 0.15625.
        let v = [[0.0; 4], [0.0; 4], [0.0; 4], [0.0; 4], [1.0, 0.0, 0.0, 0.0], [0.0; 4]];
        let t = track(&[0.0, 2.0], &v, Interpolation::CubicSpline, false);
        assert!((t.at(1.0).x - 0.5).abs() < 1e-6 && (t.at(0.5).x - 0.15625).abs() < 1e-6);
        // A straight line written as a spline: out-tangent 0.5/s on both keys gives x = t/2.
        let v = [[0.0; 4], [0.0; 4], [0.5, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0; 4]];
        let t = track(&[0.0, 2.0], &v, Interpolation::CubicSpline, false);
        assert!((t.at(0.5).x - 0.25).abs() < 1e-6, "{}", t.at(0.5).x);
    }

    #[test]
    fn the_rate_the_keys_share() {
        let at = |times: &[f32]| track(times, &vec![[0.0; 4]; times.len()], Interpolation::Linear, false);
        let a = at(&[0.0, 1.0 / 30.0, 2.0 / 30.0, 0.5]);
        let b = at(&[0.1, 0.2]);
        let near = |r: Option<f64>, want: f64| r.is_some_and(|r| (r - want).abs() < 1e-3);
        assert!(near(shared_rate(&[&a]), 30.0));
        assert!(near(shared_rate(&[&a, &b]), 30.0), "0.1 and 0.2 are frames 3 and 6 at 30 fps");
        assert_eq!(shared_rate(&[&at(&[0.0, 0.3, 0.7])]), None, "mixed intervals");
        assert_eq!(shared_rate(&[&at(&[0.0])]), None);
        // 120 fps for a minute as f32 times: the rounding does not break the rate.
        let long: Vec<f32> = (0..7200).map(|k| (k as f64 / 120.0) as f32).collect();
        assert!(near(shared_rate(&[&at(&long)]), 120.0));
    }
}
