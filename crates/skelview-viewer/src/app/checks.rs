//! Capture checks of the open clips, each on a background thread named `skelview-qa` that
//! starts when a clip arrives (or its take, unit, up axis or the thresholds change) and wakes
//! the UI as it goes; playback never waits for it.

use std::sync::Arc;

use skelview_core::core::{LengthUnit, Motion, UpAxis};
use skelview_core::qa::{self, Kind, Report, Space, Thresholds};
use skelview_scene::{ClipView, PoseMode};

use crate::tasks::{Keyed, TaskError, Tasks};

/// What the checks of one clip were run on: a change to any of it starts them again.
#[derive(Clone)]
struct Input {
    motion: Arc<Motion>,
    unit: Option<LengthUnit>,
    up: Option<UpAxis>,
    thresholds: Thresholds,
}

impl PartialEq for Input {
    /// The same clip (not an equal one: comparing frames would cost what the checks cost).
    fn eq(&self, other: &Input) -> bool {
        Arc::ptr_eq(&self.motion, &other.motion) && self.unit == other.unit && self.up == other.up && self.thresholds == other.thresholds
    }
}

/// Where the checks of one clip stand.
pub enum CheckState<'a> {
    /// Running; the fraction done.
    Running(f32),
    /// Finished.
    Done(&'a Arc<Report>),
    /// The thread could not start or stopped.
    Failed(&'a TaskError<String>),
}

/// The checks of every open clip, by the clip's serial: one background result each, on
/// threads named `skelview-qa`.
#[derive(Default)]
pub struct Checks {
    entries: Vec<(u64, Keyed<Input, Report>)>,
}

impl Checks {
    /// Starts checks for clips that have none or whose input changed, and forgets closed
    /// clips. Cheap when nothing changed: called every frame.
    pub fn sync(&mut self, clips: &[ClipView], document: &super::Document, thresholds: &Thresholds, tasks: &Tasks) {
        self.entries.retain(|(serial, _)| clips.iter().any(|c| c.serial == *serial));
        for c in clips {
            let (unit, up) = document.overrides(c.id());
            let input = Input { motion: c.motion.clone(), unit, up, thresholds: *thresholds };
            let at = match self.entries.iter().position(|(serial, _)| *serial == c.serial) {
                Some(at) => at,
                None => {
                    self.entries.push((c.serial, Keyed::new("qa")));
                    self.entries.len() - 1
                }
            };
            let work = input.clone();
            self.entries[at].1.want(input, tasks, move |progress| {
                let space = Space::of(&work.motion, work.unit, work.up);
                Some(qa::analyse_in(&work.motion, space, &work.thresholds, &Kind::ALL, &|f| {
                    progress.keep_going(f as f64);
                }))
            });
        }
    }

    /// Takes the reports that finished since the last call.
    pub fn poll(&mut self) {
        self.entries.iter_mut().for_each(|(_, k)| k.poll());
    }

    /// The state of the checks of the clip with this serial.
    pub fn state(&self, serial: u64) -> Option<CheckState<'_>> {
        let (_, k) = self.entries.iter().find(|(s, _)| *s == serial)?;
        if let Some(r) = k.result() {
            Some(CheckState::Done(r))
        } else if let Some(f) = k.running() {
            Some(CheckState::Running(f))
        } else {
            k.error().map(CheckState::Failed)
        }
    }

    /// The finished report of the clip with this serial.
    pub fn report(&self, serial: u64) -> Option<&Arc<Report>> {
        self.entries.iter().find(|(s, _)| *s == serial).and_then(|(_, k)| k.result())
    }

    /// True while some check runs.
    pub fn busy(&self) -> bool {
        self.entries.iter().any(|(_, k)| k.running().is_some())
    }
}

impl super::Viewer {
    /// The active clip's frame on the shared clock now (nearest), if it has frames.
    pub fn active_frame(&self) -> Option<usize> {
        let c = self.session.active_clip()?;
        let n = c.motion.clip.num_frames();
        let ft = c.motion.clip.frame_time_secs;
        (n > 0 && ft > 0.0).then(|| (((self.session.playback.time_secs - c.offset_secs) / ft).round().max(0.0) as usize).min(n - 1))
    }

    /// The finished checks of the active clip.
    pub fn active_report(&self) -> Option<&Arc<Report>> {
        self.checks.report(self.session.active_clip()?.serial)
    }

    /// Joints of the active clip inside a finding at the current frame (shown kinds only).
    pub(super) fn flagged_now(&self) -> Vec<usize> {
        let (Some(report), Some(frame)) = (self.active_report(), self.active_frame()) else { return Vec::new() };
        if self.session.pose_mode != PoseMode::Animated {
            return Vec::new();
        }
        let mut joints: Vec<usize> = report
            .covering(frame)
            .filter(|f| f.kind != Kind::NeutralPose && !self.view.issues.hidden.contains(&f.kind))
            .filter_map(|f| f.joint)
            .collect();
        joints.sort_unstable();
        joints.dedup();
        joints
    }
}
