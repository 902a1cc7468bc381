//! The viewer's side of several clips: loads that add a clip, the shared clock, the active
//! clip, and posing and drawing every clip each frame.

use std::path::PathBuf;
use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::clips::{ClipView, apply_layout, shared_end_secs};
use super::{Loading, PoseMode, Viewer};
use crate::cache::{LoadEvent, spawn_load};
use crate::core::{Motion, Playback};
use crate::formats::mnm::parse_mnm;
use crate::formats::{LoadRequest, Source};
use crate::render::scene;

impl Viewer {
    /// Starts loading another clip beside those shown (its own loader thread, no preview).
    pub fn add(&mut self, request: LoadRequest) {
        if let LoadRequest::Bvh(Source::File(p)) | LoadRequest::Acclaim { amc: Some(Source::File(p)), .. } = &request {
            self.remember(p.clone());
        }
        let taken = self.clips.iter().map(|c| c.color).chain(self.adding.iter().chain(&self.loading).map(|l| l.color));
        let color = super::clips::first_free(taken);
        self.spawn_add(request, self.options.clone(), color, None);
    }

    fn spawn_add(&mut self, request: LoadRequest, options: crate::formats::LoadOptions, color: [f32; 4], replaces: Option<u64>) {
        let name = request.main_path().display().to_string();
        let serial = self.take_serial();
        match spawn_load(request, options, self.waker.clone()) {
            Ok(handle) => self.adding.push(Loading { name, handle, progress: 0.0, serial, color, replaces }),
            Err(e) => self.error = Some(format!("cannot start the loader thread: {e}")),
        }
    }

    /// Reloads the active clip with another BVH position rule, in place: the other clips,
    /// its colour, offset and place in the list stay.
    pub(super) fn reload_active(&mut self, rule: crate::core::PositionRule) {
        let Some(c) = self.clips.get(self.active) else { return };
        let (paths, color, serial) = (c.motion.source.paths.clone(), c.color, c.serial);
        let mut options = self.options.clone();
        options.bvh_positions = rule;
        if let Some(request) = LoadRequest::from_paths(&paths).into_iter().next() {
            match request {
                Ok(r) => self.spawn_add(r, options, color, Some(serial)),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// Adds paths as more clips (the first does not replace anything).
    pub fn add_paths(&mut self, paths: &[PathBuf]) {
        for request in LoadRequest::from_paths(paths) {
            match request {
                Ok(r) => self.add(r),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// Drains the loads that add clips; each finished one becomes a clip in a free colour.
    pub(super) fn poll_adding(&mut self) {
        let mut i = 0;
        while i < self.adding.len() {
            let mut finished = None;
            let loading = &mut self.adding[i];
            while let Ok(event) = loading.handle.events.try_recv() {
                match event {
                    LoadEvent::Skeleton { .. } => {}
                    LoadEvent::Progress { bytes_done, bytes_total } => {
                        loading.progress = bytes_total.map_or(0.0, |t| bytes_done as f32 / t.max(1) as f32);
                    }
                    LoadEvent::Done(motion) => finished = Some(Ok(motion)),
                    LoadEvent::Failed(e) => finished = Some(Err(e)),
                }
            }
            let Some(result) = finished else {
                i += 1;
                continue;
            };
            let Loading { serial, color, replaces, .. } = self.adding.remove(i);
            match result {
                Ok(motion) => {
                    let motion: Arc<Motion> = Arc::from(motion);
                    if let Some(k) = replaces.and_then(|r| self.clips.iter().position(|c| c.serial == r)) {
                        let old = &self.clips[k];
                        let mut clip = ClipView::new(motion.clone(), k);
                        (clip.color, clip.opacity, clip.visible, clip.offset_secs, clip.serial) =
                            (old.color, old.opacity, old.visible, old.offset_secs, old.serial);
                        self.clips[k] = clip;
                        if k == self.active {
                            self.motion = Some(motion);
                        }
                        self.layout_dirty = true;
                        self.reclock();
                        continue;
                    }
                    let mut clip = ClipView::new(motion.clone(), self.clips.len());
                    clip.serial = serial;
                    clip.color = color;
                    self.clips.push(clip);
                    if self.motion.is_none() && self.preview.is_none() && self.loading.is_none() {
                        self.active = self.clips.len() - 1;
                        self.motion = Some(motion);
                    }
                    self.layout_dirty = true;
                    self.frame_on_next_pose = true;
                    self.reclock();
                }
                Err(e) if !e.is_cancelled() => self.error = Some(e.to_string()),
                Err(_) => {}
            }
        }
    }

    /// Closes clip `i`; the next one becomes active if `i` was.
    pub fn remove_clip(&mut self, i: usize) {
        if i >= self.clips.len() {
            return;
        }
        self.clips.remove(i);
        if self.clips.is_empty() {
            self.motion = None;
            self.active = 0;
        } else {
            if i < self.active || self.active >= self.clips.len() {
                self.active = self.active.saturating_sub(1).min(self.clips.len() - 1);
            }
            self.set_active(self.active);
        }
        self.layout_dirty = true;
        self.reclock();
    }

    /// Shows clip `i` in the inspector and joint tree.
    pub fn set_active(&mut self, i: usize) {
        let Some(c) = self.clips.get(i) else { return };
        let changed = self.motion.as_ref().is_none_or(|m| !Arc::ptr_eq(m, &c.motion));
        self.active = i;
        self.motion = Some(c.motion.clone());
        if changed {
            // Another skeleton: the joint index and the file's unit overrides do not carry over.
            self.selected = None;
            self.unit_override = None;
            self.up_override = None;
            self.amc_siblings = Vec::new();
        }
    }

    /// Moves clip `i` on the shared clock (kept within one clip length of the start).
    pub fn set_offset(&mut self, i: usize, secs: f64) {
        let Some(c) = self.clips.get_mut(i) else { return };
        if secs.is_finite() {
            c.offset_secs = secs.clamp(-c.motion.clip.last_frame_time_secs(), 1e6);
        }
        self.reclock();
    }

    /// Rebuilds the shared clock over every clip, stepping at the active clip's frame time
    /// and keeping time, rate, loop and play state (and the range while the span is the same).
    pub(super) fn reclock(&mut self) {
        let Some(active) = self.clips.get(self.active) else { return };
        let step = active.motion.clip.frame_time_secs;
        let step = if step > 0.0 && step.is_finite() { step } else { 1.0 / 30.0 };
        // A little slack: frame times written to 7 digits (0.0416667) must not lose the last frame.
        let frames = (shared_end_secs(&self.clips) / step + 1e-3).floor() as usize + 1;
        let frames = if self.clips.iter().all(|c| c.motion.clip.num_frames() == 0) { 0 } else { frames };
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

    /// Keeps `clips` in step with `motion` when it was set directly (tests, older callers):
    /// a motion that is not the active clip replaces them all.
    pub(super) fn sync_clips(&mut self) {
        match &self.motion {
            Some(m) if self.clips.get(self.active).is_none_or(|c| !Arc::ptr_eq(&c.motion, m)) => {
                if let Some(i) = self.clips.iter().position(|c| Arc::ptr_eq(&c.motion, m)) {
                    self.active = i;
                } else {
                    self.clips = vec![ClipView::new(m.clone(), 0)];
                    self.active = 0;
                    self.layout_dirty = true;
                }
            }
            None if self.preview.is_none() => self.clips.clear(),
            _ => {}
        }
    }

    /// Poses every clip for this frame and appends the visible ones to the draw data; the
    /// active clip's pose lands in `global` and `positions`. Returns its display transform
    /// (placement included) and body size.
    pub(super) fn pose_and_draw_clips(&mut self) -> Option<(Mat4, f32)> {
        let active_display = self.motion.as_ref().map(|m| self.display_of(m))?;
        for (i, c) in self.clips.iter_mut().enumerate() {
            let display =
                if i == self.active { active_display } else { (scene::display_from_file(&c.motion), scene::body_size_m(&c.motion)) };
            if c.display != display {
                c.display = display;
                self.layout_dirty = true;
            }
        }
        if self.layout_dirty {
            apply_layout(&mut self.clips, self.layout, self.side_axis);
            self.layout_dirty = false;
        }
        let t = self.playback.time_secs;
        // Every clip is posed, hidden ones too: the comparison may measure them.
        for c in &mut self.clips {
            match self.pose_mode {
                PoseMode::Animated => c.pose_at(t, self.interpolation),
                PoseMode::FirstFrame => c.pose_at(c.offset_secs, self.interpolation),
                PoseMode::Rest => c.pose_rest(),
            }
        }
        self.compare.update(&self.clips, self.layout, self.interpolation);
        let single = self.clips.len() == 1;
        for (i, c) in self.clips.iter().enumerate() {
            if !c.visible {
                continue;
            }
            // One clip keeps the user's colours; several are told apart by theirs.
            let mut style = self.style;
            if !single {
                let [r, g, b, a] = c.color;
                style.bone_color = [r, g, b, a * c.opacity];
                style.joint_color = [r * 0.55 + 0.45, g * 0.55 + 0.45, b * 0.55 + 0.45, a * c.opacity];
            } else {
                style.bone_color[3] *= c.opacity;
                style.joint_color[3] *= c.opacity;
            }
            let selected = if i == self.active { self.selected } else { None };
            let display = c.placement * c.display.0;
            let heat = (i == self.compare.other && !self.compare.bone_colors.is_empty()).then_some(self.compare.bone_colors.as_slice());
            scene::build_colored(&c.motion.skeleton, &c.global, display, c.display.1, &style, selected, heat, &mut self.draw);
        }
        if let (PoseMode::Animated, Some(c)) = (self.pose_mode, self.clips.get(self.active)) {
            let o = self.overlays;
            if o.trails {
                super::trails(c, t, self.selected, &o, self.interpolation, &mut self.overlay_scratch, &mut self.draw);
            }
            super::onion_skin(c, t, &o, &self.style, self.interpolation, &mut self.overlay_scratch, &mut self.draw);
        }
        let c = self.clips.get(self.active)?;
        self.global.clone_from(&c.global);
        self.positions.clone_from(&c.positions);
        Some((c.placement * c.display.0, c.display.1))
    }

    /// Display-space bounds over every visible clip (the whole clip when animated).
    pub(super) fn all_clip_bounds(&self) -> Option<(Vec3, Vec3)> {
        let mut out: Option<(Vec3, Vec3)> = None;
        for (i, c) in self.clips.iter().enumerate() {
            if !c.visible && i != self.active {
                continue;
            }
            let (lo, hi) = super::clip_bounds(&c.motion, c.placement * c.display.0);
            out = Some(out.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
        out
    }

    /// Display-space bounds of this frame's joints over every visible clip.
    pub(super) fn draw_bounds(&self) -> (Vec3, Vec3) {
        let points = self.clips.iter().enumerate().filter(|(i, c)| c.visible || *i == self.active).flat_map(|(_, c)| c.positions.iter());
        points.fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), p| (lo.min(*p), hi.max(*p)))
    }

    /// Reads an MNM name map for the comparison; errors go to the error message.
    pub fn load_name_map(&mut self, path: PathBuf) {
        let parsed = std::fs::read(&path).map_err(|e| e.to_string()).and_then(|b| parse_mnm(&b).map_err(|e| e.to_string()));
        match parsed {
            Ok(map) => self.compare.name_map = Some((path, map)),
            Err(e) => self.error = Some(format!("{}: {e}", path.display())),
        }
    }

    /// The active clip's frame nearest to the shared time (what the inspector shows).
    pub fn active_frame(&self) -> usize {
        let Some(c) = self.clips.get(self.active) else { return self.playback.frame() };
        let clip = &c.motion.clip;
        let t = c.local_time(self.playback.time_secs);
        ((t / clip.frame_time_secs).round().max(0.0) as usize).min(clip.num_frames().saturating_sub(1))
    }
}
