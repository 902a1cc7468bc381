//! Playback state (time, rate, loop, in/out range) as plain data, stepped by hand.
//!
//! UI code never changes it directly: it pushes [`PlaybackCommand`]s that are applied once a
//! frame, then [`Playback::update`] advances time by the wall-clock delta.

/// Slowest and fastest playback rates offered.
pub const RATE_RANGE: (f64, f64) = (0.1, 4.0);

/// A change requested by the UI or a shortcut.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaybackCommand {
    /// Start playing (from the in point if at the out point and not looping).
    Play,
    /// Stop advancing time.
    Pause,
    /// Play if paused, pause if playing.
    TogglePlay,
    /// Jump to a time (clamped to the range), in seconds.
    Seek(f64),
    /// Jump to a frame (clamped to the range).
    SeekFrame(usize),
    /// Pause and move by whole frames (negative: back).
    Step(i64),
    /// Go to the in point.
    Home,
    /// Go to the out point.
    End,
    /// Playback speed multiplier (clamped to [`RATE_RANGE`]).
    SetRate(f64),
    /// Loop at the out point, or stop there.
    SetLooping(bool),
    /// Set the in point to the current frame.
    SetInHere,
    /// Set the out point to the current frame.
    SetOutHere,
    /// Play the whole clip again.
    ClearRange,
}

/// Where playback is and how it moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    /// Current time in seconds from the first frame.
    pub time_secs: f64,
    /// True while time advances.
    pub playing: bool,
    /// Speed multiplier.
    pub rate: f64,
    /// Wrap to the in point at the out point.
    pub looping: bool,
    /// First frame of the playable range.
    pub in_frame: usize,
    /// Last frame of the playable range.
    pub out_frame: usize,
    frame_time_secs: f64,
    num_frames: usize,
}

impl Playback {
    /// Playback of a clip of `num_frames` frames `frame_time_secs` apart, paused at frame 0.
    pub fn new(frame_time_secs: f64, num_frames: usize) -> Self {
        let frame_time_secs = if frame_time_secs > 0.0 && frame_time_secs.is_finite() { frame_time_secs } else { 1.0 / 30.0 };
        Self {
            time_secs: 0.0,
            playing: false,
            rate: 1.0,
            looping: true,
            in_frame: 0,
            out_frame: num_frames.saturating_sub(1),
            frame_time_secs,
            num_frames,
        }
    }

    /// Seconds between frames.
    pub fn frame_time_secs(&self) -> f64 {
        self.frame_time_secs
    }

    /// Frames in the clip.
    pub fn num_frames(&self) -> usize {
        self.num_frames
    }

    /// The frame nearest to the current time.
    pub fn frame(&self) -> usize {
        ((self.time_secs / self.frame_time_secs).round().max(0.0) as usize).min(self.num_frames.saturating_sub(1))
    }

    fn in_secs(&self) -> f64 {
        self.in_frame as f64 * self.frame_time_secs
    }

    fn out_secs(&self) -> f64 {
        self.out_frame as f64 * self.frame_time_secs
    }

    fn clamp_to_range(&self, t: f64) -> f64 {
        if t.is_nan() { self.in_secs() } else { t.clamp(self.in_secs(), self.out_secs()) }
    }

    /// Applies one command.
    pub fn apply(&mut self, command: PlaybackCommand) {
        use PlaybackCommand::*;
        match command {
            Play => {
                if !self.looping && self.time_secs >= self.out_secs() {
                    self.time_secs = self.in_secs();
                }
                self.playing = self.num_frames > 1;
            }
            Pause => self.playing = false,
            TogglePlay => self.apply(if self.playing { Pause } else { Play }),
            Seek(t) => self.time_secs = self.clamp_to_range(t),
            SeekFrame(f) => self.time_secs = self.clamp_to_range(f as f64 * self.frame_time_secs),
            Step(k) => {
                self.playing = false;
                let f = (self.frame() as i64 + k).clamp(self.in_frame as i64, self.out_frame as i64);
                self.time_secs = f as f64 * self.frame_time_secs;
            }
            Home => self.time_secs = self.in_secs(),
            End => self.time_secs = self.out_secs(),
            SetRate(r) => {
                if r.is_finite() {
                    self.rate = r.clamp(RATE_RANGE.0, RATE_RANGE.1);
                }
            }
            SetLooping(l) => self.looping = l,
            SetInHere => {
                self.in_frame = self.frame();
                self.out_frame = self.out_frame.max(self.in_frame);
            }
            SetOutHere => {
                self.out_frame = self.frame();
                self.in_frame = self.in_frame.min(self.out_frame);
            }
            ClearRange => {
                self.in_frame = 0;
                self.out_frame = self.num_frames.saturating_sub(1);
            }
        }
    }

    /// Advances time by `dt_secs` of wall clock (× rate) while playing; wraps or stops at
    /// the out point.
    pub fn update(&mut self, dt_secs: f64) {
        if !self.playing || !(dt_secs > 0.0) {
            return;
        }
        let (start, end) = (self.in_secs(), self.out_secs());
        let mut t = self.time_secs + dt_secs * self.rate;
        if t > end {
            if self.looping && end > start {
                // The loop length includes the step from the last frame back to the first.
                let span = end - start + self.frame_time_secs;
                t = start + (t - start) % span;
                t = t.min(end);
            } else {
                t = end;
                self.playing = false;
            }
        }
        self.time_secs = t.max(start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PlaybackCommand::*;

    fn clip() -> Playback {
        Playback::new(0.1, 11) // frames 0..=10, last at 1.0 s
    }

    #[test]
    fn plays_at_rate_and_loops() {
        let mut p = clip();
        p.apply(Play);
        p.update(0.25);
        assert!((p.time_secs - 0.25).abs() < 1e-12);
        p.apply(SetRate(2.0));
        p.update(0.25);
        assert!((p.time_secs - 0.75).abs() < 1e-12);
        p.update(0.25); // 1.25 wraps over a 1.1 s loop → 0.15
        assert!((p.time_secs - 0.15).abs() < 1e-9, "{}", p.time_secs);
        assert!(p.playing);
    }

    #[test]
    fn stops_at_the_end_without_loop_and_restarts_on_play() {
        let mut p = clip();
        p.apply(SetLooping(false));
        p.apply(Play);
        p.update(5.0);
        assert_eq!((p.time_secs, p.playing), (1.0, false));
        p.apply(Play);
        assert_eq!((p.time_secs, p.playing), (0.0, true));
    }

    #[test]
    fn steps_pause_and_clamp_to_the_range() {
        let mut p = clip();
        p.apply(Play);
        p.apply(Step(3));
        assert_eq!((p.frame(), p.playing), (3, false));
        p.apply(Step(-10));
        assert_eq!(p.frame(), 0);
        p.apply(SeekFrame(2));
        p.apply(SetInHere);
        p.apply(SeekFrame(6));
        p.apply(SetOutHere);
        p.apply(Step(10));
        assert_eq!(p.frame(), 6);
        p.apply(Home);
        assert_eq!(p.frame(), 2);
        p.apply(Seek(0.0));
        assert_eq!(p.frame(), 2);
        p.apply(Play);
        p.update(0.55); // 0.2 + 0.55 = 0.75: past the last frame's 0.1 s, wraps over a 0.5 s loop to 0.25
        assert!((p.time_secs - 0.25).abs() < 1e-9, "{}", p.time_secs);
        p.apply(ClearRange);
        p.apply(End);
        assert_eq!(p.frame(), 10);
    }

    #[test]
    fn rate_is_clamped_and_bad_input_ignored() {
        let mut p = clip();
        p.apply(SetRate(100.0));
        assert_eq!(p.rate, 4.0);
        p.apply(SetRate(f64::NAN));
        assert_eq!(p.rate, 4.0);
        p.apply(Seek(f64::NAN));
        assert_eq!(p.time_secs, 0.0);
        let mut single = Playback::new(0.1, 1);
        single.apply(Play);
        assert!(!single.playing, "one frame: nothing to play");
    }
}
