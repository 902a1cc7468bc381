//! C3D out: float storage, Intel byte order. A capture is written as it stands: every point
//! in its order (model outputs included) with its label and description, residuals (−1 for
//! gaps, 0 for samples no camera measured), analog channels (as floats, scale 1), force
//! platforms and events from the capture's fields, and every other parameter of the source
//! file as it was. A motion that is no capture writes its joints as virtual markers
//! (millimetres, Y up).

use crate::par::*;
use std::io::Write;

use crate::core::capture::{Capture, KeptGroup, KeptParam, KeptValue, PointInfo, PointKind, ScreenAxes};
use crate::core::{Interpolation, Motion, PoseAt, Sampler};

/// The filled samples of capture motion `m` that a C3D written from it cannot mark when it is
/// read back: those of markers with no residual above 0 ([`Capture::measured_markers`], the
/// reader's rule), where a filled sample's residual 0 looks like every other.
pub fn fills_unmarked(m: &Motion) -> usize {
    let Some(c) = &m.capture else { return 0 };
    let measured = c.measured_markers(&c.marker_indices());
    m.clip
        .filled()
        .iter()
        .filter(|r| r.channel % 3 == 0 && !measured.get(r.channel as usize / 3).copied().unwrap_or(true))
        .map(|r| (r.last - r.first + 1) as usize)
        .sum()
}

/// What a C3D cannot hold.
#[derive(Debug, thiserror::Error)]
pub enum C3dError {
    /// More points, channels or platforms than a C3D's 16-bit counts allow.
    #[error("{what}: {count} is more than a C3D holds ({max})")]
    TooMany {
        /// What.
        what: &'static str,
        /// How many.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A rate a C3D cannot state.
    #[error("the point rate {0} Hz is not a positive number")]
    Rate(f64),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The parameters written from the capture's fields (the source's values of these are not
/// copied); names with a trailing number (`LABELS2`) belong with their first.
fn owned(group: &str, name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    match group {
        "POINT" => {
            ["USED", "FRAMES", "SCALE", "RATE", "DATA_START", "LABELS", "DESCRIPTIONS", "UNITS", "X_SCREEN", "Y_SCREEN"].contains(&name)
                || ["LABELS", "DESCRIPTIONS", "ANGLES", "FORCES", "MOMENTS", "POWERS", "REACTIONS", "SCALARS"].contains(&base)
        }
        "ANALOG" => {
            ["USED", "RATE", "GEN_SCALE", "FORMAT", "BITS"].contains(&name)
                || ["SCALE", "OFFSET", "LABELS", "DESCRIPTIONS", "UNITS"].contains(&base)
        }
        "FORCE_PLATFORM" => ["USED", "TYPE", "CORNERS", "ORIGIN", "CHANNEL", "CAL_MATRIX", "FPCOPPOLY"].contains(&name),
        "EVENT" => true,
        "TRIAL" => ["ACTUAL_START_FIELD", "ACTUAL_END_FIELD"].contains(&name),
        _ => false,
    }
}

/// A parameter entry to write.
struct Entry {
    name: String,
    description: String,
    dims: Vec<usize>,
    value: KeptValue,
}

fn scalar_f(name: &str, v: f32) -> Entry {
    Entry { name: name.into(), description: String::new(), dims: Vec::new(), value: KeptValue::Floats(vec![v]) }
}

fn scalar_i(name: &str, v: i16) -> Entry {
    Entry { name: name.into(), description: String::new(), dims: Vec::new(), value: KeptValue::Ints(vec![v]) }
}

fn floats(name: &str, dims: Vec<usize>, v: Vec<f32>) -> Entry {
    Entry { name: name.into(), description: String::new(), dims, value: KeptValue::Floats(v) }
}

fn ints(name: &str, dims: Vec<usize>, v: Vec<i16>) -> Entry {
    Entry { name: name.into(), description: String::new(), dims, value: KeptValue::Ints(v) }
}

/// A count in a 16-bit word (counts above 32,767 are stored in the same bits, as readers
/// expect).
fn count16(n: usize) -> i16 {
    n.min(65535) as u16 as i16
}

/// Strings as C3D character arrays: `NAME`, then `NAME2`, `NAME3`… for more than 255.
fn strings(name: &str, values: &[String]) -> Vec<Entry> {
    let width = values.iter().map(|s| s.len()).max().unwrap_or(1).clamp(1, 255);
    let chunks: Vec<&[String]> = if values.is_empty() { vec![&[]] } else { values.chunks(255).collect() };
    chunks
        .iter()
        .enumerate()
        .map(|(k, chunk)| {
            let mut bytes = Vec::with_capacity(width * chunk.len());
            for s in *chunk {
                let mut b: Vec<u8> = s.bytes().take(width).collect();
                b.resize(width, b' ');
                bytes.extend(b);
            }
            let name = if k == 0 { name.to_owned() } else { format!("{name}{}", k + 1) };
            Entry { name, description: String::new(), dims: vec![width, chunk.len()], value: KeptValue::Chars(bytes) }
        })
        .collect()
}

fn string(name: &str, value: &str) -> Entry {
    let bytes = value.as_bytes().to_vec();
    Entry { name: name.into(), description: String::new(), dims: vec![bytes.len()], value: KeptValue::Chars(bytes) }
}

/// Floats in runs of at most 255 per parameter (`SCALE`, `SCALE2`…).
fn float_runs(name: &str, values: &[f32]) -> Vec<Entry> {
    let chunks: Vec<&[f32]> = if values.is_empty() { vec![&[]] } else { values.chunks(255).collect() };
    chunks
        .iter()
        .enumerate()
        .map(|(k, c)| floats(&if k == 0 { name.to_owned() } else { format!("{name}{}", k + 1) }, vec![c.len()], c.to_vec()))
        .collect()
}

/// The magnitude of `POINT:SCALE`: the source's when its residuals fit in 7 bits of it, else
/// the largest residual over 127. (The residual is the sample word's high byte times the
/// scale, as ezc3d and skelview read it; a high byte of 128 or more makes the word negative,
/// a gap.)
fn point_scale(c: &Capture) -> f32 {
    let max = c.max_residual();
    let source = c
        .kept
        .iter()
        .find(|g| g.name == "POINT")
        .and_then(|g| g.params.iter().find(|p| p.name == "SCALE"))
        .and_then(|p| match &p.value {
            KeptValue::Floats(v) => v.first().map(|s| s.abs()),
            KeptValue::Ints(v) => v.first().map(|s| f32::from(*s).abs()),
            _ => None,
        })
        .filter(|s| *s > 0.0 && s.is_finite());
    match source {
        Some(s) if max / s <= 127.0 => s,
        _ if max > 0.0 => max / 127.0,
        _ => 1.0,
    }
}

/// The groups written from the capture's fields.
fn owned_groups(c: &Capture, scale: f32, data_start: usize) -> Vec<(String, Vec<Entry>)> {
    let mut groups = vec![("POINT".to_owned(), point_group(c, scale, data_start)), ("ANALOG".to_owned(), analog_group(c))];
    if !c.plates.is_empty() || c.kept.iter().any(|g| g.name == "FORCE_PLATFORM") {
        groups.push(("FORCE_PLATFORM".to_owned(), plate_group(c)));
    }
    if !c.events.is_empty() || c.kept.iter().any(|g| g.name == "EVENT") {
        let e = &c.events;
        let mut ev = vec![scalar_i("USED", count16(e.len()))];
        ev.extend(strings("CONTEXTS", &e.iter().map(|x| x.context.clone()).collect::<Vec<_>>()));
        ev.extend(strings("LABELS", &e.iter().map(|x| x.label.clone()).collect::<Vec<_>>()));
        ev.extend(strings("DESCRIPTIONS", &e.iter().map(|x| x.description.clone()).collect::<Vec<_>>()));
        let times = e.iter().flat_map(|x| {
            let minutes = (x.time_secs / 60.0).floor();
            [minutes as f32, (x.time_secs - 60.0 * minutes) as f32]
        });
        ev.push(floats("TIMES", vec![2, e.len()], times.collect()));
        groups.push(("EVENT".to_owned(), ev));
    }
    let (start, end) = (c.first_frame as usize, c.first_frame as usize + c.frames.saturating_sub(1));
    let words = |v: usize| vec![(v & 0xFFFF) as u16 as i16, ((v >> 16) & 0xFFFF) as u16 as i16];
    groups
        .push(("TRIAL".to_owned(), vec![ints("ACTUAL_START_FIELD", vec![2], words(start)), ints("ACTUAL_END_FIELD", vec![2], words(end))]));
    groups
}

/// `POINT`: counts, scale, rate, data start, labels, units, screen axes and the labels of
/// each kind of modelled output.
fn point_group(c: &Capture, scale: f32, data_start: usize) -> Vec<Entry> {
    let labels: Vec<String> = c.points.iter().map(|p| p.label.clone()).collect();
    let descriptions: Vec<String> = c.points.iter().map(|p| p.description.clone()).collect();
    let mut point = vec![
        scalar_i("USED", count16(c.points.len())),
        scalar_i("FRAMES", count16(c.frames)),
        scalar_f("SCALE", -scale),
        scalar_f("RATE", c.point_rate_hz as f32),
        scalar_i("DATA_START", count16(data_start)),
    ];
    point.extend(strings("LABELS", &labels));
    point.extend(strings("DESCRIPTIONS", &descriptions));
    point.push(strings("UNITS", std::slice::from_ref(&c.unit)).remove(0));
    let ScreenAxes { x_screen, y_screen } = &c.axes;
    point.extend(x_screen.as_deref().map(|x| string("X_SCREEN", x)));
    point.extend(y_screen.as_deref().map(|y| string("Y_SCREEN", y)));
    for (name, kind) in [
        ("ANGLES", PointKind::Angle),
        ("FORCES", PointKind::Force),
        ("MOMENTS", PointKind::Moment),
        ("POWERS", PointKind::Power),
        ("SCALARS", PointKind::Scalar),
    ] {
        let of_kind: Vec<String> = c.points.iter().filter(|p: &&PointInfo| p.kind == kind).map(|p| p.label.clone()).collect();
        if !of_kind.is_empty() {
            point.extend(strings(name, &of_kind));
        }
    }
    point
}

/// `ANALOG`: channels as written (signed 16-bit, unit scale, zero offset) with their labels.
fn analog_group(c: &Capture) -> Vec<Entry> {
    let a = &c.analog;
    let n = a.channels.len();
    let mut analog = vec![
        scalar_i("USED", count16(n)),
        scalar_f("RATE", a.rate_hz as f32),
        scalar_f("GEN_SCALE", 1.0),
        string("FORMAT", "SIGNED"),
        scalar_i("BITS", 16),
    ];
    analog.extend(float_runs("SCALE", &vec![1.0; n]));
    analog.extend(float_runs("OFFSET", &vec![0.0; n]).into_iter().map(|mut e| {
        if let KeptValue::Floats(v) = &e.value {
            e.value = KeptValue::Ints(v.iter().map(|_| 0).collect());
        }
        e
    }));
    analog.extend(strings("LABELS", &a.channels.iter().map(|ch| ch.label.clone()).collect::<Vec<_>>()));
    analog.extend(strings("DESCRIPTIONS", &a.channels.iter().map(|ch| ch.description.clone()).collect::<Vec<_>>()));
    analog.extend(strings("UNITS", &a.channels.iter().map(|ch| ch.unit.clone()).collect::<Vec<_>>()));
    analog
}

/// `FORCE_PLATFORM`: each plate's type, corners, origin and channels, with calibration
/// matrices and COP polynomials when any plate has them.
fn plate_group(c: &Capture) -> Vec<Entry> {
    let plates = &c.plates;
    let per = plates.iter().map(|p| p.channels.len()).max().unwrap_or(6).max(1);
    let mut fp = vec![
        scalar_i("USED", count16(plates.len())),
        ints("TYPE", vec![plates.len()], plates.iter().map(|p| p.kind as i16).collect()),
        floats("CORNERS", vec![3, 4, plates.len()], plates.iter().flat_map(|p| p.corners.iter().flat_map(|v| v.to_array())).collect()),
        floats("ORIGIN", vec![3, plates.len()], plates.iter().flat_map(|p| p.origin.to_array()).collect()),
        ints(
            "CHANNEL",
            vec![per, plates.len()],
            plates.iter().flat_map(|p| (0..per).map(|k| p.channels.get(k).map_or(0, |&ch| (ch + 1) as i16))).collect(),
        ),
    ];
    if plates.iter().any(|p| p.cal_matrix.is_some()) {
        let cal = plates.iter().flat_map(|p| {
            let m = p.cal_matrix.unwrap_or([[0.0; 6]; 6]);
            (0..6).flat_map(move |col| (0..6).map(move |row| m[row][col] as f32))
        });
        fp.push(floats("CAL_MATRIX", vec![6, 6, plates.len()], cal.collect()));
    }
    if plates.iter().any(|p| p.cop_poly.is_some()) {
        fp.push(floats(
            "FPCOPPOLY",
            vec![12, plates.len()],
            plates.iter().flat_map(|p| p.cop_poly.unwrap_or([0.0; 12]).map(|v| v as f32)).collect(),
        ));
    }
    fp
}

/// The parameter section's bytes (its 4-byte header included), padded to whole blocks.
fn parameter_section(c: &Capture, scale: f32, data_start: usize) -> Vec<u8> {
    let owned_now = owned_groups(c, scale, data_start);
    // Groups in the source's order, then the ones only the capture's fields give.
    let mut order: Vec<(String, String)> = c.kept.iter().map(|g| (g.name.clone(), g.description.clone())).collect();
    for (name, _) in &owned_now {
        if !order.iter().any(|(n, _)| n == name) {
            order.push((name.clone(), String::new()));
        }
    }
    let mut out = vec![1u8, 0x50, 0, 84];
    let mut entries: Vec<Vec<u8>> = Vec::new();
    for (k, (group, description)) in order.iter().enumerate() {
        let id = (k + 1).min(127) as i8;
        entries.push(group_entry(group, description, id));
        let kept: Vec<&KeptParam> = c
            .kept
            .iter()
            .filter(|g: &&KeptGroup| &g.name == group)
            .flat_map(|g| g.params.iter())
            .filter(|p| !owned(group, &p.name))
            .collect();
        for p in kept {
            let e = Entry { name: p.name.clone(), description: p.description.clone(), dims: p.dims.clone(), value: p.value.clone() };
            entries.extend(param_entry(&e, id));
        }
        if let Some((_, params)) = owned_now.iter().find(|(n, _)| n == group) {
            for e in params {
                entries.extend(param_entry(e, id));
            }
        }
    }
    let last = entries.len().saturating_sub(1);
    for (k, mut e) in entries.into_iter().enumerate() {
        // The word after the name points at the next entry; the last entry's is 0.
        let at = 2 + e[0] as usize;
        let next: i16 = if k == last { 0 } else { (e.len() - at) as i16 };
        e[at..at + 2].copy_from_slice(&next.to_le_bytes());
        out.extend(e);
    }
    out.extend([0, 0]);
    let blocks = out.len().div_ceil(512);
    out.resize(blocks * 512, 0);
    out[2] = blocks.min(255) as u8;
    out
}

fn name_bytes(name: &str) -> Vec<u8> {
    let n: Vec<u8> = name.bytes().filter(|b| b.is_ascii_graphic()).take(127).map(|b| b.to_ascii_uppercase()).collect();
    if n.is_empty() { b"UNNAMED".to_vec() } else { n }
}

fn group_entry(name: &str, description: &str, id: i8) -> Vec<u8> {
    let n = name_bytes(name);
    let mut e = vec![n.len() as u8, (-id) as u8];
    e.extend(&n);
    e.extend([0, 0]);
    let d: Vec<u8> = description.bytes().take(255).collect();
    e.push(d.len() as u8);
    e.extend(d);
    e
}

/// A parameter's entry; a parameter too large for one entry (over 32 kB) is left out.
fn param_entry(p: &Entry, group: i8) -> Option<Vec<u8>> {
    let n = name_bytes(&p.name);
    let mut e = vec![n.len() as u8, group as u8];
    e.extend(&n);
    e.extend([0, 0]);
    let (kind, data): (i8, Vec<u8>) = match &p.value {
        KeptValue::Chars(v) => (-1, v.clone()),
        KeptValue::Bytes(v) => (1, v.clone()),
        KeptValue::Ints(v) => (2, v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        KeptValue::Floats(v) => (4, v.iter().flat_map(|x| x.to_le_bytes()).collect()),
    };
    if p.dims.len() > 7 || p.dims.iter().any(|&d| d > 255) {
        return None;
    }
    e.push(kind as u8);
    e.push(p.dims.len() as u8);
    e.extend(p.dims.iter().map(|&d| d as u8));
    e.extend(data);
    let d: Vec<u8> = p.description.bytes().take(255).collect();
    e.push(d.len() as u8);
    e.extend(d);
    (e.len() < 32000).then_some(e)
}

/// The capture of a motion that is none: its joints as virtual markers, in millimetres with
/// Y up.
fn joints_as_markers(m: &Motion) -> Capture {
    let frames = m.clip.num_frames().max(1);
    let n = m.skeleton.len();
    let mut sampler = Sampler::default();
    let mm = m.display_from_file();
    let mut positions = Vec::with_capacity(frames * n * 3);
    for f in 0..frames {
        for p in sampler.positions(m, PoseAt::Frame(f), Interpolation::Nearest, mm).iter() {
            positions.extend((*p * 1000.0).to_array());
        }
    }
    let residuals = positions.chunks_exact(3).map(|p| if p.iter().all(|v| v.is_finite()) { 0.0 } else { -1.0 }).collect();
    Capture {
        point_rate_hz: if m.clip.fps() > 0.0 { m.clip.fps() } else { 1.0 },
        first_frame: 1,
        points: m
            .skeleton
            .joints()
            .iter()
            .map(|j| PointInfo { label: j.name.clone(), description: String::new(), kind: PointKind::Marker })
            .collect(),
        unit: "mm".into(),
        frames,
        positions,
        residuals,
        axes: ScreenAxes { x_screen: Some("+X".into()), y_screen: Some("+Y".into()) },
        ..Default::default()
    }
}

/// Writes `m` as C3D.
pub fn write_c3d(m: &Motion, out: &mut (dyn Write + Send)) -> Result<(), C3dError> {
    let owned_capture;
    let c: &Capture = match &m.capture {
        Some(c) => c,
        None => {
            owned_capture = joints_as_markers(m);
            &owned_capture
        }
    };
    let (points, channels) = (c.points.len(), c.analog.channels.len());
    for (what, count, max) in [("points", points, 65535), ("analog channels", channels, 65535), ("force platforms", c.plates.len(), 255)] {
        if count > max {
            return Err(C3dError::TooMany { what, count, max });
        }
    }
    if !(c.point_rate_hz.is_finite() && c.point_rate_hz > 0.0) {
        return Err(C3dError::Rate(c.point_rate_hz));
    }
    let spf = if channels > 0 { c.analog.samples_per_frame.max(1) } else { 0 };
    if channels * spf > 65535 {
        return Err(C3dError::TooMany { what: "analog samples per frame", count: channels * spf, max: 65535 });
    }
    let scale = point_scale(c);
    // The data start depends on the parameter section's length, which holds it: the section
    // is the same length whatever the block number it names.
    let first = parameter_section(c, scale, 0);
    let data_start = 2 + first.len() / 512;
    let params = parameter_section(c, scale, data_start);
    let mut header = vec![0u8; 512];
    let w = |h: &mut Vec<u8>, word: usize, v: u16| h[2 * word..2 * word + 2].copy_from_slice(&v.to_le_bytes());
    header[0] = 2;
    header[1] = 0x50;
    w(&mut header, 1, points as u16);
    w(&mut header, 2, (channels * spf) as u16);
    w(&mut header, 3, c.first_frame.clamp(1, 65535) as u16);
    w(&mut header, 4, (c.first_frame as usize + c.frames.saturating_sub(1)).min(65535) as u16);
    w(&mut header, 5, 10);
    header[12..16].copy_from_slice(&(-scale).to_le_bytes());
    w(&mut header, 8, data_start.min(65535) as u16);
    w(&mut header, 9, spf as u16);
    header[20..24].copy_from_slice(&(c.point_rate_hz as f32).to_le_bytes());
    out.write_all(&header)?;
    out.write_all(&params)?;
    // Frames encoded in pieces of about a megabyte on every core, written in order, each
    // batch written while the next is encoded.
    let frame_bytes = (points * 4 + channels * spf) * 4;
    let piece = ((1 << 20) / frame_bytes.max(1)).max(1);
    let starts: Vec<usize> = (0..c.frames).step_by(piece).collect();
    let encode = |batch: &[usize]| -> Vec<Vec<u8>> {
        batch.to_vec().into_par_iter().map(|start| encode_frames(c, start..(start + piece).min(c.frames), scale, spf)).collect()
    };
    let mut batches = starts.chunks(16);
    let mut ready = batches.next().map(encode).unwrap_or_default();
    loop {
        let next = batches.next();
        let (written, encoded) = crate::par::join(|| ready.iter().try_for_each(|bytes| out.write_all(bytes)), || next.map(encode));
        written?;
        match encoded {
            Some(e) => ready = e,
            None => break,
        }
    }
    Ok(())
}

/// The data section's bytes of `frames`: each point's x, y, z and residual word (float
/// storage), then the frame's analog samples.
fn encode_frames(c: &Capture, frames: std::ops::Range<usize>, scale: f32, spf: usize) -> Vec<u8> {
    let (points, channels) = (c.points.len(), c.analog.channels.len());
    let mut out = Vec::with_capacity(frames.len() * (points * 4 + channels * spf) * 4);
    for f in frames {
        for p in 0..points {
            let i = f * points + p;
            let r = c.residuals.get(i).copied().unwrap_or(-1.0);
            let xyz = c.positions.get(i * 3..i * 3 + 3).unwrap_or(&[0.0; 3]);
            let (xyz, word) = if r < 0.0 || xyz.iter().any(|v| !v.is_finite()) {
                ([0.0f32; 3], -1.0f32)
            } else {
                ([xyz[0], xyz[1], xyz[2]], f32::from(((r / scale).round().clamp(0.0, 127.0) as u16) << 8))
            };
            for v in xyz.iter().chain(std::iter::once(&word)) {
                out.extend(v.to_le_bytes());
            }
        }
        let a = &c.analog.values;
        let start = f * spf * channels;
        for k in 0..spf * channels {
            out.extend(a.get(start + k).copied().unwrap_or(0.0).to_le_bytes());
        }
    }
    out
}
