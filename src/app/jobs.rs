//! Background work of the viewer besides loading: exports (positions CSV, PNG frames of every
//! visible clip as composed by the scene) and reading a name map. Each runs on a named
//! thread; results come back over a channel and the UI is woken with a repaint request.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};

use skelview_core::core::Motion;
use skelview_core::formats::mnm::NameMap;
use skelview_render::render::offscreen;
use skelview_render::render::sequence::{Offscreen, render_sequence, render_video};
use skelview_render::scene::{FrameSpec, OrbitCamera, Scene};

pub use crate::cache::Waker;

/// A long export on its own thread, with progress and cancel.
pub struct Job {
    /// Which job it is, for its Cancel button.
    pub id: super::JobId,
    /// What it does, for the status bar.
    pub name: String,
    /// Items done so far.
    pub done: Arc<AtomicUsize>,
    /// Items in all (0 until known).
    pub total: Arc<AtomicUsize>,
    /// Set to stop the job.
    pub cancel: Arc<AtomicBool>,
    result: Receiver<Result<String, String>>,
}

impl Job {
    /// Runs `work` on a thread named `skelview-export`; `work` reports progress through the
    /// counters and checks `cancel`; `waker` repaints the UI as it goes.
    fn spawn(
        id: super::JobId,
        name: String,
        waker: Waker,
        work: impl FnOnce(&mut dyn FnMut(usize, usize) -> ControlFlow<()>) -> Result<String, String> + Send + 'static,
    ) -> std::io::Result<Self> {
        let (done, total, cancel) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let (tx, result) = sync_channel(1);
        let (d, t, c) = (done.clone(), total.clone(), cancel.clone());
        std::thread::Builder::new().name("skelview-export".into()).spawn(move || {
            let mut progress = |k: usize, n: usize| {
                d.store(k, Ordering::Relaxed);
                t.store(n, Ordering::Relaxed);
                waker();
                if c.load(Ordering::Relaxed) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            };
            let _ = tx.send(work(&mut progress));
            waker();
        })?;
        Ok(Self { id, name, done, total, cancel, result })
    }

    /// Fraction done.
    pub fn fraction(&self) -> f32 {
        let t = self.total.load(Ordering::Relaxed);
        if t == 0 { 0.0 } else { self.done.load(Ordering::Relaxed) as f32 / t as f32 }
    }
}

/// What finished in the background since the last frame.
pub enum Finished {
    /// An export ended: its message, or why it failed.
    Export(Result<String, String>),
    /// A name map was read (or not).
    NameMap(PathBuf, Result<NameMap, String>),
    /// A file dialog was answered with this command (`None`: cancelled).
    Dialog(Option<super::Command>),
    /// A picture for the clipboard: its size and RGBA8 pixels, or why there is none.
    Picture(Result<Picture, String>),
}

/// An RGBA8 picture and its size in pixels.
pub type Picture = ((u32, u32), Vec<u8>);

/// The answer of a one-shot background thread, once it came; the slot empties then, or when
/// the thread ended without answering.
fn answer<T>(slot: &mut Option<Receiver<T>>) -> Option<T> {
    let got = match slot.as_ref()?.try_recv() {
        Ok(value) => Some(value),
        Err(TryRecvError::Empty) => return None,
        Err(TryRecvError::Disconnected) => None,
    };
    *slot = None;
    got
}

/// The viewer's background work.
#[derive(Default)]
pub struct Jobs {
    /// The running export, if any (one at a time).
    pub export: Option<Job>,
    name_map: Option<(PathBuf, Receiver<Result<NameMap, String>>)>,
    dialog: Option<Receiver<Option<super::Command>>>,
    picture: Option<Receiver<Result<Picture, String>>>,
    next_id: u64,
}

impl Jobs {
    /// True while something runs.
    pub fn busy(&self) -> bool {
        self.export.is_some() || self.name_map.is_some() || self.dialog.is_some() || self.picture.is_some()
    }

    /// Shows a file dialog without blocking the UI (one at a time).
    pub fn dialog(&mut self, dialog: super::dialogs::Dialog, waker: Waker) -> Result<(), String> {
        if self.dialog.is_some() {
            return Ok(());
        }
        self.dialog = Some(super::dialogs::spawn(dialog, waker).map_err(|e| format!("cannot start a thread: {e}"))?);
        Ok(())
    }

    /// Writes all frames' positions of `m` (metres, Y-up) to `path`.
    pub fn export_positions(&mut self, m: Arc<Motion>, path: PathBuf, waker: Waker) -> Result<(), String> {
        let work = move |progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>| {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            skelview_core::export::write_atomically(&path, |out| {
                writeln!(out, "joint,frame,x,y,z")?;
                skelview_core::export::positions::write_csv(&m, &frames, false, false, out, &mut |k, n| progress(k, n))
            })
            .map(|()| format!("wrote {} ({} frames)", path.display(), frames.len()))
            .map_err(|e| format!("{}: {e}", path.display()))
        };
        self.start("Exporting positions".into(), waker, work)
    }

    /// Writes the Measure tool's values over every frame of `m` to `path`.
    pub fn export_measures(
        &mut self,
        m: Arc<Motion>,
        curves: Arc<super::measure::MeasureCurves>,
        path: PathBuf,
        waker: Waker,
    ) -> Result<(), String> {
        let work = move |_: &mut dyn FnMut(usize, usize) -> ControlFlow<()>| {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            skelview_core::export::write_atomically(&path, |out| {
                skelview_core::export::measures::write_measures(&m, &curves.measures, &frames, &curves.values, out)
            })
            .map(|()| format!("wrote {} ({} frames)", path.display(), frames.len()))
            .map_err(|e| format!("{}: {e}", path.display()))
        };
        self.start("Exporting measurements".into(), waker, work)
    }

    /// Renders `scene` at each `(frame, time)` with `camera` to numbered PNGs in `dir`: every
    /// visible clip, in the viewer's layout and colours.
    pub fn export_frames(
        &mut self,
        mut scene: Scene,
        frame: FrameSpec,
        frames: Vec<(usize, f64)>,
        camera: OrbitCamera,
        dir: PathBuf,
        size: (u32, u32),
        waker: Waker,
    ) -> Result<(), String> {
        let work = move |progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>| {
            let gpu = offscreen::headless().map_err(|e| e.to_string())?;
            let mut target = Offscreen::new(&gpu, size, 4);
            let n = render_sequence(&gpu, &mut scene, &frame, &frames, &camera, &mut target, &dir, progress)?;
            Ok(format!("wrote {n} frames to {}", dir.display()))
        };
        self.start("Exporting frames".into(), waker, work)
    }

    /// Renders the frames into a video (`.gif` or `.mp4` by `path`) playing at `fps`.
    #[allow(clippy::too_many_arguments)]
    pub fn export_video(
        &mut self,
        mut scene: Scene,
        frame: FrameSpec,
        frames: Vec<(usize, f64)>,
        camera: OrbitCamera,
        path: PathBuf,
        size: (u32, u32),
        fps: f64,
        waker: Waker,
    ) -> Result<(), String> {
        let work = move |progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>| {
            let gpu = offscreen::headless().map_err(|e| e.to_string())?;
            let mut target = Offscreen::new(&gpu, size, 4);
            let n = render_video(&gpu, &mut scene, &frame, &frames, &camera, &mut target, &path, fps, progress)?;
            Ok(format!("wrote {} ({n} frames at {fps:.3} fps, {}x{})", path.display(), size.0, size.1))
        };
        self.start("Exporting video".into(), waker, work)
    }

    /// Renders one picture of the scene as the viewport shows it: into a PNG at `to`, or
    /// (`None`) back to the UI for the clipboard.
    pub fn screenshot(
        &mut self,
        mut scene: Scene,
        frame: FrameSpec,
        camera: OrbitCamera,
        size: (u32, u32),
        to: Option<PathBuf>,
        waker: Waker,
    ) -> Result<(), String> {
        let mut render = move || -> Result<Vec<u8>, String> {
            let gpu = offscreen::headless().map_err(|e| e.to_string())?;
            Offscreen::new(&gpu, size, 4).picture(&gpu, &mut scene, &frame, &camera).map_err(|e| e.to_string())
        };
        if let Some(path) = to {
            let work = move |_: &mut dyn FnMut(usize, usize) -> ControlFlow<()>| {
                let pixels = render()?;
                offscreen::write_png(&path, size, &pixels).map_err(|e| e.to_string())?;
                Ok(format!("wrote {} ({}x{})", path.display(), size.0, size.1))
            };
            return self.start("Saving screenshot".into(), waker, work);
        }
        if self.picture.is_some() {
            return Ok(());
        }
        let (tx, rx) = sync_channel(1);
        std::thread::Builder::new()
            .name("skelview-screenshot".into())
            .spawn(move || {
                let _ = tx.send(render().map(|pixels| (size, pixels)));
                waker();
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        self.picture = Some(rx);
        Ok(())
    }

    /// Reads an MNM name map in the background.
    pub fn read_name_map(&mut self, path: PathBuf, waker: Waker) -> Result<(), String> {
        let (tx, rx) = sync_channel(1);
        let p = path.clone();
        std::thread::Builder::new()
            .name("skelview-namemap".into())
            .spawn(move || {
                let parsed = std::fs::read(&p)
                    .map_err(|e| e.to_string())
                    .and_then(|b| skelview_core::formats::mnm::parse_mnm(&b).map_err(|e| e.to_string()));
                let _ = tx.send(parsed);
                waker();
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        self.name_map = Some((path, rx));
        Ok(())
    }

    fn start(
        &mut self,
        name: String,
        waker: Waker,
        work: impl FnOnce(&mut dyn FnMut(usize, usize) -> ControlFlow<()>) -> Result<String, String> + Send + 'static,
    ) -> Result<(), String> {
        if self.export.is_some() {
            return Err("an export is already running".into());
        }
        self.next_id += 1;
        let id = super::JobId(self.next_id);
        self.export = Some(Job::spawn(id, name, waker, work).map_err(|e| format!("cannot start the export thread: {e}"))?);
        Ok(())
    }

    /// Asks the export `id` to stop (nothing when it has already finished).
    pub fn cancel(&self, id: super::JobId) {
        if let Some(job) = self.export.as_ref().filter(|j| j.id == id) {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// What finished since the last call (without blocking).
    pub fn poll(&mut self) -> Vec<Finished> {
        let mut out = Vec::new();
        if let Some(job) = &self.export {
            let finished = match job.result.try_recv() {
                Ok(Ok(message)) => Some(Ok(message)),
                Ok(Err(_)) if job.cancel.load(Ordering::Relaxed) => Some(Ok(format!("{} cancelled", job.name))),
                Ok(Err(message)) => Some(Err(message)),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Err(format!("{} stopped unexpectedly", job.name))),
            };
            if let Some(f) = finished {
                out.push(Finished::Export(f));
                self.export = None;
            }
        }
        if let Some((path, rx)) = &self.name_map {
            let finished = match rx.try_recv() {
                Ok(r) => Some(r),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Err("stopped unexpectedly".into())),
            };
            if let Some(r) = finished {
                out.push(Finished::NameMap(path.clone(), r));
                self.name_map = None;
            }
        }
        out.extend(answer(&mut self.picture).map(Finished::Picture));
        out.extend(answer(&mut self.dialog).map(Finished::Dialog));
        out
    }
}
