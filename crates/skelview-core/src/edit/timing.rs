//! Operations on time: keep a range of frames, resample to another rate, blend the end into
//! the start so that the clip loops. A capture's other points, analog samples and events
//! follow.

use super::Work;
use super::rotations::RotationChannels;
use super::work::angle_step;
use crate::core::capture::Capture;

/// Keeps frames `first..=last`.
pub(super) fn trim(w: &mut Work, first: usize, last: usize) -> String {
    let cpf = w.cpf();
    let before = w.frames;
    w.values = w.values[first * cpf..(last + 1) * cpf].to_vec();
    w.filled = w.filled[first * cpf..(last + 1) * cpf].to_vec();
    w.frames = last + 1 - first;
    w.source_offset_secs += first as f64 * w.frame_time_secs;
    if let Some(c) = &mut w.capture {
        trim_capture(c, first, last);
    }
    w.motion.source.declared_frames = None;
    format!("kept frames {first} to {last} ({} of {before})", w.frames)
}

fn trim_capture(c: &mut Capture, first: usize, last: usize) {
    let n = c.points.len();
    c.positions = c.positions[first * n * 3..(last + 1) * n * 3].to_vec();
    c.residuals = c.residuals[first * n..(last + 1) * n].to_vec();
    let spf = c.analog.samples_per_frame;
    let channels = c.analog.channels.len();
    if channels > 0 && spf > 0 {
        let (a, b) = ((first * spf * channels).min(c.analog.values.len()), ((last + 1) * spf * channels).min(c.analog.values.len()));
        c.analog.values = c.analog.values[a..b].to_vec();
    }
    // Events keep their times on the file's clock; those outside the frames kept go.
    let rate = c.point_rate_hz.max(1e-9);
    let time = |f: usize| (f64::from(c.first_frame) - 1.0 + f as f64) / rate;
    let (t0, t1) = (time(first) - 0.5 / rate, time(last) + 0.5 / rate);
    c.events.retain(|e| (t0..=t1).contains(&e.time_secs));
    c.first_frame += first as u32;
    c.frames = last + 1 - first;
}

/// Resamples to `fps`: translations and other channels lerped, rotations slerped; a sample
/// between a value and a missing one is missing.
pub(super) fn resample(w: &mut Work, fps: f64) -> String {
    let cpf = w.cpf();
    let (old_frames, old_dt) = (w.frames, w.frame_time_secs);
    let duration = old_dt * old_frames.saturating_sub(1) as f64;
    let frames = if old_frames == 0 { 0 } else { (duration * fps + 1e-9).floor() as usize + 1 };
    let rotations: Vec<RotationChannels> = w.motion.skeleton.joints().iter().filter_map(RotationChannels::of).collect();
    let rot_idx: Vec<usize> = rotations.iter().flat_map(|r| r.indices()).collect();
    let mut values = vec![0.0f32; frames * cpf];
    let mut filled = vec![false; frames * cpf];
    let source = |i: usize| -> (usize, usize, f32) {
        let s = i as f64 / fps / old_dt;
        let f0 = (s.floor() as usize).min(old_frames - 1);
        let f1 = (f0 + 1).min(old_frames - 1);
        (f0, f1, (s - f0 as f64) as f32)
    };
    for i in 0..frames {
        let (f0, f1, t) = source(i);
        let (r0, r1) = (&w.values[f0 * cpf..(f0 + 1) * cpf], &w.values[f1 * cpf..(f1 + 1) * cpf]);
        let near: Vec<f32> = if i > 0 { values[(i - 1) * cpf..i * cpf].to_vec() } else { r0.to_vec() };
        let row = &mut values[i * cpf..(i + 1) * cpf];
        for c in (0..cpf).filter(|c| !rot_idx.contains(c)) {
            row[c] = r0[c] + (r1[c] - r0[c]) * t;
            filled[i * cpf + c] = w.filled[f0 * cpf + c] || (t > 0.0 && w.filled[f1 * cpf + c]);
        }
        for rot in &rotations {
            let idx = rot.indices();
            if idx.iter().any(|&c| !r0[c].is_finite() || !r1[c].is_finite()) {
                idx.iter().for_each(|&c| row[c] = f32::NAN);
                continue;
            }
            let q = rot.read(r0).slerp(rot.read(r1), t);
            rot.write(row, q, Some(&near));
            for &c in &idx {
                filled[i * cpf + c] = w.filled[f0 * cpf + c] || (t > 0.0 && w.filled[f1 * cpf + c]);
            }
        }
    }
    w.values = values;
    w.filled = filled;
    w.frames = frames;
    w.frame_time_secs = 1.0 / fps;
    let mut note = format!("{old_frames} frames at {:.4} fps resampled to {frames} at {fps} fps", 1.0 / old_dt);
    if let Some(c) = &mut w.capture {
        note += &resample_capture(c, fps, frames, old_dt);
    }
    w.motion.source.declared_frames = None;
    note
}

/// The capture's points at the new rate; analog kept when the new rate divides its rate.
fn resample_capture(c: &mut Capture, fps: f64, frames: usize, old_dt: f64) -> String {
    let n = c.points.len();
    let old_frames = c.frames;
    let mut positions = vec![f32::NAN; frames * n * 3];
    let mut residuals = vec![-1.0f32; frames * n];
    for i in 0..frames {
        let s = i as f64 / fps / old_dt;
        let f0 = (s.floor() as usize).min(old_frames.saturating_sub(1));
        let f1 = (f0 + 1).min(old_frames.saturating_sub(1));
        let t = (s - f0 as f64) as f32;
        for p in 0..n {
            let (r0, r1) = (c.residuals[f0 * n + p], c.residuals[f1 * n + p]);
            if r0 < 0.0 || (t > 0.0 && r1 < 0.0) {
                continue;
            }
            residuals[i * n + p] = r0.max(if t > 0.0 { r1 } else { 0.0 });
            for k in 0..3 {
                let (a, b) = (c.positions[(f0 * n + p) * 3 + k], c.positions[(f1 * n + p) * 3 + k]);
                positions[(i * n + p) * 3 + k] = a + (b - a) * t;
            }
        }
    }
    c.positions = positions;
    c.residuals = residuals;
    c.frames = frames;
    let old_rate = c.point_rate_hz;
    c.first_frame = ((f64::from(c.first_frame) - 1.0) * fps / old_rate.max(1e-9)).round() as u32 + 1;
    c.point_rate_hz = fps;
    let per_frame = c.analog.rate_hz / fps;
    if c.analog.channels.is_empty() {
        String::new()
    } else if (per_frame - per_frame.round()).abs() < 1e-6 && per_frame >= 1.0 {
        c.analog.samples_per_frame = per_frame.round() as usize;
        let keep = frames * c.analog.samples_per_frame * c.analog.channels.len();
        c.analog.values.truncate(keep);
        String::new()
    } else {
        let dropped = c.analog.channels.len();
        c.analog = Default::default();
        c.plates.clear();
        format!("; {dropped} analog channels dropped ({} Hz is not a whole multiple of {fps} fps)", c.analog.rate_hz)
    }
}

/// Blends the last `n` frames towards the first so that the clip loops: each channel gets
/// the difference between the first frame and where the last frames were heading, eased in.
/// The root's horizontal translation keeps travelling.
pub(super) fn make_loop(w: &mut Work, n: usize) -> String {
    let cpf = w.cpf();
    let frames = w.frames;
    let skeleton = &w.motion.skeleton;
    let up = match w.motion.source.up_axis {
        crate::core::UpAxis::Z => 2,
        _ => 1,
    };
    let mut keep = vec![false; cpf];
    for root in skeleton.roots() {
        let j = &skeleton.joints()[root];
        for (i, c) in j.channels.iter().enumerate() {
            let axis = match c {
                crate::core::ChannelKind::TranslateX => 0,
                crate::core::ChannelKind::TranslateY => 1,
                crate::core::ChannelKind::TranslateZ => 2,
                _ => continue,
            };
            keep[j.first_channel + i] = axis != up;
        }
    }
    let euler: Vec<bool> = (0..cpf)
        .map(|c| {
            skeleton
                .joints()
                .iter()
                .any(|j| j.channels.get(c.wrapping_sub(j.first_channel)).is_some_and(|k| k.is_rotation()) && c >= j.first_channel)
        })
        .collect();
    let quats: Vec<[usize; 4]> = skeleton
        .joints()
        .iter()
        .filter_map(|j| match RotationChannels::of(j) {
            Some(RotationChannels::Quaternion(at)) => Some(at),
            _ => None,
        })
        .collect();
    let v = |f: usize, c: usize| w.values[f * cpf + c];
    let errors: Vec<f32> = (0..cpf)
        .map(|c| {
            if keep[c] {
                return 0.0;
            }
            let heading = v(frames - 1, c) + (v(frames - 1, c) - v(frames - 2, c));
            let e = if euler[c] { angle_step(heading, v(0, c)) } else { v(0, c) - heading };
            if e.is_finite() { e } else { 0.0 }
        })
        .collect();
    for k in frames - n..frames {
        let u = (k + 1 - (frames - n)) as f32 / (n + 1) as f32;
        let s = u * u * (3.0 - 2.0 * u);
        for (c, e) in errors.iter().enumerate() {
            w.values[k * cpf + c] += e * s;
        }
        for at in &quats {
            let row = &mut w.values[k * cpf..(k + 1) * cpf];
            let q = glam::Vec4::new(row[at[0]], row[at[1]], row[at[2]], row[at[3]]).normalize_or_zero();
            for (i, &c) in at.iter().enumerate() {
                row[c] = q[i];
            }
        }
    }
    format!("the last {n} frames blended into the first")
}
