//! An FBX scene's meshes, bound to the skeleton [`super::nodes`] chose: every node that holds
//! a mesh × each of its material parts becomes one [`Mesh`], triangulated as ufbx
//! triangulates faces, one vertex per distinct face corner (position, normal, UV and colour).
//! Skinned meshes take their skin's clusters as bones (see [`super::skin`]), rigid ones the
//! joint at or above their node; blend shapes become morph targets, materials give their
//! diffuse colour and embedded PNG or JPEG texture.
//!
//! Everything stays in the file's raw space, the space the joints are built in (ufbx loads
//! without unit or axis conversion), so the skeleton's global pose skins the vertices to
//! where ufbx's own skinning puts them. A mesh that cannot be read (positions beyond a 32-bit
//! float, matrices that are not finite) is left out with a warning naming it.

use crate::core::mesh::MeshError;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use glam::{Vec2, Vec3, Vec4};
use ufbx::Scene;

use super::mesh_context::Context;
pub use super::mesh_context::Sampling;
use super::nodes::Nodes;
use super::skin::{self, Binding, Morphs, Notes};
use crate::core::mesh::{Bone, Mesh, MeshSet};
use crate::formats::error::RawWarning;

/// Most vertices read over all meshes (as for glTF: past this the rest are left out, with a
/// warning).
const MAX_VERTICES: usize = 20_000_000;

/// Reads every mesh of the scene; what cannot be read is warned about and left out.
pub fn read(scene: &Scene, nodes: &Nodes, sampling: &Sampling, warnings: &mut Vec<RawWarning>) -> MeshSet {
    let joint_of = nodes.joints.iter().enumerate().map(|(j, joint)| (nodes.chain[joint.slot].node, j)).collect();
    let anim = sampling.take.and_then(|c| scene.anim_stacks.get(c)).map_or(&scene.anim, |s| &s.anim);
    let ctx = Context { scene, joint_of, anim, sampling };
    let mut set = MeshSet::default();
    let mut notes = Notes::default();
    let mut textures = HashMap::new();
    // ufbx skins a mesh into world space whichever node holds it: a skinned mesh that several
    // nodes share is drawn once.
    let mut skinned = HashSet::new();
    let mut vertices = 0usize;
    for (n, node) in scene.nodes.iter().enumerate() {
        let Some(mesh) = node.mesh.as_ref() else { continue };
        if !mesh.skin_deformers.is_empty() && !skinned.insert(mesh.element.typed_id) {
            continue;
        }
        let name = mesh_name(node, mesh, n);
        let deformed = skin::binding(&ctx, mesh, n, &name, &mut notes).and_then(|b| Ok((b, skin::morphs(&ctx, mesh, &name, &mut notes)?)));
        let (binding, morphs) = match deformed {
            Ok(d) => d,
            Err(message) => {
                warnings.push(RawWarning { offset: 0, message: format!("mesh '{name}': {message}; left out") });
                continue;
            }
        };
        let several = mesh.material_parts.iter().filter(|p| p.num_triangles > 0).count() > 1;
        for part in mesh.material_parts.iter().filter(|p| p.num_triangles > 0) {
            let name = if several { format!("{name} #{}", part.index) } else { name.clone() };
            if vertices >= MAX_VERTICES {
                let message = format!("mesh '{name}': past {MAX_VERTICES} vertices in all; it and the meshes after it are left out");
                warnings.push(RawWarning { offset: 0, message });
                notes.warn(warnings);
                return set;
            }
            match mesh_part(mesh, part, &name, &binding, &morphs) {
                Ok(mut m) => {
                    let material = node.materials.get(part.index as usize).or_else(|| mesh.materials.get(part.index as usize));
                    m.material = skin::material(material.map(|r| &**r), &mut set.images, &mut textures, warnings);
                    vertices += m.positions.len();
                    set.meshes.push(m);
                }
                Err(message) => warnings.push(RawWarning { offset: 0, message: format!("mesh '{name}': {message}; left out") }),
            }
        }
    }
    notes.warn(warnings);
    set
}

/// The node's name (what the outliner shows), else the mesh's, else the node's number.
fn mesh_name(node: &ufbx::Node, mesh: &ufbx::Mesh, n: usize) -> String {
    let name = if node.element.name.is_empty() { &mesh.element.name } else { &node.element.name };
    if name.is_empty() { format!("node {n}") } else { name.to_string() }
}

/// One material part of a mesh: its triangles, vertices, influences and morph targets.
fn mesh_part(mesh: &ufbx::Mesh, part: &ufbx::MeshPart, name: &str, binding: &Binding, morphs: &Morphs) -> Result<Mesh, MeshError> {
    let corners = corners(mesh, part)?;
    let first = binding.bones.first().copied().unwrap_or(Bone { joint: None, joint_from_mesh: glam::Mat4::IDENTITY });
    let mut m = Mesh::rigid(name, corners.positions, corners.indices, first);
    m.bones = binding.bones.clone();
    if let Some(normals) = corners.normals {
        m.normals = normals;
    }
    m.uvs = corners.uvs;
    m.colors = corners.colors;
    if let Some((joints, weights)) = &binding.influences {
        m.skinned = true;
        m.joints = corners.source.iter().map(|&v| joints[v as usize]).collect();
        m.weights = corners.source.iter().map(|&v| weights[v as usize]).collect();
    }
    m.morph_targets = morphs
        .targets
        .iter()
        .map(|t| crate::core::mesh::MorphTarget {
            name: t.name.clone(),
            positions: corners.source.iter().map(|&v| t.positions[v as usize]).collect(),
            normals: if t.normals.is_empty() { Vec::new() } else { corners.source.iter().map(|&v| t.normals[v as usize]).collect() },
        })
        .collect();
    m.morph_weights = morphs.weights.clone();
    m.morph_animation = morphs.animation.clone();
    Ok(m)
}

/// A part's triangles over its distinct corners.
#[derive(Default)]
struct Corners {
    positions: Vec<Vec3>,
    /// `None` where the file has no normals (then computed from the faces).
    normals: Option<Vec<Vec3>>,
    uvs: Vec<Vec2>,
    colors: Vec<Vec4>,
    indices: Vec<u32>,
    /// ufbx's vertex (position index) of each vertex: its skin weights and blend offsets.
    source: Vec<u32>,
}

/// One corner's attributes, as read from ufbx.
struct Corner {
    vertex: u32,
    position: Vec3,
    normal: Option<Vec3>,
    uv: Option<Vec2>,
    color: Option<Vec4>,
}

impl Corner {
    /// Equal corners share a vertex: the position's index, the rest by value (ufbx gives
    /// per-corner normals and UVs an index each even where they are equal).
    fn key(&self) -> [u32; 10] {
        let n = self.normal.map_or([u32::MAX; 3], |v| v.to_array().map(f32::to_bits));
        let uv = self.uv.map_or([u32::MAX; 2], |v| v.to_array().map(f32::to_bits));
        let c = self.color.map_or([u32::MAX; 4], |v| v.to_array().map(f32::to_bits));
        [self.vertex, n[0], n[1], n[2], uv[0], uv[1], c[0], c[1], c[2], c[3]]
    }
}

/// The corner at `index` (an index into ufbx's face corners).
fn corner(mesh: &ufbx::Mesh, index: usize) -> Result<Corner, MeshError> {
    let at = |indices: &[u32], count: usize| indices.get(index).map(|&i| i as usize).filter(|&i| i < count);
    let p = &mesh.vertex_position;
    let vertex =
        at(p.indices.as_ref(), p.values.len().min(mesh.num_vertices)).ok_or_else(|| format!("face corner {index} has no position"))?;
    let v = p.values[vertex];
    let position = Vec3::new(v.x as f32, v.y as f32, v.z as f32);
    if !position.is_finite() {
        return Err(MeshError::from(format!("vertex {vertex} ({}, {}, {}) is not a finite 32-bit number", v.x, v.y, v.z)));
    }
    let n = &mesh.vertex_normal;
    let normal = n.exists.then(|| at(n.indices.as_ref(), n.values.len()).map(|i| n.values[i])).flatten().map(|v| {
        let v = Vec3::new(v.x as f32, v.y as f32, v.z as f32);
        v.try_normalize().unwrap_or(Vec3::Y)
    });
    let t = &mesh.vertex_uv;
    // FBX puts v = 0 at the image's bottom, skelview (as glTF) at its top row.
    let uv = t
        .exists
        .then(|| at(t.indices.as_ref(), t.values.len()).map(|i| t.values[i]))
        .flatten()
        .map(|v| Vec2::new(v.x as f32, 1.0 - v.y as f32));
    let c = &mesh.vertex_color;
    let color = c
        .exists
        .then(|| at(c.indices.as_ref(), c.values.len()).map(|i| c.values[i]))
        .flatten()
        .map(|v| Vec4::new(skin::linear(v.x), skin::linear(v.y), skin::linear(v.z), v.w as f32));
    Ok(Corner { vertex: vertex as u32, position, normal, uv, color })
}

/// Triangulates the part's faces (ufbx's triangulation: quads split along the shorter
/// diagonal, polygons ear-clipped) and merges equal corners.
fn corners(mesh: &ufbx::Mesh, part: &ufbx::MeshPart) -> Result<Corners, MeshError> {
    let mut out = Corners::default();
    let (has_normals, has_uvs, has_colors) = (mesh.vertex_normal.exists, mesh.vertex_uv.exists, mesh.vertex_color.exists);
    let mut seen: HashMap<[u32; 10], u32> = HashMap::new();
    let mut normals = Vec::new();
    let mut triangle_corners = Vec::new();
    for &f in part.face_indices.iter() {
        let face = *mesh.faces.get(f as usize).ok_or_else(|| format!("face {f} of {}", mesh.faces.len()))?;
        if face.num_indices < 3 {
            continue;
        }
        if (face.index_begin as usize).saturating_add(face.num_indices as usize) > mesh.num_indices {
            return Err(MeshError::from(format!("face {f} runs past the mesh's {} corners", mesh.num_indices)));
        }
        // ufbx's triangulation asks room for every triangle of the face (it panics otherwise).
        triangle_corners.resize((face.num_indices as usize - 2) * 3, 0);
        let triangles = ufbx::triangulate_face(&mut triangle_corners, mesh, face) as usize;
        for &index in &triangle_corners[..triangles * 3] {
            let c = corner(mesh, index as usize)?;
            let v = match seen.entry(c.key()) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    let v = u32::try_from(out.positions.len()).map_err(|_| "more than 2³² vertices")?;
                    out.positions.push(c.position);
                    out.source.push(c.vertex);
                    normals.push(c.normal.unwrap_or(Vec3::Y));
                    if has_uvs {
                        out.uvs.push(c.uv.unwrap_or(Vec2::ZERO));
                    }
                    if has_colors {
                        out.colors.push(c.color.unwrap_or(Vec4::ONE));
                    }
                    *e.insert(v)
                }
            };
            out.indices.push(v);
        }
    }
    out.normals = has_normals.then_some(normals);
    Ok(out)
}
