//! Comparing two open clips as shown: the reference (first clip) and another, with
//! editable joint pairs, the per-joint error now and heat-map colours for the compared
//! clip's bones. Plain data, updated each frame from the poses already computed. The error
//! over the whole overlap costs a pose of each clip per frame of the clip, so it is not
//! computed here: [`CompareView::overlap_input`] says what it depends on, and the app runs
//! [`overlap_curve`] off the UI thread and hands the result back.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use skelview_core::par::*;

use glam::{Mat4, Vec3};

use super::clips::{ClipView, Layout};
use skelview_core::compare::{Placement, match_joints, match_with_map};
use skelview_core::core::envelope::{Decimator, STORED_COLUMNS};
use skelview_core::core::sampler::joint_positions;
use skelview_core::core::{Interpolation, LocalPose, Motion, PoseAt, Sampler};
use skelview_core::retarget::{BoneAgreement, BoneMap, DirectionPair, direction_pairs};

/// What is measured per matched pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareMode {
    /// Distance between the joints' positions, metres.
    Position,
    /// Angle between the joints' local rotations, degrees.
    Angle,
    /// A capture's markers against a skeleton: each marker's distance to the skeleton's
    /// nearest joint, metres (chosen by itself when the reference is a capture and the
    /// compared clip is not; markers in a gap are left out).
    NearestJoint,
}

impl CompareMode {
    /// The mode in force for reference `a` and compared `b`: marker to nearest joint when a
    /// capture is compared with a skeleton, else the chosen one.
    pub fn effective(self, a: &Motion, b: &Motion) -> Self {
        if a.capture.is_some() && b.capture.is_none() {
            Self::NearestJoint
        } else if self == Self::NearestJoint {
            Self::Position
        } else {
            self
        }
    }
}

/// The joint of `joints` nearest to `p` and its distance (`None` when `p` is not finite or
/// there are no joints).
fn nearest(p: Vec3, joints: &[Vec3]) -> Option<(usize, f32)> {
    if !p.is_finite() {
        return None;
    }
    joints.iter().enumerate().map(|(k, q)| (k, (p - *q).length())).filter(|(_, d)| d.is_finite()).min_by(|x, y| x.1.total_cmp(&y.1))
}

/// Makes the positions of markers in a gap at clip time `t` NaN (so they count nowhere).
fn mask_gaps(m: &Motion, t: f64, positions: &mut [Vec3]) {
    let Some(c) = &m.capture else { return };
    let frame = ((t * c.point_rate_hz).round().max(0.0) as usize).min(c.frames.saturating_sub(1));
    for (j, p) in c.marker_points().enumerate() {
        if c.is_gap(frame, p)
            && let Some(x) = positions.get_mut(j)
        {
            *x = Vec3::NAN;
        }
    }
}

/// State of the comparison panel.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareView {
    /// Index of the compared clip (the reference is clip 0).
    pub other: usize,
    /// What is measured.
    pub mode: CompareMode,
    /// For each joint of the reference, its partner in the compared clip (editable).
    pub partner: Vec<Option<usize>>,
    /// The pairs of the user's name map (the viewer's document holds the map and its file),
    /// used as the last matching stage.
    pub name_map: Option<Arc<[(String, String)]>>,
    /// Colour the compared clip's bones by their error.
    pub heat: bool,
    /// The error over the whole overlap, once computed for the current input.
    pub overlap: Option<Arc<OverlapCurve>>,
    /// What the overlap curve needs now (`None` with fewer than two clips).
    pub overlap_input: Option<OverlapInput>,
    /// `(reference joint, partner, error)` at the current time.
    pub current: Vec<(usize, usize, f32)>,
    /// Top of the heat-map legend: the largest single-pair error over the whole overlap once
    /// known, until then the largest seen since the input changed.
    pub legend_max: f32,
    /// Unit of the errors: `"m"`, or `"deg"` in angle mode.
    pub unit: &'static str,
    /// Colour per joint of the compared clip (its bone from the parent), when `heat` is on.
    pub bone_colors: Vec<[f32; 4]>,
    /// The clips and the name map (by address: a new map re-pairs) the partners were made for.
    pairs_for: Option<(u64, u64, usize)>,
    /// Bones whose directions are compared, and the clips and maps they were found for.
    bones: Vec<DirectionPair>,
    bones_for: Option<(u64, u64, BoneMap, BoneMap)>,
}

/// Everything the error over the overlap depends on.
#[derive(Clone, Debug)]
pub struct OverlapInput {
    /// The reference and the compared clip.
    pub motions: (Arc<Motion>, Arc<Motion>),
    serials: (u64, u64),
    offsets: (f64, f64),
    transforms: (Mat4, Mat4),
    pairs: Vec<(usize, usize)>,
    /// Bones both humanoid maps name, whose directions are compared.
    bones: Vec<DirectionPair>,
    mode: CompareMode,
    interpolation: Interpolation,
    to_units: f32,
}

impl PartialEq for OverlapInput {
    /// Equal inputs give equal curves (a clip's serial stands for its motion).
    fn eq(&self, o: &Self) -> bool {
        (self.serials, self.offsets, self.transforms, &self.pairs, &self.bones, self.mode, self.interpolation, self.to_units)
            == (o.serials, o.offsets, o.transforms, &o.pairs, &o.bones, o.mode, o.interpolation, o.to_units)
    }
}

/// The mean error over the pairs at each frame of the reference that the compared clip
/// covers, reduced for plotting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlapCurve {
    /// `(shared time, mean error)`, reduced to [`STORED_COLUMNS`] columns (min and max each).
    pub points: Vec<[f64; 2]>,
    /// Mean of the per-frame errors over the overlap.
    pub mean: f64,
    /// Largest single-pair error over the overlap.
    pub legend_max: f32,
    /// Frames of the reference in the overlap.
    pub frames: usize,
    /// Per humanoid bone both clips have: the angle between its directions over the overlap
    /// (a retarget against its source), with the shared time of the largest.
    pub directions: Vec<(BoneAgreement, f64)>,
}

/// Frames per piece of work: progress and cancel are checked between pieces.
const OVERLAP_CHUNK: usize = 2048;

/// Computes the error over the overlap on every core; `keep_going(fraction)` reports
/// progress and returns false to stop (then `None`).
pub fn overlap_curve(input: &OverlapInput, keep_going: &(dyn Fn(f64) -> bool + Sync)) -> Option<OverlapCurve> {
    let (a, b) = (&*input.motions.0, &*input.motions.1);
    let (ta, tb) = input.transforms;
    let b_last = b.clip.last_frame_time_secs() + 1e-9;
    let n = a.clip.num_frames();
    let time = |f: usize| input.offsets.0 + f as f64 * a.clip.frame_time_secs;
    let in_overlap = |f: usize| (-1e-9..=b_last).contains(&(time(f) - input.offsets.1));
    let first = (0..n).find(|&f| in_overlap(f));
    let last = (0..n).rev().find(|&f| in_overlap(f));
    let (Some(first), Some(last)) = (first, last) else { return Some(OverlapCurve::default()) };
    let done = AtomicUsize::new(0);
    let total = last + 1 - first;
    // Per frame: mean over pairs (NaN outside the overlap), largest pair error, bone angles.
    let per_chunk: Vec<Option<Vec<(f32, f32, Vec<f32>)>>> = (0..total.div_ceil(OVERLAP_CHUNK))
        .into_par_iter()
        .map(|c| {
            let frames = first + c * OVERLAP_CHUNK..(first + (c + 1) * OVERLAP_CHUNK).min(last + 1);
            let (mut sa, mut sb, mut errors) = (Sampler::default(), Sampler::default(), Vec::new());
            let mut out = Vec::with_capacity(frames.len());
            for f in frames.clone() {
                let t = time(f);
                let tb_local = t - input.offsets.1;
                if !in_overlap(f) {
                    out.push((f32::NAN, 0.0, Vec::new()));
                    continue;
                }
                sa.positions(a, PoseAt::Time(t - input.offsets.0), input.interpolation, ta);
                sb.positions(b, PoseAt::Time(tb_local.max(0.0)), input.interpolation, tb);
                mask_gaps(a, t - input.offsets.0, &mut sa.positions);
                pair_errors(&input.pairs, input.mode, (&sa.local, &sa.positions), (&sb.local, &sb.positions), &mut errors);
                let (mut sum, mut count, mut max) = (0.0f32, 0usize, 0.0f32);
                for &e in errors.iter().filter(|e| e.is_finite()) {
                    sum += e;
                    count += 1;
                    max = max.max(e);
                }
                let angles = input.bones.iter().map(|b| b.angle_deg(&sa.positions, &sb.positions)).collect();
                out.push((if count == 0 { 0.0 } else { sum / count as f32 }, max, angles));
            }
            let so_far = done.fetch_add(frames.len(), Ordering::Relaxed) + frames.len();
            keep_going(so_far as f64 / total as f64).then_some(out)
        })
        .collect();
    let mut d = Decimator::new(time(first), time(last), STORED_COLUMNS, total);
    let (mut sum, mut frames, mut legend_max) = (0.0f64, 0usize, 0.0f32);
    let mut angles: Vec<Vec<f32>> = vec![Vec::new(); input.bones.len()];
    let mut at: Vec<usize> = Vec::new();
    for (k, (mean, max, bone_angles)) in per_chunk.into_iter().collect::<Option<Vec<_>>>()?.into_iter().flatten().enumerate() {
        if mean.is_nan() {
            continue;
        }
        for (v, a) in angles.iter_mut().zip(bone_angles) {
            v.push(a);
        }
        at.push(first + k);
        let v = (mean * input.to_units) as f64;
        d.push(time(first + k), v);
        sum += v;
        frames += 1;
        legend_max = legend_max.max(max);
    }
    let mean = if frames == 0 { 0.0 } else { sum / frames as f64 };
    let directions = input
        .bones
        .iter()
        .zip(angles)
        .map(|(b, v)| {
            let s = b.summary(v);
            let worst = time(at.get(s.worst_frame).copied().unwrap_or(first));
            (s, worst)
        })
        .collect();
    Some(OverlapCurve { points: d.finish(), mean, legend_max: legend_max * input.to_units, frames, directions })
}

impl Default for CompareView {
    fn default() -> Self {
        Self {
            other: 1,
            mode: CompareMode::Position,
            partner: Vec::new(),
            name_map: None,
            heat: true,
            overlap: None,
            overlap_input: None,
            current: Vec::new(),
            legend_max: 0.0,
            unit: "m",
            bone_colors: Vec::new(),
            pairs_for: None,
            bones: Vec::new(),
            bones_for: None,
        }
    }
}

/// Automatic pairs as `skelview compare` finds them: names, aliases, then the MNM map; then,
/// for joints still alone, the same humanoid bone in the two bone maps (a retarget result and
/// its source, whose joints are named differently).
pub fn auto_partners(a: &Motion, b: &Motion, map: Option<&[(String, String)]>, humanoid: (&BoneMap, &BoneMap)) -> Vec<Option<usize>> {
    let placement = |m: &Motion| if m.source.format.joints_at_far_end { Placement::FarEnd } else { Placement::Origin };
    let mut pairs = match_joints(&a.skeleton, placement(a), &b.skeleton, placement(b));
    if let Some(map) = map {
        match_with_map(&a.skeleton, &b.skeleton, map, &mut pairs);
    }
    let mut partner = vec![None; a.skeleton.len()];
    for (i, k, _) in pairs {
        if let Some(slot) = partner.get_mut(i) {
            *slot = Some(k);
        }
    }
    let mut taken: std::collections::HashSet<usize> = partner.iter().flatten().copied().collect();
    for e in &humanoid.0.entries {
        if let (Some(slot), Some(k)) = (partner.get_mut(e.joint), humanoid.1.joint(e.bone))
            && slot.is_none()
            && taken.insert(k)
        {
            *slot = Some(k);
        }
    }
    partner
}

/// Green → yellow → red for `t` in 0..1.
pub fn heat_color(t: f32) -> [f32; 4] {
    let t = if t.is_finite() { t.clamp(0.0, 1.0) } else { 1.0 };
    if t < 0.5 { [t * 2.0, 0.85, 0.15, 1.0] } else { [1.0, 0.85 * (1.0 - (t - 0.5) * 2.0), 0.15, 1.0] }
}

/// Where errors are measured: the alignment layouts count, the side-by-side spread does not.
fn measure_transform(c: &ClipView, layout: Layout) -> Mat4 {
    match layout {
        Layout::AlignRoots | Layout::AlignRootsHeading => c.placement * c.display.display_from_file,
        Layout::Overlay | Layout::SideBySide => c.display.display_from_file,
    }
}

/// Per-pair errors of one instant, in metres or degrees.
fn pair_errors(
    pairs: &[(usize, usize)],
    mode: CompareMode,
    (la, pa): (&LocalPose, &[Vec3]),
    (lb, pb): (&LocalPose, &[Vec3]),
    out: &mut Vec<f32>,
) {
    out.clear();
    for &(i, k) in pairs {
        let e = match mode {
            CompareMode::Position => match (pa.get(i), pb.get(k)) {
                (Some(a), Some(b)) => (*a - *b).length(),
                _ => f32::NAN,
            },
            CompareMode::Angle => match (la.parent_from_joint.get(i), lb.parent_from_joint.get(k)) {
                (Some(a), Some(b)) => a.rotation.normalize().angle_between(b.rotation.normalize()).to_degrees(),
                _ => f32::NAN,
            },
            CompareMode::NearestJoint => pa.get(i).and_then(|a| nearest(*a, pb)).map_or(f32::NAN, |(_, d)| d),
        };
        out.push(e);
    }
}

impl CompareView {
    /// Matched pairs `(reference joint, partner)`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        self.partner.iter().enumerate().filter_map(|(i, p)| p.map(|k| (i, k))).collect()
    }

    /// Mean error over the pairs at the current time.
    pub fn mean_now(&self) -> f32 {
        let v: Vec<f32> = self.current.iter().map(|c| c.2).filter(|e| e.is_finite()).collect();
        if v.is_empty() { 0.0 } else { v.iter().sum::<f32>() / v.len() as f32 }
    }

    /// The `n` pairs with the largest error now, worst first.
    pub fn worst(&self, n: usize) -> Vec<(usize, usize, f32)> {
        let mut v: Vec<_> = self.current.iter().copied().filter(|c| c.2.is_finite()).collect();
        v.sort_by(|a, b| b.2.total_cmp(&a.2));
        v.truncate(n);
        v
    }

    /// Brings everything up to date for the clips as posed this frame (`clips[i].global`
    /// holds the current pose, at shared time `now_secs`, `None` for the rest pose: a
    /// capture's gaps need the time); the curve is recomputed only when what it depends on
    /// changed.
    pub fn update(&mut self, clips: &[ClipView], layout: Layout, interpolation: Interpolation, now_secs: Option<f64>) {
        if clips.len() < 2 {
            self.clear_without_pair();
            return;
        }
        if self.other == 0 || self.other >= clips.len() {
            self.other = 1;
        }
        let (a, b) = (&clips[0], &clips[self.other]);
        self.refresh_pairing(a, b);
        let nb = b.motion.skeleton.len();
        let mode = self.mode.effective(&a.motion, &b.motion);
        let pairs = if mode == CompareMode::NearestJoint { (0..a.motion.skeleton.len()).map(|i| (i, 0)).collect() } else { self.pairs() };
        let to_units = self.set_unit(mode);
        let (ta, tb) = (measure_transform(a, layout), measure_transform(b, layout));
        self.refresh_overlap_input(OverlapInput {
            motions: (a.motion.clone(), b.motion.clone()),
            serials: (a.serial, b.serial),
            offsets: (a.offset_secs, b.offset_secs),
            transforms: (ta, tb),
            pairs: pairs.clone(),
            bones: if mode == CompareMode::NearestJoint { Vec::new() } else { self.bones.clone() },
            mode,
            interpolation,
            to_units,
        });
        // Now: from the poses the viewer just computed (no resampling).
        let (mut pa, mut pb) = (Vec::new(), Vec::new());
        joint_positions(&a.pose.global, ta, &mut pa);
        joint_positions(&b.pose.global, tb, &mut pb);
        if let Some(t) = now_secs {
            mask_gaps(&a.motion, a.local_time(t), &mut pa);
        }
        self.measure_now(&pairs, mode, to_units, (a.local(), &pa), (b.local(), &pb));
        self.refresh_legend_max();
        self.refresh_bone_colors(nb, mode);
    }

    /// With fewer than two clips there is nothing to compare: drop what was shown so no
    /// stale errors or colours linger.
    fn clear_without_pair(&mut self) {
        self.current.clear();
        self.overlap = None;
        self.overlap_input = None;
        self.bone_colors.clear();
    }

    /// Re-pairs joints and bones only when the clips or the name map changed, so the user's
    /// edits to the partners survive from frame to frame.
    fn refresh_pairing(&mut self, a: &ClipView, b: &ClipView) {
        let map_key = self.name_map.as_ref().map_or(0, |m| Arc::as_ptr(m) as *const () as usize);
        let pairs_for = Some((a.serial, b.serial, map_key));
        if self.pairs_for != pairs_for || self.partner.len() != a.motion.skeleton.len() {
            self.partner = auto_partners(&a.motion, &b.motion, self.name_map.as_deref(), (&a.humanoid, &b.humanoid));
            self.pairs_for = pairs_for;
        }
        let bones_for = Some((a.serial, b.serial, a.humanoid.clone(), b.humanoid.clone()));
        if self.bones_for != bones_for {
            self.bones = direction_pairs(&a.motion, &a.humanoid, &b.motion, &b.humanoid);
            self.bones_for = bones_for;
        }
        let nb = b.motion.skeleton.len();
        for p in &mut self.partner {
            *p = p.filter(|&k| k < nb);
        }
    }

    /// Sets the unit the panel labels errors with; returns the factor to those units.
    fn set_unit(&mut self, mode: CompareMode) -> f32 {
        match mode {
            CompareMode::Position | CompareMode::NearestJoint => {
                // The display transforms already give metres: the panel picks m, cm or mm.
                self.unit = "m";
                1.0
            }
            CompareMode::Angle => {
                self.unit = "deg";
                1.0
            }
        }
    }

    /// A changed input makes the computed curve and the legend's top stale; an unchanged one
    /// keeps them, so the curve is not recomputed every frame.
    fn refresh_overlap_input(&mut self, input: OverlapInput) {
        if self.overlap_input.as_ref() != Some(&input) {
            self.overlap_input = Some(input);
            self.overlap = None;
            self.legend_max = 0.0;
        }
    }

    /// Keeps this instant's per-pair errors with their partners, so the panel can list the
    /// worst pairs and colour bones without measuring again (`a` and `b`: each clip's local
    /// pose and measured positions).
    fn measure_now(
        &mut self,
        pairs: &[(usize, usize)],
        mode: CompareMode,
        to_units: f32,
        a: (&LocalPose, &[Vec3]),
        b: (&LocalPose, &[Vec3]),
    ) {
        let (pa, pb) = (a.1, b.1);
        let mut errors = Vec::new();
        pair_errors(pairs, mode, a, b, &mut errors);
        self.current.clear();
        if mode == CompareMode::NearestJoint {
            // The partner shown is the joint nearest now.
            self.current.extend(pairs.iter().zip(&errors).map(|(&(i, _), &e)| (i, nearest(pa[i], pb).map_or(0, |n| n.0), e)));
        } else {
            self.current.extend(pairs.iter().zip(&errors).map(|(&(i, k), &e)| (i, k, e * to_units)));
        }
    }

    /// The legend's top: the whole overlap's largest error once known, else the largest
    /// seen so far, so the colours do not jump back and forth while the curve is computed.
    fn refresh_legend_max(&mut self) {
        self.legend_max = match &self.overlap {
            Some(o) => o.legend_max,
            None => self.current.iter().map(|c| c.2).filter(|e| e.is_finite()).fold(self.legend_max, f32::max),
        };
    }

    /// Heat colours per bone of the compared clip (`nb` joints); none in nearest-joint mode,
    /// where a marker's partner changes from frame to frame.
    fn refresh_bone_colors(&mut self, nb: usize, mode: CompareMode) {
        self.bone_colors.clear();
        if self.heat && mode != CompareMode::NearestJoint {
            self.bone_colors.resize(nb, [0.55, 0.55, 0.58, 1.0]);
            let top = self.legend_max.max(1e-9);
            for &(_, k, e) in &self.current {
                self.bone_colors[k] = heat_color(e / top);
            }
        }
    }
}
