//! Checking a capture: the artifacts a mocap technician scrubs for (pops, jitter, sliding and
//! sinking feet, frozen stretches, Euler flips, joints past their limits, stretching bones)
//! and a verdict on the neutral pose, as findings with a joint, frames, a value in metres,
//! degrees or seconds and the threshold it crossed. No GPU, no UI; rayon spreads the work.
//!
//! Everything is measured in display space (metres, Y up) from one pass of forward kinematics
//! over every frame ([`tracks::Tracks`]), so thresholds mean the same for every format.

mod bones;
mod channels;
mod contact;
mod markers;
mod motion_checks;
mod neutral;
mod ranges;
mod records;
pub mod thresholds;
mod tracks;

use std::collections::BTreeMap;

use crate::core::{LengthUnit, Motion, UpAxis};
pub use neutral::{LimbDeviation, NeutralVerdict};
pub use records::json_records;
pub use thresholds::{ThresholdError, Thresholds};

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A jump between two frames far beyond the clip's own motion.
    Pop,
    /// High-frequency noise on a joint over a window.
    Jitter,
    /// A foot in contact that drifts horizontally.
    FootSlide,
    /// A joint below the floor.
    Floor,
    /// Values repeated exactly (held, dropped tracking) or missing in the file.
    Frozen,
    /// An Euler channel wrapping while the rotation barely changes.
    Flip,
    /// A channel outside the file's declared limits.
    Limit,
    /// A bone whose length changes.
    BoneLength,
    /// The rest pose or first frame far from the ideal neutral pose.
    NeutralPose,
    /// A capture's marker missing for longer than a threshold.
    Gap,
    /// A capture's marker that jumps between two frames.
    Jump,
    /// Two nearby markers of a capture that exchange places (labels swapped).
    Swap,
}

/// A check kind no check has.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown kind '{0}': expected {names} or all", names = Kind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownKind(pub String);

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 12] = [
        Kind::Pop,
        Kind::Jitter,
        Kind::FootSlide,
        Kind::Floor,
        Kind::Frozen,
        Kind::Flip,
        Kind::Limit,
        Kind::BoneLength,
        Kind::NeutralPose,
        Kind::Gap,
        Kind::Jump,
        Kind::Swap,
    ];

    /// True for the kinds that check a capture's markers (the others check skeletons).
    pub fn is_marker_check(self) -> bool {
        matches!(self, Kind::Gap | Kind::Jump | Kind::Swap)
    }

    /// Name in reports and on the command line (`foot_slide`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Pop => "pop",
            Kind::Jitter => "jitter",
            Kind::FootSlide => "foot_slide",
            Kind::Floor => "floor",
            Kind::Frozen => "frozen",
            Kind::Flip => "flip",
            Kind::Limit => "limit",
            Kind::BoneLength => "bone_length",
            Kind::NeutralPose => "neutral_pose",
            Kind::Gap => "gap",
            Kind::Jump => "jump",
            Kind::Swap => "swap",
        }
    }

    /// The kind named `s` (as [`Kind::name`] writes it).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s.trim())
    }

    /// Parses a comma-separated list (`pop,jitter`); `all` is every kind.
    pub fn parse_list(s: &str) -> Result<Vec<Self>, UnknownKind> {
        if s.trim() == "all" {
            return Ok(Self::ALL.to_vec());
        }
        let mut out = Vec::new();
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let kind = Self::parse(part).ok_or_else(|| UnknownKind(part.trim().to_owned()))?;
            if !out.contains(&kind) {
                out.push(kind);
            }
        }
        Ok(out)
    }
}

/// One problem found in a clip.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What it is.
    pub kind: Kind,
    /// The joint it is about (none for a whole row or a whole pose).
    pub joint: Option<usize>,
    /// First frame concerned.
    pub start_frame: usize,
    /// Last frame concerned (inclusive).
    pub end_frame: usize,
    /// The measured value (the worst over the frames), in `unit`.
    pub value: f32,
    /// `m`, `mm`, `deg`, `s` or `%`.
    pub unit: &'static str,
    /// The threshold it crossed, in `unit`.
    pub threshold: f32,
    /// One sentence for a person.
    pub message: String,
}

impl Finding {
    /// True when `frame` lies in the finding's frames.
    pub fn covers(&self, frame: usize) -> bool {
        (self.start_frame..=self.end_frame).contains(&frame)
    }
}

/// Everything found in one clip.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Findings by first frame, then kind.
    pub findings: Vec<Finding>,
    /// The neutral-pose verdicts: the rest pose, then the first frame when there are frames.
    pub neutral: Vec<NeutralVerdict>,
    /// Frames analysed.
    pub frames: usize,
    /// Seconds between frames.
    pub frame_time_secs: f64,
    /// The kinds that were looked for.
    pub kinds: Vec<Kind>,
    /// The kinds with at least one finding, in `Kind::ALL` order (worked out with `findings`,
    /// so private: nothing else can let it go stale).
    found: Vec<Kind>,
    /// Frames the longest finding spans, less one: how far back [`Report::covering`] looks.
    longest_frames: usize,
}

impl Report {
    /// The findings that cover `frame`, found by binary search on the first frame (findings
    /// are sorted by it), so that the viewer can ask every frame of a long clip.
    pub fn covering(&self, frame: usize) -> impl Iterator<Item = &Finding> {
        let end = self.findings.partition_point(|f| f.start_frame <= frame);
        let earliest = frame.saturating_sub(self.longest_frames);
        let begin = self.findings[..end].partition_point(|f| f.start_frame < earliest);
        self.findings[begin..end].iter().filter(move |f| f.covers(frame))
    }

    /// The kinds with at least one finding, in `Kind::ALL` order.
    pub fn found(&self) -> &[Kind] {
        &self.found
    }

    /// Number of findings of each kind looked for (zeros included).
    pub fn counts(&self) -> BTreeMap<Kind, usize> {
        let mut counts: BTreeMap<Kind, usize> = self.kinds.iter().map(|&k| (k, 0)).collect();
        for f in &self.findings {
            *counts.entry(f.kind).or_default() += 1;
        }
        counts
    }

    /// Length of the clip in seconds (first to last frame).
    pub fn duration_secs(&self) -> f64 {
        self.frames.saturating_sub(1) as f64 * self.frame_time_secs
    }

    /// Seconds from the clip's start to `frame`.
    pub fn secs(&self, frame: usize) -> f64 {
        frame as f64 * self.frame_time_secs
    }
}

/// Where measurements are made: display space (metres, Y up) as the file's units and up axis
/// (or the user's choice of them) make it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Space {
    /// `display_from_file`.
    pub display: glam::Mat4,
    /// Metres per raw file unit.
    pub metres: f32,
    /// The file's up axis.
    pub up: UpAxis,
}

impl Space {
    /// The space of `m` with the user's unit and up axis in place of the file's where given.
    pub fn of(m: &Motion, unit: Option<LengthUnit>, up: Option<UpAxis>) -> Self {
        Self { display: m.display_with(unit, up).display_from_file, metres: m.metres_with(unit), up: up.unwrap_or(m.source.up_axis) }
    }
}

/// Looks for `kinds` in `m` with `thresholds`, in the file's own units and axes. `progress`
/// is called with the fraction done (0 to 1) from whichever thread did the work.
pub fn analyse(m: &Motion, thresholds: &Thresholds, kinds: &[Kind], progress: &(dyn Fn(f32) + Sync)) -> Report {
    analyse_in(m, Space::of(m, None, None), thresholds, kinds, progress)
}

/// [`analyse`] in a given [`Space`] (the viewer's unit and up-axis overrides).
pub fn analyse_in(m: &Motion, space: Space, thresholds: &Thresholds, kinds: &[Kind], progress: &(dyn Fn(f32) + Sync)) -> Report {
    // A capture's markers get the marker checks; a skeleton's joints the others.
    let capture = m.capture.is_some();
    let wants = |k: Kind| kinds.contains(&k) && k.is_marker_check() == capture;
    let needs_tracks = !capture && kinds.iter().any(|k| !matches!(k, Kind::Limit | Kind::NeutralPose) && !k.is_marker_check());
    // The detectors that read rows alone run beside forward kinematics, and those that read
    // the tracks beside each other: several of them are one sequential pass each.
    let only = |k: Kind, find: &(dyn Fn() -> Vec<Finding> + Sync)| if wants(k) { find() } else { Vec::new() };
    let (tracks, (frozen, limits)) = crate::par::join(
        || (needs_tracks && m.clip.num_frames() > 0).then(|| tracks::Tracks::compute(m, &space, &|f| progress(0.8 * f))),
        || {
            crate::par::join(
                || only(Kind::Frozen, &|| channels::frozen(m, &thresholds.frozen)),
                || only(Kind::Limit, &|| channels::limits(m, &thresholds.limit)),
            )
        },
    );
    let mut findings = frozen;
    findings.extend(limits);
    if let Some(t) = &tracks {
        findings.extend(track_checks(m, &space, t, thresholds, &wants));
    }
    if let Some(c) = &m.capture {
        findings.extend(marker_checks(c, space.metres, thresholds, &wants));
    }
    progress(0.9);
    let neutral = if capture { Vec::new() } else { neutral::verdicts(m, &space) };
    if wants(Kind::NeutralPose) {
        findings.extend(neutral::findings(&neutral, &thresholds.neutral_pose, &m.skeleton));
    }
    findings.sort_by_key(|a| (a.start_frame, a.kind, a.joint));
    progress(1.0);
    let found = Kind::ALL.into_iter().filter(|k| findings.iter().any(|f| f.kind == *k)).collect();
    let longest_frames = findings.iter().map(|f| f.end_frame.saturating_sub(f.start_frame)).max().unwrap_or(0);
    Report {
        findings,
        neutral,
        frames: m.clip.num_frames(),
        frame_time_secs: m.clip.frame_time_secs,
        kinds: Kind::ALL.into_iter().filter(|k| kinds.contains(k)).collect(),
        found,
        longest_frames,
    }
}

/// The checks that read the joints' tracks, run beside each other (several are one
/// sequential pass each); pops are found whenever jitter is wanted, which discounts them.
fn track_checks(
    m: &Motion,
    space: &Space,
    t: &tracks::Tracks,
    thresholds: &Thresholds,
    wants: &(dyn Fn(Kind) -> bool + Sync),
) -> Vec<Finding> {
    let only = |k: Kind, find: &(dyn Fn() -> Vec<Finding> + Sync)| if wants(k) { find() } else { Vec::new() };
    let ((pops_and_jitter, slides), ((floor, flips), bones)) = crate::par::join(
        || {
            crate::par::join(
                || {
                    let pops = motion_checks::pops(m, t, &thresholds.pop);
                    let mut out = only(Kind::Jitter, &|| motion_checks::jitter(m, t, &thresholds.jitter, &pops));
                    if wants(Kind::Pop) {
                        out.extend(pops);
                    }
                    out
                },
                || only(Kind::FootSlide, &|| contact::foot_slide(m, space, t, &thresholds.foot_slide)),
            )
        },
        || {
            crate::par::join(
                || {
                    crate::par::join(
                        || only(Kind::Floor, &|| contact::floor(m, space, t, &thresholds.floor)),
                        || only(Kind::Flip, &|| channels::flips(m, t, &thresholds.flip)),
                    )
                },
                || only(Kind::BoneLength, &|| bones::bone_length(m, t, &thresholds.bone_length)),
            )
        },
    );
    let mut findings = Vec::new();
    for part in [pops_and_jitter, slides, floor, flips, bones] {
        findings.extend(part);
    }
    findings
}

/// The checks on a capture's markers: gaps, jumps and swaps.
fn marker_checks(
    c: &crate::core::capture::Capture,
    metres: f32,
    thresholds: &Thresholds,
    wants: &(dyn Fn(Kind) -> bool + Sync),
) -> Vec<Finding> {
    let t = &thresholds.markers;
    let mut findings = Vec::new();
    for (kind, find) in [
        (Kind::Gap, markers::gaps as fn(&crate::core::capture::Capture, f32, &thresholds::MarkerThresholds) -> Vec<Finding>),
        (Kind::Jump, markers::jumps),
        (Kind::Swap, markers::swaps),
    ] {
        if wants(kind) {
            findings.extend(find(c, metres, t));
        }
    }
    findings
}

/// `12.3 cm`, `4.1 mm`, `37.0°`, `0.50 s`, `6.2%`: lengths in the unit their size picks.
pub fn shown(value: f32, unit: &str) -> String {
    shown_in(value, unit, crate::core::LengthDisplay::Auto)
}

/// As [`shown`], with lengths in the user's choice of unit.
pub fn shown_in(value: f32, unit: &str, lengths: crate::core::LengthDisplay) -> String {
    match unit {
        "m" => lengths.show(value),
        "mm" => lengths.show(value / 1000.0),
        "deg" => format!("{value:.1}°"),
        "s" => format!("{value:.2} s"),
        "%" => format!("{value:.1}%"),
        _ => format!("{value} {unit}"),
    }
}

/// The name of `joint` in `m`, or `(whole pose)`.
pub fn joint_name(m: &Motion, joint: Option<usize>) -> &str {
    joint.and_then(|j| m.skeleton.joints().get(j)).map_or("(whole pose)", |j| j.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covering_finds_what_a_scan_finds() {
        let spans = [(0, 0), (0, 40), (3, 5), (3, 3), (10, 12), (11, 90), (50, 50), (60, 61)];
        let findings: Vec<Finding> = spans
            .iter()
            .map(|&(start_frame, end_frame)| Finding {
                kind: Kind::ALL[start_frame % 3],
                joint: Some(end_frame),
                start_frame,
                end_frame,
                value: 0.0,
                unit: "m",
                threshold: 0.0,
                message: String::new(),
            })
            .collect();
        let report = Report { longest_frames: 79, found: Kind::ALL[..3].to_vec(), findings, ..Default::default() };
        for frame in 0..100 {
            let fast: Vec<&Finding> = report.covering(frame).collect();
            let scan: Vec<&Finding> = report.findings.iter().filter(|f| f.covers(frame)).collect();
            assert_eq!(fast, scan, "frame {frame}");
        }
    }
}
