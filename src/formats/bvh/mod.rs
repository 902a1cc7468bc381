//! Biovision BVH: a joint hierarchy, then one row of channel values per frame.
//!
//! The file is streamed in blocks: the header is parsed from the first block, then each
//! block's complete lines are parsed (split across workers when a [`Parallel`] runner is
//! given) and appended to one contiguous `Vec<f32>`. Memory stays near the size of the
//! values, not of the file.

mod format;
mod header;
mod rows;

pub use format::{Bvh, FORMAT};

use std::io::Read;

pub use header::{DEFAULT_FRAME_TIME_SECS, Header, HeaderError, parse_header};
pub use rows::{RowParser, RowStats, split_lines};

use crate::core::{Clip, PositionRule, Skeleton};
use crate::formats::error::{ParseError, ParseErrorKind, RawWarning};
use crate::formats::{LoadObserver, Parallel};

/// Bytes read before the header is first tried.
const FIRST_READ: usize = 256 << 10;
/// Bytes read per block of motion rows.
const BLOCK: usize = 4 << 20;
/// Blocks smaller than this are parsed on the calling thread.
const MIN_PARALLEL_BYTES: usize = 512 << 10;
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
    mut reader: impl Read,
    total: Option<u64>,
    rule: PositionRule,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Parsed, ParseError> {
    let mut buf = Vec::new();
    let mut eof;
    let header = loop {
        let want = FIRST_READ.max(buf.len());
        eof = read_more(&mut reader, &mut buf, want)?;
        match parse_header(&buf, eof, rule) {
            Ok(h) => break h,
            Err(HeaderError::NeedMore) if !eof => continue,
            Err(HeaderError::NeedMore) => return Err(ParseError::eof(buf.len() as u64, "the rest of the header")),
            Err(HeaderError::Parse(e)) => return Err(e),
        }
    };
    let bytes_left = total.map_or(buf.len() as u64, |t| t.saturating_sub(header.motion_start as u64));
    buf.drain(..header.motion_start);
    let mut rows = Rows::new(header, bytes_left);
    loop {
        let cut = if eof { buf.len() } else { memchr::memrchr(b'\n', &buf).map_or(0, |p| p + 1) };
        rows.feed(&buf[..cut], eof, parallel, observer, total)?;
        buf.drain(..cut);
        if eof {
            break;
        }
        eof = read_more(&mut reader, &mut buf, BLOCK)?;
    }
    Ok(rows.finish())
}

/// Parses a BVH file held in memory, without copying it.
pub fn parse_slice(
    bytes: &[u8],
    rule: PositionRule,
    parallel: &dyn Parallel,
    observer: &mut dyn LoadObserver,
) -> Result<Parsed, ParseError> {
    let header = match parse_header(bytes, true, rule) {
        Ok(h) => h,
        Err(HeaderError::NeedMore) => return Err(ParseError::eof(bytes.len() as u64, "the rest of the header")),
        Err(HeaderError::Parse(e)) => return Err(e),
    };
    let total = Some(bytes.len() as u64);
    let mut start = header.motion_start;
    let mut rows = Rows::new(header, (bytes.len() - start) as u64);
    loop {
        let end = (start + BLOCK).min(bytes.len());
        let eof = end == bytes.len();
        let cut = if eof { end } else { memchr::memrchr(b'\n', &bytes[start..end]).map_or(end, |p| start + p + 1) };
        rows.feed(&bytes[start..cut], cut == bytes.len(), parallel, observer, total)?;
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
    values: Vec<f32>,
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
        Self { header, parser, values: Vec::with_capacity(rows_hint * n), base, announced: false, dropped: None, missing: (0, None) }
    }

    /// Parses whole lines starting at `self.base`, then tells the observer.
    fn feed(
        &mut self,
        bytes: &[u8],
        eof: bool,
        parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
        total: Option<u64>,
    ) -> Result<(), ParseError> {
        if !bytes.is_empty() {
            let stats = parse_block(&self.parser, bytes, self.base, eof, parallel, &mut self.values)?;
            self.dropped = self.dropped.or(stats.dropped_partial_row);
            self.missing = (self.missing.0 + stats.missing, self.missing.1.or(stats.first_missing));
            self.base += bytes.len() as u64;
        }
        let n = self.parser.scales.len();
        if !self.announced && (n > 0 && self.values.len() >= n || eof) {
            let frames = if n == 0 { 0 } else { (self.values.len() / n).min(FIRST_FRAMES) };
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

    fn finish(self) -> Parsed {
        let Header { skeleton, declared_frames, frames_offset, frame_time_secs, mut warnings, .. } = self.header;
        let n = self.parser.scales.len();
        let rows = if n == 0 { declared_frames.min(MAX_EMPTY_FRAMES) as usize } else { self.values.len() / n };
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

/// Parses whole lines, in parallel parts when the block is large enough.
fn parse_block(
    parser: &RowParser,
    bytes: &[u8],
    base: u64,
    at_eof: bool,
    parallel: &dyn Parallel,
    out: &mut Vec<f32>,
) -> Result<RowStats, ParseError> {
    // Values take at least ~4 bytes of text each in practice; grow by at least 1/8 so that
    // an under-declared frame count does not double the buffer.
    let estimate = bytes.len() / 4;
    if out.capacity() - out.len() < estimate {
        out.reserve_exact(estimate.max(out.capacity() / 8));
    }
    if parallel.width() <= 1 || bytes.len() < MIN_PARALLEL_BYTES {
        return parser.parse(bytes, base, at_eof, out);
    }
    let parts = split_lines(bytes, parallel.width());
    let last = parts.len() - 1;
    // The first part goes straight into `out`; the others into their own buffers, appended
    // in order afterwards.
    let mut first: Option<Result<RowStats, ParseError>> = None;
    let mut rest: Vec<Option<Result<(Vec<f32>, RowStats), ParseError>>> = (1..parts.len()).map(|_| None).collect();
    let mut jobs: Vec<Box<dyn FnOnce() + Send + '_>> = Vec::with_capacity(parts.len());
    let (start0, part0) = parts[0];
    let first_slot = &mut first;
    let first_out = &mut *out;
    jobs.push(Box::new(move || *first_slot = Some(parser.parse(part0, base + start0 as u64, at_eof && last == 0, first_out))));
    for (k, (&(start, part), slot)) in parts[1..].iter().zip(rest.iter_mut()).enumerate() {
        let k = k + 1;
        jobs.push(Box::new(move || {
            let mut v = Vec::with_capacity(part.len() / 4);
            let r = parser.parse(part, base + start as u64, at_eof && k == last, &mut v);
            *slot = Some(r.map(|s| (v, s)));
        }));
    }
    parallel.run(jobs);
    let mut total = first.expect("every job ran")?;
    for r in rest {
        let (v, s) = r.expect("every job ran")?;
        out.extend_from_slice(&v);
        total.rows += s.rows;
        total.dropped_partial_row = total.dropped_partial_row.or(s.dropped_partial_row);
        total.missing += s.missing;
        total.first_missing = total.first_missing.or(s.first_missing);
    }
    Ok(total)
}

/// Appends up to `want` bytes; returns true at end of stream.
fn read_more(reader: &mut impl Read, buf: &mut Vec<u8>, want: usize) -> Result<bool, ParseError> {
    // Zero-filling the spare room and reading into it is faster here than `read_to_end`'s
    // probing reads, and the buffer's capacity is reused from block to block.
    let start = buf.len();
    buf.resize(start + want, 0);
    let mut filled = start;
    let mut eof = false;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => {
                eof = true;
                break;
            }
            Ok(k) => filled += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(filled);
                return Err(ParseError::invalid(0, format!("read error: {e}")));
            }
        }
    }
    buf.truncate(filled);
    Ok(eof)
}
