//! Marker captures: named points with a position per frame or a gap, analog channels, force
//! platforms and events, as C3D and TRC files hold them. A capture sits beside a skeleton in
//! a [`super::Motion`]; its markers are also the motion's joints (one root joint each), so the
//! sampler, the clock, picking and the curves treat them as they treat joints.

use glam::Vec3;

/// What a point is. Vicon stores model outputs (angles, forces, moments, powers) as points:
/// channels to plot, not markers to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointKind {
    /// A marker (or a modelled/virtual marker): a position.
    Marker,
    /// A joint angle (three values, degrees).
    Angle,
    /// A force.
    Force,
    /// A moment.
    Moment,
    /// A power.
    Power,
    /// Any other scalar output.
    Scalar,
}

impl PointKind {
    /// Lower-case name for `info` and the curves window.
    pub fn name(self) -> &'static str {
        match self {
            Self::Marker => "marker",
            Self::Angle => "angle",
            Self::Force => "force",
            Self::Moment => "moment",
            Self::Power => "power",
            Self::Scalar => "scalar",
        }
    }
}

/// One point's label and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct PointInfo {
    /// Label as the file writes it (trimmed).
    pub label: String,
    /// Description, when the file gives one.
    pub description: String,
    /// Marker or model output.
    pub kind: PointKind,
}

/// One analog channel.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalogChannel {
    /// Label.
    pub label: String,
    /// Description.
    pub description: String,
    /// Unit (`N`, `V`, `Nmm`), as written.
    pub unit: String,
}

/// Analog channels sampled at a multiple of the point rate, scale and offset applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analog {
    /// Samples per second.
    pub rate_hz: f64,
    /// Samples per point frame.
    pub samples_per_frame: usize,
    /// The channels.
    pub channels: Vec<AnalogChannel>,
    /// `values[sample * channels + channel]`, in the channel's unit.
    pub values: Vec<f32>,
}

impl Analog {
    /// Number of samples of each channel.
    pub fn samples(&self) -> usize {
        if self.channels.is_empty() { 0 } else { self.values.len() / self.channels.len() }
    }

    /// One channel's samples (a copy: values are stored sample-major).
    pub fn channel(&self, c: usize) -> Vec<f32> {
        let n = self.channels.len();
        if c >= n {
            return Vec::new();
        }
        self.values.iter().skip(c).step_by(n).copied().collect()
    }
}

/// A force platform as the file describes it, in the lab's frame and point units.
#[derive(Clone, Debug, PartialEq)]
pub struct ForcePlate {
    /// Platform type (1–4 computed; others listed but not computed).
    pub kind: u16,
    /// Corners in lab coordinates (point units), in the file's order.
    pub corners: [Vec3; 4],
    /// The platform's origin relative to its centre, in its own axes (sign as the type
    /// needs it: below the surface).
    pub origin: Vec3,
    /// Analog channel (0-based) of each platform input.
    pub channels: Vec<usize>,
    /// Calibration matrix (row-major, type 4).
    pub cal_matrix: Option<[[f64; 6]; 6]>,
    /// Type 3 centre-of-pressure correction polynomial (Kistler), when given.
    pub cop_poly: Option<[f64; 12]>,
}

/// One analog sample of a platform, in the lab's frame: force (N or the file's force unit),
/// moment about the platform's centre, centre of pressure (point units) and the free moment.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlateSample {
    /// Ground reaction force.
    pub force: Vec3,
    /// Moment at the platform centre.
    pub moment: Vec3,
    /// Centre of pressure, lab coordinates (point units).
    pub cop: Vec3,
    /// Free moment about the vertical at the centre of pressure.
    pub free_moment: Vec3,
}

/// An event (foot strike, foot off) at a time in the capture.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Label (`Foot Strike`).
    pub label: String,
    /// Context (`Left`, `Right`, `General`).
    pub context: String,
    /// Seconds from the first frame of the file's clock (the file's own time).
    pub time_secs: f64,
    /// Description.
    pub description: String,
}

/// Lab axes as the file declares them: which way is right and which is up on screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScreenAxes {
    /// `POINT:X_SCREEN` (`+X`), as written.
    pub x_screen: Option<String>,
    /// `POINT:Y_SCREEN` (`+Z`), as written.
    pub y_screen: Option<String>,
}

/// A parameter's values as the source file stored them.
#[derive(Clone, Debug, PartialEq)]
pub enum KeptValue {
    /// Characters (strings of the first dimension's length).
    Chars(Vec<u8>),
    /// Bytes.
    Bytes(Vec<u8>),
    /// 16-bit integers.
    Ints(Vec<i16>),
    /// 32-bit floats.
    Floats(Vec<f32>),
}

/// One parameter of the source file.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptParam {
    /// Its name (upper case).
    pub name: String,
    /// Its description.
    pub description: String,
    /// Dimensions (empty for a scalar).
    pub dims: Vec<usize>,
    /// Values.
    pub value: KeptValue,
}

/// One group of parameters of the source file, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptGroup {
    /// Its name (upper case).
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its parameters, in file order.
    pub params: Vec<KeptParam>,
}

/// A marker capture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Capture {
    /// Point frames per second (may be non-integer).
    pub point_rate_hz: f64,
    /// Number of the first frame as the file counts (1 in most C3D files).
    pub first_frame: u32,
    /// Every point, in file order.
    pub points: Vec<PointInfo>,
    /// Length unit of the positions as written (`mm`).
    pub unit: String,
    /// Number of frames.
    pub frames: usize,
    /// `positions[(frame * points + point) * 3 ..][..3]`, file units; NaN in gaps.
    pub positions: Vec<f32>,
    /// `residuals[frame * points + point]`, file units; negative in gaps (−1). A sample is a
    /// gap exactly when its residual is negative (readers keep this so).
    pub residuals: Vec<f32>,
    /// Analog channels.
    pub analog: Analog,
    /// Force platforms.
    pub plates: Vec<ForcePlate>,
    /// Events, by time.
    pub events: Vec<Event>,
    /// Declared lab axes.
    pub axes: ScreenAxes,
    /// The source file's parameter groups as it stored them (C3D: SUBJECTS, PROCESSING,
    /// MANUFACTURER and the others), so that a written C3D keeps what skelview does not read.
    /// Those the capture's own fields hold (point labels, rates, analog scaling, platforms,
    /// events) are written from the fields.
    pub kept: Vec<KeptGroup>,
}

impl Capture {
    /// Per marker of `markers`, whether any of its residuals is above 0 (frame by frame, the
    /// buffer's order: one pass over memory, stopping once every marker has one). A C3D
    /// residual of 0 in such a marker is a filled sample; one whose residuals are all 0 keeps
    /// none to tell filled from measured.
    pub fn measured_markers(&self, markers: &[usize]) -> Vec<bool> {
        let n = self.points.len();
        let mut measured = vec![false; markers.len()];
        for row in self.residuals.chunks_exact(n.max(1)).take(self.frames) {
            for (seen, &p) in measured.iter_mut().zip(markers) {
                *seen |= row[p] > 0.0;
            }
            if !measured.contains(&false) {
                break;
            }
        }
        measured
    }

    /// Indices (into `points`) of the points that are markers, in file order: the motion's
    /// joint `j` is point `marker_indices()[j]`.
    pub fn marker_indices(&self) -> Vec<usize> {
        self.marker_points().collect()
    }

    /// [`Capture::marker_indices`] without a list (for work done every frame).
    pub fn marker_points(&self) -> impl Iterator<Item = usize> + '_ {
        self.points.iter().enumerate().filter(|(_, p)| p.kind == PointKind::Marker).map(|(i, _)| i)
    }

    /// The point that is marker (joint) `j`.
    pub fn marker_point(&self, j: usize) -> Option<usize> {
        self.marker_points().nth(j)
    }

    /// The largest residual of any marker in any frame (file units; 0 with none).
    pub fn max_residual(&self) -> f32 {
        self.residuals.iter().copied().fold(0.0, f32::max)
    }

    /// Position of `point` at `frame`, or `None` in a gap.
    pub fn position(&self, frame: usize, point: usize) -> Option<Vec3> {
        let n = self.points.len();
        if frame >= self.frames || point >= n {
            return None;
        }
        if self.residuals[frame * n + point] < 0.0 {
            return None;
        }
        let i = (frame * n + point) * 3;
        Some(Vec3::new(self.positions[i], self.positions[i + 1], self.positions[i + 2]))
    }

    /// True when `point` has no position at `frame`.
    pub fn is_gap(&self, frame: usize, point: usize) -> bool {
        let n = self.points.len();
        frame >= self.frames || point >= n || self.residuals[frame * n + point] < 0.0
    }

    /// Residual of `point` at `frame` (file units), `None` in a gap.
    pub fn residual(&self, frame: usize, point: usize) -> Option<f32> {
        self.position(frame, point)?;
        Some(self.residuals[frame * self.points.len() + point])
    }

    /// Frames where `point` is missing.
    pub fn gap_count(&self, point: usize) -> usize {
        if point >= self.points.len() {
            return 0;
        }
        (0..self.frames).filter(|&f| self.is_gap(f, point)).count()
    }

    /// Runs of missing frames of `point`, as `(first, last)` inclusive.
    pub fn gap_runs(&self, point: usize) -> Vec<(usize, usize)> {
        let mut runs = Vec::new();
        let mut start = None;
        for f in 0..self.frames {
            match (self.is_gap(f, point), start) {
                (true, None) => start = Some(f),
                (false, Some(s)) => {
                    runs.push((s, f - 1));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            runs.push((s, self.frames - 1));
        }
        runs
    }

    /// Every point's gaps in one pass over the samples (frame by frame, as they are stored).
    pub fn gap_stats(&self) -> Vec<GapStats> {
        let n = self.points.len();
        let mut stats = vec![GapStats::default(); n];
        let mut current = vec![0usize; n];
        for f in 0..self.frames {
            for (p, r) in self.residuals[f * n..(f + 1) * n].iter().enumerate() {
                if *r < 0.0 {
                    if current[p] == 0 {
                        stats[p].runs += 1;
                    }
                    current[p] += 1;
                    stats[p].missing += 1;
                    stats[p].longest = stats[p].longest.max(current[p]);
                } else {
                    current[p] = 0;
                }
            }
        }
        stats
    }

    /// Length of the capture in seconds.
    pub fn duration_secs(&self) -> f64 {
        if self.point_rate_hz > 0.0 { self.frames as f64 / self.point_rate_hz } else { 0.0 }
    }
}

/// One point's gaps over a capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GapStats {
    /// Frames missing.
    pub missing: usize,
    /// Runs of missing frames.
    pub runs: usize,
    /// Frames in the longest run.
    pub longest: usize,
}

/// Makes joint names unique by numbering repeats (`RKNE`, `RKNE (2)`); returns how many were
/// renamed.
pub fn unique_labels(labels: &mut [String]) -> usize {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    let mut renamed = 0;
    for label in labels.iter_mut() {
        let n = seen.entry(label.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            let mut k = *n;
            let mut candidate = format!("{label} ({k})");
            while seen.contains_key(&candidate) {
                k += 1;
                candidate = format!("{label} ({k})");
            }
            seen.insert(candidate.clone(), 1);
            *label = candidate;
            renamed += 1;
        }
    }
    renamed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capture() -> Capture {
        Capture {
            point_rate_hz: 100.0,
            first_frame: 1,
            points: vec![
                PointInfo { label: "A".into(), description: String::new(), kind: PointKind::Marker },
                PointInfo { label: "KneeAngle".into(), description: String::new(), kind: PointKind::Angle },
            ],
            unit: "mm".into(),
            frames: 3,
            positions: vec![1., 2., 3., 0., 0., 0., f32::NAN, f32::NAN, f32::NAN, 0., 0., 0., 4., 5., 6., 0., 0., 0.],
            residuals: vec![0.5, 0.0, -1.0, 0.0, 0.25, 0.0],
            ..Default::default()
        }
    }

    #[test]
    fn gaps_are_missing_positions() {
        let c = capture();
        assert_eq!(c.position(0, 0), Some(Vec3::new(1., 2., 3.)));
        assert!(c.is_gap(1, 0));
        assert_eq!(c.residual(2, 0), Some(0.25));
        assert_eq!(c.gap_count(0), 1);
        assert_eq!(c.gap_runs(0), vec![(1, 1)]);
        assert_eq!(c.gap_stats()[0], GapStats { missing: 1, runs: 1, longest: 1 });
        assert_eq!(c.gap_stats()[1], GapStats::default());
        assert_eq!(c.marker_indices(), vec![0]);
        assert!((c.duration_secs() - 0.03).abs() < 1e-12);
    }

    #[test]
    fn repeated_labels_are_numbered() {
        let mut l = vec!["RKNE".to_string(), "RKNE".into(), "X".into(), "RKNE".into()];
        assert_eq!(unique_labels(&mut l), 2);
        assert_eq!(l, ["RKNE", "RKNE (2)", "X", "RKNE (3)"]);
    }
}
