//! The loader thread: reads and parses a file, reporting over a bounded channel.
//!
//! Events arrive in order: `Skeleton` (with the first frames) as soon as they are parsed,
//! `Progress` while blocks are parsed, then `Done` or `Failed`. After each event the `wake`
//! callback runs, so a UI can request a repaint instead of polling.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;

use super::threads::ScopedThreads;
use crate::core::{Clip, Motion, Skeleton};
use crate::formats::{self, LoadError, LoadObserver, LoadOptions, LoadRequest};

/// What the loader thread reports.
#[derive(Debug)]
pub enum LoadEvent {
    /// The skeleton and the frames parsed so far (the rest follows in `Done`).
    Skeleton {
        /// The joints.
        skeleton: Arc<Skeleton>,
        /// The first frames, for an early preview.
        first_frames: Clip,
    },
    /// Bytes parsed so far, of the total when known.
    Progress {
        /// Bytes parsed.
        bytes_done: u64,
        /// File size.
        bytes_total: Option<u64>,
    },
    /// The whole motion.
    Done(Box<Motion>),
    /// The load failed or was cancelled.
    Failed(LoadError),
}

/// A running load: its events, and a way to cancel it.
pub struct LoadHandle {
    /// Events in order; the channel closes after `Done` or `Failed`.
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

impl LoadObserver for Reporter {
    fn skeleton_ready(&mut self, skeleton: &Skeleton, first_frames: &Clip) {
        let event = LoadEvent::Skeleton { skeleton: Arc::new(skeleton.clone()), first_frames: first_frames.clone() };
        if self.tx.send(event).is_err() {
            self.cancel.store(true, Ordering::Relaxed);
        }
        (self.wake)();
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

/// Starts loading `request` on a thread named `skelview-loader`.
pub fn spawn_load(request: LoadRequest, options: LoadOptions, wake: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<LoadHandle> {
    let (tx, rx) = sync_channel(8);
    let cancel = Arc::new(AtomicBool::new(false));
    let mut reporter = Reporter { tx, cancel: cancel.clone(), wake };
    let thread = std::thread::Builder::new().name("skelview-loader".into()).spawn(move || {
        let result = formats::load(&request, &options, &ScopedThreads::per_core(), &mut reporter);
        let event = match result {
            Ok(motion) => LoadEvent::Done(Box::new(motion)),
            Err(e) => LoadEvent::Failed(e),
        };
        let _ = reporter.tx.send(event);
        (reporter.wake)();
    })?;
    Ok(LoadHandle { events: rx, cancel, thread: Some(thread) })
}
