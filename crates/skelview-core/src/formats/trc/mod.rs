//! TRC (`.trc`): the marker text format of Motion Analysis and OpenSim.
//!
//! ```text
//! PathFileType  4  (X/Y/Z)  walk.trc
//! DataRate  CameraRate  NumFrames  NumMarkers  Units  OrigDataRate  OrigDataStartFrame  OrigNumFrames
//! 60.00  60.00  151  2  mm  60.00  1  151
//! Frame#  Time  LFHD        RFHD
//!               X1  Y1  Z1  X2  Y2  Z2
//!
//! 1  0.000  1.0  2.0  3.0  4.0  5.0  6.0
//! ```
//! Fields are separated by tabs; a gap is an empty field (or `NaN`), and writers drop the
//! empty fields at the end of a row. Rows separated by spaces only are read too (then a gap
//! must be written `NaN`). The header names no axes: the up axis is detected.

mod format;

pub use format::{FORMAT, Trc};

use crate::core::capture::{Capture, PointInfo, PointKind};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::describe;

/// A TRC file read.
pub struct ParsedTrc {
    /// The markers.
    pub capture: Capture,
    /// `NumFrames` as written.
    pub declared_frames: Option<u64>,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
}

/// A line with its byte offset.
pub(crate) struct Line<'a> {
    pub(crate) at: usize,
    pub(crate) text: &'a [u8],
}

pub(crate) fn lines(b: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= b.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |p| at + p);
        let mut text = &b[at..end];
        if text.last() == Some(&b'\r') {
            text = &text[..text.len() - 1];
        }
        let line = Line { at, text };
        at = end + 1;
        Some(line)
    })
}

/// Fields of a line with their offsets: split at tabs when there are any (empty fields
/// kept), else at runs of spaces.
pub(crate) fn fields(line: &Line<'_>) -> Vec<(usize, String)> {
    let t = line.text;
    if t.contains(&b'\t') {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, &c) in t.iter().enumerate().chain(std::iter::once((t.len(), &b'\t'))) {
            if c == b'\t' {
                out.push((line.at + start, String::from_utf8_lossy(&t[start..i]).trim().to_owned()));
                start = i + 1;
            }
        }
        out
    } else {
        let mut out = Vec::new();
        let mut i = 0;
        while i < t.len() {
            while i < t.len() && t[i] == b' ' {
                i += 1;
            }
            let s = i;
            while i < t.len() && t[i] != b' ' {
                i += 1;
            }
            if i > s {
                out.push((line.at + s, String::from_utf8_lossy(&t[s..i]).into_owned()));
            }
        }
        out
    }
}

/// What the header lines say: rate, counts as written, unit, and where NumMarkers sits.
struct HeaderValues {
    rate: f64,
    declared_frames: Option<u64>,
    declared_markers: Option<usize>,
    unit: String,
    markers_at: usize,
}

/// Parses a TRC file.
pub fn parse_trc(b: &[u8]) -> Result<ParsedTrc, ParseError> {
    let b = b.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(b);
    let mut warnings = Vec::new();
    let mut it = lines(b);
    let h = read_header(b, &mut it)?;
    let names_line = it.next().ok_or_else(|| ParseError::eof(b.len() as u64, "the line of marker names (Frame# Time …)"))?;
    let (points, markers) = marker_points(&names_line, b.len(), &h, &mut warnings)?;
    let _axes = it.next();
    let (mut positions, first_frame, frames) = read_rows(it, markers, &mut warnings)?;
    if let Some(n) = h.declared_frames
        && n as usize != frames
    {
        warnings.push(RawWarning {
            offset: b.len() as u64,
            message: format!("NumFrames is {n} but the file has {frames} rows: {frames} frames are read"),
        });
    }
    let residuals = gap_residuals(&mut positions);
    let capture = Capture {
        point_rate_hz: h.rate,
        first_frame: first_frame.unwrap_or(1),
        points,
        unit: h.unit,
        frames,
        positions,
        residuals,
        ..Default::default()
    };
    Ok(ParsedTrc { capture, declared_frames: h.declared_frames, warnings })
}

/// Reads the `PathFileType` line and the header name and value lines.
fn read_header<'a>(b: &[u8], it: &mut impl Iterator<Item = Line<'a>>) -> Result<HeaderValues, ParseError> {
    let first = it.next().ok_or_else(|| ParseError::eof(0, "'PathFileType' on the first line"))?;
    if !first.text.starts_with(b"PathFileType") {
        return Err(ParseError::expected(0, "'PathFileType' on the first line (a TRC file)", describe(first.text)));
    }
    let keys = it.next().ok_or_else(|| ParseError::eof(b.len() as u64, "the line of header names (DataRate …)"))?;
    let values = it.next().ok_or_else(|| ParseError::eof(b.len() as u64, "the line of header values"))?;
    let (keys, values) = (fields(&keys), fields(&values));
    let value = |name: &str| keys.iter().position(|(_, k)| k.eq_ignore_ascii_case(name)).and_then(|i| values.get(i));
    let number = |name: &str| -> Result<Option<f64>, ParseError> {
        match value(name) {
            None => Ok(None),
            Some((at, v)) => v
                .parse::<f64>()
                .map(Some)
                .map_err(|_| ParseError::expected(*at as u64, format!("a number for {name}"), describe(v.as_bytes()))),
        }
    };
    let rate = number("DataRate")?
        .or(number("CameraRate")?)
        .ok_or_else(|| ParseError::expected(values.first().map_or(0, |f| f.0) as u64, "a DataRate value", "none"))?;
    if !(rate.is_finite() && rate > 0.0) {
        return Err(ParseError::invalid(
            value("DataRate").map_or(0, |f| f.0) as u64,
            format!("DataRate must be a positive number of frames per second, found {rate}"),
        ));
    }
    let declared_frames = number("NumFrames")?.filter(|n| *n >= 0.0).map(|n| n as u64);
    let declared_markers = number("NumMarkers")?.filter(|n| *n >= 0.0).map(|n| n as usize);
    // None given: detected from the body's size (see the capture's motion).
    let unit = value("Units").map_or_else(String::new, |(_, u)| u.clone());
    let markers_at = value("NumMarkers").map_or(0, |v| v.0);
    Ok(HeaderValues { rate, declared_frames, declared_markers, unit, markers_at })
}

/// The markers, named from the `Frame# Time …` line and counted by NumMarkers when given
/// (unnamed ones get a number); also their count.
fn marker_points(
    names_line: &Line<'_>,
    len: usize,
    h: &HeaderValues,
    warnings: &mut Vec<RawWarning>,
) -> Result<(Vec<PointInfo>, usize), ParseError> {
    let names = fields(names_line);
    if !names.first().is_some_and(|(_, f)| f.starts_with("Frame")) {
        return Err(ParseError::expected(names_line.at as u64, "'Frame#' starting the marker-name line", describe(names_line.text)));
    }
    let mut labels: Vec<String> = names.iter().skip(2).map(|(_, n)| n.clone()).filter(|n| !n.is_empty()).collect();
    let markers = h.declared_markers.unwrap_or(labels.len());
    // Every marker needs at least a byte of the file: a larger count is not a count.
    if markers > len {
        return Err(ParseError::invalid(
            h.markers_at as u64,
            format!("NumMarkers is {markers}, more markers than a file of {len} bytes can hold"),
        ));
    }
    if labels.len() != markers {
        warnings.push(RawWarning {
            offset: names_line.at as u64,
            message: format!("NumMarkers is {markers} but the name line names {}: {markers} markers are read", labels.len()),
        });
    }
    labels.resize_with(markers, String::new);
    let points = labels
        .into_iter()
        .enumerate()
        .map(|(i, l)| PointInfo {
            label: if l.is_empty() { format!("marker {}", i + 1) } else { l },
            description: String::new(),
            kind: PointKind::Marker,
        })
        .collect();
    Ok((points, markers))
}

/// Reads the data rows: positions (NaN for an empty or missing field), the first frame number,
/// and the number of rows.
fn read_rows<'a>(
    it: impl Iterator<Item = Line<'a>>,
    markers: usize,
    warnings: &mut Vec<RawWarning>,
) -> Result<(Vec<f32>, Option<u32>, usize), ParseError> {
    let mut positions = Vec::new();
    let mut first_frame = None;
    let mut frames = 0usize;
    let width = 2 + markers * 3;
    for line in it {
        if line.text.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let f = fields(&line);
        if f.len() > width && f[width..].iter().any(|(_, v)| !v.is_empty()) {
            warnings.push(RawWarning {
                offset: f[width].0 as u64,
                message: format!("row has {} fields for {markers} markers: the extra ones are ignored", f.len()),
            });
        }
        if first_frame.is_none() {
            first_frame = f.first().and_then(|(_, v)| v.parse::<f64>().ok()).map(|v| v.max(0.0) as u32);
        }
        for k in 0..markers * 3 {
            let v = match f.get(2 + k) {
                None => f32::NAN,
                Some((_, v)) if v.is_empty() => f32::NAN,
                Some((at, v)) => {
                    let x: f64 = v.parse().map_err(|_| {
                        ParseError::expected(*at as u64, "a coordinate (a number, or an empty field for a gap)", describe(v.as_bytes()))
                    })?;
                    if x.is_finite() && x.abs() > f64::from(f32::MAX) {
                        return Err(ParseError::invalid(*at as u64, format!("{v} is beyond the range of a 32-bit float")));
                    }
                    x as f32
                }
            };
            positions.push(v);
        }
        frames += 1;
    }
    Ok((positions, first_frame, frames))
}

/// Residuals for `positions` (0, or -1 for a gap); a sample is a gap when any coordinate is,
/// and then all three become NaN, so the capture's rule holds.
fn gap_residuals(positions: &mut [f32]) -> Vec<f32> {
    let mut residuals = Vec::with_capacity(positions.len() / 3);
    for p in positions.chunks_exact_mut(3) {
        if p.iter().all(|v| v.is_finite()) {
            residuals.push(0.0);
        } else {
            p.fill(f32::NAN);
            residuals.push(-1.0);
        }
    }
    residuals
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// Written by hand from the format's description, as OpenSim's examples lay it out
    /// (tabs, a trailing gap dropped, a gap in the middle as empty fields).
    const OUTSIDE: &str = include_str!("../../../../../tests/data/trc/outside_writer.trc");

    #[test]
    fn an_outside_writers_file_reads_with_its_gaps() {
        let t = parse_trc(OUTSIDE.as_bytes()).unwrap();
        let c = &t.capture;
        assert_eq!((c.frames, c.points.len(), c.unit.as_str(), c.point_rate_hz), (3, 2, "mm", 60.0));
        assert_eq!(c.points[1].label, "RFHD");
        assert_eq!(c.position(0, 1), Some(Vec3::new(4.0, 5.0, 6.0)));
        assert!(c.is_gap(1, 0) && c.is_gap(2, 1));
        assert_eq!(c.position(2, 0), Some(Vec3::new(1.2, 2.2, 3.2)));
        assert!(t.warnings.is_empty(), "{:?}", t.warnings);
    }

    #[test]
    fn bad_numbers_and_headers_say_where() {
        let bad = OUTSIDE.replace("4.5", "4.5x");
        let e = parse_trc(bad.as_bytes()).err().unwrap();
        assert!(e.to_string().contains("a coordinate"), "{e}");
        assert_eq!(e.offset as usize, bad.find("4.5x").unwrap());
        assert!(parse_trc(b"hello").is_err());
        assert!(parse_trc(b"PathFileType\t4\n").err().unwrap().to_string().contains("end of file"));
        // A header value read as NumMarkers that no file could hold (found by fuzzing: it
        // asked for 10^40 labels).
        let shifted = OUTSIDE.replace("\t3\t2\tmm", "\t3\t61e39\tmm");
        assert!(parse_trc(shifted.as_bytes()).err().unwrap().to_string().contains("NumMarkers is"));
        let huge = OUTSIDE.replace("4.5", "1e300");
        assert!(parse_trc(huge.as_bytes()).err().unwrap().to_string().contains("32-bit"));
    }

    #[test]
    fn a_frame_count_that_disagrees_is_warned() {
        let t = parse_trc(OUTSIDE.replace("\t3\t2\tmm", "\t5\t2\tmm").as_bytes()).unwrap();
        assert_eq!(t.capture.frames, 3);
        assert!(t.warnings[0].message.contains("NumFrames is 5"));
    }
}
