//! Per-frame channel values in one contiguous buffer.

/// How a time between two frames is sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Interpolation {
    /// The frame nearest in time.
    Nearest,
    /// Translations lerped, rotations slerped as quaternions (never per Euler component).
    #[default]
    Linear,
}

/// Channel values for every frame: `values[frame * channels_per_frame + channel]`.
///
/// Rotations are stored in radians, translations in the file's own length units.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Clip {
    /// Seconds between frames, exactly as the file states it (not rounded through fps).
    pub frame_time_secs: f64,
    channels_per_frame: usize,
    num_frames: usize,
    values: Vec<f32>,
    missing: Vec<MissingRun>,
    filled: Vec<MissingRun>,
}

/// Frames `first..=last` of one channel that the file left missing (NaN, Inf: tracking lost).
/// Their values in the clip are held from the last valid frame (the next one at the start),
/// so that poses stay drawable; the run says they are not real.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingRun {
    /// Channel index within a frame.
    pub channel: u32,
    /// First missing frame.
    pub first: u32,
    /// Last missing frame.
    pub last: u32,
}

impl Clip {
    /// A clip over `values`, which must hold `num_frames × channels_per_frame` numbers.
    ///
    /// # Panics
    /// When the buffer length does not match; loaders check counts before building a clip.
    pub fn new(frame_time_secs: f64, channels_per_frame: usize, num_frames: usize, values: Vec<f32>) -> Self {
        assert_eq!(values.len(), channels_per_frame * num_frames, "clip buffer size");
        Self { frame_time_secs, channels_per_frame, num_frames, values, missing: Vec::new(), filled: Vec::new() }
    }

    /// Replaces every non-finite value by the channel's last finite value (its next one before
    /// the first), remembering where they were; returns how many there were. A channel with no
    /// finite value at all holds 0.
    pub fn hold_missing(&mut self) -> usize {
        use crate::par::*;
        let (n, cpf) = (self.num_frames, self.channels_per_frame);
        if n == 0 || cpf == 0 {
            return 0;
        }
        // Pieces of frames on every core, each holding what it can by itself; then, in order,
        // the values missing at a piece's start take the pieces before's last valid value.
        let pieces: Vec<Held> = self
            .values
            .par_chunks_mut(ROWS_PER_PIECE * cpf)
            .enumerate()
            .map(|(i, rows)| hold_piece(rows, cpf, (i * ROWS_PER_PIECE) as u32))
            .collect();
        let mut last_valid: Vec<Option<f32>> = vec![None; cpf];
        let mut runs = Vec::with_capacity(pieces.len());
        let mut count = 0;
        for (i, piece) in pieces.into_iter().enumerate() {
            let start = i * ROWS_PER_PIECE;
            for (c, (&leading, last)) in piece.leading.iter().zip(&mut last_valid).enumerate() {
                if let (Some(v), true) = (*last, leading > 0) {
                    (start..start + leading as usize).for_each(|f| self.values[f * cpf + c] = v);
                }
                *last = piece.last_valid[c].or(*last);
            }
            runs.push(piece.runs);
            count += piece.count;
        }
        let found = join_pieces(runs, cpf);
        if self.missing.is_empty() {
            self.missing = found;
        } else {
            self.missing.extend(found);
            self.missing.sort_by_key(|r| (r.first, r.channel));
        }
        // Missing from the start: hold the first valid value backwards (0 when there is none).
        for r in self.missing.iter().filter(|r| r.first == 0) {
            let c = r.channel as usize;
            let fill = if (r.last as usize) + 1 < n { self.values[(r.last as usize + 1) * cpf + c] } else { 0.0 };
            for g in 0..=r.last as usize {
                self.values[g * cpf + c] = fill;
            }
        }
        count
    }

    /// The runs of missing values, by first frame.
    pub fn missing(&self) -> &[MissingRun] {
        &self.missing
    }

    /// True when `channel` of `frame` was missing in the file (its value is held).
    pub fn is_missing(&self, frame: usize, channel: usize) -> bool {
        self.missing.iter().any(|r| r.channel as usize == channel && (r.first as usize..=r.last as usize).contains(&frame))
    }

    /// The runs of values an edit filled in (gap filling): real values, but not measured.
    pub fn filled(&self) -> &[MissingRun] {
        &self.filled
    }

    /// True when `channel` of `frame` was filled in by an edit.
    pub fn is_filled(&self, frame: usize, channel: usize) -> bool {
        self.filled.iter().any(|r| r.channel as usize == channel && (r.first as usize..=r.last as usize).contains(&frame))
    }

    /// Sets the runs of filled-in values (any order).
    pub fn set_filled(&mut self, mut runs: Vec<MissingRun>) {
        runs.sort_by_key(|r| (r.first, r.channel));
        self.filled = runs;
    }

    /// Marks the values where `mask` (one flag per value, frame by frame) holds as filled in.
    pub fn mark_filled(&mut self, mask: &[bool]) {
        let n = self.values.len().min(mask.len());
        self.filled = runs_where(&mask[..n], self.channels_per_frame);
    }

    /// Number of values the file left missing.
    pub fn missing_count(&self) -> usize {
        self.missing.iter().map(|r| (r.last - r.first) as usize + 1).sum()
    }

    /// The values, given up (frame by frame).
    pub fn into_values(self) -> Vec<f32> {
        self.values
    }

    /// This clip with `other`'s runs of missing and filled values (their frames need not be
    /// this clip's: for carrying the runs of a clip whose values were taken).
    pub fn with_runs_of(mut self, other: &Clip) -> Self {
        self.missing = other.missing.clone();
        self.filled = other.filled.clone();
        self
    }

    /// A clip with no frames (a skeleton shown in its rest pose).
    pub fn empty(frame_time_secs: f64, channels_per_frame: usize) -> Self {
        Self::new(frame_time_secs, channels_per_frame, 0, Vec::new())
    }

    /// Number of frames.
    pub fn num_frames(&self) -> usize {
        self.num_frames
    }

    /// Number of values in one frame.
    pub fn channels_per_frame(&self) -> usize {
        self.channels_per_frame
    }

    /// Frames per second implied by the frame time (0 when the frame time is 0).
    pub fn fps(&self) -> f64 {
        if self.frame_time_secs > 0.0 { 1.0 / self.frame_time_secs } else { 0.0 }
    }

    /// Length of the capture: frames × frame time.
    pub fn duration_secs(&self) -> f64 {
        self.num_frames as f64 * self.frame_time_secs
    }

    /// Time of the last frame, the end of the playable range.
    pub fn last_frame_time_secs(&self) -> f64 {
        self.num_frames.saturating_sub(1) as f64 * self.frame_time_secs
    }

    /// The values of one frame.
    ///
    /// # Panics
    /// When `frame >= num_frames()`.
    pub fn frame(&self, frame: usize) -> &[f32] {
        let start = frame * self.channels_per_frame;
        &self.values[start..start + self.channels_per_frame]
    }

    /// The whole buffer, frame-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Resolves a time to `(frame, next_frame, blend)` with time clamped to the clip;
    /// `None` for a clip without frames.
    pub fn locate(&self, time_secs: f64) -> Option<(usize, usize, f32)> {
        if self.num_frames == 0 {
            return None;
        }
        let last = self.num_frames - 1;
        if !(self.frame_time_secs > 0.0) || !time_secs.is_finite() || time_secs <= 0.0 {
            return Some((0, 0, 0.0));
        }
        let f = time_secs / self.frame_time_secs;
        if f >= last as f64 {
            return Some((last, last, 0.0));
        }
        // A time computed as `frame × frame_time` lands on that frame exactly, not a hair
        // before it (5 × 0.0416667 / 0.0416667 may be 4.9999999).
        let nearest = f.round();
        if (f - nearest).abs() < 1e-6 {
            return Some((nearest as usize, nearest as usize, 0.0));
        }
        let i = f.floor() as usize;
        Some((i, (i + 1).min(last), (f - i as f64) as f32))
    }
}

/// The runs where `mask` (one flag per value, `cpf` values a frame, frame by frame) holds, by
/// first frame.
pub fn runs_where(mask: &[bool], cpf: usize) -> Vec<MissingRun> {
    runs_where_by(mask, cpf, |&on| on)
}

/// The runs where `on(value)` holds among `values` (`cpf` values a frame, frame by frame), by
/// first frame; pieces of frames on every core.
pub fn runs_where_by<T: Sync>(values: &[T], cpf: usize, on: impl Fn(&T) -> bool + Sync) -> Vec<MissingRun> {
    use crate::par::*;
    if cpf == 0 {
        return Vec::new();
    }
    let pieces: Vec<Vec<MissingRun>> = values
        .par_chunks(ROWS_PER_PIECE * cpf)
        .enumerate()
        .map(|(i, rows)| {
            let (mut runs, mut open) = (Vec::new(), vec![None::<u32>; cpf]);
            let first_frame = (i * ROWS_PER_PIECE) as u32;
            let mut frame = first_frame;
            for row in rows.chunks_exact(cpf) {
                for (c, v) in row.iter().enumerate() {
                    match (on(v), open[c]) {
                        (true, None) => open[c] = Some(frame),
                        (false, Some(first)) => {
                            runs.push(MissingRun { channel: c as u32, first, last: frame - 1 });
                            open[c] = None;
                        }
                        _ => {}
                    }
                }
                frame += 1;
            }
            close_open(&mut runs, open, frame);
            runs.sort_unstable_by_key(|r| (r.first, r.channel));
            runs
        })
        .collect();
    join_pieces(pieces, cpf)
}

/// Closes the runs still open where a piece ends (`end`, one past its last frame).
fn close_open(runs: &mut Vec<MissingRun>, open: Vec<Option<u32>>, end: u32) {
    for (c, first) in open.into_iter().enumerate() {
        if let Some(first) = first {
            runs.push(MissingRun { channel: c as u32, first, last: end - 1 });
        }
    }
}

/// The runs of consecutive pieces of [`ROWS_PER_PIECE`] frames (each cut where its piece
/// ends, each piece's by first frame) as whole runs, by first frame: a run joined to one
/// before it adds nothing, so the order holds without sorting all of them again.
fn join_pieces(pieces: Vec<Vec<MissingRun>>, cpf: usize) -> Vec<MissingRun> {
    let mut runs: Vec<MissingRun> = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
    // Per channel: the run reaching the end of the piece before, to go on in this one.
    let mut reaching: Vec<Option<usize>> = vec![None; cpf];
    let mut next = reaching.clone();
    for (i, piece) in pieces.into_iter().enumerate() {
        let (start, end) = ((i * ROWS_PER_PIECE) as u32, ((i + 1) * ROWS_PER_PIECE) as u32);
        next.iter_mut().for_each(|n| *n = None);
        for r in piece {
            let c = r.channel as usize;
            let at = match reaching[c] {
                Some(k) if r.first == start => {
                    runs[k].last = r.last;
                    k
                }
                _ => {
                    runs.push(r);
                    runs.len() - 1
                }
            };
            if r.last + 1 == end {
                next[c] = Some(at);
            }
        }
        std::mem::swap(&mut reaching, &mut next);
    }
    runs
}

/// Frames per job where rows of a clip or capture are worked through in pieces on every core
/// (decoding, holding, finding runs): about 4 MB of values for a thousand markers.
pub const ROWS_PER_PIECE: usize = 256;

/// What one piece of frames held by itself.
struct Held {
    /// Its runs of missing values, absolute frames, cut at its ends.
    runs: Vec<MissingRun>,
    /// Per channel: how many frames at its start are missing with no valid value before them
    /// in the piece (left NaN for the pieces before to hold).
    leading: Vec<u32>,
    /// Per channel: its last valid value.
    last_valid: Vec<Option<f32>>,
    /// Values missing.
    count: usize,
}

/// Holds the missing values of `rows` (frames from `first_frame`) from the last valid value
/// before them in these rows.
fn hold_piece(rows: &mut [f32], cpf: usize, first_frame: u32) -> Held {
    let mut held = Held { runs: Vec::new(), leading: vec![0; cpf], last_valid: vec![None; cpf], count: 0 };
    // Frame by frame (the buffer's order), each channel's open run kept aside: one pass over
    // memory however many channels there are.
    let mut open: Vec<Option<u32>> = vec![None; cpf];
    let mut frame = first_frame;
    for row in rows.chunks_exact_mut(cpf) {
        for (c, v) in row.iter_mut().enumerate() {
            if v.is_finite() {
                if let Some(first) = open[c].take() {
                    held.runs.push(MissingRun { channel: c as u32, first, last: frame - 1 });
                }
                held.last_valid[c] = Some(*v);
            } else {
                held.count += 1;
                open[c].get_or_insert(frame);
                match held.last_valid[c] {
                    Some(last) => *v = last,
                    None => held.leading[c] += 1,
                }
            }
        }
        frame += 1;
    }
    close_open(&mut held.runs, open, frame);
    held.runs.sort_unstable_by_key(|r| (r.first, r.channel));
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_clamps_and_blends() {
        let c = Clip::new(0.5, 1, 3, vec![0.0, 1.0, 2.0]);
        assert_eq!(c.locate(-1.0), Some((0, 0, 0.0)));
        assert_eq!(c.locate(0.25), Some((0, 1, 0.5)));
        assert_eq!(c.locate(0.5), Some((1, 1, 0.0)));
        // A frame's time computed by multiplication lands on the frame, not a hair before.
        let c24 = Clip::new(0.0416667, 1, 10, vec![0.0; 10]);
        assert_eq!(c24.locate(7.0 * 0.0416667), Some((7, 7, 0.0)));
        assert_eq!(c.locate(99.0), Some((2, 2, 0.0)));
        assert_eq!(c.duration_secs(), 1.5);
        assert_eq!(c.last_frame_time_secs(), 1.0);
        assert_eq!(Clip::empty(0.1, 3).locate(0.0), None);
    }

    /// The held values and runs are those of one pass frame by frame, wherever the pieces
    /// cut: gaps across piece ends, a channel missing from the start past the first piece,
    /// one missing to the end, one never valid, on one thread and on two.
    #[test]
    fn holding_and_finding_runs_in_pieces_equal_one_pass() {
        fn one_pass(values: &mut [f32], cpf: usize) -> (Vec<MissingRun>, usize) {
            let n = values.len() / cpf;
            let (mut runs, mut count) = (Vec::new(), 0);
            for c in 0..cpf {
                let mut last = (0..n).map(|f| values[f * cpf + c]).find(|v| v.is_finite()).unwrap_or(0.0);
                let mut open = None;
                for f in 0..n {
                    let v = &mut values[f * cpf + c];
                    if v.is_finite() {
                        last = *v;
                        if let Some(first) = open.take() {
                            runs.push(MissingRun { channel: c as u32, first, last: f as u32 - 1 });
                        }
                    } else {
                        count += 1;
                        open.get_or_insert(f as u32);
                        *v = last;
                    }
                }
                if let Some(first) = open {
                    runs.push(MissingRun { channel: c as u32, first, last: n as u32 - 1 });
                }
            }
            runs.sort_by_key(|r| (r.first, r.channel));
            (runs, count)
        }
        let (cpf, n) = (5, 3 * ROWS_PER_PIECE + 17);
        let mut values = Vec::with_capacity(cpf * n);
        let mut state = 12345u64;
        for f in 0..n {
            for c in 0..cpf {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let gap = match c {
                    0 => (f % ROWS_PER_PIECE) > ROWS_PER_PIECE - 5 || (f % ROWS_PER_PIECE) < 3,
                    1 => f < ROWS_PER_PIECE + 40,
                    2 => f > 2 * ROWS_PER_PIECE - 10,
                    3 => true,
                    _ => (state >> 33).is_multiple_of(4),
                };
                values.push(if gap { f32::NAN } else { (f * 10 + c) as f32 });
            }
        }
        let mut expected_values = values.clone();
        let (expected_runs, expected_count) = one_pass(&mut expected_values, cpf);
        for threads in [1, 2] {
            let mut clip = Clip::new(0.01, cpf, n, values.clone());
            let count = crate::par::in_test_pool(threads, || clip.hold_missing());
            assert_eq!(count, expected_count);
            assert_eq!(clip.missing(), expected_runs.as_slice());
            assert_eq!(clip.values(), expected_values.as_slice());
            let found = crate::par::in_test_pool(threads, || runs_where_by(&values, cpf, |v| !v.is_finite()));
            assert_eq!(found, expected_runs, "the runs found without holding");
        }
    }

    #[test]
    fn frame_time_is_kept_exactly() {
        let c = Clip::empty(0.0083333, 0);
        assert_eq!(c.frame_time_secs, 0.0083333);
        assert!((c.fps() - 120.0005).abs() < 1e-3);
    }
}
