//! The shared tail of every loader: what a parser found becomes a [`Motion`], with units and
//! up axis settled (declared, else detected from the body) and the one [`SourceInfo`].

use std::path::{Path, PathBuf};

use super::LoadObserver;
use super::error::{LoadError, ParseError, RawWarning, locate_warnings};
use crate::core::units::{LengthUnit, UpAxis};
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
    /// The axis pointing right on screen, where the file declares one.
    pub screen_right: Option<UpAxis>,
    /// Joints left out of the body's size and framing (a capture's far points).
    pub left_out: Vec<usize>,
    /// The format's up axis by convention, with why, where the file declares none and the
    /// head and feet do not say (a TRC: +Y).
    pub up_convention: Option<(UpAxis, &'static str)>,
    /// The file's meshes, where it has any.
    pub meshes: Option<crate::core::mesh::MeshSet>,
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
            screen_right: None,
            left_out: Vec::new(),
            up_convention: None,
            meshes: None,
        }
    }
}

/// The motion: units and up axis declared or detected from the body, warnings located.
pub fn motion(format: Format, paths: Vec<PathBuf>, mut parsed: Parsed, mut warnings: Vec<Warning>) -> Motion {
    warnings.extend(hold_non_finite(&parsed.skeleton, &mut parsed.clip, paths.last()));
    let size = crate::core::units::detect_body_size_without(&parsed.skeleton, &parsed.clip, &parsed.left_out, parsed.up_convention);
    let declared_up = parsed.up;
    // A declared axis that lays the body down (robots authored Z-up in a Y-up format) is
    // overruled by the rest pose's head and feet, as the detection would be; the user may
    // still choose the declared one (View → Up axis).
    // A rest pose that lies down while the motion stands (exporters that zero every channel
    // of a bind pose) does not overrule: the frames' head and feet must not agree with it.
    let motion_agrees = |d: crate::core::UpAxis| size.up_reason == crate::core::units::HEAD_ABOVE_FEET && size.up == d;
    // A capture has no rest pose: its markers over the frames decide (a QTM file declaring
    // -Z up over Z-up markers puts the runner upside down under the force plates).
    let cloud = parsed.skeleton.joints().iter().all(|j| j.is_marker && j.parent.is_none());
    let (upright, over) = if cloud {
        (declared_up.and_then(|d| crate::core::units::contradicted_by(size.head_over_feet?, d)), "over the capture's frames")
    } else {
        let rest =
            declared_up.filter(|&d| !motion_agrees(d)).and_then(|d| crate::core::units::declared_up_contradicted(&parsed.skeleton, d));
        (rest, "in the rest pose")
    };
    if let (Some(declared), Some(up)) = (declared_up, upright) {
        parsed.up = None;
        warnings.push(Warning {
            path: paths.last().cloned().unwrap_or_default(),
            line: 1,
            col: 1,
            message: format!(
                "the file declares {} up, which puts the head below the feet or level with them {over}: shown with {} up (View → Up axis to change)",
                declared.signed_name(),
                up.signed_name()
            ),
        });
    }
    let source = SourceInfo {
        format,
        paths,
        declared_frames: parsed.declared_frames,
        declared_units: parsed.declared_units,
        length_divisor: parsed.length_divisor,
        unit: parsed.unit.unwrap_or_else(|| LengthUnit::from_height(size.unit_height() / parsed.length_divisor)),
        unit_detected: parsed.unit.is_none(),
        up_axis: parsed.up.or(upright).unwrap_or(size.up),
        up_detected: parsed.up.is_none(),
        up_reason: match (parsed.up, upright) {
            (Some(_), _) => "",
            (None, Some(_)) => crate::core::units::DECLARED_UP_REFUSED,
            (None, None) => size.up_reason,
        },
        body_height: size.height,
        motion_extent: size.extent,
        angle_unit: parsed.angle_unit,
        details: parsed.details,
        takes: parsed.takes.0,
        take: parsed.takes.1,
        screen_right: parsed.screen_right,
        left_out: parsed.left_out,
    };
    let meshes = parsed.meshes.filter(|m| !m.meshes.is_empty()).map(std::sync::Arc::new);
    let mut motion = Motion { skeleton: parsed.skeleton, clip: parsed.clip, source, warnings, capture: None, meshes };
    if let Some(w) = size_warning(&motion) {
        motion.warnings.push(w);
    }
    if let Some(w) = absurd_warning(&motion) {
        motion.warnings.push(w);
    }
    motion
}

/// The safety net under every reader: a value that is still NaN or infinite (a number beyond
/// the range of a 32-bit float that a reader let through) is marked missing and holds its
/// channel's last value, with a warning naming the first; a pose never turns to NaN unwarned.
fn hold_non_finite(skeleton: &Skeleton, clip: &mut Clip, path: Option<&PathBuf>) -> Option<Warning> {
    // Blocks of values checked without an exit per value (so the check vectorises), then
    // the first block that holds one is searched.
    const BLOCK: usize = 256;
    let values = clip.values();
    let block = values.chunks(BLOCK).position(|b| b.iter().fold(false, |bad, v| bad | !v.is_finite()))?;
    let at = block * BLOCK + values[block * BLOCK..].iter().position(|v| !v.is_finite())?;
    let cpf = clip.channels_per_frame().max(1);
    let (f, c) = (at / cpf, at % cpf);
    let value = clip.frame(f)[c];
    let count = clip.hold_missing();
    let joint = skeleton.joints().iter().find(|j| (j.first_channel..j.first_channel + j.channels.len()).contains(&c));
    let channel =
        joint.map_or(String::from("a channel"), |j| format!("joint '{}' channel {}", j.name, j.channels[c - j.first_channel].short_name()));
    Some(Warning {
        path: path.cloned().unwrap_or_default(),
        line: 1,
        col: 1,
        message: format!(
            "{count} values are not finite numbers ({value} at frame {f}, {channel} first: NaN, or beyond the range of a 32-bit float); marked missing, each holding its channel's last value"
        ),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{ChannelKind, Joint, PositionRule};
    use glam::Vec3;

    fn two_joints(values: Vec<f32>) -> Motion {
        let mut root = Joint::new("root", None, Vec3::ZERO);
        root.channels = vec![ChannelKind::TranslateY, ChannelKind::RotateZ];
        let mut tip = Joint::new("tip", Some(0), Vec3::Y);
        tip.first_channel = 2;
        let skeleton = Skeleton::new(vec![root, tip], PositionRule::Replace).unwrap();
        let frames = values.len() / 2;
        let parsed = Parsed::new(skeleton, Clip::new(0.1, 2, frames, values), "rad");
        motion(crate::formats::htr::FORMAT, vec!["x.htr".into()], parsed, Vec::new())
    }

    #[test]
    fn values_a_reader_let_through_as_infinity_are_held_and_warned() {
        let m = two_joints(vec![1.0, 0.0, f32::INFINITY, 0.5, 3.0, f32::NAN]);
        let w = m.warnings.iter().find(|w| w.message.contains("not finite")).expect("a warning");
        assert!(w.message.starts_with("2 values") && w.message.contains("frame 1, joint 'root' channel ty"), "{}", w.message);
        assert_eq!(m.clip.frame(1), [1.0, 0.5]);
        assert_eq!(m.clip.frame(2), [3.0, 0.5]);
        assert!(m.clip.is_missing(1, 0) && m.clip.is_missing(2, 1) && !m.clip.is_missing(0, 0));
        // The first one past the first block of values the scan checks at once.
        let mut long = vec![0.25; 1000];
        long[601] = f32::NEG_INFINITY;
        long[998] = f32::NAN;
        let m = two_joints(long);
        let w = m.warnings.iter().find(|w| w.message.contains("not finite")).expect("a warning");
        assert!(w.message.starts_with("2 values") && w.message.contains("-inf at frame 300, joint 'root' channel rz"), "{}", w.message);
        let clean = two_joints(vec![1.0, 0.0]);
        assert!(clean.warnings.iter().all(|w| !w.message.contains("not finite")), "{:?}", clean.warnings);
    }
}
