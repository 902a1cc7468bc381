//! The viewer's state and its per-frame logic, free of winit and egui: load events are
//! drained, queued commands applied once, playback advanced, and the draw data built.

use std::path::PathBuf;
use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::cache::{LoadEvent, LoadHandle, spawn_load};
use crate::core::pose::{self, GlobalPose, LocalPose};
use crate::core::{Clip, Interpolation, Motion, Playback, PlaybackCommand, Skeleton};
use crate::formats::{LoadOptions, LoadRequest, Source};
use crate::render::scene::{self, DrawData, Style};
use crate::render::{OrbitCamera, ViewPreset};
use crate::settings::{FileOverride, Settings, config_dir};

mod clips;
mod comparison;
mod curves;
mod export;
mod multi;
mod overlays;
pub use clips::{ClipView, Layout, PALETTE, apply_layout, match_start, shared_end_secs};
pub use comparison::{CompareMode, CompareView, auto_partners, heat_color};
pub use curves::{ChannelCurve, channel_curves};
pub use export::Job;
pub use overlays::{OverlayScratch, Overlays, onion_skin, trails};

/// Which pose is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseMode {
    /// The clip at the playback time.
    Animated,
    /// Offsets only, all channels ignored (the format's bind pose).
    Rest,
    /// The first frame.
    FirstFrame,
}

/// A change requested by the UI, applied once per frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Playback change.
    Playback(PlaybackCommand),
    /// Open files (replacing what is shown).
    Open(Vec<PathBuf>),
    /// Open files as more clips beside those shown.
    Add(Vec<PathBuf>),
    /// Close clip `i`.
    RemoveClip(usize),
    /// Make clip `i` the one the inspector and joint tree show.
    SetActiveClip(usize),
    /// Shared-clock time (seconds) of clip `i`'s first frame.
    SetClipOffset(usize, f64),
    /// Start clip `i` together with the reference (first) clip.
    MatchStart(usize),
    /// Place the clips another way.
    SetLayout(Layout),
    /// Select a joint (or nothing).
    Select(Option<usize>),
    /// Show another pose.
    SetPoseMode(PoseMode),
    /// Nearest or linear sampling.
    SetInterpolation(Interpolation),
    /// Fit the skeleton in view.
    FrameAll,
    /// Camera preset.
    View(ViewPreset),
    /// Perspective ↔ orthographic.
    ToggleOrtho,
    /// Keep the root in the centre of the view.
    ToggleFollowRoot,
    /// Stop the running load.
    CancelLoad,
    /// Orbit by a drag (pixels).
    Orbit(Vec2),
    /// Pan by a drag (pixels) in a viewport of this height.
    Pan(Vec2, f32),
    /// Zoom by a factor towards a point (NDC) in a viewport of this aspect.
    Zoom(f32, Vec2, f32),
    /// Select what is under a point (NDC) in a viewport of this aspect.
    Pick(Vec2, f32),
    /// Show or hide the shortcut list.
    ToggleHelp,
    /// Close the error message.
    DismissError,
}

/// A load in progress.
pub struct Loading {
    /// File being loaded, for the progress bar.
    pub name: String,
    /// Events and cancel.
    pub handle: LoadHandle,
    /// 0..1 when known.
    pub progress: f32,
    /// Serial the clip will get; a replacing load keeps clips with a serial at or above it.
    pub serial: u64,
    /// Colour the clip will get, reserved when the load starts so that the order in
    /// which loads finish does not change the colours.
    pub color: [f32; 4],
    /// Serial of the clip this load reloads in place (another position rule), if any.
    pub replaces: Option<u64>,
}

/// Everything the window shows.
pub struct Viewer {
    /// How files are read.
    pub options: LoadOptions,
    /// The loaded motion.
    pub motion: Option<Arc<Motion>>,
    /// Skeleton and first frames while the rest loads.
    pub preview: Option<(Arc<Skeleton>, Clip)>,
    /// The running load.
    pub loading: Option<Loading>,
    /// Last load error, shown until dismissed.
    pub error: Option<String>,
    /// Playback state.
    pub playback: Playback,
    /// Sampling between frames.
    pub interpolation: Interpolation,
    /// The camera.
    pub camera: OrbitCamera,
    /// Display toggles and colours.
    pub style: Style,
    /// Selected joint.
    pub selected: Option<usize>,
    /// Which pose is shown.
    pub pose_mode: PoseMode,
    /// Keep the root centred.
    pub follow_root: bool,
    /// Shortcut overlay visible.
    pub show_help: bool,
    /// Joint tree search text.
    pub joint_filter: String,
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// Commands queued this frame.
    pub commands: Vec<Command>,
    /// Global pose shown this frame (file space).
    pub global: GlobalPose,
    /// Joint positions in display space this frame.
    pub positions: Vec<Vec3>,
    /// Draw data of this frame.
    pub draw: DrawData,
    /// Aspect of the viewport, for framing.
    pub aspect: f32,
    /// Length unit chosen by the user instead of the detected one.
    pub unit_override: Option<crate::core::LengthUnit>,
    /// Up axis chosen by the user instead of the detected one.
    pub up_override: Option<crate::core::UpAxis>,
    /// AMC files beside an ASF opened alone (offered in the inspector).
    pub amc_siblings: Vec<PathBuf>,
    /// Joint names drawn in the viewport.
    pub show_names: bool,
    /// Light UI theme and viewport.
    pub light_theme: bool,
    /// Persisted settings (synced from the state above by `save_settings`).
    pub settings: Settings,
    /// The running export, if any.
    pub job: Option<Job>,
    /// Last finished action, for the status bar.
    pub notice: Option<String>,
    /// Every open clip; `motion` is `clips[active].motion`.
    pub clips: Vec<ClipView>,
    /// The clip the inspector and joint tree show.
    pub active: usize,
    /// How the clips are placed.
    pub layout: Layout,
    /// Trails and onion skin.
    pub overlays: Overlays,
    overlay_scratch: OverlayScratch,
    /// The channel-curves window is open.
    pub show_curves: bool,
    /// The comparison of the reference clip with another.
    pub compare: CompareView,
    /// Loads that add a clip (no preview), one per file.
    pub adding: Vec<Loading>,
    side_axis: Vec3,
    layout_dirty: bool,
    next_serial: u64,
    waker: Arc<dyn Fn() + Send + Sync>,
    local: LocalPose,
    frame_on_next_pose: bool,
}

/// Where recent files are remembered.
fn recent_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("skelview").join("recent.txt"))
}

impl Viewer {
    /// A viewer with nothing loaded; `waker` requests a repaint from any thread.
    pub fn new(options: LoadOptions, waker: Arc<dyn Fn() + Send + Sync>) -> Self {
        let settings = config_dir().map(|d| Settings::load(&d)).unwrap_or_default();
        Self::with_settings(options, waker, settings)
    }

    /// A viewer starting from `settings` instead of the saved ones (tests, resets).
    pub fn with_settings(options: LoadOptions, waker: Arc<dyn Fn() + Send + Sync>, settings: Settings) -> Self {
        let recent = recent_path()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|s| s.lines().filter(|l| !l.is_empty()).map(PathBuf::from).take(10).collect())
            .unwrap_or_default();
        Self {
            options,
            motion: None,
            preview: None,
            loading: None,
            error: None,
            playback: Playback::new(1.0 / 30.0, 0),
            interpolation: settings.interpolation,
            camera: OrbitCamera::default(),
            style: settings.style,
            selected: None,
            pose_mode: PoseMode::Animated,
            follow_root: false,
            show_help: false,
            joint_filter: String::new(),
            recent,
            commands: Vec::new(),
            global: GlobalPose::default(),
            positions: Vec::new(),
            draw: DrawData::default(),
            aspect: 16.0 / 9.0,
            unit_override: None,
            up_override: None,
            amc_siblings: Vec::new(),
            show_names: settings.show_names,
            light_theme: settings.light_theme,
            settings,
            job: None,
            notice: None,
            clips: Vec::new(),
            active: 0,
            layout: Layout::Overlay,
            show_curves: false,
            overlays: Overlays::default(),
            overlay_scratch: OverlayScratch::default(),
            compare: CompareView::default(),
            adding: Vec::new(),
            side_axis: Vec3::X,
            layout_dirty: true,
            next_serial: 0,
            waker,
            local: LocalPose::default(),
            frame_on_next_pose: false,
        }
    }

    /// Starts loading (cancelling any running load); the current motion stays until the new
    /// skeleton arrives.
    pub fn open(&mut self, request: LoadRequest) {
        if let Some(old) = self.loading.take() {
            old.handle.cancel();
        }
        let name = request.main_path().display().to_string();
        let key = self.override_key(request.main_path());
        let saved = self.settings.overrides.get(&key).copied().unwrap_or_default();
        let mut options = self.options.clone();
        if let Some(rule) = saved.rule {
            options.bvh_positions = rule;
        }
        self.unit_override = saved.unit;
        self.up_override = saved.up;
        if let LoadRequest::Bvh(Source::File(p))
        | LoadRequest::Acclaim { amc: Some(Source::File(p)), .. }
        | LoadRequest::Acclaim { asf: Source::File(p), amc: None } = &request
        {
            self.remember(p.clone());
        }
        let serial = self.take_serial();
        // Only clips added after this load survive it, so only their colours are taken.
        let color = clips::first_free(self.adding.iter().map(|l| l.color));
        match spawn_load(request, options, self.waker.clone()) {
            Ok(handle) => self.loading = Some(Loading { name, handle, progress: 0.0, serial, color, replaces: None }),
            Err(e) => self.error = Some(format!("cannot start the loader thread: {e}")),
        }
    }

    pub(super) fn take_serial(&mut self) -> u64 {
        self.next_serial += 1;
        self.next_serial - 1
    }

    /// Opens paths as the command line would group them (an AMC finds its ASF): the first
    /// replaces what is shown, the others are added beside it.
    pub fn open_paths(&mut self, paths: &[PathBuf]) {
        let mut first = true;
        for request in LoadRequest::from_paths(paths) {
            match request {
                Ok(r) if first => {
                    self.open(r);
                    first = false;
                }
                Ok(r) => self.add(r),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    pub(super) fn remember(&mut self, path: PathBuf) {
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(10);
        if let Some(file) = recent_path() {
            let text: String = self.recent.iter().map(|p| format!("{}\n", p.display())).collect();
            let _ = file.parent().map(std::fs::create_dir_all);
            let _ = std::fs::write(file, text);
        }
    }

    /// Drains the loaders' events without blocking.
    pub fn poll_loader(&mut self) {
        self.poll_adding();
        let Some(loading) = &mut self.loading else { return };
        let (replaced_below, color) = (loading.serial, loading.color);
        let mut finished = None;
        while let Ok(event) = loading.handle.events.try_recv() {
            match event {
                LoadEvent::Skeleton { skeleton, first_frames } => {
                    self.preview = Some((skeleton, first_frames));
                    self.motion = None;
                    self.selected = None;
                    self.frame_on_next_pose = true;
                }
                LoadEvent::Progress { bytes_done, bytes_total } => {
                    loading.progress = bytes_total.map_or(0.0, |t| bytes_done as f32 / t.max(1) as f32);
                }
                LoadEvent::Done(motion) => finished = Some(Ok(motion)),
                LoadEvent::Failed(e) => finished = Some(Err(e)),
            }
        }
        match finished {
            Some(Ok(motion)) => {
                self.amc_siblings = amc_siblings(&motion);
                let rate = self.settings.rate;
                self.playback = Playback::new(motion.clip.frame_time_secs, motion.clip.num_frames());
                self.playback.apply(PlaybackCommand::SetRate(rate));
                self.playback.apply(PlaybackCommand::Play);
                let motion: Arc<Motion> = Arc::from(motion);
                self.clips.retain(|c| c.serial >= replaced_below);
                let mut clip = ClipView::new(motion.clone(), 0);
                clip.serial = replaced_below;
                clip.color = color;
                self.clips.insert(0, clip);
                self.active = 0;
                self.layout_dirty = true;
                self.motion = Some(motion);
                self.reclock();
                self.preview = None;
                self.loading = None;
                self.error = None;
                self.frame_on_next_pose = true;
            }
            Some(Err(e)) => {
                if !e.is_cancelled() {
                    self.error = Some(e.to_string());
                }
                self.preview = None;
                self.loading = None;
            }
            None => {}
        }
    }

    /// Applies the queued commands, in order.
    pub fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                Command::Playback(c) => self.playback.apply(c),
                Command::Open(paths) => self.open_paths(&paths),
                Command::Add(paths) => self.add_paths(&paths),
                Command::RemoveClip(i) => self.remove_clip(i),
                Command::SetActiveClip(i) => self.set_active(i),
                Command::SetClipOffset(i, secs) => self.set_offset(i, secs),
                Command::MatchStart(i) => {
                    match_start(&mut self.clips, i);
                    self.reclock();
                }
                Command::SetLayout(layout) => {
                    self.layout = layout;
                    // The screen's horizontal axis when chosen; it stays put while orbiting.
                    self.side_axis = Vec3::Y.cross(self.camera.backward());
                    self.layout_dirty = true;
                    self.frame_on_next_pose = true;
                }
                Command::Select(s) => self.selected = s,
                Command::SetPoseMode(m) => self.pose_mode = m,
                Command::SetInterpolation(i) => self.interpolation = i,
                Command::FrameAll => self.frame_on_next_pose = true,
                Command::View(v) => {
                    self.camera.set_preset(v);
                    self.frame_on_next_pose = true;
                }
                Command::ToggleOrtho => self.camera.orthographic = !self.camera.orthographic,
                Command::ToggleFollowRoot => self.follow_root = !self.follow_root,
                Command::CancelLoad => {
                    if let Some(l) = &self.loading {
                        l.handle.cancel();
                    }
                }
                Command::Orbit(d) => self.camera.orbit(d),
                Command::Pan(d, h) => self.camera.pan(d, h),
                Command::Zoom(f, ndc, aspect) => self.camera.zoom_towards(f, ndc, aspect),
                Command::Pick(ndc, aspect) => {
                    let size = self.size_m();
                    let skeleton = self.motion.as_ref().map(|m| &m.skeleton).or(self.preview.as_ref().map(|(s, _)| &**s));
                    if let Some(skeleton) = skeleton.filter(|s| s.len() == self.positions.len()) {
                        self.selected = scene::pick(&self.camera, ndc, aspect, skeleton, &self.positions, size);
                    }
                }
                Command::ToggleHelp => self.show_help = !self.show_help,
                Command::DismissError => self.error = None,
            }
        }
    }

    fn override_key(&self, path: &std::path::Path) -> String {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()).display().to_string()
    }

    /// Remembers the current unit/up overrides (and `rule`, if given) for the shown file.
    pub fn remember_overrides(&mut self, rule: Option<crate::core::PositionRule>) {
        let Some(m) = &self.motion else { return };
        let Some(path) = m.source.paths.last().cloned() else { return };
        let key = self.override_key(&path);
        let entry = self.settings.overrides.entry(key).or_insert_with(FileOverride::default);
        entry.unit = self.unit_override;
        entry.up = self.up_override;
        if rule.is_some() {
            entry.rule = rule;
        }
        self.save_settings();
    }

    /// The BVH position rule in force for the shown motion.
    pub fn position_rule(&self) -> crate::core::PositionRule {
        self.motion.as_ref().map_or(self.options.bvh_positions, |m| m.skeleton.position_rule)
    }

    /// Reloads the shown BVH with another position-channel rule, remembered for the file.
    pub fn set_position_rule(&mut self, rule: crate::core::PositionRule) {
        let Some(m) = self.motion.clone() else { return };
        if m.source.format != crate::core::Format::Bvh {
            return;
        }
        self.remember_overrides(Some(rule));
        if self.clips.len() > 1 {
            self.reload_active(rule);
        } else {
            self.commands.push(Command::Open(m.source.paths.clone()));
        }
    }

    /// Copies the state into the settings and writes them (errors are reported in the UI).
    pub fn save_settings(&mut self) {
        self.settings.style = self.style;
        self.settings.show_names = self.show_names;
        self.settings.light_theme = self.light_theme;
        self.settings.rate = self.playback.rate;
        self.settings.interpolation = self.interpolation;
        if let Some(dir) = config_dir() {
            if let Err(e) = self.settings.save(&dir) {
                self.error = Some(format!("cannot save settings in {}: {e}", dir.display()));
            }
        }
    }

    /// Back to defaults (display, theme, rate, overrides); the settings file is rewritten.
    pub fn reset_settings(&mut self) {
        let window_size = self.settings.window_size;
        let generation = self.settings.panels.generation + 1;
        self.settings = Settings { window_size, ..Settings::default() };
        self.settings.panels.generation = generation;
        self.style = self.settings.style;
        self.show_names = false;
        self.light_theme = false;
        self.interpolation = self.settings.interpolation;
        self.playback.apply(PlaybackCommand::SetRate(1.0));
        self.unit_override = None;
        self.up_override = None;
        self.commands.push(Command::FrameAll);
        self.save_settings();
    }

    /// Body size in display metres.
    pub fn size_m(&self) -> f32 {
        self.motion.as_ref().map_or(1.7, |m| self.display_of(m).1)
    }

    /// `display_from_file` and the body size in metres, with the user's unit and up-axis
    /// overrides applied.
    pub fn display_of(&self, m: &Motion) -> (glam::Mat4, f32) {
        let unit = self.unit_override.unwrap_or(m.source.unit);
        let metres = unit.metres() / m.source.length_divisor;
        let up = self.up_override.unwrap_or(m.source.up_axis);
        let size = m.source.body_height * metres;
        (scene::display_transform(metres, up), if size.is_finite() && size > 1e-3 { size } else { 1.0 })
    }

    /// Advances playback and builds this frame's pose and draw data.
    pub fn update(&mut self, dt_secs: f64) {
        self.poll_job();
        self.poll_loader();
        self.apply_commands();
        if self.pose_mode == PoseMode::Animated {
            self.playback.update(dt_secs);
        }
        self.draw.clear();
        self.sync_clips();
        let size = if self.motion.is_some() {
            let Some((_, size)) = self.pose_and_draw_clips() else { return };
            if self.frame_on_next_pose && !self.positions.is_empty() {
                let bounds = if self.pose_mode == PoseMode::Animated && !self.follow_root { self.all_clip_bounds() } else { None };
                let (lo, hi) = bounds.unwrap_or_else(|| self.draw_bounds());
                self.camera.frame_bounds(lo, hi, self.aspect);
                self.frame_on_next_pose = false;
            }
            if self.follow_root {
                let root = self.motion.as_ref().and_then(|m| m.skeleton.roots().next());
                if let Some(p) = root.and_then(|r| self.positions.get(r)) {
                    self.camera.target = Vec3::new(p.x, self.camera.target.y, p.z);
                }
            }
            size
        } else if let Some((skeleton, clip)) = &self.preview {
            pose::frame_pose(skeleton, clip, 0, &mut self.local);
            pose::global_pose(skeleton, &self.local, &mut self.global);
            // Units are detected once the whole clip is in; preview in file units scaled to
            // a plausible size.
            scene::joint_positions(&self.global, glam::Mat4::IDENTITY, &mut self.positions);
            let (lo, hi) = bounds_of(&self.positions);
            let h = (hi - lo).max_element().max(1e-6);
            let scale = crate::core::LengthUnit::from_height(h).metres();
            let display = glam::Mat4::from_scale(Vec3::splat(scale));
            scene::joint_positions(&self.global, display, &mut self.positions);
            scene::build(skeleton, &self.global, display, h * scale, &self.style, self.selected, &mut self.draw);
            if self.frame_on_next_pose && !self.positions.is_empty() {
                let (lo, hi) = bounds_of(&self.positions);
                self.camera.frame_bounds(lo, hi, self.aspect);
                self.frame_on_next_pose = false;
            }
            h * scale
        } else {
            return;
        };
        let center = Vec3::new(self.camera.target.x, 0.0, self.camera.target.z);
        scene::grid(center, size, &self.style, &mut self.draw.lines);
    }

    /// True while something changes by itself (playing or loading): keep repainting.
    pub fn animating(&self) -> bool {
        (self.playback.playing && self.pose_mode == PoseMode::Animated && self.motion.is_some())
            || self.loading.is_some()
            || self.job.is_some()
    }
}

/// Smallest box around `points`.
fn bounds_of(points: &[Vec3]) -> (Vec3, Vec3) {
    points.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), p| (lo.min(*p), hi.max(*p)))
}

/// `.amc` files beside an `.asf` that was opened alone, sorted.
fn amc_siblings(m: &Motion) -> Vec<PathBuf> {
    if m.source.format != crate::core::Format::AsfAmc || m.source.paths.len() != 1 {
        return Vec::new();
    }
    let Some(dir) = m.source.paths[0].parent() else { return Vec::new() };
    let dir = if dir.as_os_str().is_empty() { std::path::Path::new(".") } else { dir };
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("amc"))).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Display-space bounds of the joints over up to 32 frames spread across the clip.
pub fn clip_bounds(m: &Motion, display: glam::Mat4) -> (Vec3, Vec3) {
    let (mut local, mut global, mut positions) = (LocalPose::default(), GlobalPose::default(), Vec::new());
    let n = m.clip.num_frames().max(1);
    let k = n.min(32);
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for s in 0..k {
        let f = if k == 1 { 0 } else { s * (n - 1) / (k - 1) };
        pose::frame_pose(&m.skeleton, &m.clip, f, &mut local);
        pose::global_pose(&m.skeleton, &local, &mut global);
        scene::joint_positions(&global, display, &mut positions);
        for p in &positions {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests;
