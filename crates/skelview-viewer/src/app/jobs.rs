//! Background work of the viewer besides loading and whole-clip results: exports (positions
//! and measurements as CSV, PNG frames, videos and screenshots of every visible clip as the
//! scene composes it), file dialogs, reading name maps, recipes and bone maps, retargets.
//! Each is started through [`Pending`] with what the viewer does with its end, beside the
//! code that starts it; one poll a frame hands every end over ([`Jobs::take_finished`]).

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;

use skelview_core::core::Motion;
use skelview_core::formats::LoadError;
use skelview_core::retarget::BoneMap;
use skelview_scene::{ClipId, FrameSpec, OrbitCamera, Scene};

use super::host::{Host, PictureError, Shot, ShotOutput};
use super::{AppError, Effect, ExportFailure, Viewer};
use crate::tasks::{Pending, Priority, Progress, Shown, TaskError, Tasks, Then};

/// Why an export wrote nothing.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The file could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// Rendering, encoding or writing the pictures failed.
    #[error(transparent)]
    Picture(#[from] PictureError),
    /// The motion could not be written in the format its extension names.
    #[error("{}: {source}", path.display())]
    Motion {
        /// The file.
        path: PathBuf,
        /// The writer's reason.
        source: skelview_core::export::files::WriteError,
    },
}

/// An RGBA8 picture and its size in pixels.
pub type Picture = ((u32, u32), Vec<u8>);

/// The viewer's background jobs: one export and one dialog at a time (a second is refused
/// or waits), any number of reads and retargets; dialogs and pictures are the [`Host`]'s.
pub struct Jobs {
    /// Who answers dialogs and makes pictures.
    pub host: Arc<dyn Host>,
    /// What runs, each with what the viewer does with its end.
    pending: Pending<Viewer>,
}

impl Default for Jobs {
    fn default() -> Self {
        Self { host: super::dialogs::default_host(), pending: Pending::default() }
    }
}

/// The kind of the one export that may run at a time.
const EXPORT: &str = "export";

/// A failed start: no thread for the work.
fn no_thread(what: &'static str) -> impl FnOnce(std::io::Error) -> AppError {
    move |e| AppError::thread(what, e)
}

/// Pictures and videos render on a device of their own, which a browser hands out only
/// asynchronously: the browser build does not offer them (its menus hide them).
fn no_renderer_here() -> Result<(), AppError> {
    if crate::platform::IN_BROWSER {
        return Err(super::ExportFailure::NotInBrowser.into());
    }
    Ok(())
}

/// Progress as the renderers and writers report it, cancel as they expect it.
fn counts(p: &Progress) -> impl FnMut(usize, usize) -> ControlFlow<()> + '_ {
    move |done, total| p.report(done as u64, total as u64)
}

impl Jobs {
    /// True while something runs.
    pub fn busy(&self) -> bool {
        self.pending.busy()
    }

    /// True while an export (or a save) runs: one at a time.
    pub fn exporting(&self) -> bool {
        self.pending.running(EXPORT)
    }

    /// The ends of the jobs that finished since the last frame, each with its handler, for
    /// the viewer to run on itself in order.
    pub fn take_finished(&mut self) -> Vec<Then<Viewer>> {
        self.pending.take_finished()
    }

    /// Starts `work` through the registry and keeps `then` for its end (see [`Pending::start`]).
    #[allow(clippy::too_many_arguments)]
    pub fn start<T: Send + 'static, E: Send + 'static>(
        &mut self,
        tasks: &Tasks,
        kind: &'static str,
        label: impl Into<String>,
        priority: Priority,
        shown: Shown,
        work: impl FnOnce(&Progress) -> Result<T, TaskError<E>> + Send + 'static,
        then: impl FnOnce(&mut Viewer, Result<T, TaskError<E>>) + 'static,
    ) -> Result<(), AppError> {
        self.pending.start(tasks, kind, label, priority, shown, work, then).map(drop).map_err(no_thread(kind))
    }

    /// Shows a file dialog without blocking the UI (one at a time); its answer is a command.
    pub fn dialog(&mut self, dialog: super::dialogs::Dialog, tasks: &Tasks) -> Result<(), AppError> {
        // In a browser the picker must open now, within the click's user activation (a task
        // could wait behind a long load); its files arrive through the page.
        if crate::platform::IN_BROWSER {
            if let Some(command) = self.host.ask(dialog) {
                self.pending.done("dialog", move |v: &mut Viewer| v.commands.push(command));
            }
        } else if !self.pending.running("dialog") {
            let host = self.host.clone();
            let ask = move |_: &Progress| Ok::<_, TaskError<Infallible>>(host.ask(dialog));
            self.start(tasks, "dialog", "file dialog", Priority::Normal, Shown::Upkeep, ask, |v, answer| {
                v.commands.extend(answer.ok().flatten());
            })?;
        }
        Ok(())
    }

    /// Writes `m` in the format `path`'s extension names, through the writers' table (a BVH
    /// keeps the motion's rotation order).
    pub fn save_motion(&mut self, m: Arc<Motion>, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.export("Saving the motion", tasks, move |_| {
            use skelview_core::export::files::{WriteOptions, write_file, writer_for};
            let options = WriteOptions { bvh: skelview_core::export::BvhWriteOptions::keeping(&m) };
            write_file(&m, &path, &options).map_err(|source| ExportError::Motion { path: path.clone(), source })?;
            let writer = writer_for(&path);
            let summary = writer.map(|w| w.summary(&m, &options)).unwrap_or_default();
            let losses: String = writer.map(|w| w.losses(&m)).unwrap_or_default().iter().map(|l| format!("; {l}")).collect();
            Ok(format!("wrote {} ({summary}){losses}", path.display()))
        })
    }

    /// Writes all frames' positions of `m` (metres, Y-up) to `path`: a NumPy array for `.npy`,
    /// else CSV.
    pub fn export_positions(&mut self, m: Arc<Motion>, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.export("Exporting positions", tasks, move |p| {
            use skelview_core::export::positions::{PositionsFormat, write_one};
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            let mut progress = counts(p);
            let format = PositionsFormat::of(&path);
            crate::platform::write_out(&path, |out| write_one(&m, &frames, false, format, out, &mut |k, n| progress(k, n)))
                .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({} frames)", path.display(), frames.len()))
        })
    }

    /// Writes the Measure tool's values over every frame of `m` to `path`.
    pub fn export_measures(
        &mut self,
        m: Arc<Motion>,
        curves: Arc<super::measure::MeasureCurves>,
        path: PathBuf,
        tasks: &Tasks,
    ) -> Result<(), AppError> {
        self.export("Exporting measurements", tasks, move |_| {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            crate::platform::write_out(&path, |out| {
                skelview_core::export::measures::write_measures(&m, &curves.measures, &frames, &curves.values, out)
            })
            .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({} frames)", path.display(), frames.len()))
        })
    }

    /// Renders `scene` at each `(frame, time)` with `camera` to numbered PNGs in `dir`: every
    /// visible clip, in the viewer's layout and colours.
    pub fn export_frames(
        &mut self,
        scene: Scene,
        frame: FrameSpec,
        frames: Vec<(usize, f64)>,
        camera: OrbitCamera,
        dir: PathBuf,
        size: (u32, u32),
        tasks: &Tasks,
    ) -> Result<(), AppError> {
        no_renderer_here()?;
        let host = self.host.clone();
        self.export("Exporting frames", tasks, move |p| {
            let shot = Shot { scene, frame, camera, size };
            let n = host.write(shot, ShotOutput::Frames { dir: dir.clone(), frames }, &mut counts(p)).map_err(ExportError::from)?;
            Ok(format!("wrote {n} frames to {}", dir.display()))
        })
    }

    /// Renders the frames into a video (`.gif` or `.mp4` by `path`) playing at `fps`.
    #[allow(clippy::too_many_arguments)]
    pub fn export_video(
        &mut self,
        scene: Scene,
        frame: FrameSpec,
        frames: Vec<(usize, f64)>,
        camera: OrbitCamera,
        path: PathBuf,
        size: (u32, u32),
        fps: f64,
        tasks: &Tasks,
    ) -> Result<(), AppError> {
        no_renderer_here()?;
        let host = self.host.clone();
        self.export("Exporting video", tasks, move |p| {
            let shot = Shot { scene, frame, camera, size };
            let n = host.write(shot, ShotOutput::Video { path: path.clone(), frames, fps }, &mut counts(p)).map_err(ExportError::from)?;
            Ok(format!("wrote {} ({n} frames at {fps:.3} fps, {}x{})", path.display(), size.0, size.1))
        })
    }

    /// Renders one picture of the scene as the viewport shows it: into a PNG at `to`, or
    /// (`None`) back to the UI for the clipboard.
    pub fn screenshot(
        &mut self,
        scene: Scene,
        frame: FrameSpec,
        camera: OrbitCamera,
        size: (u32, u32),
        to: Option<PathBuf>,
        tasks: &Tasks,
    ) -> Result<(), AppError> {
        no_renderer_here()?;
        let host = self.host.clone();
        let shot = Shot { scene, frame, camera, size };
        if let Some(path) = to {
            return self.export("Saving screenshot", tasks, move |p| {
                host.write(shot, ShotOutput::Png(path.clone()), &mut counts(p)).map_err(ExportError::from)?;
                Ok(format!("wrote {} ({}x{})", path.display(), size.0, size.1))
            });
        }
        if !self.pending.running("screenshot") {
            let picture = move |_: &Progress| Ok::<_, TaskError<PictureError>>((size, host.picture(shot)?));
            self.start(tasks, "screenshot", "Copying screenshot", Priority::Normal, Shown::Upkeep, picture, |v, picture| match picture {
                Ok(picture) => {
                    v.messages.notice = Some(format!("screenshot copied ({}x{})", picture.0.0, picture.0.1));
                    v.frame.effects.push(Effect::Clipboard(picture));
                }
                Err(e) => v.messages.fail(ExportFailure::Screenshot(e).into()),
            })?;
        }
        Ok(())
    }

    /// Reads a joint-name map (MNM) in the background, through the format table.
    pub fn read_name_map(&mut self, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        let read = move |_: &Progress| -> Result<_, TaskError<LoadError>> {
            let map = skelview_core::formats::table::read_name_map(&path)?;
            Ok((path, map))
        };
        // The file chosen last wins, whichever read ends first.
        self.pending.forget("namemap");
        self.start(tasks, "namemap", "Reading the name map", Priority::Background, Shown::Upkeep, read, |v, read| match read {
            Ok((path, map)) => v.session.set_name_map(Some((path, map.into()))),
            Err(e) => v.messages.fail(AppError::NameMap(Arc::new(e))),
        })
    }

    /// Reads a recipe file (TOML) in the background.
    pub fn read_recipe(&mut self, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        use super::RecipeFileError as E;
        let read = move |_: &Progress| -> Result<_, TaskError<E>> {
            let text = std::fs::read_to_string(&path).map_err(|source| E::Io { path: path.clone(), source })?;
            Ok(skelview_core::edit::Recipe::from_toml(&text).map_err(|source| E::Recipe { path, source })?)
        };
        // The file chosen last wins, whichever read ends first.
        self.pending.forget("recipe");
        self.start(tasks, "recipe", "Reading the recipe", Priority::Background, Shown::Upkeep, read, |v, read| match read {
            Ok(recipe) => {
                if let Some(id) = v.session.active_clip().map(|c| c.id()) {
                    v.apply_edit(id, super::EditCommand::Replace(recipe));
                }
            }
            Err(e) => v.messages.fail(AppError::Recipe(Arc::new(e))),
        })
    }

    /// Reads a bone map file (skelview's TOML, or an MNM by its extension) in the background
    /// and puts it over `map`, clip `clip`'s (whose skeleton names the joints).
    pub fn read_bone_map(
        &mut self,
        path: PathBuf,
        clip: ClipId,
        skeleton: skelview_core::core::Skeleton,
        mut map: BoneMap,
        tasks: &Tasks,
    ) -> Result<(), AppError> {
        use super::BoneMapFileError as E;
        let read = move |_: &Progress| -> Result<_, TaskError<E>> {
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("mnm")) {
                let names = skelview_core::formats::table::read_name_map(&path).map_err(E::NameMap)?;
                skelview_core::retarget::apply_name_map(&mut map, &skeleton, &names);
            } else {
                let text = std::fs::read_to_string(&path).map_err(|source| E::Io { path: path.clone(), source })?;
                skelview_core::retarget::apply_toml(&mut map, &skeleton, &text).map_err(|source| E::Map { path, source })?;
            }
            Ok((clip, map))
        };
        // The file chosen last wins, whichever read ends first.
        self.pending.forget("bonemap");
        self.start(tasks, "bonemap", "Reading the bone map", Priority::Background, Shown::Upkeep, read, |v, read| match read {
            Ok((id, map)) => {
                if let Some(c) = v.session.scene.clips.iter_mut().find(|c| c.id() == id) {
                    v.messages.notice = Some(format!("bone map: {} bones on {}", map.entries.len(), c.name));
                    c.humanoid = map;
                }
            }
            Err(e) => v.messages.fail(AppError::BoneMap(Arc::new(e))),
        })
    }

    /// Writes `text` (a bone map of `bones` bones) to `path` (a download, in a browser).
    pub fn save_bone_map(&mut self, text: String, bones: usize, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.export("Saving the bone map", tasks, move |_| {
            crate::platform::write_out(&path, |out| out.write_all(text.as_bytes()))
                .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({bones} bones)", path.display()))
        })
    }

    /// Writes `recipe` as TOML to `path` (a download, in a browser).
    pub fn save_recipe(&mut self, recipe: skelview_core::edit::Recipe, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.export("Saving the recipe", tasks, move |_| {
            let text = recipe.to_toml();
            crate::platform::write_out(&path, |out| out.write_all(text.as_bytes()))
                .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({} steps)", path.display(), recipe.steps.len()))
        })
    }

    /// Starts an export (or a save): one at a time; its message or failure is shown when it
    /// ends.
    fn export(
        &mut self,
        label: &str,
        tasks: &Tasks,
        work: impl FnOnce(&Progress) -> Result<String, TaskError<ExportError>> + Send + 'static,
    ) -> Result<(), AppError> {
        if self.exporting() {
            return Err(ExportFailure::Busy.into());
        }
        self.start(tasks, EXPORT, label, Priority::Normal, Shown::Waited, work, |v, ended| match ended {
            Ok(message) => v.messages.notice = Some(message),
            Err(TaskError::Cancelled) => v.messages.notice = Some("export cancelled".into()),
            Err(e) => v.messages.fail(ExportFailure::Failed(e).into()),
        })
    }
}
