//! The HIERARCHY section and the `Frames:` / `Frame Time:` lines of a BVH file.

use std::collections::HashSet;

use glam::Vec3;

use crate::core::{ChannelKind, EulerConvention, Joint, PositionRule, Skeleton};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe, is_blank, is_space, parse_number};

/// Most channels one joint may declare; real files use 3 or 6.
const MAX_CHANNELS_PER_JOINT: u64 = 16;

/// Frame time assumed when a file says `Frame Time: 0`.
pub const DEFAULT_FRAME_TIME_SECS: f64 = 1.0 / 30.0;

/// Everything before the first motion row.
#[derive(Debug)]
pub struct Header {
    /// The joints, end sites included.
    pub skeleton: Skeleton,
    /// `Frames:` as written.
    pub declared_frames: u64,
    /// Byte offset of the `Frames:` line.
    pub frames_offset: usize,
    /// `Frame Time:` as written (or the default when it was 0).
    pub frame_time_secs: f64,
    /// Byte offset of the first motion row.
    pub motion_start: usize,
    /// Problems that did not stop the parse.
    pub warnings: Vec<RawWarning>,
}

/// Why the header could not be parsed from the bytes at hand.
#[derive(Debug)]
pub enum HeaderError {
    /// The buffer ends inside the header: read more and try again.
    NeedMore,
    /// The header is malformed.
    Parse(ParseError),
}

impl From<ParseError> for HeaderError {
    fn from(e: ParseError) -> Self {
        Self::Parse(e)
    }
}

type Result<T> = std::result::Result<T, HeaderError>;

struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
    /// True when `b` holds the whole file, so its end is the end of the file.
    complete: bool,
}

impl<'a> Cursor<'a> {
    fn eof(&self, what: &str) -> HeaderError {
        if self.complete { HeaderError::Parse(ParseError::eof(self.pos as u64, what)) } else { HeaderError::NeedMore }
    }

    fn skip_space(&mut self) {
        while self.pos < self.b.len() && is_space(self.b[self.pos]) {
            self.pos += 1;
        }
    }

    /// The next whitespace-delimited token as a byte range.
    fn token(&mut self, what: &str) -> Result<(usize, usize)> {
        self.skip_space();
        let start = self.pos;
        while self.pos < self.b.len() && !is_space(self.b[self.pos]) {
            self.pos += 1;
        }
        if self.pos == self.b.len() && !self.complete {
            return Err(HeaderError::NeedMore);
        }
        if start == self.pos {
            return Err(self.eof(what));
        }
        Ok((start, self.pos))
    }

    /// The rest of the current line, blanks trimmed; the newline is not consumed.
    fn rest_of_line(&mut self) -> Result<(usize, usize)> {
        while self.pos < self.b.len() && is_blank(self.b[self.pos]) {
            self.pos += 1;
        }
        let start = self.pos;
        let end = match memchr::memchr(b'\n', &self.b[start..]) {
            Some(p) => start + p,
            None if self.complete => self.b.len(),
            None => return Err(HeaderError::NeedMore),
        };
        self.pos = end;
        let mut e = end;
        while e > start && is_blank(self.b[e - 1]) {
            e -= 1;
        }
        Ok((start, e))
    }

    fn number(&mut self, what: &str) -> Result<f64> {
        let (s, e) = self.token(what)?;
        match parse_number(&self.b[s..e]) {
            Some((v, n)) if n == e - s && v.is_finite() => Ok(v),
            _ => Err(ParseError::expected(s as u64, what, describe(&self.b[s..e])).into()),
        }
    }

    fn expect_open_brace(&mut self) -> Result<()> {
        let (s, e) = self.token("'{'")?;
        if &self.b[s..e] != b"{" {
            return Err(ParseError::expected(s as u64, "'{'", describe(&self.b[s..e])).into());
        }
        Ok(())
    }
}

fn channel_kind(token: &[u8]) -> Option<ChannelKind> {
    let t = token.to_ascii_lowercase();
    Some(match t.as_slice() {
        b"xposition" => ChannelKind::TranslateX,
        b"yposition" => ChannelKind::TranslateY,
        b"zposition" => ChannelKind::TranslateZ,
        b"xrotation" => ChannelKind::RotateX,
        b"yrotation" => ChannelKind::RotateY,
        b"zrotation" => ChannelKind::RotateZ,
        _ => return None,
    })
}

/// An open `{ }` block: a joint, or an End Site (which takes only an OFFSET).
struct Open {
    joint: usize,
    end_site: bool,
}

/// The HIERARCHY reader's state: the joints so far and the `{ }` blocks still open.
struct Hierarchy<'a> {
    c: Cursor<'a>,
    joints: Vec<Joint>,
    /// Names seen so far: a hash set keeps duplicate checks linear for huge hierarchies.
    names: HashSet<String>,
    open: Vec<Open>,
    warnings: Vec<RawWarning>,
}

/// Parses the header from `b`. With `complete == false`, running out of bytes gives
/// [`HeaderError::NeedMore`] instead of an error.
pub fn parse_header(b: &[u8], complete: bool, rule: PositionRule) -> Result<Header> {
    let mut c = Cursor { b, pos: 0, complete };
    if b.starts_with(&[0xEF, 0xBB, 0xBF]) {
        c.pos = 3;
    }
    let (s, e) = c.token("HIERARCHY")?;
    if !b[s..e].eq_ignore_ascii_case(b"HIERARCHY") {
        return Err(ParseError::expected(s as u64, "HIERARCHY (is this a BVH file?)", describe(&b[s..e])).into());
    }
    let mut h = Hierarchy { c, joints: Vec::new(), names: HashSet::new(), open: Vec::new(), warnings: Vec::new() };
    h.read()?;
    let Hierarchy { mut c, mut joints, mut warnings, .. } = h;
    for j in &mut joints {
        j.euler = EulerConvention::FirstOutermost;
    }
    let skeleton = Skeleton::new(joints, rule).map_err(|e| ParseError::invalid(0, e.to_string()))?;
    let (declared_frames, frames_offset, frame_time_secs) = read_frame_lines(&mut c, &mut warnings)?;
    let motion_start = (c.pos + 1).min(b.len());
    Ok(Header { skeleton, declared_frames, frames_offset, frame_time_secs, motion_start, warnings })
}

impl Hierarchy<'_> {
    /// Reads keywords up to and including `MOTION`.
    fn read(&mut self) -> Result<()> {
        let b = self.c.b;
        loop {
            let (s, e) = match self.open.last() {
                None => self.c.token("ROOT or MOTION")?,
                Some(top) => self.c.token(&format!("'}}' closing '{}'", self.joints[top.joint].name))?,
            };
            let word = b[s..e].to_ascii_uppercase();
            match word.as_slice() {
                b"ROOT" | b"JOINT" => self.joint(s, e, word == b"ROOT")?,
                b"END" | b"ENDSITE" => self.end_site(s, e, word == b"END")?,
                b"OFFSET" => self.offset(s)?,
                b"CHANNELS" => self.channels(s)?,
                b"}" => {
                    if self.open.pop().is_none() {
                        return Err(ParseError::expected(s as u64, "ROOT or MOTION", "'}'").into());
                    }
                }
                b"MOTION" => {
                    if let Some(top) = self.open.last() {
                        return Err(ParseError::expected(
                            s as u64,
                            format!("'}}' closing '{}' before MOTION", self.joints[top.joint].name),
                            "MOTION",
                        )
                        .into());
                    }
                    if self.joints.is_empty() {
                        return Err(ParseError::expected(s as u64, "at least one ROOT before MOTION", "MOTION").into());
                    }
                    return Ok(());
                }
                _ if !self.open.is_empty() => {
                    self.warnings
                        .push(RawWarning { offset: s as u64, message: format!("unknown keyword {}; line ignored", describe(&b[s..e])) });
                    self.c.rest_of_line()?;
                }
                _ => return Err(ParseError::expected(s as u64, "ROOT or MOTION", describe(&b[s..e])).into()),
            }
        }
    }

    /// Reads the rest of a `ROOT`/`JOINT`/`End` line; a trailing `{` is taken off and reported.
    fn rest_before_brace(&mut self) -> Result<(usize, usize, bool)> {
        let b = self.c.b;
        let (ls, mut le) = self.c.rest_of_line()?;
        let brace_on_line = le > ls && b[le - 1] == b'{';
        if brace_on_line {
            le -= 1;
            while le > ls && is_blank(b[le - 1]) {
                le -= 1;
            }
        }
        Ok((ls, le, brace_on_line))
    }

    /// Reads a `ROOT`/`JOINT` line (keyword at `s..e`) and opens its block.
    fn joint(&mut self, s: usize, e: usize, is_root: bool) -> Result<()> {
        let b = self.c.b;
        // Other tools write JOINT for the first joint, or ROOT for a nested one; Blender's
        // importer reads either keyword in either place, and so does this, with a warning.
        if is_root != self.open.is_empty() {
            let message =
                if self.open.is_empty() { "JOINT where ROOT was expected: read as a root" } else { "ROOT inside a joint: read as a JOINT" };
            self.warnings.push(RawWarning { offset: s as u64, message: message.into() });
        }
        if self.open.last().is_some_and(|o| o.end_site) {
            return Err(ParseError::expected(s as u64, "OFFSET or '}' inside End Site", describe(&b[s..e])).into());
        }
        let (ns, ne, brace_on_line) = self.rest_before_brace()?;
        if ne == ns {
            return Err(ParseError::expected(ns as u64, "a joint name", "end of line").into());
        }
        let name = decode_name(&b[ns..ne]);
        if !self.names.insert(name.clone()) {
            self.warnings.push(RawWarning { offset: ns as u64, message: format!("duplicate joint name '{name}'") });
        }
        let parent = self.open.last().map(|o| o.joint);
        self.joints.push(Joint::new(name, parent, Vec3::ZERO));
        if !brace_on_line {
            self.c.expect_open_brace()?;
        }
        self.open.push(Open { joint: self.joints.len() - 1, end_site: false });
        Ok(())
    }

    /// Reads an `End Site` (or `EndSite`) line at `s..e` and opens its block; the end site is
    /// named after its parent, numbered when that name is taken.
    fn end_site(&mut self, s: usize, e: usize, two_words: bool) -> Result<()> {
        let b = self.c.b;
        let Some(top) = self.open.last() else {
            return Err(ParseError::expected(s as u64, "ROOT or MOTION", describe(&b[s..e])).into());
        };
        if top.end_site {
            return Err(ParseError::expected(s as u64, "OFFSET or '}' inside End Site", describe(&b[s..e])).into());
        }
        let parent = top.joint;
        let (ls, le, brace_on_line) = self.rest_before_brace()?;
        let rest = &b[ls..le];
        if two_words && !rest.eq_ignore_ascii_case(b"Site") {
            return Err(ParseError::expected(ls as u64, "'Site' after 'End'", describe(rest)).into());
        }
        let base = format!("{}/EndSite", self.joints[parent].name);
        let mut name = base.clone();
        let mut n = 1;
        while self.names.contains(&name) {
            n += 1;
            name = format!("{base}{n}");
        }
        self.names.insert(name.clone());
        let mut joint = Joint::new(name, Some(parent), Vec3::ZERO);
        joint.is_end_site = true;
        self.joints.push(joint);
        if !brace_on_line {
            self.c.expect_open_brace()?;
        }
        self.open.push(Open { joint: self.joints.len() - 1, end_site: true });
        Ok(())
    }

    /// Reads the three values after `OFFSET` (keyword at `s`) into the open joint.
    fn offset(&mut self, s: usize) -> Result<()> {
        let Some(top) = self.open.last() else {
            return Err(ParseError::expected(s as u64, "ROOT or MOTION", "OFFSET").into());
        };
        let joint = top.joint;
        let mut v = [0.0f32; 3];
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            let x = self.c.number(&format!("the OFFSET {axis} value"))?;
            v[k] = x as f32;
            if !v[k].is_finite() {
                return Err(ParseError::invalid(self.c.pos as u64, "OFFSET value out of range").into());
            }
        }
        self.joints[joint].offset = Vec3::from(v);
        Ok(())
    }

    /// Reads `CHANNELS n name...` (keyword at `s`) into the open joint; a second line replaces the first.
    fn channels(&mut self, s: usize) -> Result<()> {
        let b = self.c.b;
        let Some(top) = self.open.last() else {
            return Err(ParseError::expected(s as u64, "ROOT or MOTION", "CHANNELS").into());
        };
        if top.end_site {
            return Err(ParseError::expected(s as u64, "OFFSET or '}' inside End Site", "CHANNELS").into());
        }
        let joint = top.joint;
        let (cs, ce) = self.c.token("a channel count")?;
        let count = match parse_number(&b[cs..ce]) {
            Some((v, n)) if n == ce - cs && v >= 0.0 && v.fract() == 0.0 && v <= MAX_CHANNELS_PER_JOINT as f64 => v as usize,
            _ => {
                return Err(ParseError::expected(
                    cs as u64,
                    format!("a channel count from 0 to {MAX_CHANNELS_PER_JOINT}"),
                    describe(&b[cs..ce]),
                )
                .into());
            }
        };
        let mut channels = Vec::with_capacity(count);
        for _ in 0..count {
            let (ks, ke) = self.c.token("a channel name")?;
            let Some(kind) = channel_kind(&b[ks..ke]) else {
                return Err(ParseError::expected(
                    ks as u64,
                    "a channel name (Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation)",
                    describe(&b[ks..ke]),
                )
                .into());
            };
            if channels.contains(&kind) {
                self.warnings.push(RawWarning { offset: ks as u64, message: format!("channel {} listed twice", kind.bvh_name()) });
            }
            channels.push(kind);
        }
        if !self.joints[joint].channels.is_empty() {
            self.warnings.push(RawWarning { offset: s as u64, message: "second CHANNELS line for this joint replaces the first".into() });
        }
        self.joints[joint].channels = channels;
        Ok(())
    }
}

/// Reads the `Frames:` and `Frame Time:` lines after `MOTION`: the declared frame count, the
/// offset of its line, and the frame time (0 becomes the default, with a warning).
fn read_frame_lines(c: &mut Cursor, warnings: &mut Vec<RawWarning>) -> Result<(u64, usize, f64)> {
    let frames_at = skip_blank_lines(c)?;
    let declared_frames = labelled_number(c, frames_at, &["frames"], "'Frames:' and the frame count")?;
    if declared_frames < 0.0 || declared_frames.fract() != 0.0 {
        return Err(ParseError::expected(frames_at as u64, "a whole, non-negative frame count", format!("{declared_frames}")).into());
    }
    let time_at = skip_blank_lines(c)?;
    let mut frame_time_secs = labelled_number(c, time_at, &["frame", "time"], "'Frame Time:' and seconds per frame")?;
    if frame_time_secs < 0.0 {
        return Err(ParseError::expected(time_at as u64, "a non-negative frame time", format!("{frame_time_secs}")).into());
    }
    if frame_time_secs == 0.0 {
        warnings.push(RawWarning { offset: time_at as u64, message: "Frame Time is 0; assuming 30 fps".into() });
        frame_time_secs = DEFAULT_FRAME_TIME_SECS;
    }
    // The rest of the Frame Time line must be empty; rows start on the next line.
    let (rs, re) = c.rest_of_line()?;
    if re > rs {
        return Err(ParseError::expected(rs as u64, "end of line after the frame time", describe(&c.b[rs..re])).into());
    }
    Ok((declared_frames as u64, frames_at, frame_time_secs))
}

fn skip_blank_lines(c: &mut Cursor) -> Result<usize> {
    c.skip_space();
    if c.pos == c.b.len() {
        return Err(c.eof("'Frames:' and 'Frame Time:' after MOTION"));
    }
    Ok(c.pos)
}

/// Reads `Word Word: number` where the words match `words` case-insensitively and blanks and
/// the colon may be glued or spaced (`Frames:\t31`, `Frames : 31`, `Frame Time:0.03`).
fn labelled_number(c: &mut Cursor, at: usize, words: &[&str], what: &str) -> Result<f64> {
    let (s, e) = c.rest_of_line()?;
    let line = &c.b[s..e];
    let mut i = 0;
    for w in words {
        while i < line.len() && is_blank(line[i]) {
            i += 1;
        }
        let end = i + w.len();
        if end > line.len() || !line[i..end].eq_ignore_ascii_case(w.as_bytes()) {
            return Err(ParseError::expected(at as u64, what, describe(line)).into());
        }
        i = end;
    }
    while i < line.len() && is_blank(line[i]) {
        i += 1;
    }
    if line.get(i) != Some(&b':') {
        return Err(ParseError::expected((s + i) as u64, format!("':' in {what}"), describe(&line[i..])).into());
    }
    i += 1;
    while i < line.len() && is_blank(line[i]) {
        i += 1;
    }
    match parse_number(&line[i..]) {
        Some((v, n)) if v.is_finite() && line[i + n..].iter().all(|&x| is_blank(x)) => {
            // Leave the cursor after this line's number for the caller's end-of-line check.
            c.pos = s + i + n;
            Ok(v)
        }
        _ => Err(ParseError::expected((s + i) as u64, what, describe(&line[i..])).into()),
    }
}
