//! OpenSim `.mot`/`.sto` in the format table.

use crate::core::{Format, Motion, Warning};
use crate::formats::capture_motion::{self, Declared};
use crate::formats::error::{LoadError, locate_warnings};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "MOT",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "none (coordinates over time, no markers)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// OpenSim motion and storage files.
pub struct Mot;

impl Declares for Mot {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "OpenSim motion or storage (coordinates or forces over time): plotted as channels; posing them needs the OpenSim model",
        extensions: &["mot", "sto"],
        mime_types: &[MimeType {
            name: "application/x-opensim-motion",
            comment: "OpenSim motion (coordinates over time)",
            globs: &["*.mot", "*.sto"],
            parent: "text/plain",
            glob_weight: 60,
            magic: &[],
        }],
        sniff: |text, _raw| {
            // The header ends with a line `endheader` within its first lines.
            text.split(|&c| c == b'\n').take(40).any(|l| l.trim_ascii().eq_ignore_ascii_case(b"endheader"))
        },
    };
}

impl FileFormat for Mot {
    fn load(
        &self,
        sources: &[Source],
        _options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        capture_motion::load(FORMAT, source, observer, |path, bytes| {
            let parsed = super::parse_mot(bytes).map_err(|e| LoadError::from_parse(path, &mut &bytes[..], e))?;
            let mut warnings = locate_warnings(path, &mut &bytes[..], parsed.warnings);
            warnings.push(Warning {
                path: path.to_owned(),
                line: 1,
                col: 1,
                message: format!(
                    "an OpenSim motion holds {} columns over time and no markers: they are plotted as channels (the curves window's signal list); posing them needs the OpenSim model",
                    parsed.capture.analog.channels.len()
                ),
            });
            let declared = Declared { up: None, right: None, frames: parsed.declared_rows, details: parsed.details, convention: None };
            Ok((parsed.capture, declared, warnings))
        })
    }
}
