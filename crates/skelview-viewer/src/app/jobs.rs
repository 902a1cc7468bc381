//! Background work of the viewer besides loading and whole-clip results: exports (positions
//! and measurements as CSV, PNG frames, videos and screenshots of every visible clip as the
//! scene composes it), file dialogs and reading a name map. Each is a [`Task`]; what it
//! answers is taken once a frame in [`Jobs::poll`].

use std::convert::Infallible;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;

use skelview_core::core::Motion;
use skelview_core::formats::LoadError;
use skelview_core::formats::mnm::NameMap;
use skelview_core::retarget::BoneMap;
use skelview_scene::{ClipId, FrameSpec, OrbitCamera, Scene};

use super::host::{Host, PictureError, Shot, ShotOutput};
use super::{AppError, Command};
use crate::tasks::{Priority, Progress, Shown, Task, TaskError, Tasks};

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

/// What finished in the background since the last frame.
pub enum Finished {
    /// An export ended: its message, or why it failed.
    Export(Result<String, TaskError<ExportError>>),
    /// A name map was read (or not).
    NameMap(Result<(PathBuf, NameMap), TaskError<LoadError>>),
    /// A bone map file was put over a clip's map (or not).
    BoneMap(Result<(ClipId, BoneMap), TaskError<super::BoneMapFileError>>),
    /// A recipe was read (or not).
    Recipe(Result<skelview_core::edit::Recipe, TaskError<super::RecipeFileError>>),
    /// A file dialog was answered with this command (`None`: cancelled).
    Dialog(Option<Command>),
    /// A picture for the clipboard, or why there is none.
    Picture(Result<Picture, TaskError<PictureError>>),
}

/// The viewer's background jobs: one export, one dialog, one name map and one clipboard
/// picture at a time; dialogs and pictures are the [`Host`]'s.
pub struct Jobs {
    /// Who answers dialogs and makes pictures.
    pub host: Arc<dyn Host>,
    /// The running export, if any; its label and progress are shown with a Cancel button.
    pub export: Option<Task<String, ExportError>>,
    name_map: Option<Task<(PathBuf, NameMap), LoadError>>,
    recipe: Option<Task<skelview_core::edit::Recipe, super::RecipeFileError>>,
    bone_map: Option<Task<(ClipId, BoneMap), super::BoneMapFileError>>,
    dialog: Option<Task<Option<Command>, Infallible>>,
    picture: Option<Task<Picture, PictureError>>,
    /// Dialogs answered at once (in a browser), handed on at the next poll.
    answered: Vec<Command>,
}

impl Default for Jobs {
    fn default() -> Self {
        let host = super::dialogs::default_host();
        Self { host, export: None, name_map: None, recipe: None, bone_map: None, dialog: None, picture: None, answered: Vec::new() }
    }
}

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
        self.export.is_some()
            || self.name_map.is_some()
            || self.recipe.is_some()
            || self.bone_map.is_some()
            || self.dialog.is_some()
            || self.picture.is_some()
            || !self.answered.is_empty()
    }

    /// Shows a file dialog without blocking the UI (one at a time).
    pub fn dialog(&mut self, dialog: super::dialogs::Dialog, tasks: &Tasks) -> Result<(), AppError> {
        // In a browser the picker must open now, within the click's user activation (a task
        // could wait behind a long load); its files arrive through the page.
        if crate::platform::IN_BROWSER {
            self.answered.extend(self.host.ask(dialog));
        } else if self.dialog.is_none() {
            let host = self.host.clone();
            let task = tasks.spawn("dialog", "file dialog", Priority::Normal, Shown::Upkeep, move |_| Ok(host.ask(dialog)));
            self.dialog = Some(task.map_err(no_thread("dialog"))?);
        }
        Ok(())
    }

    /// Writes `m` in the format `path`'s extension names, through the writers' table (a BVH
    /// keeps the motion's rotation order).
    pub fn save_motion(&mut self, m: Arc<Motion>, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.start("Saving the motion", tasks, move |_| {
            use skelview_core::export::files::{WriteOptions, write_file, writer_for};
            let options = WriteOptions { bvh: skelview_core::export::BvhWriteOptions::keeping(&m) };
            write_file(&m, &path, &options).map_err(|source| ExportError::Motion { path: path.clone(), source })?;
            let summary = writer_for(&path).map(|w| w.summary(&m, &options)).unwrap_or_default();
            Ok(format!("wrote {} ({summary})", path.display()))
        })
    }

    /// Writes all frames' positions of `m` (metres, Y-up) to `path`.
    pub fn export_positions(&mut self, m: Arc<Motion>, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.start("Exporting positions", tasks, move |p| {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            let mut progress = counts(p);
            crate::platform::write_out(&path, |out| {
                writeln!(out, "joint,frame,x,y,z")?;
                skelview_core::export::positions::write_csv(&m, &frames, false, false, out, &mut |k, n| progress(k, n))
            })
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
        self.start("Exporting measurements", tasks, move |_| {
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
        self.start("Exporting frames", tasks, move |p| {
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
        self.start("Exporting video", tasks, move |p| {
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
            return self.start("Saving screenshot", tasks, move |p| {
                host.write(shot, ShotOutput::Png(path.clone()), &mut counts(p)).map_err(ExportError::from)?;
                Ok(format!("wrote {} ({}x{})", path.display(), size.0, size.1))
            });
        }
        if self.picture.is_none() {
            let task =
                tasks.spawn("screenshot", "Copying screenshot", Priority::Normal, Shown::Upkeep, move |_| Ok((size, host.picture(shot)?)));
            self.picture = Some(task.map_err(no_thread("screenshot"))?);
        }
        Ok(())
    }

    /// Reads a joint-name map (MNM) in the background, through the format table.
    pub fn read_name_map(&mut self, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        let task = tasks.spawn("namemap", "Reading the name map", Priority::Background, Shown::Upkeep, move |_| {
            let map = skelview_core::formats::table::read_name_map(&path)?;
            Ok((path, map))
        });
        self.name_map = Some(task.map_err(no_thread("name map"))?);
        Ok(())
    }

    /// Reads a recipe file (TOML) in the background.
    pub fn read_recipe(&mut self, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        use super::RecipeFileError as E;
        let task = tasks.spawn("recipe", "Reading the recipe", Priority::Background, Shown::Upkeep, move |_| {
            let text = std::fs::read_to_string(&path).map_err(|source| E::Io { path: path.clone(), source })?;
            Ok(skelview_core::edit::Recipe::from_toml(&text).map_err(|source| E::Recipe { path, source })?)
        });
        self.recipe = Some(task.map_err(no_thread("recipe"))?);
        Ok(())
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
        let task = tasks.spawn("bonemap", "Reading the bone map", Priority::Background, Shown::Upkeep, move |_| {
            if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("mnm")) {
                let names = skelview_core::formats::table::read_name_map(&path).map_err(E::NameMap)?;
                skelview_core::retarget::apply_name_map(&mut map, &skeleton, &names);
            } else {
                let text = std::fs::read_to_string(&path).map_err(|source| E::Io { path: path.clone(), source })?;
                skelview_core::retarget::apply_toml(&mut map, &skeleton, &text).map_err(|source| E::Map { path, source })?;
            }
            Ok((clip, map))
        });
        self.bone_map = Some(task.map_err(no_thread("bone map"))?);
        Ok(())
    }

    /// Writes `text` (a bone map of `bones` bones) to `path` (a download, in a browser).
    pub fn save_bone_map(&mut self, text: String, bones: usize, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.start("Saving the bone map", tasks, move |_| {
            crate::platform::write_out(&path, |out| out.write_all(text.as_bytes()))
                .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({bones} bones)", path.display()))
        })
    }

    /// Writes `recipe` as TOML to `path` (a download, in a browser).
    pub fn save_recipe(&mut self, recipe: skelview_core::edit::Recipe, path: PathBuf, tasks: &Tasks) -> Result<(), AppError> {
        self.start("Saving the recipe", tasks, move |_| {
            let text = recipe.to_toml();
            crate::platform::write_out(&path, |out| out.write_all(text.as_bytes()))
                .map_err(|source| ExportError::Write { path: path.clone(), source })?;
            Ok(format!("wrote {} ({} steps)", path.display(), recipe.steps.len()))
        })
    }

    fn start(
        &mut self,
        label: &str,
        tasks: &Tasks,
        work: impl FnOnce(&Progress) -> Result<String, TaskError<ExportError>> + Send + 'static,
    ) -> Result<(), AppError> {
        if self.export.is_some() {
            return Err(super::ExportFailure::Busy.into());
        }
        self.export = Some(tasks.spawn("export", label, Priority::Normal, Shown::Waited, work).map_err(no_thread("export"))?);
        Ok(())
    }

    /// What finished since the last call (without blocking).
    pub fn poll(&mut self) -> Vec<Finished> {
        fn take<T, E>(slot: &mut Option<Task<T, E>>) -> Option<Result<T, TaskError<E>>> {
            let outcome = slot.as_mut()?.poll()?;
            *slot = None;
            Some(outcome)
        }
        let mut out = Vec::new();
        out.extend(take(&mut self.export).map(Finished::Export));
        out.extend(take(&mut self.name_map).map(Finished::NameMap));
        out.extend(take(&mut self.recipe).map(Finished::Recipe));
        out.extend(take(&mut self.bone_map).map(Finished::BoneMap));
        out.extend(take(&mut self.picture).map(Finished::Picture));
        out.extend(take(&mut self.dialog).map(|answer| Finished::Dialog(answer.ok().flatten())));
        out.extend(self.answered.drain(..).map(|c| Finished::Dialog(Some(c))));
        out
    }
}
