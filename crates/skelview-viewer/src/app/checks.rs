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
/// threads named `skelview-qa`; for an edited clip, also of its source (the counts before).
#[derive(Default)]
pub struct Checks {
    entries: Vec<(u64, Keyed<Input, Report>)>,
    before: Vec<(u64, Keyed<Input, Report>)>,
}

/// Starts (or keeps) the checks of `input` in the entry of `serial`.
fn want(entries: &mut Vec<(u64, Keyed<Input, Report>)>, serial: u64, input: Input, tasks: &Tasks) {
    let at = match entries.iter().position(|(s, _)| *s == serial) {
        Some(at) => at,
        None => {
            entries.push((serial, Keyed::new("qa")));
            entries.len() - 1
        }
    };
    let work = input.clone();
    entries[at].1.want(input, tasks, move |progress| {
        let space = Space::of(&work.motion, work.unit, work.up);
        Some(qa::analyse_in(&work.motion, space, &work.thresholds, &Kind::ALL, &|f| {
            progress.keep_going(f as f64);
        }))
    });
}

impl Checks {
    /// Starts checks for clips that have none or whose input changed, and forgets closed
    /// clips. Cheap when nothing changed: called every frame.
    pub fn sync(&mut self, clips: &[ClipView], document: &super::Document, thresholds: &Thresholds, tasks: &Tasks) {
        let edited = |c: &ClipView| document.edits(c.id()).filter(|e| e.active()).map(|e| e.source.clone());
        self.before.retain(|(serial, _)| clips.iter().any(|c| c.serial == *serial && edited(c).is_some()));
        for c in clips {
            let (unit, up) = document.overrides(c.id());
            let source = edited(c);
            let first_edit = !self.before.iter().any(|(s, _)| *s == c.serial);
            if let (Some(source), true) = (&source, first_edit)
                && let Some(at) =
                    self.entries.iter().position(|(s, k)| *s == c.serial && k.key().is_some_and(|k| Arc::ptr_eq(&k.motion, source)))
            {
                // The source's checks, done or running, become the counts before: not run twice.
                let entry = self.entries.remove(at);
                self.before.push(entry);
            }
            if let Some(source) = source {
                let shows_source = Arc::ptr_eq(&c.motion, &source);
                want(&mut self.before, c.serial, Input { motion: source, unit, up, thresholds: *thresholds }, tasks);
                if shows_source {
                    // The result is not in (or failed): the source's checks stand for the clip.
                    self.entries.retain(|(s, _)| *s != c.serial);
                    continue;
                }
            }
            let input = Input { motion: c.motion.clone(), unit, up, thresholds: *thresholds };
            want(&mut self.entries, c.serial, input, tasks);
        }
        self.entries.retain(|(serial, _)| clips.iter().any(|c| c.serial == *serial));
    }

    /// The entry of the clip with this serial: its own checks, else (an edited clip showing
    /// its source) its source's.
    fn entry(&self, serial: u64) -> Option<&Keyed<Input, Report>> {
        let mine = self.entries.iter().find(|(s, _)| *s == serial);
        mine.or_else(|| self.before.iter().find(|(s, _)| *s == serial)).map(|(_, k)| k)
    }

    /// The finished report of an edited clip's source (what the edits started from).
    pub fn before(&self, serial: u64) -> Option<&Arc<Report>> {
        self.before.iter().find(|(s, _)| *s == serial).and_then(|(_, k)| k.result())
    }

    /// Takes the reports that finished since the last call.
    pub fn poll(&mut self) {
        self.entries.iter_mut().chain(&mut self.before).for_each(|(_, k)| k.poll());
    }

    /// The state of the checks of the clip with this serial.
    pub fn state(&self, serial: u64) -> Option<CheckState<'_>> {
        let k = self.entry(serial)?;
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
        self.entry(serial).and_then(|k| k.result())
    }

    /// True while some check runs.
    pub fn busy(&self) -> bool {
        self.entries.iter().chain(&self.before).any(|(_, k)| k.running().is_some())
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
