//! The session: the open clips (held by the scene, the one source of truth, the active clip
//! included), the loads that bring clips in, and the shared clock.

use std::path::PathBuf;
use std::sync::Arc;

use super::Document;
use crate::tasks::{LoadEvent, LoadTask, Loaded, TaskEvent};
use skelview_core::core::{Clip, Motion, Playback, PlaybackCommand, Skeleton};
use skelview_scene::{ClipId, ClipView, PoseMode, Scene, first_free, match_start, shared_end_secs};

/// A load in progress (one loader thread, one or more files).
pub struct Loading {
    /// What is being loaded, for the progress bar.
    pub name: String,
    /// The loader's task: its events, progress and cancel.
    pub task: LoadTask,
    /// Serial of the load: a replacing load keeps only clips opened after it started.
    pub serial: u64,
    /// The first file that loads replaces the clips shown (File → Open, a plain drop).
    pub replace: bool,
    /// Reloads the clip with this serial in place (another position rule).
    pub reload: Option<u64>,
    /// Colour reserved for the first file when the load started, so that the order in which
    /// loads finish does not change the colours.
    pub color: [f32; 4],
    /// Files finished so far.
    pub finished: usize,
}

/// What a finished file means for the rest of the viewer.
pub struct Arrived {
    /// The new (or reloaded) clip: an id, since a later arrival of the same poll may move it.
    pub id: ClipId,
    /// Absolute path of the file, for per-file settings and the recent list.
    pub key: Option<PathBuf>,
    /// True when it replaced what was shown (frame it, reset the selection).
    pub replaced: bool,
}

/// Clips, loads and the shared clock.
pub struct Session {
    /// What was opened and chosen about each clip (read options, unit and up axis).
    pub document: Document,
    /// The clips and how they are drawn.
    pub scene: Scene,
    /// The clip the inspector and joint tree show.
    pub active: usize,
    /// The shared clock (seconds), stepping at the active clip's frame time.
    pub playback: Playback,
    /// Which pose is shown.
    pub pose_mode: PoseMode,
    /// Skeleton and first frames of a replacing load, shown until it finishes.
    pub preview: Option<(Arc<Skeleton>, Clip)>,
    /// Running loads.
    pub loads: Vec<Loading>,
    /// Files that could animate the active clip's skeleton, opened alone (the `.amc` files
    /// beside an `.asf`), as its format offers them.
    pub companions: Vec<PathBuf>,
    next_serial: u64,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            document: Document::default(),
            scene: Scene::default(),
            active: 0,
            playback: Playback::new(1.0 / 30.0, 0),
            pose_mode: PoseMode::Animated,
            preview: None,
            loads: Vec::new(),
            companions: Vec::new(),
            next_serial: 0,
        }
    }
}

impl Session {
    /// The clips.
    pub fn clips(&self) -> &[ClipView] {
        &self.scene.clips
    }

    /// The active clip.
    pub fn active_clip(&self) -> Option<&ClipView> {
        self.scene.clips.get(self.active)
    }

    /// The active clip's motion.
    pub fn motion(&self) -> Option<&Arc<Motion>> {
        self.active_clip().map(|c| &c.motion)
    }

    /// A serial for the next load.
    pub fn take_serial(&mut self) -> u64 {
        self.next_serial += 1;
        self.next_serial - 1
    }

    /// Registers a started load; a replacing load cancels the replacing loads before it.
    pub fn track(&mut self, name: String, task: LoadTask, replace: bool, reload: Option<u64>, color: Option<[f32; 4]>) {
        if replace {
            for l in self.loads.iter().filter(|l| l.replace) {
                l.task.cancel();
            }
            self.loads.retain(|l| !l.replace);
        }
        let serial = self.take_serial();
        // A replacing load keeps only the clips added after it, so only their colours count.
        let taken: Vec<[f32; 4]> = if replace {
            self.loads.iter().map(|l| l.color).collect()
        } else {
            self.scene.clips.iter().map(|c| c.color).chain(self.loads.iter().map(|l| l.color)).collect()
        };
        let color = color.unwrap_or_else(|| first_free(taken.into_iter()));
        self.loads.push(Loading { name, task, serial, replace, reload, color, finished: 0 });
    }

    /// True while a replacing load runs (its preview or the old clips are shown).
    pub fn replacing(&self) -> bool {
        self.loads.iter().any(|l| l.replace && l.finished == 0)
    }

    /// Drains every load's events without blocking; returns the clips that arrived and the
    /// errors met (cancelled loads are silent).
    pub fn poll_loads(&mut self) -> (Vec<Arrived>, Vec<skelview_core::formats::LoadError>) {
        let (mut arrived, mut errors) = (Vec::new(), Vec::new());
        let mut i = 0;
        while i < self.loads.len() {
            let mut closed = false;
            loop {
                let event = match self.loads[i].task.next_event() {
                    Some(TaskEvent::Message(e)) => e,
                    // The loader reports failures per file; its task itself cannot fail.
                    Some(TaskEvent::Done(_)) => {
                        closed = true;
                        break;
                    }
                    None => break,
                };
                let load = &mut self.loads[i];
                match event {
                    LoadEvent::Skeleton { skeleton, first_frames } => {
                        if load.replace && load.finished == 0 {
                            self.preview = Some((skeleton, first_frames));
                        }
                    }
                    LoadEvent::Done(loaded) => {
                        let a = self.arrive(i, *loaded);
                        arrived.push(a);
                    }
                    LoadEvent::Failed(e) => {
                        let load = &mut self.loads[i];
                        if load.replace && load.finished == 0 {
                            self.preview = None;
                        }
                        load.finished += 1;
                        if !e.is_cancelled() {
                            errors.push(e);
                        }
                    }
                }
            }
            if closed {
                let l = self.loads.remove(i);
                if l.replace && l.finished == 0 {
                    self.preview = None;
                }
            } else {
                i += 1;
            }
        }
        (arrived, errors)
    }

    fn arrive(&mut self, i: usize, loaded: Loaded) -> Arrived {
        let Loaded { motion, key, companions, read_with } = loaded;
        let motion = Arc::new(motion);
        let load = &mut self.loads[i];
        let first = load.finished == 0;
        load.finished += 1;
        let (serial, color, replace, reload) = (load.serial, load.color, load.replace && first, load.reload);
        if let Some(k) = reload.and_then(|r| self.scene.clips.iter().position(|c| c.serial == r)) {
            let old = &self.scene.clips[k];
            let mut clip = ClipView::new(motion, k);
            (clip.color, clip.opacity, clip.visible, clip.offset_secs, clip.serial) =
                (old.color, old.opacity, old.visible, old.offset_secs, old.serial);
            clip.keep_body_of(old);
            let (unit, up) = self.document.overrides(old.id());
            clip.set_overrides(unit, up);
            let source = self.document.source(old.id());
            clip.set_link_edits(&source.links_added, &source.links_removed);
            clip.name.clone_from(&old.name);
            self.document.edit(clip.id()).read_with = read_with;
            self.document.reloaded(clip.id(), clip.motion.clone());
            self.scene.clips[k] = clip;
            self.scene.relayout();
            self.reclock();
            return Arrived { id: self.scene.clips[k].id(), key, replaced: false };
        }
        let mut clip = ClipView::new(motion, self.scene.clips.len());
        // Every clip has its own serial; the first file of a load takes the load's, so that a
        // replacing load keeps exactly the clips that arrived after it started.
        clip.serial = if first { serial } else { self.take_serial() };
        *self.document.edit(clip.id()) = super::ClipSource { read_with, ..Default::default() };
        clip.color = if first { color } else { first_free(self.scene.clips.iter().map(|c| c.color)) };
        let index = if replace {
            self.scene.clips.retain(|c| c.serial >= serial);
            self.scene.clips.insert(0, clip);
            self.document.retain_open(&self.scene);
            self.active = 0;
            self.preview = None;
            self.companions = companions;
            let rate = self.playback.rate;
            self.playback = Playback::new(self.scene.clips[0].motion.clip.frame_time_secs, 0);
            self.playback.rate = rate;
            self.playback.playing = true;
            0
        } else {
            self.scene.clips.push(clip);
            if self.scene.clips.len() == 1 {
                self.active = 0;
                self.companions = companions;
                self.playback.playing = true;
            }
            self.scene.clips.len() - 1
        };
        self.scene.relayout();
        self.reclock();
        Arrived { id: self.scene.clips[index].id(), key, replaced: replace || self.scene.clips.len() == 1 }
    }

    /// Sets (or clears) the comparison's name map: the document keeps it with its file, the
    /// scene the pairs it matches with (the one place both change).
    pub fn set_name_map(&mut self, map: Option<(PathBuf, std::sync::Arc<[(String, String)]>)>) {
        self.scene.compare.name_map = map.as_ref().map(|(_, pairs)| pairs.clone());
        self.document.name_map = map;
    }

    /// Adds `motion` (made by the viewer: a retarget) as a new clip named `name`; its id.
    pub fn add_motion(&mut self, motion: Arc<Motion>, name: String) -> ClipId {
        let mut clip = ClipView::new(motion, self.scene.clips.len());
        clip.serial = self.take_serial();
        clip.name = name;
        clip.color = first_free(self.scene.clips.iter().map(|c| c.color));
        *self.document.edit(clip.id()) = super::ClipSource::default();
        let id = clip.id();
        self.scene.clips.push(clip);
        if self.scene.clips.len() == 1 {
            self.active = 0;
        }
        self.scene.relayout();
        self.reclock();
        id
    }

    /// Shows `motion` as clip `i` (an edit's result, or its source again): colour, opacity,
    /// visibility, time offset, name and the user's unit and up axis stay; `ghost` is the
    /// source drawn behind it and the source's time of its first frame.
    pub fn replace_motion(&mut self, i: usize, motion: Arc<Motion>, ghost: Option<(Arc<Motion>, f64)>) {
        let Some(old) = self.scene.clips.get(i) else { return };
        let mut clip = ClipView::new(motion, i);
        (clip.color, clip.opacity, clip.visible, clip.offset_secs, clip.serial) =
            (old.color, old.opacity, old.visible, old.offset_secs, old.serial);
        clip.keep_body_of(old);
        clip.name.clone_from(&old.name);
        let (unit, up) = self.document.overrides(old.id());
        clip.set_overrides(unit, up);
        let source = self.document.source(old.id());
        clip.set_link_edits(&source.links_added, &source.links_removed);
        clip.set_ghost(ghost);
        self.scene.clips[i] = clip;
        self.scene.relayout();
        self.reclock();
    }

    /// Sets the sticks the user drew and took away between clip `i`'s markers, in the document
    /// and in the picture.
    pub fn set_link_edits(&mut self, i: usize, added: Vec<(String, String)>, removed: Vec<(String, String)>) {
        let Some(c) = self.scene.clips.get_mut(i) else { return };
        c.set_link_edits(&added, &removed);
        let source = self.document.edit(c.id());
        (source.links_added, source.links_removed) = (added, removed);
    }

    /// Sets clip `i`'s unit and up-axis choices in the document and shows it so.
    pub fn set_overrides(&mut self, i: usize, unit: Option<skelview_core::core::LengthUnit>, up: Option<skelview_core::core::UpAxis>) {
        let Some(id) = self.scene.clips.get(i).map(ClipView::id) else { return };
        let source = self.document.edit(id);
        (source.unit, source.up) = (unit, up);
        self.scene.set_overrides(i, unit, up);
    }

    /// Closes clip `i`; the next one becomes active if `i` was. Returns true when the
    /// active clip changed.
    pub fn remove_clip(&mut self, i: usize) -> bool {
        if i >= self.scene.clips.len() {
            return false;
        }
        let before = self.active_clip().map(|c| c.serial);
        self.scene.clips.remove(i);
        self.document.retain_open(&self.scene);
        if i < self.active || self.active >= self.scene.clips.len() {
            self.active = self.active.saturating_sub(1).min(self.scene.clips.len().saturating_sub(1));
        }
        self.scene.relayout();
        self.reclock();
        before != self.active_clip().map(|c| c.serial)
    }

    /// Makes clip `i` active; returns true when it changed.
    pub fn set_active(&mut self, i: usize) -> bool {
        if i >= self.scene.clips.len() || i == self.active {
            return false;
        }
        self.active = i;
        self.companions.clear();
        self.reclock();
        true
    }

    /// Moves clip `i` on the shared clock (kept within one clip length of the start).
    pub fn set_offset(&mut self, i: usize, secs: f64) {
        let Some(c) = self.scene.clips.get_mut(i) else { return };
        if secs.is_finite() {
            c.offset_secs = secs.clamp(-c.motion.clip.last_frame_time_secs(), 1e6);
        }
        self.reclock();
    }

    /// Starts clip `i` together with the reference.
    pub fn match_start(&mut self, i: usize) {
        match_start(&mut self.scene.clips, i);
        self.reclock();
    }

    /// Applies a playback command to the shared clock.
    pub fn playback_command(&mut self, c: PlaybackCommand) {
        self.playback.apply(c);
    }

    /// Rebuilds the shared clock over every clip, stepping at the active clip's frame time
    /// and keeping time, rate, loop and play state (and the range while the span is the same).
    pub fn reclock(&mut self) {
        let Some(active) = self.active_clip() else { return };
        let step = active.motion.clip.frame_time_secs;
        let step = if step > 0.0 && step.is_finite() { step } else { 1.0 / 30.0 };
        let clips = &self.scene.clips;
        // A little slack: frame times written to 7 digits (0.0416667) must not lose the last frame.
        let frames = (shared_end_secs(clips) / step + 1e-3).floor() as usize + 1;
        let frames = if clips.iter().all(|c| c.motion.clip.num_frames() == 0) { 0 } else { frames };
        let old = &self.playback;
        let mut p = Playback::new(step, frames);
        p.rate = old.rate;
        p.looping = old.looping;
        p.playing = old.playing && frames > 1;
        if old.num_frames() == frames && (old.frame_time_secs() - step).abs() < 1e-12 {
            (p.in_frame, p.out_frame) = (old.in_frame, old.out_frame);
        }
        p.time_secs = old.time_secs.clamp(0.0, p.out_frame as f64 * step);
        self.playback = p;
    }

    /// The active clip's frame nearest to the shared time (what the inspector shows).
    pub fn active_frame(&self) -> usize {
        let Some(c) = self.active_clip() else { return self.playback.frame() };
        let clip = &c.motion.clip;
        let t = c.local_time(self.playback.time_secs);
        ((t / clip.frame_time_secs).round().max(0.0) as usize).min(clip.num_frames().saturating_sub(1))
    }

    /// `(frame number, shared time)` of every frame of the in/out range.
    pub fn range_frames(&self) -> Vec<(usize, f64)> {
        let step = self.playback.frame_time_secs();
        (self.playback.in_frame..=self.playback.out_frame).map(|f| (f, f as f64 * step)).collect()
    }
}
