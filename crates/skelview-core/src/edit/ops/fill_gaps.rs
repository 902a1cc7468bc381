//! `fill_gaps`: missing samples filled, per joint or marker, by a line, a spline, donor
//! markers or slerp.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::{Operation, StepAt, Writes};
use crate::edit::FrameRange;
use crate::edit::Work;
use crate::edit::fill::{self, FillMethod, Gap, Tracks};
use crate::edit::rotations::RotationChannels;
use crate::edit::spec::{Absent, FreePart, Kind, OpSpec, Param, Taken};
use crate::edit::work::translation;
use crate::par::*;

/// Fills gaps (missing samples) no longer than `max_gap` frames.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillGaps {
    /// How.
    pub method: FillMethod,
    /// The longest gap to fill, in frames; half a second of frames when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_gap: Option<usize>,
    /// Donor markers for `rigid` and `pattern` (chosen by how steadily they keep their
    /// distance when none are named).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub donors: Vec<String>,
    /// Joints or markers to fill.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<String>,
    /// Frames to fill in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<FrameRange>,
}

pub(super) static SPEC: OpSpec = OpSpec {
    name: "fill_gaps",
    label: "Fill gaps",
    help: "Fills missing samples (gaps of markers, missing channel values of skeleton clips) no longer than max_gap frames: linear, spline (a cubic through 10 samples each side), rigid (from three or more markers that move rigidly with it), pattern (along a donor marker's path) or auto (per gap, the best the data allow).",
    notes: "Gaps touching either end of the clip are left (nothing on one side); longer gaps stay gaps; both are counted in the step's note. Filled samples are marked: `Clip::filled` in the engine, residual 0 in a capture. Rotations are filled by slerp between the rotations either side.",
    params: &[
        Param {
            key: "method",
            kind: Kind::Choice { choices: &["linear", "spline", "rigid", "pattern", "auto"], default: Absent::Required("auto") },
            help: "how to fill",
            from: Taken::Form,
        },
        Param {
            key: "max_gap",
            kind: Kind::Number { min: 1.0, max: 1e9, integer: true, unit: "frames", default: Absent::Auto("half a second of frames") },
            help: "the longest gap filled, in frames (longer gaps stay gaps)",
            from: Taken::Form,
        },
        Param {
            key: "donors",
            kind: Kind::Names,
            help: "donor markers for rigid and pattern (the steadiest when none are named)",
            from: Taken::Nowhere,
        },
        Param { key: "joints", kind: Kind::Names, help: "the joints or markers filled", from: Taken::Selection { optional: true } },
        Param { key: "range", kind: Kind::Range { required: false }, help: "the frames filled in", from: Taken::InOut { optional: true } },
    ],
    value: &["method"],
    separator: ':',
    free_part: FreePart::First,
    prefix: None,
    in_form: true,
};

impl Operation for FillGaps {
    fn apply(&self, w: &mut Work, at: &StepAt) -> Result<String, crate::edit::EditError> {
        let joints = at.joints(w, &self.joints)?;
        let donors = if self.donors.is_empty() { Vec::new() } else { at.joints(w, &self.donors)? };
        let range = at.frames(w, self.range.as_ref())?;
        let max_gap = self.max_gap.unwrap_or_else(|| (0.5 * w.fps()).round().max(1.0) as usize);
        if max_gap == 0 {
            return Err(at.bad("max_gap 0: expected 1 frame or more"));
        }
        Ok(fill_gaps(w, self.method, max_gap, &donors, &joints, range))
    }
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

/// Every channel's runs of missing values, by first frame (found row by row: reading one
/// channel down the clip would touch a new cache line for every frame).
fn missing_runs(w: &Work) -> Vec<Vec<Gap>> {
    let cpf = w.cpf();
    let mut runs: Vec<Vec<Gap>> = vec![Vec::new(); cpf];
    let values = &w.values[..(w.frames * cpf).min(w.values.len())];
    for r in crate::core::clip::runs_where_by(values, cpf, |v| !v.is_finite()) {
        runs[r.channel as usize].push(Gap { first: r.first as usize, last: r.last as usize });
    }
    runs
}

#[derive(Default)]
struct FillCount {
    gaps: usize,
    samples: usize,
    too_long: usize,
    at_ends: usize,
    by: std::collections::BTreeMap<&'static str, usize>,
}

/// What a fill asks of every joint: how, how long a gap at most, which donors, which frames.
struct Ask<'a> {
    method: FillMethod,
    max_gap: usize,
    donors: &'a [usize],
}

fn fill_gaps(w: &mut Work, method: FillMethod, max_gap: usize, donors: &[usize], joints: &[usize], range: (usize, usize)) -> String {
    let ask = Ask { method, max_gap, donors };
    let w_ref = &*w;
    let markers = Markers::of(w_ref);
    let missing = missing_runs(w_ref);
    let plans: Vec<Plan> = joints.iter().map(|&j| Plan::of(w_ref, j)).collect();
    // Every gap, in order of its first frame: the frames a fill reads around one gap are then
    // those its neighbours in the list read (a marker's gaps one after another would read
    // rows all down the clip, a cache miss each). Pieces of the list run in parallel.
    let (lo, hi) = range;
    let mut gaps: Vec<(Gap, usize, usize)> = Vec::new();
    for (p, plan) in plans.iter().enumerate() {
        for (k, group) in plan.groups.iter().enumerate() {
            gaps.extend(missing[group[0]].iter().filter(|g| g.first >= lo && g.last <= hi).map(|&g| (g, p, k)));
        }
    }
    gaps.sort_by_key(|&(g, p, k)| (g.first, p, k));
    let piece = gaps.len().div_ceil(64).max(256);
    let results: Vec<(Writes, FillCount)> = gaps
        .chunks(piece)
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|piece| {
            let (mut writes, mut count) = (Vec::new(), FillCount::default());
            for &(g, p, k) in piece {
                fill_one(w_ref, &markers, &plans[p], &plans[p].groups[k], g, &ask, &mut writes, &mut count);
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
        total.add(count);
    }
    total.note(max_gap)
}

/// How joint `j`'s channels are filled: the groups filled together (a marker's xyz, a
/// joint's rotation, each other channel).
struct Plan {
    j: usize,
    rotation: Option<RotationChannels>,
    rot_idx: Vec<usize>,
    marker: Option<[usize; 3]>,
    groups: Vec<Vec<usize>>,
}

impl Plan {
    fn of(w: &Work, j: usize) -> Self {
        let skeleton = &w.motion.skeleton;
        let joint = &skeleton.joints()[j];
        let rotation = RotationChannels::of(joint);
        let rot_idx = rotation.as_ref().map(|r| r.indices()).unwrap_or_default();
        let marker = w.capture.is_some().then(|| translation(skeleton, j)).flatten();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        if let Some(t) = marker {
            groups.push(t.to_vec());
        }
        if !rot_idx.is_empty() {
            groups.push(rot_idx.clone());
        }
        for c in joint.first_channel..joint.first_channel + joint.channels.len() {
            if !groups.iter().any(|g| g.contains(&c)) {
                groups.push(vec![c]);
            }
        }
        Self { j, rotation, rot_idx, marker, groups }
    }
}

/// Fills gap `g` of one of `plan`'s groups (or counts why not) into `writes`, for the caller to
/// write them all after the parallel pass.
#[allow(clippy::too_many_arguments)]
fn fill_one(
    w: &Work,
    markers: &Markers<'_>,
    plan: &Plan,
    group: &[usize],
    g: Gap,
    ask: &Ask<'_>,
    writes: &mut Writes,
    count: &mut FillCount,
) {
    let (cpf, frames, lead) = (w.cpf(), w.frames, group[0]);
    if !fill::inner(g, frames) {
        count.at_ends += 1;
        return;
    }
    if g.len() > ask.max_gap {
        count.too_long += 1;
        return;
    }
    let used = if plan.marker.is_some_and(|t| t[..] == *group) {
        fill_marker(markers, plan.j, g, ask.method, ask.donors, group, writes)
    } else if group == plan.rot_idx {
        fill_rotation(w, plan.rotation.as_ref(), g, writes)
    } else {
        let get = |f: usize| f64::from(w.values[f * cpf + lead]);
        let (filled, spline) = fill::fill_local(get, frames, g, !matches!(ask.method, FillMethod::Linear));
        writes.extend(filled.iter().enumerate().map(|(k, v)| (g.first + k, lead, *v as f32)));
        if spline { "spline" } else { "linear" }
    };
    count.gaps += 1;
    count.samples += g.len();
    *count.by.entry(used).or_default() += 1;
}

impl FillCount {
    /// Adds another joint's count.
    fn add(&mut self, other: FillCount) {
        self.gaps += other.gaps;
        self.samples += other.samples;
        self.too_long += other.too_long;
        self.at_ends += other.at_ends;
        for (k, n) in other.by {
            *self.by.entry(k).or_default() += n;
        }
    }

    /// The step's note: what was filled, by which method, and what was left.
    fn note(&self, max_gap: usize) -> String {
        let by: Vec<String> = self.by.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let mut note = format!("filled {} gaps ({} frames)", self.gaps, self.samples);
        if !by.is_empty() {
            note += &format!(" by {}", by.join(", "));
        }
        if self.too_long > 0 {
            note += &format!("; {} longer than {max_gap} frames left as gaps", self.too_long);
        }
        if self.at_ends > 0 {
            note += &format!("; {} at the clip's ends left (nothing on one side)", self.at_ends);
        }
        note
    }
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
            let (points, spline) = fill::fill_local_xyz(|f| tracks.at(j, f), tracks.frames(), g, !matches!(method, FillMethod::Linear));
            (points, if spline { "spline" } else { "linear" })
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
pub(super) fn fill_rotation(w: &Work, rot: Option<&RotationChannels>, g: Gap, out: &mut Writes) -> &'static str {
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
