//! The loader thread: groups paths (an AMC finds its ASF, which may read every `.asf` in a
//! folder), reads and parses each file, and reports over a bounded channel. Nothing of this
//! runs on the caller's thread.
//!
//! Events arrive in order, per file: `Skeleton` (with the first frames) as soon as they are
//! parsed, `Progress` while blocks are parsed, then `Done` or `Failed`; the channel closes
//! after the last file. After each event the `wake` callback runs, so a UI can request a
//! repaint instead of polling.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;

use skelview_core::core::{Clip, Motion, Skeleton};
use skelview_core::formats::Rayon;
use skelview_core::formats::{self, LoadError, LoadObserver, LoadOptions, LoadRequest};

/// Wakes a UI thread from another thread (a repaint request).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// What the loader thread reports.
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
    /// Bytes parsed so far of the file being loaded, of its total when known.
    Progress {
        /// Bytes parsed.
        bytes_done: u64,
        /// File size.
        bytes_total: Option<u64>,
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
    /// The absolute path of the file the user opened (the AMC of a pair), for per-file
    /// settings and the recent list; `None` for bytes from memory.
    pub key: Option<PathBuf>,
    /// `.amc` files beside an `.asf` that was opened alone, sorted.
    pub amc_siblings: Vec<PathBuf>,
}

/// A running load: its events, and a way to cancel it.
pub struct LoadHandle {
    /// Events in order; the channel closes after the last file.
    pub events: Receiver<LoadEvent>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LoadHandle {
    /// Asks the loader to stop at the next block; it then sends `Failed(Cancelled)`.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Waits for the loader thread to finish.
    pub fn join(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for LoadHandle {
    fn drop(&mut self) {
        // Nobody will read the events: stop the work.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

struct Reporter {
    tx: SyncSender<LoadEvent>,
    cancel: Arc<AtomicBool>,
    wake: Arc<dyn Fn() + Send + Sync>,
}

impl Reporter {
    fn send(&self, event: LoadEvent) {
        if self.tx.send(event).is_err() {
            self.cancel.store(true, Ordering::Relaxed);
        }
        (self.wake)();
    }
}

impl LoadObserver for Reporter {
    fn skeleton_ready(&mut self, skeleton: &Skeleton, first_frames: &Clip) {
        self.send(LoadEvent::Skeleton { skeleton: Arc::new(skeleton.clone()), first_frames: first_frames.clone() });
    }

    fn progress(&mut self, bytes_done: u64, bytes_total: Option<u64>) -> ControlFlow<()> {
        // Progress is droppable: a slow UI must never stall the parse.
        match self.tx.try_send(LoadEvent::Progress { bytes_done, bytes_total }) {
            Ok(()) => (self.wake)(),
            Err(TrySendError::Full(_)) => {}
            Err(TrySendError::Disconnected(_)) => self.cancel.store(true, Ordering::Relaxed),
        }
        if self.cancel.load(Ordering::Relaxed) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// How a file is read: the options for its (absolute) path, so that per-file choices (the
/// BVH position rule) apply.
pub type OptionsFor = Box<dyn Fn(Option<&Path>) -> LoadOptions + Send>;

/// What the loader thread is given.
enum Work {
    Requests(Vec<LoadRequest>),
    Paths(Vec<PathBuf>),
}

/// Starts loading `request` on a thread named `skelview-loader`.
pub fn spawn_load(request: LoadRequest, options: LoadOptions, wake: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<LoadHandle> {
    spawn(Work::Requests(vec![request]), Box::new(move |_| options.clone()), wake)
}

/// Starts loading `paths` on a thread named `skelview-loader`: they are grouped there as the
/// command line groups them (an `.amc` pairs with an `.asf`), then loaded one after another.
pub fn spawn_open(paths: Vec<PathBuf>, options: OptionsFor, wake: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<LoadHandle> {
    spawn(Work::Paths(paths), options, wake)
}

/// The one key a file's per-file settings (unit, up axis, BVH position rule) and its place in
/// the recent list are stored under: its canonical path (symlinks and `..` resolved), or its
/// absolute path when it cannot be resolved (the file is gone). The loader keys what it loads
/// with it and the viewer saves under it, so a file opened through a symlink or a relative
/// path finds what was saved for it under any other name.
pub fn file_key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_owned())
}

fn spawn(work: Work, options: OptionsFor, wake: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<LoadHandle> {
    let (tx, rx) = sync_channel(8);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut reporter = Reporter { tx, cancel: cancel.clone(), wake };
    let thread = std::thread::Builder::new().name("skelview-loader".into()).spawn(move || {
        super::threads::background_priority();
        let requests = match work {
            Work::Requests(r) => r.into_iter().map(Ok).collect(),
            Work::Paths(paths) => LoadRequest::from_paths(&paths),
        };
        for request in requests {
            if reporter.cancel.load(Ordering::Relaxed) {
                break;
            }
            let event = match request {
                Err(e) => LoadEvent::Failed(e),
                Ok(request) => {
                    let key = request.file_path().map(file_key);
                    match formats::load(&request, &options(key.as_deref()), &Rayon, &mut reporter) {
                        Ok(motion) => {
                            let amc_siblings = request.format.companions(&motion);
                            LoadEvent::Done(Box::new(Loaded { motion, key, amc_siblings }))
                        }
                        Err(e) => LoadEvent::Failed(e),
                    }
                }
            };
            reporter.send(event);
        }
    })?;
    Ok(LoadHandle { events: rx, cancel, thread: Some(thread) })
}
