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

/// Parses AMC text against `skeleton` (from its ASF). `radians` is the ASF's angle unit,
/// which `:DEGREES`/`:RADIANS` in the AMC overrides.
#[allow(clippy::explicit_counter_loop)] // `count` is also read after an early exit
pub fn parse_amc(b: &[u8], skeleton: &Skeleton, mut radians: bool, frame_time_secs: f64) -> Result<Amc, ParseError> {
    let n = skeleton.channels_per_frame();
    let mut exact: HashMap<&[u8], usize> = HashMap::new();
    let mut folded: HashMap<Vec<u8>, usize> = HashMap::new();
    for (i, j) in skeleton.joints().iter().enumerate() {
        exact.insert(j.name.as_bytes(), i);
        folded.insert(j.name.as_bytes().to_ascii_lowercase(), i);
    }
    let mut warnings = Vec::new();
    let mut unknown: HashMap<Vec<u8>, ()> = HashMap::new();
    let mut values: Vec<f32> = Vec::with_capacity((b.len() / 8).min(1 << 24));
    let mut row = vec![0f32; n];
    let mut seen = vec![false; skeleton.len()];
    let mut frames = 0usize;
    let mut in_frame = false;
    let mut last_number: Option<i64> = None;
    let mut gap_warnings = 0;
    let mut missing_warned = false;
    let mut pos = 0usize;

    let finish_frame = |row: &Vec<f32>,
                        seen: &mut Vec<bool>,
                        values: &mut Vec<f32>,
                        warnings: &mut Vec<RawWarning>,
                        missing_warned: &mut bool,
                        at: usize| {
        if !*missing_warned && let Some((_, j)) = skeleton.joints().iter().enumerate().find(|(i, j)| !j.channels.is_empty() && !seen[*i]) {
            warnings.push(RawWarning {
                offset: at as u64,
                message: format!("frame has no line for bone '{}'; its previous values are kept (reported once)", j.name),
            });
            *missing_warned = true;
        }
        seen.iter_mut().for_each(|s| *s = false);
        values.extend_from_slice(row);
    };

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
            let word = line[i..token_end(line, i)].to_ascii_lowercase();
            match word.as_slice() {
                b":degrees" => radians = false,
                b":radians" => radians = true,
                b":fully-specified" => {}
                _ => {
                    warnings.push(RawWarning { offset: start as u64, message: format!("unknown AMC keyword {}; ignored", describe(&word)) })
                }
            }
            pos = next;
            continue;
        }
        let name_end = token_end(line, i);
        let name = &line[i..name_end];
        let rest_blank = line[name_end..].iter().all(|&c| is_blank(c));
        if rest_blank && name.iter().all(|c| c.is_ascii_digit()) {
            // A frame number.
            if in_frame {
                finish_frame(&row, &mut seen, &mut values, &mut warnings, &mut missing_warned, start);
                frames += 1;
            }
            in_frame = true;
            let number: i64 = std::str::from_utf8(name).ok().and_then(|s| s.parse().ok()).unwrap_or(i64::MAX);
            if let Some(prev) = last_number
                && number != prev.saturating_add(1)
                && gap_warnings < MAX_REPEATS
            {
                gap_warnings += 1;
                warnings.push(RawWarning { offset: start as u64, message: format!("frame {number} follows frame {prev}") });
            }
            last_number = Some(number);
            pos = next;
            continue;
        }
        if !in_frame {
            return Err(ParseError::expected(start as u64, "a frame number", describe(name)));
        }
        let joint = exact.get(name).copied().or_else(|| folded.get(&name.to_ascii_lowercase()).copied());
        let Some(joint) = joint else {
            if unknown.insert(name.to_vec(), ()).is_none() && unknown.len() <= MAX_REPEATS {
                warnings.push(RawWarning {
                    offset: start as u64,
                    message: format!("bone '{}' is not in the skeleton; ignored", decode_name(name)),
                });
            }
            pos = next;
            continue;
        };
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
            if kind.is_rotation() && !radians {
                v = v.to_radians();
            }
            if !v.is_finite() {
                return Err(ParseError::invalid((pos + k) as u64, format!("number out of range: {}", describe(&line[k..k + used]))));
            }
            row[j.first_channel + c] = v;
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
        seen[joint] = true;
        pos = next;
    }
    if in_frame {
        finish_frame(&row, &mut seen, &mut values, &mut warnings, &mut missing_warned, b.len());
        frames += 1;
    }
    if unknown.len() > MAX_REPEATS {
        warnings.push(RawWarning { offset: 0, message: format!("{} unknown bone names in all", unknown.len()) });
    }
    if n == 0 {
        values.clear();
    }
    Ok(Amc { clip: Clip::new(frame_time_secs, n, frames, values), warnings })
}
