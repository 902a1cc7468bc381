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

use glam::Vec3;

use super::error::{ParseError, RawWarning};
use super::text::{decode_name, describe, parse_number_at};
use crate::core::pose::compose_rotation;
use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{ChannelKind, Clip, EulerConvention, Joint, PositionRule, Skeleton};

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

/// How the data type orders its transforms (`HTRS` → T, R, S).
#[derive(Clone, Copy, Debug, PartialEq)]
struct DataType {
    global: bool,
    rotation_before_translation: bool,
    scale_last: bool,
    has_scale: bool,
}

struct Header {
    global: Option<bool>,
    data_type: Option<DataType>,
    frames: Option<u64>,
    segments: Option<u64>,
    fps: Option<f64>,
    order: Option<[ChannelKind; 3]>,
    unit_text: Option<String>,
    radians: bool,
    up_text: Option<String>,
    bone_axis: Vec3,
    scale_factor: f32,
}

struct Segment {
    name: String,
    name_offset: usize,
    parent: Option<String>,
    parent_offset: usize,
    base: Option<([f32; 7], usize)>,
    rows: Vec<[f32; 7]>,
    block_offset: Option<usize>,
}

/// One line without its comment, with the byte offset of its start.
struct Line<'a> {
    start: usize,
    text: &'a [u8],
}

impl<'a> Line<'a> {
    /// Tokens with their absolute offsets; tab-separated lines split on tabs only, so names may hold spaces.
    fn tokens(&self) -> Vec<(usize, &'a [u8])> {
        let tabbed = self.text.contains(&b'\t');
        let sep = |c: u8| if tabbed { c == b'\t' } else { c == b' ' || c == b'\t' };
        let mut out = Vec::new();
        let mut i = 0;
        let t = self.text;
        while i < t.len() {
            while i < t.len() && sep(t[i]) {
                i += 1;
            }
            let s = i;
            while i < t.len() && !sep(t[i]) {
                i += 1;
            }
            let tok = trim(&t[s..i]);
            if !tok.is_empty() {
                let lead = t[s..i].iter().take_while(|c| c.is_ascii_whitespace()).count();
                out.push((self.start + s + lead, tok));
            }
        }
        out
    }
}

fn trim(b: &[u8]) -> &[u8] {
    let s = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let e = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(s, |e| e + 1);
    &b[s..e.max(s)]
}

fn lines(b: &[u8]) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |e| start + e);
        let raw = &b[start..end];
        let raw = memchr::memchr(b'#', raw).map_or(raw, |h| &raw[..h]);
        let line = Line { start, text: raw.strip_suffix(b"\r").unwrap_or(raw) };
        start = end + 1;
        Some(line)
    })
}

fn number(tok: &[u8], offset: usize, what: &str) -> Result<f64, ParseError> {
    match super::text::parse_number(tok) {
        Some((v, n)) if n == tok.len() && v.is_finite() => Ok(v),
        _ => Err(ParseError::expected(offset as u64, what, describe(tok))),
    }
}

fn axis(tok: &[u8], offset: usize, what: &str) -> Result<Vec3, ParseError> {
    let t = tok.to_ascii_uppercase();
    let (sign, letter) = match t.as_slice() {
        [b'-', c] => (-1.0, *c),
        [b'+', c] | [c] => (1.0, *c),
        _ => return Err(ParseError::expected(offset as u64, what, describe(tok))),
    };
    let v = match letter {
        b'X' => Vec3::X,
        b'Y' => Vec3::Y,
        b'Z' => Vec3::Z,
        _ => return Err(ParseError::expected(offset as u64, what, describe(tok))),
    };
    Ok(v * sign)
}

fn parse_data_type(tok: &[u8], offset: usize) -> Result<DataType, ParseError> {
    let t = tok.to_ascii_uppercase();
    let bad = || ParseError::expected(offset as u64, "a data type such as HTRS or GTRS (H or G, then T, R and S in order)", describe(tok));
    let (first, rest) = t.split_first().ok_or_else(bad)?;
    let global = match first {
        b'H' => false,
        b'G' => true,
        _ => return Err(bad()),
    };
    let pos = |c: u8| rest.iter().position(|&x| x == c);
    let mut sorted = rest.to_vec();
    sorted.sort_unstable();
    if sorted != b"RST" && sorted != b"RT" {
        return Err(bad());
    }
    let (t, r) = (pos(b'T').unwrap_or(0), pos(b'R').unwrap_or(0));
    let s = pos(b'S');
    Ok(DataType { global, rotation_before_translation: r < t, scale_last: s.is_none_or(|s| s == rest.len() - 1), has_scale: s.is_some() })
}

fn parse_order(tok: &[u8], offset: usize) -> Result<[ChannelKind; 3], ParseError> {
    let t = tok.to_ascii_uppercase();
    let mut out = [ChannelKind::RotateX; 3];
    let mut seen = [false; 3];
    if t.len() != 3 {
        return Err(ParseError::expected(offset as u64, "an Euler order (XYZ, ZYX, ...)", describe(tok)));
    }
    for (k, c) in t.iter().enumerate() {
        let (i, kind) = match c {
            b'X' => (0, ChannelKind::RotateX),
            b'Y' => (1, ChannelKind::RotateY),
            b'Z' => (2, ChannelKind::RotateZ),
            _ => return Err(ParseError::expected(offset as u64, "an Euler order (XYZ, ZYX, ...)", describe(tok))),
        };
        if seen[i] {
            return Err(ParseError::expected(offset as u64, "an Euler order naming X, Y and Z once each", describe(tok)));
        }
        seen[i] = true;
        out[k] = kind;
    }
    Ok(out)
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
    let find = |segs: &[Segment], name: &str| {
        segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)))
    };
    for line in lines(b) {
        let toks = line.tokens();
        let Some(&(off0, first)) = toks.first() else { continue };
        if section == Section::End {
            warnings.push(RawWarning { offset: off0 as u64, message: "text after [EndOfFile] ignored".into() });
            break;
        }
        if first.starts_with(b"[") {
            let text = trim(line.text);
            let Some(close) = text.iter().position(|&c| c == b']') else {
                return Err(ParseError::expected(off0 as u64, "a section name closed by ']'", describe(text)));
            };
            let name = decode_name(trim(&text[1..close]));
            section = match name.to_ascii_lowercase().as_str() {
                "header" => {
                    seen_header = true;
                    Section::Header
                }
                "segmentnames&hierarchy" | "segmentnames & hierarchy" | "segmentnames" => Section::Hierarchy,
                "baseposition" => Section::Base,
                "endoffile" => {
                    saw_end = true;
                    Section::End
                }
                _ => {
                    if !seen_header {
                        return Err(ParseError::expected(off0 as u64, "[Header]", describe(text)));
                    }
                    // GTR files may list segments only through their blocks.
                    let i = match find(&segs, &name) {
                        Some(i) => i,
                        None if h.global == Some(true) || segs.is_empty() => {
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
            };
            continue;
        }
        match section {
            Section::None => return Err(ParseError::expected(off0 as u64, "[Header] (the first section of an HTR file)", describe(first))),
            Section::Header => header_line(&mut h, &toks, &mut details, &mut warnings)?,
            Section::Hierarchy => {
                let name = decode_name(first);
                if find(&segs, &name).is_some_and(|i| segs[i].name == name) {
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
            }
            Section::Base => {
                let name = decode_name(first);
                let i = match find(&segs, &name) {
                    Some(i) => i,
                    None if h.global == Some(true) => {
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
            }
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
    build(b.len(), h, segs, details, warnings, saw_end)
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

fn header_line(
    h: &mut Header,
    toks: &[(usize, &[u8])],
    details: &mut Vec<(String, String)>,
    warnings: &mut Vec<RawWarning>,
) -> Result<(), ParseError> {
    let (off, key) = toks[0];
    let Some(&(voff, value)) = toks.get(1) else {
        return Err(ParseError::expected((off + key.len()) as u64, format!("a value after {}", decode_name(key)), "end of line"));
    };
    let key_text = decode_name(key);
    let value_text = decode_name(value);
    let count = |what: &str| -> Result<u64, ParseError> {
        let v = number(value, voff, what)?;
        if v < 0.0 || v.fract() != 0.0 || v > 1e9 {
            return Err(ParseError::expected(voff as u64, what, describe(value)));
        }
        Ok(v as u64)
    };
    match key_text.to_ascii_lowercase().as_str() {
        "filetype" => {
            h.global = Some(match value_text.to_ascii_lowercase().as_str() {
                "htr" => false,
                "gtr" => true,
                _ => return Err(ParseError::expected(voff as u64, "FileType htr or gtr", describe(value))),
            })
        }
        "datatype" => h.data_type = Some(parse_data_type(value, voff)?),
        "fileversion" => {}
        "numsegments" => h.segments = Some(count("a segment count")?),
        "numframes" => h.frames = Some(count("a frame count")?),
        "dataframerate" => {
            let fps = number(value, voff, "a frame rate")?;
            if fps <= 0.0 {
                return Err(ParseError::expected(voff as u64, "a frame rate above 0", describe(value)));
            }
            h.fps = Some(fps);
        }
        "eulerrotationorder" => h.order = Some(parse_order(value, voff)?),
        "calibrationunits" => h.unit_text = Some(value_text.clone()),
        "rotationunits" => {
            let v = value_text.to_ascii_lowercase();
            h.radians = if v.starts_with("rad") {
                true
            } else if v.starts_with("deg") {
                false
            } else {
                return Err(ParseError::expected(voff as u64, "RotationUnits Degrees or Radians", describe(value)));
            }
        }
        "globalaxisofgravity" => {
            axis(value, voff, "an axis (X, Y or Z)")?;
            h.up_text = Some(value_text.clone());
        }
        "bonelengthaxis" => h.bone_axis = axis(value, voff, "an axis (X, Y or Z)")?,
        "scalefactor" => {
            let s = number(value, voff, "a scale factor")?;
            if s > 0.0 {
                h.scale_factor = s as f32;
            } else {
                warnings.push(RawWarning { offset: voff as u64, message: format!("ScaleFactor {value_text} is not positive: 1 used") });
            }
        }
        _ => {
            warnings.push(RawWarning { offset: off as u64, message: format!("unknown header keyword '{key_text}' ignored") });
            return Ok(());
        }
    }
    details.push((key_text, value_text));
    Ok(())
}

/// Orders segments parents first (stable), or names the cycle / unknown parent.
fn parents_first(segs: &[Segment]) -> Result<Vec<usize>, ParseError> {
    let index =
        |name: &str| segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)));
    let mut parent_of = Vec::with_capacity(segs.len());
    for s in segs {
        parent_of.push(match &s.parent {
            None => None,
            Some(p) => Some(index(p).ok_or_else(|| {
                ParseError::invalid(s.parent_offset as u64, format!("parent '{p}' of segment '{}' is not a listed segment", s.name))
            })?),
        });
    }
    let mut placed = vec![false; segs.len()];
    let mut order = Vec::with_capacity(segs.len());
    while order.len() < segs.len() {
        let before = order.len();
        for i in 0..segs.len() {
            if !placed[i] && parent_of[i].is_none_or(|p| placed[p]) {
                placed[i] = true;
                order.push(i);
            }
        }
        if order.len() == before {
            let i = (0..segs.len()).find(|&i| !placed[i]).unwrap_or(0);
            return Err(ParseError::invalid(segs[i].name_offset as u64, format!("segment '{}' is its own ancestor", segs[i].name)));
        }
    }
    Ok(order)
}

fn build(
    len: usize,
    h: Header,
    mut segs: Vec<Segment>,
    mut details: Vec<(String, String)>,
    mut warnings: Vec<RawWarning>,
    saw_end: bool,
) -> Result<ParsedHtr, ParseError> {
    let end = len as u64;
    let Some(global) = h.global else {
        return Err(ParseError::eof(end, "a FileType line in [Header] (htr or gtr)"));
    };
    if segs.is_empty() {
        return Err(ParseError::eof(end, "segments ([SegmentNames&Hierarchy] lists none)"));
    }
    if !saw_end {
        warnings.push(RawWarning { offset: end, message: "file ends without [EndOfFile]: it may be truncated".into() });
    }
    let dt = h.data_type.unwrap_or(DataType { global, rotation_before_translation: false, scale_last: true, has_scale: true });
    let order = h.order.unwrap_or_else(|| {
        warnings.push(RawWarning { offset: 0, message: "no EulerRotationOrder in [Header]: ZYX assumed".into() });
        [ChannelKind::RotateZ, ChannelKind::RotateY, ChannelKind::RotateX]
    });
    let fps = h.fps.unwrap_or_else(|| {
        warnings.push(RawWarning { offset: 0, message: "no DataFrameRate in [Header]: 30 fps assumed".into() });
        30.0
    });
    if let Some(n) = h.segments.filter(|&n| n != segs.len() as u64) {
        warnings.push(RawWarning { offset: 0, message: format!("NumSegments says {n}, the file has {} segments", segs.len()) });
    }
    if global {
        segs.iter_mut().for_each(|s| s.parent = None);
    }
    for s in &segs {
        if s.base.is_none() {
            return Err(ParseError::invalid(s.name_offset as u64, format!("segment '{}' has no [BasePosition] line", s.name)));
        }
        if s.block_offset.is_none() && h.frames != Some(0) {
            return Err(ParseError::eof(end, format!("a frame block [{}] for segment '{}'", s.name, s.name)));
        }
    }
    let frames = segs.iter().map(|s| s.rows.len()).min().unwrap_or(0);
    let most = segs.iter().map(|s| s.rows.len()).max().unwrap_or(0);
    if most != frames {
        let short = segs.iter().find(|s| s.rows.len() == frames).map_or("", |s| s.name.as_str());
        warnings.push(RawWarning {
            offset: end,
            message: format!("segment '{short}' has {frames} frames, others up to {most}: the clip is cut to {frames}"),
        });
    }
    if let Some(d) = h.frames.filter(|&d| d != frames as u64) {
        warnings.push(RawWarning { offset: end, message: format!("NumFrames says {d}, the file holds {frames} frames: {frames} used") });
    }
    let to_rad = if h.radians { 1.0 } else { std::f32::consts::PI / 180.0 };
    let scale = h.scale_factor;
    let axis_kind = if h.bone_axis.x != 0.0 {
        ChannelKind::ScaleX
    } else if h.bone_axis.y != 0.0 {
        ChannelKind::ScaleY
    } else {
        ChannelKind::ScaleZ
    };
    let order_list = parents_first(&segs)?;
    let mut new_index = vec![0usize; segs.len()];
    for (k, &i) in order_list.iter().enumerate() {
        new_index[i] = k;
    }
    let index =
        |name: &str| segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)));
    let mut joints = Vec::with_capacity(segs.len() * 2);
    let mut base_rot = Vec::with_capacity(segs.len());
    for &i in &order_list {
        let s = &segs[i];
        let (base, _) = s.base.unwrap_or(([0.0; 7], 0));
        let r0 = compose_rotation(&order, &order.map(|k| base[3 + column(k)] * to_rad), EulerConvention::FirstOutermost);
        let t0 = Vec3::new(base[0], base[1], base[2]) * scale;
        let parent = s.parent.as_deref().and_then(index).map(|p| new_index[p]);
        let offset = if dt.rotation_before_translation { r0 * t0 } else { t0 };
        let mut j = Joint::new(s.name.clone(), parent, offset);
        j.pre_rotation = r0;
        j.channels =
            vec![ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ, order[0], order[1], order[2], axis_kind];
        j.euler = EulerConvention::FirstOutermost;
        j.details.push(("bone length".into(), format!("{}", base[6] * scale)));
        j.details.push(("base rotation (file order Rx Ry Rz)".into(), format!("{} {} {}", base[3], base[4], base[5])));
        joints.push(j);
        base_rot.push((r0, t0));
    }
    // End markers for leaves, after every segment so the channel layout stays segment-only.
    let n_seg = joints.len();
    for k in 0..n_seg {
        if !joints.iter().any(|j| j.parent == Some(k)) {
            let s = &segs[order_list[k]];
            let length = s.base.map_or(0.0, |(b, _)| b[6]) * scale;
            let mut end_joint = Joint::new(format!("{}/End", s.name), Some(k), h.bone_axis * length);
            end_joint.is_end_site = true;
            joints.push(end_joint);
        }
    }
    let cpf = 7 * n_seg;
    let mut values = vec![0f32; cpf * frames];
    let mut zero_scale = Vec::new();
    let mut non_unit_scale_offset = None;
    for (k, &i) in order_list.iter().enumerate() {
        let s = &segs[i];
        let (r0, t0) = base_rot[k];
        let mut zeros = 0usize;
        for (f, row) in s.rows.iter().take(frames).enumerate() {
            let out = &mut values[f * cpf + k * 7..f * cpf + k * 7 + 7];
            let ti = Vec3::new(row[0], row[1], row[2]) * scale;
            let t = if dt.rotation_before_translation {
                // M = R0·Ri·T: the same point as T(R0·Ri·t)·R0·Ri, minus the offset R0·t0.
                let angles = order.map(|c| row[3 + column(c)] * to_rad);
                let ri = compose_rotation(&order, &angles, EulerConvention::FirstOutermost);
                r0 * ri * (t0 + ti) - r0 * t0
            } else {
                ti
            };
            out[0] = t.x;
            out[1] = t.y;
            out[2] = t.z;
            for (c, kind) in order.iter().enumerate() {
                out[3 + c] = row[3 + column(*kind)] * to_rad;
            }
            let mut sf = row[6];
            if sf == 0.0 {
                zeros += 1;
                sf = 1.0;
            }
            if (sf - 1.0).abs() > 1e-6 && !dt.scale_last && non_unit_scale_offset.is_none() {
                non_unit_scale_offset = s.block_offset;
            }
            out[6] = sf;
        }
        if zeros > 0 {
            zero_scale.push((s.name.clone(), zeros, s.block_offset.unwrap_or(0)));
        }
    }
    if let Some(off) = non_unit_scale_offset {
        return Err(ParseError::invalid(
            off as u64,
            "bone scale factors other than 1 with a DataType that scales before rotating or translating: \
             skelview reads scale only as the last transform (HTRS, HRTS)",
        ));
    }
    if !zero_scale.is_empty() {
        let (name, n, off) = &zero_scale[0];
        let more = if zero_scale.len() > 1 { format!(" (and on {} more segments)", zero_scale.len() - 1) } else { String::new() };
        warnings.push(RawWarning {
            offset: *off as u64,
            message: format!(
                "BoneScaleFactor is 0 on {n} frames of segment '{name}'{more}: treated as 1, since a zero scale would collapse the bone and everything below it"
            ),
        });
    }
    let skeleton = Skeleton::new(joints, PositionRule::Add).map_err(|e| ParseError::invalid(0, e.to_string()))?;
    let clip = Clip::new(1.0 / fps, cpf, frames, values);
    let unit = h.unit_text.as_deref().and_then(|u| LengthUnit::parse(u));
    if let (Some(text), None) = (&h.unit_text, unit) {
        warnings.push(RawWarning {
            offset: 0,
            message: format!("CalibrationUnits '{text}' is not a unit skelview knows: detected from body size"),
        });
    }
    let up = match h.up_text.as_deref().map(|t| t.trim_start_matches('+').to_ascii_uppercase()) {
        Some(t) if t == "Y" => Some(UpAxis::Y),
        Some(t) if t == "Z" => Some(UpAxis::Z),
        Some(t) => {
            warnings.push(RawWarning {
                offset: 0,
                message: format!("GlobalAxisofGravity {t} is not +Y or +Z: up axis detected from the pose"),
            });
            None
        }
        None => None,
    };
    if dt.rotation_before_translation {
        details.push(("translations".into(), "rotated into the parent frame (rotation-first DataType)".into()));
    }
    Ok(ParsedHtr { skeleton, clip, warnings, details, declared_frames: h.frames, unit, unit_text: h.unit_text, up, radians: h.radians })
}

/// Column (0, 1, 2 for X, Y, Z) of a rotation channel's angle in an `Rx Ry Rz` row.
fn column(kind: ChannelKind) -> usize {
    match kind {
        ChannelKind::RotateX => 0,
        ChannelKind::RotateY => 1,
        _ => 2,
    }
}
