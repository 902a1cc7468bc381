//! `pop` and `jitter`: changes between frames that the neighbouring frames do not explain.

use crate::par::*;
use glam::Vec3;

use super::ranges::{frames_text, keep_topmost, median, runs};
use super::thresholds::{JitterThresholds, PopThresholds};
use super::tracks::Tracks;
use super::{Finding, Kind};
use crate::core::Motion;

/// Component-wise median of four vectors: the mean of the middle two (the sum less the
/// extremes).
fn median4(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Vec3 {
    let (lo, hi) = (a.min(b).min(c.min(d)), a.max(b).max(c.max(d)));
    0.5 * (a + b + c + d - lo - hi)
}

/// Per frame, how far a step departs from the steps two frames either side of it
/// (component-wise median of four): a constant-speed motion predicts itself, a one-frame
/// spike departs at its own frame and at the frame it comes back, and at no other. Near the
/// ends, the four nearest steps that exist (none: no residual).
fn residuals(steps: &[Vec3]) -> Vec<f32> {
    let n = steps.len();
    let mut r = vec![0f32; n];
    if n < 6 {
        return r;
    }
    let edge = |f: usize| {
        let mut around = [Vec3::ZERO; 4];
        let mut k = 0;
        for g in [f.wrapping_sub(2), f.wrapping_sub(1), f + 1, f + 2, f + 3, f.wrapping_sub(3)] {
            if k < 4 && (1..n).contains(&g) {
                around[k] = steps[g];
                k += 1;
            }
        }
        if k < 4 { 0.0 } else { (steps[f] - median4(around[0], around[1], around[2], around[3])).length() }
    };
    for f in (1..3).chain(n - 2..n) {
        r[f] = edge(f);
    }
    // Frame 0 has no step: the windows start at frame 1.
    for (i, w) in steps[1..].windows(5).enumerate() {
        r[i + 3] = (w[2] - median4(w[0], w[1], w[3], w[4])).length();
    }
    r
}

/// Jumps of one joint's series: frames where the residual passes `max(factor × robust spread,
/// floor)`; a spike and its return make one finding over the frames that are off.
fn jumps(m: &Motion, joint: usize, what: &str, unit: &'static str, floor: f32, factor: f32, series: &[Vec3]) -> Vec<Finding> {
    let n = series.len();
    let step = |f: usize| series[f];
    let r = residuals(series);
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

/// Per frame of joint `j`: the estimated per-axis noise (metres) averaged over `window`
/// frames, and whether it is sustained there (at least half the window's frames show half
/// the `limit`'s energy on their own). Noise is on every frame; a heel strike or another
/// sudden change of speed puts a large value on one or two, which the mean alone would read
/// as noise at 24–30 fps. Frames in `masked` count as quiet so that a pop is not also jitter.
fn noise(t: &Tracks, j: usize, window: usize, masked: &[bool], limit: f32) -> (Vec<f32>, Vec<bool>) {
    let n = t.frames;
    let series = &t.positions[j];
    // residual[f] for f in 3..n−3 sits at residual[f − 3].
    let residual: Vec<Vec3> = series
        .windows(7)
        .map(|w| {
            w[3] - (w[0] * SG7[0] + w[1] * SG7[1] + w[2] * SG7[2] + w[3] * SG7[3] + w[4] * SG7[4] + w[5] * SG7[5] + w[6] * SG7[6]) / 21.0
        })
        .collect();
    let busy_energy = 0.5 * (limit as f64).powi(2) * NOISE_FROM_ALTERNATION;
    // Prefix sums of the energy and of the frames that carry noise on their own.
    let (mut energy, mut busy) = (vec![0f64; n + 1], vec![0u32; n + 1]);
    let (mut total, mut count) = (0f64, 0u32);
    // Frame f in 4..n−4 uses residual[f − 4 ..= f − 2].
    for (f, r) in residual.windows(3).enumerate().map(|(i, r)| (i + 4, r)) {
        if f + 4 >= n {
            break;
        }
        let e = if masked[f] { 0.0 } else { (r[1] - 0.5 * (r[0] + r[2])).length_squared() as f64 };
        let e = if e.is_finite() { e } else { 0.0 };
        total += e;
        count += u32::from(e > busy_energy);
        (energy[f + 1], busy[f + 1]) = (total, count);
    }
    for f in (n.saturating_sub(4)).max(4)..n {
        (energy[f + 1], busy[f + 1]) = (total, count);
    }
    let half = window / 2;
    (0..n)
        .map(|f| {
            let (a, b) = (f.saturating_sub(half).max(4), (f + half + 1).min(n.saturating_sub(4)));
            if b <= a {
                return (0.0, false);
            }
            let level = ((energy[b] - energy[a]) / (b - a) as f64 / NOISE_FROM_ALTERNATION).sqrt() as f32;
            (level, 2 * (busy[b] - busy[a]) as usize >= b - a)
        })
        .unzip()
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
        masked[p.start_frame.saturating_sub(4)..=(p.end_frame + 4).min(n - 1)].fill(true);
    }
    let limit = th.rms_mm / 1000.0;
    let (levels, sustained): (Vec<Vec<f32>>, Vec<Vec<bool>>) =
        (0..t.joints).into_par_iter().map(|j| noise(t, j, window, &masked, limit)).unzip();
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
            level > limit && sustained[j][f] && parent.is_none_or(|p| level > 1.5 * levels[p][f])
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
