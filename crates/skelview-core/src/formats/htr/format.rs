//! HTR/GTR in the format table.

use crate::core::{Format, Motion};
use crate::formats::error::LoadError;
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, contains};
use crate::formats::finish::{self, Parsed};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "HTR",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "add (frame translation is added to the base position)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// Motion Analysis HTR (hierarchical) and GTR (global) translation-rotation files.
pub struct Htr;

impl Declares for Htr {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "Motion Analysis hierarchical (.htr) or global (.gtr) translation-rotation",
        extensions: &["htr", "gtr"],
        mime_types: &[
            MimeType {
                name: "application/x-motion-analysis-htr",
                comment: "Motion Analysis HTR",
                globs: &["*.htr"],
                parent: "text/plain",
                glob_weight: 60,
                magic: &[("[Header]", "0:2048")],
            },
            MimeType {
                name: "application/x-motion-analysis-gtr",
                comment: "Motion Analysis GTR",
                globs: &["*.gtr"],
                parent: "text/plain",
                glob_weight: 60,
                magic: &[("[Header]", "0:2048")],
            },
        ],
        sniff: |text, _raw| {
            contains(text, b"[header]")
                && (contains(text, b"filetype htr") || contains(text, b"filetype gtr") || contains(text, b"[segmentnames"))
        },
    };
}

impl FileFormat for Htr {
    fn load(
        &self,
        sources: &[Source],
        _options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        finish::single(FORMAT, source.path(), &bytes, observer, |b| {
            let p = super::parse_htr(b)?;
            let mut parsed = Parsed::new(p.skeleton, p.clip, if p.radians { "rad" } else { "deg" });
            (parsed.declared_frames, parsed.declared_units, parsed.unit, parsed.up, parsed.details) =
                (p.declared_frames, p.unit_text, p.unit, p.up, p.details);
            Ok((parsed, p.warnings))
        })
    }
}
