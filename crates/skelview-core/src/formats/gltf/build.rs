//! Maps a glTF 2.0 document onto skelview's model.
//!
//! Joints are the nodes of every skin (their union), or, in a file without skins, the
//! animated nodes; their ancestors come too, because a parent's transform (an `Armature`
//! node turned to Y-up, a `Z_UP` node) moves them. Every joint has ten channels `Tx Ty Tz Qx
//! Qy Qz Qw Sx Sy Sz` holding its local translation, rotation and scale, with the node's own
//! TRS (a matrix decomposed) as the rest pose. Each animation is a take; the chosen one is
//! sampled at the rate its keys share (else 30 fps), frame 0 at time 0 and the last frame
//! holding the last key.

use std::collections::{HashMap, HashSet};

use glam::{Vec3, Vec4};

use super::accessor::check_accessor;
use super::sample::{Interpolation, Track, shared_rate};
use crate::core::character_extensions::CharacterExtensions;
use crate::core::{ChannelKind, Clip, Joint, PositionRule, Skeleton, Take};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::finish::Parsed;

pub use super::invalid::Invalid;

const CHANNELS: [ChannelKind; 10] = ChannelKind::TRANSLATION_QUATERNION_SCALE;

/// Most values a clip may hold (512 MiB of f32): refuses absurd joints × frames products.
const MAX_VALUES: u64 = 1 << 27;

/// The frame rate used when the keys share none.
pub const FALLBACK_FPS: f64 = 30.0;

/// Which part of a node a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Path {
    Translation,
    Rotation,
    Scale,
}

/// The keys of one animation channel.
fn read_track(channel: &::gltf::animation::Channel, buffers: &[::gltf::buffer::Data]) -> Result<Option<(usize, Path, Track)>, Invalid> {
    let path = match channel.target().property() {
        ::gltf::animation::Property::Translation => Path::Translation,
        ::gltf::animation::Property::Rotation => Path::Rotation,
        ::gltf::animation::Property::Scale => Path::Scale,
        ::gltf::animation::Property::MorphTargetWeights => return Ok(None),
    };
    let sampler = channel.sampler();
    check_accessor(&sampler.input(), buffers)?;
    check_accessor(&sampler.output(), buffers)?;
    // The types the spec allows, checked before the crate's readers (which panic on others).
    use ::gltf::accessor::{DataType, Dimensions};
    let (input, output) = (sampler.input(), sampler.output());
    if input.dimensions() != Dimensions::Scalar || input.data_type() != DataType::F32 {
        return Err(Invalid::Times { sampler: sampler.index(), accessor: input.index() });
    }
    let fits = match path {
        Path::Translation | Path::Scale => output.dimensions() == Dimensions::Vec3 && output.data_type() == DataType::F32,
        Path::Rotation => output.dimensions() == Dimensions::Vec4 && output.data_type() != DataType::U32,
    };
    if !fits {
        let (dimensions, data_type, path) = (output.dimensions(), output.data_type(), format!("{path:?}"));
        return Err(Invalid::Output { sampler: sampler.index(), accessor: output.index(), dimensions, data_type, path });
    }
    let reader = channel.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
    let times: Vec<f32> = reader.read_inputs().ok_or(Invalid::Unreadable("input"))?.collect();
    check_times(sampler.index(), &times)?;
    use ::gltf::animation::util::ReadOutputs;
    let values: Vec<Vec4> = match reader.read_outputs().ok_or(Invalid::Unreadable("output"))? {
        ReadOutputs::Translations(it) | ReadOutputs::Scales(it) => it.map(|v| Vec3::from(v).extend(0.0)).collect(),
        ReadOutputs::Rotations(r) => r.into_f32().map(Vec4::from).collect(),
        ReadOutputs::MorphTargetWeights(_) => return Ok(None),
    };
    let interpolation = match sampler.interpolation() {
        ::gltf::animation::Interpolation::Linear => Interpolation::Linear,
        ::gltf::animation::Interpolation::Step => Interpolation::Step,
        ::gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
    };
    let per_key = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    if values.len() != times.len() * per_key {
        return Err(Invalid::ValueCount {
            sampler: sampler.index(),
            keys: times.len(),
            values: values.len(),
            expected: times.len() * per_key,
        });
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(Invalid::NotFinite { sampler: sampler.index() });
    }
    let track = Track { times, values, interpolation, rotation: path == Path::Rotation };
    Ok(Some((channel.target().node().index(), path, track)))
}

/// Refuses key times that cannot be played: not numbers, or going back. A time equal to the
/// one before is kept (three.js, Blender and Babylon.js play it as a step: [`Track::at`]).
fn check_times(sampler: usize, times: &[f32]) -> Result<(), Invalid> {
    if let Some((key, &time)) = times.iter().enumerate().find(|(_, t)| !t.is_finite()) {
        return Err(Invalid::KeyTimeNotFinite { sampler, key, time });
    }
    if let Some(k) = times.windows(2).position(|w| w[1] < w[0]) {
        return Err(Invalid::KeyTimesGoBack { sampler, key: k + 1, time: times[k + 1], before: k, previous: times[k] });
    }
    Ok(())
}

/// Parents of every node (`None` for scene roots).
fn parents(doc: &::gltf::Document) -> Result<Vec<Option<usize>>, Invalid> {
    let mut parent = vec![None; doc.nodes().len()];
    for n in doc.nodes() {
        for c in n.children() {
            if parent[c.index()].replace(n.index()).is_some() || c.index() == n.index() {
                return Err(Invalid::TwoParents { node: c.index() });
            }
        }
    }
    // A loop of single parents (A under B under A) would make every walk up the tree endless:
    // each path up is followed once, until a root or a node already known to reach one.
    let (mut state, mut path) = (vec![0u8; parent.len()], Vec::new());
    for start in 0..parent.len() {
        let mut n = Some(start);
        while let Some(k) = n.filter(|&k| state[k] != 2) {
            if state[k] == 1 {
                return Err(Invalid::OwnAncestor { node: k });
            }
            state[k] = 1;
            path.push(k);
            n = parent[k];
        }
        path.drain(..).for_each(|k| state[k] = 2);
    }
    Ok(parent)
}

/// An animation's name and the tracks read from its channels (node, path, keys).
type Animation = (String, Vec<(usize, Path, Track)>);

/// Builds the skeleton and the clip of the take `choice` (a name or an index; by the take
/// list's rule when `None`), at `fps` when given; `humanoid` names nodes' humanoid bones (VRM),
/// and `extensions` is the root `extensions` JSON a character's writer keeps (a VRM avatar's).
pub fn build(
    doc: &::gltf::Document,
    buffers: &[::gltf::buffer::Data],
    choice: Option<&str>,
    fps: Option<f64>,
    humanoid: &HashMap<usize, String>,
    base: Option<&std::path::Path>,
    extensions: Option<String>,
) -> Result<(Parsed, Vec<RawWarning>), ParseError> {
    let bad = |m: String| ParseError::invalid(0, m);
    let mut warnings = Vec::new();
    let parent = parents(doc).map_err(|e| bad(e.to_string()))?;
    let (mut animations, repaired): (Vec<Animation>, Vec<Option<String>>) = read_animations(doc, buffers)?.into_iter().unzip();
    let (wanted, skinned) = joint_set(doc, &parent, &animations, humanoid, &mut warnings)?;
    let order = node_order(doc, &parent, &wanted);
    let index_of: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let (joints, rest) = node_joints(doc, &order, &parent, &index_of, humanoid, skinned);

    let takes = list_takes(&animations, &index_of);
    let chosen = crate::formats::takes::choose(&takes, choice).map_err(|e| bad(e.to_string()))?;
    if let Some(message) = chosen.and_then(|c| crate::formats::takes::several(&takes, c)) {
        warnings.push(RawWarning { offset: 0, message });
    }
    // Only the sampled take's repairs change what is shown.
    if let Some(message) = chosen.and_then(|c| repaired[c].clone()) {
        warnings.push(RawWarning { offset: 0, message });
    }

    let mut details = Vec::new();
    if let Some(c) = chosen {
        details.push(("Animation".into(), takes[c].name.clone()));
    }
    let tracks: Vec<(usize, Path, Track)> = chosen.map(|c| std::mem::take(&mut animations[c].1)).unwrap_or_default();
    let refs: Vec<&Track> = tracks.iter().map(|(_, _, t)| t).collect();
    let duration = refs.iter().filter_map(|t| t.times.last()).fold(0.0f32, |a, &b| a.max(b)) as f64;
    let (fps, rate_note) = frame_rate(fps, &refs)?;
    details.push(("Frame rate".into(), format!("{fps} fps ({rate_note})")));
    let interpolations: HashSet<String> = refs.iter().map(|t| format!("{:?}", t.interpolation).to_uppercase()).collect();
    let mut interpolations: Vec<String> = interpolations.into_iter().collect();
    interpolations.sort();
    if !interpolations.is_empty() {
        details.push(("Samplers".into(), interpolations.join(", ")));
    }
    details.push(("Skins".into(), doc.skins().len().to_string()));
    details.push(("Animations".into(), takes.len().to_string()));
    let frames = ((duration * fps - 1e-4).ceil().max(0.0) as u64).saturating_add(1);
    let width = joints.len() * CHANNELS.len();
    if frames.saturating_mul(width as u64) > MAX_VALUES {
        return Err(bad(format!("animation too long to sample: {} joints × {frames} frames", joints.len())));
    }
    let frames = frames as usize;
    let values = sample_tracks(&tracks, &index_of, &rest, frames, fps, duration);
    let skeleton = Skeleton::new(joints, PositionRule::Replace).and_then(|s| s.with_rest_values(rest)).map_err(|e| bad(e.to_string()))?;
    let clip = Clip::new(1.0 / fps, width, frames, values);
    let mut parsed = Parsed::new(skeleton, clip, "quaternion");
    let sampling = super::meshes::Sampling { animation: chosen, fps, frames, duration_secs: duration };
    let nodes = super::meshes::Nodes { joint_of: &index_of, parent: &parent };
    let (mut set, origins) = super::meshes::read(doc, buffers, base, &nodes, &sampling, &mut warnings);
    if let Some(json) = extensions {
        let joint_of_node = (0..doc.nodes().len()).map(|n| index_of.get(&n).copied()).collect();
        set.extensions = Some(std::sync::Arc::new(CharacterExtensions { json, joint_of_node, origins }));
    }
    parsed.meshes = Some(set);
    parsed.unit = Some(crate::core::LengthUnit::Metre);
    parsed.up = Some(crate::core::UpAxis::Y);
    parsed.declared_units = Some("metres (glTF)".into());
    parsed.details = details;
    parsed.takes = (takes, chosen);
    Ok((parsed, warnings))
}

/// Every animation's tracks, read once: takes list them, the chosen one is sampled. With each,
/// the warning its repeated key times call for (if any).
fn read_animations(doc: &::gltf::Document, buffers: &[::gltf::buffer::Data]) -> Result<Vec<(Animation, Option<String>)>, ParseError> {
    let mut animations = Vec::new();
    for a in doc.animations() {
        let mut tracks = Vec::new();
        // Sampler index, repeated times, key times (channels may share a sampler: counted once).
        let mut repeats: Vec<(usize, usize, usize)> = Vec::new();
        for c in a.channels() {
            if let Some(t) = read_track(&c, buffers).map_err(|e| ParseError::invalid(0, format!("animation {}: {e}", a.index())))? {
                let n = t.2.times.windows(2).filter(|w| w[1] == w[0]).count();
                let s = c.sampler().index();
                if n > 0 && repeats.iter().all(|r| r.0 != s) {
                    repeats.push((s, n, t.2.times.len()));
                }
                tracks.push(t);
            }
        }
        let name = a.name().map_or_else(|| format!("animation {}", a.index()), str::to_owned);
        animations.push(((name, tracks), repeated_times(a.index(), &repeats)));
    }
    Ok(animations)
}

/// What was made of key times equal to the one before: steps, as three.js (its interpolants
/// take the later key from that time on), Blender and Babylon.js play them.
fn repeated_times(animation: usize, repeats: &[(usize, usize, usize)]) -> Option<String> {
    let (repeated, keys) = repeats.iter().fold((0, 0), |(r, k), s| (r + s.1, k + s.2));
    let who = match repeats {
        [] => return None,
        [(s, ..)] => format!("sampler {s} repeats {repeated} of its {keys} key times"),
        _ => {
            let list: Vec<String> = repeats.iter().map(|r| r.0.to_string()).collect();
            format!("{} samplers ({}) repeat {repeated} of their {keys} key times", repeats.len(), list.join(", "))
        }
    };
    Some(format!(
        "animation {animation}: {who} (a key at the same time as the one before): each is played as a step, \
         the earlier key's value up to that time and the later key's from it, as three.js, Blender and Babylon.js play it"
    ))
}

/// The joint set: skins' joints (or animated nodes and humanoid bones), with their ancestors;
/// also whether it came from skins.
fn joint_set(
    doc: &::gltf::Document,
    parent: &[Option<usize>],
    animations: &[Animation],
    humanoid: &HashMap<usize, String>,
    warnings: &mut Vec<RawWarning>,
) -> Result<(HashSet<usize>, bool), ParseError> {
    let mut wanted: HashSet<usize> = HashSet::new();
    for skin in doc.skins() {
        let mut seen = HashSet::new();
        for j in skin.joints() {
            if !seen.insert(j.index()) {
                let name = skin.name().map_or_else(|| skin.index().to_string(), |n| format!("'{n}'"));
                return Err(ParseError::invalid(0, format!("skin {name} names joint node {} twice", j.index())));
            }
            wanted.insert(j.index());
        }
    }
    let skinned = !wanted.is_empty();
    if !skinned {
        wanted.extend(animations.iter().flat_map(|(_, t)| t.iter().map(|(node, _, _)| *node)));
        // Humanoid bones are joints whether animated or not (a VRMA's head that only
        // follows the neck, as bvh2vrma writes it).
        let nodes = doc.nodes().len();
        wanted.extend(humanoid.keys().copied().filter(|&n| n < nodes));
        if !wanted.is_empty() {
            let message = if humanoid.is_empty() {
                "no skin: the animated nodes and their parents are the skeleton"
            } else {
                "no skin: the animated nodes, the humanoid bones and their parents are the skeleton"
            };
            warnings.push(RawWarning { offset: 0, message: message.into() });
        }
    }
    if wanted.is_empty() {
        return Err(ParseError::invalid(0, "no skin and no animated node: nothing to show as a skeleton".to_string()));
    }
    for n in wanted.clone() {
        let mut p = parent[n];
        while let Some(q) = p {
            wanted.insert(q);
            p = parent[q];
        }
    }
    Ok((wanted, skinned))
}

/// The file's node order when it already puts parents first (skelview writes it so); else
/// depth-first from the roots.
fn node_order(doc: &::gltf::Document, parent: &[Option<usize>], wanted: &HashSet<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = wanted.iter().copied().collect();
    order.sort_unstable();
    if order.iter().any(|&n| parent[n].is_some_and(|p| p > n)) {
        order.clear();
        let mut stack: Vec<usize> =
            doc.nodes().filter(|n| parent[n.index()].is_none() && wanted.contains(&n.index())).map(|n| n.index()).collect();
        stack.reverse();
        while let Some(n) = stack.pop() {
            order.push(n);
            let node = doc.nodes().nth(n).expect("index from the document");
            stack.extend(node.children().map(|c| c.index()).filter(|c| wanted.contains(c)).collect::<Vec<_>>().into_iter().rev());
        }
    }
    order
}

/// One joint per node in `order`, with the node's own TRS as its rest values.
fn node_joints(
    doc: &::gltf::Document,
    order: &[usize],
    parent: &[Option<usize>],
    index_of: &HashMap<usize, usize>,
    humanoid: &HashMap<usize, String>,
    skinned: bool,
) -> (Vec<Joint>, Vec<f32>) {
    let skin_joints: HashSet<usize> = doc.skins().flat_map(|s| s.joints().map(|j| j.index()).collect::<Vec<_>>()).collect();
    let mut joints = Vec::with_capacity(order.len());
    let mut rest = Vec::with_capacity(order.len() * CHANNELS.len());
    let mut names: HashMap<String, usize> = HashMap::new();
    for &n in order {
        let node = doc.nodes().nth(n).expect("index from the document");
        let (t, r, s) = node.transform().decomposed();
        let base = node.name().map_or_else(|| format!("node {n}"), str::to_owned);
        // Names must be unique to be picked and matched: a repeated one gets its node index.
        let count = names.entry(base.clone()).or_insert(0);
        *count += 1;
        let name = if *count > 1 { format!("{base} (node {n})") } else { base };
        let mut joint = Joint::new(name, parent[n].and_then(|p| index_of.get(&p).copied()), Vec3::from(t));
        joint.channels = CHANNELS.to_vec();
        joint.details = vec![("glTF node".into(), n.to_string())];
        if let Some(bone) = humanoid.get(&n) {
            joint.humanoid = Some(bone.clone());
            joint.details.push(("VRM humanoid bone".into(), bone.clone()));
        }
        if skinned && !skin_joints.contains(&n) {
            joint.details.push(("Role".into(), "ancestor of the skin's joints".into()));
            // Above every skin joint (an `Armature` or `Z_UP` node): a transform, not a bone.
            joint.is_transform = joint.parent.is_none_or(|p| joints.get(p).is_some_and(|q: &Joint| q.is_transform));
        }
        if let ::gltf::scene::Transform::Matrix { .. } = node.transform() {
            joint.details.push(("Transform".into(), "matrix (decomposed)".into()));
        }
        rest.extend_from_slice(&t);
        rest.extend_from_slice(&r);
        rest.extend_from_slice(&s);
        joints.push(joint);
    }
    (joints, rest)
}

/// One take per animation: its length, how many joints it drives, whether anything moves.
fn list_takes(animations: &[Animation], index_of: &HashMap<usize, usize>) -> Vec<Take> {
    animations
        .iter()
        .map(|(name, tracks)| Take {
            name: name.clone(),
            duration_secs: tracks.iter().filter_map(|(_, _, t)| t.times.last()).fold(0.0f32, |a, &b| a.max(b)) as f64,
            joints: tracks.iter().map(|(n, _, _)| *n).filter(|n| index_of.contains_key(n)).collect::<HashSet<_>>().len(),
            moving: tracks.iter().any(|(_, _, t)| t.moves()),
        })
        .collect()
}

/// The sampling rate (`--fps`, else the rate the keys share, else 30 fps) and where it came from.
fn frame_rate(fps: Option<f64>, refs: &[&Track]) -> Result<(f64, &'static str), ParseError> {
    Ok(match (fps, shared_rate(refs)) {
        (Some(f), _) if f.is_finite() && f > 0.0 => (f, "--fps"),
        (Some(f), _) => return Err(ParseError::invalid(0, format!("--fps {f}: expected a rate above 0"))),
        (None, Some(r)) => (r, "the keys' own rate"),
        (None, None) if refs.is_empty() => (FALLBACK_FPS, "no keys: the rest pose"),
        (None, None) => (FALLBACK_FPS, "the keys share no rate: sampled at 30 fps; --fps chooses another"),
    })
}

/// Samples the tracks at every frame over rows that start as the rest pose; tracks of nodes
/// that are not joints are skipped.
fn sample_tracks(
    tracks: &[(usize, Path, Track)],
    index_of: &HashMap<usize, usize>,
    rest: &[f32],
    frames: usize,
    fps: f64,
    duration: f64,
) -> Vec<f32> {
    let width = rest.len();
    let mut values = Vec::with_capacity(frames * width);
    for _ in 0..frames {
        values.extend_from_slice(rest);
    }
    for (node, path, track) in tracks {
        let Some(&j) = index_of.get(node) else { continue };
        let (at, len) = match path {
            Path::Translation => (0, 3),
            Path::Rotation => (3, 4),
            Path::Scale => (7, 3),
        };
        for f in 0..frames {
            let t = ((f as f64 / fps).min(duration)) as f32;
            let v = track.at(t).to_array();
            let base = f * width + j * CHANNELS.len() + at;
            values[base..base + len].copy_from_slice(&v[..len]);
        }
    }
    values
}
