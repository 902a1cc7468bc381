//! The viewer's state and its per-frame logic, free of winit and egui. The state is split
//! by job: the session (clips, loads, shared clock), the view (camera, selection, windows),
//! the settings (stored once, edited in place, saved on a background thread), background
//! jobs, and this frame's picture. The UI reads all of it and pushes [`Command`]s, which
//! [`Viewer::update`] applies once per frame; nothing here blocks or touches the disk on the
//! UI thread.

use std::sync::Arc;

use glam::Vec3;

use skelview_core::core::{GlobalPose, Motion, PlaybackCommand, Sampler};
use skelview_core::formats::{FormatOptions, LoadOptions, OptionScope};

use skelview_scene::{self as scene, ClipId, DrawData, FrameSpec, OverlapCurve, OverlapInput, PoseMode};

pub mod actions;
mod checks;
mod command;
mod curves;
mod dialogs;
mod document;
mod edit_draft;
mod edits;
mod error;
mod exports;
pub use exports::RangeCapture;
mod host;
#[cfg(target_arch = "wasm32")]
pub use dialogs::Page;
pub use host::{Host, NoHost, NoRenderer, PictureError, Shot, ShotOutput};
mod jobs;
mod loading;
pub mod measure;
mod retargets;
mod running;
mod session;
pub mod settings;
pub mod settings_store;
pub mod trace;
mod view;

pub use crate::tasks::{Keyed, RunningTask, TaskId, Tasks, Waker};
pub use checks::{CheckState, Checks};
pub use command::{
    CameraEdit, ClipEdit, Command, Commands, CompareEdit, Export, FilesCommand, JobCommand, SceneEdit, SelectionEdit, SettingEdit,
    WindowEdit,
};
pub use curves::{ChannelCurve, CurvesInput, channel_curves, curves_of, signal_curves};
pub use dialogs::Dialog;
pub use document::{ClipSource, Document};
pub use edit_draft::{DraftError, EditDraft, EditScope, FormValue, form_operations};
pub use edits::{Applied, ClipEdits, EditCommand, EditRuns, EditState};
pub use error::{AppError, BoneMapFileError, DialogError, ExportFailure, FetchError, RecipeFileError};
pub use jobs::{ExportError, Jobs};
pub use session::{Arrived, Loading, Session};
pub use settings::{FileOverride, PanelLayout, Settings};
pub use settings_store::{SettingsError, SettingsStore};
pub use view::{EditsView, IssueSort, IssuesView, LoadEffect, Start, View, ViewEffect};

/// This frame's picture.
#[derive(Default)]
pub struct Frame {
    /// Draw data of this frame.
    pub draw: DrawData,
    /// Pose of a skeleton still loading, when no clip is shown yet.
    preview: Sampler,
    /// What the window is asked to do once, in order (drained by [`Viewer::take_effects`]).
    effects: Vec<Effect>,
}

/// What the viewer asks of the window it runs in, once: queued by the viewer, drained by
/// the window each frame (its one consumer), never written by the window.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Put this picture on the clipboard (Copy screenshot).
    Clipboard(jobs::Picture),
    /// In a browser: save the viewport as drawn this frame, as a PNG download of this name.
    SaveViewport(std::path::PathBuf),
    /// In a browser: record the range from the canvas into a GIF download.
    RecordRange(exports::RangeCapture),
}

/// Messages for the user.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Messages {
    /// Last error, shown until dismissed.
    pub error: Option<String>,
    /// What failed (the error window's title), with `error`.
    pub error_title: &'static str,
    /// Last finished action, for the status bar.
    pub notice: Option<String>,
}

impl Messages {
    /// Shows `e` in the error window, titled by what failed.
    pub fn fail(&mut self, e: AppError) {
        self.error_title = e.title();
        self.error = Some(e.to_string());
    }
}

/// Whole-clip results for the panels, computed in the background.
pub struct WholeClip {
    /// The comparison's error over the overlap.
    pub overlap: Keyed<OverlapInput, OverlapCurve>,
    /// The selected joint's channel curves (while the curves window is open).
    pub curves: Keyed<CurvesInput, Vec<ChannelCurve>>,
    /// The Measure tool's curves over the whole active clip.
    pub measures: Keyed<measure::MeasureInput, measure::MeasureCurves>,
}

impl WholeClip {
    /// Takes the results that finished (once a frame).
    pub fn poll(&mut self) {
        self.overlap.poll();
        self.curves.poll();
        self.measures.poll();
    }

    /// True while one is computed.
    pub fn running(&self) -> bool {
        self.overlap.running().is_some() || self.curves.running().is_some() || self.measures.running().is_some()
    }
}

impl Default for WholeClip {
    fn default() -> Self {
        Self { overlap: Keyed::new("overlap"), curves: Keyed::new("curves"), measures: Keyed::new("measure") }
    }
}

/// Everything the window shows.
pub struct Viewer {
    /// Clips, loads, the shared clock.
    pub session: Session,
    /// Camera, selection and window state.
    pub view: View,
    /// What persists; the UI edits it in place and pushes [`Command::SaveSettings`].
    pub settings: Settings,
    /// Background exports and reads.
    pub jobs: Jobs,
    /// Capture checks of the open clips (background).
    pub checks: Checks,
    /// The open clips' recipes being applied (background).
    pub edit_runs: EditRuns,
    /// Comparison curve and channel curves (background).
    pub whole: WholeClip,
    /// This frame's picture.
    pub frame: Frame,
    /// Commands queued this frame.
    pub commands: Vec<Command>,
    /// Errors and notices.
    pub messages: Messages,
    /// How files are read (from the command line).
    pub options: LoadOptions,
    store: SettingsStore,
    tasks: Tasks,
    /// Files opened from memory (a web page's), by name, for reloading them.
    opened_bytes: std::collections::HashMap<std::path::PathBuf, Arc<[u8]>>,
}

impl Viewer {
    /// A viewer with nothing loaded and the saved settings; `waker` requests a repaint from
    /// any thread.
    pub fn new(options: LoadOptions, waker: Waker) -> Self {
        let dir = crate::platform::config_dir();
        let (saved, warnings) = dir.as_deref().map(Settings::load).unwrap_or_default();
        let tasks = Tasks::new(waker);
        let store = SettingsStore::new(dir, tasks.clone());
        let mut v = Self::build(options, tasks, saved, store);
        if !warnings.is_empty() {
            v.messages.notice = Some(format!("settings: {}", warnings.join("; ")));
        }
        v
    }

    /// A viewer starting from `settings` that never writes them (tests).
    pub fn with_settings(options: LoadOptions, waker: Waker, settings: Settings) -> Self {
        let tasks = Tasks::new(waker);
        let store = SettingsStore::new(None, tasks.clone());
        Self::build(options, tasks, settings, store)
    }

    fn build(options: LoadOptions, tasks: Tasks, settings: Settings, store: SettingsStore) -> Self {
        let mut session = Session::default();
        session.playback.rate = settings.rate;
        Self {
            session,
            view: View::default(),
            settings,
            jobs: Jobs::default(),
            checks: Checks::default(),
            edit_runs: EditRuns::default(),
            whole: WholeClip::default(),
            frame: Frame::default(),
            commands: Vec::new(),
            messages: Messages::default(),
            options,
            store,
            tasks,
            opened_bytes: Default::default(),
        }
    }

    /// Who answers file dialogs and renders pictures (the desktop's dialogs and renderer;
    /// without one, each says it is not in this build).
    pub fn set_host(&mut self, host: Arc<dyn Host>) {
        self.jobs.host = host;
    }

    /// What the window is asked to do since the last call, in order (it is their one consumer).
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.frame.effects)
    }

    /// What is queued for the window, without taking it.
    pub fn effects(&self) -> &[Effect] {
        &self.frame.effects
    }

    /// The active clip's motion.
    pub fn motion(&self) -> Option<&Arc<Motion>> {
        self.session.motion()
    }

    /// Joint positions of the active clip this frame (display space).
    pub fn positions(&self) -> &[Vec3] {
        match self.session.active_clip() {
            Some(c) => c.positions(),
            None => &self.frame.preview.positions,
        }
    }

    /// Metres per file unit of the active clip, with the user's unit override.
    pub fn metres_per_unit(&self) -> f32 {
        self.session.active_clip().map_or_else(
            || self.motion().map_or(1.0, |m| m.metres_per_raw_unit()),
            |c| c.motion.metres_with(self.session.document.overrides(c.id()).0),
        )
    }

    /// Global pose of the active clip this frame (file space).
    pub fn global(&self) -> &GlobalPose {
        self.session.active_clip().map_or(&self.frame.preview.global, |c| &c.pose.global)
    }

    /// Queues a command for the next update (the front doors: dropped files, a resize).
    pub fn send(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Runs UI code that reads the viewer and sends commands: `f` gets the viewer read-only
    /// and an outbox whose commands are queued for the next update.
    pub fn ui<R>(&mut self, f: impl FnOnce(&Viewer, &mut Commands) -> R) -> R {
        let mut out = Commands::default();
        let r = f(self, &mut out);
        self.commands.append(&mut out.into_inner());
        r
    }

    /// Applies the queued commands, in order.
    pub fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            self.apply(command);
        }
    }

    fn apply(&mut self, command: Command) {
        match command {
            Command::Playback(c) => {
                if let PlaybackCommand::SetRate(r) = c {
                    self.settings.rate = r;
                }
                self.session.playback_command(c);
            }
            Command::Files(FilesCommand::Open(paths)) => self.open_paths(paths, false),
            Command::Files(FilesCommand::Add(paths)) => self.open_paths(paths, true),
            Command::Files(FilesCommand::OpenBytes { files, add }) => self.open_memory(files, add),
            Command::CancelTask(id) => self.cancel_task(id),
            Command::Clip(id, edit) => self.apply_clip(id, edit),
            Command::Edit(id, edit) => self.apply_edit(id, edit),
            Command::Scene(edit) => self.apply_scene(edit),
            Command::Compare(edit) => {
                let scene = &mut self.session.scene;
                match edit {
                    CompareEdit::Other(id) => {
                        if let Some(i) = scene.index_of(id) {
                            scene.compare.other = i;
                        }
                    }
                    CompareEdit::Mode(m) => scene.compare.mode = m,
                    CompareEdit::Heat(on) => scene.compare.heat = on,
                    CompareEdit::Partners(p) => scene.compare.partner = p,
                    CompareEdit::ClearNameMap => self.session.set_name_map(None),
                }
            }
            Command::Camera(edit) => self.apply_camera(edit),
            Command::Selection(edit) => self.apply_selection(edit),
            Command::Window(edit) => self.view.apply_window(edit),
            Command::Setting(edit) => self.apply_setting(edit),
            Command::Job(job) => self.apply_job(job),
            Command::ShowError(e) => self.messages.fail(e),
            Command::Notify(notice) => self.messages.notice = Some(notice),
            Command::DismissError => self.messages.error = None,
        }
    }

    /// A change to one clip, found by its id wherever it is in the list now.
    fn apply_clip(&mut self, id: ClipId, edit: ClipEdit) {
        let s = &mut self.session;
        let Some(i) = s.scene.index_of(id) else { return };
        match edit {
            ClipEdit::Remove => {
                if s.remove_clip(i) {
                    self.view.selected = None;
                }
            }
            ClipEdit::Activate => {
                if s.set_active(i) {
                    // Another skeleton: the joint index does not carry over.
                    self.view.selected = None;
                }
            }
            ClipEdit::Offset(secs) => s.set_offset(i, secs),
            ClipEdit::MatchStart => s.match_start(i),
            ClipEdit::Look { color, visible, opacity } => {
                let c = &mut s.scene.clips[i];
                (c.color, c.visible, c.opacity) = (color, visible, opacity.clamp(0.0, 1.0));
            }
            ClipEdit::Body(body) => {
                let c = &mut s.scene.clips[i];
                if c.skins.is_some() {
                    c.body = body;
                }
            }
            ClipEdit::Take(take) => {
                let c = &s.scene.clips[i];
                let format = s.document.source(c.id()).read_with;
                let (paths, serial, color) = (c.motion.source.paths.clone(), c.serial, c.color);
                self.spawn_paths(paths, false, Some((serial, color)), format, Some(take));
            }
            ClipEdit::Unit(unit) => {
                let up = s.document.overrides(s.scene.clips[i].id()).1;
                s.set_overrides(i, unit, up);
                self.remember_overrides(i, &FormatOptions::default());
                self.view.queue(ViewEffect::FramePose);
            }
            ClipEdit::UpAxis(up) => {
                let unit = s.document.overrides(s.scene.clips[i].id()).0;
                s.set_overrides(i, unit, up);
                self.remember_overrides(i, &FormatOptions::default());
                self.view.queue(ViewEffect::FramePose);
            }
            ClipEdit::FormatOption { key, value } => self.set_format_option(i, key, &value),
            ClipEdit::RetargetOnto { target, keep_feet } => self.start_retarget(id, target, keep_feet),
            ClipEdit::RetargetOntoFile { path, keep_feet } => {
                self.view.queue_on_load(LoadEffect::RetargetOnto { source: id, keep_feet });
                self.open_paths(vec![path], true);
            }
            ClipEdit::HumanoidBone { joint, bone } => {
                let c = &mut s.scene.clips[i];
                if joint < c.motion.skeleton.len() && c.motion.capture.is_none() {
                    c.humanoid.assign(joint, bone.as_deref());
                }
            }
            ClipEdit::FindBonesAgain => s.scene.clips[i].find_humanoid(),
            ClipEdit::MarkerLink { a, b, linked } => {
                let source = s.document.edit(id);
                let same = |p: &(String, String)| (p.0 == a && p.1 == b) || (p.0 == b && p.1 == a);
                source.links_added.retain(|p| !same(p));
                source.links_removed.retain(|p| !same(p));
                let auto = s.scene.clips[i].links_without_edits().iter().any(|&(x, y)| {
                    let names = s.scene.clips[i].motion.skeleton.joints();
                    same(&(names[x].name.clone(), names[y].name.clone()))
                });
                match (linked, auto) {
                    (true, false) => source.links_added.push((a, b)),
                    (false, true) => source.links_removed.push((a, b)),
                    _ => {}
                }
                let (added, removed) = (source.links_added.clone(), source.links_removed.clone());
                s.scene.clips[i].set_link_edits(&added, &removed);
                self.remember_overrides(i, &FormatOptions::default());
            }
        }
    }

    fn apply_scene(&mut self, edit: SceneEdit) {
        let s = &mut self.session;
        match edit {
            SceneEdit::Layout(layout) => {
                // The screen's horizontal axis when chosen; it stays put while orbiting.
                s.scene.set_layout(layout, Vec3::Y.cross(self.view.camera.backward()));
                self.view.queue(ViewEffect::FramePose);
            }
            SceneEdit::PoseMode(m) => s.pose_mode = m,
            SceneEdit::Overlays(o) => s.scene.overlays = o,
        }
    }

    fn apply_camera(&mut self, edit: CameraEdit) {
        let view = &mut self.view;
        match edit {
            CameraEdit::FrameAll => {
                // The whole clips stay in view: following would move the camera off them.
                view.queue(ViewEffect::FrameAll);
                view.follow_root = false;
            }
            CameraEdit::Preset(v) => {
                view.camera.set_preset(v);
                view.queue(ViewEffect::FramePose);
            }
            CameraEdit::Orthographic(on) => view.camera.orthographic = on,
            CameraEdit::FollowRoot(on) => view.follow_root = on,
            CameraEdit::Orbit(d) => view.camera.orbit(d),
            CameraEdit::Pan(d, h) => view.camera.pan(d, h),
            CameraEdit::Zoom(f, ndc, aspect) => view.camera.zoom_towards(f, ndc, aspect),
            CameraEdit::Viewport { aspect, px, origin } => (view.aspect, view.viewport_px, view.viewport_origin_px) = (aspect, px, origin),
        }
    }

    fn apply_selection(&mut self, edit: SelectionEdit) {
        match edit {
            SelectionEdit::Joint(sel) => {
                self.view.selected = sel;
                if let (true, Some(j)) = (self.view.measure.open, sel) {
                    self.view.measure.pick(j);
                }
            }
            SelectionEdit::Pick(ndc, aspect) => {
                let s = &self.session;
                let size = s.scene.size_m(s.active);
                let skeleton = s.motion().map(|m| &m.skeleton).or(s.preview.as_ref().map(|(sk, _)| &**sk));
                let positions = self.positions();
                if let Some(skeleton) = skeleton.filter(|sk| sk.len() == positions.len()) {
                    self.view.selected = scene::draw::pick(&self.view.camera, ndc, aspect, skeleton, positions, size);
                    if let (true, Some(j)) = (self.view.measure.open, self.view.selected) {
                        self.view.measure.pick(j);
                    }
                }
            }
            SelectionEdit::Finding { frame, joint } => {
                let s = &mut self.session;
                if let Some(c) = s.active_clip() {
                    let time = c.offset_secs + frame as f64 * c.motion.clip.frame_time_secs;
                    s.pose_mode = PoseMode::Animated;
                    s.playback_command(PlaybackCommand::Pause);
                    s.playback_command(PlaybackCommand::Seek(time));
                }
                self.view.selected = joint;
                match joint {
                    Some(j) => self.view.queue(ViewEffect::FrameJoint(j)),
                    None => self.view.queue(ViewEffect::FrameAll),
                }
            }
        }
    }

    fn apply_setting(&mut self, edit: SettingEdit) {
        let now = edit.saves_now();
        let st = &mut self.settings;
        match edit {
            SettingEdit::Style(style) => st.style = style,
            SettingEdit::ShowNames(on) => st.show_names = on,
            SettingEdit::Interpolation(i) => st.interpolation = i,
            SettingEdit::LightTheme(on) => st.light_theme = on,
            SettingEdit::Lengths(d) => st.lengths = d,
            SettingEdit::PanelsShown(left, right) => (st.panels.left_shown, st.panels.right_shown) = (left, right),
            SettingEdit::PanelWidths(left, right) => (st.panels.left_width, st.panels.right_width) = (left, right),
            SettingEdit::WindowSize(w, h) => st.window_size = (w, h),
            SettingEdit::Thresholds(t) => {
                st.qa = t;
                self.view.issues.draft = None;
            }
            SettingEdit::Reset => return self.reset_settings(),
        }
        if now {
            self.store.save(&self.settings);
        }
    }

    fn apply_job(&mut self, job: JobCommand) {
        match job {
            JobCommand::Ask(dialog) => {
                if let Err(e) = self.jobs.dialog(dialog, &self.tasks) {
                    self.messages.fail(e);
                }
            }
            JobCommand::Export(export) => self.export(export),
            JobCommand::ReadNameMap(path) => {
                if let Err(e) = self.jobs.read_name_map(path, &self.tasks) {
                    self.messages.fail(e);
                }
            }
            JobCommand::ReadRecipe(path) => {
                if let Err(e) = self.jobs.read_recipe(path, &self.tasks) {
                    self.messages.fail(e);
                }
            }
            JobCommand::ReadBoneMap(path) => {
                let Some(c) = self.session.active_clip().filter(|c| c.motion.capture.is_none()) else {
                    let none = crate::tasks::TaskError::Failed(BoneMapFileError::NoClip);
                    return self.messages.fail(AppError::BoneMap(Arc::new(none)));
                };
                let (id, skeleton, map) = (c.id(), c.motion.skeleton.clone(), c.humanoid.clone());
                if let Err(e) = self.jobs.read_bone_map(path, id, skeleton, map, &self.tasks) {
                    self.messages.fail(e);
                }
            }
        }
    }

    /// Sets format option `key` to `value` from clip `i`'s menu: an option of the file is
    /// remembered for that file and reloads that clip; an option of the user's (a body model
    /// folder) is remembered for every file and reloads every clip whose format declares it.
    /// A clip reloads in place (colour, offset and place in the list stay).
    fn set_format_option(&mut self, i: usize, key: &str, value: &str) {
        let c = &self.session.scene.clips[i];
        let Some(option) = skelview_core::formats::table::by_format_name(c.motion.source.format.name)
            .and_then(|f| f.options().iter().find(|o| o.key == key))
        else {
            return;
        };
        let mut changed = FormatOptions::default();
        if changed.set_checked(option, value).is_err() {
            return;
        }
        match option.scope {
            OptionScope::File => {
                if self.reload_with(i, &changed) {
                    self.remember_overrides(i, &changed);
                }
            }
            OptionScope::User => {
                self.settings.format = self.settings.format.overlaid(&changed);
                self.store.save(&self.settings);
                for j in 0..self.session.scene.clips.len() {
                    let format = self.session.scene.clips[j].motion.source.format.name;
                    if skelview_core::formats::table::by_format_name(format).is_some_and(|f| f.options().iter().any(|o| o.key == key)) {
                        self.reload_with(j, &changed);
                    }
                }
            }
        }
    }

    /// Reloads clip `i` in place with `changed` over what it was read with; false when that
    /// changes nothing.
    fn reload_with(&mut self, i: usize, changed: &FormatOptions) -> bool {
        let c = &self.session.scene.clips[i];
        let read_with = self.session.document.source(c.id()).read_with;
        let format = read_with.overlaid(changed);
        if format == read_with {
            return false;
        }
        let (paths, serial, color) = (c.motion.source.paths.clone(), c.serial, c.color);
        let take = c.motion.source.take.and_then(|i| c.motion.source.takes.get(i)).map(|t| t.name.clone());
        self.spawn_paths(paths, false, Some((serial, color)), format, take);
        true
    }

    /// Back to defaults (display, theme, rate, overrides, panels); the window size, the recent
    /// files and where the user's body models are stay.
    fn reset_settings(&mut self) {
        let window_size = self.settings.window_size;
        let generation = self.settings.panels.generation + 1;
        let recent = std::mem::take(&mut self.settings.recent);
        let format = std::mem::take(&mut self.settings.format);
        self.settings = Settings { window_size, recent, format, ..Settings::default() };
        self.settings.panels.generation = generation;
        self.session.playback.apply(PlaybackCommand::SetRate(1.0));
        for i in 0..self.session.scene.clips.len() {
            self.session.set_overrides(i, None, None);
        }
        self.view.queue(ViewEffect::FramePose);
        self.store.save(&self.settings);
    }

    /// What the scene composes this frame.
    pub fn frame_spec(&self) -> FrameSpec {
        FrameSpec {
            time_secs: self.session.playback.time_secs,
            pose: self.session.pose_mode,
            interpolation: self.settings.interpolation,
            active: self.session.active,
            selected: self.view.selected,
            style: self.settings.style,
        }
    }

    /// Drains the background work, applies the commands, advances playback and builds this
    /// frame's picture.
    pub fn update(&mut self, dt_secs: f64) {
        self.poll_tasks();
        self.apply_commands();
        self.sync_edits();
        self.checks.sync(&self.session.scene.clips, &self.session.document, &self.settings.qa, &self.tasks);
        self.session.scene.flagged = self.flagged_now();
        if self.session.pose_mode == PoseMode::Animated {
            self.session.playback.update(dt_secs);
        }
        self.session.scene.compare.overlap = self.whole.overlap.result().cloned();
        self.frame.draw.clear();
        let spec = self.frame_spec();
        let s = &mut self.session;
        let view = &mut self.view;
        if !s.scene.clips.is_empty() && (!s.replacing() || s.preview.is_none()) {
            s.scene.compose(&spec, &mut self.frame.draw);
            let pending = view.take_pending();
            if pending.contains(&ViewEffect::ChooseFollow) {
                // Follow travelling clips, not clips in place (the user may change it: R).
                view.follow_root = spec.pose == PoseMode::Animated && s.scene.travels(s.active);
            }
            let frame_all = pending.contains(&ViewEffect::FrameAll);
            if frame_all || pending.contains(&ViewEffect::FramePose) {
                let whole = frame_all && spec.pose == PoseMode::Animated;
                match (whole, s.scene.bounds_over_clips(s.active), s.scene.bounds_now(s.active)) {
                    (true, Some((lo, hi)), _) => view.camera.frame_bounds(lo, hi, view.aspect),
                    (_, _, Some((lo, hi))) => view.camera.frame_figure(lo, hi, view.aspect, 0.5),
                    _ => {}
                }
            }
            let joint = pending.iter().rev().find_map(|e| if let ViewEffect::FrameJoint(j) = e { Some(*j) } else { None });
            if let Some(j) = joint
                && let (Some(p), Some(c)) = (s.active_clip().and_then(|c| c.positions().get(j).copied()), s.active_clip())
            {
                let r = Vec3::splat(c.display.size_m * 0.35);
                view.camera.frame_bounds(p - r, p + r, view.aspect);
            }
            if view.follow_root
                && let Some(p) = s.scene.roots_centre(s.active)
            {
                view.camera.target = Vec3::new(p.x, view.camera.target.y, p.z);
            }
            s.scene.grid(&spec, view.camera.target, &mut self.frame.draw);
        } else if let Some((skeleton, clip)) = &s.preview {
            let (bounds, size) = scene::preview(skeleton, clip, &spec.style, view.selected, &mut self.frame.preview, &mut self.frame.draw);
            if let Some((lo, hi)) = bounds
                && view.take_framing()
            {
                view.camera.frame_bounds(lo, hi, view.aspect);
            }
            // Units and the floor are settled once the whole file is in: the grid sits at 0.
            let center = Vec3::new(view.camera.target.x, 0.0, view.camera.target.z);
            scene::draw::grid(center, size, &spec.style, &mut self.frame.draw.lines);
        }
        self.want_whole_clip();
        self.update_measure();
    }

    /// Starts the whole-clip computations the panels need now (cheap when nothing changed).
    fn want_whole_clip(&mut self) {
        match self.session.scene.compare.overlap_input.clone() {
            Some(input) => self.whole.overlap.want(input.clone(), &self.tasks, move |p| scene::overlap_curve(&input, &|f| p.keep_going(f))),
            None => self.whole.overlap.clear(),
        }
        let Some(c) = self.session.active_clip() else { return };
        let signal = self.view.signal.filter(|_| c.motion.capture.is_some());
        if self.view.show_curves && (signal.is_some() || self.view.selected.is_some()) {
            let metres_per_unit = c.motion.metres_with(self.session.document.overrides(c.id()).0);
            let joint = self.view.selected.unwrap_or(0);
            let input =
                CurvesInput { motion: c.motion.clone(), serial: c.serial, joint, signal, offset_secs: c.offset_secs, metres_per_unit };
            let job = input.clone();
            self.whole.curves.want(input, &self.tasks, move |p| curves_of(&job, &|f| p.keep_going(f)));
        }
    }

    /// Writes the settings and waits for the write (the window is closing).
    pub fn shutdown(&mut self) {
        self.store.finish(&self.settings);
    }

    /// True when this frame shows a pose: a clip, or the preview of one still loading.
    pub fn pose_shown(&self) -> bool {
        !self.session.scene.clips.is_empty() || self.session.preview.is_some()
    }

    /// True while files are being read.
    pub fn loading(&self) -> bool {
        !self.session.loads.is_empty()
    }

    /// The error shown, once nothing runs any more that could change it (no load, no
    /// background result, no job): a test waiting for a state that will not come stops here.
    pub fn stopped_with_error(&self) -> Option<&str> {
        let idle = !self.loading() && !self.working() && !self.jobs.busy();
        self.messages.error.as_deref().filter(|_| idle)
    }

    /// True while capture checks or whole-clip curves are computed in the background.
    pub fn working(&self) -> bool {
        self.checks.busy() || self.edit_runs.busy() || self.whole.running()
    }

    /// True while something changes by itself (playing, exporting): keep repainting. A load
    /// is not: the loader wakes the UI with each step of progress, and repainting
    /// continuously would take the cores the load needs (on a software renderer, all).
    pub fn animating(&self) -> bool {
        let s = &self.session;
        (s.playback.playing && s.pose_mode == PoseMode::Animated && !s.scene.clips.is_empty()) || self.jobs.busy()
    }
}

#[cfg(test)]
mod capture_tests;
#[cfg(test)]
mod character_tests;
#[cfg(test)]
mod edit_tests;
#[cfg(test)]
mod tests;
