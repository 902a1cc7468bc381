//! H-Anim humanoids in X3D (XML) and ClassicVRML.
//!
//! Both encodings are read into one neutral scene graph (`scene`), from which `build`
//! makes the skeleton (joints and sites at their true X3D world positions) and `anim` the
//! clip (the TimeSensor driving the most joint ROUTEs, its interpolators resampled).

mod anim;
mod build;
mod format;
mod motion;
mod scene;
mod vrml;
mod xml;

pub use format::{FORMAT, HAnim};

use std::collections::HashMap;

use glam::{DAffine3, DVec3};

use crate::core::{Clip, PositionRule, Skeleton};
use crate::formats::error::{ParseError, RawWarning};
use anim::Keys;
use build::{Builder, Xf};
use motion::{MOTION_TRACK, Motion};
use scene::Scene;

/// A parsed H-Anim humanoid with its animation.
#[derive(Clone, Debug)]
pub struct ParsedHAnim {
    /// Joints (HAnimJoint), sites (end-site markers) and, when animated or alone, the humanoid.
    pub skeleton: Skeleton,
    /// The chosen TimeSensor's animation resampled on a uniform grid (empty when static).
    pub clip: Clip,
    /// Problems that did not stop the load.
    pub warnings: Vec<RawWarning>,
    /// Facts for the inspector: humanoid name, version, LOA, counts, TimeSensor, sampling.
    pub details: Vec<(String, String)>,
    /// The TimeSensors that animate the humanoid, and the index of the one played.
    pub takes: (Vec<crate::core::Take>, Option<usize>),
}

/// X3D XML encoding.
pub fn parse_x3d(bytes: &[u8]) -> Result<ParsedHAnim, ParseError> {
    parse_x3d_take(bytes, None)
}

/// X3D XML, playing the take `take` (a TimeSensor's name or index) when given.
pub fn parse_x3d_take(bytes: &[u8], take: Option<&str>) -> Result<ParsedHAnim, ParseError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| ParseError::invalid(e.valid_up_to() as u64, "X3D XML must be UTF-8: invalid byte sequence here"))?;
    let doc = xml::parse_document(text)?;
    build_all(xml::scene_from_xml(&doc), take)
}

/// ClassicVRML encoding (`#X3D V3.x` / `#VRML V2.0` headers holding HAnim nodes).
pub fn parse_vrml(bytes: &[u8]) -> Result<ParsedHAnim, ParseError> {
    parse_vrml_take(bytes, None)
}

/// ClassicVRML, playing the take `take` when given.
pub fn parse_vrml_take(bytes: &[u8], take: Option<&str>) -> Result<ParsedHAnim, ParseError> {
    build_all(vrml::scene_from_vrml(bytes)?, take)
}

/// Most frames a clip gets, and most values (frames × channels).
const MAX_FRAMES: usize = 200_000;
const MAX_VALUES: usize = 20_000_000;

/// The first humanoid (depth first) and the static transform of the nodes above it.
fn find_humanoid(scene: &Scene<'_>) -> (Option<(usize, DAffine3)>, usize) {
    let mut found = None;
    let mut count = 0;
    let mut stack: Vec<(usize, DAffine3, usize)> = scene.top.iter().rev().map(|&id| (id, DAffine3::IDENTITY, 0)).collect();
    while let Some((id, acc, depth)) = stack.pop() {
        let node = &scene.nodes[id];
        if matches!(node.type_name, "HAnimHumanoid" | "Humanoid") {
            count += 1;
            if found.is_none() {
                found = Some((id, acc));
            }
            continue;
        }
        if depth > 256 {
            continue;
        }
        let acc = if node.type_name == "Transform" { acc * Xf::read(node).map(|x| x.matrix()).unwrap_or(DAffine3::IDENTITY) } else { acc };
        for &(_, child, is_use) in node.children.iter().rev() {
            if !is_use {
                stack.push((child, acc, depth + 1));
            }
        }
    }
    (found, count)
}

/// Builds the skeleton and clip of the first humanoid in `scene`, playing the take `take`.
fn build_all(mut scene: Scene<'_>, take: Option<&str>) -> Result<ParsedHAnim, ParseError> {
    let mut warnings = std::mem::take(&mut scene.warnings);
    let (found, humanoids) = find_humanoid(&scene);
    let Some((hum, world)) = found else {
        return Err(ParseError::invalid(0, "no HAnimHumanoid in this file"));
    };
    let hnode = &scene.nodes[hum];
    let (name, world, mut details) = humanoid_details(&scene, hum, humanoids, world, &mut warnings);
    let (mut sel, motion, keys) = animation_sources(&scene, take, &mut warnings)?;

    let mut b = Builder {
        scene: &scene,
        tracks: &sel.tracks,
        joints: Vec::new(),
        specs: Vec::new(),
        visited: Default::default(),
        warned: Default::default(),
        warnings: Vec::new(),
        counts: [0; 3],
    };
    place_tree(&mut b, hum, &name, world)?;
    for (field, count) in [("joints", 0), ("sites", 1), ("segments", 2)] {
        details.push((field.into(), b.counts[count].to_string()));
    }

    let mut rest = Vec::new();
    b.row(&keys, None, &mut rest);
    let joints = std::mem::take(&mut b.joints);
    let skeleton = Skeleton::new(joints, PositionRule::Add)
        .and_then(|s| s.with_rest_values(rest))
        .map_err(|e| ParseError::invalid(hnode.offset as u64, e.to_string()))?;
    let cpf = skeleton.channels_per_frame();
    let clip = sample_clip(&b, sel.timer, motion.as_ref(), &keys, cpf, &mut details)?;
    warnings.append(&mut b.warnings);
    Ok(ParsedHAnim { skeleton, clip, warnings, details, takes: (std::mem::take(&mut sel.takes), sel.take) })
}

/// The humanoid's name, its world transform with the scene's UNIT applied, and the first
/// inspector details (name, units, version, configuration, LOA); warns when there are others.
fn humanoid_details(
    scene: &Scene<'_>,
    hum: usize,
    humanoids: usize,
    mut world: DAffine3,
    warnings: &mut Vec<RawWarning>,
) -> (String, DAffine3, Vec<(String, String)>) {
    let hnode = &scene.nodes[hum];
    let name = hnode.string("name").filter(|n| !n.is_empty()).or(hnode.def.map(str::to_owned)).unwrap_or_else(|| "humanoid".into());
    if humanoids > 1 {
        warnings.push(RawWarning {
            offset: hnode.offset as u64,
            message: format!("{humanoids} humanoids in this file; showing the first ('{name}')"),
        });
    }
    let mut details = vec![("humanoid".to_owned(), name.clone())];
    if let Some((unit, factor)) = &scene.length_unit {
        world = DAffine3::from_scale(DVec3::splat(*factor)) * world;
        details.push(("units".into(), format!("UNIT length {unit} = {factor} m")));
    } else {
        details.push(("units".into(), "metres (X3D default)".into()));
    }
    details.push(("H-Anim version".into(), hnode.string("version").filter(|v| !v.is_empty()).unwrap_or_else(|| "(not stated)".into())));
    details.push(("skeletalConfiguration".into(), hnode.string("skeletalConfiguration").unwrap_or_else(|| "BASIC (default)".into())));
    if let Some(loa) = hnode.string("loa") {
        details.push(("LOA".into(), loa));
    }
    (name, world, details)
}

/// What animates the humanoid: the chosen TimeSensor's interpolators (their keys read once),
/// else HAnimMotion raw data, whose joints get a translation slot where it moves them.
fn animation_sources(
    scene: &Scene<'_>,
    take: Option<&str>,
    warnings: &mut Vec<RawWarning>,
) -> Result<(anim::Selection, Option<Motion>, HashMap<usize, Keys>), ParseError> {
    let mut sel = anim::select(scene, take, warnings)?;
    // HAnimMotion raw data plays when no TimeSensor animates the joints.
    let motion = if sel.timer.is_none() { Motion::find(scene, warnings)? } else { None };
    if let Some(m) = &motion {
        for (&id, cols) in &m.joints {
            let slots = sel.tracks.entry(id).or_default();
            if cols.position.iter().any(Option::is_some) {
                slots[anim::Target::Translation as usize] = Some(MOTION_TRACK);
            }
        }
    } else if sel.timer.is_some() {
        motion_note(scene, warnings);
    }
    let mut keys: HashMap<usize, Keys> = HashMap::new();
    for slots in sel.tracks.values() {
        for &i in slots.iter().flatten().filter(|&&i| i != MOTION_TRACK) {
            if let std::collections::hash_map::Entry::Vacant(slot) = keys.entry(i) {
                slot.insert(Keys::read(&scene.nodes[i])?);
            }
        }
    }
    Ok((sel, motion, keys))
}

/// Walks the humanoid's tree into `b`: the humanoid itself is a joint when animated or when it
/// has no joints; joints listed but outside the tree go under it, with a warning.
fn place_tree(b: &mut Builder<'_, '_>, hum: usize, name: &str, world: DAffine3) -> Result<(), ParseError> {
    let scene = b.scene;
    let hnode = &scene.nodes[hum];
    let hxf = Xf::read(hnode)?;
    let in_field = |fields: &[&str], defs_only: bool| -> Vec<usize> {
        hnode.children.iter().filter(|(f, _, u)| fields.contains(f) && !(defs_only && *u)).map(|&(_, c, _)| c).collect()
    };
    let mut roots = in_field(&["skeleton", "humanoidBody", "children"], false);
    let has_joint = |ids: &[usize]| ids.iter().any(|&c| matches!(scene.nodes[c].type_name, "HAnimJoint" | "Joint" | "HAnimSite" | "Site"));
    if !has_joint(&roots) {
        // Joints defined inline in the `joints` list (no skeleton field): their tree is the skeleton.
        roots.extend(in_field(&["joints"], true));
    }
    let (parent, c_p, acc) = if b.tracks.contains_key(&hum) || !has_joint(&roots) {
        if !has_joint(&roots) {
            b.warnings.push(RawWarning { offset: hnode.offset as u64, message: format!("humanoid '{name}' has no joints") });
        }
        let h = b.add_joint(hum, None, DVec3::ZERO, world)?;
        (h, hxf.c, DAffine3::IDENTITY)
    } else {
        (None, DVec3::ZERO, world * hxf.matrix())
    };
    for &r in &roots {
        if b.visited.contains(&r) {
            continue; // a USE of a root already placed (skeleton written both inline and as USE)
        }
        b.visit(r, parent, c_p, acc, 0)?;
    }
    for r in in_field(&["joints", "sites", "viewpoints"], false) {
        let t = scene.nodes[r].type_name;
        if !b.visited.contains(&r) && matches!(t, "HAnimJoint" | "Joint" | "HAnimSite" | "Site") {
            let what = scene.nodes[r].def.unwrap_or(t);
            b.warnings.push(RawWarning {
                offset: scene.nodes[r].offset as u64,
                message: format!("'{what}' is listed but not in the skeleton; shown under the humanoid"),
            });
            b.visit(r, parent, c_p, acc, 0)?;
        }
    }
    Ok(())
}

/// Samples the clip: HAnimMotion frames as written, the TimeSensor's cycle on a uniform grid,
/// or an empty clip for a static humanoid; the sampling goes into the details.
fn sample_clip(
    b: &Builder<'_, '_>,
    timer: Option<usize>,
    motion: Option<&Motion>,
    keys: &HashMap<usize, Keys>,
    cpf: usize,
    details: &mut Vec<(String, String)>,
) -> Result<Clip, ParseError> {
    Ok(match (timer, motion) {
        (None, Some(m)) => {
            details.push(("HAnimMotion".into(), format!("{} ({} frames)", m.name, m.frames)));
            details
                .push(("sampling".into(), format!("{:.3} fps (frameDuration {} s, frames as written)", 1.0 / m.frame_time, m.frame_time)));
            let frames = m.frames.min(MAX_VALUES / cpf.max(1));
            let mut values = Vec::with_capacity(frames * cpf);
            for k in 0..frames {
                b.row_motion(m, k, &mut values);
            }
            Clip::new(m.frame_time, cpf, frames, values)
        }
        (Some(t), _) => {
            let tnode = &b.scene.nodes[t];
            let cycle = tnode.nums("cycleInterval")?.and_then(|v| v.first().copied()).unwrap_or(1.0);
            if !(cycle > 0.0 && cycle.is_finite()) {
                return Err(ParseError::invalid(
                    tnode.field_offset("cycleInterval") as u64,
                    format!("cycleInterval must be positive, found {cycle}"),
                ));
            }
            let looping = tnode.boolean("loop").unwrap_or(false);
            let max_frames = MAX_FRAMES.min(MAX_VALUES / cpf.max(1));
            let key_list: Vec<&Keys> = keys.values().collect();
            let (frame_time, frames, why) = anim::grid(cycle, &key_list, looping, max_frames);
            details.push(("TimeSensor".into(), format!("{} (cycleInterval {cycle} s, loop {looping})", tnode.def.unwrap_or("?"))));
            details.push(("sampling".into(), why));
            let mut values = Vec::with_capacity(frames * cpf);
            for k in 0..frames {
                let f = (k as f64 * frame_time / cycle).min(1.0);
                b.row(keys, Some(f), &mut values);
            }
            if values.len() != frames * cpf {
                return Err(ParseError::invalid(tnode.offset as u64, "internal: channel count mismatch"));
            }
            Clip::new(frame_time, cpf, frames, values)
        }
        (None, None) => {
            details.push(("TimeSensor".into(), "none (static humanoid)".into()));
            Clip::empty(1.0 / 30.0, cpf)
        }
    })
}

/// An HAnimMotion that loses to interpolators: say so.
fn motion_note(scene: &Scene<'_>, warnings: &mut Vec<RawWarning>) {
    if let Some(m) =
        scene.nodes.iter().find(|n| n.type_name == "HAnimMotion" && n.nums("values").ok().flatten().is_some_and(|v| !v.is_empty()))
    {
        warnings.push(RawWarning {
            offset: m.offset as u64,
            message: "HAnimMotion data is not played: interpolators animate this humanoid".into(),
        });
    }
}
