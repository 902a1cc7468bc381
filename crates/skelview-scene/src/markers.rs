//! Marker captures in the scene: markers as small spheres coloured by the clip, by label
//! prefix or by residual, nothing drawn in a gap (never at the origin), and force platforms
//! as their outlines with the ground reaction force as an arrow at the centre of pressure.

use glam::{Mat4, Quat, Vec3};

use super::clips::ClipView;
use super::draw::Style;
use skelview_core::core::capture::Capture;
use skelview_draw::DrawData;
use skelview_draw::{LineVertex, MeshInstance};

/// How markers are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MarkerColor {
    /// The clip's joint colour.
    #[default]
    Clip,
    /// By segment: the label's prefix before ':' (a subject), else its side (L…/R…).
    Prefix,
    /// By residual: green (small) to red (the capture's largest).
    Residual,
}

impl MarkerColor {
    /// Every choice, in menu order.
    pub const ALL: [Self; 3] = [Self::Clip, Self::Prefix, Self::Residual];

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Clip => "clip colour",
            Self::Prefix => "label prefix / side",
            Self::Residual => "residual",
        }
    }
}

/// Vertical force (N) below which a platform shows no arrow.
pub const FORCE_THRESHOLD_N: f32 = 20.0;
/// Arrow length per newton (1 m per 1000 N: body weight is about a body's height).
pub const METRES_PER_NEWTON: f32 = 0.001;
/// Colour of force arrows and platform outlines.
pub const FORCE_COLOR: [f32; 4] = [0.95, 0.85, 0.2, 1.0];

/// The capture frame shown at clip time `secs` (nearest).
pub fn frame_at(c: &ClipView, capture: &Capture, secs: f64) -> usize {
    let t = c.local_time(secs);
    ((t * capture.point_rate_hz).round().max(0.0) as usize).min(capture.frames.saturating_sub(1))
}

/// True for each joint (marker) in a gap at `frame`.
pub fn gaps(capture: &Capture, frame: usize) -> Vec<bool> {
    capture.marker_points().map(|p| capture.is_gap(frame, p)).collect()
}

fn side_color(label: &str) -> [f32; 4] {
    let key = label.split_once(':').map_or_else(
        || match label.as_bytes().first() {
            Some(b'L' | b'l') => "left",
            Some(b'R' | b'r') => "right",
            _ => "centre",
        },
        |(prefix, _)| prefix,
    );
    match key {
        "left" => [0.25, 0.55, 1.0, 1.0],
        "right" => [1.0, 0.35, 0.3, 1.0],
        "centre" => [0.9, 0.9, 0.9, 1.0],
        other => {
            let h = other.bytes().fold(2166136261u32, |h, b| (h ^ u32::from(b)).wrapping_mul(16777619));
            super::clips::PALETTE[h as usize % super::clips::PALETTE.len()]
        }
    }
}

fn residual_color(r: f32, max: f32) -> [f32; 4] {
    let t = if max > 0.0 { (r / max).clamp(0.0, 1.0) } else { 0.0 };
    [0.2 + 0.8 * t, 0.9 - 0.7 * t, 0.25, 1.0]
}

/// Colour of a marker whose sample a gap fill made up (violet; residual 0 in a C3D).
pub const FILLED_COLOR: [f32; 4] = [0.72, 0.50, 1.0, 1.0];

/// Per joint of `m`, whether a fill made up its sample at `frame` (empty when nothing was
/// filled): one pass over the fill runs, not one per marker.
fn filled_at(m: &skelview_core::core::Motion, frame: usize) -> Vec<bool> {
    let runs = m.clip.filled();
    if runs.is_empty() {
        return Vec::new();
    }
    let mut by_channel = vec![false; m.clip.channels_per_frame()];
    for r in runs.iter().filter(|r| (r.first as usize..=r.last as usize).contains(&frame)) {
        if let Some(slot) = by_channel.get_mut(r.channel as usize) {
            *slot = true;
        }
    }
    m.skeleton.joints().iter().map(|j| by_channel.get(j.first_channel).copied().unwrap_or(false)).collect()
}

/// Appends the markers of clip `c` at `frame` (gaps left out; filled samples in
/// [`FILLED_COLOR`] unless coloured by residual, where a fill's 0 shows).
#[allow(clippy::too_many_arguments)]
pub fn build(
    c: &ClipView,
    capture: &Capture,
    frame: usize,
    color: MarkerColor,
    style: &Style,
    selected: Option<usize>,
    links: bool,
    out: &mut DrawData,
) {
    if !style.joints {
        return;
    }
    let radius = c.display.size_m * 0.009;
    let filled = filled_at(&c.motion, frame);
    if links {
        sticks(c, capture, frame, style, out);
    }
    for (j, p) in capture.marker_points().enumerate() {
        if capture.is_gap(frame, p) {
            continue;
        }
        let Some(&at) = c.positions().get(j) else { continue };
        let highlighted = selected == Some(j);
        let rgba = if highlighted {
            style.selected_color
        } else {
            match color {
                MarkerColor::Clip | MarkerColor::Prefix if filled.get(j).copied().unwrap_or(false) => FILLED_COLOR,
                MarkerColor::Clip => style.joint_color,
                MarkerColor::Prefix => side_color(&capture.points[p].label),
                MarkerColor::Residual => residual_color(capture.residual(frame, p).unwrap_or(0.0), c.max_residual()),
            }
        };
        let r = radius * if highlighted { 1.6 } else { 1.0 };
        out.joints.push(MeshInstance {
            world_from_model: Mat4::from_scale_rotation_translation(Vec3::splat(r), Quat::IDENTITY, at).to_cols_array_2d(),
            color: [rgba[0], rgba[1], rgba[2], rgba[3] * style.joint_color[3]],
        });
    }
}

/// Colour of the sticks between markers: the clip's bones, a little transparent.
fn stick_color(style: &Style) -> [f32; 4] {
    let [r, g, b, a] = style.bone_color;
    [r, g, b, a * 0.75]
}

/// Appends a line between each pair of linked markers seen at `frame` (a marker in a gap
/// has no stick).
fn sticks(c: &ClipView, capture: &Capture, frame: usize, style: &Style, out: &mut DrawData) {
    if c.links.is_empty() {
        return;
    }
    let markers: Vec<usize> = capture.marker_points().collect();
    let seen = |j: usize| markers.get(j).is_some_and(|&p| !capture.is_gap(frame, p));
    let color = stick_color(style);
    for &(a, b) in &c.links {
        if let (true, true, Some(&pa), Some(&pb)) = (seen(a), seen(b), c.positions().get(a), c.positions().get(b)) {
            out.lines.push(LineVertex { position: pa.to_array(), color });
            out.lines.push(LineVertex { position: pb.to_array(), color });
        }
    }
}

/// Appends each platform's outline and, where it is loaded, the ground reaction force as an
/// arrow from the centre of pressure, at clip time `secs`. (The platform computation gives
/// the reaction on the body, as ezc3d and OpenSim do: upwards in stance.)
pub fn forces(c: &ClipView, capture: &Capture, secs: f64, out: &mut DrawData) {
    if capture.plates.is_empty() || capture.analog.rate_hz <= 0.0 {
        return;
    }
    let world_from_file = c.world_from_file();
    let line = |a: Vec3, b: Vec3, out: &mut DrawData| {
        out.lines.push(LineVertex { position: a.to_array(), color: FORCE_COLOR });
        out.lines.push(LineVertex { position: b.to_array(), color: FORCE_COLOR });
    };
    let sample = (c.local_time(secs) * capture.analog.rate_hz).round().max(0.0) as usize;
    let metres_per_unit = world_from_file.x_axis.truncate().length();
    for (plate, samples) in capture.plates.iter().zip(c.plate_samples()) {
        let corners = plate.corners.map(|k| world_from_file.transform_point3(k));
        for k in 0..4 {
            line(corners[k], corners[(k + 1) % 4], out);
        }
        let Some(s) = samples.as_ref().ok().and_then(|s| s.get(sample.min(s.len().saturating_sub(1)))) else { continue };
        if s.force.length() < FORCE_THRESHOLD_N || !s.cop.is_finite() {
            continue;
        }
        let from = world_from_file.transform_point3(s.cop);
        let direction = world_from_file.transform_vector3(s.force) / metres_per_unit.max(1e-12);
        let length = s.force.length() * METRES_PER_NEWTON;
        let Some(dir) = direction.try_normalize() else { continue };
        let width = c.display.size_m * 0.02;
        let rotation = Quat::from_rotation_arc(Vec3::Y, dir);
        let m = Mat4::from_scale_rotation_translation(Vec3::new(width, length, width), rotation, from);
        out.bones.push(MeshInstance { world_from_model: m.to_cols_array_2d(), color: FORCE_COLOR });
        line(from, from + dir * length, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::core::capture::{Analog, AnalogChannel, ForcePlate, PointInfo, PointKind};
    use skelview_core::formats::capture_motion::{self, Declared};
    use std::sync::Arc;

    fn capture(fz: f32) -> Capture {
        let point = |l: &str| PointInfo { label: l.into(), description: String::new(), kind: PointKind::Marker };
        let channels = (0..6).map(|i| AnalogChannel { label: format!("c{i}"), description: String::new(), unit: "N".into() }).collect();
        Capture {
            point_rate_hz: 10.0,
            first_frame: 1,
            points: vec![point("LKNE"), point("RKNE")],
            unit: "mm".into(),
            frames: 2,
            positions: vec![0., 0., 500., 300., 0., 500., 0., 0., 510., f32::NAN, f32::NAN, f32::NAN],
            residuals: vec![0.1, 0.2, 0.1, -1.0],
            analog: Analog { rate_hz: 10.0, samples_per_frame: 1, channels, values: [[0., 0., fz, 0., 0., 0.]; 2].concat() },
            plates: vec![ForcePlate {
                kind: 2,
                corners: [Vec3::new(600., 400., 0.), Vec3::new(0., 400., 0.), Vec3::new(0., 0., 0.), Vec3::new(600., 0., 0.)],
                origin: Vec3::ZERO,
                channels: (0..6).collect(),
                cal_matrix: None,
                cop_poly: None,
            }],
            ..Default::default()
        }
    }

    fn clip(fz: f32) -> ClipView {
        let declared =
            Declared { up: Some(skelview_core::core::UpAxis::Z), right: None, frames: None, details: Vec::new(), convention: None };
        let m =
            capture_motion::motion(skelview_core::formats::c3d::FORMAT, std::path::Path::new("x.c3d"), capture(fz), declared, Vec::new());
        let mut c = ClipView::new(Arc::new(m), 0);
        c.pose_at(0.0, skelview_core::core::Interpolation::Nearest);
        c
    }

    #[test]
    fn a_marker_in_a_gap_is_not_drawn() {
        let c = clip(800.0);
        let cap = c.motion.capture.clone().unwrap();
        let mut out = DrawData::default();
        build(&c, &cap, 0, MarkerColor::Prefix, &Style::default(), None, true, &mut out);
        assert_eq!(out.joints.len(), 2);
        // Left and right markers take different colours.
        assert_ne!(out.joints[0].color, out.joints[1].color);
        out.clear();
        build(&c, &cap, 1, MarkerColor::Residual, &Style::default(), None, true, &mut out);
        assert_eq!(out.joints.len(), 1, "RKNE is in a gap at frame 1");
        assert_eq!(gaps(&cap, 1), vec![false, true]);
    }

    #[test]
    fn a_loaded_platform_shows_an_upward_arrow_and_an_unloaded_one_only_its_outline() {
        let mut out = DrawData::default();
        forces(&clip(800.0), &clip(800.0).motion.capture.clone().unwrap(), 0.0, &mut out);
        assert_eq!(out.bones.len(), 1);
        // Outline (4 edges) and the arrow's line.
        assert_eq!(out.lines.len(), 10);
        let top = out.lines[9].position[1];
        let bottom = out.lines[8].position[1];
        assert!((top - bottom - 0.8).abs() < 1e-3, "800 N is 0.8 m up: {bottom} → {top}");
        out.clear();
        forces(&clip(5.0), &clip(5.0).motion.capture.clone().unwrap(), 0.0, &mut out);
        assert!(out.bones.is_empty());
        assert_eq!(out.lines.len(), 8);
    }
}
