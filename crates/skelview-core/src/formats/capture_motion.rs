//! A marker capture (C3D, TRC) as a [`Motion`]: one root joint per marker with three
//! position channels, gaps held in the clip and marked missing, the capture kept beside it.

use std::path::Path;
use std::sync::Arc;

use glam::Vec3;

use super::error::{LoadError, RawWarning};
use super::finish::{self, Parsed};
use super::{LoadObserver, Source};
use crate::core::capture::{Capture, unique_labels};
use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{ChannelKind, Clip, Format, Joint, MissingRun, Motion, PositionRule, Skeleton, Warning};

/// What a capture reader declared besides the capture.
pub struct Declared {
    /// Up axis (C3D `POINT:Y_SCREEN`), when declared.
    pub up: Option<UpAxis>,
    /// The axis pointing right on screen (C3D `POINT:X_SCREEN`), when declared.
    pub right: Option<UpAxis>,
    /// Frame count the file states.
    pub frames: Option<u64>,
    /// Header facts.
    pub details: Vec<(String, String)>,
    /// The up axis the format's files have by convention, with why (a TRC: +Y), used where
    /// the markers' names do not say.
    pub convention: Option<(UpAxis, &'static str)>,
}

/// The motion of a capture, warnings already located.
pub fn motion(format: Format, path: &Path, mut capture: Capture, declared: Declared, mut warnings: Vec<Warning>) -> Motion {
    let markers = capture.marker_indices();
    let mut names: Vec<String> = markers.iter().map(|&i| capture.points[i].label.clone()).collect();
    let renamed = unique_labels(&mut names);
    if renamed > 0 {
        warnings.push(Warning {
            path: path.to_owned(),
            line: 1,
            col: 1,
            message: format!("{renamed} markers repeat another's label: numbered as 'LABEL (2)' in the joint list"),
        });
    }
    let joints = names
        .into_iter()
        .map(|name| {
            let mut j = Joint::new(name, None, Vec3::ZERO);
            j.channels = vec![ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ];
            j.is_marker = true;
            j
        })
        .collect();
    let skeleton = Skeleton::new(joints, PositionRule::Replace).expect("root joints are always in order");
    let values = marker_values(&capture, &markers);
    let frame_time = if capture.point_rate_hz > 0.0 { 1.0 / capture.point_rate_hz } else { 0.0 };
    let mut clip = Clip::new(frame_time, markers.len() * 3, capture.frames, values);
    // Gaps are the capture's own: held and marked here, so the generic "not a number"
    // warning does not claim them.
    clip.hold_missing();
    let interpolated = mark_interpolated(&mut clip, &capture, &markers);
    let mut parsed = Parsed::new(skeleton, clip, "deg");
    // An empty unit (none declared) is detected from the body's size, as for skeletons.
    parsed.unit = LengthUnit::parse(&capture.unit);
    parsed.declared_units = Some(capture.unit.clone()).filter(|u| !u.is_empty());
    parsed.up = declared.up;
    parsed.screen_right = declared.right;
    parsed.declared_frames = declared.frames;
    parsed.details = declared.details;
    if interpolated > 0 {
        parsed.details.push(("interpolated".into(), format!("{interpolated} samples (residual 0: filled in, not measured)")));
    }
    parsed.left_out = crate::core::bounds::far_points(&parsed.skeleton, &parsed.clip);
    parsed.up_convention = declared.convention;
    let mut motion = finish::motion(format, vec![path.to_owned()], parsed, warnings);
    if capture.unit.is_empty() {
        capture.unit = motion.source.unit.symbol().to_owned();
    }
    motion.capture = Some(Arc::new(capture));
    motion
}

/// The markers' positions frame by frame, NaN in gaps, in pieces of frames on every core.
fn marker_values(capture: &Capture, markers: &[usize]) -> Vec<f32> {
    use crate::par::*;
    let (n, row) = (capture.points.len(), markers.len() * 3);
    let mut values = vec![0.0f32; capture.frames * row];
    if row == 0 {
        return values;
    }
    values.par_chunks_mut(crate::core::clip::ROWS_PER_PIECE * row).enumerate().for_each(|(piece, rows)| {
        for (f, row) in rows.chunks_exact_mut(row).enumerate() {
            let first = (piece * crate::core::clip::ROWS_PER_PIECE + f) * n;
            for (out, &p) in row.chunks_exact_mut(3).zip(markers) {
                let i = first + p;
                if capture.residuals[i] < 0.0 {
                    out.fill(f32::NAN);
                } else {
                    out.copy_from_slice(&capture.positions[i * 3..i * 3 + 3]);
                }
            }
        }
    });
    values
}

/// Marks as filled the samples whose residual is exactly 0 in markers that are measured
/// elsewhere (some residual above 0): the C3D spec's "interpolated or calculated", which is
/// also what our writer writes for a filled sample. A marker whose residuals are all 0 (a
/// writer that keeps none, a TRC, a virtual marker) says nothing by it and is left unmarked.
/// Returns how many samples were marked.
fn mark_interpolated(clip: &mut Clip, capture: &Capture, markers: &[usize]) -> usize {
    let n = capture.points.len();
    let rows = capture.residuals.chunks_exact(n.max(1)).take(capture.frames);
    let measured = capture.measured_markers(markers);
    if !measured.contains(&true) {
        return 0;
    }
    let (mut runs, mut open, mut count) = (Vec::new(), vec![None::<u32>; markers.len()], 0);
    let mut close = |k: usize, first: u32, last: u32, runs: &mut Vec<MissingRun>| {
        count += (last - first + 1) as usize;
        runs.extend((0..3).map(|c| MissingRun { channel: (k * 3 + c) as u32, first, last }));
    };
    for (f, row) in rows.enumerate() {
        for (k, &p) in markers.iter().enumerate() {
            let on = measured[k] && row[p] == 0.0;
            match (on, open[k]) {
                (true, None) => open[k] = Some(f as u32),
                (false, Some(first)) => {
                    close(k, first, f as u32 - 1, &mut runs);
                    open[k] = None;
                }
                _ => {}
            }
        }
    }
    for (k, first) in open.into_iter().enumerate() {
        if let Some(first) = first {
            close(k, first, capture.frames as u32 - 1, &mut runs);
        }
    }
    clip.set_filled(runs);
    count
}

/// What a capture reader hands back: the capture, what the file declared, located warnings.
pub type Read = (Capture, Declared, Vec<Warning>);

/// The load of a capture format around its reader: the bytes, progress and cancel, the
/// motion, the skeleton announced.
pub fn load(
    format: Format,
    source: &Source,
    observer: &mut dyn LoadObserver,
    read: impl FnOnce(&Path, &[u8]) -> Result<Read, LoadError>,
) -> Result<crate::core::Motion, LoadError> {
    load_source(format, source, observer, |path, source, observer| {
        let bytes = source.read_all()?;
        let total = bytes.len() as u64;
        if observer.progress(0, Some(total)).is_break() {
            return Err(LoadError::Cancelled { path: path.to_owned() });
        }
        let read = read(path, &bytes)?;
        if observer.progress(total, Some(total)).is_break() {
            return Err(LoadError::Cancelled { path: path.to_owned() });
        }
        Ok(read)
    })
}

/// [`load`] for a reader that reads the source itself (a C3D's frames block by block),
/// telling `observer` its progress.
pub fn load_source(
    format: Format,
    source: &Source,
    observer: &mut dyn LoadObserver,
    read: impl FnOnce(&Path, &Source, &mut dyn LoadObserver) -> Result<Read, LoadError>,
) -> Result<crate::core::Motion, LoadError> {
    let path = source.path().to_owned();
    let (capture, declared, warnings) = read(&path, source, observer)?;
    let m = motion(format, &path, capture, declared, warnings);
    observer.skeleton_ready(&m.skeleton, &m.clip);
    Ok(m)
}

/// Warnings at byte offsets of a binary file: the offset is said in the message (line and
/// column mean nothing there).
pub fn binary_warnings(path: &Path, raw: Vec<RawWarning>) -> Vec<Warning> {
    raw.into_iter()
        .map(|w| Warning { path: path.to_owned(), line: 1, col: 1, message: format!("at byte {}: {}", w.offset, w.message) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::capture::{PointInfo, PointKind};

    /// Unlike the corpus: metres, Y up, no unit and no axes declared (an OpenSim-style TRC or
    /// a C3D without POINT:UNITS/Y_SCREEN): both are detected, and said to be.
    #[test]
    fn undeclared_units_and_axes_are_detected_from_the_body() {
        let heights = [0.05f32, 0.5, 0.95, 1.3, 1.5, 1.72];
        let points = heights
            .iter()
            .enumerate()
            .map(|(i, _)| PointInfo { label: format!("M{i}"), description: String::new(), kind: PointKind::Marker })
            .collect();
        let frames = 20;
        let mut positions = Vec::new();
        for f in 0..frames {
            for (i, h) in heights.iter().enumerate() {
                positions.extend([f as f32 * 0.03, *h, 0.1 * (i % 2) as f32]);
            }
        }
        let capture = Capture {
            point_rate_hz: 100.0,
            points,
            unit: String::new(),
            frames,
            residuals: vec![0.0; positions.len() / 3],
            positions,
            ..Default::default()
        };
        let declared = Declared { up: None, right: None, frames: None, details: Vec::new(), convention: None };
        let m = motion(crate::formats::trc::FORMAT, Path::new("x.trc"), capture, declared, Vec::new());
        assert_eq!(m.source.unit, LengthUnit::Metre);
        assert!(m.source.unit_detected && m.source.up_detected);
        assert_eq!(m.source.up_axis, UpAxis::Y);
        assert_eq!(m.capture.as_ref().unwrap().unit, "m", "the capture takes the detected unit");
    }

    /// Residual 0 in a marker measured elsewhere is the C3D spec's "interpolated": marked as
    /// filled, and said. A marker with no residual above 0 (a virtual one, or a writer that
    /// keeps none) is not, and neither is a gap (−1).
    #[test]
    fn residual_zero_in_a_measured_marker_reads_as_filled() {
        let points =
            ["A", "V"].iter().map(|l| PointInfo { label: (*l).into(), description: String::new(), kind: PointKind::Marker }).collect();
        let frames = 6;
        let positions: Vec<f32> = (0..frames * 2).flat_map(|i| [i as f32, 1000.0 + i as f32, 50.0]).collect();
        // Frame by frame: A then V.
        let residuals = vec![0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.7, 0.0, -1.0, 0.0, 0.0, 0.0];
        let capture = Capture { point_rate_hz: 100.0, points, unit: "mm".into(), frames, residuals, positions, ..Default::default() };
        let declared = Declared { up: None, right: None, frames: None, details: Vec::new(), convention: None };
        let m = motion(crate::formats::c3d::FORMAT, Path::new("x.c3d"), capture, declared, Vec::new());
        let filled: Vec<(u32, u32, u32)> = m.clip.filled().iter().map(|r| (r.channel, r.first, r.last)).collect();
        assert_eq!(filled, vec![(0, 1, 2), (1, 1, 2), (2, 1, 2), (0, 5, 5), (1, 5, 5), (2, 5, 5)]);
        assert!(m.clip.is_missing(4, 0) && !m.clip.is_filled(4, 0));
        let said = m.source.details.iter().find(|(k, _)| k == "interpolated").map(|(_, v)| v.as_str());
        assert_eq!(said, Some("3 samples (residual 0: filled in, not measured)"));
        assert_eq!(crate::export::c3d_writer::fills_unmarked(&m), 0, "A keeps residuals");
        // A capture whose residuals are all 0 or −1, filled by an edit: a C3D cannot keep it.
        let mut blind = m.clone();
        let mut c = (**blind.capture.as_ref().unwrap()).clone();
        c.residuals.iter_mut().filter(|r| **r > 0.0).for_each(|r| *r = 0.0);
        blind.capture = Some(std::sync::Arc::new(c));
        assert_eq!(crate::export::c3d_writer::fills_unmarked(&blind), 3, "A's three, its measured residuals gone");
        blind.clip.mark_filled(&[false, false, false, true, true, true].repeat(6));
        assert_eq!(crate::export::c3d_writer::fills_unmarked(&blind), 6, "V's six filled samples");
    }
}
