//! A marker capture (C3D, TRC) as a [`Motion`]: one root joint per marker with three
//! position channels, gaps held in the clip and marked missing, the capture kept beside it.

use std::path::Path;
use std::sync::Arc;

use glam::Vec3;

use super::error::RawWarning;
use super::finish::{self, Parsed};
use crate::core::capture::{Capture, unique_labels};
use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{ChannelKind, Clip, Format, Joint, Motion, PositionRule, Skeleton, Warning};

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
}

/// The motion of a capture, warnings already located.
pub fn motion(format: Format, path: &Path, capture: Capture, declared: Declared, mut warnings: Vec<Warning>) -> Motion {
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
    let n = capture.points.len();
    let mut values = Vec::with_capacity(capture.frames * markers.len() * 3);
    for f in 0..capture.frames {
        for &p in &markers {
            let i = (f * n + p) * 3;
            if capture.residuals[f * n + p] < 0.0 {
                values.extend([f32::NAN; 3]);
            } else {
                values.extend_from_slice(&capture.positions[i..i + 3]);
            }
        }
    }
    let frame_time = if capture.point_rate_hz > 0.0 { 1.0 / capture.point_rate_hz } else { 0.0 };
    let mut clip = Clip::new(frame_time, markers.len() * 3, capture.frames, values);
    // Gaps are the capture's own: held and marked here, so the generic "not a number"
    // warning does not claim them.
    clip.hold_missing();
    let mut parsed = Parsed::new(skeleton, clip, "deg");
    parsed.unit = LengthUnit::parse(&capture.unit);
    parsed.declared_units = Some(capture.unit.clone());
    parsed.up = declared.up;
    parsed.screen_right = declared.right;
    parsed.declared_frames = declared.frames;
    parsed.details = declared.details;
    let mut motion = finish::motion(format, vec![path.to_owned()], parsed, warnings);
    motion.capture = Some(Arc::new(capture));
    motion
}

/// Warnings at byte offsets of a binary file: the offset is said in the message (line and
/// column mean nothing there).
pub fn binary_warnings(path: &Path, raw: Vec<RawWarning>) -> Vec<Warning> {
    raw.into_iter()
        .map(|w| Warning { path: path.to_owned(), line: 1, col: 1, message: format!("at byte {}: {}", w.offset, w.message) })
        .collect()
}
