//! Animation: which TimeSensor drives the humanoid, which interpolators reach which joint
//! fields through ROUTEs, and sampling of interpolators onto a uniform frame grid.

use std::collections::HashMap;

use glam::{DQuat, DVec3};

use super::scene::{Node, Scene};
use crate::formats::error::{ParseError, RawWarning};

/// Joint fields an interpolator can drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Rotation = 0,
    Translation = 1,
    Scale = 2,
}

/// Interpolators (node ids) per animated node: rotation, translation, scale.
pub(crate) type Tracks = HashMap<usize, [Option<usize>; 3]>;

/// The chosen animation.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    pub timer: Option<usize>,
    pub tracks: Tracks,
    /// Every TimeSensor that animates the humanoid, as a take, and the index of `timer`.
    pub takes: Vec<crate::core::Take>,
    pub take: Option<usize>,
}

/// True for nodes whose fields become skeleton channels.
pub(crate) fn is_animatable(type_name: &str) -> bool {
    matches!(type_name, "HAnimJoint" | "Joint" | "HAnimSite" | "Site" | "HAnimHumanoid" | "Humanoid")
}

fn event_name(field: &str) -> &str {
    let f = field.strip_prefix("set_").unwrap_or(field);
    f.strip_suffix("_changed").unwrap_or(f)
}

/// Interpolator → the joint fields its value reaches: (target node, field, ROUTE offset).
type Outputs = HashMap<usize, Vec<(usize, Target, usize)>>;

/// TimeSensor → the interpolators its fraction drives, in ROUTE order.
type Driven = Vec<(usize, Vec<usize>)>;

/// Lists the TimeSensors that animate the humanoid as takes, picks one and collects its joint
/// tracks. `choice` names a take or gives its index; without one, the take that moves
/// (a take whose keys never change is never the default when another moves), then animates
/// the most joints, then lasts the longest, then comes first in the file.
pub(crate) fn select(scene: &Scene<'_>, choice: Option<&str>, warnings: &mut Vec<RawWarning>) -> Result<Selection, ParseError> {
    let (outputs, driven) = read_routes(scene, warnings);
    // The takes: TimeSensors that reach at least one joint.
    let animating: Vec<usize> = (0..driven.len()).filter(|&k| score(scene, &outputs, &driven[k].1).0 > 0).collect();
    let takes = list_takes(scene, &outputs, &driven, &animating);
    if takes.is_empty() {
        return Ok(Selection::default());
    }
    let at = scene.nodes[driven[animating[0]].0].offset as u64;
    let chosen = crate::formats::takes::choose(&takes, choice).map_err(|e| ParseError::invalid(at, e.to_string()))?.unwrap_or(0);
    let (timer, interps) = &driven[animating[chosen]];
    if let Some(message) = crate::formats::takes::several(&takes, chosen) {
        warnings.push(RawWarning { offset: scene.nodes[*timer].offset as u64, message });
    }
    let tracks = collect_tracks(scene, &outputs, interps, warnings);
    Ok(Selection { timer: Some(*timer), tracks, takes, take: Some(chosen) })
}

/// Sorts the ROUTEs into TimeSensor → interpolator and interpolator → joint field links;
/// ROUTEs naming unknown nodes or joining mismatched types are warned about and skipped.
fn read_routes(scene: &Scene<'_>, warnings: &mut Vec<RawWarning>) -> (Outputs, Driven) {
    let node = |name: &str| scene.defs.get(name).copied();
    let mut outputs = Outputs::new();
    let mut driven = Driven::new();
    for r in &scene.routes {
        let (Some(from), Some(to)) = (node(r.from_node), node(r.to_node)) else {
            let missing = if node(r.from_node).is_none() { r.from_node } else { r.to_node };
            warnings.push(RawWarning { offset: r.offset as u64, message: format!("ROUTE names unknown node '{missing}'; ignored") });
            continue;
        };
        let (ft, tt) = (scene.nodes[from].type_name, scene.nodes[to].type_name);
        if ft == "TimeSensor"
            && tt.ends_with("Interpolator")
            && event_name(r.from_field) == "fraction"
            && event_name(r.to_field) == "fraction"
        {
            match driven.iter_mut().find(|(t, _)| *t == from) {
                Some((_, v)) => v.push(to),
                None => driven.push((from, vec![to])),
            }
        } else if ft.ends_with("Interpolator") && event_name(r.from_field) == "value" {
            let target = match event_name(r.to_field) {
                "rotation" => Target::Rotation,
                "translation" => Target::Translation,
                "scale" => Target::Scale,
                _ => continue,
            };
            let fits = (ft == "OrientationInterpolator") == (target == Target::Rotation);
            if !fits {
                warnings.push(RawWarning {
                    offset: r.offset as u64,
                    message: format!("ROUTE from {ft} '{}' to field '{}' has the wrong type; ignored", r.from_node, r.to_field),
                });
                continue;
            }
            outputs.entry(from).or_default().push((to, target, r.offset));
        }
    }
    (outputs, driven)
}

/// How many ROUTEs from `interps` reach a joint, and how many of those carry changing values.
fn score(scene: &Scene<'_>, outputs: &Outputs, interps: &[usize]) -> (usize, usize) {
    let mut routes = 0usize;
    let mut varying = 0usize;
    for i in interps {
        for &(to, _, _) in outputs.get(i).into_iter().flatten() {
            if is_animatable(scene.nodes[to].type_name) {
                routes += 1;
                varying += usize::from(varies(&scene.nodes[*i]));
            }
        }
    }
    (routes, varying)
}

/// One take per animating TimeSensor: its name, cycle, joints reached and whether it moves.
fn list_takes(scene: &Scene<'_>, outputs: &Outputs, driven: &Driven, animating: &[usize]) -> Vec<crate::core::Take> {
    animating
        .iter()
        .enumerate()
        .map(|(n, &k)| {
            let (timer, interps) = &driven[k];
            let node = &scene.nodes[*timer];
            let mut joints: Vec<usize> = interps
                .iter()
                .flat_map(|i| outputs.get(i).into_iter().flatten())
                .filter(|(to, _, _)| is_animatable(scene.nodes[*to].type_name))
                .map(|(to, _, _)| *to)
                .collect();
            joints.sort_unstable();
            joints.dedup();
            crate::core::Take {
                name: node.def.map_or_else(|| format!("take {}", n + 1), str::to_owned),
                duration_secs: node.nums("cycleInterval").ok().flatten().and_then(|v| v.first().copied()).unwrap_or(1.0),
                joints: joints.len(),
                moving: score(scene, outputs, interps).1 > 0,
            }
        })
        .collect()
}

/// The joint fields the chosen interpolators drive; animation of other nodes is warned about
/// once, and when two drive one field the later ROUTE wins.
fn collect_tracks(scene: &Scene<'_>, outputs: &Outputs, interps: &[usize], warnings: &mut Vec<RawWarning>) -> Tracks {
    let mut tracks = Tracks::new();
    let mut warned_other = false;
    for &i in interps {
        for &(to, target, offset) in outputs.get(&i).into_iter().flatten() {
            if !is_animatable(scene.nodes[to].type_name) {
                if !warned_other {
                    warned_other = true;
                    warnings.push(RawWarning {
                        offset: offset as u64,
                        message: format!(
                            "animation of {} '{}' (not a joint) is ignored",
                            scene.nodes[to].type_name,
                            scene.nodes[to].def.unwrap_or("?")
                        ),
                    });
                }
                continue;
            }
            let slot = &mut tracks.entry(to).or_default()[target as usize];
            if slot.is_some() {
                warnings.push(RawWarning {
                    offset: offset as u64,
                    message: "two interpolators drive the same field; the later ROUTE wins".into(),
                });
            }
            *slot = Some(i);
        }
    }
    tracks
}

/// Whether an interpolator's values change over its keys (text compared, cheaply).
fn varies(node: &Node<'_>) -> bool {
    match node.nums("keyValue") {
        Ok(Some(v)) => {
            let stride = if node.type_name == "OrientationInterpolator" { 4 } else { 3 };
            v.len() > stride && v.chunks_exact(stride).any(|c| c != &v[..stride])
        }
        _ => false,
    }
}

/// An interpolator's keys and values.
#[derive(Debug)]
pub(crate) struct Keys {
    pub key: Vec<f64>,
    pub values: Vec<f64>,
    pub stride: usize,
    /// Orientation keys as quaternions, converted once (sampling would redo the trigonometry).
    quats: Vec<DQuat>,
    /// Per key segment: the end quaternion on the start's hemisphere, the arc angle and
    /// 1/sin(angle) — slerp's constant part, so a sample costs two sines.
    arcs: Vec<(DQuat, f64, f64)>,
}

impl Keys {
    /// Reads and checks `key`/`keyValue` (counts must match, keys must not decrease).
    pub fn read(node: &Node<'_>) -> Result<Keys, ParseError> {
        let stride = if node.type_name == "OrientationInterpolator" { 4 } else { 3 };
        let key = node.nums("key")?.map(|v| v.into_owned()).unwrap_or_default();
        let values = node.nums("keyValue")?.map(|v| v.into_owned()).unwrap_or_default();
        if values.len() != key.len() * stride {
            return Err(ParseError::invalid(
                node.field_offset("keyValue") as u64,
                format!(
                    "{} '{}': keyValue has {} numbers for {} keys (expected {} = {} × {stride})",
                    node.type_name,
                    node.def.unwrap_or("?"),
                    values.len(),
                    key.len(),
                    key.len() * stride,
                    key.len()
                ),
            ));
        }
        if let Some(w) = key.windows(2).position(|w| w[1] < w[0]) {
            return Err(ParseError::invalid(
                node.field_offset("key") as u64,
                format!("key {} ({}) is smaller than the key before it ({})", w + 2, key[w + 1], key[w]),
            ));
        }
        let quats: Vec<DQuat> = if stride == 4 { values.chunks_exact(4).map(axis_angle).collect() } else { Vec::new() };
        let arcs = quats
            .windows(2)
            .map(|w| {
                let b = if w[0].dot(w[1]) < 0.0 { -w[1] } else { w[1] };
                let angle = w[0].dot(b).clamp(-1.0, 1.0).acos();
                (b, angle, if angle > 1e-6 { 1.0 / angle.sin() } else { 0.0 })
            })
            .collect();
        Ok(Keys { key, values, stride, quats, arcs })
    }

    /// Segment and blend weight for fraction `f`.
    fn locate(&self, f: f64) -> Option<(usize, usize, f64)> {
        let n = self.key.len();
        if n == 0 {
            return None;
        }
        if f <= self.key[0] {
            return Some((0, 0, 0.0));
        }
        if f >= self.key[n - 1] {
            return Some((n - 1, n - 1, 0.0));
        }
        let j = self.key.partition_point(|&k| k <= f).clamp(1, n - 1);
        let (k0, k1) = (self.key[j - 1], self.key[j]);
        let t = if k1 > k0 { (f - k0) / (k1 - k0) } else { 0.0 };
        Some((j - 1, j, t))
    }

    fn item(&self, i: usize) -> &[f64] {
        &self.values[i * self.stride..(i + 1) * self.stride]
    }

    /// A position/scale at fraction `f` (linear).
    pub fn vec3(&self, f: f64) -> Option<DVec3> {
        let (a, b, t) = self.locate(f)?;
        let (va, vb) = (DVec3::from_slice(self.item(a)), DVec3::from_slice(self.item(b)));
        Some(va.lerp(vb, t))
    }

    /// A rotation at fraction `f` (slerp along the shorter arc).
    pub fn rotation(&self, f: f64) -> Option<DQuat> {
        let (a, b, t) = self.locate(f)?;
        let qa = *self.quats.get(a)?;
        if t == 0.0 || a == b {
            return Some(qa);
        }
        let (qb, angle, inv_sin) = *self.arcs.get(a)?;
        if inv_sin == 0.0 {
            // Keys this close: a normalised lerp is exact to f64 precision.
            return Some(qa.lerp(qb, t).normalize());
        }
        let (wa, wb) = (((1.0 - t) * angle).sin() * inv_sin, (t * angle).sin() * inv_sin);
        Some((qa * wa + qb * wb).normalize())
    }
}

/// X3D axis-angle (x y z angle) as a quaternion; a zero axis is no rotation.
pub(crate) fn axis_angle(v: &[f64]) -> DQuat {
    let axis = DVec3::new(v[0], v[1], v[2]);
    let len = axis.length();
    if len < 1e-12 || !len.is_finite() { DQuat::IDENTITY } else { DQuat::from_axis_angle(axis / len, v[3]) }
}

/// The sampling grid: seconds per frame and frame count. Regular keys (all on multiples of
/// the finest spacing) get frames on every key, subdivided to at least 30 fps and capped at
/// 120 fps; irregular keys get 30 fps.
pub(crate) fn grid(cycle: f64, keys: &[&Keys], looping: bool, max_frames: usize) -> (f64, usize, String) {
    let mut times: Vec<f64> = keys.iter().flat_map(|k| k.key.iter().map(|&f| f.clamp(0.0, 1.0) * cycle)).collect();
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    let dt_min = times.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min);
    let regular = dt_min.is_finite()
        && dt_min > 1e-6
        && times.iter().chain(std::iter::once(&cycle)).all(|t| {
            let x = t / dt_min;
            (x - x.round()).abs() < 1e-3
        });
    let (mut frame_time, why) = if regular {
        let per_key = (dt_min * 30.0).ceil().max(1.0);
        let ft = dt_min / per_key;
        if ft < 1.0 / 120.0 {
            (1.0 / 120.0, "key spacing finer than 120 fps: capped".to_owned())
        } else {
            (ft, "frames on every key".to_owned())
        }
    } else {
        (1.0 / 30.0, "irregular key spacing".to_owned())
    };
    let mut n = (cycle / frame_time).round().max(1.0);
    if n > max_frames as f64 {
        n = max_frames.max(1) as f64;
    }
    frame_time = cycle / n;
    let frames = n as usize + usize::from(!looping);
    (frame_time, frames, format!("{:.3} fps ({why})", 1.0 / frame_time))
}
