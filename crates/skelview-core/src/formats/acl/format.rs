//! ACL raw clips in the format table: `.acl.sjson`, and `.acl.zip` read in memory.

use std::path::PathBuf;

use crate::core::{Format, Motion};
use crate::formats::error::LoadError;
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, contains};
use crate::formats::finish::{self, Parsed};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "ACL",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (a translation track replaces the bind translation)",
    assumed_rate_note: None,
    file_quaternions: true,
};

/// Animation Compression Library raw clips.
pub struct Acl;

impl Declares for Acl {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "Animation Compression Library raw clip (SJSON text, or zipped)",
        extensions: &["acl.sjson", "acl.zip"],
        mime_types: &[
            MimeType {
                name: "application/x-acl-sjson",
                comment: "ACL raw animation clip",
                globs: &["*.acl.sjson"],
                parent: "text/plain",
                glob_weight: 60,
                magic: &[],
            },
            MimeType {
                name: "application/x-acl-zip",
                comment: "ACL raw animation clip (zipped)",
                globs: &["*.acl.zip"],
                parent: "application/zip",
                glob_weight: 60,
                magic: &[],
            },
        ],
        sniff: |text, raw| {
            // The only zipped format skelview reads is the ACL clip.
            raw.starts_with(b"PK\x03\x04")
                || ((contains(text, b"version =") || contains(text, b"version="))
                    && (contains(text, b"clip =") || contains(text, b"bones =") || contains(text, b"track_list")))
        },
    };
}

impl FileFormat for Acl {
    fn load(
        &self,
        sources: &[Source],
        _options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        let path = source.path().to_owned();
        let parse = |b: &[u8]| {
            let p = super::parse_acl(b)?;
            let mut parsed = Parsed::new(p.skeleton, p.clip, "quaternion");
            parsed.details = p.details;
            Ok((parsed, p.warnings))
        };
        if !bytes.starts_with(b"PK\x03\x04") {
            return finish::single(FORMAT, &path, &bytes, observer, parse);
        }
        let (entry, inner) = super::unzip_clip(&bytes).map_err(|e| LoadError::from_parse(&path, &mut &bytes[..], e))?;
        // Lines and columns of problems inside the archive refer to the clip it holds.
        let inner_path = PathBuf::from(format!("{}!/{entry}", path.display()));
        let mut m = finish::single(FORMAT, &inner_path, &inner, observer, parse)?;
        m.source.paths = vec![path];
        m.source.details.insert(0, ("zip entry".into(), entry));
        Ok(m)
    }
}
