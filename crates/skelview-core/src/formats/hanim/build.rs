//! Scene graph → skeleton + clip.
//!
//! X3D places a joint with `world_from_j = world_from_parent · T(t) · T(c) · R · S' · T(−c)`
//! (`S' = SR · S · SR⁻¹`). Our joint frame sits at the joint centre: `F_j = world_from_j · T(c_j)`.
//! With `A = T(−c_p) · M` (`M`: the static Transforms between the parent joint and this one,
//! or the humanoid's placement for a root; `F_p` = world for a root, `c_p` = 0) this gives
//! `F_j = F_p · A · T(t_j + c_j) · R_j · S'_j = F_p · T(a + L·c_j + L·t_j) · L · R_j · S'_j`
//! where `a`, `L` are A's translation and linear part. With `L = Q·s` (rotation × uniform
//! scale): offset `a + L·c_j`, translation channels `L·t_j` (added), `pre_rotation = Q`,
//! quaternion channels `R_j`, scale channels `s·S_j`.
//!
//! Sites are end-site markers at `world_from_site · c` (their origin for the usual `center`
//! 0 0 0), with a static translation folded into the offset. The humanoid itself becomes a
//! joint (centre `c_h`, same rule) only when it is animated or has no joints; otherwise its
//! transform is part of every root's `A`.

use std::collections::{HashMap, HashSet};

use glam::{DAffine3, DMat3, DQuat, DVec3, Quat};

use super::anim::{Keys, Target, Tracks, axis_angle};
use super::motion::Motion;
use super::scene::{Node, Scene};
use crate::core::{ChannelKind, Joint, RotationLimits};
use crate::formats::error::{ParseError, RawWarning};

/// Deeper scene graphs than this are not followed.
const MAX_DEPTH: usize = 256;

/// An X3D transform's fields.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Xf {
    pub t: DVec3,
    pub c: DVec3,
    pub r: DQuat,
    pub s: DVec3,
    pub so: DQuat,
}

impl Xf {
    pub fn read(node: &Node<'_>) -> Result<Xf, ParseError> {
        Ok(Xf {
            t: DVec3::from_array(node.vec("translation", [0.0; 3])?),
            c: DVec3::from_array(node.vec("center", [0.0; 3])?),
            r: axis_angle(&node.vec("rotation", [0.0, 0.0, 1.0, 0.0])?),
            s: DVec3::from_array(node.vec("scale", [1.0; 3])?),
            so: axis_angle(&node.vec("scaleOrientation", [0.0, 0.0, 1.0, 0.0])?),
        })
    }

    /// `T(t)·T(c)·R·SR·S·SR⁻¹·T(−c)`.
    pub fn matrix(&self) -> DAffine3 {
        DAffine3::from_translation(self.t + self.c)
            * DAffine3::from_quat(self.r)
            * DAffine3::from_quat(self.so)
            * DAffine3::from_scale(self.s)
            * DAffine3::from_quat(self.so.inverse())
            * DAffine3::from_translation(-self.c)
    }
}

/// How to compute one skeleton joint's channel values from its node.
#[derive(Debug)]
pub(crate) struct Spec {
    pub node: usize,
    pub rest: Xf,
    pub lin: DMat3,
    pub scale: f64,
    pub trans: bool,
    pub rot: bool,
    pub scl: bool,
    pub tracks: [Option<usize>; 3],
}

impl Spec {
    /// Appends this joint's channel values for the given field values.
    pub fn push(&self, t: DVec3, r: DQuat, s: DVec3, out: &mut Vec<f32>) {
        if self.trans {
            let v = self.lin * t;
            out.extend([v.x as f32, v.y as f32, v.z as f32]);
        }
        if self.rot {
            out.extend([r.x as f32, r.y as f32, r.z as f32, r.w as f32]);
        }
        if self.scl {
            let v = s * self.scale;
            out.extend([v.x as f32, v.y as f32, v.z as f32]);
        }
    }
}

/// Walks the H-Anim tree below a humanoid.
pub(crate) struct Builder<'s, 'a> {
    pub scene: &'s Scene<'a>,
    pub tracks: &'s Tracks,
    pub joints: Vec<Joint>,
    pub specs: Vec<Spec>,
    pub visited: HashSet<usize>,
    pub warned: HashSet<&'a str>,
    pub warnings: Vec<RawWarning>,
    pub counts: [usize; 3], // joints, sites, segments
}

fn is_joint(t: &str) -> bool {
    matches!(t, "HAnimJoint" | "Joint")
}
fn is_site(t: &str) -> bool {
    matches!(t, "HAnimSite" | "Site")
}
fn is_leaf(t: &str) -> bool {
    t.ends_with("Sensor")
        || t.ends_with("Interpolator")
        || t.ends_with("Light")
        || t.starts_with("Metadata")
        || matches!(
            t,
            "Shape"
                | "Viewpoint"
                | "OrthoViewpoint"
                | "Inline"
                | "WorldInfo"
                | "NavigationInfo"
                | "Background"
                | "Fog"
                | "Sound"
                | "Script"
                | "HAnimDisplacer"
                | "Displacer"
                | "HAnimMotion"
                | "Coordinate"
                | "Normal"
                | "TextureCoordinate"
                | "Appearance"
                | "Material"
                | "ImageTexture"
                | "IndexedFaceSet"
                | "IndexedLineSet"
                | "Text"
                | "FontStyle"
                | "Box"
                | "Sphere"
                | "Cylinder"
                | "Cone"
                | "Color"
        )
}
fn is_group(t: &str) -> bool {
    matches!(t, "Group" | "Anchor" | "Collision" | "Switch" | "LOD" | "StaticGroup" | "Billboard" | "CADPart" | "CADAssembly")
}

/// Splits a linear map into rotation × uniform scale; false when it is not a similarity.
pub(crate) fn similarity(l: DMat3) -> (DQuat, f64, bool) {
    let det = l.determinant();
    if !det.is_finite() || det.abs() < 1e-300 {
        return (DQuat::IDENTITY, 0.0, false);
    }
    let s = det.cbrt();
    let m = l * (1.0 / s);
    let exact = (m.transpose() * m - DMat3::IDENTITY).to_cols_array().iter().all(|d| d.abs() < 1e-6);
    // Gram–Schmidt keeps from_mat3 on a true rotation when the map shears.
    let x = m.x_axis.normalize_or(DVec3::X);
    let y = (m.y_axis - x * x.dot(m.y_axis)).normalize_or(DVec3::Y);
    let z = x.cross(y);
    (DQuat::from_mat3(&DMat3::from_cols(x, y, z)).normalize(), s, exact)
}

impl<'s, 'a> Builder<'s, 'a> {
    fn warn(&mut self, offset: usize, message: String) {
        self.warnings.push(RawWarning { offset: offset as u64, message });
    }

    /// Adds a joint, site or (animated) humanoid node as a skeleton joint.
    pub fn add_joint(&mut self, id: usize, parent: Option<usize>, c_p: DVec3, acc: DAffine3) -> Result<Option<usize>, ParseError> {
        let node = &self.scene.nodes[id];
        let ty = node.type_name;
        if !self.visited.insert(id) {
            let name = node.def.unwrap_or(ty);
            self.warn(node.offset, format!("{ty} '{name}' is used twice in the skeleton; the second use is ignored"));
            return Ok(None);
        }
        let xf = Xf::read(node)?;
        let tracks = self.tracks.get(&id).copied().unwrap_or_default();
        let site = is_site(ty);
        let a = DAffine3::from_translation(-c_p) * acc;
        let (q, s, exact) = similarity(a.matrix3);
        let name = node.string("name").filter(|n| !n.is_empty()).or(node.def.map(str::to_owned)).unwrap_or_else(|| format!("{ty}{id}"));
        if !exact {
            self.warn(node.offset, format!("'{name}' sits under a non-uniform or degenerate scale: its pose is approximated"));
        }
        let trans = tracks[Target::Translation as usize].is_some() || (!site && xf.t != DVec3::ZERO);
        let mut offset = a.translation + a.matrix3 * xf.c;
        if !trans {
            offset += a.matrix3 * xf.t;
        }
        let rot = !site;
        let uniform = xf.s.x == xf.s.y && xf.s.y == xf.s.z;
        let scl = !site && (tracks[Target::Scale as usize].is_some() || (xf.s * s - DVec3::ONE).abs().max_element() > 1e-12);
        if !site && !uniform && xf.so.w.abs() < 1.0 - 1e-12 {
            self.warn(node.field_offset("scaleOrientation"), format!("'{name}': non-uniform scale with a scaleOrientation cannot be shown exactly; the scale is applied along the joint's own axes"));
        }
        let mut joint = Joint::new(name, parent, offset.as_vec3());
        joint.pre_rotation = Quat::from_array(q.to_array().map(|v| v as f32));
        joint.is_end_site = site;
        joint.is_marker = site;
        if trans {
            joint.channels.extend([ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ]);
        }
        if rot {
            joint.channels.extend([ChannelKind::QuatX, ChannelKind::QuatY, ChannelKind::QuatZ, ChannelKind::QuatW]);
        }
        if scl {
            joint.channels.extend([ChannelKind::ScaleX, ChannelKind::ScaleY, ChannelKind::ScaleZ]);
        }
        joint.details.push(("node".into(), ty.into()));
        if let Some(def) = node.def {
            joint.details.push(("DEF".into(), def.into()));
        }
        for limit in ["llimit", "ulimit"] {
            if let Some(v) = node.nums(limit)? {
                let deg: Vec<String> = v.iter().map(|r| format!("{:.1}°", r.to_degrees())).collect();
                joint.details.push((limit.into(), deg.join(" ")));
            }
        }
        if !site {
            joint.rotation_limits = self.rotation_limits(node, &joint.name)?;
        }
        let lin = a.matrix3;
        let j = self.joints.len();
        self.joints.push(joint);
        self.specs.push(Spec { node: id, rest: xf, lin, scale: s, trans, rot, scl, tracks });
        Ok(Some(j))
    }

    /// A joint's `llimit`/`ulimit` in its `limitOrientation` frame. Empty fields (the
    /// default) mean no limits; one without the other, or a count other than three, is
    /// ignored with a warning; an axis whose lower limit passes its upper one is left free.
    fn rotation_limits(&mut self, node: &Node<'_>, name: &str) -> Result<Option<RotationLimits>, ParseError> {
        let (lower, upper) = (node.nums("llimit")?, node.nums("ulimit")?);
        let (lower, upper) = match (lower.filter(|v| !v.is_empty()), upper.filter(|v| !v.is_empty())) {
            (None, None) => return Ok(None),
            (Some(l), Some(u)) if l.len() == 3 && u.len() == 3 => (DVec3::from_slice(&l), DVec3::from_slice(&u)),
            (Some(_), Some(_)) => {
                self.warn(
                    node.field_offset("llimit"),
                    format!("'{name}': llimit and ulimit need three numbers each (X, Y, Z); its limits are ignored"),
                );
                return Ok(None);
            }
            (l, _) => {
                let (given, missing) = if l.is_some() { ("llimit", "ulimit") } else { ("ulimit", "llimit") };
                self.warn(
                    node.field_offset(given),
                    format!("'{name}': {given} without {missing} (both must be given); its limits are ignored"),
                );
                return Ok(None);
            }
        };
        let mut free = Vec::new();
        let (mut lo, mut hi) = (lower.as_vec3(), upper.as_vec3());
        for (axis, label) in ["X", "Y", "Z"].iter().enumerate() {
            if lo[axis] > hi[axis] {
                free.push(*label);
                (lo[axis], hi[axis]) = (0.0, 0.0);
            }
        }
        if !free.is_empty() {
            self.warn(
                node.field_offset("llimit"),
                format!("'{name}': llimit is above ulimit about {}; that axis is left free", free.join(", ")),
            );
        }
        let frame = axis_angle(&node.vec("limitOrientation", [0.0, 0.0, 1.0, 0.0])?);
        let frame = Quat::from_array(frame.to_array().map(|v| v as f32));
        Ok(Some(RotationLimits { lower: lo, upper: hi, frame }))
    }

    /// Visits a node below joint `parent` (centre `c_p`), `acc` being the static transform
    /// from the parent's inner frame to this node's container.
    pub fn visit(&mut self, id: usize, parent: Option<usize>, c_p: DVec3, acc: DAffine3, depth: usize) -> Result<(), ParseError> {
        let node = &self.scene.nodes[id];
        let ty = node.type_name;
        if depth > MAX_DEPTH {
            self.warn(node.offset, format!("scene nested deeper than {MAX_DEPTH} levels; the rest is skipped"));
            return Ok(());
        }
        if !is_joint(ty) && !is_site(ty) && !self.visited.insert(id) {
            return Ok(()); // a USE'd group seen before: its joints are placed already (and DAGs stay linear)
        }
        if is_joint(ty) {
            if let Some(j) = self.add_joint(id, parent, c_p, acc)? {
                self.counts[0] += 1;
                let c = self.specs[j].rest.c;
                self.children(id, Some(j), c, DAffine3::IDENTITY, depth)?;
            }
        } else if is_site(ty) {
            if self.add_joint(id, parent, c_p, acc)?.is_some() {
                self.counts[1] += 1;
            }
        } else if matches!(ty, "HAnimSegment" | "Segment") {
            self.counts[2] += 1;
            if let (Some(p), Some(name)) = (parent, node.string("name")) {
                self.joints[p].details.push(("segment".into(), name));
            }
            self.children(id, parent, c_p, acc, depth)?;
        } else if ty == "Transform" {
            if self.tracks.contains_key(&id) {
                self.warn(node.offset, "animation of a Transform inside the skeleton is ignored".into());
            }
            let m = Xf::read(node)?.matrix();
            self.children(id, parent, c_p, acc * m, depth)?;
        } else if is_leaf(ty) || matches!(ty, "HAnimHumanoid" | "Humanoid") {
            // Geometry, sensors, viewpoints: nothing of the skeleton.
        } else {
            if !is_group(ty) && self.warned.insert(ty) && self.has_joint_below(id, &mut 10_000) {
                self.warn(node.offset, format!("unknown node type '{ty}' in the skeleton is treated as a Group"));
            }
            self.children(id, parent, c_p, acc, depth)?;
        }
        Ok(())
    }

    fn children(&mut self, id: usize, parent: Option<usize>, c_p: DVec3, acc: DAffine3, depth: usize) -> Result<(), ParseError> {
        let n = self.scene.nodes[id].children.len();
        for k in 0..n {
            let (field, child, _) = self.scene.nodes[id].children[k];
            if matches!(field, "metadata" | "displacers" | "geometry" | "appearance") {
                continue;
            }
            self.visit(child, parent, c_p, acc, depth + 1)?;
        }
        Ok(())
    }

    /// Whether a joint or site lies below `id`, looking at no more than `budget` nodes.
    fn has_joint_below(&self, id: usize, budget: &mut usize) -> bool {
        self.scene.nodes[id].children.iter().any(|&(_, c, _)| {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let t = self.scene.nodes[c].type_name;
            is_joint(t) || is_site(t) || self.has_joint_below(c, budget)
        })
    }

    /// Channel values for every joint at interpolation fraction `f` (`None`: rest pose).
    pub fn row(&self, keys: &HashMap<usize, Keys>, f: Option<f64>, out: &mut Vec<f32>) {
        for spec in &self.specs {
            let mut t = spec.rest.t;
            let mut r = spec.rest.r;
            let mut s = spec.rest.s;
            if let Some(f) = f {
                let k = |slot: usize| spec.tracks[slot].and_then(|i| keys.get(&i));
                if let Some(v) = k(1).and_then(|k| k.vec3(f)) {
                    t = v;
                }
                if let Some(v) = k(0).and_then(|k| k.rotation(f)) {
                    r = v;
                }
                if let Some(v) = k(2).and_then(|k| k.vec3(f)) {
                    s = v;
                }
            }
            spec.push(t, r, s, out);
        }
    }

    /// Channel values for every joint at frame `frame` of an HAnimMotion.
    pub fn row_motion(&self, motion: &Motion, frame: usize, out: &mut Vec<f32>) {
        for spec in &self.specs {
            let (t, r) = motion.sample(spec.node, frame);
            spec.push(t.unwrap_or(spec.rest.t), r.unwrap_or(spec.rest.r), spec.rest.s, out);
        }
    }
}
