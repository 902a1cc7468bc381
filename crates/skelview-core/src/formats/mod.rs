//! File formats: detection, loading into a [`Motion`], errors with `file:line:col`.

pub mod acclaim;
pub mod acl;
pub mod bvh;
pub mod c3d;
pub mod capture_motion;
pub mod error;
pub mod fbx;
pub mod file_format;
pub mod finish;
pub mod gltf;
pub mod hanim;
pub mod htr;
pub mod mnm;
pub mod mot;
pub mod npz;
pub mod open;
pub mod options;
pub mod table;
pub mod takes;
pub mod text;
pub mod trc;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use error::{LoadError, ParseError, ParseErrorKind, RawWarning};
pub use file_format::{FileFormat, FormatInfo, MimeType, NameMapFormat, NoSkeleton, Role};
pub use open::{open, open_bytes, open_one};
pub use options::{FormatOption, FormatOptions, OptionError, OptionScope, OptionValues};
pub use table::FORMATS;

use crate::core::{Clip, Motion, Skeleton};

#[cfg(feature = "parallel")]
pub use crate::par::Rayon;
pub use crate::par::{Parallel, Sequential};

/// Hears about a load while it runs.
pub trait LoadObserver {
    /// Called once, as soon as the skeleton and the first frames are parsed.
    fn skeleton_ready(&mut self, _skeleton: &Skeleton, _first_frames: &Clip) {}
    /// False when [`LoadObserver::skeleton_ready`] ignores its frames: a streaming reader
    /// then skips copying them out.
    fn wants_first_frames(&self) -> bool {
        true
    }
    /// Called after each block; `Break` cancels the load.
    fn progress(&mut self, _bytes_done: u64, _bytes_total: Option<u64>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// An observer that ignores everything.
pub struct Quiet;
impl LoadObserver for Quiet {
    fn wants_first_frames(&self) -> bool {
        false
    }
}

/// Choices a user can make about how files are read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// The user's values for the formats' own options (BVH's position rule, the AMC frame
    /// rate), each read by the format that declares it.
    pub format: FormatOptions,
    /// Which animation to load from a file that holds several: a name, or an index as
    /// `info` lists them (`None`: the one that animates the most joints the longest).
    pub take: Option<String>,
    /// Frames per second to sample keyed formats at (FBX, glTF) instead of the file's own
    /// rate (`--fps`); `None` keeps the file's.
    pub sample_fps: Option<f64>,
    /// The caller needs the skeleton and its motion only (joint positions): a format may
    /// leave meshes out (a body's model is then read for its joints alone).
    pub skip_meshes: bool,
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

    /// The whole contents.
    pub fn read_all(&self) -> Result<Arc<[u8]>, LoadError> {
        match self {
            Self::File(p) => read_shared(p).map_err(|source| LoadError::Io { path: p.clone(), source }),
            Self::Memory { bytes, .. } => Ok(bytes.clone()),
        }
    }
}

/// A file read straight into shared memory: `Arc::from(std::fs::read(..))` copies the
/// whole file a second time (a 350 MB capture spent a fifth of its load there).
fn read_shared(path: &Path) -> std::io::Result<Arc<[u8]>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let Ok(len) = usize::try_from(file.metadata()?.len()) else {
        return std::fs::read(path).map(Arc::from);
    };
    // SAFETY: all-zero bytes are valid `u8`s.
    let mut bytes: Arc<[u8]> = unsafe { Arc::<[u8]>::new_zeroed_slice(len).assume_init() };
    let whole = Arc::get_mut(&mut bytes).expect("a new Arc is not shared");
    let short = match file.read_exact(whole) {
        Ok(()) => false,
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => true,
        Err(e) => return Err(e),
    };
    // A file that changed size while it was read (or a special file whose size says
    // nothing) is read again, whole.
    if short || file.take(1).read_to_end(&mut Vec::new())? > 0 {
        return std::fs::read(path).map(Arc::from);
    }
    Ok(bytes)
}

/// One motion to load: a format and its sources (a skeleton file first where the format
/// has two, as an ASF with its AMC).
#[derive(Clone)]
pub struct LoadRequest {
    /// How to read it.
    pub format: &'static dyn FileFormat,
    /// What to read.
    pub sources: Vec<Source>,
}

impl std::fmt::Debug for LoadRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadRequest").field("format", &self.format.name()).field("sources", &self.sources).finish()
    }
}

impl LoadRequest {
    /// One source of `format`.
    pub fn single(format: &'static dyn FileFormat, source: Source) -> Self {
        Self { format, sources: vec![source] }
    }

    /// A file, its format detected by extension then content.
    pub fn file(path: impl Into<PathBuf>) -> Result<Self, LoadError> {
        let path = path.into();
        match table::detect(&path, &read_head(&path)) {
            Some(format) => Ok(Self::single(format, Source::File(path))),
            None => Err(unknown(&path)),
        }
    }

    /// Bytes in memory named `name`, the format detected by the name then the content.
    pub fn memory(name: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>) -> Result<Self, LoadError> {
        let (name, bytes) = (name.into(), bytes.into());
        match table::detect(&name, &bytes[..bytes.len().min(4096)]) {
            Some(format) => Ok(Self::single(format, Source::Memory { name, bytes })),
            None => Err(unknown(&name)),
        }
    }

    /// The file named first in messages (the AMC of a pair: that is what users open).
    pub fn main_path(&self) -> &Path {
        self.sources.last().map_or(Path::new(""), Source::path)
    }

    /// The file on disk the user opened (the AMC of a pair), if it is one.
    pub fn file_path(&self) -> Option<&Path> {
        match self.sources.last() {
            Some(Source::File(p)) => Some(p),
            _ => None,
        }
    }

    /// Groups command-line paths into requests: a motion that needs a skeleton (`.amc`)
    /// pairs with a skeleton of its format given beside it (the nearest one before it, else
    /// after it), or with one its format finds on disk; a skeleton that no motion took is
    /// loaded alone (rest pose).
    pub fn from_paths(paths: &[PathBuf]) -> Vec<Result<LoadRequest, LoadError>> {
        let heads: Vec<Vec<u8>> = paths.iter().map(|p| read_head(p)).collect();
        Self::group(paths.iter().cloned().map(Source::File).collect(), &heads)
    }

    /// Groups files held in memory (dropped on a web page) as [`LoadRequest::from_paths`]
    /// groups paths, except that a motion needing a skeleton finds it only among `files`.
    pub fn from_memory(files: Vec<(PathBuf, Arc<[u8]>)>) -> Vec<Result<LoadRequest, LoadError>> {
        let heads: Vec<Vec<u8>> = files.iter().map(|(_, b)| b[..b.len().min(4096)].to_vec()).collect();
        Self::group(files.into_iter().map(|(name, bytes)| Source::Memory { name, bytes }).collect(), &heads)
    }

    fn group(sources: Vec<Source>, heads: &[Vec<u8>]) -> Vec<Result<LoadRequest, LoadError>> {
        let formats: Vec<Option<&'static dyn FileFormat>> = sources.iter().zip(heads).map(|(s, h)| table::detect(s.path(), h)).collect();
        let role = |k: usize| formats[k].map(|f| f.role(sources[k].path()));
        let same = |a: usize, b: usize| match (formats[a], formats[b]) {
            (Some(x), Some(y)) => x.name() == y.name(),
            _ => false,
        };
        let mut skeleton_used = vec![false; sources.len()];
        let mut out = Vec::new();
        for (i, source) in sources.iter().enumerate() {
            let p = source.path();
            let Some(format) = formats[i] else {
                out.push((i, Err(unknown(p))));
                continue;
            };
            match format.role(p) {
                Role::Whole | Role::Skeleton => out.push((i, Ok(Self::single(format, source.clone())))),
                Role::NeedsSkeleton => {
                    let is_skeleton = |k: &usize| role(*k) == Some(Role::Skeleton) && same(*k, i);
                    let before = (0..i).rev().find(is_skeleton);
                    let after = (i + 1..sources.len()).find(is_skeleton);
                    let skeleton = match (before.or(after), source) {
                        (Some(k), _) => {
                            skeleton_used[k] = true;
                            Ok(sources[k].clone())
                        }
                        (None, Source::File(path)) => format
                            .find_skeleton(path)
                            .map(Source::File)
                            .map_err(|e| LoadError::Unsupported { path: path.clone(), message: e.to_string() }),
                        (None, Source::Memory { name, .. }) => Err(LoadError::Unsupported {
                            path: name.clone(),
                            message: format!("{} needs its skeleton file: open both together", format.name()),
                        }),
                    };
                    let request = skeleton.map(|s| Self { format, sources: vec![s, source.clone()] });
                    out.push((i, request));
                }
            }
        }
        out.into_iter().filter(|(i, _)| !skeleton_used[*i]).map(|(_, r)| r).collect()
    }
}

/// The error for a file that no motion format claims (a name map says what it is).
pub fn unknown(path: &Path) -> LoadError {
    if let Some(map) = table::name_map_by_name(path) {
        return LoadError::Unsupported { path: path.to_owned(), message: format!("{}, not a motion", map.description()) };
    }
    let known: Vec<String> = FORMATS.iter().map(|f| f.extensions().iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join("/")).collect();
    LoadError::Unsupported { path: path.to_owned(), message: format!("not a motion file skelview reads (expected {})", known.join(", ")) }
}

/// The first 4 KiB of a file (empty when it cannot be read: the load reports why).
pub fn read_head(path: &Path) -> Vec<u8> {
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
    request.format.load(&request.sources, options, parallel, observer)
}

/// The sample shown when no file is given (MIT test file; see assets/SAMPLES.md).
pub const SAMPLE_BVH: &[u8] = include_bytes!("../../../../assets/walk01.bvh");
/// Name the bundled sample is reported under.
pub const SAMPLE_NAME: &str = "assets/walk01.bvh";

/// A request for the bundled sample.
pub fn sample_request() -> LoadRequest {
    LoadRequest::single(&bvh::Bvh, Source::Memory { name: SAMPLE_NAME.into(), bytes: Arc::from(SAMPLE_BVH) })
}

/// The bundled sample, loaded on the calling thread with default options.
pub fn load_sample() -> Result<Motion, LoadError> {
    load(&sample_request(), &LoadOptions::default(), &Sequential, &mut Quiet)
}

/// Loads files (an ASF/AMC pair counts as one) on the calling thread with default options.
pub fn load_paths(paths: &[PathBuf]) -> Result<Vec<Motion>, LoadError> {
    open(paths, &LoadOptions::default(), &Sequential)
}

/// The error for a request whose sources do not fit its format (one file where one is read).
pub(crate) fn wrong_sources(format: &dyn FileFormat, sources: &[Source]) -> LoadError {
    LoadError::Unsupported {
        path: sources.first().map_or_else(PathBuf::new, |s| s.path().to_owned()),
        message: format!(
            "{} reads {} file(s) here, not {}",
            format.name(),
            if format.role(Path::new("")) == Role::Whole { 1 } else { 2 },
            sources.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_into_shared_memory() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0usize, 1, 4095, 1 << 20] {
            let path = dir.path().join(format!("f{len}"));
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            std::fs::write(&path, &bytes).unwrap();
            assert_eq!(&*Source::File(path).read_all().unwrap(), &bytes[..], "{len} bytes");
        }
        let missing = dir.path().join("missing");
        assert!(matches!(Source::File(missing).read_all(), Err(LoadError::Io { .. })));
    }
}
