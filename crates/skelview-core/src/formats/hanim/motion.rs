//! HAnimMotion (X3D 4): raw frame-by-frame joint data, BVH-like (`channels` lists per joint a
//! count and channel names, `joints` the joint names, `values` the frames).
//!
//! Angles are radians like every X3D angle (the encoding has no degrees of its own); the
//! rotation channels of one joint compose in listed order, the first outermost (as in BVH).

use std::collections::HashMap;

use glam::{DQuat, DVec3};

use super::scene::{Node, Scene};
use crate::formats::error::{ParseError, RawWarning};

/// Channel sentinel that marks "translation driven by the motion" in the track table.
pub(crate) const MOTION_TRACK: usize = usize::MAX;

/// One joint's columns in a motion frame.
#[derive(Debug, Default)]
pub(crate) struct Columns {
    /// Xposition/Yposition/Zposition columns (any subset).
    pub position: [Option<usize>; 3],
    /// Rotation axes (0 x, 1 y, 2 z) with their columns, outermost first.
    pub rotation: Vec<(usize, usize)>,
}

/// A decoded HAnimMotion.
#[derive(Debug)]
pub(crate) struct Motion {
    pub frame_time: f64,
    pub frames: usize,
    pub stride: usize,
    pub values: Vec<f64>,
    /// Columns per joint node id.
    pub joints: HashMap<usize, Columns>,
    pub name: String,
}

impl Motion {
    /// The first enabled HAnimMotion with values, matched to the scene's joints by name.
    pub fn find(scene: &Scene<'_>, warnings: &mut Vec<RawWarning>) -> Result<Option<Motion>, ParseError> {
        let Some(node) = scene.nodes.iter().find(|n| {
            n.type_name == "HAnimMotion"
                && n.boolean("enabled") != Some(false)
                && n.nums("values").ok().flatten().is_some_and(|v| !v.is_empty())
        }) else {
            return Ok(None);
        };
        let by_name: HashMap<String, usize> = scene
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| matches!(n.type_name, "HAnimJoint" | "Joint"))
            .filter_map(|(i, n)| n.string("name").map(|name| (name, i)))
            .collect();
        Self::read(node, &by_name, warnings).map(Some)
    }

    fn read(node: &Node<'_>, by_name: &HashMap<String, usize>, warnings: &mut Vec<RawWarning>) -> Result<Motion, ParseError> {
        let words = |field: &str| -> Vec<String> {
            node.string(field)
                .unwrap_or_default()
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let names = words("joints");
        let channels = words("channels");
        let at = node.field_offset("channels") as u64;
        let mut joints = HashMap::new();
        let mut column = 0usize;
        let mut it = channels.iter();
        for name in &names {
            let count = it
                .next()
                .and_then(|c| c.parse::<usize>().ok())
                .ok_or_else(|| ParseError::invalid(at, format!("HAnimMotion channels: expected a channel count for joint '{name}'")))?;
            let mut cols = Columns::default();
            for _ in 0..count {
                let Some(ch) = it.next() else {
                    return Err(ParseError::invalid(at, format!("HAnimMotion channels: joint '{name}' lists fewer than {count} channels")));
                };
                match ch.as_str() {
                    "Xposition" => cols.position[0] = Some(column),
                    "Yposition" => cols.position[1] = Some(column),
                    "Zposition" => cols.position[2] = Some(column),
                    "Xrotation" => cols.rotation.push((0, column)),
                    "Yrotation" => cols.rotation.push((1, column)),
                    "Zrotation" => cols.rotation.push((2, column)),
                    other => {
                        return Err(ParseError::invalid(at, format!("HAnimMotion channels: unknown channel '{other}' for joint '{name}'")));
                    }
                }
                column += 1;
            }
            if name == "IGNORED" {
                continue;
            }
            match by_name.get(name) {
                Some(&id) => {
                    joints.insert(id, cols);
                }
                None => {
                    warnings.push(RawWarning { offset: node.offset as u64, message: format!("HAnimMotion names unknown joint '{name}'") })
                }
            }
        }
        let values = node.nums("values")?.map(|v| v.into_owned()).unwrap_or_default();
        if column == 0 || values.len() % column != 0 {
            return Err(ParseError::invalid(
                node.field_offset("values") as u64,
                format!("HAnimMotion values: {} numbers is not a whole number of frames of {column} channels", values.len()),
            ));
        }
        let frame_time = node.nums("frameDuration")?.and_then(|v| v.first().copied()).unwrap_or(0.1);
        if !(frame_time > 0.0 && frame_time.is_finite()) {
            return Err(ParseError::invalid(node.field_offset("frameDuration") as u64, "frameDuration must be positive"));
        }
        let name = node.string("name").filter(|n| !n.is_empty()).or(node.def.map(str::to_owned)).unwrap_or_else(|| "HAnimMotion".into());
        Ok(Motion { frame_time, frames: values.len() / column, stride: column, values, joints, name })
    }

    /// The translation and rotation a frame gives joint node `id` (each `None` when not driven).
    pub fn sample(&self, id: usize, frame: usize) -> (Option<DVec3>, Option<DQuat>) {
        let Some(cols) = self.joints.get(&id) else { return (None, None) };
        let row = &self.values[frame * self.stride..(frame + 1) * self.stride];
        let t = cols.position.iter().any(Option::is_some).then(|| {
            DVec3::new(
                cols.position[0].map_or(0.0, |c| row[c]),
                cols.position[1].map_or(0.0, |c| row[c]),
                cols.position[2].map_or(0.0, |c| row[c]),
            )
        });
        let r = (!cols.rotation.is_empty()).then(|| {
            cols.rotation.iter().fold(DQuat::IDENTITY, |q, &(axis, c)| {
                q * match axis {
                    0 => DQuat::from_rotation_x(row[c]),
                    1 => DQuat::from_rotation_y(row[c]),
                    _ => DQuat::from_rotation_z(row[c]),
                }
            })
        });
        (t, r)
    }
}
