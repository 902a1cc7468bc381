//! Long exports from the viewer (positions CSV, PNG frames) on a background thread.

use std::path::PathBuf;
use std::sync::Arc;

use super::Viewer;
use crate::render::ViewPreset;

/// A long export on its own thread, with progress and cancel.
pub struct Job {
    /// What it does, for the status bar.
    pub name: String,
    /// Items done so far.
    pub done: Arc<std::sync::atomic::AtomicUsize>,
    /// Items in all (0 until known).
    pub total: Arc<std::sync::atomic::AtomicUsize>,
    /// Set to stop the job.
    pub cancel: Arc<std::sync::atomic::AtomicBool>,
    pub(super) result: std::sync::mpsc::Receiver<Result<String, String>>,
}

impl Job {
    /// Runs `work` on a thread named `skelview-export`; `work` reports progress through the
    /// counters and checks `cancel`; `waker` repaints the UI as it goes.
    fn spawn(
        name: String,
        waker: Arc<dyn Fn() + Send + Sync>,
        work: impl FnOnce(&dyn Fn(usize, usize) -> std::ops::ControlFlow<()>) -> Result<String, String> + Send + 'static,
    ) -> std::io::Result<Self> {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let (done, total, cancel) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let (tx, result) = std::sync::mpsc::sync_channel(1);
        let (d, t, c) = (done.clone(), total.clone(), cancel.clone());
        std::thread::Builder::new().name("skelview-export".into()).spawn(move || {
            let progress = |k: usize, n: usize| {
                d.store(k, Ordering::Relaxed);
                t.store(n, Ordering::Relaxed);
                waker();
                if c.load(Ordering::Relaxed) { std::ops::ControlFlow::Break(()) } else { std::ops::ControlFlow::Continue(()) }
            };
            let _ = tx.send(work(&progress));
            waker();
        })?;
        Ok(Self { name, done, total, cancel, result })
    }

    /// Fraction done.
    pub fn fraction(&self) -> f32 {
        use std::sync::atomic::Ordering;
        let t = self.total.load(Ordering::Relaxed);
        if t == 0 { 0.0 } else { self.done.load(Ordering::Relaxed) as f32 / t as f32 }
    }
}

impl Viewer {
    /// Writes all frames' positions (metres, Y-up) to `path` in the background.
    pub fn export_positions(&mut self, path: PathBuf) {
        let Some(m) = self.motion.clone() else { return };
        let work = move |progress: &dyn Fn(usize, usize) -> std::ops::ControlFlow<()>| {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            crate::cli::convert::write_atomically(&path, |out| {
                writeln!(out, "joint,frame,x,y,z")?;
                crate::export::positions::write_csv(&m, &frames, false, false, out, &mut |k, n| progress(k, n))
            })
            .map(|()| format!("wrote {} ({} frames)", path.display(), frames.len()))
            .map_err(|e| format!("{}: {e}", path.display()))
        };
        self.start_job("Exporting positions".into(), work);
    }

    /// Renders the in/out range with the current camera to numbered PNGs in `dir`.
    pub fn export_frames(&mut self, dir: PathBuf, size: (u32, u32)) {
        let Some(m) = self.motion.clone() else { return };
        let camera = self.camera;
        let range = (self.playback.in_frame as i64, self.playback.out_frame as i64, 1usize);
        let axes = self.style.axes;
        let work = move |progress: &dyn Fn(usize, usize) -> std::ops::ControlFlow<()>| {
            let gpu = crate::render::offscreen::headless().map_err(|e| e.to_string())?;
            let options = crate::cli::render::RenderOptions {
                at: crate::cli::render::At::Frame(0),
                size,
                view: ViewPreset::Perspective,
                ortho: camera.orthographic,
                axes,
                out: dir.clone(),
                range: Some(range),
            };
            let n = crate::cli::render::render_sequence(&gpu, std::slice::from_ref(&*m), &options, range, 4, Some(camera), &mut |k, n| {
                progress(k, n)
            })?;
            Ok(format!("wrote {n} frames to {}", dir.display()))
        };
        self.start_job("Exporting frames".into(), work);
    }

    fn start_job(
        &mut self,
        name: String,
        work: impl FnOnce(&dyn Fn(usize, usize) -> std::ops::ControlFlow<()>) -> Result<String, String> + Send + 'static,
    ) {
        if self.job.is_some() {
            self.error = Some("an export is already running".into());
            return;
        }
        match Job::spawn(name, self.waker.clone(), work) {
            Ok(job) => self.job = Some(job),
            Err(e) => self.error = Some(format!("cannot start the export thread: {e}")),
        }
    }

    pub(super) fn poll_job(&mut self) {
        let Some(job) = &self.job else { return };
        match job.result.try_recv() {
            Ok(Ok(message)) => {
                self.notice = Some(message);
                self.job = None;
            }
            Ok(Err(message)) => {
                if job.cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    self.notice = Some(format!("{} cancelled", job.name));
                } else {
                    self.error = Some(message);
                }
                self.job = None;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.error = Some(format!("{} stopped unexpectedly", job.name));
                self.job = None;
            }
        }
    }
}
