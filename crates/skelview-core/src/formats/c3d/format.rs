//! C3D in the format table.

use crate::core::units::UpAxis;
use crate::core::{Format, Motion};
use crate::formats::capture_motion::{self, Declared};
use crate::formats::error::LoadError;
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType};
use crate::formats::options::{Choice, FormatOption, OptionScope, OptionValues};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "C3D",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (each marker's position is its joint's)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// The format's options.
pub static OPTIONS: [FormatOption; 2] = [
    // Whether a sample at exactly (0, 0, 0) is a gap.
    FormatOption {
        key: "c3d.zero_points",
        alias: None,
        label: "C3D points at (0, 0, 0)",
        help: "whether a sample at exactly (0, 0, 0) is a gap (writers that mark lost points that way) or a position",
        scope: OptionScope::File,
        values: OptionValues::Choice {
            choices: &[Choice { value: "gap", label: "a gap (default)" }, Choice { value: "keep", label: "a position" }],
            default: "gap",
        },
    },
    // Which of the lab's axes points right on screen, over the file's `POINT:X_SCREEN`.
    FormatOption {
        key: "c3d.x_screen",
        alias: None,
        label: "C3D axis to the right (X_SCREEN)",
        help: "the lab axis drawn pointing right, turning the capture about the up axis (the file's POINT:X_SCREEN by default); use it to line markers up with a skeleton exported in other axes",
        scope: OptionScope::File,
        values: OptionValues::Choice {
            choices: &[
                Choice { value: "file", label: "as the file says (default)" },
                Choice { value: "+X", label: "+X" },
                Choice { value: "-X", label: "-X" },
                Choice { value: "+Y", label: "+Y" },
                Choice { value: "-Y", label: "-Y" },
                Choice { value: "+Z", label: "+Z" },
                Choice { value: "-Z", label: "-Z" },
            ],
            default: "file",
        },
    },
];

/// Whether a sample at exactly (0, 0, 0) is a gap.
pub static ZERO_POINTS: &FormatOption = &OPTIONS[0];
/// Which lab axis points right on screen.
pub static X_SCREEN: &FormatOption = &OPTIONS[1];

/// C3D: 3D points, analog channels, force platforms, events.
pub struct C3d;

impl Declares for C3d {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "C3D biomechanics capture: markers, analog channels, force platforms and events",
        extensions: &["c3d"],
        mime_types: &[MimeType {
            name: "application/x-c3d",
            comment: "C3D motion capture",
            globs: &["*.c3d"],
            parent: "application/octet-stream",
            glob_weight: 60,
            magic: &[],
        }],
        sniff: |_text, raw| {
            // Byte 2 is the key 0x50; the parameter section (usually block 2) starts with a
            // processor type of 84–86 in its fourth byte.
            raw.len() >= 516
                && raw[1] == 0x50
                && raw[0] >= 1
                && raw.get((raw[0] as usize - 1) * 512 + 3).is_some_and(|&p| (84..=86).contains(&p))
        },
    };
}

impl FileFormat for C3d {
    fn options(&self) -> &'static [FormatOption] {
        &OPTIONS
    }
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        capture_motion::load_source(FORMAT, source, observer, |path, source, observer| {
            let read = super::ReadOptions { zero_is_gap: ZERO_POINTS.choice(&options.format) == "gap" };
            // Files and bytes in memory alike are read block by block, with progress and cancel.
            let progress = &mut |done, total| observer.progress(done, Some(total));
            let parsed = match source {
                Source::File(path) => super::parse_c3d_file(path, read, progress)?,
                Source::Memory { bytes, .. } => super::parse_c3d_read(&mut &bytes[..], bytes.len() as u64, read, progress)
                    .map_err(|e| LoadError::from_binary(path, e))?,
            };
            let capture = parsed.capture;
            let axes = &capture.axes;
            let up = axes.y_screen.as_deref().and_then(UpAxis::parse);
            let right = match X_SCREEN.choice(&options.format) {
                "file" => axes.x_screen.as_deref().and_then(UpAxis::parse),
                chosen => UpAxis::parse(chosen),
            };
            let mut details = parsed.details;
            let y_screen = axes.y_screen.as_deref().unwrap_or("(none: up detected)");
            details.push((
                "axes".into(),
                format!("X_SCREEN {}, Y_SCREEN {y_screen}", right.map_or_else(|| "(none)".to_owned(), UpAxis::signed_name)),
            ));
            let declared = Declared { up, right, frames: Some(capture.frames as u64), details, convention: None };
            Ok((capture, declared, capture_motion::binary_warnings(path, parsed.warnings)))
        })
    }
}
