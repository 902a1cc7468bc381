//! Reads the sections of an ACL SJSON file into plain structs, checking syntax and value types;
//! the consistency checks that need the whole file (counts, names) are in `build`.

use super::sjson::Cursor;
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe};

/// The clip header (`clip = { … }`).
#[derive(Default)]
pub struct ClipHeader {
    /// Offset of the `clip` key.
    pub off: usize,
    pub name: Option<String>,
    /// Value and offset.
    pub num_samples: Option<(u64, usize)>,
    pub sample_rate: Option<(f64, usize)>,
    pub is_binary_exact: Option<bool>,
    pub additive_format: Option<String>,
    pub additive_base_name: Option<String>,
    pub additive_base_num_samples: Option<u64>,
    pub additive_base_sample_rate: Option<f64>,
    /// Version 1 kept the compression error threshold in the clip.
    pub error_threshold: Option<f64>,
}

/// One entry of `bones`.
pub struct Bone {
    pub name: String,
    /// Offset of the bone's `{`.
    pub off: usize,
    pub parent: String,
    pub parent_off: usize,
    pub vertex_distance: Option<f32>,
    pub rotation: [f32; 4],
    pub translation: [f32; 3],
    pub scale: [f32; 3],
}

/// One sample array of a track: `count` samples of N values each, flattened.
pub struct Samples {
    pub values: Vec<f32>,
    pub count: usize,
    /// Offset of the array's `[`.
    pub off: usize,
}

/// One entry of a clip's `tracks`.
pub struct Track {
    pub name: String,
    pub off: usize,
    pub rotations: Option<Samples>,
    pub translations: Option<Samples>,
    pub scales: Option<Samples>,
}

/// A version-4+ track list: only what the refusal message needs.
pub struct TrackList {
    pub off: usize,
    pub name: Option<String>,
    /// Type of each track (`float3f`, …), `?` where missing.
    pub types: Vec<String>,
}

/// Everything read from one file.
#[derive(Default)]
pub struct Document {
    pub version: Option<(f64, usize)>,
    pub clip: Option<ClipHeader>,
    /// Bones and the offset of the `bones` key.
    pub bones: Option<(Vec<Bone>, usize)>,
    pub tracks: Option<(Vec<Track>, usize)>,
    pub track_list: Option<TrackList>,
    /// `settings` values, flattened (`segmenting.ideal_num_samples`).
    pub settings: Vec<(String, String)>,
    pub warnings: Vec<RawWarning>,
    /// First quaternion (bind rotation or sample) that was off unit length and normalized, if any.
    pub renormalized: Option<usize>,
    /// File length, for errors about what is missing.
    pub end: usize,
}

/// Which section a following `tracks` belongs to.
#[derive(PartialEq)]
enum Section {
    None,
    Clip,
    List,
}

/// Reads a whole file.
pub fn read(bytes: &[u8]) -> Result<Document, ParseError> {
    let mut c = Cursor::new(bytes);
    let mut doc = Document { end: bytes.len(), ..Default::default() };
    let mut section = Section::None;
    while c.peek()?.is_some() {
        let (key, at) = c.key("the file (version, clip, settings, bones, tracks, track_list)")?;
        match key {
            b"version" => {
                let v_at = c.pos;
                let v = c.number()?;
                doc.version = Some((v, v_at));
            }
            b"clip" => {
                once(doc.clip.is_some(), "clip", at)?;
                doc.clip = Some(clip_header(&mut c, at, &mut doc.warnings)?);
                section = Section::Clip;
            }
            b"settings" => settings(&mut c, "", &mut doc.settings, 0)?,
            b"bones" => {
                once(doc.bones.is_some(), "bones", at)?;
                doc.bones = Some((bones(&mut c, &mut doc)?, at));
            }
            b"tracks" if section == Section::List => {
                let list = doc.track_list.as_mut().ok_or_else(|| ParseError::invalid(at as u64, "tracks of no track list"))?;
                list.types = list_tracks(&mut c)?;
            }
            b"tracks" => {
                once(doc.tracks.is_some(), "tracks", at)?;
                let hint = doc.clip.as_ref().and_then(|h| h.num_samples).map_or(0, |(n, _)| n);
                doc.tracks = Some((tracks(&mut c, hint, &mut doc)?, at));
            }
            b"track_list" => {
                once(doc.track_list.is_some(), "track_list", at)?;
                let mut name = None;
                object(&mut c, "track_list", |c, key, _| {
                    if key == b"name" {
                        name = Some(decode_name(c.string()?));
                    } else {
                        c.skip_value()?;
                    }
                    Ok(())
                })?;
                doc.track_list = Some(TrackList { off: at, name, types: Vec::new() });
                section = Section::List;
            }
            other => unknown(&mut c, other, at, "the file", &mut doc.warnings)?,
        }
    }
    Ok(doc)
}

fn once(seen: bool, what: &str, at: usize) -> Result<(), ParseError> {
    if seen { Err(ParseError::invalid(at as u64, format!("a second '{what}' section; an ACL file holds one"))) } else { Ok(()) }
}

/// Warnings kept for unknown keys; a file full of them gets one line saying so, not thousands.
const MAX_UNKNOWN_WARNINGS: usize = 32;

fn unknown(c: &mut Cursor, key: &[u8], at: usize, place: &str, warnings: &mut Vec<RawWarning>) -> Result<(), ParseError> {
    let seen = warnings.iter().filter(|w| w.message.starts_with("unknown key")).count();
    if seen < MAX_UNKNOWN_WARNINGS {
        warnings.push(RawWarning { offset: at as u64, message: format!("unknown key {} in {place} ignored", describe(key)) });
    } else if seen == MAX_UNKNOWN_WARNINGS {
        warnings.push(RawWarning {
            offset: at as u64,
            message: "unknown key warnings stop here; later unknown keys are ignored silently".into(),
        });
    }
    c.skip_value().map(|_| ())
}

/// `{ key = value … }`, handing each key to `f`, which must consume its value.
fn object<'a>(
    c: &mut Cursor<'a>,
    what: &str,
    mut f: impl FnMut(&mut Cursor<'a>, &'a [u8], usize) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    c.expect(b'{', &format!("'{{' opening {what}"))?;
    loop {
        match c.peek()? {
            Some(b'}') => {
                c.pos += 1;
                return Ok(());
            }
            None => return Err(ParseError::eof(c.off(), format!("'}}' closing {what}"))),
            Some(_) => {
                let (key, at) = c.key(what)?;
                f(c, key, at)?;
            }
        }
    }
}

/// A count: a non-negative whole number.
fn count(c: &mut Cursor, what: &str) -> Result<(u64, usize), ParseError> {
    let (v, at) = c.integer(what)?;
    if v > u32::MAX as u64 {
        return Err(ParseError::invalid(at as u64 + 1, format!("{what} must be a whole number from 0 to {}, found {v}", u32::MAX)));
    }
    Ok((v, at))
}

fn clip_header(c: &mut Cursor, at: usize, warnings: &mut Vec<RawWarning>) -> Result<ClipHeader, ParseError> {
    let mut h = ClipHeader { off: at, ..Default::default() };
    object(c, "clip", |c, key, at| {
        match key {
            b"name" => h.name = Some(decode_name(c.string()?)),
            b"num_samples" => h.num_samples = Some(count(c, "num_samples")?),
            b"sample_rate" => {
                let s_at = c.pos;
                h.sample_rate = Some((c.number()?, s_at));
            }
            b"is_binary_exact" => h.is_binary_exact = Some(c.boolean()?),
            b"additive_format" => h.additive_format = Some(decode_name(c.word_or_string("an additive format name")?)),
            b"additive_base_name" => h.additive_base_name = Some(decode_name(c.string()?)),
            b"additive_base_num_samples" => h.additive_base_num_samples = Some(count(c, "additive_base_num_samples")?.0),
            b"additive_base_sample_rate" => h.additive_base_sample_rate = Some(c.number()?),
            b"error_threshold" => h.error_threshold = Some(c.number()?),
            other => unknown(c, other, at, "clip", warnings)?,
        }
        Ok(())
    })?;
    Ok(h)
}

/// Flattens the compression settings into label/value pairs (they do not change the pose).
fn settings(c: &mut Cursor, prefix: &str, out: &mut Vec<(String, String)>, depth: usize) -> Result<(), ParseError> {
    object(c, "settings", |c, key, _| {
        let label = format!("{prefix}{}", decode_name(key));
        if c.peek()? == Some(b'{') && depth < 4 {
            settings(c, &format!("{label}."), out, depth + 1)
        } else {
            if let Some(v) = c.skip_value()? {
                out.push((label, v));
            }
            Ok(())
        }
    })
}

fn bones(c: &mut Cursor, doc: &mut Document) -> Result<Vec<Bone>, ParseError> {
    let mut out = Vec::new();
    c.expect(b'[', "'[' opening the bones list")?;
    loop {
        match c.peek()? {
            Some(b']') => {
                c.pos += 1;
                return Ok(out);
            }
            None => return Err(ParseError::eof(c.off(), "']' closing the bones list")),
            Some(_) => {}
        }
        let off = c.pos;
        let mut name = None;
        let mut b = Bone {
            name: String::new(),
            off,
            parent: String::new(),
            parent_off: off,
            vertex_distance: None,
            rotation: [0.0, 0.0, 0.0, 1.0],
            translation: [0.0; 3],
            scale: [1.0; 3],
        };
        object(c, "a bone", |c, key, at| {
            match key {
                b"name" => name = Some(decode_name(c.string()?)),
                b"parent" => {
                    b.parent_off = c.pos;
                    b.parent = decode_name(c.string()?);
                }
                b"vertex_distance" => b.vertex_distance = Some(c.number()? as f32),
                b"bind_rotation" => {
                    let q_at = c.pos;
                    b.rotation = c.vector::<4>("a bind_rotation [x y z w]")?;
                    if unit_quat(&mut b.rotation, q_at)? {
                        doc.renormalized.get_or_insert(q_at);
                    }
                }
                b"bind_translation" => b.translation = c.vector::<3>("a bind_translation [x y z]")?,
                b"bind_scale" => b.scale = c.vector::<3>("a bind_scale [x y z]")?,
                other => unknown(c, other, at, "a bone", &mut doc.warnings)?,
            }
            Ok(())
        })?;
        b.name = name.ok_or_else(|| ParseError::invalid(off as u64, "bone has no 'name'"))?;
        out.push(b);
    }
}

/// Normalizes a quaternion that is off unit length by more than 1e-3; returns whether it did.
#[inline]
fn unit_quat(q: &mut [f32; 4], at: usize) -> Result<bool, ParseError> {
    let len2 = q.iter().map(|v| v * v).sum::<f32>();
    if (len2 - 1.0).abs() <= 2e-3 {
        return Ok(false);
    }
    let len = len2.sqrt();
    if len <= 1e-12 || !len.is_finite() {
        return Err(ParseError::invalid(
            at as u64,
            format!("quaternion [{} {} {} {}] has no direction (length {len})", q[0], q[1], q[2], q[3]),
        ));
    }
    if (len - 1.0).abs() <= 1e-3 {
        return Ok(false);
    }
    q.iter_mut().for_each(|v| *v /= len);
    Ok(true)
}

fn tracks(c: &mut Cursor, hint: u64, doc: &mut Document) -> Result<Vec<Track>, ParseError> {
    let mut out = Vec::new();
    c.expect(b'[', "'[' opening the tracks list")?;
    loop {
        match c.peek()? {
            Some(b']') => {
                c.pos += 1;
                return Ok(out);
            }
            None => return Err(ParseError::eof(c.off(), "']' closing the tracks list")),
            Some(_) => {}
        }
        let off = c.pos;
        let mut t = Track { name: String::new(), off, rotations: None, translations: None, scales: None };
        let mut name = None;
        object(c, "a track", |c, key, at| {
            match key {
                b"name" => name = Some(decode_name(c.string()?)),
                b"rotations" => t.rotations = Some(samples::<4>(c, hint, "a rotation [x y z w]", &mut doc.renormalized)?),
                b"translations" => t.translations = Some(samples::<3>(c, hint, "a translation [x y z]", &mut None)?),
                b"scales" => t.scales = Some(samples::<3>(c, hint, "a scale [x y z]", &mut None)?),
                other => unknown(c, other, at, "a track", &mut doc.warnings)?,
            }
            Ok(())
        })?;
        t.name = name.ok_or_else(|| ParseError::invalid(off as u64, "track has no 'name' (tracks are matched to bones by name)"))?;
        out.push(t);
    }
}

/// `[ [..] [..] … ]` of N-number samples. Quaternions (N = 4) are normalized when off unit
/// length; `renormalized` keeps the first such offset.
fn samples<const N: usize>(c: &mut Cursor, hint: u64, what: &str, renormalized: &mut Option<usize>) -> Result<Samples, ParseError> {
    c.skip_ws()?;
    let off = c.pos;
    c.expect(b'[', &format!("'[' opening a list of samples ({what})"))?;
    let mut values = Vec::new();
    let mut count = 0;
    loop {
        match c.peek()? {
            Some(b']') => {
                c.pos += 1;
                // Only a lying header leaves spare room; give it back so many tracks cannot pile it up.
                values.shrink_to_fit();
                return Ok(Samples { values, count, off });
            }
            None => return Err(ParseError::eof(c.off(), format!("']' closing the samples list started at byte {off}"))),
            Some(_) => {}
        }
        let at = c.pos;
        let mut v = c.vector::<N>(what)?;
        if N == 4 {
            let mut q = [v[0], v[1], v[2], v.get(3).copied().unwrap_or(0.0)];
            if unit_quat(&mut q, at)? {
                v.copy_from_slice(&q[..N]);
                renormalized.get_or_insert(at);
            }
        }
        if count == 0 {
            // The declared count sizes the reservation, but never beyond what the rest of the
            // file can hold (a sample takes at least 2N + 1 bytes), so a lying header costs nothing.
            values.reserve(hint.min((c.remaining() / (2 * N + 1)) as u64 + 1) as usize * N);
        }
        values.extend_from_slice(&v);
        count += 1;
    }
}

/// The types of a track list's tracks; the data is skipped.
fn list_tracks(c: &mut Cursor) -> Result<Vec<String>, ParseError> {
    let mut types = Vec::new();
    c.expect(b'[', "'[' opening the track list's tracks")?;
    loop {
        match c.peek()? {
            Some(b']') => {
                c.pos += 1;
                return Ok(types);
            }
            None => return Err(ParseError::eof(c.off(), "']' closing the track list's tracks")),
            Some(_) => {}
        }
        let mut ty = "?".to_string();
        object(c, "a track of the track list", |c, key, _| {
            if key == b"type" {
                ty = decode_name(c.word_or_string("a track type such as float3f")?);
            } else {
                c.skip_value()?;
            }
            Ok(())
        })?;
        types.push(ty);
    }
}
