//! Segments → skeleton and clip: parents first, end markers, channel values, warnings.

use glam::{Quat, Vec3};

use super::header::{DataType, Header};
use super::{ParsedHtr, Segment};
use crate::core::pose::compose_rotation;
use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{ChannelKind, Clip, EulerConvention, Joint, PositionRule, Skeleton};
use crate::formats::error::{ParseError, RawWarning};

/// Orders segments parents first (stable), or names the cycle / unknown parent.
pub(super) fn parents_first(segs: &[Segment]) -> Result<Vec<usize>, ParseError> {
    let index =
        |name: &str| segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)));
    let mut parent_of = Vec::with_capacity(segs.len());
    for s in segs {
        parent_of.push(match &s.parent {
            None => None,
            Some(p) => Some(index(p).ok_or_else(|| {
                ParseError::invalid(s.parent_offset as u64, format!("parent '{p}' of segment '{}' is not a listed segment", s.name))
            })?),
        });
    }
    let mut placed = vec![false; segs.len()];
    let mut order = Vec::with_capacity(segs.len());
    while order.len() < segs.len() {
        let before = order.len();
        for i in 0..segs.len() {
            if !placed[i] && parent_of[i].is_none_or(|p| placed[p]) {
                placed[i] = true;
                order.push(i);
            }
        }
        if order.len() == before {
            let i = (0..segs.len()).find(|&i| !placed[i]).unwrap_or(0);
            return Err(ParseError::invalid(segs[i].name_offset as u64, format!("segment '{}' is its own ancestor", segs[i].name)));
        }
    }
    Ok(order)
}

/// How segment numbers are read: Euler order, angle and length scale, transform order.
#[derive(Clone, Copy)]
struct Reading {
    order: [ChannelKind; 3],
    to_rad: f32,
    scale: f32,
    dt: DataType,
}

pub(super) fn build(
    len: usize,
    h: Header,
    mut segs: Vec<Segment>,
    mut details: Vec<(String, String)>,
    mut warnings: Vec<RawWarning>,
    saw_end: bool,
) -> Result<ParsedHtr, ParseError> {
    let end = len as u64;
    let Some(global) = h.global else {
        return Err(ParseError::eof(end, "a FileType line in [Header] (htr or gtr)"));
    };
    if segs.is_empty() {
        return Err(ParseError::eof(end, "segments ([SegmentNames&Hierarchy] lists none)"));
    }
    if !saw_end {
        warnings.push(RawWarning { offset: end, message: "file ends without [EndOfFile]: it may be truncated".into() });
    }
    let dt = h.data_type.unwrap_or(DataType { global, rotation_before_translation: false, scale_last: true, has_scale: true });
    let order = h.order.unwrap_or_else(|| {
        warnings.push(RawWarning { offset: 0, message: "no EulerRotationOrder in [Header]: ZYX assumed".into() });
        [ChannelKind::RotateZ, ChannelKind::RotateY, ChannelKind::RotateX]
    });
    let fps = h.fps.unwrap_or_else(|| {
        warnings.push(RawWarning { offset: 0, message: "no DataFrameRate in [Header]: 30 fps assumed".into() });
        30.0
    });
    if let Some(n) = h.segments.filter(|&n| n != segs.len() as u64) {
        warnings.push(RawWarning { offset: 0, message: format!("NumSegments says {n}, the file has {} segments", segs.len()) });
    }
    if global {
        segs.iter_mut().for_each(|s| s.parent = None);
    }
    let frames = frame_count(&h, &segs, end, &mut warnings)?;
    let to_rad = if h.radians { 1.0 } else { std::f32::consts::PI / 180.0 };
    let rd = Reading { order, to_rad, scale: h.scale_factor, dt };
    let order_list = parents_first(&segs)?;
    let (mut joints, base_rot) = segment_joints(&segs, &order_list, rd, h.bone_axis);
    let n_seg = joints.len();
    add_end_markers(&mut joints, &segs, &order_list, rd.scale, h.bone_axis);
    let cpf = 7 * n_seg;
    let values = channel_values(&segs, &order_list, &base_rot, frames, rd, &mut warnings)?;
    let skeleton = Skeleton::new(joints, PositionRule::Add).map_err(|e| ParseError::invalid(0, e.to_string()))?;
    let clip = Clip::new(1.0 / fps, cpf, frames, values);
    let (unit, up) = unit_and_up(&h, &mut warnings);
    if dt.rotation_before_translation {
        details.push(("translations".into(), "rotated into the parent frame (rotation-first DataType)".into()));
    }
    Ok(ParsedHtr { skeleton, clip, warnings, details, declared_frames: h.frames, unit, unit_text: h.unit_text, up, radians: h.radians })
}

/// Checks every segment has a base position and a frame block, and returns the frames all
/// segments hold (the shortest), warning where counts disagree.
fn frame_count(h: &Header, segs: &[Segment], end: u64, warnings: &mut Vec<RawWarning>) -> Result<usize, ParseError> {
    for s in segs {
        if s.base.is_none() {
            return Err(ParseError::invalid(s.name_offset as u64, format!("segment '{}' has no [BasePosition] line", s.name)));
        }
        if s.block_offset.is_none() && h.frames != Some(0) {
            return Err(ParseError::eof(end, format!("a frame block [{}] for segment '{}'", s.name, s.name)));
        }
    }
    let frames = segs.iter().map(|s| s.rows.len()).min().unwrap_or(0);
    let most = segs.iter().map(|s| s.rows.len()).max().unwrap_or(0);
    if most != frames {
        let short = segs.iter().find(|s| s.rows.len() == frames).map_or("", |s| s.name.as_str());
        warnings.push(RawWarning {
            offset: end,
            message: format!("segment '{short}' has {frames} frames, others up to {most}: the clip is cut to {frames}"),
        });
    }
    if let Some(d) = h.frames.filter(|&d| d != frames as u64) {
        warnings.push(RawWarning { offset: end, message: format!("NumFrames says {d}, the file holds {frames} frames: {frames} used") });
    }
    Ok(frames)
}

/// One joint per segment in `order_list`, from its base position; also returns each one's base
/// rotation and scaled base translation, which the frame values are relative to.
fn segment_joints(segs: &[Segment], order_list: &[usize], rd: Reading, bone_axis: Vec3) -> (Vec<Joint>, Vec<(Quat, Vec3)>) {
    let Reading { order, to_rad, scale, dt } = rd;
    // The bone axis picks which scale channel stretches the bone.
    let axis_kind = if bone_axis.x != 0.0 {
        ChannelKind::ScaleX
    } else if bone_axis.y != 0.0 {
        ChannelKind::ScaleY
    } else {
        ChannelKind::ScaleZ
    };
    let mut new_index = vec![0usize; segs.len()];
    for (k, &i) in order_list.iter().enumerate() {
        new_index[i] = k;
    }
    let index =
        |name: &str| segs.iter().position(|s| s.name == name).or_else(|| segs.iter().position(|s| s.name.eq_ignore_ascii_case(name)));
    let mut joints = Vec::with_capacity(segs.len() * 2);
    let mut base_rot = Vec::with_capacity(segs.len());
    for &i in order_list {
        let s = &segs[i];
        let (base, _) = s.base.unwrap_or(([0.0; 7], 0));
        let r0 = compose_rotation(&order, &order.map(|k| base[3 + column(k)] * to_rad), EulerConvention::FirstOutermost);
        let t0 = Vec3::new(base[0], base[1], base[2]) * scale;
        let parent = s.parent.as_deref().and_then(index).map(|p| new_index[p]);
        let offset = if dt.rotation_before_translation { r0 * t0 } else { t0 };
        let mut j = Joint::new(s.name.clone(), parent, offset);
        j.pre_rotation = r0;
        j.channels =
            vec![ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ, order[0], order[1], order[2], axis_kind];
        j.euler = EulerConvention::FirstOutermost;
        j.details.push(("bone length".into(), format!("{}", base[6] * scale)));
        j.details.push(("base rotation (file order Rx Ry Rz)".into(), format!("{} {} {}", base[3], base[4], base[5])));
        joints.push(j);
        base_rot.push((r0, t0));
    }
    (joints, base_rot)
}

/// Adds end markers for leaves, after every segment so the channel layout stays segment-only.
fn add_end_markers(joints: &mut Vec<Joint>, segs: &[Segment], order_list: &[usize], scale: f32, bone_axis: Vec3) {
    let n_seg = joints.len();
    for k in 0..n_seg {
        if !joints.iter().any(|j| j.parent == Some(k)) {
            let s = &segs[order_list[k]];
            let length = s.base.map_or(0.0, |(b, _)| b[6]) * scale;
            let mut end_joint = Joint::new(format!("{}/End", s.name), Some(k), bone_axis * length);
            end_joint.is_end_site = true;
            joints.push(end_joint);
        }
    }
}

/// The frame-major channel values (`Tx Ty Tz`, three angles, bone scale per segment). A zero
/// scale is read as 1 with a warning; a scale other than 1 is refused unless it is applied last.
fn channel_values(
    segs: &[Segment],
    order_list: &[usize],
    base_rot: &[(Quat, Vec3)],
    frames: usize,
    rd: Reading,
    warnings: &mut Vec<RawWarning>,
) -> Result<Vec<f32>, ParseError> {
    let Reading { order, to_rad, scale, dt } = rd;
    let cpf = 7 * order_list.len();
    let mut values = vec![0f32; cpf * frames];
    let mut zero_scale = Vec::new();
    let mut non_unit_scale_offset = None;
    for (k, &i) in order_list.iter().enumerate() {
        let s = &segs[i];
        let (r0, t0) = base_rot[k];
        let mut zeros = 0usize;
        for (f, row) in s.rows.iter().take(frames).enumerate() {
            let out = &mut values[f * cpf + k * 7..f * cpf + k * 7 + 7];
            let ti = Vec3::new(row[0], row[1], row[2]) * scale;
            let t = if dt.rotation_before_translation {
                // M = R0·Ri·T: the same point as T(R0·Ri·t)·R0·Ri, minus the offset R0·t0.
                let angles = order.map(|c| row[3 + column(c)] * to_rad);
                let ri = compose_rotation(&order, &angles, EulerConvention::FirstOutermost);
                r0 * ri * (t0 + ti) - r0 * t0
            } else {
                ti
            };
            out[0] = t.x;
            out[1] = t.y;
            out[2] = t.z;
            for (c, kind) in order.iter().enumerate() {
                out[3 + c] = row[3 + column(*kind)] * to_rad;
            }
            let mut sf = row[6];
            if sf == 0.0 {
                zeros += 1;
                sf = 1.0;
            }
            if (sf - 1.0).abs() > 1e-6 && !dt.scale_last && non_unit_scale_offset.is_none() {
                non_unit_scale_offset = s.block_offset;
            }
            out[6] = sf;
        }
        if zeros > 0 {
            zero_scale.push((s.name.clone(), zeros, s.block_offset.unwrap_or(0)));
        }
    }
    if let Some(off) = non_unit_scale_offset {
        return Err(ParseError::invalid(
            off as u64,
            "bone scale factors other than 1 with a DataType that scales before rotating or translating: \
             skelview reads scale only as the last transform (HTRS, HRTS)",
        ));
    }
    if !zero_scale.is_empty() {
        let (name, n, off) = &zero_scale[0];
        let more = if zero_scale.len() > 1 { format!(" (and on {} more segments)", zero_scale.len() - 1) } else { String::new() };
        warnings.push(RawWarning {
            offset: *off as u64,
            message: format!(
                "BoneScaleFactor is 0 on {n} frames of segment '{name}'{more}: treated as 1, since a zero scale would collapse the bone and everything below it"
            ),
        });
    }
    Ok(values)
}

/// The length unit and up axis the header names; names skelview does not know are warned about
/// and left to detection.
fn unit_and_up(h: &Header, warnings: &mut Vec<RawWarning>) -> (Option<LengthUnit>, Option<UpAxis>) {
    let unit = h.unit_text.as_deref().and_then(LengthUnit::parse);
    if let (Some(text), None) = (&h.unit_text, unit) {
        warnings.push(RawWarning {
            offset: 0,
            message: format!("CalibrationUnits '{text}' is not a unit skelview knows: detected from body size"),
        });
    }
    // The axis of gravity: up is along it, positive unless the file writes a sign.
    let up = match h.up_text.as_deref() {
        Some(t) => match UpAxis::parse(t) {
            Some(up) => Some(up),
            None => {
                warnings.push(RawWarning {
                    offset: 0,
                    message: format!(
                        "GlobalAxisofGravity {t} is not an axis (X, Y or Z, with an optional sign): up axis detected from the pose"
                    ),
                });
                None
            }
        },
        None => None,
    };
    (unit, up)
}

/// Column (0, 1, 2 for X, Y, Z) of a rotation channel's angle in an `Rx Ry Rz` row.
fn column(kind: ChannelKind) -> usize {
    match kind {
        ChannelKind::RotateX => 0,
        ChannelKind::RotateY => 1,
        _ => 2,
    }
}
