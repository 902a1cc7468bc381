//! Acclaim Motion Capture (`.amc`): frame numbers, then one line per bone with its dof values.

use std::collections::HashMap;

use crate::core::{Clip, Skeleton};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe, is_blank, parse_number, token_end};

/// The parsed motion file.
#[derive(Debug)]
pub struct Amc {
    /// Channel values (rotations in radians) in the skeleton's row layout.
    pub clip: Clip,
    /// Problems that did not stop the parse.
    pub warnings: Vec<RawWarning>,
}

/// Most warnings of one kind kept (the rest are counted in the last one).
const MAX_REPEATS: usize = 20;

/// The reader's state between lines: the row being filled and what was already reported.
struct Reader<'s> {
    skeleton: &'s Skeleton,
    /// Joint index by exact name, then by lower-cased name.
    exact: HashMap<&'s [u8], usize>,
    folded: HashMap<Vec<u8>, usize>,
    radians: bool,
    warnings: Vec<RawWarning>,
    unknown: HashMap<Vec<u8>, ()>,
    values: Vec<f32>,
    row: Vec<f32>,
    /// Joints that had a line in the current frame.
    seen: Vec<bool>,
    frames: usize,
    in_frame: bool,
    last_number: Option<i64>,
    gap_warnings: usize,
    missing_warned: bool,
}

/// Parses AMC text against `skeleton` (from its ASF). `radians` is the ASF's angle unit,
/// which `:DEGREES`/`:RADIANS` in the AMC overrides.
pub fn parse_amc(b: &[u8], skeleton: &Skeleton, radians: bool, frame_time_secs: f64) -> Result<Amc, ParseError> {
    let n = skeleton.channels_per_frame();
    let mut r = Reader::new(skeleton, radians, b.len());
    let mut pos = 0usize;
    while pos < b.len() {
        let line_end = memchr::memchr(b'\n', &b[pos..]).map_or(b.len(), |p| pos + p);
        let line = &b[pos..line_end];
        let mut i = 0;
        while i < line.len() && is_blank(line[i]) {
            i += 1;
        }
        let start = pos + i;
        let next = line_end + 1;
        if i == line.len() || line[i] == b'#' {
            pos = next;
            continue;
        }
        if line[i] == b':' {
            r.keyword(&line[i..token_end(line, i)], start);
            pos = next;
            continue;
        }
        let name_end = token_end(line, i);
        let name = &line[i..name_end];
        let rest_blank = line[name_end..].iter().all(|&c| is_blank(c));
        if rest_blank && name.iter().all(|c| c.is_ascii_digit()) {
            r.frame_number(name, start);
            pos = next;
            continue;
        }
        if !r.in_frame {
            return Err(ParseError::expected(start as u64, "a frame number", describe(name)));
        }
        let joint = r.exact.get(name).copied().or_else(|| r.folded.get(&name.to_ascii_lowercase()).copied());
        let Some(joint) = joint else {
            r.unknown_bone(name, start);
            pos = next;
            continue;
        };
        r.bone_values(line, pos, name_end, joint)?;
        pos = next;
    }
    if r.in_frame {
        r.finish_frame(b.len());
        r.frames += 1;
    }
    if r.unknown.len() > MAX_REPEATS {
        r.warnings.push(RawWarning { offset: 0, message: format!("{} unknown bone names in all", r.unknown.len()) });
    }
    if n == 0 {
        r.values.clear();
    }
    Ok(Amc { clip: Clip::new(frame_time_secs, n, r.frames, r.values), warnings: r.warnings })
}

impl<'s> Reader<'s> {
    /// An empty reader for a file of `len` bytes, with values reserved for a guess of its size.
    fn new(skeleton: &'s Skeleton, radians: bool, len: usize) -> Self {
        let mut exact: HashMap<&[u8], usize> = HashMap::new();
        let mut folded: HashMap<Vec<u8>, usize> = HashMap::new();
        for (i, j) in skeleton.joints().iter().enumerate() {
            exact.insert(j.name.as_bytes(), i);
            folded.insert(j.name.as_bytes().to_ascii_lowercase(), i);
        }
        Reader {
            skeleton,
            exact,
            folded,
            radians,
            warnings: Vec::new(),
            unknown: HashMap::new(),
            values: Vec::with_capacity((len / 8).min(1 << 24)),
            row: vec![0f32; skeleton.channels_per_frame()],
            seen: vec![false; skeleton.len()],
            frames: 0,
            in_frame: false,
            last_number: None,
            gap_warnings: 0,
            missing_warned: false,
        }
    }

    /// Appends the current row as a frame; a bone without a line keeps its previous values
    /// (warned about once).
    fn finish_frame(&mut self, at: usize) {
        if !self.missing_warned
            && let Some((_, j)) = self.skeleton.joints().iter().enumerate().find(|(i, j)| !j.channels.is_empty() && !self.seen[*i])
        {
            self.warnings.push(RawWarning {
                offset: at as u64,
                message: format!("frame has no line for bone '{}'; its previous values are kept (reported once)", j.name),
            });
            self.missing_warned = true;
        }
        self.seen.iter_mut().for_each(|s| *s = false);
        self.values.extend_from_slice(&self.row);
    }

    /// Applies a `:keyword` line at `start`: only the angle unit matters.
    fn keyword(&mut self, word: &[u8], start: usize) {
        let word = word.to_ascii_lowercase();
        match word.as_slice() {
            b":degrees" => self.radians = false,
            b":radians" => self.radians = true,
            b":fully-specified" => {}
            _ => self
                .warnings
                .push(RawWarning { offset: start as u64, message: format!("unknown AMC keyword {}; ignored", describe(&word)) }),
        }
    }

    /// A frame-number line at `start`: closes the previous frame and warns (up to a limit)
    /// where numbers do not count up by one.
    fn frame_number(&mut self, name: &[u8], start: usize) {
        if self.in_frame {
            self.finish_frame(start);
            self.frames += 1;
        }
        self.in_frame = true;
        let number: i64 = std::str::from_utf8(name).ok().and_then(|s| s.parse().ok()).unwrap_or(i64::MAX);
        if let Some(prev) = self.last_number
            && number != prev.saturating_add(1)
            && self.gap_warnings < MAX_REPEATS
        {
            self.gap_warnings += 1;
            self.warnings.push(RawWarning { offset: start as u64, message: format!("frame {number} follows frame {prev}") });
        }
        self.last_number = Some(number);
    }

    /// Warns once per bone name not in the skeleton, up to a limit (the rest are counted at the end).
    fn unknown_bone(&mut self, name: &[u8], start: usize) {
        if self.unknown.insert(name.to_vec(), ()).is_none() && self.unknown.len() <= MAX_REPEATS {
            self.warnings.push(RawWarning {
                offset: start as u64,
                message: format!("bone '{}' is not in the skeleton; ignored", decode_name(name)),
            });
        }
    }

    /// Reads one value per channel of `joint` from `line` (at byte `pos`, its name ending at
    /// `name_end`) into the row; nothing but blanks may follow them.
    #[inline]
    #[allow(clippy::explicit_counter_loop)] // `count` is also read after an early exit
    fn bone_values(&mut self, line: &[u8], pos: usize, name_end: usize, joint: usize) -> Result<(), ParseError> {
        let skeleton = self.skeleton;
        let j = &skeleton.joints()[joint];
        let mut k = name_end;
        let mut count = 0;
        for (c, kind) in j.channels.iter().enumerate() {
            while k < line.len() && is_blank(line[k]) {
                k += 1;
            }
            if k == line.len() {
                return Err(ParseError::expected(
                    (pos + k) as u64,
                    format!("{} values for bone '{}'", j.channels.len(), j.name),
                    format!("{count}"),
                ));
            }
            let Some((v, used)) = parse_number(&line[k..]).filter(|&(_, u)| k + u == line.len() || is_blank(line[k + u])) else {
                return Err(ParseError::expected((pos + k) as u64, "a number", describe(&line[k..token_end(line, k)])));
            };
            let mut v = v as f32;
            if kind.is_rotation() && !self.radians {
                v = v.to_radians();
            }
            if !v.is_finite() {
                return Err(ParseError::invalid((pos + k) as u64, format!("number out of range: {}", describe(&line[k..k + used]))));
            }
            self.row[j.first_channel + c] = v;
            count += 1;
            k += used;
        }
        while k < line.len() && is_blank(line[k]) {
            k += 1;
        }
        if k < line.len() {
            return Err(ParseError::expected(
                (pos + k) as u64,
                format!("end of line after {} values for bone '{}'", j.channels.len(), j.name),
                describe(&line[k..token_end(line, k)]),
            ));
        }
        self.seen[joint] = true;
        Ok(())
    }
}
