//! H-Anim humanoids in the format table: X3D XML and ClassicVRML.

use crate::core::{Format, LengthUnit, Motion, UpAxis};
use crate::formats::error::LoadError;
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, contains};
use crate::formats::finish::{self, Parsed};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "H-Anim",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "add (interpolated translation is added to the joint centre offset)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// H-Anim humanoids in X3D (XML or ClassicVRML) and VRML97.
pub struct HAnim;

impl Declares for HAnim {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "H-Anim humanoid in X3D XML, ClassicVRML or VRML97",
        extensions: &["x3d", "x3dv", "wrl"],
        mime_types: // X3D files are only ours when they hold a humanoid: a low glob weight leaves other X3D
        // to the standard types, the magic claims the H-Anim ones by content.
        &[
            MimeType {
                name: "model/x-hanim+xml",
                comment: "H-Anim humanoid (X3D)",
                globs: &["*.x3d"],
                parent: "model/x3d+xml",
                glob_weight: 40,
                magic: &[("HAnimHumanoid", "0:65536")],
            },
            MimeType {
                name: "model/x-hanim+vrml",
                comment: "H-Anim humanoid (ClassicVRML)",
                globs: &["*.x3dv", "*.wrl"],
                parent: "model/x3d+vrml",
                glob_weight: 40,
                magic: &[("HAnimHumanoid", "0:65536")],
            },
        ],
        sniff: |text, _raw| contains(text, b"hanimhumanoid") || contains(text, b"hanimjoint") || text.starts_with(b"#x3d v"),
    };
}

impl FileFormat for HAnim {
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&bytes);
        let xml = body.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'<');
        finish::single(FORMAT, source.path(), &bytes, observer, |b| {
            let take = options.take.as_deref();
            let p = if xml { super::parse_x3d_take(b, take)? } else { super::parse_vrml_take(b, take)? };
            let mut parsed = Parsed::new(p.skeleton, p.clip, "rad");
            parsed.details = p.details;
            parsed.takes = p.takes;
            parsed.declared_units = Some("m (X3D)".into());
            // X3D lengths are metres and +Y is up (X3D 19775-1, 4.3.5).
            (parsed.unit, parsed.up) = (Some(LengthUnit::Metre), Some(UpAxis::Y));
            Ok((parsed, p.warnings))
        })
    }
}
