//! Biovision BVH: a joint hierarchy, then one row of channel values per frame.
//!
//! A file of known size up to a block is read whole and its rows split between the workers.
//! A bigger one is streamed in blocks: the header is parsed from the first block, then each
//! block's complete lines are parsed (split across workers when a [`Parallel`] runner is
//! given, with the read of the next block as one more job, so reading and parsing overlap)
//! and appended to one contiguous `Vec<f32>`. Memory stays near the size of the values, not
//! of the file.

mod format;
mod header;
mod rows;
#[cfg(any(unix, windows))]
mod whole;

pub use format::{Bvh, FORMAT, POSITIONS, position_rule};

use std::io::Read;

pub use header::{DEFAULT_FRAME_TIME_SECS, Header, HeaderError, parse_header};
pub use rows::{RowParser, RowStats, max_rows, row_room, split_lines};

use crate::core::{Clip, PositionRule, Skeleton};
use crate::formats::error::{ParseError, ParseErrorKind, RawWarning};
use crate::formats::{LoadObserver, Parallel};
use crate::par::{PieceJob, extend_in_pieces, run_in_pieces};

/// Bytes read before the header is first tried.
const FIRST_READ: usize = 256 << 10;
/// Bytes read per block of motion rows.
const BLOCK: usize = 4 << 20;
/// Blocks smaller than this are parsed on the calling thread.
const MIN_PARALLEL_BYTES: usize = 128 << 10;
/// Values from which a clip's room is allocated zeroed rather than reserved (32 MiB: glibc
/// and the other common allocators take blocks this big fresh from the system, already zero).
/// The unit tests take both ways.
const BIG_CLIP_VALUES: usize = if cfg!(test) { 4096 } else { 8 << 20 };
/// Frames handed to the observer before the whole clip is parsed.
const FIRST_FRAMES: usize = 240;
/// Frame count accepted for a skeleton with no channels (rows carry no values to count).
const MAX_EMPTY_FRAMES: u64 = 10_000_000;

/// A parsed BVH file.
#[derive(Debug)]
pub struct Parsed {
    /// Joints, end sites as `<parent>/EndSite` leaves.
    pub skeleton: Skeleton,
    /// Channel values (rotations in radians).
    pub clip: Clip,
    /// `Frames:` as written.
    pub declared_frames: u64,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
}

/// Reads and parses a BVH stream of `total` bytes (if known), block by block.
pub fn load(
    mut reader: impl Read + Send,
    total: Option<u64>,
    rule: PositionRule,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Parsed, ParseError> {
    let mut buf = Vec::new();
    let mut eof;
    // A file of known size up to a block is read whole: its rows then split evenly between
    // the cores, where a first block parsed beside the read of the rest leaves one core
    // reading. Reads are sized by what the file has left, so a small file takes no more room.
    let first_read = if total.is_some_and(|t| t <= BLOCK as u64) { BLOCK } else { FIRST_READ };
    let header = loop {
        let want = sized_read(first_read.max(buf.len()), total, buf.len() as u64);
        eof = read_more(&mut reader, &mut buf, want)?;
        match parse_header(&buf, eof, rule) {
            Ok(h) => break h,
            Err(HeaderError::NeedMore) if !eof => continue,
            Err(HeaderError::NeedMore) => return Err(ParseError::eof(buf.len() as u64, "the rest of the header")),
            Err(HeaderError::Parse(e)) => return Err(e),
        }
    };
    if eof {
        return rows_of_slice(header, &buf, parallel, observer);
    }
    let mut read_so_far = buf.len() as u64;
    let bytes_left = total.map_or(buf.len() as u64, |t| t.saturating_sub(header.motion_start as u64));
    let mut start = header.motion_start;
    let mut rows = Rows::new(header, bytes_left);
    // While the whole lines of `buf[start..]` are parsed, the next block is read into `next`
    // after the partial line that ends `buf`.
    let mut next = Vec::new();
    loop {
        let cut = if eof { buf.len() } else { memchr::memrchr(b'\n', &buf[start..]).map_or(start, |p| start + p + 1) };
        if eof {
            rows.feed(&buf[start..cut], None, true, parallel, observer, total, None)?;
            break;
        }
        next.clear();
        next.extend_from_slice(&buf[cut..]);
        let mut read = None;
        let want = sized_read(BLOCK, total, read_so_far);
        let (source, into, slot) = (&mut reader, &mut next, &mut read);
        rows.feed(
            &buf[start..cut],
            None,
            false,
            parallel,
            observer,
            total,
            Some(Box::new(move || *slot = Some(read_more(source, into, want)))),
        )?;
        eof = read.expect("the read job ran")?;
        read_so_far += (next.len() - (buf.len() - cut)) as u64;
        std::mem::swap(&mut buf, &mut next);
        start = 0;
    }
    Ok(rows.finish())
}

/// Reads and parses a BVH file. One of known size within a block, big enough to share out,
/// is read whole by the workers (see `whole`); any other streams through [`load`].
pub fn load_file(
    file: &std::fs::File,
    rule: PositionRule,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Parsed, ParseError> {
    let total = file.metadata().ok().map(|m| m.len());
    #[cfg(any(unix, windows))]
    if let Some(size) = total.filter(|&t| parallel.width() > 1 && (MIN_PARALLEL_BYTES as u64..=BLOCK as u64).contains(&t)) {
        if let Some(whole) = whole::read(file, size as usize, parallel)? {
            let header = complete_header(&whole.bytes, rule)?;
            let start = header.motion_start;
            let mut rows = Rows::new(header, (whole.bytes.len() - start) as u64);
            rows.feed(&whole.bytes[start..], Some(whole.plan(start)), true, parallel, observer, total, None)?;
            return Ok(rows.finish());
        }
        // It changed size since it was asked: read it again from the start, as a stream.
        std::io::Seek::rewind(&mut &*file).map_err(|e| ParseError::invalid(0, format!("read error: {e}")))?;
        return load(file, None, rule, parallel, observer);
    }
    load(file, total, rule, parallel, observer)
}

/// The header of a file held whole in `bytes`.
fn complete_header(bytes: &[u8], rule: PositionRule) -> Result<Header, ParseError> {
    match parse_header(bytes, true, rule) {
        Ok(h) => Ok(h),
        Err(HeaderError::NeedMore) => Err(ParseError::eof(bytes.len() as u64, "the rest of the header")),
        Err(HeaderError::Parse(e)) => Err(e),
    }
}

/// Parses a BVH file held in memory, without copying it.
pub fn parse_slice(
    bytes: &[u8],
    rule: PositionRule,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Parsed, ParseError> {
    rows_of_slice(complete_header(bytes, rule)?, bytes, parallel, observer)
}

/// The rows of a whole file held in `bytes`, after its `header`.
fn rows_of_slice(header: Header, bytes: &[u8], parallel: &dyn Parallel, observer: &mut dyn LoadObserver) -> Result<Parsed, ParseError> {
    let total = Some(bytes.len() as u64);
    let mut start = header.motion_start;
    let mut rows = Rows::new(header, (bytes.len() - start) as u64);
    loop {
        let end = (start + BLOCK).min(bytes.len());
        let eof = end == bytes.len();
        let cut = if eof { end } else { memchr::memrchr(b'\n', &bytes[start..end]).map_or(end, |p| start + p + 1) };
        rows.feed(&bytes[start..cut], None, cut == bytes.len(), parallel, observer, total, None)?;
        start = cut;
        if cut == bytes.len() {
            break;
        }
    }
    Ok(rows.finish())
}

/// The motion rows as they accumulate, with what the observer has been told.
struct Rows {
    header: Header,
    parser: RowParser,
    /// The clip's values: the first `filled` are parsed. A big clip's room for the rows the
    /// file declares is allocated zeroed (fresh pages from the system: zero at no cost, and
    /// untouched room costs no memory); a smaller one's is reserved, and each part's piece
    /// cleared by the worker that parses it (reused memory would be cleared on this thread).
    values: Vec<f32>,
    filled: usize,
    /// File offset of the next byte to feed.
    base: u64,
    announced: bool,
    dropped: Option<u64>,
    /// Values written as `nan`/`inf`, and where the first was.
    missing: (u64, Option<u64>),
}

impl Rows {
    fn new(header: Header, bytes_left: u64) -> Self {
        let n = header.skeleton.channels_per_frame();
        let parser = RowParser {
            scales: header
                .skeleton
                .joints()
                .iter()
                .flat_map(|j| j.channels.iter())
                .map(|c| if c.is_rotation() { 1f32.to_radians() } else { 1.0 })
                .collect(),
        };
        // Reserve what the file declares (plus 1% for files that under-declare), but never
        // more than its remaining bytes could hold (each value takes at least two bytes):
        // a lying count cannot allocate.
        let max_rows = if n == 0 { 0 } else { (bytes_left / (2 * n as u64)) as usize + 1 };
        let declared = header.declared_frames.min(max_rows as u64) as usize;
        let rows_hint = declared.saturating_add(declared / 100 + 16).min(max_rows);
        let base = header.motion_start as u64;
        let values = if rows_hint * n >= BIG_CLIP_VALUES { vec![0.0; rows_hint * n] } else { Vec::with_capacity(rows_hint * n) };
        Self { header, parser, values, filled: 0, base, announced: false, dropped: None, missing: (0, None) }
    }

    /// Parses whole lines starting at `self.base`, cut as `plan` says (or as [`Plan::split`]
    /// cuts them), with `side` running beside the parse; then tells the observer.
    fn feed<'a>(
        &mut self,
        bytes: &'a [u8],
        plan: Option<Plan<'a>>,
        eof: bool,
        parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
        total: Option<u64>,
        side: Option<SideJob<'a>>,
    ) -> Result<(), ParseError> {
        if bytes.is_empty() {
            side.into_iter().for_each(|job| job());
        } else {
            let plan = plan.unwrap_or_else(|| Plan::split(bytes, parallel));
            let stats = parse_block(&self.parser, plan, self.base, eof, parallel, &mut self.values, &mut self.filled, side)?;
            self.dropped = self.dropped.or(stats.dropped_partial_row);
            self.missing = (self.missing.0 + stats.missing, self.missing.1.or(stats.first_missing));
            self.base += bytes.len() as u64;
        }
        let n = self.parser.scales.len();
        if !self.announced && (n > 0 && self.filled >= n || eof) {
            let frames = if observer.wants_first_frames() { self.filled.checked_div(n).unwrap_or(0).min(FIRST_FRAMES) } else { 0 };
            let mut first = Clip::new(self.header.frame_time_secs, n, frames, self.values[..frames * n].to_vec());
            first.hold_missing();
            observer.skeleton_ready(&self.header.skeleton, &first);
            self.announced = true;
        }
        if observer.progress(self.base, total).is_break() {
            return Err(ParseError { offset: self.base, kind: ParseErrorKind::Cancelled });
        }
        Ok(())
    }

    fn finish(mut self) -> Parsed {
        self.values.truncate(self.filled);
        let Header { skeleton, declared_frames, frames_offset, frame_time_secs, mut warnings, .. } = self.header;
        let n = self.parser.scales.len();
        let rows = self.values.len().checked_div(n).unwrap_or(declared_frames.min(MAX_EMPTY_FRAMES) as usize);
        if let Some(offset) = self.dropped {
            warnings.push(RawWarning { offset, message: "last motion row is incomplete (truncated file?); it was dropped".into() });
        }
        if n > 0 && rows as u64 != declared_frames {
            warnings.push(RawWarning {
                offset: frames_offset as u64,
                message: format!("Frames: says {declared_frames} but the file has {rows} motion rows; using {rows}"),
            });
        }
        let mut clip = Clip::new(frame_time_secs, n, rows, self.values);
        if let (count @ 1.., Some(offset)) = self.missing {
            clip.hold_missing();
            let frames: usize = {
                let mut f: Vec<u32> = clip.missing().iter().flat_map(|r| r.first..=r.last).collect();
                f.sort_unstable();
                f.dedup();
                f.len()
            };
            warnings.push(RawWarning {
                offset,
                message: format!(
                    "{count} missing values (nan/inf: tracking lost?) on {frames} frames; each is held from the last valid frame and marked"
                ),
            });
        }
        Parsed { skeleton, clip, declared_frames, warnings }
    }
}

/// A job run beside the parse of a block.
type SideJob<'a> = Box<dyn FnOnce() + Send + 'a>;

/// A block's lines cut into parts for the workers, with the most rows each part can hold.
struct Plan<'b> {
    /// Each part's offset in the block, and its bytes (whole lines).
    parts: Vec<(usize, &'b [u8])>,
    /// Per part: its newlines, plus one for a last line without one ([`max_rows`]).
    rows: Vec<usize>,
}

impl<'b> Plan<'b> {
    /// Cuts `bytes` for `parallel` and counts each part's lines.
    fn split(bytes: &'b [u8], parallel: &dyn Parallel) -> Self {
        let parts = if parallel.width() <= 1 || bytes.len() < MIN_PARALLEL_BYTES {
            vec![(0, bytes)]
        } else {
            // Four parts per worker: one whose rows parse slowly (long numbers, exponents)
            // does not hold the others up.
            split_lines(bytes, parallel.width() * 4)
        };
        let rows = parts.iter().map(|(_, p)| max_rows(p)).collect();
        Self { parts, rows }
    }
}

/// Parses a block's whole lines, cut as `plan` says, into `values` after the `filled` first
/// (in its zeroed room, or reserving more); `side` runs as one more job. Each
/// part is given its own piece of `values`, sized by its line count, so the parts are
/// written where they belong; only blank lines leave gaps, closed afterwards.
#[allow(clippy::too_many_arguments)]
fn parse_block<'a>(
    parser: &'a RowParser,
    plan: Plan<'a>,
    base: u64,
    at_eof: bool,
    parallel: &dyn Parallel,
    values: &mut Vec<f32>,
    filled: &mut usize,
    side: Option<SideJob<'a>>,
) -> Result<RowStats, ParseError> {
    let n = parser.scales.len();
    let Plan { parts, rows } = plan;
    let rows: Vec<usize> = rows.iter().zip(&parts).map(|(&lines, (_, part))| row_room(lines, part.len(), n)).collect();
    let need = rows.iter().sum::<usize>() * n;
    let zeroed_room = values.len() >= *filled + need;
    if !zeroed_room {
        values.truncate(*filled);
        if values.capacity() - values.len() < need {
            // An under-declared frame count: grow by at least 1/8 so that it does not double.
            values.reserve(need.max(values.capacity() / 8));
        }
    }
    let last = parts.len() - 1;
    let mut results: Vec<Option<Result<RowStats, ParseError>>> = (0..parts.len()).map(|_| None).collect();
    let filled_before = *filled;
    let mut starts = Vec::with_capacity(parts.len());
    let mut at = filled_before;
    let mut pieces: Vec<(usize, PieceJob<'_>)> = Vec::with_capacity(parts.len());
    for (k, ((&(start, part), slot), &r)) in parts.iter().zip(results.iter_mut()).zip(&rows).enumerate() {
        starts.push(at);
        at += r * n;
        let job = move |piece: &mut [f32]| *slot = Some(parser.parse_into(part, base + start as u64, at_eof && k == last, piece));
        pieces.push((r * n, Box::new(job)));
    }
    if zeroed_room {
        run_in_pieces(parallel, &mut values[filled_before..filled_before + need], side, pieces);
    } else {
        extend_in_pieces(parallel, values, side, pieces);
    }
    let mut total = RowStats::default();
    let mut end = filled_before;
    for (r, at) in results.into_iter().zip(starts) {
        let s = r.expect("every job ran")?;
        let got = s.rows * n;
        if at != end {
            values.copy_within(at..at + got, end);
        }
        end += got;
        total.rows += s.rows;
        total.dropped_partial_row = total.dropped_partial_row.or(s.dropped_partial_row);
        total.missing += s.missing;
        total.first_missing = total.first_missing.or(s.first_missing);
    }
    *filled = end;
    if !zeroed_room {
        values.truncate(end);
    }
    Ok(total)
}

/// Bytes to ask for next: `block`, or what a file of `total` bytes has left after `done`
/// plus one (the short read that says it ended). A file read past its size has grown since:
/// it is read on by blocks.
fn sized_read(block: usize, total: Option<u64>, done: u64) -> usize {
    match total.map(|t| t.saturating_sub(done)) {
        Some(left @ 1..) => usize::try_from(left.saturating_add(1)).map_or(block, |want| want.min(block)),
        _ => block,
    }
}

/// Appends up to `want` bytes; returns true at end of stream.
fn read_more(reader: &mut impl Read, buf: &mut Vec<u8>, want: usize) -> Result<bool, ParseError> {
    // Into reserved room, which the standard library's readers fill without zeroing it first.
    buf.reserve_exact(want);
    let got = reader.take(want as u64).read_to_end(buf).map_err(|e| ParseError::invalid(0, format!("read error: {e}")))?;
    Ok(got < want)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Quiet, Sequential};

    /// A block of blank lines under a wide header makes room for the rows its bytes can
    /// hold, not one per line (a few MiB of newlines asked for gigabytes).
    #[test]
    fn blank_lines_make_no_room() {
        let parser = RowParser { scales: vec![1.0; 1000] };
        let bytes = vec![b'\n'; 256 << 10];
        let plan = Plan::split(&bytes, &Sequential);
        let (mut values, mut filled) = (Vec::new(), 0);
        let stats = parse_block(&parser, plan, 0, true, &Sequential, &mut values, &mut filled, None).unwrap();
        assert_eq!((stats.rows, filled), (0, 0));
        assert!(values.capacity() <= 200 * 1000, "{}", values.capacity());
    }

    /// A file read whole (its size known and within a block) and one whose size was given
    /// wrong (it grew or shrank since it was asked) parse as the same bytes in memory.
    #[test]
    fn reads_whole_or_by_a_wrong_size_give_the_same_rows() {
        let mut text =
            String::from("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Zrotation\n}\nMOTION\nFrames: 3000\nFrame Time: 0.01\n");
        for i in 0..3000 {
            text.push_str(&format!("{i}.5 -{}.25\n", i % 360));
        }
        let bytes = text.as_bytes();
        let want = parse_slice(bytes, PositionRule::Replace, &Sequential, &mut Quiet).unwrap();
        for total in [Some(bytes.len() as u64), Some(10), Some(bytes.len() as u64 * 3), None] {
            let got = load(bytes, total, PositionRule::Replace, &Sequential, &mut Quiet).unwrap();
            assert_eq!(got.clip, want.clip, "{total:?}");
            assert_eq!(got.clip.num_frames(), 3000);
        }
    }
}
