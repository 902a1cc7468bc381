//! Each operation on the motion being edited: what it changes, and a line saying so.

use glam::{DVec3, Vec3};

use super::butterworth::LANES;
use super::fill::{self, FillMethod, Gap, Tracks};
use super::rotations::RotationChannels;
use super::work::{rebuild, snapshot, translation};
use super::{EditError, Filter, FrameRange, Op, Work};
use crate::core::capture::{Capture, Event};
use crate::core::{ChannelKind, Skeleton};
use crate::par::*;

/// Applies `op` (step `step` of its recipe) to `w`.
pub(super) fn apply_op(w: &mut Work, op: &Op, step: usize) -> Result<String, EditError> {
    let name = op.name();
    let bad = |message: String| EditError::Parameter { step, op: name, message };
    match op {
        Op::FillGaps { method, max_gap, donors, joints, range } => {
            let joints = selected(w, joints, step, name)?;
            let donors = if donors.is_empty() { Vec::new() } else { selected(w, donors, step, name)? };
            let (first, last) = frames_of(w, range.as_ref(), step, name)?;
            let max_gap = max_gap.unwrap_or_else(|| (0.5 * w.fps()).round().max(1.0) as usize);
            if max_gap == 0 {
                return Err(bad("max_gap 0: expected 1 frame or more".into()));
            }
            Ok(fill_gaps(w, *method, max_gap, &donors, &joints, (first, last)))
        }
        Op::Filter { cutoff_hz, order, joints, range } => {
            let joints = selected(w, joints, step, name)?;
            let (first, last) = frames_of(w, range.as_ref(), step, name)?;
            let filter = Filter::low_pass(*order, *cutoff_hz, w.fps()).map_err(|source| EditError::Filter { step, source })?;
            Ok(filter_joints(w, &filter, &joints, (first, last)))
        }
        Op::Despike { joints, range } => {
            let joints = selected(w, joints, step, name)?;
            let (first, last) = frames_of(w, range.as_ref(), step, name)?;
            Ok(despike(w, &joints, (first, last)))
        }
        Op::Unroll { joints } => {
            let joints = selected(w, joints, step, name)?;
            Ok(unroll(w, &joints))
        }
        Op::Trim { range } => {
            let (first, last) = frames_of(w, Some(range), step, name)?;
            Ok(super::timing::trim(w, first, last))
        }
        Op::Resample { fps } => {
            if !(fps.is_finite() && *fps > 0.0 && *fps <= 100_000.0) {
                return Err(bad(format!("fps {fps}: expected a rate above 0 (and at most 100000)")));
            }
            if w.frame_time_secs <= 0.0 {
                return Err(bad("the clip has no frame rate to resample from".into()));
            }
            Ok(super::timing::resample(w, *fps))
        }
        Op::Loop { frames } => {
            if w.capture.is_some() {
                return Err(bad("loops are made of skeleton clips; a capture's markers have no root to keep travelling".into()));
            }
            if *frames == 0 || *frames + 2 > w.frames {
                return Err(bad(format!("frames {frames}: expected 1 to {} (the clip's frames less two)", w.frames.saturating_sub(2))));
            }
            Ok(super::timing::make_loop(w, *frames))
        }
        Op::Ground => Ok(ground(w)),
        Op::RestFromFrame { frame } => {
            if w.frames == 0 {
                return Err(bad("the clip has no frames".into()));
            }
            if *frame >= w.frames {
                return Err(bad(format!("frame {frame}: expected 0 to {}", w.frames.saturating_sub(1))));
            }
            super::pose_ops::rest_from_frame(w, *frame).map_err(bad)
        }
        Op::Face { toward } => {
            let Some(dir) = super::pose_ops::axis(toward) else {
                return Err(bad(format!("toward '{toward}': expected +x, -x, +y, -y, +z or -z (the file's axes)")));
            };
            super::pose_ops::face(w, dir).map_err(bad)
        }
        Op::AddTpose => {
            if w.capture.is_some() {
                return Err(bad("a capture's markers have no rest pose to add".into()));
            }
            Ok(add_tpose(w))
        }
        Op::Scale { factor } => {
            if !(factor.is_finite() && *factor > 0.0) {
                return Err(bad(format!("factor {factor}: expected a number above 0")));
            }
            Ok(scale(w, *factor as f32))
        }
        Op::Rename { from, to } => {
            let j = w.motion.skeleton.joint_named(from).map_err(|source| EditError::NoJoint { step, op: name, source })?;
            if to.trim().is_empty() || (w.motion.skeleton.find(to).is_some_and(|k| k != j)) {
                return Err(bad(format!("to '{to}': expected a name no other joint has")));
            }
            rename(w, j, to);
            Ok(format!("'{from}' is now '{to}'"))
        }
        Op::RemoveJoint { name: joint } => {
            let j = w.motion.skeleton.joint_named(joint).map_err(|source| EditError::NoJoint { step, op: name, source })?;
            if w.motion.skeleton.len() == 1 {
                return Err(bad(format!("'{joint}' is the only joint")));
            }
            Ok(remove_joint(w, j))
        }
        Op::AddEvent { label, context, time_secs } => {
            let Some(c) = w.capture.as_mut() else { return Err(bad("events belong to captures (C3D, TRC)".into())) };
            if !time_secs.is_finite() {
                return Err(bad(format!("time {time_secs}: expected seconds")));
            }
            if !["Left", "Right", "General"].contains(&context.as_str()) {
                return Err(bad(format!("context '{context}': expected Left, Right or General")));
            }
            c.events.push(Event { label: label.clone(), context: context.clone(), time_secs: *time_secs, description: String::new() });
            c.events.sort_by(|a, b| a.time_secs.total_cmp(&b.time_secs));
            Ok(format!("{context} {label} at {time_secs} s"))
        }
        Op::RemoveEvent { label, time_secs } => {
            let half_frame = 0.5 * w.frame_time_secs.max(1e-6);
            let Some(c) = w.capture.as_mut() else { return Err(bad("events belong to captures (C3D, TRC)".into())) };
            let hit = c.events.iter().position(|e| e.label == *label && (e.time_secs - time_secs).abs() <= half_frame);
            let Some(k) = hit else {
                let listed: Vec<String> = c.events.iter().map(|e| format!("{} at {:.3} s", e.label, e.time_secs)).collect();
                return Err(bad(format!(
                    "no event '{label}' at {time_secs} s (events: {})",
                    if listed.is_empty() { "none".into() } else { listed.join(", ") }
                )));
            };
            c.events.remove(k);
            Ok(format!("{label} at {time_secs} s removed"))
        }
    }
}

/// Joints named in `names` (all when empty).
fn selected(w: &Work, names: &[String], step: usize, op: &'static str) -> Result<Vec<usize>, EditError> {
    if names.is_empty() {
        return Ok((0..w.motion.skeleton.len()).collect());
    }
    names.iter().map(|n| w.motion.skeleton.joint_named(n).map_err(|source| EditError::NoJoint { step, op, source })).collect()
}

/// Frames `range` names (all when `None`).
fn frames_of(w: &Work, range: Option<&FrameRange>, step: usize, op: &'static str) -> Result<(usize, usize), EditError> {
    let r = range.copied().unwrap_or_default();
    r.resolve(w.frames, w.fps()).map_err(|source| EditError::Range { step, op, source })
}

/// A channel's values as f64, NaN where missing.
fn column(w: &Work, c: usize) -> Vec<f64> {
    let cpf = w.cpf();
    (0..w.frames).map(|f| f64::from(w.values[f * cpf + c])).collect()
}

/// The markers' tracks (a capture's joints) read in place from the values being edited.
struct Markers<'a> {
    values: &'a [f32],
    cpf: usize,
    frames: usize,
    xyz: Vec<Option<[usize; 3]>>,
}

impl<'a> Markers<'a> {
    fn of(w: &'a Work) -> Self {
        let xyz = (0..w.motion.skeleton.len()).map(|j| translation(&w.motion.skeleton, j)).collect();
        Self { values: &w.values, cpf: w.cpf(), frames: w.frames, xyz }
    }
}

impl Tracks for Markers<'_> {
    fn markers(&self) -> usize {
        self.xyz.len()
    }
    fn frames(&self) -> usize {
        self.frames
    }
    fn at(&self, m: usize, f: usize) -> Option<DVec3> {
        let t = self.xyz.get(m)?.as_ref()?;
        let row = f * self.cpf;
        let v = DVec3::new(self.values[row + t[0]].into(), self.values[row + t[1]].into(), self.values[row + t[2]].into());
        v.is_finite().then_some(v)
    }
}

/// Every channel's runs of missing values, found in one pass over the rows (reading one
/// channel down the clip would touch a new cache line for every frame).
fn missing_runs(w: &Work) -> Vec<Vec<Gap>> {
    let cpf = w.cpf();
    let mut runs: Vec<Vec<Gap>> = vec![Vec::new(); cpf];
    let mut open: Vec<Option<usize>> = vec![None; cpf];
    for f in 0..w.frames {
        for (c, v) in w.values[f * cpf..(f + 1) * cpf].iter().enumerate() {
            match (v.is_finite(), open[c]) {
                (false, None) => open[c] = Some(f),
                (true, Some(first)) => {
                    runs[c].push(Gap { first, last: f - 1 });
                    open[c] = None;
                }
                _ => {}
            }
        }
    }
    for (c, first) in open.into_iter().enumerate() {
        if let Some(first) = first {
            runs[c].push(Gap { first, last: w.frames - 1 });
        }
    }
    runs
}

/// What one joint's fill wrote: (frame, channel, value).
type Writes = Vec<(usize, usize, f32)>;

#[derive(Default)]
struct FillCount {
    gaps: usize,
    samples: usize,
    too_long: usize,
    at_ends: usize,
    by: std::collections::BTreeMap<&'static str, usize>,
}

fn fill_gaps(w: &mut Work, method: FillMethod, max_gap: usize, donors: &[usize], joints: &[usize], (lo, hi): (usize, usize)) -> String {
    let capture = w.capture.is_some();
    let named_donors = donors;
    let frames = w.frames;
    let w_ref = &*w;
    let markers = Markers::of(w_ref);
    let missing = missing_runs(w_ref);
    let results: Vec<(Writes, FillCount)> = joints
        .to_vec()
        .into_par_iter()
        .map(|j| {
            let mut writes = Vec::new();
            let mut count = FillCount::default();
            let skeleton = &w_ref.motion.skeleton;
            let joint = &skeleton.joints()[j];
            let channels: Vec<usize> = (joint.first_channel..joint.first_channel + joint.channels.len()).collect();
            let rotation = RotationChannels::of(joint);
            let rot_idx = rotation.as_ref().map(|r| r.indices()).unwrap_or_default();
            let marker = capture.then(|| translation(skeleton, j)).flatten();
            // Groups filled together: a marker's xyz, a joint's rotation, each other channel.
            let mut groups: Vec<Vec<usize>> = Vec::new();
            if let Some(t) = marker {
                groups.push(t.to_vec());
            }
            if !rot_idx.is_empty() {
                groups.push(rot_idx.clone());
            }
            for &c in &channels {
                if !groups.iter().any(|g| g.contains(&c)) {
                    groups.push(vec![c]);
                }
            }
            let cpf = w_ref.cpf();
            for group in groups {
                let lead = group[0];
                for &g in &missing[lead] {
                    if g.first < lo || g.last > hi {
                        continue;
                    }
                    if !fill::inner(g, frames) {
                        count.at_ends += 1;
                        continue;
                    }
                    if g.len() > max_gap {
                        count.too_long += 1;
                        continue;
                    }
                    let used = if marker.is_some_and(|t| t.to_vec() == group) {
                        fill_marker(&markers, j, g, method, named_donors, &group, &mut writes)
                    } else if group == rot_idx {
                        fill_rotation(w_ref, rotation.as_ref(), g, &mut writes)
                    } else {
                        let get = |f: usize| f64::from(w_ref.values[f * cpf + lead]);
                        let (filled, spline) = fill::fill_local(get, frames, g, !matches!(method, FillMethod::Linear));
                        writes.extend(filled.iter().enumerate().map(|(k, v)| (g.first + k, lead, *v as f32)));
                        if spline { "spline" } else { "linear" }
                    };
                    count.gaps += 1;
                    count.samples += g.len();
                    *count.by.entry(used).or_default() += 1;
                }
            }
            (writes, count)
        })
        .collect();
    let cpf = w.cpf();
    let mut total = FillCount::default();
    for (writes, count) in results {
        for (f, c, v) in writes {
            w.values[f * cpf + c] = v;
            w.filled[f * cpf + c] = true;
        }
        total.gaps += count.gaps;
        total.samples += count.samples;
        total.too_long += count.too_long;
        total.at_ends += count.at_ends;
        for (k, n) in count.by {
            *total.by.entry(k).or_default() += n;
        }
    }
    let by: Vec<String> = total.by.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let mut note = format!("filled {} gaps ({} frames)", total.gaps, total.samples);
    if !by.is_empty() {
        note += &format!(" by {}", by.join(", "));
    }
    if total.too_long > 0 {
        note += &format!("; {} longer than {max_gap} frames left as gaps", total.too_long);
    }
    if total.at_ends > 0 {
        note += &format!("; {} at the clip's ends left (nothing on one side)", total.at_ends);
    }
    note
}

/// Fills a marker's gap by `method` (per gap, the best the data allow for `auto`); returns
/// the method used.
fn fill_marker(
    tracks: &dyn Tracks,
    j: usize,
    g: Gap,
    method: FillMethod,
    named: &[usize],
    xyz: &[usize],
    out: &mut Writes,
) -> &'static str {
    // Over short gaps a spline is closest (benches/RESULTS.md: 1.3 mm against rigid's 1.4 at
    // 10 frames on CMU's head markers); `auto` keeps donors for longer ones.
    let method = if method == FillMethod::Auto && g.len() <= fill::SHORT_GAP { FillMethod::Spline } else { method };
    let donors = match method {
        FillMethod::Rigid | FillMethod::Pattern | FillMethod::Auto => fill::donors(tracks, j, g, named, 3),
        _ => Vec::new(),
    };
    let (points, used): (Vec<DVec3>, &'static str) = match method {
        FillMethod::Rigid | FillMethod::Auto if donors.len() >= 3 => (fill::rigid(tracks, j, g, &donors), "rigid"),
        FillMethod::Rigid | FillMethod::Pattern | FillMethod::Auto if !donors.is_empty() => {
            (fill::pattern(tracks, j, g, donors[0]), "pattern")
        }
        _ => {
            let spline = !matches!(method, FillMethod::Linear);
            let axes: Vec<(Vec<f64>, bool)> =
                (0..3).map(|k| fill::fill_local(|f| tracks.at(j, f).map_or(f64::NAN, |p| p[k]), tracks.frames(), g, spline)).collect();
            let points = (0..g.len()).map(|i| DVec3::new(axes[0].0[i], axes[1].0[i], axes[2].0[i])).collect();
            (points, if axes[0].1 { "spline" } else { "linear" })
        }
    };
    for (k, p) in points.iter().enumerate() {
        for (axis, &c) in xyz.iter().enumerate() {
            out.push((g.first + k, c, p[axis] as f32));
        }
    }
    used
}

/// Fills a rotation's gap by slerp between the rotations either side.
fn fill_rotation(w: &Work, rot: Option<&RotationChannels>, g: Gap, out: &mut Writes) -> &'static str {
    let Some(rot) = rot else { return "slerp" };
    let cpf = w.cpf();
    let row = |f: usize| &w.values[f * cpf..(f + 1) * cpf];
    let (a, b) = (rot.read(row(g.first - 1)), rot.read(row(g.last + 1)));
    let mut prev = row(g.first - 1).to_vec();
    let span = (g.len() + 1) as f32;
    for f in g.first..=g.last {
        let q = a.slerp(b, (f + 1 - g.first) as f32 / span);
        let mut next = prev.clone();
        rot.write(&mut next, q, Some(&prev));
        for c in rot.indices() {
            out.push((f, c, next[c]));
        }
        prev = next;
    }
    "slerp"
}

/// Low-passes the joints' channels over frames `lo..=hi`, each run of valid samples alone.
fn filter_joints(w: &mut Work, filter: &Filter, joints: &[usize], (lo, hi): (usize, usize)) -> String {
    // Rotations are made continuous first (Euler unrolled, quaternions in one hemisphere), so
    // that a wrap is not smoothed into a spin.
    unroll(w, joints);
    let skeleton = &w.motion.skeleton;
    let mut channels = Vec::new();
    let mut quats = Vec::new();
    for &j in joints {
        let joint = &skeleton.joints()[j];
        channels.extend(joint.first_channel..joint.first_channel + joint.channels.len());
        if let Some(RotationChannels::Quaternion(at)) = RotationChannels::of(joint) {
            quats.push(at);
        }
    }
    let cpf = w.cpf();
    let (mut runs, mut short, n) = (0, 0, channels.len());
    // Channels in batches: each batch's columns are read frame by frame (a short contiguous
    // run of each row, not one value per row and cache line), filtered, and written back the
    // same way; batches run in parallel, and few wait at once, so memory stays small.
    const BATCH: usize = 32;
    for group in channels.chunks(BATCH * 16) {
        let w_ref = &*w;
        let results: Vec<(Vec<usize>, Vec<Vec<f64>>, usize, usize)> = group
            .chunks(BATCH)
            .map(<[usize]>::to_vec)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|batch| {
                let mut cols: Vec<Vec<f64>> = vec![Vec::with_capacity(hi + 1 - lo); batch.len()];
                for f in lo..=hi {
                    let row = &w_ref.values[f * cpf..(f + 1) * cpf];
                    for (col, &c) in cols.iter_mut().zip(&batch) {
                        col.push(f64::from(row[c]));
                    }
                }
                let (mut runs, mut short) = (0, 0);
                // Columns without a gap (most, once gaps are filled) go LANES at a time.
                let (mut whole, mut gappy): (Vec<&mut Vec<f64>>, Vec<&mut Vec<f64>>) =
                    cols.iter_mut().partition(|c| c.iter().all(|v| v.is_finite()));
                let mut lanes = whole.chunks_exact_mut(LANES);
                for group in &mut lanes {
                    let [a, b, c, d] = group else { continue };
                    runs += LANES;
                    if !filter.filtfilt_lanes(&mut [a.as_mut_slice(), b.as_mut_slice(), c.as_mut_slice(), d.as_mut_slice()]) {
                        short += LANES;
                    }
                }
                gappy.extend(lanes.into_remainder().iter_mut().map(|c| &mut **c));
                for col in gappy {
                    let mut f = 0;
                    while f < col.len() {
                        if !col[f].is_finite() {
                            f += 1;
                            continue;
                        }
                        let start = f;
                        while f < col.len() && col[f].is_finite() {
                            f += 1;
                        }
                        runs += 1;
                        if !filter.filtfilt(&mut col[start..f]) {
                            short += 1;
                        }
                    }
                }
                (batch, cols, runs, short)
            })
            .collect();
        for (batch, cols, r, s) in results {
            runs += r;
            short += s;
            for (k, f) in (lo..=hi).enumerate() {
                let row = &mut w.values[f * cpf..(f + 1) * cpf];
                for (col, &c) in cols.iter().zip(&batch) {
                    row[c] = col[k] as f32;
                }
            }
        }
    }
    // Filtered quaternion components are no longer unit length.
    for at in &quats {
        for f in lo..=hi {
            let row = &mut w.values[f * cpf..(f + 1) * cpf];
            let q = glam::Vec4::new(row[at[0]], row[at[1]], row[at[2]], row[at[3]]).normalize_or_zero();
            for (k, &i) in at.iter().enumerate() {
                row[i] = q[k];
            }
        }
    }
    let mut note = format!(
        "order-{} Butterworth at {} Hz, forward and backward, on {n} channels ({runs} runs of valid samples; Euler channels unrolled, quaternions hemisphere-aligned and renormalised)",
        filter.a.len() - 1,
        filter.cutoff_hz
    );
    if short > 0 {
        note += &format!("; {short} runs of {} frames or fewer left as they were (too short for the filter's padding)", filter.padding());
    }
    note
}

/// Makes the joints' rotations continuous over the clip without moving the pose.
fn unroll(w: &mut Work, joints: &[usize]) -> String {
    let cpf = w.cpf();
    let mut changed = 0;
    for &j in joints {
        let Some(rot) = RotationChannels::of(&w.motion.skeleton.joints()[j]) else { continue };
        let idx = rot.indices();
        let mut prev: Option<Vec<f32>> = None;
        for f in 0..w.frames {
            let row = &mut w.values[f * cpf..(f + 1) * cpf];
            if idx.iter().any(|&i| !row[i].is_finite()) {
                continue;
            }
            if let Some(p) = &prev {
                let before: Vec<f32> = idx.iter().map(|&i| row[i]).collect();
                match &rot {
                    RotationChannels::Euler { at, .. } => {
                        let t = super::rotations::nearest_triple(at.map(|i| row[i]), at.map(|i| p[i]));
                        for (i, v) in at.iter().zip(t) {
                            row[*i] = v;
                        }
                    }
                    RotationChannels::Quaternion(at) => {
                        if at.iter().map(|&i| row[i] * p[i]).sum::<f32>() < 0.0 {
                            at.iter().for_each(|&i| row[i] = -row[i]);
                        }
                    }
                }
                if idx.iter().zip(&before).any(|(&i, b)| row[i] != *b) {
                    changed += 1;
                }
            }
            prev = Some(row.to_vec());
        }
    }
    format!("{changed} frames' rotations made continuous")
}

/// Replaces the samples the capture checks call pops (jumps for markers) from the samples
/// either side.
fn despike(w: &mut Work, joints: &[usize], (lo, hi): (usize, usize)) -> String {
    let m = snapshot(w);
    let kinds = if w.capture.is_some() { [crate::qa::Kind::Jump] } else { [crate::qa::Kind::Pop] };
    let report = crate::qa::analyse(&m, &crate::qa::Thresholds::default(), &kinds, &|_| {});
    let cpf = w.cpf();
    let mut fixed = 0;
    for finding in &report.findings {
        let Some(j) = finding.joint.filter(|j| joints.contains(j)) else { continue };
        let g = Gap { first: finding.start_frame, last: finding.end_frame };
        if g.first < lo.max(1) || g.last > hi || g.last + 1 >= w.frames {
            continue;
        }
        let joint = &w.motion.skeleton.joints()[j];
        let rot = RotationChannels::of(joint);
        let rot_idx = rot.as_ref().map(|r| r.indices()).unwrap_or_default();
        let mut writes = Vec::new();
        if rot.is_some() {
            fill_rotation(w, rot.as_ref(), g, &mut writes);
        }
        for c in (joint.first_channel..joint.first_channel + joint.channels.len()).filter(|c| !rot_idx.contains(c)) {
            let mut col = column(w, c);
            if col[g.first - 1].is_finite() && col[g.last + 1].is_finite() {
                fill::linear(&mut col, g);
                writes.extend((g.first..=g.last).map(|f| (f, c, col[f] as f32)));
            }
        }
        for (f, c, v) in writes {
            w.values[f * cpf + c] = v;
        }
        fixed += 1;
    }
    format!("{fixed} spikes replaced from their neighbours")
}

/// Moves the clip so that its lowest point over every frame is at height 0.
fn ground(w: &mut Work) -> String {
    let m = snapshot(w);
    let display = m.display_from_file();
    let frames: Vec<usize> = (0..w.frames.max(1)).collect();
    let positions =
        crate::core::batch::joint_positions(&m, &frames, crate::core::batch::PositionSpace::World, display, &crate::par::Sequential);
    let lowest = positions.chunks_exact(3).map(|p| p[1]).filter(|y| y.is_finite()).fold(f32::INFINITY, f32::min);
    if !lowest.is_finite() {
        return "nothing to ground (no position)".into();
    }
    let shift = display.inverse().transform_vector3(Vec3::new(0.0, -lowest, 0.0));
    let cpf = w.cpf();
    let roots: Vec<usize> = w.motion.skeleton.roots().collect();
    let mut joints = w.motion.skeleton.joints().to_vec();
    for j in roots {
        let t = translation(&w.motion.skeleton, j);
        for axis in 0..3 {
            match t {
                Some(t) => (0..w.frames).for_each(|f| w.values[f * cpf + t[axis]] += shift[axis]),
                None => joints[j].offset[axis] += shift[axis],
            }
        }
    }
    rebuild(w, joints);
    let way = if lowest > 0.0 { "down" } else { "up" };
    format!("moved {:.4} m {way} (the lowest point was at {lowest:.4} m)", lowest.abs())
}

/// Puts the rest pose in front of the clip as frame 0: rotations zero (identity quaternions,
/// scale 1, no stretch), or the skeleton's own rest values where the format has them;
/// translations as in the first frame, so that the pose stands where the clip starts.
fn add_tpose(w: &mut Work) -> String {
    let cpf = w.cpf();
    let skeleton = &w.motion.skeleton;
    let mut row = vec![0.0f32; cpf];
    for j in skeleton.joints() {
        for (i, c) in j.channels.iter().enumerate() {
            let at = j.first_channel + i;
            row[at] = match c {
                ChannelKind::QuatW | ChannelKind::ScaleX | ChannelKind::ScaleY | ChannelKind::ScaleZ => 1.0,
                c if c.is_translation() => w.values.get(at).copied().filter(|v| v.is_finite()).unwrap_or(0.0),
                _ => 0.0,
            };
        }
    }
    if let Some(rest) = skeleton.rest_values() {
        let channels = skeleton.joints().iter().flat_map(|j| j.channels.iter().map(move |c| (j.parent.is_none(), *c)));
        for ((root, kind), (slot, v)) in channels.zip(row.iter_mut().zip(rest)) {
            // The root keeps the first frame's place.
            if !(root && kind.is_translation()) {
                *slot = *v;
            }
        }
    }
    let mut values = row;
    values.extend_from_slice(&w.values);
    w.values = values;
    let mut filled = vec![false; cpf];
    filled.extend_from_slice(&w.filled);
    w.filled = filled;
    w.frames += 1;
    w.source_offset_secs -= w.frame_time_secs;
    w.motion.source.declared_frames = None;
    format!("the rest pose added as frame 0 ({} frames now)", w.frames)
}

/// Scales every length by `k`.
fn scale(w: &mut Work, k: f32) -> String {
    let cpf = w.cpf();
    let mut joints = w.motion.skeleton.joints().to_vec();
    for j in &mut joints {
        j.offset *= k;
        j.tail *= k;
        for (i, c) in j.channels.iter().enumerate() {
            if c.is_translation() || *c == ChannelKind::Length {
                (0..w.frames).for_each(|f| w.values[f * cpf + j.first_channel + i] *= k);
            }
        }
    }
    rebuild(w, joints);
    if let Some(c) = &mut w.capture {
        // Every point of the capture that is a position (markers are rewritten at the end).
        c.positions.iter_mut().for_each(|v| *v *= k);
        c.residuals.iter_mut().filter(|r| **r > 0.0).for_each(|r| *r *= k);
        for p in &mut c.plates {
            p.corners.iter_mut().for_each(|v| *v *= k);
            p.origin *= k;
        }
    }
    format!("lengths scaled by {k}")
}

fn rename(w: &mut Work, j: usize, to: &str) {
    let mut joints = w.motion.skeleton.joints().to_vec();
    joints[j].name = to.to_owned();
    rebuild(w, joints);
    if let Some(c) = &mut w.capture
        && let Some(p) = c.marker_point(j)
    {
        c.points[p].label = to.to_owned();
    }
}

/// Removes joint `j` and everything below it.
fn remove_joint(w: &mut Work, j: usize) -> String {
    let old = &w.motion.skeleton;
    let mut gone = vec![false; old.len()];
    for (i, joint) in old.joints().iter().enumerate() {
        gone[i] = i == j || joint.parent.is_some_and(|p| gone[p]);
    }
    let mut new_index = vec![None; old.len()];
    let mut joints = Vec::new();
    let mut keep_channels = Vec::new();
    for (i, joint) in old.joints().iter().enumerate().filter(|(i, _)| !gone[*i]) {
        new_index[i] = Some(joints.len());
        let mut jt = joint.clone();
        jt.parent = joint.parent.and_then(|p| new_index[p]);
        keep_channels.extend(joint.first_channel..joint.first_channel + joint.channels.len());
        joints.push(jt);
    }
    let removed = gone.iter().filter(|g| **g).count();
    let cpf = old.channels_per_frame();
    let pick = |v: &[f32]| -> Vec<f32> { v.chunks_exact(cpf.max(1)).flat_map(|row| keep_channels.iter().map(|&c| row[c])).collect() };
    let pick_mask =
        |v: &[bool]| -> Vec<bool> { v.chunks_exact(cpf.max(1)).flat_map(|row| keep_channels.iter().map(|&c| row[c])).collect() };
    let rest = old.rest_values().map(pick);
    let (rule, name) = (old.position_rule, old.joints()[j].name.clone());
    w.values = if cpf == 0 { Vec::new() } else { pick(&w.values) };
    w.filled = if cpf == 0 { Vec::new() } else { pick_mask(&w.filled) };
    if let Some(c) = &mut w.capture {
        let points: Vec<usize> = (0..gone.len()).filter(|&k| gone[k]).filter_map(|k| c.marker_point(k)).collect();
        remove_points(c, &points);
    }
    if let Ok(s) = Skeleton::new(joints, rule) {
        w.motion.skeleton = match rest {
            Some(r) => s.clone().with_rest_values(r).unwrap_or(s),
            None => s,
        };
    }
    format!("removed '{name}' ({removed} joints with those below it)")
}

/// Removes `points` (indices) from a capture.
fn remove_points(c: &mut Capture, points: &[usize]) {
    let n = c.points.len();
    let keep: Vec<usize> = (0..n).filter(|p| !points.contains(p)).collect();
    let mut positions = Vec::with_capacity(c.frames * keep.len() * 3);
    let mut residuals = Vec::with_capacity(c.frames * keep.len());
    for f in 0..c.frames {
        for &p in &keep {
            positions.extend_from_slice(&c.positions[(f * n + p) * 3..][..3]);
            residuals.push(c.residuals[f * n + p]);
        }
    }
    c.points = keep.iter().map(|&p| c.points[p].clone()).collect();
    c.positions = positions;
    c.residuals = residuals;
}
