//! OpenSim motion and storage files (`.mot`, `.sto`): coordinates (joint angles, pelvis
//! translations) or forces over time, one row per time.
//!
//! ```text
//! Coordinates
//! version=1
//! nRows=151
//! nColumns=24
//! inDegrees=yes
//! endheader
//! time  pelvis_tilt  pelvis_tx  hip_flexion_r …
//! 0.00  -2.1         0.51       12.3          …
//! ```
//! Posing the coordinates needs the OpenSim model they belong to, which the file does not
//! hold: skelview reads the columns as channels on the capture's analog track, plotted on the
//! shared clock in the curves window beside markers or a skeleton, and says so.

mod format;

pub use format::{FORMAT, Mot};

use crate::core::capture::{Analog, AnalogChannel, Capture};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::describe;
use crate::formats::trc::{Line, fields, lines};

/// A `.mot`/`.sto` file read.
pub struct ParsedMot {
    /// The columns as analog channels of a capture without markers.
    pub capture: Capture,
    /// `nRows` as written.
    pub declared_rows: Option<u64>,
    /// Header facts (`version`, `inDegrees`, the title line).
    pub details: Vec<(String, String)>,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
}

/// The unit of a column, from OpenSim's naming habits: `*_tx` translations and `*_p?` centres
/// of pressure in metres, `*force_v?` in newtons, `*torque*`/`*moment*` in newton metres,
/// the rest angles (degrees or radians as `inDegrees` says).
fn unit_of(name: &str, degrees: bool) -> &'static str {
    let n = name.to_ascii_lowercase();
    let last = n.rsplit('_').next().unwrap_or("");
    if n.contains("torque") || n.contains("moment") {
        "N·m"
    } else if n.contains("force_v") || (n.contains("force") && ["vx", "vy", "vz"].contains(&last)) {
        "N"
    } else if ["tx", "ty", "tz", "px", "py", "pz"].contains(&last) {
        "m"
    } else if degrees {
        "deg"
    } else {
        "rad"
    }
}

/// What the header above `endheader` declared.
struct MotHeader {
    declared_rows: Option<u64>,
    declared_columns: Option<u64>,
    degrees: bool,
    /// Every `key=value` line, and the title line.
    details: Vec<(String, String)>,
}

/// Parses an OpenSim `.mot` or `.sto` file.
pub fn parse_mot(b: &[u8]) -> Result<ParsedMot, ParseError> {
    let b = b.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(b);
    let mut warnings = Vec::new();
    let mut it = lines(b).peekable();
    let MotHeader { declared_rows, declared_columns, degrees, mut details } = read_header(b, &mut it)?;
    let names_line = loop {
        match it.next() {
            Some(l) if l.text.iter().all(u8::is_ascii_whitespace) => continue,
            Some(l) => break l,
            None => return Err(ParseError::eof(b.len() as u64, "the line of column names (time …)")),
        }
    };
    let names = mot_fields(&names_line);
    let names: Vec<(usize, String)> = names.into_iter().filter(|(_, n)| !n.is_empty()).collect();
    details.push(("Separator".to_owned(), separator(&names_line).to_owned()));
    if !names.first().is_some_and(|(_, n)| n.eq_ignore_ascii_case("time")) {
        return Err(ParseError::expected(names_line.at as u64, "'time' as the first column name", describe(names_line.text)));
    }
    if let Some(n) = declared_columns.filter(|&n| n as usize != names.len()) {
        warnings.push(RawWarning {
            offset: names_line.at as u64,
            message: format!("the header says {n} columns, the names line has {}", names.len()),
        });
    }
    // A row needs at least a byte of the file per value: a larger count is not a count.
    if declared_rows.is_some_and(|r| r as usize > b.len()) {
        return Err(ParseError::invalid(
            0,
            format!("nRows is {}, more rows than a file of {} bytes can hold", declared_rows.unwrap_or(0), b.len()),
        ));
    }
    let (times, values) = read_rows(it, names.len(), declared_rows)?;
    if times.is_empty() {
        return Err(ParseError::eof(b.len() as u64, "a row of values after the column names"));
    }
    if let Some(n) = declared_rows.filter(|&n| n as usize != times.len()) {
        warnings.push(RawWarning { offset: 0, message: format!("the header says {n} rows, the file holds {}", times.len()) });
    }
    let rows = times.len();
    let rate = mean_rate(&times, &mut warnings);
    let channels = names[1..]
        .iter()
        .map(|(_, n)| AnalogChannel { label: n.clone(), description: String::new(), unit: unit_of(n, degrees).to_owned() })
        .collect();
    let capture = Capture {
        point_rate_hz: rate,
        first_frame: 1,
        frames: rows,
        analog: Analog { rate_hz: rate, samples_per_frame: 1, channels, values },
        ..Capture::default()
    };
    details.push(("Start time".to_owned(), format!("{} s", times[0])));
    Ok(ParsedMot { capture, declared_rows, details, warnings })
}

/// Reads the header up to and including `endheader`: counts, angle unit, and the lines as details.
fn read_header<'a>(b: &[u8], it: &mut impl Iterator<Item = Line<'a>>) -> Result<MotHeader, ParseError> {
    let mut details = Vec::new();
    let (mut declared_rows, mut declared_columns, mut degrees) = (None, None, true);
    let mut ended = false;
    for (k, line) in it.enumerate() {
        let text = String::from_utf8_lossy(line.text);
        // A header written through a CSV writer (pyomeca: `nRows=250,,,,`) pads each line
        // with empty fields: they are not part of the value.
        let text = text.trim().trim_end_matches(|c: char| c == ',' || c.is_whitespace());
        if text.eq_ignore_ascii_case("endheader") {
            ended = true;
            break;
        }
        let Some((key, value)) = text.split_once('=') else {
            if k == 0 && !text.is_empty() {
                details.push(("Title".to_owned(), text.to_owned()));
            }
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let count = || {
            value.parse::<u64>().map_err(|_| {
                ParseError::expected(line.at as u64 + key.len() as u64 + 1, format!("a count for {key}"), describe(value.as_bytes()))
            })
        };
        match key.to_ascii_lowercase().as_str() {
            "nrows" | "datarows" => declared_rows = Some(count()?),
            "ncolumns" | "datacolumns" => declared_columns = Some(count()?),
            "indegrees" => degrees = !value.eq_ignore_ascii_case("no"),
            _ => {}
        }
        details.push((key.to_owned(), value.to_owned()));
    }
    if !ended {
        return Err(ParseError::eof(b.len() as u64, "'endheader' closing the header (an OpenSim .mot or .sto file)"));
    }
    Ok(MotHeader { declared_rows, declared_columns, degrees, details })
}

/// How a line's fields are separated: OpenSim writes tabs, older tools spaces, pyomeca and
/// spreadsheets commas.
fn separator(line: &Line<'_>) -> &'static str {
    if line.text.contains(&b'\t') {
        "tabs"
    } else if line.text.contains(&b',') {
        "commas (as pyomeca and spreadsheets write .mot files)"
    } else {
        "spaces"
    }
}

/// A line's fields with their offsets: split at tabs when there are any, else at commas when
/// there are any, else at runs of spaces.
fn mot_fields(line: &Line<'_>) -> Vec<(usize, String)> {
    let t = line.text;
    if t.contains(&b'\t') || !t.contains(&b',') {
        return fields(line);
    }
    let mut out = Vec::new();
    let mut start = 0;
    for part in t.split(|&c| c == b',') {
        let lead = part.iter().take_while(|c| c.is_ascii_whitespace()).count();
        out.push((line.at + start + lead, String::from_utf8_lossy(part).trim().to_owned()));
        start += part.len() + 1;
    }
    out
}

/// Reads the rows of `width` values (time first, times strictly increasing): the times, and
/// the other values row-major.
fn read_rows<'a>(it: impl Iterator<Item = Line<'a>>, width: usize, declared_rows: Option<u64>) -> Result<(Vec<f64>, Vec<f32>), ParseError> {
    let columns = width - 1;
    let mut times: Vec<f64> = Vec::new();
    let mut values: Vec<f32> = Vec::with_capacity(declared_rows.unwrap_or(0) as usize * columns);
    for line in it {
        let row = mot_fields(&line);
        let row: Vec<&(usize, String)> = row.iter().filter(|(_, v)| !v.is_empty()).collect();
        if row.is_empty() {
            continue;
        }
        if row.len() != width {
            let end = line.at + line.text.len();
            return Err(ParseError::expected(
                end as u64,
                format!("{width} values (time and {columns} columns)"),
                format!("{} values", row.len()),
            ));
        }
        for (k, (at, v)) in row.iter().enumerate() {
            let x: f64 = v.parse().map_err(|_| ParseError::expected(*at as u64, "a number", describe(v.as_bytes())))?;
            if x.is_finite() && x.abs() > f64::from(f32::MAX) {
                return Err(ParseError::invalid(*at as u64, format!("{v} is beyond the range of a 32-bit float")));
            }
            if k == 0 {
                if !x.is_finite() || times.last().is_some_and(|&t| x <= t) {
                    return Err(ParseError::invalid(*at as u64, format!("time {v} does not come after the row before")));
                }
                times.push(x);
            } else {
                values.push(x as f32);
            }
        }
    }
    Ok((times, values))
}

/// The mean row rate of `times` (1 for a single row); rows not evenly spaced within a
/// thousandth of a step are shown at it, with a warning.
fn mean_rate(times: &[f64], warnings: &mut Vec<RawWarning>) -> f64 {
    let rows = times.len();
    let span = times[rows - 1] - times[0];
    let rate = if rows > 1 && span > 0.0 { (rows - 1) as f64 / span } else { 1.0 };
    let step = 1.0 / rate;
    if times.windows(2).any(|w| ((w[1] - w[0]) - step).abs() > 1e-3 * step.max(1e-9)) {
        warnings.push(RawWarning {
            offset: 0,
            message: format!("the times are not evenly spaced: the rows are shown at their mean rate, {rate:.4} per second"),
        });
    }
    rate
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAIT: &str = "Coordinates\nversion=1\nnRows=3\nnColumns=4\ninDegrees=yes\nendheader\ntime\tpelvis_tilt\tpelvis_tx\tknee_angle_r\n0.00\t-2.0\t0.50\t10.0\n0.01\t-2.5\t0.51\t12.0\n0.02\t-3.0\t0.52\t14.0\n";

    #[test]
    fn columns_become_channels_with_units_from_their_names() {
        let p = parse_mot(GAIT.as_bytes()).unwrap();
        let a = &p.capture.analog;
        let labels: Vec<(&str, &str)> = a.channels.iter().map(|c| (c.label.as_str(), c.unit.as_str())).collect();
        assert_eq!(labels, [("pelvis_tilt", "deg"), ("pelvis_tx", "m"), ("knee_angle_r", "deg")]);
        assert!((a.rate_hz - 100.0).abs() < 1e-9 && p.capture.frames == 3 && a.samples_per_frame == 1);
        assert_eq!(a.channel(2), [10.0, 12.0, 14.0]);
        assert!(p.warnings.is_empty());
        assert!(p.details.contains(&("Title".to_owned(), "Coordinates".to_owned())));
    }

    #[test]
    fn commas_as_pyomeca_writes_them_read_as_tabs_do() {
        // pyomeca writes the header through a CSV writer: `nRows=3,,,` and comma rows.
        let commas = "Coordinates,,,\nversion=1,,,\nnRows=3,,,\nnColumns=4,,,\ninDegrees=yes,,,\nendheader,,,\ntime,pelvis_tilt,pelvis_tx,knee_angle_r\n0.00,-2.0,0.50,10.0\n0.01, -2.5, 0.51, 12.0\n0.02,-3.0,0.52,14.0\n";
        let (c, t) = (parse_mot(commas.as_bytes()).unwrap(), parse_mot(GAIT.as_bytes()).unwrap());
        assert_eq!(c.capture.analog.values, t.capture.analog.values);
        assert_eq!((c.declared_rows, c.capture.frames), (Some(3), 3));
        assert!(c.warnings.is_empty(), "{:?}", c.warnings.iter().map(|w| &w.message).collect::<Vec<_>>());
        assert!(c.details.contains(&("Title".to_owned(), "Coordinates".to_owned())));
        let separator = |p: &ParsedMot| p.details.iter().find(|(k, _)| k == "Separator").map(|(_, v)| v.clone()).unwrap_or_default();
        assert!(separator(&c).starts_with("commas") && separator(&t) == "tabs");
        // Spaces, and a bad value still named by its byte offset.
        let spaces = GAIT.replace('\t', "  ");
        assert_eq!(parse_mot(spaces.as_bytes()).unwrap().capture.analog.values, t.capture.analog.values);
        let bad = commas.replace("0.51", "x");
        let e = parse_mot(bad.as_bytes()).err().unwrap();
        assert_eq!((e.offset, e.to_string().contains("'x'")), (bad.find(" x").unwrap() as u64 + 1, true), "{e}");
    }

    #[test]
    fn bad_files_say_where_and_what_was_expected() {
        let e = parse_mot(b"Coordinates\nversion=1\n").err().unwrap().to_string();
        assert!(e.contains("endheader"), "{e}");
        let e = parse_mot(b"endheader\nframe\ta\n0\t1\n").err().unwrap().to_string();
        assert!(e.contains("'time'"), "{e}");
        let e = parse_mot(b"endheader\ntime\ta\n0\t1\n0.1\tx\n").err().unwrap().to_string();
        assert!(e.contains("a number") && e.contains("'x'"), "{e}");
        let e = parse_mot(b"endheader\ntime\ta\n0\t1\n0.1\t1e39\n").err().unwrap().to_string();
        assert!(e.contains("32-bit"), "{e}");
        let e = parse_mot(b"endheader\ntime\ta\tb\n0\t1\n").err().unwrap().to_string();
        assert!(e.contains("3 values"), "{e}");
        let e = parse_mot(b"endheader\ntime\ta\n0\t1\n0\t2\n").err().unwrap().to_string();
        assert!(e.contains("does not come after"), "{e}");
        let e = parse_mot(b"nRows=99999999999\nendheader\ntime\ta\n0\t1\n").err().unwrap().to_string();
        assert!(e.contains("nRows"), "{e}");
        let uneven = parse_mot(b"endheader\ntime\ta\n0\t1\n0.1\t1\n0.3\t1\n").unwrap();
        assert!(uneven.warnings.iter().any(|w| w.message.contains("not evenly spaced")));
    }
}
