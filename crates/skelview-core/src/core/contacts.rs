//! Foot contacts: stretches where a foot stays near its own lowest level and moves slowly.
//! The capture checks use them to find sliding feet, the retargeting to keep feet planted.

use glam::Vec3;

/// Inclusive runs of frames where `flag(f)` holds, over `0..n`, runs closer than `gap` frames
/// joined.
pub fn runs(n: usize, gap: usize, mut flag: impl FnMut(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for f in 0..=n {
        let on = f < n && flag(f);
        match (on, start) {
            (true, None) => start = Some(f),
            (false, Some(s)) => {
                start = None;
                match out.last_mut() {
                    Some(last) if s <= last.1 + gap + 1 => last.1 = f - 1,
                    _ => out.push((s, f - 1)),
                }
            }
            _ => {}
        }
    }
    out
}

/// The `p`-th fraction quantile of `values` (reordered), 0 when empty.
pub fn quantile(values: &mut [f32], p: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let k = ((values.len() - 1) as f32 * p).round() as usize;
    *values.select_nth_unstable_by(k, f32::total_cmp).1
}

/// When a foot is taken to stand on the ground.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactRule {
    /// Within this height above the foot's own lowest level (2nd percentile), metres.
    pub height_m: f32,
    /// Slower than this, metres per second.
    pub speed_m_s: f32,
    /// At least this many frames.
    pub min_frames: usize,
}

/// The foot's lowest level: the 2nd percentile of its finite heights (`None` when it has none).
pub fn ground_level(track: &[Vec3]) -> Option<f32> {
    let mut heights: Vec<f32> = track.iter().map(|p| p.y).filter(|y| y.is_finite()).collect();
    (!heights.is_empty()).then(|| quantile(&mut heights, 0.02))
}

/// Inclusive frame runs where a foot whose display-space (+Y up) positions are `track`, one a
/// frame `dt` seconds apart, stands still near `ground`.
pub fn contacts(track: &[Vec3], dt: f32, ground: f32, rule: &ContactRule) -> Vec<(usize, usize)> {
    let n = track.len();
    if n < 3 {
        return Vec::new();
    }
    let speed = |f: usize| {
        let (a, b) = (f.saturating_sub(1), (f + 1).min(n - 1));
        (track[b] - track[a]).length() / ((b - a) as f32 * dt).max(1e-6)
    };
    let contact = |f: usize| track[f].y - ground < rule.height_m && speed(f) < rule.speed_m_s;
    runs(n, 0, contact).into_iter().filter(|(a, b)| b + 1 - a >= rule.min_frames.max(1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_foot_that_rests_then_lifts_has_one_contact() {
        let track: Vec<Vec3> =
            (0..40).map(|f| if f < 20 { Vec3::new(0.0, 0.05, 0.0) } else { Vec3::new(0.05 * (f - 20) as f32, 0.3, 0.0) }).collect();
        let rule = ContactRule { height_m: 0.03, speed_m_s: 0.6, min_frames: 3 };
        let ground = ground_level(&track).unwrap();
        assert_eq!(ground, 0.05);
        assert_eq!(contacts(&track, 1.0 / 30.0, ground, &rule), vec![(0, 18)]);
        assert_eq!(contacts(&track[..2], 1.0 / 30.0, ground, &rule), vec![]);
    }
}
