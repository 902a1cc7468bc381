//! `skelview info`: what a file holds.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::json::{Obj, array, quoted};
use super::{Args, ExitCode, fail, load_all};
use crate::core::{Format, Motion};
use crate::formats::mnm::NameMap;

fn details_json(details: &[(String, String)]) -> String {
    let mut o = Obj::new();
    for (k, v) in details {
        o.str(k, v);
    }
    o.finish()
}

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
    match m.source.format {
        Format::Bvh => format!(
            "{} (position channels {} the OFFSET; --bvh-positions {} for the other rule)",
            m.skeleton.position_rule.name(),
            if m.skeleton.position_rule == crate::core::PositionRule::Replace { "replace" } else { "are added to" },
            if m.skeleton.position_rule == crate::core::PositionRule::Replace { "add" } else { "replace" },
        ),
        Format::AsfAmc => "add (root translation is added to the ASF root position)".into(),
        Format::Htr => "add (frame translation is added to the base position)".into(),
        Format::Acl => "replace (a translation track replaces the bind translation)".into(),
        Format::HAnim => "add (interpolated translation is added to the joint centre offset)".into(),
    }
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

pub(super) fn run(args: &Args, files: &[PathBuf], json: bool, mnm: Option<&Path>, out: &mut dyn Write) -> ExitCode {
    let map = match mnm.map(super::read_name_map).transpose() {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let motions = match load_all(args, files) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    if json {
        let objs: Vec<String> = motions.iter().map(|m| to_json(m, map.as_ref())).collect();
        let text = if objs.len() == 1 { objs.into_iter().next().unwrap_or_default() } else { array(objs) };
        let _ = writeln!(out, "{text}");
    } else {
        for (k, m) in motions.iter().enumerate() {
            if k > 0 {
                let _ = writeln!(out);
            }
            let _ = write_text(m, out);
            if let Some(map) = &map {
                let _ = write_mapped(m, map, out);
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
    let end_sites = joints.iter().filter(|j| j.is_end_site).count();
    writeln!(out, "joints:          {} ({} end sites)", joints.len(), end_sites)?;
    let roots: Vec<&str> = m.skeleton.roots().map(|r| joints[r].name.as_str()).collect();
    writeln!(out, "roots:           {}", roots.join(", "))?;
    let declared = s.declared_frames.map(|d| format!(" (header says {d})")).unwrap_or_default();
    writeln!(out, "frames:          {}{}", m.clip.num_frames(), declared)?;
    let assumed = if s.format == Format::AsfAmc { " (AMC states none; --amc-fps to change)" } else { "" };
    writeln!(out, "frame time:      {} s = {:.4} fps{}", m.clip.frame_time_secs, m.clip.fps(), assumed)?;
    writeln!(out, "duration:        {:.4} s", m.clip.duration_secs())?;
    let (counts, orders) = channel_summary(m);
    let counts: Vec<String> = counts.iter().map(|(c, n)| format!("{c} on {n} joint{}", if *n == 1 { "" } else { "s" })).collect();
    writeln!(out, "channels:        {} per frame; {}", m.skeleton.channels_per_frame(), counts.join(", "))?;
    let orders: Vec<String> = orders.iter().map(|(o, n)| format!("{o} ×{n}")).collect();
    writeln!(out, "rotation orders: {}", if orders.is_empty() { "none".into() } else { orders.join(", ") })?;
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
    writeln!(out, "up axis:         {} ({})", s.up_axis.name(), if s.up_detected { "detected" } else { "declared" })?;
    writeln!(out, "angles:          {}", s.angle_unit)?;
    writeln!(out, "positions rule:  {}", position_rule_text(m))?;
    for (label, value) in &s.details {
        writeln!(out, "{:<17}{value}", format!("{label}:"))?;
    }
    writeln!(out, "warnings:        {}", m.warnings.len())?;
    for w in &m.warnings {
        writeln!(out, "  {w}")?;
    }
    Ok(())
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

fn to_json(m: &Motion, map: Option<&NameMap>) -> String {
    let s = &m.source;
    let joints = m.skeleton.joints();
    let (counts, orders) = channel_summary(m);
    let roots = array(m.skeleton.roots().map(|r| quoted(&joints[r].name)));
    let paths = array(s.paths.iter().map(|p| quoted(&p.display().to_string())));
    let counts = {
        let mut o = Obj::new();
        for (c, n) in &counts {
            o.num(&c.to_string(), *n as f64);
        }
        o.finish()
    };
    let orders = {
        let mut o = Obj::new();
        for (k, n) in &orders {
            o.num(k, *n as f64);
        }
        o.finish()
    };
    let joint_list = array(joints.iter().map(|j| {
        Obj::new()
            .str("name", &j.name)
            .num("parent", j.parent.map_or(-1.0, |p| p as f64))
            .raw("channels", &array(j.channels.iter().map(|c| quoted(if s.format == Format::Bvh { c.bvh_name() } else { c.short_name() }))))
            .bool("end_site", j.is_end_site)
            .raw("details", &details_json(&j.details))
            .finish()
    }));
    let warnings = array(m.warnings.iter().map(|w| {
        Obj::new()
            .str("file", &w.path.display().to_string())
            .num("line", w.line as f64)
            .num("col", w.col as f64)
            .str("message", &w.message)
            .finish()
    }));
    let mut o = Obj::new();
    if let Some(map) = map {
        let mut names = Obj::new();
        for (i, std) in mapped_names(m, map) {
            names.str(&joints[i].name, &std);
        }
        o.raw("mapped_names", &names.finish());
    }
    o.raw("details", &details_json(&s.details));
    o.raw("files", &paths)
        .str("format", s.format.name())
        .num("joints", joints.len() as f64)
        .num("end_sites", joints.iter().filter(|j| j.is_end_site).count() as f64)
        .raw("roots", &roots)
        .num("frames", m.clip.num_frames() as f64);
    match s.declared_frames {
        Some(d) => o.num("declared_frames", d as f64),
        None => o.raw("declared_frames", "null"),
    };
    o.num("frame_time_secs", m.clip.frame_time_secs)
        .num("fps", m.clip.fps())
        .num("duration_secs", m.clip.duration_secs())
        .num("channels_per_frame", m.skeleton.channels_per_frame() as f64)
        .raw("channels_per_joint", &counts)
        .raw("rotation_orders", &orders)
        .raw("declared_units", &s.declared_units.as_deref().map_or("null".into(), quoted))
        .str("unit", s.unit.symbol())
        .bool("unit_detected", s.unit_detected)
        .num("body_height_raw", s.body_height as f64)
        .num("metres_per_raw_unit", m.metres_per_raw_unit() as f64)
        .str("up_axis", s.up_axis.name())
        .bool("up_detected", s.up_detected)
        .str("angle_unit", s.angle_unit)
        .str("position_rule", m.skeleton.position_rule.name())
        .raw("joint_list", &joint_list)
        .raw("warnings", &warnings)
        .finish()
}
