//! How far an edit moved each joint or marker: the edited motion against its source at the
//! same times, in metres. What a fill made up and what is still missing is not a move (the
//! source had nothing there), so those samples are left out and counted apart.

use glam::{Mat4, Vec3};

use crate::core::{Interpolation, Motion, PoseAt, Sampler};

/// One joint's displacement over the clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    /// Joint (or marker) of the edited motion.
    pub joint: usize,
    /// The same joint in the source (by name), if it has it.
    pub source_joint: Option<usize>,
    /// Largest distance from the source, metres.
    pub max_m: f32,
    /// Root mean square distance, metres.
    pub rms_m: f32,
    /// Frame of the edited motion where the largest distance is.
    pub max_frame: usize,
    /// Frames measured (both sides present).
    pub frames: usize,
    /// Frames a fill made up (not measured).
    pub filled: usize,
}

/// Per joint of `edited`, how far it is from the same joint of `source` at the same time
/// (linear between the source's frames; the edited frame 0 is the source's
/// `source_offset_secs`, as [`super::Edited`] says); `keep_going(fraction)` false stops (`None`).
pub fn moved(source: &Motion, edited: &Motion, source_offset_secs: f64, keep_going: &dyn Fn(f32) -> bool) -> Option<Vec<Moved>> {
    let metres = source.metres_per_raw_unit();
    let scale = Mat4::from_scale(Vec3::splat(if metres.is_finite() && metres > 0.0 { metres } else { 1.0 }));
    let joints = edited.skeleton.joints();
    let partner: Vec<Option<usize>> = joints.iter().map(|j| source.skeleton.find(&j.name)).collect();
    let absent = |m: &Motion, j: usize, f: usize, filled: bool| {
        let joint = &m.skeleton.joints()[j];
        (joint.first_channel..joint.first_channel + joint.channels.len())
            .any(|c| if filled { m.clip.is_filled(f, c) } else { m.clip.is_missing(f, c) })
    };
    let (has_missing, has_filled) = (!edited.clip.missing().is_empty(), !edited.clip.filled().is_empty());
    let mut out: Vec<Moved> = (0..joints.len())
        .map(|j| Moved { joint: j, source_joint: partner[j], max_m: 0.0, rms_m: 0.0, max_frame: 0, frames: 0, filled: 0 })
        .collect();
    let mut sum_sq = vec![0.0f64; joints.len()];
    let (mut a, mut b) = (Sampler::default(), Sampler::default());
    let n = edited.clip.num_frames();
    let source_end = source.clip.last_frame_time_secs().max(0.0);
    for f in 0..n {
        if f % 256 == 0 && !keep_going(f as f32 / n.max(1) as f32) {
            return None;
        }
        let t = f as f64 * edited.clip.frame_time_secs + source_offset_secs;
        if t < -1e-9 {
            continue;
        }
        if t > source_end + 1e-9 {
            break;
        }
        let now = b.positions(edited, PoseAt::Frame(f), Interpolation::Linear, scale);
        let before = a.positions(source, PoseAt::Time(t), Interpolation::Linear, scale);
        let source_frame = ((t / source.clip.frame_time_secs.max(1e-12)).round() as usize).min(source.clip.num_frames().saturating_sub(1));
        for (j, m) in out.iter_mut().enumerate() {
            let Some(s) = partner[j] else { continue };
            if has_filled && absent(edited, j, f, true) {
                m.filled += 1;
                continue;
            }
            if (has_missing && absent(edited, j, f, false)) || absent(source, s, source_frame, false) {
                continue;
            }
            let d = now[j].distance(before[s]);
            if !d.is_finite() {
                continue;
            }
            m.frames += 1;
            sum_sq[j] += f64::from(d) * f64::from(d);
            if d > m.max_m {
                (m.max_m, m.max_frame) = (d, f);
            }
        }
    }
    for (m, s) in out.iter_mut().zip(sum_sq) {
        m.rms_m = if m.frames > 0 { (s / m.frames as f64).sqrt() as f32 } else { 0.0 };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{AddTpose, Op, Recipe, Scale, Trim, Unroll, apply};
    use crate::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

    fn sample() -> Motion {
        let request = LoadRequest::single(
            &formats::bvh::Bvh,
            Source::Memory { name: "walk.bvh".into(), bytes: std::sync::Arc::from(formats::SAMPLE_BVH) },
        );
        formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap()
    }

    #[test]
    fn an_unroll_moves_nothing_and_a_scale_moves_every_joint_but_the_origin() {
        let m = sample();
        let unrolled = apply(&m, &Recipe::of([Op::Unroll(Unroll { joints: vec![] })]), &|_| true).unwrap().motion;
        let d = moved(&m, &unrolled, 0.0, &|_| true).unwrap();
        assert!(d.iter().all(|j| j.max_m < 1e-5 && j.frames == m.clip.num_frames()), "{:?}", d.iter().map(|j| j.max_m).collect::<Vec<_>>());
        let scaled = apply(&m, &Recipe::of([Op::Scale(Scale { factor: 2.0 })]), &|_| true).unwrap().motion;
        let d = moved(&m, &scaled, 0.0, &|_| true).unwrap();
        let head = m.skeleton.find("Head").unwrap();
        // The head is ~1.6 m up and twice as far: about 1.6 m moved.
        assert!(d[head].max_m > 1.0 && d[head].rms_m > 1.0 && d[head].rms_m <= d[head].max_m, "{:?}", d[head]);
    }

    #[test]
    fn a_trimmed_clip_is_laid_at_its_source_times() {
        let m = sample();
        let trimmed = apply(&m, &Recipe::of([Op::Trim(Trim { range: "20:29".parse().unwrap() })]), &|_| true).unwrap();
        assert!((trimmed.source_offset_secs - 20.0 * m.clip.frame_time_secs).abs() < 1e-9);
        let d = moved(&m, &trimmed.motion, trimmed.source_offset_secs, &|_| true).unwrap();
        assert!(d.iter().all(|j| j.frames == 10 && j.max_m < 1e-6), "{:?}", d[0]);
        // Laid at the wrong time, the walk has moved.
        assert!(moved(&m, &trimmed.motion, 0.0, &|_| true).unwrap().iter().any(|j| j.max_m > 0.05));
        let tposed = apply(&m, &Recipe::of([Op::AddTpose(AddTpose {})]), &|_| true).unwrap();
        let d = moved(&m, &tposed.motion, tposed.source_offset_secs, &|_| true).unwrap();
        assert!(d.iter().all(|j| j.frames == m.clip.num_frames() && j.max_m < 1e-5), "the rest frame is before the source");
        assert!(moved(&m, &trimmed.motion, 0.0, &|_| false).is_none(), "cancelled");
    }
}
