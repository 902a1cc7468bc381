//! What moves an FBX mesh and how it looks: its skin as bones and per-vertex influences, its
//! blend shapes as morph targets, its material's colour and embedded texture.
//!
//! ufbx skins a vertex to `Σ wᵢ · bone_nodeᵢ.node_to_world · clusterᵢ.geometry_to_bone · p`
//! (weights over the total), and a vertex no cluster weighs follows the mesh's first
//! instance (`geometry_to_world`). Each cluster is therefore a bone on the joint of its bone
//! node with `geometry_to_bone` as `joint_from_mesh`; unweighted vertices get one more bone,
//! the mesh node's rigid place. Blend shapes are added before skinning, as ufbx does.

use crate::core::mesh::MeshError;
use std::collections::HashMap;

use glam::{DMat4, Mat4, Vec3};

use super::mesh_context::Context;
use super::sample::matrix_from;
use crate::core::mesh::{Bone, Image, MAX_INFLUENCES, Material, MorphAnimation};
use crate::formats::error::RawWarning;

/// Per ufbx vertex (position index): bone indices and weights.
pub(super) type Influences = (Vec<[u16; MAX_INFLUENCES]>, Vec<[f32; MAX_INFLUENCES]>);

/// A mesh's palette and, for a skinned mesh, its influences.
pub(super) struct Binding {
    /// The palette: one bone per cluster (and one for unweighted vertices), or the rigid
    /// mesh's one bone.
    pub bones: Vec<Bone>,
    /// `None` for a rigid mesh.
    pub influences: Option<Influences>,
}

/// Things worth one warning for the whole file rather than one per mesh.
#[derive(Default)]
pub(super) struct Notes {
    /// Vertices that had more than [`MAX_INFLUENCES`] influences, and meshes holding them.
    lost: (usize, usize),
    /// Meshes the file skins with dual quaternions (drawn with linear blending).
    dual_quaternion: Vec<String>,
    /// Meshes with more than one skin (ufbx, and skelview, use the first).
    several_skins: Vec<String>,
    /// Meshes whose blend shapes are too many to keep.
    too_many_morphs: Vec<String>,
}

impl Notes {
    /// Adds the warnings gathered.
    pub fn warn(&self, warnings: &mut Vec<RawWarning>) {
        let mut say = |message: String| warnings.push(RawWarning { offset: 0, message });
        let list = |names: &[String]| names.iter().take(5).map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ");
        if self.lost.0 > 0 {
            let (v, m) = self.lost;
            say(format!(
                "{v} vertices of {m} meshes have more than {MAX_INFLUENCES} skin influences: the {MAX_INFLUENCES} strongest are kept, renormalised"
            ));
        }
        if !self.dual_quaternion.is_empty() {
            say(format!(
                "{} meshes are skinned with dual quaternions in the file ({}): drawn with linear blending",
                self.dual_quaternion.len(),
                list(&self.dual_quaternion)
            ));
        }
        if !self.several_skins.is_empty() {
            say(format!("meshes with more than one skin ({}): the first skin is used", list(&self.several_skins)));
        }
        if !self.too_many_morphs.is_empty() {
            say(format!(
                "meshes with more than {MAX_MORPH_VALUES} blend shape offsets (shapes × vertices: {}): drawn without their blend shapes",
                list(&self.too_many_morphs)
            ));
        }
    }
}

/// A matrix as `f32`, refused when it is not finite.
fn finite(m: DMat4, what: impl FnOnce() -> String) -> Result<Mat4, MeshError> {
    let f = m.as_mat4();
    if f.is_finite() { Ok(f) } else { Err(MeshError::from(format!("{} is not finite", what()))) }
}

/// A rigid mesh's bone: the joint at or above `node`, and the mesh's place in it with the
/// node's geometric transform (which moves the mesh but not the node's children).
fn rigid_bone(ctx: &Context, node: usize) -> Result<Bone, MeshError> {
    let (joint, joint_from_node) = ctx.place(node);
    let geometry_to_node = ctx.scene.nodes.get(node).map_or(DMat4::IDENTITY, |n| matrix_from(&n.geometry_to_node));
    let joint_from_mesh = finite(joint_from_node * geometry_to_node, || format!("the place of node {node}"))?;
    Ok(Bone { joint, joint_from_mesh })
}

/// The palette and influences of `mesh`, held by node `node`.
pub(super) fn binding(ctx: &Context, mesh: &ufbx::Mesh, node: usize, name: &str, notes: &mut Notes) -> Result<Binding, MeshError> {
    let Some(skin) = mesh.skin_deformers.first() else { return Ok(Binding { bones: vec![rigid_bone(ctx, node)?], influences: None }) };
    if mesh.skin_deformers.len() > 1 {
        notes.several_skins.push(name.to_owned());
    }
    let dq = skin.vertices.iter().any(|v| v.dq_weight > 0.0);
    if skin.skinning_method == ufbx::SkinningMethod::DualQuaternion || dq {
        notes.dual_quaternion.push(name.to_owned());
    }
    let fallback = u16::try_from(skin.clusters.len()).ok().filter(|&f| f < u16::MAX).ok_or("its skin has more than 65534 clusters")?;
    let mut bones = Vec::with_capacity(skin.clusters.len() + 1);
    for c in skin.clusters.iter() {
        let geometry_to_bone = matrix_from(&c.geometry_to_bone);
        let what = || format!("the bind matrix of cluster '{}'", &*c.element.name);
        bones.push(match c.bone_node.as_ref() {
            Some(b) => {
                let (joint, joint_from_bone) = ctx.place(b.element.typed_id as usize);
                Bone { joint, joint_from_mesh: finite(joint_from_bone * geometry_to_bone, what)? }
            }
            // ufbx leaves such a cluster out of the sum (its weights are skipped below).
            None => Bone { joint: None, joint_from_mesh: finite(matrix_from(&c.bind_to_world) * geometry_to_bone, what)? },
        });
    }
    let live: Vec<bool> = skin.clusters.iter().map(|c| c.bone_node.is_some()).collect();
    let (influences, unweighted, lost) = influences(skin, mesh.num_vertices, fallback, &live);
    if lost > 0 {
        notes.lost.0 += lost;
        notes.lost.1 += 1;
    }
    if unweighted {
        // ufbx's fallback: the mesh's first instance.
        let first = mesh.element.instances.first().map_or(node, |n| n.element.typed_id as usize);
        bones.push(rigid_bone(ctx, first)?);
    }
    Ok(Binding { bones, influences: Some(influences) })
}

/// Each vertex's strongest [`MAX_INFLUENCES`] weights, renormalised (ufbx sorts them
/// strongest first and divides by their total); a vertex without weight follows bone
/// `fallback`. Returns the influences, whether any vertex used the fallback, and how many
/// vertices lost influences.
fn influences(skin: &ufbx::SkinDeformer, count: usize, fallback: u16, live: &[bool]) -> (Influences, bool, usize) {
    let (mut joints, mut weights) = (vec![[0u16; MAX_INFLUENCES]; count], vec![[0f32; MAX_INFLUENCES]; count]);
    let (mut unweighted, mut lost) = (false, 0);
    let mut list: Vec<(u16, f64)> = Vec::new();
    for v in 0..count {
        list.clear();
        if let Some(sv) = skin.vertices.get(v) {
            let range = sv.weight_begin as usize..(sv.weight_begin as usize).saturating_add(sv.num_weights as usize);
            let usable =
                |w: &&ufbx::SkinWeight| w.weight.is_finite() && w.weight > 0.0 && live.get(w.cluster_index as usize) == Some(&true);
            list.extend(skin.weights.get(range).unwrap_or_default().iter().filter(usable).map(|w| (w.cluster_index as u16, w.weight)));
        }
        list.sort_by(|a, b| b.1.total_cmp(&a.1));
        if list.len() > MAX_INFLUENCES {
            lost += 1;
            list.truncate(MAX_INFLUENCES);
        }
        let sum: f64 = list.iter().map(|w| w.1).sum();
        if sum <= 0.0 || !sum.is_finite() {
            unweighted = true;
            list.clear();
            list.push((fallback, 1.0));
        }
        let total = list.iter().map(|w| w.1).sum::<f64>();
        for (k, &(j, w)) in list.iter().enumerate() {
            (joints[v][k], weights[v][k]) = (j, (w / total) as f32);
        }
    }
    ((joints, weights), unweighted, lost)
}

/// A morph target over ufbx's vertices (position indices).
pub(super) struct Target {
    pub name: String,
    pub positions: Vec<Vec3>,
    /// Empty when the shape has no normal offsets.
    pub normals: Vec<Vec3>,
}

/// A mesh's blend shapes: one target per shape of each channel (a channel's in-between
/// shapes are targets of their own, weighted by ufbx's in-between rule).
#[derive(Default)]
pub(super) struct Morphs {
    pub targets: Vec<Target>,
    /// The weights the scene loads with.
    pub weights: Vec<f32>,
    /// The weights over the take, where it animates a channel.
    pub animation: Option<MorphAnimation>,
}

/// Offsets of `shape` per vertex (ufbx's per-offset weights applied), or `None` when any is
/// not finite.
fn dense(shape: &ufbx::BlendShape, count: usize, normals: bool) -> Option<Vec<Vec3>> {
    let offsets = if normals { &shape.normal_offsets } else { &shape.position_offsets };
    let n = shape.num_offsets.min(shape.offset_vertices.len()).min(offsets.len());
    let mut out = vec![Vec3::ZERO; count];
    for i in 0..n {
        let Some(slot) = out.get_mut(shape.offset_vertices[i] as usize) else { continue };
        let w = shape.offset_weights.get(i).copied().unwrap_or(1.0);
        let o = offsets[i];
        *slot += Vec3::new((o.x * w) as f32, (o.y * w) as f32, (o.z * w) as f32);
    }
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// Most morph displacements a mesh keeps (targets × vertices; 384 MiB of positions): past
/// this the mesh is drawn without its blend shapes.
const MAX_MORPH_VALUES: usize = 1 << 25;

/// The mesh's blend shapes as morph targets, with their weights at load and over the take.
pub(super) fn morphs(ctx: &Context, mesh: &ufbx::Mesh, name: &str, notes: &mut Notes) -> Result<Morphs, MeshError> {
    let mut out = Morphs::default();
    let channels: Vec<&ufbx::BlendChannel> = mesh.blend_deformers.iter().flat_map(|d| d.channels.iter()).map(|c| &**c).collect();
    let shapes: usize = channels.iter().map(|c| c.keyframes.len()).sum();
    if shapes.saturating_mul(mesh.num_vertices) > MAX_MORPH_VALUES {
        notes.too_many_morphs.push(name.to_owned());
        return Ok(out);
    }
    for c in &channels {
        for key in c.keyframes.iter() {
            let shape = &*key.shape;
            let what = || format!("blend shape '{}'", &*shape.element.name);
            let positions = dense(shape, mesh.num_vertices, false).ok_or_else(|| format!("{} has offsets that are not finite", what()))?;
            let has_normals = shape.normal_offsets.len() >= shape.num_offsets && shape.num_offsets > 0;
            let normals = if has_normals { dense(shape, mesh.num_vertices, true).unwrap_or_default() } else { Vec::new() };
            let name = if c.keyframes.len() > 1 {
                format!("{} ({}%)", &*c.element.name, key.target_weight * 100.0)
            } else {
                c.element.name.to_string()
            };
            out.targets.push(Target { name, positions, normals });
            out.weights.push(key.effective_weight as f32);
        }
    }
    out.animation = weights_over_take(ctx, &channels, out.targets.len());
    Ok(out)
}

/// The in-between rule of ufbx (`ufbxi_update_blend_channel`): a channel at `weight` blends
/// linearly between the two shapes whose target weights bracket it (zero below the first);
/// writes each shape's effective weight.
fn effective_weights(weight: f64, targets: &[f64], out: &mut [f32]) {
    out.fill(0.0);
    let last_negative = targets.iter().rposition(|&t| t < 0.0);
    // The first shape at or above zero.
    let first = last_negative.map_or(0, |l| l + 1);
    // `None` is the implicit shape at weight 0 (no offset).
    let (mut prev, mut next): (Option<usize>, Option<usize>) = (None, None);
    if weight > 0.0 {
        prev = last_negative;
        for (i, &target) in targets.iter().enumerate().skip(first) {
            (prev, next) = (next, Some(i));
            if target > weight {
                break;
            }
        }
    } else {
        if first < targets.len() {
            prev = Some(first);
        }
        for (i, &target) in targets.iter().enumerate().take(first).rev() {
            (prev, next) = (next, Some(i));
            if target < weight {
                break;
            }
        }
    }
    let at = |k: Option<usize>| k.map_or(0.0, |k| targets[k]);
    let delta = at(next) - at(prev);
    if delta != 0.0 {
        let t = (weight - at(prev)) / delta;
        if let Some(p) = prev {
            out[p] = (1.0 - t) as f32;
        }
        if let Some(q) = next {
            out[q] = t as f32;
        }
    }
}

/// Effective weights of every target at each frame of the take, where the take animates any
/// channel (`DeformPercent`); `None` otherwise.
fn weights_over_take(ctx: &Context, channels: &[&ufbx::BlendChannel], targets: usize) -> Option<MorphAnimation> {
    let s = ctx.sampling;
    let stack = s.take.and_then(|c| ctx.scene.anim_stacks.get(c))?;
    let animated = |c: &ufbx::BlendChannel| stack.layers.iter().any(|l| ufbx::find_anim_prop(l, &c.element, "DeformPercent").is_some());
    if targets == 0 || !channels.iter().any(|c| animated(c)) {
        return None;
    }
    let mut values = vec![0.0f32; s.frames * targets];
    for (f, row) in values.chunks_mut(targets).enumerate() {
        let t = (s.begin + f as f64 / s.fps).min(s.end);
        let mut at = 0;
        for c in channels {
            let shapes: Vec<f64> = c.keyframes.iter().map(|k| k.target_weight).collect();
            let weight = ufbx::evaluate_blend_weight(ctx.anim, c, t);
            effective_weights(weight, &shapes, &mut row[at..at + shapes.len()]);
            at += shapes.len();
        }
    }
    Some(MorphAnimation { frame_time_secs: 1.0 / s.fps, targets, values })
}

/// An sRGB component as linear light (FBX colours are what the artist picked, sRGB, as
/// three.js's FBXLoader reads them).
pub(super) fn linear(c: f64) -> f32 {
    let c = c as f32;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// The material's diffuse colour (ufbx's PBR base colour, which is the diffuse colour of
/// Lambert and Phong materials) and its texture where the file embeds it as PNG or JPEG;
/// images decoded once each. Factors are not applied (three.js and Blender ignore them too).
pub(super) fn material(
    m: Option<&ufbx::Material>,
    images: &mut Vec<Image>,
    decoded: &mut HashMap<u32, Option<usize>>,
    warnings: &mut Vec<RawWarning>,
) -> Material {
    let mut out = Material::default();
    let Some(m) = m else { return out };
    let map = if m.pbr.base_color.has_value { &m.pbr.base_color } else { &m.fbx.diffuse_color };
    if map.has_value {
        let c = map.value_vec4;
        let rgb = [linear(c.x), linear(c.y), linear(c.z)];
        if rgb.iter().all(|v| v.is_finite()) {
            out.base_color = [rgb[0], rgb[1], rgb[2], 1.0];
        }
    }
    let texture = map.texture.as_ref().or(m.fbx.diffuse_color.texture.as_ref());
    // A layered texture's first layer with embedded content.
    let embedded = texture.and_then(|t| std::iter::once(&**t).chain(t.file_textures.iter().map(|f| &**f)).find(|t| !t.content.is_empty()));
    out.texture = embedded.and_then(|t| {
        *decoded.entry(t.element.element_id).or_insert_with(|| {
            let name = if t.relative_filename.is_empty() { t.element.name.to_string() } else { t.relative_filename.to_string() };
            match crate::formats::gltf::images::decode_bytes(&t.content, name.clone()) {
                Ok(i) => {
                    images.push(i);
                    Some(images.len() - 1)
                }
                Err(message) => {
                    warnings.push(RawWarning { offset: 0, message: format!("texture '{name}': {message}; drawn without it") });
                    None
                }
            }
        })
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_between_shapes_share_the_weight_as_ufbx_does() {
        let mut out = [0.0; 2];
        // Shapes at 50 % and 100 %: at 25 % half the first; at 75 % between the two.
        effective_weights(0.25, &[0.5, 1.0], &mut out);
        assert_eq!(out, [0.5, 0.0]);
        effective_weights(0.75, &[0.5, 1.0], &mut out);
        assert_eq!(out, [0.5, 0.5]);
        effective_weights(1.0, &[1.0], &mut out[..1]);
        assert_eq!(out[0], 1.0);
        effective_weights(0.0, &[1.0], &mut out[..1]);
        assert_eq!(out[0], 0.0);
    }
}
