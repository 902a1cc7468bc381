//! File formats: detection, loading into a [`Motion`], errors with `file:line:col`.

pub mod acclaim;
pub mod acl;
pub mod bvh;
pub mod error;
pub mod hanim;
pub mod htr;
pub mod mnm;
pub mod text;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::{LoadError, ParseError, ParseErrorKind, RawWarning};

use crate::core::units::{LengthUnit, detect_body_size};
use crate::core::{Clip, Format, Motion, PositionRule, Skeleton, SourceInfo};
use error::{FileLines, LineSource, locate_warnings};

/// Runs independent jobs, possibly at the same time. The core never spawns threads itself;
/// callers that may (the loader, the CLI) pass a runner that does.
pub trait Parallel: Sync {
    /// How many parts are worth splitting work into.
    fn width(&self) -> usize;
    /// Runs every job to completion before returning.
    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>);
}

/// Runs jobs one after the other on the calling thread.
pub struct Sequential;

impl Parallel for Sequential {
    fn width(&self) -> usize {
        1
    }
    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        jobs.into_iter().for_each(|job| job());
    }
}

/// Hears about a load while it runs.
pub trait LoadObserver {
    /// Called once, as soon as the skeleton and the first frames are parsed.
    fn skeleton_ready(&mut self, _skeleton: &Skeleton, _first_frames: &Clip) {}
    /// Called after each block; `Break` cancels the load.
    fn progress(&mut self, _bytes_done: u64, _bytes_total: Option<u64>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// An observer that ignores everything.
pub struct Quiet;
impl LoadObserver for Quiet {}

/// Choices a user can make about how files are read.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadOptions {
    /// What BVH position channels do to offsets.
    pub bvh_positions: PositionRule,
    /// Frame time for AMC files (they state none).
    pub amc_frame_time_secs: f64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self { bvh_positions: PositionRule::Replace, amc_frame_time_secs: acclaim::DEFAULT_AMC_FRAME_TIME_SECS }
    }
}

/// What a file is, by extension first and content second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `.bvh`
    Bvh,
    /// `.asf`
    Asf,
    /// `.amc`
    Amc,
    /// `.htr` or `.gtr`
    Htr,
    /// `.acl.sjson` or `.acl.zip`
    Acl,
    /// `.x3d`, `.x3dv`, or a `.wrl` holding H-Anim nodes
    HAnim,
    /// `.mnm`: a Character Studio joint-name map, not a motion
    NameMap,
    /// Anything else.
    Unknown,
}

impl FileKind {
    /// Detects the kind from the path's extension, else from the first bytes.
    pub fn detect(path: &Path, head: &[u8]) -> Self {
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let ext = name.rsplit('.').next().unwrap_or("");
        match ext {
            "bvh" => return Self::Bvh,
            "asf" => return Self::Asf,
            "amc" => return Self::Amc,
            "htr" | "gtr" => return Self::Htr,
            "x3d" | "x3dv" | "wrl" => return Self::HAnim,
            "mnm" => return Self::NameMap,
            _ => {}
        }
        if name.ends_with(".acl.sjson") || name.ends_with(".acl.zip") {
            return Self::Acl;
        }
        Self::sniff(head)
    }

    /// Detects the kind from content alone.
    pub fn sniff(head: &[u8]) -> Self {
        let head = head.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(head);
        let start = head.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(head.len());
        let text = head[start..head.len().min(start + 4096)].to_ascii_lowercase();
        let contains = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
        if head.starts_with(b"PK\x03\x04") {
            // A zip: the only zipped format skelview reads is the ACL clip.
            Self::Acl
        } else if text.starts_with(b"hierarchy") {
            Self::Bvh
        } else if contains(b"[header]") && (contains(b"filetype htr") || contains(b"filetype gtr") || contains(b"[segmentnames")) {
            Self::Htr
        } else if contains(b"hanimhumanoid") || contains(b"hanimjoint") || text.starts_with(b"#x3d v") {
            Self::HAnim
        } else if (contains(b"version =") || contains(b"version="))
            && (contains(b"clip =") || contains(b"bones =") || contains(b"track_list"))
        {
            Self::Acl
        } else if contains(b":bonedata") || (contains(b":version") && contains(b":root")) {
            Self::Asf
        } else if contains(b":fully-specified") || contains(b":degrees") {
            Self::Amc
        } else {
            Self::Unknown
        }
    }
}

/// Bytes to load, from a file or from memory (the bundled sample).
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A file on disk.
    File(PathBuf),
    /// Bytes in memory, with a name for messages.
    Memory {
        /// Name shown in messages.
        name: PathBuf,
        /// The contents.
        bytes: Arc<[u8]>,
    },
}

impl Source {
    /// The path or name used in messages.
    pub fn path(&self) -> &Path {
        match self {
            Self::File(p) => p,
            Self::Memory { name, .. } => name,
        }
    }

    fn read_all(&self) -> Result<Arc<[u8]>, LoadError> {
        match self {
            Self::File(p) => std::fs::read(p).map(Arc::from).map_err(|source| LoadError::Io { path: p.clone(), source }),
            Self::Memory { bytes, .. } => Ok(bytes.clone()),
        }
    }
}

/// One motion to load: a BVH file, or an ASF with an optional AMC.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadRequest {
    /// A BVH file.
    Bvh(Source),
    /// An Acclaim skeleton and, optionally, a motion for it.
    Acclaim {
        /// The skeleton file.
        asf: Source,
        /// The motion file (rest pose only when absent).
        amc: Option<Source>,
    },
    /// A Motion Analysis HTR or GTR file.
    Htr(Source),
    /// An ACL raw clip, plain (`.acl.sjson`) or zipped (`.acl.zip`).
    Acl(Source),
    /// An H-Anim humanoid in X3D XML or ClassicVRML.
    HAnim(Source),
}

impl LoadRequest {
    /// The file named first in messages (the AMC for an Acclaim pair: that is what users open).
    pub fn main_path(&self) -> &Path {
        match self {
            Self::Bvh(s) | Self::Htr(s) | Self::Acl(s) | Self::HAnim(s) | Self::Acclaim { asf: s, amc: None } => s.path(),
            Self::Acclaim { amc: Some(m), .. } => m.path(),
        }
    }

    /// The file on disk the user opened (the AMC of a pair), if it is one.
    pub fn file_path(&self) -> Option<&Path> {
        match self {
            Self::Bvh(Source::File(p))
            | Self::Htr(Source::File(p))
            | Self::Acl(Source::File(p))
            | Self::HAnim(Source::File(p))
            | Self::Acclaim { amc: Some(Source::File(p)), .. }
            | Self::Acclaim { asf: Source::File(p), amc: None } => Some(p),
            _ => None,
        }
    }

    /// Groups command-line paths into requests: an `.amc` pairs with an `.asf` given beside it
    /// (the nearest one before it, else after it), or with one found next to it on disk; an
    /// `.asf` that no `.amc` took is loaded alone (rest pose).
    pub fn from_paths(paths: &[PathBuf]) -> Vec<Result<LoadRequest, LoadError>> {
        let kinds: Vec<FileKind> = paths.iter().map(|p| FileKind::detect(p, &read_head(p))).collect();
        let mut asf_used = vec![false; paths.len()];
        let mut out = Vec::new();
        for (i, p) in paths.iter().enumerate() {
            match kinds[i] {
                FileKind::Bvh => out.push(Ok(Self::Bvh(Source::File(p.clone())))),
                FileKind::Amc => {
                    let before = (0..i).rev().find(|&k| kinds[k] == FileKind::Asf);
                    let after = (i + 1..paths.len()).find(|&k| kinds[k] == FileKind::Asf);
                    let asf = match before.or(after) {
                        Some(k) => {
                            asf_used[k] = true;
                            Ok(paths[k].clone())
                        }
                        None => acclaim::pairing::find_asf(p).map_err(|message| LoadError::Unsupported { path: p.clone(), message }),
                    };
                    out.push(asf.map(|a| Self::Acclaim { asf: Source::File(a), amc: Some(Source::File(p.clone())) }));
                }
                FileKind::Asf => out.push(Ok(Self::Acclaim { asf: Source::File(p.clone()), amc: None })),
                FileKind::Htr => out.push(Ok(Self::Htr(Source::File(p.clone())))),
                FileKind::Acl => out.push(Ok(Self::Acl(Source::File(p.clone())))),
                FileKind::HAnim => out.push(Ok(Self::HAnim(Source::File(p.clone())))),
                FileKind::NameMap => out.push(Err(LoadError::Unsupported {
                    path: p.clone(),
                    message: "a Character Studio joint-name map (MNM), not a motion: use it with `compare --mnm` or `info --mnm`".into(),
                })),
                FileKind::Unknown => out.push(Err(LoadError::Unsupported {
                    path: p.clone(),
                    message: "not a motion file skelview reads (expected .bvh, .asf/.amc, .htr/.gtr, .acl.sjson/.acl.zip, .x3d/.x3dv/.wrl)"
                        .into(),
                })),
            }
        }
        // Drop the lone-ASF requests whose ASF an AMC took.
        let mut k = 0;
        out.retain(|_| {
            let keep = !(kinds[k] == FileKind::Asf && asf_used[k]);
            k += 1;
            keep
        });
        out
    }
}

fn read_head(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(4096).read_to_end(&mut head);
    }
    head
}

/// Loads one request into a [`Motion`].
pub fn load(
    request: &LoadRequest,
    options: &LoadOptions,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Motion, LoadError> {
    match request {
        LoadRequest::Bvh(source) => load_bvh(source, options, parallel, observer),
        LoadRequest::Acclaim { asf, amc } => load_acclaim(asf, amc.as_ref(), options, observer),
        LoadRequest::Htr(source) => load_htr(source, observer),
        LoadRequest::Acl(source) => load_acl(source, observer),
        LoadRequest::HAnim(source) => load_hanim(source, observer),
    }
}

/// What a one-file loader hands back, before units are settled.
struct Single {
    skeleton: Skeleton,
    clip: Clip,
    warnings: Vec<RawWarning>,
    details: Vec<(String, String)>,
    declared_frames: Option<u64>,
    declared_units: Option<String>,
    unit: Option<LengthUnit>,
    up: Option<crate::core::UpAxis>,
    angle_unit: &'static str,
}

/// Shared tail of the one-file formats: progress, line:col for errors and warnings, units.
fn finish_single(
    path: PathBuf,
    bytes: &[u8],
    format: Format,
    observer: &mut dyn LoadObserver,
    parse: impl FnOnce(&[u8]) -> Result<Single, ParseError>,
) -> Result<Motion, LoadError> {
    let total = bytes.len() as u64;
    if observer.progress(0, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let parsed = parse(bytes).map_err(|e| LoadError::from_parse(&path, &mut &bytes[..], e))?;
    observer.skeleton_ready(&parsed.skeleton, &parsed.clip);
    if observer.progress(total, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let warnings = locate_warnings(&path, &mut &bytes[..], parsed.warnings);
    let size = detect_body_size(&parsed.skeleton, &parsed.clip);
    let source = SourceInfo {
        format,
        paths: vec![path],
        declared_frames: parsed.declared_frames,
        declared_units: parsed.declared_units,
        length_divisor: 1.0,
        unit: parsed.unit.unwrap_or_else(|| LengthUnit::from_height(size.height)),
        unit_detected: parsed.unit.is_none(),
        up_axis: parsed.up.unwrap_or(size.up),
        up_detected: parsed.up.is_none(),
        body_height: size.height,
        angle_unit: parsed.angle_unit,
        details: parsed.details,
    };
    Ok(Motion { skeleton: parsed.skeleton, clip: parsed.clip, source, warnings })
}

fn load_htr(source: &Source, observer: &mut dyn LoadObserver) -> Result<Motion, LoadError> {
    let bytes = source.read_all()?;
    finish_single(source.path().to_owned(), &bytes, Format::Htr, observer, |b| {
        let p = htr::parse_htr(b)?;
        Ok(Single {
            skeleton: p.skeleton,
            clip: p.clip,
            warnings: p.warnings,
            details: p.details,
            declared_frames: p.declared_frames,
            declared_units: p.unit_text,
            unit: p.unit,
            up: p.up,
            angle_unit: if p.radians { "rad" } else { "deg" },
        })
    })
}

fn load_bvh(source: &Source, options: &LoadOptions, parallel: &dyn Parallel, observer: &mut dyn LoadObserver) -> Result<Motion, LoadError> {
    let path = source.path().to_owned();
    let result = match source {
        Source::File(p) => {
            let file = std::fs::File::open(p).map_err(|source| LoadError::Io { path: path.clone(), source })?;
            let total = file.metadata().ok().map(|m| m.len());
            bvh::load(file, total, options.bvh_positions, parallel, observer)
        }
        Source::Memory { bytes, .. } => bvh::parse_slice(bytes, options.bvh_positions, parallel, observer),
    };
    let mut lines: Box<dyn LineSource> = match source {
        Source::File(p) => Box::new(FileLines(p)),
        Source::Memory { bytes, .. } => Box::new(MemLines(bytes.clone())),
    };
    let parsed = result.map_err(|e| LoadError::from_parse(&path, lines.as_mut(), e))?;
    let warnings = locate_warnings(&path, lines.as_mut(), parsed.warnings);
    let size = detect_body_size(&parsed.skeleton, &parsed.clip);
    let source_info = SourceInfo {
        format: Format::Bvh,
        paths: vec![path],
        declared_frames: Some(parsed.declared_frames),
        declared_units: None,
        length_divisor: 1.0,
        unit: LengthUnit::from_height(size.height),
        unit_detected: true,
        up_axis: size.up,
        up_detected: true,
        body_height: size.height,
        angle_unit: "deg",
        details: Vec::new(),
    };
    Ok(Motion { skeleton: parsed.skeleton, clip: parsed.clip, source: source_info, warnings })
}

struct MemLines(Arc<[u8]>);
impl LineSource for MemLines {
    fn line_cols(&mut self, offsets: &[u64]) -> Vec<(usize, usize)> {
        (&self.0[..]).line_cols(offsets)
    }
}

fn load_acclaim(
    asf_src: &Source,
    amc_src: Option<&Source>,
    options: &LoadOptions,
    observer: &mut dyn LoadObserver,
) -> Result<Motion, LoadError> {
    let asf_path = asf_src.path().to_owned();
    let asf_bytes = asf_src.read_all()?;
    let asf = acclaim::parse_asf(&asf_bytes).map_err(|e| LoadError::from_parse(&asf_path, &mut &asf_bytes[..], e))?;
    let mut warnings = locate_warnings(&asf_path, &mut &asf_bytes[..], asf.warnings);
    let n = asf.skeleton.channels_per_frame();
    observer.skeleton_ready(&asf.skeleton, &Clip::empty(options.amc_frame_time_secs, n));
    let mut paths = vec![asf_path];
    let clip = match amc_src {
        None => Clip::empty(options.amc_frame_time_secs, n),
        Some(src) => {
            let amc_path = src.path().to_owned();
            let bytes = src.read_all()?;
            if observer.progress(0, Some(bytes.len() as u64)).is_break() {
                return Err(LoadError::Cancelled { path: amc_path });
            }
            let amc = acclaim::parse_amc(&bytes, &asf.skeleton, asf.radians, options.amc_frame_time_secs)
                .map_err(|e| LoadError::from_parse(&amc_path, &mut &bytes[..], e))?;
            warnings.extend(locate_warnings(&amc_path, &mut &bytes[..], amc.warnings));
            if observer.progress(bytes.len() as u64, Some(bytes.len() as u64)).is_break() {
                return Err(LoadError::Cancelled { path: amc_path });
            }
            paths.push(amc_path);
            amc.clip
        }
    };
    let size = detect_body_size(&asf.skeleton, &clip);
    let height_in_file_units = size.height / asf.length_multiplier;
    let source = SourceInfo {
        format: Format::AsfAmc,
        paths,
        declared_frames: None,
        declared_units: asf.units_text,
        length_divisor: asf.length_multiplier,
        unit: LengthUnit::from_height(height_in_file_units),
        unit_detected: true,
        up_axis: size.up,
        up_detected: true,
        body_height: size.height,
        angle_unit: if asf.radians { "rad" } else { "deg" },
        details: Vec::new(),
    };
    Ok(Motion { skeleton: asf.skeleton, clip, source, warnings })
}

/// The sample shown when no file is given (MIT test file; see assets/SAMPLES.md).
pub const SAMPLE_BVH: &[u8] = include_bytes!("../../assets/walk01.bvh");
/// Name the bundled sample is reported under.
pub const SAMPLE_NAME: &str = "assets/walk01.bvh";

/// A request for the bundled sample.
pub fn sample_request() -> LoadRequest {
    LoadRequest::Bvh(Source::Memory { name: SAMPLE_NAME.into(), bytes: Arc::from(SAMPLE_BVH) })
}

/// The bundled sample, loaded on the calling thread with default options.
pub fn load_sample() -> Result<Motion, LoadError> {
    load(&sample_request(), &LoadOptions::default(), &Sequential, &mut Quiet)
}

/// Loads a file or an ASF/AMC pair on the calling thread with default options.
pub fn load_paths(paths: &[PathBuf]) -> Result<Vec<Motion>, LoadError> {
    LoadRequest::from_paths(paths).into_iter().map(|r| load(&r?, &LoadOptions::default(), &Sequential, &mut Quiet)).collect()
}

fn load_acl(source: &Source, observer: &mut dyn LoadObserver) -> Result<Motion, LoadError> {
    let bytes = source.read_all()?;
    let path = source.path().to_owned();
    let parse = |b: &[u8]| {
        let p = acl::parse_acl(b)?;
        Ok(Single {
            skeleton: p.skeleton,
            clip: p.clip,
            warnings: p.warnings,
            details: p.details,
            declared_frames: None,
            declared_units: None,
            unit: None,
            up: None,
            angle_unit: "quaternion",
        })
    };
    if !bytes.starts_with(b"PK\x03\x04") {
        return finish_single(path, &bytes, Format::Acl, observer, parse);
    }
    let (entry, inner) = acl::unzip_clip(&bytes).map_err(|e| LoadError::from_parse(&path, &mut &bytes[..], e))?;
    // Lines and columns of problems inside the archive refer to the clip it holds.
    let inner_path = PathBuf::from(format!("{}!/{entry}", path.display()));
    let mut m = finish_single(inner_path, &inner, Format::Acl, observer, parse)?;
    m.source.paths = vec![path];
    m.source.details.insert(0, ("zip entry".into(), entry));
    Ok(m)
}

fn load_hanim(source: &Source, observer: &mut dyn LoadObserver) -> Result<Motion, LoadError> {
    let bytes = source.read_all()?;
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&bytes);
    let xml = body.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'<');
    finish_single(source.path().to_owned(), &bytes, Format::HAnim, observer, |b| {
        let p = if xml { hanim::parse_x3d(b)? } else { hanim::parse_vrml(b)? };
        Ok(Single {
            skeleton: p.skeleton,
            clip: p.clip,
            warnings: p.warnings,
            details: p.details,
            declared_frames: None,
            declared_units: Some("m (X3D)".into()),
            // X3D lengths are metres and +Y is up (X3D 19775-1, 4.3.5).
            unit: Some(LengthUnit::Metre),
            up: Some(crate::core::UpAxis::Y),
            angle_unit: "rad",
        })
    })
}
