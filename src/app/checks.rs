//! Capture checks of the open clips, each on a background thread named `skelview-qa` that
//! starts when a clip arrives (or its take, unit, up axis or the thresholds change) and wakes
//! the UI as it goes; playback never waits for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};

use crate::core::{LengthUnit, Motion, UpAxis};
use crate::qa::{self, Kind, Report, Space, Thresholds};
use crate::scene::{ClipView, PoseMode};

use super::Waker;

/// What the checks of one clip were run on: a change to any of it starts them again.
#[derive(Clone)]
struct Input {
    motion: Arc<Motion>,
    unit: Option<LengthUnit>,
    up: Option<UpAxis>,
    thresholds: Thresholds,
}

impl Input {
    fn same(&self, other: &Input) -> bool {
        Arc::ptr_eq(&self.motion, &other.motion) && self.unit == other.unit && self.up == other.up && self.thresholds == other.thresholds
    }
}

/// The checks of one clip: running (with progress) or done.
pub enum CheckState {
    /// Running; progress in thousandths.
    Running(Arc<AtomicU32>, Receiver<Report>),
    /// Finished.
    Done(Arc<Report>),
    /// The thread could not start.
    Failed(String),
}

struct Entry {
    serial: u64,
    input: Input,
    state: CheckState,
}

/// The checks of every open clip, by the clip's serial.
#[derive(Default)]
pub struct Checks {
    entries: Vec<Entry>,
}

fn spawn(input: &Input, waker: Waker) -> CheckState {
    let progress = Arc::new(AtomicU32::new(0));
    let (tx, rx) = sync_channel(1);
    let (p, input) = (progress.clone(), input.clone());
    let started = std::thread::Builder::new().name("skelview-qa".into()).spawn(move || {
        crate::cache::background_priority();
        let m = &input.motion;
        let space = Space::of(m, input.unit, input.up);
        let report = qa::analyse_in(m, space, &input.thresholds, &Kind::ALL, &|f| {
            let permille = (f.clamp(0.0, 1.0) * 1000.0) as u32;
            // A repaint per percent at most.
            if permille / 10 > p.swap(permille, Ordering::Relaxed) / 10 {
                waker();
            }
        });
        let _ = tx.send(report);
        waker();
    });
    match started {
        Ok(_) => CheckState::Running(progress, rx),
        Err(e) => CheckState::Failed(format!("cannot start the checks: {e}")),
    }
}

impl Checks {
    /// Starts checks for clips that have none or whose input changed, and forgets closed
    /// clips. Cheap when nothing changed: called every frame.
    pub fn sync(&mut self, clips: &[ClipView], thresholds: &Thresholds, waker: &Waker) {
        self.entries.retain(|e| clips.iter().any(|c| c.serial == e.serial));
        for c in clips {
            let input = Input { motion: c.motion.clone(), unit: c.unit_override, up: c.up_override, thresholds: *thresholds };
            match self.entries.iter_mut().find(|e| e.serial == c.serial) {
                Some(e) if e.input.same(&input) => {}
                Some(e) => {
                    e.state = spawn(&input, waker.clone());
                    e.input = input;
                }
                None => {
                    let state = spawn(&input, waker.clone());
                    self.entries.push(Entry { serial: c.serial, input, state });
                }
            }
        }
    }

    /// Takes the reports that finished since the last call.
    pub fn poll(&mut self) {
        for e in &mut self.entries {
            if let CheckState::Running(_, rx) = &e.state {
                match rx.try_recv() {
                    Ok(report) => e.state = CheckState::Done(Arc::new(report)),
                    Err(TryRecvError::Empty) => {}
                    Err(TryRecvError::Disconnected) => e.state = CheckState::Failed("the checks stopped unexpectedly".into()),
                }
            }
        }
    }

    /// The state of the checks of the clip with this serial.
    pub fn state(&self, serial: u64) -> Option<&CheckState> {
        self.entries.iter().find(|e| e.serial == serial).map(|e| &e.state)
    }

    /// The finished report of the clip with this serial.
    pub fn report(&self, serial: u64) -> Option<&Arc<Report>> {
        match self.state(serial) {
            Some(CheckState::Done(r)) => Some(r),
            _ => None,
        }
    }

    /// True while some check runs.
    pub fn busy(&self) -> bool {
        self.entries.iter().any(|e| matches!(e.state, CheckState::Running(..)))
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
            .findings
            .iter()
            .filter(|f| f.kind != Kind::NeutralPose && !self.view.issues.hidden.contains(&f.kind) && f.covers(frame))
            .filter_map(|f| f.joint)
            .collect();
        joints.sort_unstable();
        joints.dedup();
        joints
    }
}

/// Fraction done of a running check.
pub fn fraction(progress: &AtomicU32) -> f32 {
    progress.load(Ordering::Relaxed) as f32 / 1000.0
}
