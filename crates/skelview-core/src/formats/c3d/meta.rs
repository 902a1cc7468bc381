//! What the parameters say about the data: point labels and kinds, analog channels and their
//! scaling, force platforms, events and the lab's axes.

use glam::Vec3;

use super::params::{Param, Params, Processor};
use crate::core::capture::{Analog, AnalogChannel, Capture, Event, ForcePlate, PointInfo, PointKind, ScreenAxes};
use crate::formats::error::RawWarning;

fn at(params: &Params, group: &str, name: &str) -> u64 {
    params.get(group, name).map_or(0, |p| p.offset as u64)
}

/// Labels, descriptions, kinds and the unit of the points.
pub fn points(params: &Params, n: usize, capture: &mut Capture, warnings: &mut Vec<RawWarning>) {
    let labels = params.strings_continued("POINT", "LABELS");
    if labels.len() < n && n > 0 {
        warnings.push(RawWarning {
            offset: at(params, "POINT", "LABELS"),
            message: format!("POINT:LABELS holds {} labels for {n} points: the others are named 'point N'", labels.len()),
        });
    }
    let descriptions = params.strings_continued("POINT", "DESCRIPTIONS");
    let kinds = [
        ("ANGLES", PointKind::Angle),
        ("FORCES", PointKind::Force),
        ("MOMENTS", PointKind::Moment),
        ("POWERS", PointKind::Power),
        ("REACTIONS", PointKind::Force),
        ("SCALARS", PointKind::Scalar),
    ];
    let lists: Vec<(Vec<String>, PointKind)> = kinds.iter().map(|(name, kind)| (params.strings_continued("POINT", name), *kind)).collect();
    capture.points = (0..n)
        .map(|i| {
            let label = labels.get(i).filter(|l| !l.is_empty()).cloned().unwrap_or_else(|| format!("point {}", i + 1));
            let kind = lists.iter().find(|(l, _)| l.contains(&label)).map_or(PointKind::Marker, |(_, k)| *k);
            PointInfo { label, description: descriptions.get(i).cloned().unwrap_or_default(), kind }
        })
        .collect();
    let units = params.get("POINT", "UNITS").map(Param::strings).unwrap_or_default();
    capture.unit = match units.first() {
        Some(u) if !u.is_empty() => u.clone(),
        _ => {
            // Left to the body's size (most writers use mm, some m): the guess is shown by
            // `info` and View → Units overrides it.
            if n > 0 {
                warnings.push(RawWarning { offset: 0, message: "no POINT:UNITS: the unit is detected from the body's size".into() });
            }
            String::new()
        }
    };
    if let Some(other) = units.iter().find(|u| !u.is_empty() && **u != capture.unit) {
        warnings.push(RawWarning {
            offset: at(params, "POINT", "UNITS"),
            message: format!(
                "POINT:UNITS names more than one unit ({} and {other}): every point is read as {}",
                capture.unit, capture.unit
            ),
        });
    }
}

/// The analog channels' names and units, with their rate.
pub fn analog_channels(params: &Params, channels: usize, rate_hz: f64, samples_per_frame: usize) -> Analog {
    let labels = params.strings_continued("ANALOG", "LABELS");
    let descriptions = params.strings_continued("ANALOG", "DESCRIPTIONS");
    let units = params.strings_continued("ANALOG", "UNITS");
    let channels = (0..channels)
        .map(|i| AnalogChannel {
            label: labels.get(i).filter(|l| !l.is_empty()).cloned().unwrap_or_else(|| format!("analog {}", i + 1)),
            description: descriptions.get(i).cloned().unwrap_or_default(),
            unit: units.get(i).cloned().unwrap_or_default(),
        })
        .collect();
    Analog { rate_hz, samples_per_frame, channels, values: Vec::new() }
}

/// How raw analog numbers become values.
pub struct AnalogScaling {
    /// Per channel.
    pub offsets: Vec<f64>,
    /// Per channel, `GEN_SCALE` included.
    pub scales: Vec<f64>,
    /// `ANALOG:FORMAT` is `UNSIGNED`.
    pub unsigned: bool,
}

fn numbers_continued(params: &Params, group: &str, name: &str, unsigned: bool) -> Vec<f64> {
    let get = |p: &Param| if unsigned { p.counts() } else { p.numbers() };
    let mut out = params.get(group, name).map(get).unwrap_or_default();
    for k in 2.. {
        match params.get(group, &format!("{name}{k}")) {
            Some(p) => out.extend(get(p)),
            None => break,
        }
    }
    out
}

/// Offsets and scales of the analog channels.
pub fn analog_scaling(params: &Params, channels: usize, warnings: &mut Vec<RawWarning>) -> AnalogScaling {
    let unsigned = params.get("ANALOG", "FORMAT").and_then(Param::string).is_some_and(|f| f.eq_ignore_ascii_case("UNSIGNED"));
    let general = params.get("ANALOG", "GEN_SCALE").and_then(Param::number).unwrap_or(1.0);
    let scales = numbers_continued(params, "ANALOG", "SCALE", false);
    let offsets = numbers_continued(params, "ANALOG", "OFFSET", unsigned);
    if channels > 0 && scales.len() < channels {
        warnings.push(RawWarning {
            offset: at(params, "ANALOG", "SCALE"),
            message: format!(
                "ANALOG:SCALE has {} values for {channels} channels: the others use {}",
                scales.len(),
                scales.first().copied().unwrap_or(1.0)
            ),
        });
    }
    let first = scales.first().copied().unwrap_or(1.0);
    AnalogScaling {
        offsets: (0..channels).map(|c| offsets.get(c).copied().unwrap_or(0.0)).collect(),
        scales: (0..channels).map(|c| scales.get(c).copied().unwrap_or(first) * general).collect(),
        unsigned,
    }
}

/// The force platforms `FORCE_PLATFORM` describes; one it describes badly is left out with a
/// warning.
pub fn plates(params: &Params, analog_channels: usize, warnings: &mut Vec<RawWarning>) -> Vec<ForcePlate> {
    let Some(used) = params.get("FORCE_PLATFORM", "USED").and_then(Param::count) else { return Vec::new() };
    let used = used as usize;
    let types = params.get("FORCE_PLATFORM", "TYPE").map(Param::numbers).unwrap_or_default();
    let corners = params.get("FORCE_PLATFORM", "CORNERS").map(Param::numbers).unwrap_or_default();
    let origins = params.get("FORCE_PLATFORM", "ORIGIN").map(Param::numbers).unwrap_or_default();
    let channel = params.get("FORCE_PLATFORM", "CHANNEL");
    let channel_values = channel.map(Param::numbers).unwrap_or_default();
    let per_plate = channel.and_then(|p| p.dims.first().copied()).unwrap_or(6).max(1);
    let cal = params.get("FORCE_PLATFORM", "CAL_MATRIX");
    let poly = params.get("FORCE_PLATFORM", "FPCOPPOLY").map(Param::numbers).unwrap_or_default();
    let offset = at(params, "FORCE_PLATFORM", "USED");
    let mut out = Vec::new();
    for i in 0..used.min(64) {
        let warn = |warnings: &mut Vec<RawWarning>, why: String| {
            warnings.push(RawWarning { offset, message: format!("force platform {} is left out: {why}", i + 1) })
        };
        let Some(&kind) = types.get(i) else {
            warn(warnings, "FORCE_PLATFORM:TYPE does not give its type".into());
            continue;
        };
        let Some(c) = corners.get(i * 12..i * 12 + 12) else {
            warn(warnings, "FORCE_PLATFORM:CORNERS does not give its corners".into());
            continue;
        };
        let corner = |k: usize| Vec3::new(c[k * 3] as f32, c[k * 3 + 1] as f32, c[k * 3 + 2] as f32);
        let origin = origins.get(i * 3..i * 3 + 3).map_or(Vec3::ZERO, |o| Vec3::new(o[0] as f32, o[1] as f32, o[2] as f32));
        let Some(raw) = channel_values.get(i * per_plate..(i + 1) * per_plate) else {
            warn(warnings, "FORCE_PLATFORM:CHANNEL does not list its channels".into());
            continue;
        };
        if let Some(bad) = raw.iter().find(|&&c| c < 1.0 || c as usize > analog_channels) {
            warn(warnings, format!("FORCE_PLATFORM:CHANNEL names channel {bad}, not one of the {analog_channels} analog channels"));
            continue;
        }
        let kind = kind as u16;
        let cal_matrix = cal.and_then(|p| {
            let (d0, d1) = (*p.dims.first()?, *p.dims.get(1)?);
            let plates = p.dims.get(2).copied().unwrap_or(1);
            if d0 < 6 || d1 < 6 || i >= plates {
                return None;
            }
            let v = p.numbers();
            let base = d0 * d1 * i;
            v.get(base..base + d0 * d1)?;
            Some(std::array::from_fn(|r| std::array::from_fn(|col| v[base + col * d0 + r])))
        });
        if kind == 4 && cal_matrix.is_none() {
            warn(warnings, "type 4 needs FORCE_PLATFORM:CAL_MATRIX, which does not give this platform's".into());
            continue;
        }
        out.push(ForcePlate {
            kind,
            corners: [corner(0), corner(1), corner(2), corner(3)],
            origin,
            channels: raw.iter().map(|&c| c as usize - 1).collect(),
            cal_matrix,
            cop_poly: poly.get(i * 12..i * 12 + 12).map(|p| std::array::from_fn(|k| p[k])),
        });
    }
    out
}

/// Events from the `EVENT` group, else from the header's event block.
pub fn events(params: &Params, header: &[u8], proc: Processor) -> Vec<Event> {
    let mut out = Vec::new();
    if let Some(used) = params.get("EVENT", "USED").and_then(Param::count) {
        let labels = params.strings_continued("EVENT", "LABELS");
        let contexts = params.strings_continued("EVENT", "CONTEXTS");
        let descriptions = params.strings_continued("EVENT", "DESCRIPTIONS");
        let times = params.get("EVENT", "TIMES").map(Param::numbers).unwrap_or_default();
        for i in 0..used as usize {
            let Some(t) = times.get(2 * i..2 * i + 2) else { break };
            out.push(Event {
                label: labels.get(i).cloned().unwrap_or_else(|| format!("event {}", i + 1)),
                context: contexts.get(i).cloned().unwrap_or_default(),
                time_secs: t[0] * 60.0 + t[1],
                description: descriptions.get(i).cloned().unwrap_or_default(),
            });
        }
    } else {
        // Header words 151–198: count, 18 times, 18 display flags, 18 four-character labels.
        let count = usize::from(proc.u16([header[300], header[301]])).min(18);
        for i in 0..count {
            let t = &header[304 + 4 * i..][..4];
            let label = &header[396 + 4 * i..][..4];
            let time = f64::from(proc.f32([t[0], t[1], t[2], t[3]]));
            if time.is_finite() {
                let label = String::from_utf8_lossy(label).trim_matches(|c: char| c == ' ' || c == '\0').to_string();
                out.push(Event { label, context: String::new(), time_secs: time, description: String::new() });
            }
        }
    }
    out.sort_by(|a, b| a.time_secs.total_cmp(&b.time_secs));
    out
}

/// `POINT:X_SCREEN` and `Y_SCREEN`.
pub fn axes(params: &Params) -> ScreenAxes {
    let s = |n: &str| params.get("POINT", n).and_then(Param::string).filter(|s| !s.is_empty());
    ScreenAxes { x_screen: s("X_SCREEN"), y_screen: s("Y_SCREEN") }
}
