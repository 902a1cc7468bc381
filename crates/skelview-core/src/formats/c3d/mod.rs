//! C3D (`.c3d`): the biomechanics container of 3D points, analog channels, force platforms
//! and events. Read by our own code rather than the `c3dio` crate: c3dio 0.8 sizes its
//! arrays from the header before checking them against the file (a few flipped header bytes
//! make it allocate 28 GB and abort the process), keeps frame counts in 16 bits (no files
//! beyond 65,535 frames) and reads one unit for all points.
//!
//! Conventions (C3D.org's user guide, and what real writers do):
//! - The header's first byte names the parameter block; the parameter section's fourth byte
//!   the processor: Intel (84), DEC (85, VAX floats), MIPS (86, big-endian).
//! - `POINT:SCALE` < 0 means floats; ints are multiplied by |scale|. The fourth word of a
//!   sample packs residual (high byte, × |scale|) and camera mask (low byte); negative
//!   (whatever its value) is a gap, and so is the float 65535.0 (the 16-bit word −1 that
//!   Qualisys writes as a positive float), a NaN coordinate, and (by default) a point at
//!   exactly (0, 0, 0).
//! - Frames: `TRIAL:ACTUAL_START_FIELD/END_FIELD` (32 bits) beyond 65,535, else
//!   `POINT:FRAMES`, else the header; never more than the data section holds.
//! - Analog values are `(raw − OFFSET) × SCALE × GEN_SCALE`, raw unsigned when
//!   `ANALOG:FORMAT` is `UNSIGNED`.

mod data;
mod format;
mod meta;
pub mod params;

pub use format::{C3d, FORMAT, X_SCREEN, ZERO_POINTS};

use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;

use crate::core::capture::Capture;
use crate::formats::error::{LoadError, ParseError, RawWarning};
use params::{Params, Processor};

/// A C3D file read: the capture, what the header and parameters declared, and warnings.
pub struct ParsedC3d {
    /// Points, analog channels, platforms, events.
    pub capture: Capture,
    /// Number format.
    pub processor: Processor,
    /// True for float storage.
    pub float: bool,
    /// Header facts for `info`.
    pub details: Vec<(String, String)>,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
}

/// Reading choices.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// A sample at exactly (0, 0, 0) is a gap (writers that mark lost points that way).
    pub zero_is_gap: bool,
}

/// The header's fields (512-byte block 1).
struct Header {
    points: u16,
    analog_words: u16,
    first_frame: u16,
    last_frame: u16,
    scale: f32,
    data_start: u16,
    analog_per_frame: u16,
    rate: f32,
}

fn header(b: &[u8], p: Processor) -> Header {
    let w = |i: usize| p.u16([b[2 * i], b[2 * i + 1]]);
    let f = |i: usize| p.f32([b[2 * i], b[2 * i + 1], b[2 * i + 2], b[2 * i + 3]]);
    Header {
        points: w(1),
        analog_words: w(2),
        first_frame: w(3),
        last_frame: w(4),
        scale: f(6),
        data_start: w(8),
        analog_per_frame: w(9),
        rate: f(10),
    }
}

/// Parses a C3D file held in memory.
pub fn parse_c3d(b: &[u8], options: ReadOptions) -> Result<ParsedC3d, ParseError> {
    parse_from(b, b.len(), data::Frames::Memory(b), options)
}

/// Reads a C3D file: its header and parameters, then its frames block by block, so that the
/// file is never in memory whole; `progress` hears the bytes read of the total and may stop
/// the read.
pub fn parse_c3d_file(
    path: &Path,
    options: ReadOptions,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Result<ParsedC3d, LoadError> {
    let io = |source| LoadError::Io { path: path.to_owned(), source };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    parse_c3d_read(&mut file, len, options, progress).map_err(|e| LoadError::from_binary(path, e))
}

/// [`parse_c3d_file`] from any reader of `len` bytes (a file, or bytes in memory). A file
/// whose header does not place the data after the parameters is read whole (its parameters
/// then say where the data is).
pub fn parse_c3d_read(
    file: &mut dyn Read,
    len: u64,
    options: ReadOptions,
    progress: &mut dyn FnMut(u64, u64) -> ControlFlow<()>,
) -> Result<ParsedC3d, ParseError> {
    if progress(0, len).is_break() {
        return Err(ParseError { offset: 0, kind: crate::formats::ParseErrorKind::Cancelled });
    }
    let mut head = Vec::new();
    let mut read_to = |head: &mut Vec<u8>, end: u64| {
        let at = head.len() as u64;
        let more = end.saturating_sub(at);
        let got =
            (&mut *file).take(more).read_to_end(head).map_err(|e| ParseError::invalid(at, format!("the file could not be read: {e}")))?;
        Ok::<bool, ParseError>(got as u64 == more)
    };
    let streamed = 'head: {
        if !read_to(&mut head, 512.min(len))? || head.len() < 512 || head[1] != 0x50 || head[0] == 0 {
            break 'head None;
        }
        let pstart = (head[0] as usize - 1) * 512;
        if !read_to(&mut head, (pstart as u64 + 4).max(512))? {
            break 'head None;
        }
        let Some(processor) = Processor::from_byte(head[pstart + 3]) else { break 'head None };
        let data_block = usize::from(header(&head, processor).data_start);
        let data_offset = data_block.saturating_sub(1) * 512;
        let placed = data_block > 0 && data_offset > pstart && data_offset as u64 <= len;
        (placed && read_to(&mut head, data_offset as u64)?).then_some(())
    };
    let Some(()) = streamed else {
        read_to(&mut head, u64::MAX)?;
        return parse_c3d(&head, options);
    };
    let progress = &mut |done| progress(done, len);
    let frames = data::Frames::File { file, block_bytes: data::BLOCK_BYTES, progress };
    parse_from(&head, len as usize, frames, options)
}

/// Parses a C3D file from its first bytes (`b`: the header, the parameters and perhaps more)
/// and its length, its frames from `frames`.
fn parse_from(b: &[u8], file_len: usize, frames: data::Frames, options: ReadOptions) -> Result<ParsedC3d, ParseError> {
    if b.len() < 512 {
        return Err(ParseError::eof(b.len() as u64, "the 512-byte C3D header"));
    }
    if b[1] != 0x50 {
        return Err(ParseError::expected(1, "0x50 in the header's second byte (a C3D file)", format!("0x{:02X}", b[1])));
    }
    if b[0] == 0 {
        return Err(ParseError::invalid(0, "the header names parameter block 0 (blocks count from 1)"));
    }
    let pstart = (b[0] as usize - 1) * 512;
    let Some(&proc_byte) = b.get(pstart + 3) else {
        return Err(ParseError::eof(
            b.len() as u64,
            format!("the parameter section at byte {pstart} (block {}), past the end of the file", b[0]),
        ));
    };
    let processor = Processor::from_byte(proc_byte).ok_or_else(|| {
        ParseError::expected((pstart + 3) as u64, "processor type 84 (Intel), 85 (DEC) or 86 (MIPS)", proc_byte.to_string())
    })?;
    let h = header(b, processor);
    let mut warnings = Vec::new();
    let params = params::parse(b, pstart, processor, &mut warnings)?;
    if params.is_empty() {
        warnings.push(RawWarning { offset: pstart as u64, message: "the parameter section is empty: the header's counts are used".into() });
    }
    let layout = layout(file_len, &h, &params, &mut warnings)?;
    let mut capture =
        Capture { point_rate_hz: layout.rate, first_frame: u32::from(h.first_frame.max(1)), frames: layout.frames, ..Default::default() };
    meta::points(&params, layout.points, &mut capture, &mut warnings);
    capture.analog = meta::analog_channels(&params, layout.channels, layout.rate * layout.samples as f64, layout.samples);
    let scales = point_scales(&params, h.scale, layout.points);
    let analog_scale = meta::analog_scaling(&params, layout.channels, &mut warnings);
    let decoding = data::Decoding { layout: &layout, processor, scales: &scales, analog: &analog_scale, options };
    data::decode(frames, &decoding, &mut capture, &mut warnings)?;
    capture.plates = meta::plates(&params, capture.analog.channels.len(), &mut warnings);
    capture.events = meta::events(&params, b, processor);
    capture.axes = meta::axes(&params);
    capture.kept = params.kept();
    let details = vec![
        ("processor".into(), processor.name().into()),
        ("storage".into(), if layout.float { "float" } else { "16-bit integer" }.into()),
        ("parameters".into(), params.len().to_string()),
    ];
    Ok(ParsedC3d { capture, processor, float: layout.float, details, warnings })
}

/// Where the data is and how it is laid out.
struct Layout {
    points: usize,
    channels: usize,
    samples: usize,
    float: bool,
    rate: f64,
    data_offset: usize,
    frame_bytes: usize,
    frames: usize,
}

/// Where the data section is and how its frames are laid out, checked against the file's length.
fn layout(file_len: usize, h: &Header, params: &Params, warnings: &mut Vec<RawWarning>) -> Result<Layout, ParseError> {
    let count = |g: &str, n: &str| params.get(g, n).and_then(params::Param::count);
    let points = point_count(h, params, warnings);
    let scale = params.get("POINT", "SCALE").and_then(params::Param::number).unwrap_or(f64::from(h.scale));
    let float = scale < 0.0;
    let rate = point_rate(h, params, warnings);
    let (channels, samples) = analog_layout(h, params, rate, warnings);
    let words = usize::from(h.analog_words);
    // The header's block, as readers do (Phoenix writes a different POINT:DATA_START);
    // the parameter only where the header's is 0 or past the end.
    let header_block = usize::from(h.data_start);
    let data_block = if header_block > 0 && (header_block - 1) * 512 <= file_len {
        header_block
    } else {
        count("POINT", "DATA_START").filter(|&d| d > 0.0).map_or(header_block, |d| d as usize)
    };
    if data_block == 0 {
        return Err(ParseError::invalid(16, "the header names data block 0 (blocks count from 1)"));
    }
    let data_offset = (data_block - 1) * 512;
    let word = if float { 4 } else { 2 };
    // Without a channel to read, the header's analog words are still in every frame.
    let analog_words = if channels == 0 { words } else { channels * samples };
    let frame_bytes = (points * 4 + analog_words) * word;
    let fits = |frames: usize| frame_bytes == 0 || data_offset.saturating_add(frames.saturating_mul(frame_bytes)) <= file_len;
    let declared = declared_frames(h, params, &fits, warnings);
    let available = file_len.saturating_sub(data_offset).checked_div(frame_bytes).unwrap_or(declared);
    if data_offset > file_len && declared > 0 {
        return Err(ParseError::eof(
            file_len as u64,
            format!("the data section at byte {data_offset} (block {data_block}), past the end of the file"),
        ));
    }
    if channels == 0 && words > 0 {
        let marker_bytes = points * 4 * word;
        warnings.push(header_over_parameters(params, words, (marker_bytes, frame_bytes), declared, file_len.saturating_sub(data_offset)));
    }
    let frames = if available < declared {
        warnings.push(RawWarning {
            offset: file_len as u64,
            message: format!(
                "the file is cut short: it holds {available} of the {declared} frames it declares (each {frame_bytes} bytes from byte {data_offset})"
            ),
        });
        available
    } else {
        declared
    };
    Ok(Layout { points, channels, samples, float, rate, data_offset, frame_bytes, frames })
}

/// The number of points: `POINT:USED` (warned about when the header disagrees), else the header's.
fn point_count(h: &Header, params: &Params, warnings: &mut Vec<RawWarning>) -> usize {
    match params.get("POINT", "USED").and_then(params::Param::count) {
        Some(n) => {
            if n as u16 != h.points {
                let at = params.get("POINT", "USED").map_or(0, |p| p.offset);
                warnings.push(RawWarning {
                    offset: at as u64,
                    message: format!("POINT:USED is {n} but the header says {} points: POINT:USED is used", h.points),
                });
            }
            n as usize
        }
        None => usize::from(h.points),
    }
}

/// The point rate: `POINT:RATE` when positive, else the header's; 1 Hz (with a warning) when
/// neither is a positive number.
fn point_rate(h: &Header, params: &Params, warnings: &mut Vec<RawWarning>) -> f64 {
    let rate = params.get("POINT", "RATE").and_then(params::Param::number).filter(|r| *r > 0.0).unwrap_or(f64::from(h.rate));
    if !(rate.is_finite() && rate > 0.0) {
        warnings.push(RawWarning {
            offset: 20,
            message: format!("the point rate ({rate}) is not a positive number: 1 frame per second is assumed"),
        });
    }
    if rate.is_finite() && rate > 0.0 { rate } else { 1.0 }
}

/// Analog channels and samples per frame as the header lays them out (`ANALOG:USED` for the
/// channel count), warning where `ANALOG:USED` or `ANALOG:RATE` disagree with it.
fn analog_layout(h: &Header, params: &Params, rate: f64, warnings: &mut Vec<RawWarning>) -> (usize, usize) {
    let channels = params
        .get("ANALOG", "USED")
        .and_then(params::Param::count)
        .map_or_else(|| usize::from(h.analog_words.checked_div(h.analog_per_frame).unwrap_or(0)), |n| n as usize);
    let words = usize::from(h.analog_words);
    let samples = words.checked_div(channels).unwrap_or(0);
    if channels > 0 && words % channels != 0 {
        warnings.push(RawWarning {
            offset: 4,
            message: format!("the header's {words} analog words per frame are not a multiple of {channels} channels"),
        });
    }
    if channels > 0
        && let Some(analog_rate) = params.get("ANALOG", "RATE").and_then(params::Param::number)
    {
        let ratio = analog_rate / rate;
        let at = params.get("ANALOG", "RATE").map_or(0, |p| p.offset) as u64;
        if (ratio - ratio.round()).abs() > 1e-3 * ratio.max(1.0) {
            warnings.push(RawWarning {
                offset: at,
                message: format!(
                    "ANALOG:RATE {analog_rate} Hz is not a multiple of the point rate {rate} Hz: {samples} samples per frame are read, as the header lays them out"
                ),
            });
        } else if ratio.round() as usize != samples {
            warnings.push(RawWarning {
                offset: at,
                message: format!(
                    "ANALOG:RATE {analog_rate} Hz gives {} samples per frame, the header lays out {samples}: the header is used",
                    ratio.round()
                ),
            });
        }
    }
    (channels, samples)
}

/// The warning for a header that lays out analog words while `ANALOG:USED` says no channel
/// (BTS Elite writes `ANALOG:USED` and `ANALOG:RATE` 0 over a header of 18 words a frame):
/// the header is believed, as it is what lays out the frames, and the words are skipped. The
/// data section's length (`data` bytes) says whether the file holds the header's layout
/// (`bytes`: a frame's markers alone, the header's whole frame).
fn header_over_parameters(params: &Params, words: usize, bytes: (usize, usize), frames: usize, data: usize) -> RawWarning {
    let at = params.get("ANALOG", "USED").map_or(4, |p| p.offset) as u64;
    let value = |name: &str| {
        let number = params.get("ANALOG", name).and_then(params::Param::number);
        number.map_or_else(|| format!("ANALOG:{name} is absent"), |n| format!("ANALOG:{name} is {n}"))
    };
    let (markers, whole) = bytes;
    // A data section is padded to a whole 512-byte block: a layout fits when what is left over is less.
    let fits = |frame: usize| data >= frame * frames && data - frame * frames < 512;
    let why = if fits(whole) {
        format!(
            "the file's {data}-byte data section holds {frames} frames of {whole} bytes as the header lays them out; without analog words they would fill {} bytes",
            markers * frames
        )
    } else {
        "the header is what lays out each frame's words".to_owned()
    };
    RawWarning {
        offset: at,
        message: format!(
            "the header says {words} analog words per frame but {} and {}: the header is believed ({why}); the analog words are skipped, since no channel is named to read them into",
            value("USED"),
            value("RATE")
        ),
    }
}

/// The frame count: `TRIAL`'s 32-bit fields beyond 65,535; else the header, unless it asks
/// for more frames than the data holds and `POINT:FRAMES` does not (NDI writes a wrong last
/// frame); else `POINT:FRAMES`.
fn declared_frames(h: &Header, params: &Params, fits: &dyn Fn(usize) -> bool, warnings: &mut Vec<RawWarning>) -> usize {
    let header_frames = if h.last_frame >= h.first_frame { usize::from(h.last_frame - h.first_frame) + 1 } else { 0 };
    let trial = |n: &str| {
        let v = params.get("TRIAL", n)?.counts();
        Some(v.first()? + v.get(1).copied().unwrap_or(0.0) * 65536.0)
    };
    if let (Some(start), Some(end)) = (trial("ACTUAL_START_FIELD"), trial("ACTUAL_END_FIELD"))
        && end >= start
        && end - start + 1.0 > 65535.0
    {
        return (end - start + 1.0) as usize;
    }
    let Some(param) = params.get("POINT", "FRAMES") else { return header_frames };
    let Some(n) = param.count().map(|n| n as usize) else { return header_frames };
    if n == header_frames {
        return n;
    }
    let (chosen, why) = if fits(header_frames) || !fits(n) {
        (header_frames, "the header's count is used")
    } else {
        (n, "the data holds POINT:FRAMES frames, so that is used")
    };
    warnings.push(RawWarning {
        offset: param.offset as u64,
        message: format!("POINT:FRAMES is {n} but the header's frames {}–{} make {header_frames}: {why}", h.first_frame, h.last_frame),
    });
    chosen
}

fn point_scales(params: &Params, header_scale: f32, points: usize) -> Vec<f32> {
    let v = params.get("POINT", "SCALE").map(params::Param::numbers).unwrap_or_default();
    let first = v.first().copied().unwrap_or(f64::from(header_scale)).abs() as f32;
    (0..points).map(|p| if v.len() == points { v[p].abs() as f32 } else { first }).collect()
}

#[cfg(test)]
mod tests;
