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

/// The residual against SG7 (`x − smoothed`) and its alternating part
/// (`r[f] − (r[f−1] + r[f+1]) / 2`) folded into one 9-tap filter over frames `f − 4..=f + 4`.
fn alternation_kernel() -> [f32; 9] {
    let mut residual = SG7.map(|w| -w / 21.0);
    residual[3] += 1.0;
    let mut c = [0f32; 9];
    for (k, r) in residual.into_iter().enumerate() {
        c[k + 1] += r;
        c[k] -= 0.5 * r;
        c[k + 2] -= 0.5 * r;
    }
    c
}

/// Per frame of joint `j`: the estimated per-axis noise power (squared metres) averaged over
/// `window` frames, and whether it is sustained there (at least half the window's frames
/// show half the `limit`'s energy on their own). Noise is on every frame; a heel strike or
/// another sudden change of speed puts a large value on one or two, which the mean alone
/// would read as noise at 24–30 fps. Frames in `masked` count as quiet so that a pop is not
/// also jitter.
fn noise(t: &Tracks, j: usize, window: usize, masked: &[bool], limit: f32) -> (Vec<f32>, Vec<bool>) {
    let n = t.frames;
    let series = &t.positions[j];
    let busy_energy = 0.5 * limit * limit * NOISE_FROM_ALTERNATION as f32;
    // Each frame's energy (frames 4..n−4; the filter needs four either side), an axis at a
    // time over plain arrays so that the filter runs on vector lanes.
    let mut energy = vec![0f32; n];
    if n >= 9 {
        let c = alternation_kernel();
        let mut axis = vec![0f32; n];
        for a in 0..3 {
            for (x, p) in axis.iter_mut().zip(series) {
                *x = p[a];
            }
            for (e, w) in energy[4..n - 4].iter_mut().zip(axis.windows(9)) {
                let v = c[0] * w[0]
                    + c[1] * w[1]
                    + c[2] * w[2]
                    + c[3] * w[3]
                    + c[4] * w[4]
                    + c[5] * w[5]
                    + c[6] * w[6]
                    + c[7] * w[7]
                    + c[8] * w[8];
                *e += v * v;
            }
        }
        for (e, &quiet) in energy.iter_mut().zip(masked) {
            if quiet || !e.is_finite() {
                *e = 0.0;
            }
        }
    }
    // Window sums slid along: both ends only move forward.
    let half = window / 2;
    let (mut power, mut sustained) = (vec![0f32; n], vec![false; n]);
    let (mut sum, mut busy, mut a, mut b) = (0f64, 0usize, 4usize, 4usize);
    let last = n.saturating_sub(4);
    for f in 0..n {
        let (to_a, to_b) = (f.saturating_sub(half).max(4), (f + half + 1).min(last));
        while b < to_b {
            sum += f64::from(energy[b]);
            busy += usize::from(energy[b] > busy_energy);
            b += 1;
        }
        while a < to_a && a < b {
            sum -= f64::from(energy[a]);
            busy -= usize::from(energy[a] > busy_energy);
            a += 1;
        }
        if b > a && to_b > to_a {
            power[f] = (sum.max(0.0) / ((b - a) as f64 * NOISE_FROM_ALTERNATION)) as f32;
            sustained[f] = 2 * busy >= b - a;
        }
    }
    (power, sustained)
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
    let (powers, sustained): (Vec<Vec<f32>>, Vec<Vec<bool>>) =
        (0..t.joints).into_par_iter().map(|j| noise(t, j, window, &masked, limit)).unzip();
    // Compared as powers (squares of the RMS levels): no square root per frame.
    let (limit_power, parent_factor) = (limit * limit, 1.5f32 * 1.5);
    let skeleton = &m.skeleton;
    let mut out = Vec::new();
    for j in 0..t.joints {
        if skeleton.joints()[j].is_marker {
            continue;
        }
        let parent = skeleton.joints()[j].parent;
        // Noise the parent carries moves the child too: only more than it counts here.
        let own = |f: usize| {
            let power = powers[j][f];
            power > limit_power && sustained[j][f] && parent.is_none_or(|p| power > parent_factor * powers[p][f])
        };
        for (a, b) in runs(n, window / 2, own) {
            if b + 1 - a < window {
                continue;
            }
            let value = powers[j][a..=b].iter().copied().fold(0.0, f32::max).sqrt() * 1000.0;
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
