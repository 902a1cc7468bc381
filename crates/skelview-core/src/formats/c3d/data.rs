//! The data section: every frame's points and analog samples, decoded in pieces of frames on
//! every core, from bytes in memory or from a file read block by block (a 350 MB capture was
//! held whole in memory only to be decoded once: a third of the load's memory, and the
//! kernel's time clearing it).

use std::io::Read;
use std::ops::ControlFlow;

use super::meta::AnalogScaling;
use super::params::Processor;
use super::{Layout, ReadOptions};
use crate::core::capture::Capture;
use crate::formats::error::{ParseError, ParseErrorKind, RawWarning};

/// A file's data section is read in blocks of about this many bytes (whole pieces of frames).
pub(super) const BLOCK_BYTES: usize = 16 << 20;

/// Where the frames' bytes come from.
pub(super) enum Frames<'a> {
    /// The whole file in memory.
    Memory(&'a [u8]),
    /// A file positioned at the data section, read in blocks of about `block_bytes`;
    /// `progress` hears the bytes read so far and may stop the read.
    File { file: &'a mut dyn Read, block_bytes: usize, progress: &'a mut dyn FnMut(u64) -> ControlFlow<()> },
}

/// What to decode with.
pub(super) struct Decoding<'a> {
    pub layout: &'a Layout,
    pub processor: Processor,
    pub scales: &'a [f32],
    pub analog: &'a AnalogScaling,
    pub options: ReadOptions,
}

/// Decodes every frame's points and analog samples into `capture`, warning about NaN and
/// (0, 0, 0) samples read as gaps.
pub(super) fn decode(frames_from: Frames, d: &Decoding, capture: &mut Capture, warnings: &mut Vec<RawWarning>) -> Result<(), ParseError> {
    use crate::core::clip::ROWS_PER_PIECE as PIECE_FRAMES;
    let l = d.layout;
    let (n, frames, row) = (l.points, l.frames, l.samples * l.channels);
    let mut positions = vec![f32::NAN; frames * n * 3];
    let mut residuals = vec![-1.0f32; frames * n];
    let mut values = vec![0.0f32; frames * row];
    let mut out = Out { positions: &mut positions, residuals: &mut residuals, values: &mut values, counts: (0, 0) };
    match frames_from {
        Frames::Memory(b) => {
            // No frames may start past the end (a file cut in its parameters).
            let data = &b[l.data_offset.min(b.len())..][..frames * l.frame_bytes];
            decode_block(data, 0, frames, d, &mut out);
        }
        Frames::File { file, block_bytes, progress } => {
            let per_block = (block_bytes / l.frame_bytes.max(1)).div_ceil(PIECE_FRAMES).max(1) * PIECE_FRAMES;
            let mut block = Vec::new();
            for first in (0..frames).step_by(per_block) {
                let count = per_block.min(frames - first);
                let at = (l.data_offset + first * l.frame_bytes) as u64;
                block.resize(count * l.frame_bytes, 0);
                file.read_exact(&mut block).map_err(|e| read_error(at, first, &e))?;
                decode_block(&block, first, count, d, &mut out);
                if progress(at + block.len() as u64).is_break() {
                    return Err(ParseError { offset: at, kind: ParseErrorKind::Cancelled });
                }
            }
        }
    }
    let (zeros, nans) = out.counts;
    if nans > 0 {
        warnings.push(RawWarning {
            offset: l.data_offset as u64,
            message: format!("{nans} samples have coordinates that are not numbers (NaN) with a valid residual word: read as gaps"),
        });
    }
    if zeros > 0 {
        warnings.push(RawWarning {
            offset: l.data_offset as u64,
            message: format!("{zeros} samples sit at exactly (0, 0, 0): read as gaps (format option c3d.zero_points=keep keeps them)"),
        });
    }
    capture.positions = positions;
    capture.residuals = residuals;
    capture.analog.values = values;
    Ok(())
}

/// A read of the data section that failed: a file that got shorter since its length was
/// taken, or the system's error.
fn read_error(at: u64, frame: usize, e: &std::io::Error) -> ParseError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        ParseError::eof(at, format!("frame {frame} and on (the file got shorter while it was read)"))
    } else {
        ParseError::invalid(at, format!("the frames from {frame} on could not be read: {e}"))
    }
}

/// The decoded arrays, whole clip, and the gaps counted so far (at (0, 0, 0), NaN).
struct Out<'a> {
    positions: &'a mut [f32],
    residuals: &'a mut [f32],
    values: &'a mut [f32],
    counts: (usize, usize),
}

/// Decodes `count` frames from `first` on, their bytes in `data`, in pieces on every core.
fn decode_block(data: &[u8], first: usize, count: usize, d: &Decoding, out: &mut Out) {
    use crate::core::clip::ROWS_PER_PIECE as PIECE_FRAMES;
    use crate::par::*;
    let l = d.layout;
    let (n, row) = (l.points, l.samples * l.channels);
    let frame_bytes = |piece: usize, f: usize| &data[(piece * PIECE_FRAMES + f) * l.frame_bytes..][..l.frame_bytes];
    if n > 0 {
        let positions = &mut out.positions[first * n * 3..][..count * n * 3];
        let residuals = &mut out.residuals[first * n..][..count * n];
        let counts: Vec<(usize, usize)> = positions
            .par_chunks_mut(PIECE_FRAMES * n * 3)
            .zip(residuals.par_chunks_mut(PIECE_FRAMES * n))
            .enumerate()
            .map(|(piece, (positions, residuals))| {
                let mut counts = (0, 0);
                for (f, (positions, residuals)) in positions.chunks_exact_mut(n * 3).zip(residuals.chunks_exact_mut(n)).enumerate() {
                    let c = decode_points(frame_bytes(piece, f), l.float, d, positions, residuals);
                    counts = (counts.0 + c.0, counts.1 + c.1);
                }
                counts
            })
            .collect();
        out.counts = counts.iter().fold(out.counts, |a, c| (a.0 + c.0, a.1 + c.1));
    }
    if row > 0 {
        let word = if l.float { 4 } else { 2 };
        let values = &mut out.values[first * row..][..count * row];
        values.par_chunks_mut(PIECE_FRAMES * row).enumerate().for_each(|(piece, values)| {
            for (f, out) in values.chunks_exact_mut(row).enumerate() {
                decode_analog(&frame_bytes(piece, f)[n * 4 * word..], l.float, d.processor, d.analog, out);
            }
        });
    }
}

/// One frame's points into its rows of positions and residuals (left as gaps where the
/// sample is one); returns how many samples were gaps at (0, 0, 0) and how many were NaN.
fn decode_points(frame: &[u8], float: bool, d: &Decoding, positions: &mut [f32], residuals: &mut [f32]) -> (usize, usize) {
    let (proc, scales) = (d.processor, d.scales);
    let (mut zeros, mut nans) = (0, 0);
    for (p, (out, residual)) in positions.chunks_exact_mut(3).zip(residuals.iter_mut()).enumerate() {
        let (xyz, w) = if float {
            let s = &frame[p * 16..][..16];
            let v = |k: usize| proc.f32([s[4 * k], s[4 * k + 1], s[4 * k + 2], s[4 * k + 3]]);
            ([v(0), v(1), v(2)], float_word(v(3)))
        } else {
            let s = &frame[p * 8..][..8];
            let v = |k: usize| proc.i16([s[2 * k], s[2 * k + 1]]);
            let k = scales[p];
            ([f32::from(v(0)) * k, f32::from(v(1)) * k, f32::from(v(2)) * k], v(3))
        };
        if w < 0 {
            continue;
        }
        if !xyz.iter().all(|c| c.is_finite()) {
            nans += 1;
            continue;
        }
        if d.options.zero_is_gap && xyz == [0.0; 3] {
            zeros += 1;
            continue;
        }
        out.copy_from_slice(&xyz);
        *residual = f32::from((w >> 8) as u8) * scales[p];
    }
    (zeros, nans)
}

/// One frame's analog samples, offset and scaled.
fn decode_analog(bytes: &[u8], float: bool, proc: Processor, analog: &AnalogScaling, row: &mut [f32]) {
    let channels = analog.offsets.len().max(1);
    for (k, out) in row.iter_mut().enumerate() {
        let c = k % channels;
        let raw = if float {
            let s = &bytes[k * 4..][..4];
            f64::from(proc.f32([s[0], s[1], s[2], s[3]]))
        } else {
            let s = [bytes[k * 2], bytes[k * 2 + 1]];
            if analog.unsigned { f64::from(proc.u16(s)) } else { f64::from(proc.i16(s)) }
        };
        *out = ((raw - analog.offsets[c]) * analog.scales[c]) as f32;
    }
}

/// The 16-bit residual word of a float sample: negative is a gap, and so is 65535.0 (the
/// word −1 stored as a positive float) or anything above 32,767.
#[inline]
fn float_word(v: f32) -> i16 {
    if v.is_nan() || !(0.0..=32767.5).contains(&v) {
        return -1;
    }
    (v + 0.5) as i16
}
