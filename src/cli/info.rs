//! `skelview info`: what a file holds.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Args, ExitCode, fail, load_all};
use skelview_core::core::Motion;
use skelview_core::formats::mnm::NameMap;

/// Channel counts and rotation orders, summarised over joints.
fn channel_summary(m: &Motion) -> (BTreeMap<usize, usize>, BTreeMap<String, usize>) {
    let mut counts = BTreeMap::new();
    let mut orders = BTreeMap::new();
    for j in m.skeleton.joints().iter().filter(|j| !j.is_end_site) {
        *counts.entry(j.channels.len()).or_insert(0) += 1;
        let order = j.rotation_order();
        if !order.is_empty() {
            *orders.entry(order).or_insert(0) += 1;
        }
    }
    (counts, orders)
}

fn position_rule_text(m: &Motion) -> String {
    let choosable = skelview_core::formats::table::by_format_name(m.source.format.name)
        .is_some_and(|f| f.options().iter().any(|o| std::ptr::eq(o, &skelview_core::formats::bvh::POSITIONS)));
    if !choosable {
        return m.source.format.position_note.into();
    }
    let replace = m.skeleton.position_rule == skelview_core::core::PositionRule::Replace;
    format!(
        "{} (position channels {} the OFFSET; --bvh-positions {} for the other rule)",
        m.skeleton.position_rule.name(),
        if replace { "replace" } else { "are added to" },
        if replace { "add" } else { "replace" },
    )
}

/// `(joint index, standard name)` for the joints an MNM map names (its right column, compared
/// case-insensitively, as Character Studio does).
fn mapped_names(m: &Motion, map: &NameMap) -> Vec<(usize, String)> {
    m.skeleton
        .joints()
        .iter()
        .enumerate()
        .filter_map(|(i, j)| map.iter().find(|(_, custom)| custom.eq_ignore_ascii_case(&j.name)).map(|(std, _)| (i, std.clone())))
        .collect()
}

/// `info --gpu`: the adapter pictures are drawn with, and those that gave no device first.
pub(super) fn gpu(out: &mut dyn Write) -> ExitCode {
    match skelview_render::offscreen::headless() {
        Ok(g) => {
            let _ = writeln!(out, "gpu:             {}", g.adapter);
            for f in &g.fell_back_from {
                let _ = writeln!(out, "  tried first:   {f}");
            }
            0
        }
        Err(e) => {
            let _ = writeln!(out, "gpu:             none ({e})");
            1
        }
    }
}

/// What `--humanoid` asks: a map file over the map found, a file to write it to.
pub(super) struct Humanoid {
    /// `--map`.
    pub map: Option<PathBuf>,
    /// `--save-map`.
    pub save: Option<PathBuf>,
}

/// A humanoid bone map file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub(super) enum MapFileError {
    /// Not readable.
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    /// Not a map of this skeleton.
    #[error("{}: {source}", path.display())]
    Map { path: PathBuf, source: skelview_core::retarget::MapError },
    /// An MNM name map that cannot be read (the error names the file and place).
    #[error("{0}")]
    NameMap(skelview_core::formats::LoadError),
}

/// The humanoid bone map of `m`, with the map file's bones over it.
pub(super) fn humanoid_map(m: &Motion, file: Option<&Path>) -> Result<skelview_core::retarget::BoneMap, MapFileError> {
    let mut map = skelview_core::retarget::bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
    let mnm = file.and_then(|p| p.extension()).is_some_and(|e| e.eq_ignore_ascii_case("mnm"));
    if let Some(path) = file.filter(|_| mnm) {
        let names = super::read_name_map(path).map_err(MapFileError::NameMap)?;
        skelview_core::retarget::apply_name_map(&mut map, &m.skeleton, &names);
    } else if let Some(path) = file {
        let text = std::fs::read_to_string(path).map_err(|source| MapFileError::Read { path: path.to_owned(), source })?;
        skelview_core::retarget::apply_toml(&mut map, &m.skeleton, &text)
            .map_err(|source| MapFileError::Map { path: path.to_owned(), source })?;
    }
    Ok(map)
}

fn write_humanoid(m: &Motion, map: &skelview_core::retarget::BoneMap, out: &mut dyn Write) -> std::io::Result<()> {
    let required = skelview_core::retarget::REQUIRED.len();
    let missing = map.missing();
    writeln!(
        out,
        "humanoid bones:  {} of {required} required, {} of {} in all",
        required - missing.len(),
        map.entries.len(),
        skelview_core::retarget::BONES.len()
    )?;
    for e in &map.entries {
        writeln!(out, "  {:<24} {:<28} ({})", e.bone, m.skeleton.joints()[e.joint].name, e.found.name())?;
    }
    if !missing.is_empty() {
        writeln!(out, "  missing: {}", missing.join(", "))?;
    }
    Ok(())
}

pub(super) fn run(
    args: &Args,
    files: &[PathBuf],
    json: bool,
    mnm: Option<&Path>,
    humanoid: Option<&Humanoid>,
    out: &mut dyn Write,
) -> ExitCode {
    let map = match mnm.map(super::read_name_map).transpose() {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let motions = match load_all(args, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let mut bones = Vec::new();
    if let Some(h) = humanoid {
        for m in &motions {
            match humanoid_map(m, h.map.as_deref()) {
                Ok(b) => bones.push(b),
                Err(e) => {
                    eprintln!("--map {e}");
                    return 2;
                }
            }
        }
        if let (Some(path), Some((m, b))) = (&h.save, motions.first().zip(bones.first()))
            && let Err(e) = std::fs::write(path, b.to_toml(&m.skeleton))
        {
            eprintln!("{}: {e}", path.display());
            return 1;
        }
    }
    if json {
        let mut objs: Vec<InfoJson> = motions.iter().map(|m| to_json(m, map.as_ref())).collect();
        for (o, (m, b)) in objs.iter_mut().zip(motions.iter().zip(&bones)) {
            o.humanoid = Some(b.entries.iter().map(|e| (e.bone, m.skeleton.joints()[e.joint].name.as_str())).collect());
        }
        let text = match objs.as_slice() {
            [one] => serde_json::to_string(one),
            many => serde_json::to_string(many),
        };
        let _ = writeln!(out, "{}", text.unwrap_or_default());
    } else {
        for (k, m) in motions.iter().enumerate() {
            if k > 0 {
                let _ = writeln!(out);
            }
            let _ = write_text(m, out);
            if let Some(map) = &map {
                let _ = write_mapped(m, map, out);
            }
            if let Some(b) = bones.get(k) {
                let _ = write_humanoid(m, b, out);
            }
        }
    }
    0
}

fn write_text(m: &Motion, out: &mut dyn Write) -> std::io::Result<()> {
    let s = &m.source;
    let paths: Vec<String> = s.paths.iter().map(|p| p.display().to_string()).collect();
    writeln!(out, "file:            {}", paths.join(" + "))?;
    writeln!(out, "format:          {}", s.format.name())?;
    let joints = m.skeleton.joints();
    if m.capture.is_some() {
        // A capture's joints are its markers: no parents, no end sites, no rotations.
        writeln!(out, "markers:         {} (a marker capture: points, no skeleton)", joints.len())?;
    } else {
        let end_sites = joints.iter().filter(|j| j.is_end_site).count();
        writeln!(out, "joints:          {} ({} end sites)", joints.len(), end_sites)?;
        let roots: Vec<&str> = m.skeleton.roots().map(|r| joints[r].name.as_str()).collect();
        writeln!(out, "roots:           {}", roots.join(", "))?;
    }
    let declared = s.declared_frames.map(|d| format!(" (header says {d})")).unwrap_or_default();
    writeln!(out, "frames:          {}{}", m.clip.num_frames(), declared)?;
    let assumed = s.format.assumed_rate_note.map(|n| format!(" ({n})")).unwrap_or_default();
    writeln!(out, "frame time:      {} s = {:.4} fps{}", m.clip.frame_time_secs, m.clip.fps(), assumed)?;
    writeln!(out, "duration:        {:.4} s", m.clip.duration_secs())?;
    write_channels(m, out)?;
    if let Some(u) = &s.declared_units {
        writeln!(out, "units declared:  {u}")?;
    }
    writeln!(
        out,
        "units:           {} ({}: {:.4} raw = {:.3} m)",
        s.unit.symbol(),
        if s.unit_detected { "detected from the body's height" } else { "declared" },
        s.body_height,
        s.body_height * m.metres_per_raw_unit()
    )?;
    let how = if s.up_detected { format!("detected: {}", s.up_reason) } else { "declared".into() };
    writeln!(out, "up axis:         {} ({how})", s.up_axis.name())?;
    if !s.left_out.is_empty() {
        let names: Vec<&str> = s.left_out.iter().take(12).filter_map(|&j| joints.get(j)).map(|j| j.name.as_str()).collect();
        let more = s.left_out.len().saturating_sub(names.len());
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        writeln!(
            out,
            "left out:        {} point{} far outside the body (drawn, not counted in its size, units or framing): {}{more}",
            s.left_out.len(),
            if s.left_out.len() == 1 { "" } else { "s" },
            names.join(", ")
        )?;
    }
    if m.capture.is_none() {
        // A capture has no joint angles and no offsets for positions to replace.
        writeln!(out, "angles:          {}", s.angle_unit)?;
        writeln!(out, "positions rule:  {}", position_rule_text(m))?;
    }
    for (label, value) in &s.details {
        writeln!(out, "{:<17}{value}", format!("{label}:"))?;
    }
    if !s.takes.is_empty() {
        writeln!(
            out,
            "takes:           {} (showing {})",
            s.takes.len(),
            s.take.map_or("none".into(), |i| format!("{i}: {}", s.takes[i].name))
        )?;
        for (i, t) in s.takes.iter().enumerate() {
            let still = if t.moving { "" } else { ", keys never change" };
            writeln!(out, "  {i}: {} ({:.3} s, {} joints{still})", t.name, t.duration_secs, t.joints)?;
        }
    }
    write_meshes(m, out)?;
    if let Some(c) = &m.capture {
        super::capture_info::write_text(c, out)?;
    } else if !m.clip.missing().is_empty() {
        writeln!(out, "missing values:  {} (nan/inf in the file, held from the last valid frame for drawing)", m.clip.missing_count())?;
    }
    writeln!(out, "warnings:        {}", m.warnings.len())?;
    for w in &m.warnings {
        writeln!(out, "  {w}")?;
    }
    Ok(())
}

/// The channels' lines of `info`: counts per joint and rotation orders, or a capture's x, y, z.
fn write_channels(m: &Motion, out: &mut dyn Write) -> std::io::Result<()> {
    let per_frame = m.skeleton.channels_per_frame();
    if m.capture.is_some() {
        return writeln!(out, "channels:        {per_frame} per frame (x, y, z of each marker)");
    }
    let (counts, orders) = channel_summary(m);
    let counts: Vec<String> = counts.iter().map(|(c, n)| format!("{c} on {n} joint{}", if *n == 1 { "" } else { "s" })).collect();
    writeln!(out, "channels:        {per_frame} per frame; {}", counts.join(", "))?;
    let orders: Vec<String> = orders.iter().map(|(o, n)| format!("{o} ×{n}")).collect();
    writeln!(out, "rotation orders: {}", if orders.is_empty() { "none".into() } else { orders.join(", ") })
}

/// The meshes' line of `info`, for files that have meshes.
fn write_meshes(m: &Motion, out: &mut dyn Write) -> std::io::Result<()> {
    let Some(set) = m.meshes.as_deref() else { return Ok(()) };
    let skinned = set.meshes.iter().filter(|x| x.skinned).count();
    let morphs: usize = set.meshes.iter().map(|x| x.morph_targets.len()).sum();
    writeln!(
        out,
        "meshes:          {} ({skinned} skinned; {} vertices, {} triangles, {morphs} morph targets, {} images)",
        set.meshes.len(),
        set.vertex_count(),
        set.triangle_count(),
        set.images.len()
    )
}

fn write_mapped(m: &Motion, map: &NameMap, out: &mut dyn Write) -> std::io::Result<()> {
    let mapped = mapped_names(m, map);
    let joints = m.skeleton.joints();
    writeln!(out, "name map:        {} of {} joints named by the map", mapped.len(), joints.iter().filter(|j| !j.is_end_site).count())?;
    for (i, std) in &mapped {
        writeln!(out, "  {:<24} = {std}", joints[*i].name)?;
    }
    let unmapped: Vec<&str> = joints
        .iter()
        .enumerate()
        .filter(|(i, j)| !j.is_end_site && !mapped.iter().any(|(k, _)| k == i))
        .map(|(_, j)| j.name.as_str())
        .collect();
    if !unmapped.is_empty() {
        writeln!(out, "  not in the map: {}", unmapped.join(", "))?;
    }
    Ok(())
}

#[derive(Serialize)]
struct JointJson<'a> {
    name: &'a str,
    parent: i64,
    channels: Vec<&'static str>,
    end_site: bool,
    details: BTreeMap<&'a str, &'a str>,
}

#[derive(Serialize)]
struct TakeJson<'a> {
    name: &'a str,
    duration_secs: f64,
    joints: usize,
    moving: bool,
}

#[derive(Serialize)]
struct WarningJson<'a> {
    file: String,
    line: usize,
    col: usize,
    message: &'a str,
}

/// `info --json`: the same facts as the text, with the field names scripts rely on.
#[derive(Serialize)]
struct InfoJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    mapped_names: Option<BTreeMap<&'a str, String>>,
    /// VRM humanoid bone → joint name (with --humanoid).
    #[serde(skip_serializing_if = "Option::is_none")]
    humanoid: Option<BTreeMap<&'static str, &'a str>>,
    details: BTreeMap<&'a str, &'a str>,
    files: Vec<String>,
    format: &'static str,
    joints: usize,
    /// A marker capture's markers (its joints); absent for a skeleton.
    #[serde(skip_serializing_if = "Option::is_none")]
    markers: Option<usize>,
    end_sites: usize,
    roots: Vec<&'a str>,
    frames: usize,
    declared_frames: Option<u64>,
    frame_time_secs: f64,
    fps: Option<f64>,
    duration_secs: f64,
    channels_per_frame: usize,
    channels_per_joint: BTreeMap<String, usize>,
    rotation_orders: BTreeMap<String, usize>,
    declared_units: Option<&'a str>,
    unit: &'static str,
    unit_detected: bool,
    body_height_raw: Option<f32>,
    metres_per_raw_unit: f32,
    up_axis: &'static str,
    up_detected: bool,
    up_reason: &'static str,
    angle_unit: &'static str,
    position_rule: &'static str,
    missing_values: usize,
    takes: Vec<TakeJson<'a>>,
    take: Option<&'a str>,
    joint_list: Vec<JointJson<'a>>,
    warnings: Vec<WarningJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capture: Option<super::capture_info::CaptureJson<'a>>,
    /// One per drawn primitive, in the order `positions --vertices` numbers them.
    meshes: Vec<MeshJson<'a>>,
}

/// A drawn primitive in `info --json`.
#[derive(Serialize)]
struct MeshJson<'a> {
    name: &'a str,
    vertices: usize,
    triangles: usize,
    skinned: bool,
    morph_targets: usize,
    influences: usize,
    textured: bool,
}

fn meshes_json(m: &Motion) -> Vec<MeshJson<'_>> {
    let meshes = m.meshes.as_deref().map_or(&[][..], |s| &s.meshes[..]);
    meshes
        .iter()
        .map(|x| MeshJson {
            name: &x.name,
            vertices: x.positions.len(),
            triangles: x.triangles(),
            skinned: x.skinned,
            morph_targets: x.morph_targets.len(),
            influences: x.influences(),
            textured: x.material.texture.is_some(),
        })
        .collect()
}

fn to_json<'a>(m: &'a Motion, map: Option<&NameMap>) -> InfoJson<'a> {
    let s = &m.source;
    let joints = m.skeleton.joints();
    let (counts, orders) = channel_summary(m);
    let finite = |v: f64| v.is_finite().then_some(v);
    InfoJson {
        humanoid: None,
        mapped_names: map.map(|map| mapped_names(m, map).into_iter().map(|(i, std)| (joints[i].name.as_str(), std)).collect()),
        details: s.details.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
        files: s.paths.iter().map(|p| p.display().to_string()).collect(),
        format: s.format.name(),
        joints: joints.len(),
        markers: m.capture.is_some().then_some(joints.len()),
        end_sites: joints.iter().filter(|j| j.is_end_site).count(),
        roots: m.skeleton.roots().map(|r| joints[r].name.as_str()).collect(),
        frames: m.clip.num_frames(),
        declared_frames: s.declared_frames,
        frame_time_secs: m.clip.frame_time_secs,
        fps: finite(m.clip.fps()),
        duration_secs: m.clip.duration_secs(),
        channels_per_frame: m.skeleton.channels_per_frame(),
        channels_per_joint: counts.into_iter().map(|(c, n)| (c.to_string(), n)).collect(),
        rotation_orders: orders,
        declared_units: s.declared_units.as_deref(),
        unit: s.unit.symbol(),
        unit_detected: s.unit_detected,
        body_height_raw: s.body_height.is_finite().then_some(s.body_height),
        metres_per_raw_unit: m.metres_per_raw_unit(),
        up_axis: s.up_axis.name(),
        up_detected: s.up_detected,
        up_reason: s.up_reason,
        angle_unit: s.angle_unit,
        position_rule: m.skeleton.position_rule.name(),
        missing_values: m.clip.missing_count(),
        takes: s
            .takes
            .iter()
            .map(|t| TakeJson { name: &t.name, duration_secs: t.duration_secs, joints: t.joints, moving: t.moving })
            .collect(),
        take: s.take.and_then(|i| s.takes.get(i)).map(|t| t.name.as_str()),
        joint_list: joints
            .iter()
            .map(|j| JointJson {
                name: &j.name,
                parent: j.parent.map_or(-1, |p| p as i64),
                channels: j.channels.iter().map(|c| s.format.channel_name(*c)).collect(),
                end_site: j.is_end_site,
                details: j.details.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
            })
            .collect(),
        warnings: m
            .warnings
            .iter()
            .map(|w| WarningJson { file: w.path.display().to_string(), line: w.line, col: w.col, message: &w.message })
            .collect(),
        capture: m.capture.as_deref().map(super::capture_info::to_json),
        meshes: meshes_json(m),
    }
}
