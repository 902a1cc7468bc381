//! Checks on the channel values themselves: `frozen` (held or missing values), `flip` (Euler
//! wraps) and `limit` (declared limits).

use crate::par::*;

use super::ranges::{frames_text, keep_topmost, runs};
use super::thresholds::{FlipThresholds, FrozenThresholds, LimitThresholds};
use super::tracks::Tracks;
use super::{Finding, Kind};
use crate::core::{ChannelKind, Motion};

/// The joint whose channels include row index `channel`.
fn joint_of_channel(m: &Motion, channel: usize) -> Option<usize> {
    m.skeleton.joints().iter().position(|j| (j.first_channel..j.first_channel + j.channels.len()).contains(&channel))
}

fn same(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// `frozen`: whole rows that repeat the previous one while the clip moves elsewhere; a joint
/// whose channels repeat while it moves elsewhere and other joints move; and the values the
/// file left missing (held by the loader), per joint.
pub fn frozen(m: &Motion, th: &FrozenThresholds) -> Vec<Finding> {
    let clip = &m.clip;
    let n = clip.num_frames();
    let dt = clip.frame_time_secs as f32;
    let min_frames = ((th.min_secs / dt.max(1e-6)).ceil() as usize).max(3);
    // Missing first: they are held too, and are the more useful thing to say.
    let merged = missing_runs(m);
    let mut out = missing_findings(m, &merged, dt);
    if n < 2 {
        return out;
    }
    let held = Held::new(m);
    let row_held = &held.rows;
    if row_held[1..].iter().all(|&h| h) {
        return out; // a still clip holds everything, which is no artifact
    }
    for (a, b) in runs(n, 0, |f| row_held[f]) {
        if b + 1 - a >= min_frames {
            out.push(Finding {
                kind: Kind::Frozen,
                joint: None,
                start_frame: a,
                end_frame: b,
                value: (b + 1 - a) as f32 * dt,
                unit: "s",
                threshold: th.min_secs,
                message: format!("{} repeat frame {} exactly while the clip moves elsewhere", frames_text(a, b), a - 1),
            });
        }
    }
    let per_joint = held_joints(m, &held, &merged, min_frames, th);
    out.extend(keep_topmost(&m.skeleton, per_joint));
    out
}

/// The clip's missing-value runs as `(joint, first, last)` frames, sorted, with overlapping or
/// adjacent runs of one joint merged.
fn missing_runs(m: &Motion) -> Vec<(usize, usize, usize)> {
    let mut missing: Vec<(usize, usize, usize)> = Vec::new();
    for run in m.clip.missing() {
        if let Some(j) = joint_of_channel(m, run.channel as usize) {
            missing.push((j, run.first as usize, run.last as usize));
        }
    }
    missing.sort_unstable();
    let mut merged: Vec<(usize, usize, usize)> = Vec::new();
    for (j, a, b) in missing {
        match merged.last_mut() {
            Some(last) if last.0 == j && a <= last.2 + 1 => last.2 = last.2.max(b),
            _ => merged.push((j, a, b)),
        }
    }
    merged
}

/// One finding per merged missing run.
fn missing_findings(m: &Motion, merged: &[(usize, usize, usize)], dt: f32) -> Vec<Finding> {
    let mut out = Vec::new();
    for &(j, a, b) in merged {
        let secs = (b + 1 - a) as f32 * dt;
        out.push(Finding {
            kind: Kind::Frozen,
            joint: Some(j),
            start_frame: a,
            end_frame: b,
            value: secs,
            unit: "s",
            threshold: 0.0,
            message: format!(
                "{} is missing in the file (NaN or Inf) over {}; the last valid value is held",
                m.skeleton.joints()[j].name,
                frames_text(a, b)
            ),
        });
    }
    out
}

/// Per frame, which joints (and whether the whole row) repeat the previous frame bit for bit.
struct Held {
    /// Frame-major, one flag per joint.
    joints: Vec<bool>,
    rows: Vec<bool>,
    nj: usize,
}

impl Held {
    /// Fills the table in one pass over the rows.
    fn new(m: &Motion) -> Self {
        let clip = &m.clip;
        let n = clip.num_frames();
        let joints = m.skeleton.joints();
        let nj = joints.len();
        let mut held = vec![false; n * nj];
        let mut row_held = vec![false; n];
        for f in 1..n {
            let (row, prev) = (clip.frame(f), clip.frame(f - 1));
            let mut all = true;
            for (j, joint) in joints.iter().enumerate() {
                let range = joint.first_channel..joint.first_channel + joint.channels.len();
                let h = same(&row[range.clone()], &prev[range]);
                held[f * nj + j] = h;
                all &= h;
            }
            row_held[f] = all;
        }
        Held { joints: held, rows: row_held, nj }
    }
}

/// Stretches where a mostly moving joint holds its values while the rest of the row moves,
/// outside the runs the file left missing.
fn held_joints(m: &Motion, held: &Held, merged: &[(usize, usize, usize)], min_frames: usize, th: &FrozenThresholds) -> Vec<Finding> {
    let n = m.clip.num_frames();
    let dt = m.clip.frame_time_secs as f32;
    let (nj, row_held) = (held.nj, &held.rows);
    m.skeleton
        .joints()
        .par_iter()
        .enumerate()
        .filter(|(_, joint)| !joint.channels.is_empty())
        .flat_map_iter(|(j, joint)| {
            let held = |f: usize| held.joints[f * nj + j];
            // Only a joint that moves most of the time is expected to keep moving; keyed
            // animation holds joints on purpose.
            let moving = (1..n).filter(|&f| !held(f)).count();
            let stretches = if moving * 2 < n - 1 { Vec::new() } else { runs(n, 0, |f| f > 0 && held(f) && !row_held[f]) };
            stretches.into_iter().filter_map(move |(a, b)| {
                let inside_missing = merged.iter().any(|&(k, x, y)| k == j && x <= b && a <= y);
                (b + 1 - a >= min_frames && !inside_missing).then(|| Finding {
                    kind: Kind::Frozen,
                    joint: Some(j),
                    start_frame: a,
                    end_frame: b,
                    value: (b + 1 - a) as f32 * dt,
                    unit: "s",
                    threshold: th.min_secs,
                    message: format!(
                        "{} holds the values of frame {} over {} while the rest moves (held or lost tracking)",
                        joint.name,
                        a - 1,
                        frames_text(a, b)
                    ),
                })
            })
        })
        .collect()
}

/// `flip`: an Euler channel jumping by more than the threshold between two frames while the
/// joint's actual rotation changes less than `max_turn_deg` (the same rotation written
/// another way); in files that store quaternions, a quaternion changing sign (q to −q, the
/// same rotation, which a component-wise filter or blend takes through a full turn). Flips
/// of one joint less than a second apart make one finding (a spinning root wraps every
/// turn), with their count.
pub fn flips(m: &Motion, t: &Tracks, th: &FlipThresholds) -> Vec<Finding> {
    let clip = &m.clip;
    let gap = (1.0 / clip.frame_time_secs.max(1e-6)).round() as usize;
    let joints = m.skeleton.joints();
    // (index among rotating joints, joint, its Euler channels as (row index, kind), or its
    // quaternion channels).
    let watched: Vec<Watched> = t
        .rot_joints
        .iter()
        .enumerate()
        .map(|(k, &j)| {
            let joint = &joints[j];
            let watch = |c: &ChannelKind| c.is_rotation() || (m.source.format.file_quaternions && c.is_quaternion());
            let euler = joint.channels.iter().enumerate().filter(|(_, c)| watch(c));
            (k, j, euler.map(|(i, c)| (joint.first_channel + i, *c)).collect::<Vec<_>>())
        })
        .filter(|(_, _, e)| !e.is_empty())
        .collect();
    // (frame, worst jump, description) of each flip, per watched joint; one pass over the rows.
    let mut events: Vec<Vec<(usize, f32, String)>> = vec![Vec::new(); watched.len()];
    let jump_rad = th.jump_deg.to_radians();
    for f in 1..t.frames {
        let (row, prev) = (clip.frame(f), clip.frame(f - 1));
        for (w, (k, _, channels)) in watched.iter().enumerate() {
            let event = if channels[0].1.is_quaternion() {
                quaternion_flip(row, prev, channels)
            } else {
                // Cheap test first: a channel jump is rare.
                if !channels.iter().any(|&(c, _)| (row[c] - prev[c]).abs() > jump_rad) {
                    continue;
                }
                euler_flip(m, row, prev, channels, th)
            };
            let Some((worst, what)) = event.filter(|e| e.0 > th.jump_deg) else { continue };
            let turn = t.rot_step(f, *k).length();
            if turn < th.max_turn_deg {
                events[w].push((f, worst, format!("{what} at frame {f} while the joint turns {turn:.1}°")));
            }
        }
    }
    let mut out = Vec::new();
    for ((_, j, _), events) in watched.iter().zip(&events) {
        let joint = &joints[*j];
        let mut i = 0;
        while i < events.len() {
            let mut last = i;
            while last + 1 < events.len() && events[last + 1].0 - events[last].0 <= gap {
                last += 1;
            }
            let group = &events[i..=last];
            let value = group.iter().map(|e| e.1).fold(0.0, f32::max);
            let (start, end) = (group[0].0, group[group.len() - 1].0);
            let message = if group.len() == 1 {
                format!("{} flips: {}", joint.name, group[0].2)
            } else {
                format!("{} flips {} times over {}, first {}", joint.name, group.len(), frames_text(start, end), group[0].2)
            };
            out.push(Finding {
                kind: Kind::Flip,
                joint: Some(*j),
                start_frame: start,
                end_frame: end,
                value,
                unit: "deg",
                threshold: th.jump_deg,
                message,
            });
            i = last + 1;
        }
    }
    out
}

/// The Euler channels that jump by more than the threshold: the largest jump (degrees) and
/// their names with their jumps.
fn euler_flip(m: &Motion, row: &[f32], prev: &[f32], euler: &[(usize, ChannelKind)], th: &FlipThresholds) -> Option<(f32, String)> {
    let jumped: Vec<(ChannelKind, f32)> =
        euler.iter().map(|&(c, kind)| (kind, (row[c] - prev[c]).to_degrees())).filter(|(_, d)| d.abs() > th.jump_deg).collect();
    let worst = jumped.iter().map(|(_, d)| d.abs()).fold(0.0, f32::max);
    let names: Vec<String> = jumped
        .iter()
        .map(|(kind, d)| {
            let name = m.source.format.channel_name(*kind);
            format!("{name} {d:+.0}°")
        })
        .collect();
    (!names.is_empty()).then(|| (worst, names.join(", ")))
}

/// A quaternion that changes hemisphere: the turn a component-wise path between the two
/// stored quaternions takes (degrees, over 180° exactly when their dot product is negative).
fn quaternion_flip(row: &[f32], prev: &[f32], quat: &[(usize, ChannelKind)]) -> Option<(f32, String)> {
    let (mut dot, mut norms) = (0.0f32, (0.0f32, 0.0f32));
    for &(c, _) in quat {
        dot += row[c] * prev[c];
        norms.0 += row[c] * row[c];
        norms.1 += prev[c] * prev[c];
    }
    let cos = dot / (norms.0 * norms.1).sqrt();
    if cos.is_nan() || cos >= 0.0 {
        return None;
    }
    Some((2.0 * cos.max(-1.0).acos().to_degrees(), "quaternion changes sign".to_owned()))
}

/// `limit`: rotation channels outside the limits the file declares (ASF `limits`, H-Anim
/// `llimit`/`ulimit`), by more than the tolerance, with the largest excess.
pub fn limits(m: &Motion, th: &LimitThresholds) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for (j, joint) in m.skeleton.joints().iter().enumerate() {
        for (i, (&kind, &(lo, hi))) in joint.channels.iter().zip(&joint.limits).enumerate() {
            if !kind.is_rotation() || lo > hi {
                continue;
            }
            let c = joint.first_channel + i;
            let name = m.source.format.channel_name(kind);
            let excess = |f: usize| {
                let v = m.clip.frame(f)[c];
                let past = (lo - v).max(v - hi);
                (past, if v > hi { ("upper", hi) } else { ("lower", lo) })
            };
            out.extend(limit_runs(m, j, name, th, excess));
        }
        if let Some(limits) = &joint.rotation_limits {
            let values = |f: usize| &m.clip.frame(f)[joint.first_channel..joint.first_channel + joint.channels.len()];
            if joint.channel_quaternion(values(0)).is_none() {
                continue;
            }
            // Once per frame, then read per axis.
            let angles: Vec<glam::Vec3> =
                (0..m.clip.num_frames()).map(|f| limits.angles(joint.channel_quaternion(values(f)).unwrap_or_default())).collect();
            for (axis, label) in ["X", "Y", "Z"].into_iter().enumerate() {
                let (lo, hi) = (limits.lower[axis], limits.upper[axis]);
                if lo >= hi {
                    continue; // equal limits: free
                }
                let excess = |f: usize| {
                    let v = angles[f][axis];
                    ((lo - v).max(v - hi), if v > hi { ("upper", hi) } else { ("lower", lo) })
                };
                out.extend(limit_runs(m, j, label, th, excess));
            }
        }
    }
    out
}

/// Findings for the frames where `excess` (radians past a limit, with the limit's side and
/// value) passes the tolerance on the rotation about `axis` of joint `j`.
fn limit_runs(
    m: &Motion,
    j: usize,
    axis: &str,
    th: &LimitThresholds,
    excess: impl Fn(usize) -> (f32, (&'static str, f32)),
) -> Vec<Finding> {
    let past: Vec<f32> = (0..m.clip.num_frames()).map(|f| excess(f).0.to_degrees()).collect();
    let mut out = Vec::new();
    for (a, b) in runs(past.len(), 0, |f| past[f] > th.tolerance_deg) {
        let (value, at) = (a..=b).map(|f| (past[f], f)).fold((0f32, a), |w, e| if e.0 > w.0 { e } else { w });
        let (side, bound) = excess(at).1;
        out.push(Finding {
            kind: Kind::Limit,
            joint: Some(j),
            start_frame: a,
            end_frame: b,
            value,
            unit: "deg",
            threshold: th.tolerance_deg,
            message: format!(
                "{} {axis} is {value:.1}° past its {side} limit {:.1}° at frame {at} (over {})",
                m.skeleton.joints()[j].name,
                bound.to_degrees(),
                frames_text(a, b)
            ),
        });
    }
    out
}

/// A rotating joint as watched for flips: its index among rotating joints, the joint, and its
/// Euler channels as (row index, kind) (empty for quaternion channels).
type Watched = (usize, usize, Vec<(usize, ChannelKind)>);
