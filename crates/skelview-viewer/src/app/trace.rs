//! `SKELVIEW_TRACE=1`: when the viewer reached each step of its start, and what a frame
//! costs. Plain data: the window reports the moments, this decides what to print.

use std::sync::OnceLock;
use std::time::Duration;
use web_time::Instant;

static PROCESS_START: OnceLock<Instant> = OnceLock::new();

/// The moment `main` began (the first call fixes it; `main` makes that call first).
pub fn process_start() -> Instant {
    *PROCESS_START.get_or_init(Instant::now)
}

/// A step of the viewer's start, reported once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Milestone {
    /// The OS window exists.
    WindowCreated,
    /// The graphics adapter and device are ready.
    AdapterReady,
    /// The first frame was handed to the screen.
    FirstFrame,
    /// The first frame that shows a pose of the first file (the preview while it loads).
    FirstPose,
    /// Every file asked for on start is loaded (or failed).
    FullyLoaded,
    /// The background work on what was loaded (capture checks, whole-clip curves) is done.
    Settled,
}

/// What the viewer was doing during a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Files were being read.
    Loading,
    /// Files were in; checks or whole-clip curves were being computed.
    Working,
    /// Nothing ran in the background: the steady state.
    Settled,
}

impl Milestone {
    const ALL: [Milestone; 6] =
        [Self::WindowCreated, Self::AdapterReady, Self::FirstFrame, Self::FirstPose, Self::FullyLoaded, Self::Settled];

    /// The words printed for it.
    pub fn label(self) -> &'static str {
        match self {
            Self::WindowCreated => "window created",
            Self::AdapterReady => "adapter ready",
            Self::FirstFrame => "first frame presented",
            Self::FirstPose => "first pose drawn",
            Self::FullyLoaded => "files fully loaded",
            Self::Settled => "background work done",
        }
    }
}

/// Milestones since process start, and the time of every frame.
#[derive(Clone, Debug)]
pub struct Trace {
    enabled: bool,
    start: Instant,
    reached: [Option<Duration>; 6],
    /// Per frame: what the viewer was doing, app + UI time (update, egui layout,
    /// tessellation) and the whole frame (painting and presenting included), in seconds.
    frames: Vec<(Phase, f32, f32)>,
}

impl Trace {
    /// On when `SKELVIEW_TRACE` is set to anything but `0` or empty.
    pub fn from_env() -> Self {
        let on = std::env::var_os("SKELVIEW_TRACE").is_some_and(|v| !v.is_empty() && v != "0");
        Self::new(on, process_start())
    }

    /// A trace measuring from `start`; an off trace records nothing.
    pub fn new(enabled: bool, start: Instant) -> Self {
        Self { enabled, start, reached: [None; 6], frames: Vec::new() }
    }

    /// True when tracing.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Records `m` at `at` the first time it is reached; returns the line to print then.
    pub fn reach(&mut self, m: Milestone, at: Instant) -> Option<String> {
        let slot = &mut self.reached[Milestone::ALL.iter().position(|&x| x == m)?];
        if !self.enabled || slot.is_some() {
            return None;
        }
        let since = at.saturating_duration_since(self.start);
        *slot = Some(since);
        Some(format!("skelview trace: {:9.1} ms  {}", since.as_secs_f64() * 1000.0, m.label()))
    }

    /// When `m` was reached, since process start.
    pub fn reached(&self, m: Milestone) -> Option<Duration> {
        self.reached[Milestone::ALL.iter().position(|&x| x == m)?]
    }

    /// Adds one frame's app + UI time and whole time.
    pub fn frame(&mut self, app: Duration, whole: Duration, phase: Phase) {
        if self.enabled {
            self.frames.push((phase, app.as_secs_f32(), whole.as_secs_f32()));
        }
    }

    /// The lines printed on exit: per-frame mean and 95th percentile of the frames of each
    /// phase, the steady state first.
    pub fn summary(&self) -> Option<String> {
        if !self.enabled || self.frames.is_empty() {
            return None;
        }
        let mut lines = Vec::new();
        for (phase, what) in [(Phase::Settled, ""), (Phase::Working, " while checks and curves ran"), (Phase::Loading, " while loading")] {
            let app: Vec<f32> = self.frames.iter().filter(|f| f.0 == phase).map(|f| f.1).collect();
            let whole: Vec<f32> = self.frames.iter().filter(|f| f.0 == phase).map(|f| f.2).collect();
            if app.is_empty() {
                continue;
            }
            let ((app_mean, app_p95), (all_mean, all_p95)) = (mean_p95(&app), mean_p95(&whole));
            lines.push(format!(
                "skelview trace: {} frames{what}; app + UI CPU per frame: mean {:.3} ms, p95 {:.3} ms; whole frame: mean {:.3} ms, p95 {:.3} ms",
                app.len(),
                app_mean * 1000.0,
                app_p95 * 1000.0,
                all_mean * 1000.0,
                all_p95 * 1000.0
            ));
        }
        Some(lines.join("\n"))
    }
}

/// Mean and 95th percentile (nearest rank) of a non-empty list.
fn mean_p95(values: &[f32]) -> (f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    let mean = sorted.iter().map(|&v| v as f64).sum::<f64>() / sorted.len() as f64;
    let rank = (0.95 * sorted.len() as f64).ceil() as usize;
    (mean, sorted[rank.clamp(1, sorted.len()) - 1] as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_milestone_prints_once_in_ms_since_start() {
        let start = Instant::now();
        let mut t = Trace::new(true, start);
        let line = t.reach(Milestone::FirstPose, start + Duration::from_micros(123_450)).unwrap();
        assert_eq!(line, "skelview trace:     123.5 ms  first pose drawn");
        assert_eq!(t.reach(Milestone::FirstPose, start + Duration::from_secs(9)), None);
        assert_eq!(t.reached(Milestone::FirstPose), Some(Duration::from_micros(123_450)));
        assert_eq!(t.reached(Milestone::FullyLoaded), None);
    }

    #[test]
    fn an_off_trace_says_nothing() {
        let start = Instant::now();
        let mut t = Trace::new(false, start);
        assert_eq!(t.reach(Milestone::WindowCreated, start), None);
        t.frame(Duration::from_millis(1), Duration::from_millis(2), Phase::Settled);
        assert_eq!(t.summary(), None);
    }

    #[test]
    fn summary_gives_mean_and_95th_percentile() {
        let mut t = Trace::new(true, Instant::now());
        assert_eq!(t.summary(), None);
        // Three frames while loading, then 1..=100 ms: mean 50.5, p95 95 (nearest rank).
        for _ in 0..3 {
            t.frame(Duration::from_millis(500), Duration::from_millis(900), Phase::Loading);
        }
        t.frame(Duration::from_millis(7), Duration::from_millis(9), Phase::Working);
        for ms in 1..=100 {
            t.frame(Duration::from_millis(ms), Duration::from_millis(2 * ms), Phase::Settled);
        }
        let s = t.summary().unwrap();
        assert!(s.contains("100 frames; app + UI CPU per frame: mean 50.500 ms, p95 95.000 ms"), "{s}");
        assert!(s.contains("whole frame: mean 101.000 ms, p95 190.000 ms"), "{s}");
        assert!(s.contains("3 frames while loading; app + UI CPU per frame: mean 500.000 ms"), "{s}");
        assert!(s.contains("1 frames while checks and curves ran; app + UI CPU per frame: mean 7.000 ms"), "{s}");
        assert!(s.starts_with("skelview trace: 100 frames;"), "the steady state first: {s}");
        assert_eq!(mean_p95(&[4.0]), (4.0, 4.0));
    }
}
