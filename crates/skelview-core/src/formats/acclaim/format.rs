//! Acclaim ASF/AMC in the format table: two extensions, a skeleton file and the motions that
//! need it, and the pairing of an `.amc` with its `.asf`.

use std::path::{Path, PathBuf};

use crate::core::{Clip, Format, Motion};
use crate::formats::error::{LoadError, locate_warnings};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, Role, line_starts_with};
use crate::formats::finish::{self, Parsed};
use crate::formats::options::{FormatOption, OptionScope, OptionValues};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "ASF/AMC",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: true,
    position_note: "add (root translation is added to the ASF root position)",
    assumed_rate_note: Some("AMC states none; --amc-fps or --format-option amc.fps=N to change"),
    file_quaternions: false,
};

/// The frame rate of AMC files, which state none.
pub static FRAME_RATE: FormatOption = FormatOption {
    key: "amc.fps",
    alias: Some("amc-fps"),
    label: "AMC frame rate",
    help: "frames per second of AMC files, which state none (CMU and HDM05 capture at 120)",
    scope: OptionScope::File,
    values: OptionValues::Number {
        min: 0.001,
        max: 100_000.0,
        default: 1.0 / super::DEFAULT_AMC_FRAME_TIME_SECS,
        unit: "fps",
        presets: &[24.0, 25.0, 30.0, 60.0, 100.0, 120.0, 240.0],
    },
};

/// Acclaim ASF (skeleton) + AMC (motion).
pub struct Acclaim;

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

impl Declares for Acclaim {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "Acclaim skeleton (.asf) and motion (.amc), as CMU and HDM05 publish them",
        extensions: &["asf", "amc"],
        mime_types: &[
            MimeType {
                name: "application/x-acclaim-asf",
                comment: "Acclaim skeleton",
                globs: &["*.asf"],
                parent: "text/plain",
                // A high weight and magic let ".asf" skeletons win over ASF video by content.
                glob_weight: 60,
                magic: &[(":version", "0:2048"), (":bonedata", "0:8192")],
            },
            MimeType {
                name: "application/x-acclaim-amc",
                comment: "Acclaim motion capture",
                globs: &["*.amc"],
                parent: "text/plain",
                glob_weight: 60,
                magic: &[(":FULLY-SPECIFIED", "0:4096"), (":DEGREES", "0:4096")],
            },
        ],
        sniff: |text, _raw| {
            // Acclaim keywords open their lines; elsewhere (X3D, HTR) a line never starts with ':'.
            let at = |k: &[u8]| line_starts_with(text, k);
            at(b":bonedata") || (at(b":version") && at(b":root")) || at(b":fully-specified") || at(b":degrees")
        },
    };
}

impl FileFormat for Acclaim {
    fn role(&self, path: &Path) -> Role {
        let skeleton_content = || line_starts_with(&crate::formats::read_head(path).to_ascii_lowercase(), b":bonedata");
        if has_ext(path, "amc") || (!has_ext(path, "asf") && !skeleton_content()) { Role::NeedsSkeleton } else { Role::Skeleton }
    }
    fn find_skeleton(&self, path: &Path) -> Result<PathBuf, crate::formats::file_format::NoSkeleton> {
        super::pairing::find_asf(path)
    }
    fn companions(&self, m: &Motion) -> Vec<PathBuf> {
        if m.source.paths.len() != 1 {
            return Vec::new();
        }
        let Some(dir) = m.source.paths[0].parent() else { return Vec::new() };
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| has_ext(p, "amc")).collect())
            .unwrap_or_default();
        v.sort();
        v
    }
    fn options(&self) -> &'static [FormatOption] {
        std::slice::from_ref(&FRAME_RATE)
    }
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let (asf_src, amc_src) = match sources {
            [asf] => (asf, None),
            [asf, amc] => (asf, Some(amc)),
            _ => return Err(crate::formats::wrong_sources(self, sources)),
        };
        let asf_path = asf_src.path().to_owned();
        let asf_bytes = asf_src.read_all()?;
        let asf = super::parse_asf(&asf_bytes).map_err(|e| LoadError::from_parse(&asf_path, &mut &asf_bytes[..], e))?;
        let mut warnings = locate_warnings(&asf_path, &mut &asf_bytes[..], asf.warnings);
        let n = asf.skeleton.channels_per_frame();
        let frame_time_secs = 1.0 / FRAME_RATE.number(&options.format);
        observer.skeleton_ready(&asf.skeleton, &Clip::empty(frame_time_secs, n));
        let mut paths = vec![asf_path];
        let clip = match amc_src {
            None => Clip::empty(frame_time_secs, n),
            Some(src) => {
                let amc_path = src.path().to_owned();
                let bytes = src.read_all()?;
                if observer.progress(0, Some(bytes.len() as u64)).is_break() {
                    return Err(LoadError::Cancelled { path: amc_path });
                }
                let amc = super::parse_amc(&bytes, &asf.skeleton, asf.radians, frame_time_secs)
                    .map_err(|e| LoadError::from_parse(&amc_path, &mut &bytes[..], e))?;
                warnings.extend(locate_warnings(&amc_path, &mut &bytes[..], amc.warnings));
                if observer.progress(bytes.len() as u64, Some(bytes.len() as u64)).is_break() {
                    return Err(LoadError::Cancelled { path: amc_path });
                }
                paths.push(amc_path);
                amc.clip
            }
        };
        let mut parsed = Parsed::new(asf.skeleton, clip, if asf.radians { "rad" } else { "deg" });
        parsed.declared_units = asf.units_text;
        parsed.length_divisor = asf.length_multiplier;
        Ok(finish::motion(FORMAT, paths, parsed, warnings))
    }
}
