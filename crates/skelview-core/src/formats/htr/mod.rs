//! Motion Analysis HTR (hierarchical translation-rotation) and GTR (global, no hierarchy).
//!
//! A segment's local transform is `M = T · R0 · Ri · S` (spec §3.2, eq. 3.6): `T` the base
//! translation plus the frame's, `R0` the base rotation, `Ri` the frame's Euler rotation (both
//! composed in the header's `EulerRotationOrder`, first listed outermost, as §2.2 and the
//! reference parser's `glRotatef` sequence do), and `S` the frame's bone scale factor along
//! `BoneLengthAxis` (it "accounts for the variations in child segment translations", so it
//! scales the children too). Each segment becomes a joint with `offset = base translation`,
//! `pre_rotation = R0`, channels `Tx Ty Tz` (added to the offset), the three rotations in
//! header order and one scale channel on the bone axis. Each leaf segment also gets a
//! `<segment>/End` marker at `BoneLength` along the bone axis, so its bone is drawn.

mod build;
mod format;
mod header;

pub use format::{FORMAT, Htr};

use super::error::{ParseError, RawWarning};
use super::text::{decode_name, describe, parse_number_at};
use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{Clip, Skeleton};
use glam::Vec3;
use header::{DataType, Header, Line, header_line, lines, number, trim};

/// An HTR/GTR file turned into a skeleton and clip, with what its header declared.
pub struct ParsedHtr {
    /// Segments (parents first) and one end marker per leaf.
    pub skeleton: Skeleton,
    /// One row per frame.
    pub clip: Clip,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
    /// Header facts for `info` and the viewer.
    pub details: Vec<(String, String)>,
    /// `NumFrames` from the header.
    pub declared_frames: Option<u64>,
    /// `CalibrationUnits`, when it names a unit skelview knows.
    pub unit: Option<LengthUnit>,
    /// `CalibrationUnits` as written.
    pub unit_text: Option<String>,
    /// `GlobalAxisofGravity`, when it is Y or Z.
    pub up: Option<UpAxis>,
    /// True for `RotationUnits Radians`.
    pub radians: bool,
}

pub(super) struct Segment {
    name: String,
    name_offset: usize,
    parent: Option<String>,
    parent_offset: usize,
    base: Option<([f32; 7], usize)>,
    rows: Vec<[f32; 7]>,
    block_offset: Option<usize>,
}

#[derive(PartialEq)]
enum Section {
    None,
    Header,
    Hierarchy,
    Base,
    Segment(usize),
    End,
}

/// Parses an HTR or GTR file.
pub fn parse_htr(b: &[u8]) -> Result<ParsedHtr, ParseError> {
    let b = b.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(b);
    let mut warnings = Vec::new();
    let mut h = Header {
        global: None,
        data_type: None,
        frames: None,
        segments: None,
        fps: None,
        order: None,
        unit_text: None,
        radians: false,
        up_text: None,
        bone_axis: Vec3::Y,
        scale_factor: 1.0,
    };
    let mut details: Vec<(String, String)> = Vec::new();
    let mut segs: Vec<Segment> = Vec::new();
    let mut section = Section::None;
    let mut seen_header = false;
    let mut saw_end = false;
    for line in lines(b) {
        let toks = line.tokens();
        let Some(&(off0, first)) = toks.first() else { continue };
        if section == Section::End {
            warnings.push(RawWarning { offset: off0 as u64, message: "text after [EndOfFile] ignored".into() });
            break;
        }
        if first.starts_with(b"[") {
            section = section_heading(&line, off0, seen_header, h.global, &mut segs)?;
            seen_header |= section == Section::Header;
            saw_end |= section == Section::End;
            continue;
        }
        match section {
            Section::None => return Err(ParseError::expected(off0 as u64, "[Header] (the first section of an HTR file)", describe(first))),
            Section::Header => header_line(&mut h, &toks, &mut details, &mut warnings)?,
            Section::Hierarchy => hierarchy_line(&mut segs, &toks)?,
            Section::Base => base_line(&mut segs, &line, &toks, h.global)?,
            Section::Segment(i) => {
                let dt = h.data_type.unwrap_or(DataType {
                    global: false,
                    rotation_before_translation: false,
                    scale_last: true,
                    has_scale: true,
                });
                let row = frame_row(b, &line, dt.has_scale)?;
                segs[i].rows.push(row);
            }
            Section::End => {}
        }
    }
    build::build(b.len(), h, segs, details, warnings, saw_end)
}

/// The segment named `name`: exact match first, then ignoring ASCII case.
fn find(segs: &[Segment], name: &str) -> Option<usize> {
    segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)))
}

/// Reads a `[Section]` line (first token at `off0`); any name not a known section opens the
/// frame block of that segment, which GTR files may list only this way.
fn section_heading(
    line: &Line,
    off0: usize,
    seen_header: bool,
    global: Option<bool>,
    segs: &mut Vec<Segment>,
) -> Result<Section, ParseError> {
    let text = trim(line.text);
    let Some(close) = text.iter().position(|&c| c == b']') else {
        return Err(ParseError::expected(off0 as u64, "a section name closed by ']'", describe(text)));
    };
    let name = decode_name(trim(&text[1..close]));
    Ok(match name.to_ascii_lowercase().as_str() {
        "header" => Section::Header,
        "segmentnames&hierarchy" | "segmentnames & hierarchy" | "segmentnames" => Section::Hierarchy,
        "baseposition" => Section::Base,
        "endoffile" => Section::End,
        _ => {
            if !seen_header {
                return Err(ParseError::expected(off0 as u64, "[Header]", describe(text)));
            }
            // GTR files may list segments only through their blocks.
            let i = match find(segs, &name) {
                Some(i) => i,
                None if global == Some(true) || segs.is_empty() => {
                    segs.push(Segment::new(name.clone(), off0, None, off0));
                    segs.len() - 1
                }
                None => {
                    return Err(ParseError::invalid(
                        off0 as u64,
                        format!("frame block for segment '{name}', which [SegmentNames&Hierarchy] does not list"),
                    ));
                }
            };
            if segs[i].block_offset.is_some() {
                return Err(ParseError::invalid(off0 as u64, format!("second frame block for segment '{name}'")));
            }
            segs[i].block_offset = Some(off0);
            Section::Segment(i)
        }
    })
}

/// Reads a `[SegmentNames&Hierarchy]` line: `segment parent` (or `GLOBAL` for a root).
fn hierarchy_line(segs: &mut Vec<Segment>, toks: &[(usize, &[u8])]) -> Result<(), ParseError> {
    let (off0, first) = toks[0];
    let name = decode_name(first);
    if find(segs, &name).is_some_and(|i| segs[i].name == name) {
        return Err(ParseError::invalid(off0 as u64, format!("segment '{name}' is listed twice")));
    }
    let (parent, parent_offset) = match toks.get(1) {
        Some(&(o, p)) if !p.eq_ignore_ascii_case(b"GLOBAL") => (Some(decode_name(p)), o),
        Some(&(o, _)) => (None, o),
        None => {
            return Err(ParseError::expected((off0 + first.len()) as u64, "a parent segment name or GLOBAL", "end of line"));
        }
    };
    segs.push(Segment::new(name, off0, parent, parent_offset));
    Ok(())
}

/// Reads a `[BasePosition]` line: `segment Tx Ty Tz Rx Ry Rz BoneLength`; a GTR file may name
/// segments here first.
fn base_line(segs: &mut Vec<Segment>, line: &Line, toks: &[(usize, &[u8])], global: Option<bool>) -> Result<(), ParseError> {
    let (off0, first) = toks[0];
    let name = decode_name(first);
    let i = match find(segs, &name) {
        Some(i) => i,
        None if global == Some(true) => {
            segs.push(Segment::new(name.clone(), off0, None, off0));
            segs.len() - 1
        }
        None => return Err(ParseError::invalid(off0 as u64, format!("base position for unknown segment '{name}'"))),
    };
    let mut v = [0f32; 7];
    for (k, slot) in v.iter_mut().enumerate() {
        let Some(&(o, t)) = toks.get(k + 1) else {
            let end = line.start + line.text.len();
            return Err(ParseError::expected(end as u64, "7 numbers: Tx Ty Tz Rx Ry Rz BoneLength", format!("{} numbers", k)));
        };
        *slot = number(t, o, "a number (Tx Ty Tz Rx Ry Rz BoneLength)")? as f32;
    }
    segs[i].base = Some((v, off0));
    Ok(())
}

impl Segment {
    fn new(name: String, name_offset: usize, parent: Option<String>, parent_offset: usize) -> Self {
        Self { name, name_offset, parent, parent_offset, base: None, rows: Vec::new(), block_offset: None }
    }
}

/// `frame Tx Ty Tz Rx Ry Rz [SF]`, parsed straight from the bytes (the hot loop).
fn frame_row(b: &[u8], line: &Line, has_scale: bool) -> Result<[f32; 7], ParseError> {
    let end = line.start + line.text.len();
    let n = if has_scale { 8 } else { 7 };
    let mut out = [0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let mut i = line.start;
    for k in 0..n {
        while i < end && (b[i] == b' ' || b[i] == b'\t') {
            i += 1;
        }
        if i >= end {
            let what = if has_scale { "8 values: frame Tx Ty Tz Rx Ry Rz BoneScaleFactor" } else { "7 values: frame Tx Ty Tz Rx Ry Rz" };
            return Err(ParseError::expected(i as u64, what, format!("{k} values")));
        }
        let (v, next) = match parse_number_at(&b[..end], i) {
            Some((v, next)) if v.is_finite() && !(v as f32).is_finite() => {
                return Err(ParseError::invalid(i as u64, format!("number {} does not fit a 32-bit float", describe(&b[i..next]))));
            }
            Some((v, next)) if v.is_finite() && (next >= end || matches!(b[next], b' ' | b'\t' | b'\r')) => (v, next),
            _ => {
                let tok_end = b[i..end].iter().position(|c| c.is_ascii_whitespace()).map_or(end, |e| i + e);
                return Err(ParseError::expected(i as u64, "a number", describe(&b[i..tok_end])));
            }
        };
        if k > 0 {
            out[k - 1] = v as f32;
        }
        i = next;
    }
    while i < end && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i < end {
        let what = if has_scale { "end of line after BoneScaleFactor" } else { "end of line after Rz" };
        return Err(ParseError::expected(i as u64, what, describe(&b[i..end])));
    }
    Ok(out)
}
