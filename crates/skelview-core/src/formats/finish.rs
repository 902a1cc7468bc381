//! The shared tail of every loader: what a parser found becomes a [`Motion`], with units and
//! up axis settled (declared, else detected from the body) and the one [`SourceInfo`].

use std::path::{Path, PathBuf};

use super::LoadObserver;
use super::error::{LoadError, ParseError, RawWarning, locate_warnings};
use crate::core::units::{LengthUnit, UpAxis, detect_body_size};
use crate::core::{Clip, Format, Motion, Skeleton, SourceInfo, Warning};

/// What a parser hands back, before units are settled.
pub struct Parsed {
    /// Joints, parents first.
    pub skeleton: Skeleton,
    /// Channel values.
    pub clip: Clip,
    /// Frame count written in the file.
    pub declared_frames: Option<u64>,
    /// Units text as declared.
    pub declared_units: Option<String>,
    /// Divisor from raw lengths to file units (the ASF `length` multiplier; else 1).
    pub length_divisor: f32,
    /// The unit the file declares, if it does.
    pub unit: Option<LengthUnit>,
    /// The up axis the file declares, if it does.
    pub up: Option<UpAxis>,
    /// `deg`, `rad` or `quaternion`.
    pub angle_unit: &'static str,
    /// Format-specific header facts.
    pub details: Vec<(String, String)>,
    /// The animations the file holds, and which one was loaded.
    pub takes: (Vec<crate::core::Take>, Option<usize>),
}

impl Parsed {
    /// A parse result with nothing declared.
    pub fn new(skeleton: Skeleton, clip: Clip, angle_unit: &'static str) -> Self {
        Self {
            skeleton,
            clip,
            declared_frames: None,
            declared_units: None,
            length_divisor: 1.0,
            unit: None,
            up: None,
            angle_unit,
            details: Vec::new(),
            takes: (Vec::new(), None),
        }
    }
}

/// The motion: units and up axis declared or detected from the body, warnings located.
pub fn motion(format: Format, paths: Vec<PathBuf>, parsed: Parsed, warnings: Vec<Warning>) -> Motion {
    let size = detect_body_size(&parsed.skeleton, &parsed.clip);
    let source = SourceInfo {
        format,
        paths,
        declared_frames: parsed.declared_frames,
        declared_units: parsed.declared_units,
        length_divisor: parsed.length_divisor,
        unit: parsed.unit.unwrap_or_else(|| LengthUnit::from_height(size.unit_height() / parsed.length_divisor)),
        unit_detected: parsed.unit.is_none(),
        up_axis: parsed.up.unwrap_or(size.up),
        up_detected: parsed.up.is_none(),
        up_reason: if parsed.up.is_none() { size.up_reason } else { "" },
        body_height: size.height,
        motion_extent: size.extent,
        angle_unit: parsed.angle_unit,
        details: parsed.details,
        takes: parsed.takes.0,
        take: parsed.takes.1,
    };
    let mut motion = Motion { skeleton: parsed.skeleton, clip: parsed.clip, source, warnings };
    if let Some(w) = size_warning(&motion) {
        motion.warnings.push(w);
    }
    if let Some(w) = absurd_warning(&motion) {
        motion.warnings.push(w);
    }
    motion
}

/// Translations beyond 10 km and scales beyond 10,000 are not motion capture: a warning
/// naming the first (frame, joint, value) and how many there are. Framing and sizes ignore
/// such samples (robust bounds); the values stay as the file wrote them.
fn absurd_warning(m: &Motion) -> Option<Warning> {
    let metres = m.metres_per_raw_unit();
    let checked: Vec<(usize, usize, bool)> =
        m.skeleton
            .joints()
            .iter()
            .enumerate()
            .flat_map(|(j, joint)| {
                joint.channels.iter().enumerate().filter_map(move |(k, c)| {
                    (c.is_translation() || c.is_scale()).then_some((joint.first_channel + k, j, c.is_translation()))
                })
            })
            .collect();
    if checked.is_empty() {
        return None;
    }
    let (mut count, mut first) = (0usize, None);
    for f in 0..m.clip.num_frames() {
        let row = m.clip.frame(f);
        for &(c, j, translation) in &checked {
            let v = row[c];
            let absurd = if translation { (v * metres).abs() > 1e4 } else { v.abs() > 1e4 };
            if absurd && v.is_finite() {
                count += 1;
                first.get_or_insert((f, j, v));
            }
        }
    }
    let (f, j, v) = first?;
    let name = &m.skeleton.joints()[j].name;
    let more = if count > 1 { format!(" ({count} such values)") } else { String::new() };
    Some(Warning {
        path: m.source.paths.last().cloned().unwrap_or_default(),
        line: 1,
        col: 1,
        message: format!("frame {f}, joint '{name}': value {v:e} is absurd for motion capture{more}; framing and sizes ignore it"),
    })
}

/// A warning when a body with a head and feet is shorter than 0.3 m or taller than 3 m in
/// the unit in force, naming the unit that would make it 1–2.2 m tall.
fn size_warning(m: &Motion) -> Option<Warning> {
    if !crate::core::units::has_head_and_feet(&m.skeleton) {
        return None;
    }
    let s = &m.source;
    let raw = s.body_height.max(0.0);
    let height_m = raw * m.metres_per_raw_unit();
    if !height_m.is_finite() || (0.3..=3.0).contains(&height_m) {
        return None;
    }
    use LengthUnit::*;
    let likely = [Millimetre, Centimetre, Metre, Inch, Foot]
        .into_iter()
        .find(|u| (1.0..=2.2).contains(&(raw * u.metres() / s.length_divisor)))
        .map(|u| format!("is it in {}? ", u.symbol()))
        .unwrap_or_default();
    let how = if s.unit_detected { "detected" } else { "declared" };
    Some(Warning {
        path: s.paths.last().cloned().unwrap_or_default(),
        line: 1,
        col: 1,
        message: format!("body {height_m:.2} m tall with the {how} {}: {likely}View > File units changes it", s.unit.symbol()),
    })
}

/// A whole-file parse with progress and cancel around it, errors and warnings located in
/// `bytes`, the skeleton announced to the observer.
pub fn single(
    format: Format,
    path: &Path,
    bytes: &[u8],
    observer: &mut dyn LoadObserver,
    parse: impl FnOnce(&[u8]) -> Result<(Parsed, Vec<RawWarning>), ParseError>,
) -> Result<Motion, LoadError> {
    let path = path.to_owned();
    let total = bytes.len() as u64;
    if observer.progress(0, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let (parsed, raw) = parse(bytes).map_err(|e| LoadError::from_parse(&path, &mut &bytes[..], e))?;
    observer.skeleton_ready(&parsed.skeleton, &parsed.clip);
    if observer.progress(total, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let warnings = locate_warnings(&path, &mut &bytes[..], raw);
    Ok(motion(format, vec![path], parsed, warnings))
}
