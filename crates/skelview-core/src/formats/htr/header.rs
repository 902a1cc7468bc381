//! HTR lines, tokens and the `[Header]` keywords.

use glam::Vec3;

use crate::core::ChannelKind;
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe};

/// How the data type orders its transforms (`HTRS` → T, R, S).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DataType {
    pub(super) global: bool,
    pub(super) rotation_before_translation: bool,
    pub(super) scale_last: bool,
    pub(super) has_scale: bool,
}

pub(super) struct Header {
    pub(super) global: Option<bool>,
    pub(super) data_type: Option<DataType>,
    pub(super) frames: Option<u64>,
    pub(super) segments: Option<u64>,
    pub(super) fps: Option<f64>,
    pub(super) order: Option<[ChannelKind; 3]>,
    pub(super) unit_text: Option<String>,
    pub(super) radians: bool,
    pub(super) up_text: Option<String>,
    pub(super) bone_axis: Vec3,
    pub(super) scale_factor: f32,
}

/// One line without its comment, with the byte offset of its start.
pub(super) struct Line<'a> {
    pub(super) start: usize,
    pub(super) text: &'a [u8],
}

impl<'a> Line<'a> {
    /// Tokens with their absolute offsets; tab-separated lines split on tabs only, so names may hold spaces.
    pub(super) fn tokens(&self) -> Vec<(usize, &'a [u8])> {
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

pub(super) fn trim(b: &[u8]) -> &[u8] {
    let s = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let e = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(s, |e| e + 1);
    &b[s..e.max(s)]
}

pub(super) fn lines(b: &[u8]) -> impl Iterator<Item = Line<'_>> {
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

pub(super) fn number(tok: &[u8], offset: usize, what: &str) -> Result<f64, ParseError> {
    match crate::formats::text::parse_number(tok) {
        // Values are kept as 32-bit floats: a larger one would turn to infinity unseen.
        Some((v, n)) if n == tok.len() && v.is_finite() && !(v as f32).is_finite() => {
            Err(ParseError::invalid(offset as u64, format!("number {} does not fit a 32-bit float", describe(tok))))
        }
        Some((v, n)) if n == tok.len() && v.is_finite() => Ok(v),
        _ => Err(ParseError::expected(offset as u64, what, describe(tok))),
    }
}

pub(super) fn axis(tok: &[u8], offset: usize, what: &str) -> Result<Vec3, ParseError> {
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

pub(super) fn parse_data_type(tok: &[u8], offset: usize) -> Result<DataType, ParseError> {
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

pub(super) fn parse_order(tok: &[u8], offset: usize) -> Result<[ChannelKind; 3], ParseError> {
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

pub(super) fn header_line(
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
