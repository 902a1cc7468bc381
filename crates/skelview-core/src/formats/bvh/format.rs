//! BVH in the format table: detection, MIME type, and loading from a file (streamed) or
//! from memory.

use crate::core::{Format, Motion, PositionRule};
use crate::formats::error::{FileLines, LineSource, LoadError, locate_warnings};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType};
use crate::formats::finish::{self, Parsed};
use crate::formats::options::{Choice, FormatOption, OptionScope, OptionValues};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "BVH",
    channel_names: crate::core::ChannelNames::Bvh,
    joints_at_far_end: false,
    position_note: "",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// What BVH position channels do to the OFFSET: exporters disagree, so the user chooses.
pub static POSITIONS: FormatOption = FormatOption {
    key: "bvh.positions",
    alias: Some("bvh-positions"),
    label: "BVH position channels",
    help: "whether position channels replace the joint's OFFSET (Blender, bvhio) or are added to it (Meredith–Maddock, three.js)",
    scope: OptionScope::File,
    values: OptionValues::Choice {
        choices: &[
            Choice { value: "replace", label: "replace the OFFSET (default)" },
            Choice { value: "add", label: "add to the OFFSET (Meredith–Maddock)" },
        ],
        default: "replace",
    },
};

/// The position rule `options` ask for.
pub fn position_rule(options: &LoadOptions) -> PositionRule {
    if POSITIONS.choice(&options.format) == "add" { PositionRule::Add } else { PositionRule::Replace }
}

/// Biovision BVH.
pub struct Bvh;

impl Declares for Bvh {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "Biovision hierarchy: a joint tree, then one row of channel values per frame",
        extensions: &["bvh"],
        mime_types: &[MimeType {
            name: "application/x-bvh",
            comment: "Biovision motion capture",
            globs: &["*.bvh"],
            parent: "text/plain",
            glob_weight: 60,
            magic: &[("HIERARCHY", "0:64")],
        }],
        sniff: |text, _raw| text.starts_with(b"hierarchy"),
    };
}

impl FileFormat for Bvh {
    fn options(&self) -> &'static [FormatOption] {
        std::slice::from_ref(&POSITIONS)
    }
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(super::super::wrong_sources(self, sources)) };
        let path = source.path().to_owned();
        let result = match source {
            Source::File(p) => {
                let file = std::fs::File::open(p).map_err(|source| LoadError::Io { path: path.clone(), source })?;
                super::load_file(&file, position_rule(options), parallel, observer)
            }
            Source::Memory { bytes, .. } => super::parse_slice(bytes, position_rule(options), parallel, observer),
        };
        // Errors and warnings are located lazily: the file is re-read only when there are any.
        let mut lines: Box<dyn LineSource + '_> = match source {
            Source::File(p) => Box::new(FileLines(p)),
            Source::Memory { bytes, .. } => Box::new(&bytes[..]),
        };
        let parsed = result.map_err(|e| LoadError::from_parse(&path, lines.as_mut(), e))?;
        let warnings = locate_warnings(&path, lines.as_mut(), parsed.warnings);
        let mut out = Parsed::new(parsed.skeleton, parsed.clip, "deg");
        out.declared_frames = Some(parsed.declared_frames);
        Ok(finish::motion(FORMAT, vec![path], out, warnings))
    }
}
