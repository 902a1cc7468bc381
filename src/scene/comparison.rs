//! Comparing two open clips as shown: the reference (first clip) and another, with
//! editable joint pairs, the per-joint error now, the mean error over the shared clock and
//! heat-map colours for the compared clip's bones. Plain data, recomputed only on change.

use std::path::PathBuf;

use glam::{Mat4, Vec3};

use super::clips::{ClipView, Layout};
use crate::compare::{Placement, match_joints, match_with_map};
use crate::core::sampler::joint_positions;
use crate::core::{Interpolation, LocalPose, Motion, PoseAt, Sampler};

/// What is measured per matched pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareMode {
    /// Distance between the joints' positions, in the reference's units.
    Position,
    /// Angle between the joints' local rotations, degrees.
    Angle,
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
    /// The user's MNM name map, used as the last matching stage.
    pub name_map: Option<(PathBuf, Vec<(String, String)>)>,
    /// Colour the compared clip's bones by their error.
    pub heat: bool,
    /// `(shared time, mean error over pairs)` at the reference's frames where both have data.
    pub curve: Vec<[f64; 2]>,
    /// `(reference joint, partner, error)` at the current time.
    pub current: Vec<(usize, usize, f32)>,
    /// Largest single-pair error over the whole overlap: the top of the heat-map legend.
    pub legend_max: f32,
    /// Unit of the errors (`"deg"` in angle mode).
    pub unit: &'static str,
    /// Colour per joint of the compared clip (its bone from the parent), when `heat` is on.
    pub bone_colors: Vec<[f32; 4]>,
    pairs_for: Option<(u64, u64, usize)>,
    curve_key: Option<CurveKey>,
}

#[derive(Clone, Debug, PartialEq)]
struct CurveKey {
    serials: (u64, u64),
    offsets: (f64, f64),
    transforms: (Mat4, Mat4),
    partner: Vec<Option<usize>>,
    mode: CompareMode,
    interpolation: Interpolation,
}

impl Default for CompareView {
    fn default() -> Self {
        Self {
            other: 1,
            mode: CompareMode::Position,
            partner: Vec::new(),
            name_map: None,
            heat: true,
            curve: Vec::new(),
            current: Vec::new(),
            legend_max: 0.0,
            unit: "m",
            bone_colors: Vec::new(),
            pairs_for: None,
            curve_key: None,
        }
    }
}

/// Automatic pairs as `skelview compare` finds them: names, aliases, then the MNM map.
pub fn auto_partners(a: &Motion, b: &Motion, map: Option<&[(String, String)]>) -> Vec<Option<usize>> {
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
        Layout::AlignRoots | Layout::AlignRootsHeading => c.placement * c.display.0,
        Layout::Overlay | Layout::SideBySide => c.display.0,
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
    /// holds the current pose); the curve is recomputed only when what it depends on changed.
    pub fn update(&mut self, clips: &[ClipView], layout: Layout, interpolation: Interpolation) {
        if clips.len() < 2 {
            self.current.clear();
            self.curve.clear();
            self.bone_colors.clear();
            self.curve_key = None;
            return;
        }
        if self.other == 0 || self.other >= clips.len() {
            self.other = 1;
        }
        let (a, b) = (&clips[0], &clips[self.other]);
        let map_len = self.name_map.as_ref().map_or(0, |(_, m)| m.len());
        let pairs_for = Some((a.serial, b.serial, map_len));
        if self.pairs_for != pairs_for || self.partner.len() != a.motion.skeleton.len() {
            self.partner = auto_partners(&a.motion, &b.motion, self.name_map.as_ref().map(|(_, m)| m.as_slice()));
            self.pairs_for = pairs_for;
        }
        let nb = b.motion.skeleton.len();
        for p in &mut self.partner {
            *p = p.filter(|&k| k < nb);
        }
        let pairs = self.pairs();
        let to_units = match self.mode {
            CompareMode::Position => {
                // "cmu (1/0.45 in)" → "cmu": the short form fits the panel's rows.
                let symbol = a.motion.source.unit.symbol();
                self.unit = symbol.split(' ').next().unwrap_or(symbol);
                1.0 / a.motion.source.unit.metres().max(1e-12)
            }
            CompareMode::Angle => {
                self.unit = "deg";
                1.0
            }
        };
        let (ta, tb) = (measure_transform(a, layout), measure_transform(b, layout));
        let key = CurveKey {
            serials: (a.serial, b.serial),
            offsets: (a.offset_secs, b.offset_secs),
            transforms: (ta, tb),
            partner: self.partner.clone(),
            mode: self.mode,
            interpolation,
        };
        if self.curve_key.as_ref() != Some(&key) {
            self.curve_key = Some(key);
            self.curve.clear();
            self.legend_max = 0.0;
            let (mut sa, mut sb, mut errors) = (Sampler::default(), Sampler::default(), Vec::new());
            let b_last = b.motion.clip.last_frame_time_secs() + 1e-9;
            for f in 0..a.motion.clip.num_frames() {
                let ta_local = f as f64 * a.motion.clip.frame_time_secs;
                let t = a.offset_secs + ta_local;
                let tb_local = t - b.offset_secs;
                if !(-1e-9..=b_last).contains(&tb_local) {
                    continue;
                }
                sa.positions(&a.motion, PoseAt::Time(ta_local), interpolation, ta);
                sb.positions(&b.motion, PoseAt::Time(tb_local.max(0.0)), interpolation, tb);
                pair_errors(&pairs, self.mode, (&sa.local, &sa.positions), (&sb.local, &sb.positions), &mut errors);
                let finite: Vec<f32> = errors.iter().copied().filter(|e| e.is_finite()).collect();
                let mean = if finite.is_empty() { 0.0 } else { finite.iter().sum::<f32>() / finite.len() as f32 };
                self.legend_max = finite.iter().copied().fold(self.legend_max, f32::max);
                self.curve.push([t, (mean * to_units) as f64]);
            }
            self.legend_max *= to_units;
        }
        // Now: from the poses the viewer just computed (no resampling).
        let (mut pa, mut pb, mut errors) = (Vec::new(), Vec::new(), Vec::new());
        joint_positions(&a.pose.global, ta, &mut pa);
        joint_positions(&b.pose.global, tb, &mut pb);
        pair_errors(&pairs, self.mode, (a.local(), &pa), (b.local(), &pb), &mut errors);
        self.current.clear();
        self.current.extend(pairs.iter().zip(&errors).map(|(&(i, k), &e)| (i, k, e * to_units)));
        self.bone_colors.clear();
        if self.heat {
            self.bone_colors.resize(nb, [0.55, 0.55, 0.58, 1.0]);
            let top = self.legend_max.max(1e-9);
            for &(_, k, e) in &self.current {
                self.bone_colors[k] = heat_color(e / top);
            }
        }
    }
}
