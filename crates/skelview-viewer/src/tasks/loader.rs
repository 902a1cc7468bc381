//! Loading as a [`Task`]: groups paths (an AMC finds its ASF, which may read every `.asf` in
//! a folder), reads and parses each file, and sends what it learns as messages. Nothing of
//! this runs on the caller's thread.
//!
//! Messages arrive in order, per file: `Skeleton` (with the first frames) as soon as they
//! are parsed, then `Done` or `Failed`; the task's progress counts the bytes parsed of the
//! file being loaded. The task ends after the last file.

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use skelview_core::core::{Clip, Motion, Skeleton};
use skelview_core::formats::{self, LoadError, LoadObserver, LoadOptions, LoadRequest};

use super::{Priority, Progress, Shown, Task, Tasks};

/// What the loader sends on the way.
#[derive(Debug)]
pub enum LoadEvent {
    /// The skeleton and the frames parsed so far of the file being loaded (the rest follows
    /// in `Done`).
    Skeleton {
        /// The joints.
        skeleton: Arc<Skeleton>,
        /// The first frames, for an early preview.
        first_frames: Clip,
    },
    /// One whole motion.
    Done(Box<Loaded>),
    /// One file failed (or the load was cancelled).
    Failed(LoadError),
}

/// A loaded motion and what the loader learned about its files on the way.
#[derive(Debug)]
pub struct Loaded {
    /// The motion.
    pub motion: Motion,
    /// The key of the file the user opened (the AMC of a pair), for per-file settings and
    /// the recent list ([`file_key`]); `None` for bytes from memory.
    pub key: Option<PathBuf>,
    /// Files that could animate a skeleton opened alone (the `.amc` files beside an
    /// `.asf`), as its format offers them.
    pub companions: Vec<PathBuf>,
    /// The values of its format's read options it was loaded with.
    pub read_with: skelview_core::formats::FormatOptions,
}

/// A running load: one task, one or more files.
pub type LoadTask = Task<(), Infallible, LoadEvent>;

struct Reporter<'a>(&'a Progress<LoadEvent>);

impl LoadObserver for Reporter<'_> {
    fn skeleton_ready(&mut self, skeleton: &Skeleton, first_frames: &Clip) {
        let _ = self.0.send(LoadEvent::Skeleton { skeleton: Arc::new(skeleton.clone()), first_frames: first_frames.clone() });
    }

    fn progress(&mut self, bytes_done: u64, bytes_total: Option<u64>) -> ControlFlow<()> {
        self.0.report(bytes_done, bytes_total.unwrap_or(0))
    }
}

/// How a file is read: the options for its key, so that per-file choices (its format's read
/// options) apply.
pub type OptionsFor = Box<dyn Fn(Option<&Path>) -> LoadOptions + Send>;

/// What the loader is given.
enum Work {
    Requests(Vec<LoadRequest>),
    Paths(Vec<PathBuf>),
}

/// Starts loading `request` on a thread named `skelview-loader`, listed as `shown`.
pub fn spawn_load(request: LoadRequest, options: LoadOptions, tasks: &Tasks, shown: Shown) -> std::io::Result<LoadTask> {
    spawn(Work::Requests(vec![request]), Box::new(move |_| options.clone()), tasks, shown)
}

/// Starts loading several requests one after another (files dropped on a web page, grouped
/// by [`LoadRequest::from_memory`]).
pub fn spawn_requests(requests: Vec<LoadRequest>, options: OptionsFor, tasks: &Tasks, shown: Shown) -> std::io::Result<LoadTask> {
    spawn(Work::Requests(requests), options, tasks, shown)
}

/// Starts loading `paths` on a thread named `skelview-loader`: they are grouped there as the
/// command line groups them (an `.amc` pairs with an `.asf`), then loaded one after another.
pub fn spawn_open(paths: Vec<PathBuf>, options: OptionsFor, tasks: &Tasks, shown: Shown) -> std::io::Result<LoadTask> {
    spawn(Work::Paths(paths), options, tasks, shown)
}

/// The one key a file's per-file settings (unit, up axis, BVH position rule) and its place in
/// the recent list are stored under: its canonical path (symlinks and `..` resolved), or its
/// absolute path when it cannot be resolved (the file is gone). The loader keys what it loads
/// with it and the viewer saves under it, so a file opened through a symlink or a relative
/// path finds what was saved for it under any other name.
pub fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_owned())
}

/// The names of what a load reads, as its label shows them (`walk.bvh, run.bvh`).
pub fn load_name(paths: &[PathBuf]) -> String {
    paths.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect::<Vec<_>>().join(", ")
}

fn spawn(work: Work, options: OptionsFor, tasks: &Tasks, shown: Shown) -> std::io::Result<LoadTask> {
    let names = match &work {
        Work::Requests(r) => r.iter().map(|r| r.main_path().display().to_string()).collect::<Vec<_>>().join(", "),
        Work::Paths(p) => load_name(p),
    };
    tasks.spawn("loader", format!("Loading {names}"), Priority::Background, shown, move |progress| {
        let requests = match work {
            Work::Requests(r) => r.into_iter().map(Ok).collect(),
            Work::Paths(paths) => LoadRequest::from_paths(&paths),
        };
        for request in requests {
            if progress.cancelled() {
                break;
            }
            let event = match request {
                Err(e) => LoadEvent::Failed(e),
                Ok(request) => {
                    let key = request.file_path().map(file_key);
                    let _ = progress.report(0, 0);
                    let options = options(key.as_deref());
                    match formats::load(&request, &options, crate::platform::parallel(), &mut Reporter(progress)) {
                        Ok(motion) => {
                            let companions = request.format.companions(&motion);
                            LoadEvent::Done(Box::new(Loaded { motion, key, companions, read_with: options.format }))
                        }
                        Err(e) => LoadEvent::Failed(e),
                    }
                }
            };
            let _ = progress.send(event);
        }
        Ok(())
    })
}
