//! `pop` and `jitter`: changes between frames that the neighbouring frames do not explain.

use glam::Vec3;
use rayon::prelude::*;

use super::ranges::{frames_text, keep_topmost, median, runs};
use super::thresholds::{JitterThresholds, PopThresholds};
use super::tracks::Tracks;
use super::{Finding, Kind};
use crate::core::Motion;

/// Median of four numbers: the mean of the middle two (the sum less the extremes).
fn median4(v: [f32; 4]) -> f32 {
    let (lo, hi) = (v[0].min(v[1]).min(v[2].min(v[3])), v[0].max(v[1]).max(v[2].max(v[3])));
    0.5 * (v[0] + v[1] + v[2] + v[3] - lo - hi)
}

/// Per frame, how far a step departs from the steps two frames either side of it
/// (component-wise median of four): a constant-speed motion predicts itself, a one-frame
/// spike departs at its own frame and at the frame it comes back, and at no other.
fn residuals(n: usize, step: impl Fn(usize) -> Vec3) -> Vec<f32> {
    let mut r = vec![0f32; n];
    if n < 6 {
        return r;
    }
    for f in 1..n {
        let mut around = [Vec3::ZERO; 4];
        let mut k = 0;
        for g in [f.wrapping_sub(2), f.wrapping_sub(1), f + 1, f + 2, f + 3, f.wrapping_sub(3)] {
            if k < 4 && (1..n).contains(&g) {
                around[k] = step(g);
                k += 1;
            }
        }
        if k < 4 {
            continue;
        }
        let predicted = Vec3::new(median4(around.map(|v| v.x)), median4(around.map(|v| v.y)), median4(around.map(|v| v.z)));
        r[f] = (step(f) - predicted).length();
    }
    r
}

/// Jumps of one joint's series: frames where the residual passes `max(factor × robust spread,
/// floor)`; a spike and its return make one finding over the frames that are off.
fn jumps(m: &Motion, joint: usize, what: &str, unit: &'static str, floor: f32, factor: f32, series: &[Vec3]) -> Vec<Finding> {
    let n = series.len();
    let step = |f: usize| series[f];
    let r = residuals(n, step);
    let mut spread: Vec<f32> = r[1..].to_vec();
    let scale = 1.4826 * median(&mut spread);
    let threshold = (factor * scale).max(floor);
    let mut out = Vec::new();
    for (a, b) in runs(n, 1, |f| r[f] > threshold) {
        let value = r[a..=b].iter().copied().fold(0.0, f32::max);
        let comes_back = b > a && (step(a) + step(b)).length() < 0.5 * step(a).length();
        let end = if b > a { b - 1 } else { a };
        let name = &m.skeleton.joints()[joint].name;
        let after = if comes_back { format!(" and comes back at frame {b}") } else { String::new() };
        let shown = if unit == "m" { format!("{:.1} cm", value * 100.0) } else { format!("{value:.1}°") };
        let usual = if scale > 0.0 { format!(" ({:.0}× its usual change)", value / scale) } else { String::new() };
        out.push(Finding {
            kind: Kind::Pop,
            joint: Some(joint),
            start_frame: a,
            end_frame: end,
            value,
            unit,
            threshold,
            message: format!("{name} {what} jumps {shown} at frame {a}{usual}{after}"),
        });
    }
    out
}

/// `pop`: translation jumps of translating joints (the root's included) and rotation jumps of
/// rotating joints, each against its own motion. Where a joint's translation and rotation
/// jump together, both are listed.
pub fn pops(m: &Motion, t: &Tracks, th: &PopThresholds) -> Vec<Finding> {
    let mut out: Vec<Finding> = t
        .trans_joints
        .par_iter()
        .zip(&t.trans_steps)
        .flat_map_iter(|(&j, steps)| jumps(m, j, "position", "m", th.min_m, th.factor, steps))
        .collect();
    out.par_extend(
        t.rot_joints.par_iter().zip(&t.rot_steps).flat_map_iter(|(&j, steps)| jumps(m, j, "rotation", "deg", th.min_deg, th.factor, steps)),
    );
    out
}

/// Savitzky–Golay weights (cubic, 7 points) ×21: `smoothed = Σ wᵢ xᵢ / 21`.
const SG7: [f32; 7] = [-2.0, 3.0, 6.0, 7.0, 6.0, 3.0, -2.0];
/// For white noise of σ per axis, the alternating part of the residual against SG7
/// (`r[f] − (r[f−1] + r[f+1]) / 2`) has a mean squared length of 3 × 1.5696 σ² (measured
/// over two million samples). Smooth motion leaves almost nothing there: a 2 Hz swing of
/// 30 cm sampled at 30 fps leaves 0.2 mm, where the plain residual holds 2.6 mm.
const NOISE_FROM_ALTERNATION: f64 = 3.0 * 1.5696;

/// Estimated per-axis noise (metres) of joint `j` at each frame, averaged over `window`
/// frames; frames in `masked` count as quiet so that a pop is not also jitter.
fn noise(t: &Tracks, j: usize, window: usize, masked: &[bool]) -> Vec<f32> {
    let n = t.frames;
    let series = &t.positions[j];
    let residual: Vec<Vec3> = (0..n)
        .map(|f| {
            if f >= 3 && f + 3 < n {
                let smoothed: Vec3 = (0..7).map(|i| series[f + i - 3] * SG7[i]).sum::<Vec3>() / 21.0;
                series[f] - smoothed
            } else {
                Vec3::ZERO
            }
        })
        .collect();
    let mut energy = vec![0f64; n + 1];
    for f in 0..n {
        let e = if f >= 4 && f + 4 < n && !masked[f] {
            (residual[f] - 0.5 * (residual[f - 1] + residual[f + 1])).length_squared() as f64
        } else {
            0.0
        };
        energy[f + 1] = energy[f] + if e.is_finite() { e } else { 0.0 };
    }
    let half = window / 2;
    (0..n)
        .map(|f| {
            let (a, b) = (f.saturating_sub(half).max(4), (f + half + 1).min(n.saturating_sub(4)));
            if b <= a {
                return 0.0;
            }
            ((energy[b] - energy[a]) / (b - a) as f64 / NOISE_FROM_ALTERNATION).sqrt() as f32
        })
        .collect()
}

/// `jitter`: windows where a joint's position carries more high-frequency noise than the
/// threshold, reported at the joint where it starts (not at every joint it carries), with the
/// estimated RMS noise in millimetres.
pub fn jitter(m: &Motion, t: &Tracks, th: &JitterThresholds, pops: &[Finding]) -> Vec<Finding> {
    let n = t.frames;
    if n < 8 {
        return Vec::new();
    }
    let window = ((th.window_secs / t.dt.max(1e-6)).round() as usize).clamp(7, n);
    let mut masked = vec![false; n];
    for p in pops {
        for f in p.start_frame.saturating_sub(4)..=(p.end_frame + 4).min(n - 1) {
            masked[f] = true;
        }
    }
    let limit = th.rms_mm / 1000.0;
    let levels: Vec<Vec<f32>> = (0..t.joints).into_par_iter().map(|j| noise(t, j, window, &masked)).collect();
    let skeleton = &m.skeleton;
    let mut out = Vec::new();
    for j in 0..t.joints {
        if skeleton.joints()[j].is_marker {
            continue;
        }
        let parent = skeleton.joints()[j].parent;
        // Noise the parent carries moves the child too: only more than it counts here.
        let own = |f: usize| {
            let level = levels[j][f];
            level > limit && parent.is_none_or(|p| level > 1.5 * levels[p][f])
        };
        for (a, b) in runs(n, window / 2, own) {
            if b + 1 - a < window {
                continue;
            }
            let value = levels[j][a..=b].iter().copied().fold(0.0, f32::max) * 1000.0;
            out.push(Finding {
                kind: Kind::Jitter,
                joint: Some(j),
                start_frame: a,
                end_frame: b,
                value,
                unit: "mm",
                threshold: th.rms_mm,
                message: format!("{} jitters: {value:.1} mm RMS noise over {}", skeleton.joints()[j].name, frames_text(a, b)),
            });
        }
    }
    keep_topmost(skeleton, out)
}
