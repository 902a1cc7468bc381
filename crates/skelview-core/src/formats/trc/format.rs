//! TRC in the format table.

use crate::core::{Format, Motion};
use crate::formats::capture_motion::{self, Declared};
use crate::formats::error::{LoadError, locate_warnings};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, line_starts_with};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "TRC",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (each marker's position is its joint's)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// TRC marker trajectories (Motion Analysis, OpenSim).
pub struct Trc;

impl Declares for Trc {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "TRC marker trajectories (Motion Analysis, OpenSim): one row of marker positions per frame",
        extensions: &["trc"],
        mime_types: &[MimeType {
            name: "application/x-trc",
            comment: "TRC marker trajectories",
            globs: &["*.trc"],
            parent: "text/plain",
            glob_weight: 60,
            magic: &[("PathFileType", "0")],
        }],
        sniff: |text, _raw| line_starts_with(text, b"pathfiletype"),
    };
}

impl FileFormat for Trc {
    fn load(
        &self,
        sources: &[Source],
        _options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        capture_motion::load(FORMAT, source, observer, |path, bytes| {
            let parsed = super::parse_trc(bytes).map_err(|e| LoadError::from_parse(path, &mut &bytes[..], e))?;
            let warnings = locate_warnings(path, &mut &bytes[..], parsed.warnings);
            // A TRC names no axes; OpenSim, which defined it, writes +Y up.
            let convention = Some((crate::core::UpAxis::Y, "TRC convention: +Y up, as OpenSim writes it"));
            let declared = Declared { up: None, right: None, frames: parsed.declared_frames, details: Vec::new(), convention };
            Ok((parsed.capture, declared, warnings))
        })
    }
}
