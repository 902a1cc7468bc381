//! Maps a read ACL document onto skelview's model.
//!
//! Every bone becomes one joint with `offset = bind_translation` and ten channels
//! `Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz` (translation replaces the offset), so its local transform is
//! `T · R · S` as in ACL, where a bone's transform is a QVV (rotation, translation, scale)
//! "in parent bone local space" (format reference). ACL composes them with rtm's `qvv_mul(local,
//! parent)`: `translation = parent.rotation · (parent.scale ⊙ local.translation) +
//! parent.translation`, `rotation = parent.rotation · local.rotation`, `scale = parent.scale ⊙
//! local.scale` (with a matrix product when a scale is negative); rtm notes that this "will not
//! properly handle skew/shear". skelview composes full affine matrices, which gives the same
//! child origins (the parent's scale scales the child's offset, then the parent's rotation
//! turns it) and differs from ACL's QVV only deeper down a chain where a non-uniform scale
//! meets a rotated child (ACL drops the resulting shear, the matrix keeps it).
//!
//! Leaf bones get no end marker: ACL bones have no length, and `vertex_distance` is the radius
//! of the virtual vertices of the error metric, not a bone direction, so it only goes into the
//! joint's details.

use std::collections::HashMap;

use glam::Vec3;

use super::ParsedAcl;
use super::document::{Bone, ClipHeader, Document, Samples, Track, TrackList};
use crate::core::{ChannelKind, Clip, Joint, PositionRule, Skeleton};
use crate::formats::error::{ParseError, RawWarning};

const CHANNELS: [ChannelKind; 10] = ChannelKind::TRANSLATION_QUATERNION_SCALE;

/// Most values a clip may hold (512 MiB of f32, ~200× the largest corpus clip): refuses absurd
/// bones × samples products before allocating.
const MAX_VALUES: u64 = 1 << 27;

/// Checks the document and builds the skeleton and clip.
pub fn build(doc: Document) -> Result<ParsedAcl, ParseError> {
    let Document { version, clip, bones, tracks, track_list, settings, mut warnings, renormalized, end } = doc;
    let mut details = Vec::new();
    let eof = end as u64;
    let Some(header) = clip else {
        return Err(no_clip_error(track_list.as_ref(), eof));
    };
    let version = check_version(version, &mut warnings)?;
    details.push(("ACL version".into(), format!("{version}")));
    if let Some(list) = &track_list {
        warnings.push(ignored_track_list(list));
    }
    let clip_name = header.name.clone().unwrap_or_default();
    let Some((num_samples, ns_at)) = header.num_samples else {
        return Err(ParseError::invalid(header.off as u64, "clip has no 'num_samples'"));
    };
    let Some((rate, rate_at)) = header.sample_rate else {
        return Err(ParseError::invalid(header.off as u64, "clip has no 'sample_rate'"));
    };
    // The number reader only yields finite values, so this also covers NaN.
    if rate <= 0.0 {
        return Err(ParseError::invalid(rate_at as u64, format!("sample_rate must be above 0, found {rate}")));
    }
    let (bones, bones_at) = bones.ok_or_else(|| ParseError::eof(eof, "a 'bones = [ ... ]' section after the clip"))?;
    let (tracks, tracks_at) = tracks.ok_or_else(|| ParseError::eof(eof, "a 'tracks = [ ... ]' section after the bones"))?;
    check_not_empty(&clip_name, (num_samples, ns_at), (&bones, bones_at), (&tracks, tracks_at))?;

    header_details(&header, clip_name, rate, &mut details, &mut warnings);
    for (k, v) in settings {
        details.push((format!("Setting {k}"), v));
    }
    if let Some(at) = renormalized {
        warnings.push(RawWarning {
            offset: at as u64,
            message: "quaternions off unit length by more than 1e-3 were normalized (first one here)".into(),
        });
    }

    let order = parents_first(&bones, &mut warnings)?;
    let mut index_of: HashMap<&str, usize> = HashMap::with_capacity(bones.len());
    for (new, &old) in order.iter().enumerate() {
        index_of.insert(bones[old].name.as_str(), new);
    }
    let n_bones = bones.len();
    let width = n_bones * CHANNELS.len();
    let matched = TrackMatch::new(&tracks, &index_of, n_bones, num_samples)?;
    let frames = matched.frames(num_samples, ns_at, tracks_at, n_bones, &mut warnings)?;
    let (joints, rest) = bone_joints(&bones, &order, &index_of, &matched.by_joint);
    let values = sample_values(&bones, &order, &matched.by_joint, &joints, frames, &mut warnings);

    details.push(("Samples".into(), frames.to_string()));
    details.push(("Duration".into(), format!("{:.3} s", (frames - 1) as f64 / rate)));
    let roots = joints.iter().filter(|j| j.parent.is_none()).count();
    details.push(("Bones".into(), format!("{n_bones} ({roots} root{})", if roots == 1 { "" } else { "s" })));
    details.push(("Tracks".into(), tracks.len().to_string()));
    let skeleton = Skeleton::new(joints, PositionRule::Replace)
        .and_then(|s| s.with_rest_values(rest))
        .map_err(|e| ParseError::invalid(bones_at as u64, e.to_string()))?;
    let clip = Clip::new(1.0 / rate, width, frames, values);
    Ok(ParsedAcl { skeleton, clip, warnings, details })
}

/// The error for a file without a `clip` section: a track-list file gets a message naming its
/// tracks, anything else reads as "not an ACL raw clip".
fn no_clip_error(track_list: Option<&TrackList>, eof: u64) -> ParseError {
    if let Some(list) = track_list {
        let n = list.types.len();
        let mut kinds: Vec<&str> = list.types.iter().map(String::as_str).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let what = match kinds.as_slice() {
            [one] => format!("{n} {one} track{}", if n == 1 { "" } else { "s" }),
            _ => format!("{n} tracks ({})", kinds.join(", ")),
        };
        return ParseError::invalid(
            list.off as u64,
            format!("this ACL file holds a track list of {what} and no skeleton clip; skelview shows skeleton animation"),
        );
    }
    ParseError::eof(eof, "a 'clip = { ... }' section (this does not look like an ACL raw clip)")
}

/// Checks the `version` key and returns the version read as (5 when missing).
fn check_version(version: Option<(f64, usize)>, warnings: &mut Vec<RawWarning>) -> Result<f64, ParseError> {
    match version {
        None => warnings.push(RawWarning { offset: 0, message: "no 'version' key; reading as ACL version 5".into() }),
        Some((v, at)) if v < 1.0 || v.fract() != 0.0 => {
            return Err(ParseError::invalid(at as u64, format!("ACL file version must be a whole number from 1, found {v}")));
        }
        Some((v, at)) if v > 5.0 => warnings
            .push(RawWarning { offset: at as u64, message: format!("ACL file version {v} is newer than 5; reading it as version 5") }),
        Some(_) => {}
    }
    Ok(version.map_or(5.0, |(v, _)| v))
}

/// The warning for a track list found next to a clip (only the clip is shown).
fn ignored_track_list(list: &TrackList) -> RawWarning {
    RawWarning {
        offset: list.off as u64,
        message: format!(
            "the file also holds a track list{} of {} tracks (ACL files hold one or the other); the track list is ignored",
            list.name.as_ref().map(|n| format!(" '{n}'")).unwrap_or_default(),
            list.types.len()
        ),
    }
}

/// Refuses a clip with no samples, no bones or no tracks, naming the clip in the message.
fn check_not_empty(
    clip_name: &str,
    (num_samples, ns_at): (u64, usize),
    (bones, bones_at): (&[Bone], usize),
    (tracks, tracks_at): (&[Track], usize),
) -> Result<(), ParseError> {
    let quoted = if clip_name.is_empty() { String::new() } else { format!(" '{clip_name}'") };
    if num_samples == 0 {
        return Err(ParseError::invalid(ns_at as u64, format!("empty clip{quoted}: num_samples = 0")));
    }
    if bones.is_empty() {
        return Err(ParseError::invalid(
            bones_at as u64,
            format!("empty clip{quoted}: no bones (and {} tracks); there is no skeleton to show", tracks.len()),
        ));
    }
    if tracks.is_empty() {
        return Err(ParseError::invalid(tracks_at as u64, format!("empty clip{quoted}: {} bones but no tracks", bones.len())));
    }
    Ok(())
}

/// Lists the clip header in the details; an additive clip also gets a warning, since its values
/// are shown raw.
fn header_details(header: &ClipHeader, clip_name: String, rate: f64, details: &mut Vec<(String, String)>, warnings: &mut Vec<RawWarning>) {
    details.push(("Clip name".into(), if clip_name.is_empty() { "(none)".into() } else { clip_name }));
    details.push(("Sample rate".into(), format!("{rate} Hz")));
    if let Some(exact) = header.is_binary_exact {
        details.push(("Binary exact".into(), exact.to_string()));
    }
    if let Some(t) = header.error_threshold {
        details.push(("Error threshold".into(), t.to_string()));
    }
    if let Some(f) = &header.additive_format {
        details.push(("Additive format".into(), f.clone()));
        if f != "none" {
            warnings.push(RawWarning {
                offset: header.off as u64,
                message: format!("additive clip ({f}): shown as raw values, not applied to its base clip"),
            });
        }
    }
    if let Some(n) = &header.additive_base_name {
        details.push(("Additive base".into(), n.clone()));
    }
    if let Some(n) = header.additive_base_num_samples {
        details.push(("Additive base samples".into(), n.to_string()));
    }
    if let Some(r) = header.additive_base_sample_rate {
        details.push(("Additive base sample rate".into(), format!("{r} Hz")));
    }
}

/// Tracks by joint index, with what is needed to check their sample counts against the header.
struct TrackMatch<'t> {
    by_joint: Vec<Option<&'t Track>>,
    /// Most samples any track holds.
    longest: usize,
    /// The first track whose sample count differs from `num_samples`, with its message.
    mismatch: Option<(usize, String)>,
}

impl<'t> TrackMatch<'t> {
    /// Gives each track to its bone; a track naming no bone, or a second track for a bone, is an error.
    fn new(tracks: &'t [Track], index_of: &HashMap<&str, usize>, n_bones: usize, num_samples: u64) -> Result<Self, ParseError> {
        let mut by_joint: Vec<Option<&Track>> = vec![None; n_bones];
        let mut longest = 0;
        let mut mismatch = None;
        for t in tracks {
            let Some(&j) = index_of.get(t.name.as_str()) else {
                return Err(ParseError::invalid(t.off as u64, format!("track '{}' names no bone of the skeleton", t.name)));
            };
            if by_joint[j].is_some() {
                return Err(ParseError::invalid(t.off as u64, format!("a second track for bone '{}'", t.name)));
            }
            for (s, what) in [(&t.rotations, "rotation"), (&t.translations, "translation"), (&t.scales, "scale")] {
                let Some(s) = s else { continue };
                longest = longest.max(s.count);
                if s.count as u64 != num_samples && mismatch.is_none() {
                    let msg = format!("track '{}' has {} {what} samples, clip says num_samples = {num_samples}", t.name, s.count);
                    mismatch = Some((s.off, msg));
                }
            }
            by_joint[j] = Some(t);
        }
        Ok(TrackMatch { by_joint, longest, mismatch })
    }

    /// The number of frames to show, refusing clips too large to hold.
    fn frames(
        &self,
        num_samples: u64,
        ns_at: usize,
        tracks_at: usize,
        n_bones: usize,
        warnings: &mut Vec<RawWarning>,
    ) -> Result<usize, ParseError> {
        let width = n_bones * CHANNELS.len();
        let mut frames = num_samples;
        if let Some((at, msg)) = &self.mismatch {
            // One rule for every file: the samples present decide (the format reference lists two
            // example samples under num_samples = 73), with a warning; shorter tracks hold.
            frames = self.longest.max(1) as u64;
            warnings.push(RawWarning {
                offset: *at as u64,
                message: format!("{msg}; showing {frames} samples, shorter tracks hold their last one"),
            });
        } else if self.longest == 0 && num_samples > 1 {
            return Err(ParseError::invalid(
                tracks_at as u64,
                format!("no track holds samples, yet the clip declares num_samples = {num_samples}"),
            ));
        }
        if frames.saturating_mul(width as u64) > MAX_VALUES {
            return Err(ParseError::invalid(ns_at as u64, format!("clip too large: {n_bones} bones × {frames} samples")));
        }
        Ok(frames as usize)
    }
}

/// One joint per bone in `order`, with the bind pose as rest values (`T Q S` per joint).
fn bone_joints(bones: &[Bone], order: &[usize], index_of: &HashMap<&str, usize>, by_joint: &[Option<&Track>]) -> (Vec<Joint>, Vec<f32>) {
    let mut joints = Vec::with_capacity(bones.len());
    let mut rest = Vec::with_capacity(bones.len() * CHANNELS.len());
    for (new, &old) in order.iter().enumerate() {
        let b = &bones[old];
        let parent = if b.parent.is_empty() { None } else { index_of.get(b.parent.as_str()).copied() };
        let mut joint = Joint::new(b.name.clone(), parent, Vec3::from(b.translation));
        joint.channels = CHANNELS.to_vec();
        joint.details = vec![
            ("Bind rotation (x y z w)".into(), fmt(&b.rotation)),
            ("Bind translation".into(), fmt(&b.translation)),
            ("Bind scale".into(), fmt(&b.scale)),
        ];
        if let Some(d) = b.vertex_distance {
            joint.details.push(("Vertex distance".into(), d.to_string()));
        }
        if by_joint[new].is_none() {
            joint.details.push(("Track".into(), "none (bind pose every frame)".into()));
        }
        rest.extend_from_slice(&b.translation);
        rest.extend_from_slice(&b.rotation);
        rest.extend_from_slice(&b.scale);
        joints.push(joint);
    }
    (joints, rest)
}

/// The frame-major values of every joint, with the bind value where a track has no samples;
/// warns about zero scales on bones that have children.
fn sample_values(
    bones: &[Bone],
    order: &[usize],
    by_joint: &[Option<&Track>],
    joints: &[Joint],
    frames: usize,
    warnings: &mut Vec<RawWarning>,
) -> Vec<f32> {
    let width = bones.len() * CHANNELS.len();
    let mut has_child = vec![false; bones.len()];
    for p in joints.iter().filter_map(|j| j.parent) {
        has_child[p] = true;
    }
    let mut values = vec![0.0f32; frames * width];
    for (j, (&old, track)) in order.iter().zip(by_joint).enumerate() {
        let b = &bones[old];
        let base = j * CHANNELS.len();
        fill::<3>(&mut values, width, base, frames, track.and_then(|t| t.translations.as_ref()), &b.translation);
        fill::<4>(&mut values, width, base + 3, frames, track.and_then(|t| t.rotations.as_ref()), &b.rotation);
        fill::<3>(&mut values, width, base + 7, frames, track.and_then(|t| t.scales.as_ref()), &b.scale);
        if has_child[j] {
            zero_scale_warning(&values, width, base + 7, frames, &b.name, track.and_then(|t| t.scales.as_ref()), b.off, warnings);
        }
    }
    values
}

/// Bone indices ordered parents first, keeping file order otherwise (ACL requires parents
/// first; files that break it are reordered with a warning).
fn parents_first(bones: &[Bone], warnings: &mut Vec<RawWarning>) -> Result<Vec<usize>, ParseError> {
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(bones.len());
    for (i, b) in bones.iter().enumerate() {
        if b.name.is_empty() {
            return Err(ParseError::invalid(b.off as u64, "bone with an empty name (\"\" means 'no parent')"));
        }
        if by_name.insert(b.name.as_str(), i).is_some() {
            return Err(ParseError::invalid(b.off as u64, format!("a second bone named '{}'", b.name)));
        }
    }
    let mut parent = Vec::with_capacity(bones.len());
    for b in bones {
        if b.parent.is_empty() {
            parent.push(None);
        } else {
            match by_name.get(b.parent.as_str()) {
                Some(&p) => parent.push(Some(p)),
                None => {
                    return Err(ParseError::invalid(
                        b.parent_off as u64,
                        format!("bone '{}' has parent '{}', which is no bone of the file", b.name, b.parent),
                    ));
                }
            }
        }
    }
    // 0 = not placed, 1 = on the current chain, 2 = placed.
    let mut state = vec![0u8; bones.len()];
    let mut order = Vec::with_capacity(bones.len());
    let mut chain = Vec::new();
    let mut moved = false;
    for start in 0..bones.len() {
        let mut i = start;
        loop {
            match state[i] {
                2 => break,
                1 => {
                    return Err(ParseError::invalid(
                        bones[i].off as u64,
                        format!("bone '{}' is its own ancestor (a parent cycle)", bones[i].name),
                    ));
                }
                _ => {}
            }
            state[i] = 1;
            chain.push(i);
            match parent[i] {
                Some(p) => i = p,
                None => break,
            }
        }
        if chain.len() > 1 {
            moved = true;
        }
        while let Some(k) = chain.pop() {
            state[k] = 2;
            order.push(k);
        }
    }
    if moved {
        warnings.push(RawWarning {
            offset: bones[0].off as u64,
            message: "bones listed before their parents were reordered parents first".into(),
        });
    }
    Ok(order)
}

/// Writes N-value samples (or the bind value) of one joint into every row.
fn fill<const N: usize>(values: &mut [f32], width: usize, col: usize, frames: usize, samples: Option<&Samples>, bind: &[f32; N]) {
    for f in 0..frames {
        let src: &[f32] = match samples {
            Some(s) if s.count > 0 => {
                let k = f.min(s.count - 1) * N;
                s.values.get(k..k + N).unwrap_or(bind)
            }
            _ => bind,
        };
        if let Some(dst) = values.get_mut(f * width + col..f * width + col + N) {
            dst.copy_from_slice(src);
        }
    }
}

/// Warns once per bone whose scale has a zero component: its children flatten onto it.
#[allow(clippy::too_many_arguments)]
fn zero_scale_warning(
    values: &[f32],
    width: usize,
    col: usize,
    frames: usize,
    name: &str,
    samples: Option<&Samples>,
    bone_off: usize,
    warnings: &mut Vec<RawWarning>,
) {
    for f in 0..frames {
        let Some(s) = values.get(f * width + col..f * width + col + 3) else { return };
        let zeros: Vec<&str> = ["x", "y", "z"].iter().zip(s).filter(|(_, v)| **v == 0.0).map(|(a, _)| *a).collect();
        if zeros.is_empty() {
            continue;
        }
        let onto = if zeros.len() == 3 { "onto its origin" } else { "onto a plane or line through it" };
        let offset = samples.map_or(bone_off, |s| s.off) as u64;
        warnings.push(RawWarning {
            offset,
            message: format!("bone '{name}' has scale {} = 0 at frame {f}: its children collapse {onto}", zeros.join(", ")),
        });
        return;
    }
}

fn fmt(v: &[f32]) -> String {
    v.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(" ")
}
