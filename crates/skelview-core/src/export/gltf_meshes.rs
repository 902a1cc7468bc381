//! The meshes of a character in glTF output: each mesh a primitive with its vertices, skin
//! (its own, over the joints' nodes, inverse bind matrices in the output space), morph
//! targets, material and PNG texture; a rigid mesh a child node of its joint. So a capture
//! retargeted onto a character plays on the character in any glTF player.
//!
//! The output space is the file's turned and scaled by `D` (metres, Y-up), and every node's
//! local transform is `D · L · D⁻¹`: a joint's output world is `D · W · D⁻¹`, so a mesh bound
//! by `joint_from_mesh` in the file is bound by `D · joint_from_mesh` in the output.

use glam::{Mat4, Vec3};
use serde_json::{Value, json};

use super::gltf_blob::Blob;
use crate::core::mesh::{AlphaMode, Mesh, MeshSet};

/// What the meshes add to a document.
#[derive(Default)]
pub struct MeshParts {
    /// Nodes after the joints' (mesh nodes), with the joint each hangs under (`None`: a root).
    pub nodes: Vec<(Value, Option<usize>)>,
    /// `meshes`.
    pub meshes: Vec<Value>,
    /// Skins after the skeleton's.
    pub skins: Vec<Value>,
    /// `materials`.
    pub materials: Vec<Value>,
    /// `images` (PNG in buffer views).
    pub images: Vec<Value>,
    /// `textures`, one per image.
    pub textures: Vec<Value>,
    /// Nodes that carry a moving bind ([`crate::core::mesh::BindMotion`]): the node, its
    /// mesh's index and the bone; the animation keys the node's translation.
    pub moving_binds: Vec<(usize, usize, usize)>,
}

/// Appends `set`'s data to `blob`; `d` is the file → output similarity, `first_node` the index
/// the first mesh node gets and `first_skin` that of the first mesh skin.
pub(super) fn append(blob: &mut Blob, set: &MeshSet, d: Mat4, first_node: usize, first_skin: usize) -> MeshParts {
    let mut parts = MeshParts::default();
    for (k, image) in set.images.iter().enumerate() {
        // Pixels that do not fit their size (never read so): a white pixel keeps the indices.
        let white = crate::core::mesh::Image { name: image.name.clone(), width: 1, height: 1, rgba8: vec![255; 4] };
        let bytes = png(image).or_else(|| png(&white)).unwrap_or_default();
        let view = blob.bytes_view(&bytes);
        parts.images.push(json!({ "bufferView": view, "mimeType": "image/png", "name": image.name }));
        parts.textures.push(json!({ "source": k, "sampler": 0 }));
    }
    for (k, mesh) in set.meshes.iter().enumerate() {
        parts.materials.push(material(mesh, set));
        if mesh.skinned {
            let (joints, binds, slot_of) = skin_slots(mesh, (k, d), first_node, &mut parts);
            let ibm: Vec<f32> = binds.iter().flat_map(|m| affine(d * *m).to_cols_array()).collect();
            let ibm = blob.floats(&ibm, "MAT4", binds.len(), false);
            parts.skins.push(json!({ "joints": joints, "inverseBindMatrices": ibm, "name": mesh.name }));
            let skin = first_skin + parts.skins.len() - 1;
            parts.meshes.push(mesh_json(blob, mesh, k, &slot_of));
            parts.nodes.push((json!({ "name": mesh.name, "mesh": k, "skin": skin }), None));
        } else {
            let bone = mesh.bones.first().copied().unwrap_or(crate::core::mesh::Bone { joint: None, joint_from_mesh: Mat4::IDENTITY });
            let matrix = affine(d * bone.joint_from_mesh).to_cols_array();
            parts.meshes.push(mesh_json(blob, mesh, k, &[]));
            parts.nodes.push((json!({ "name": mesh.name, "mesh": k, "matrix": matrix }), bone.joint));
        }
    }
    parts
}

/// A skin's joints (node indices), their bind matrices (file space) and the skin slot of each
/// of the mesh's bones. glTF wants each node once in a skin: bones on the same joint with the
/// same bind share a slot; one with another bind, or on no joint, gets a node of its own
/// (under its joint, or at the root), added to `parts.nodes`. So does a bone whose bind moves
/// (a body's expressions): its node's translation is the bind's shift (`d`: the output
/// similarity), keyed by the animation, at its first value here.
fn skin_slots(mesh: &Mesh, (index, d): (usize, Mat4), first_node: usize, parts: &mut MeshParts) -> (Vec<usize>, Vec<Mat4>, Vec<u16>) {
    let (mut joints, mut binds, mut slot_of) = (Vec::new(), Vec::new(), Vec::new());
    let first_shifts: Vec<(usize, Vec3)> = mesh.bind_motion.as_ref().map(|b| b.at(0.0).collect()).unwrap_or_default();
    for (k, b) in mesh.bones.iter().enumerate() {
        let moving = first_shifts.iter().find(|(bone, _)| *bone == k).map(|(_, shift)| *shift);
        let same =
            b.joint.filter(|_| moving.is_none()).and_then(|j| (0..joints.len()).find(|&s| joints[s] == j && binds[s] == b.joint_from_mesh));
        let slot = same.unwrap_or_else(|| {
            let node = match b.joint.filter(|j| !joints.contains(j) && moving.is_none()) {
                Some(j) => j,
                None => {
                    let mut node = json!({ "name": format!("{} bone {k}", mesh.name) });
                    if let Some(shift) = moving {
                        node["translation"] = json!(d.transform_vector3(-shift).to_array());
                        parts.moving_binds.push((first_node + parts.nodes.len(), index, k));
                    }
                    parts.nodes.push((node, b.joint));
                    first_node + parts.nodes.len() - 1
                }
            };
            joints.push(node);
            binds.push(b.joint_from_mesh);
            joints.len() - 1
        });
        slot_of.push(slot as u16);
    }
    (joints, binds, slot_of)
}

/// A mesh with its one primitive and default morph weights; `slot_of` renumbers its bones.
fn mesh_json(blob: &mut Blob, mesh: &Mesh, k: usize, slot_of: &[u16]) -> Value {
    let mut m = json!({ "name": mesh.name, "primitives": [primitive(blob, mesh, k, slot_of)] });
    if !mesh.morph_targets.is_empty() {
        m["weights"] = weights(mesh);
    }
    m
}

/// `m` with its last row exactly `0 0 0 1` (the validator asks affine matrices so).
fn affine(m: Mat4) -> Mat4 {
    let mut a = m.to_cols_array();
    (a[3], a[7], a[11], a[15]) = (0.0, 0.0, 0.0, 1.0);
    Mat4::from_cols_array(&a)
}

/// The mesh's default morph weights.
fn weights(mesh: &Mesh) -> Value {
    let n = mesh.morph_targets.len();
    json!(mesh.morph_weights.iter().copied().chain(std::iter::repeat(0.0)).take(n).collect::<Vec<f32>>())
}

/// One primitive: its attributes, indices, targets and material `k`; `slot_of` gives each
/// bone's place in the skin.
fn primitive(blob: &mut Blob, mesh: &Mesh, k: usize, slot_of: &[u16]) -> Value {
    let n = mesh.positions.len();
    let flat = |v: &[Vec3]| v.iter().flat_map(|p| p.to_array()).collect::<Vec<f32>>();
    let mut attributes = serde_json::Map::new();
    attributes.insert("POSITION".into(), json!(blob.vec3_with_bounds(&flat(&mesh.positions), n)));
    if mesh.normals.len() == n {
        attributes.insert("NORMAL".into(), json!(blob.floats(&flat(&mesh.normals), "VEC3", n, false)));
    }
    if mesh.uvs.len() == n {
        let uvs: Vec<f32> = mesh.uvs.iter().flat_map(|t| t.to_array()).collect();
        attributes.insert("TEXCOORD_0".into(), json!(blob.floats(&uvs, "VEC2", n, false)));
    }
    if mesh.colors.len() == n {
        let colors: Vec<f32> = mesh.colors.iter().flat_map(|c| c.to_array()).collect();
        attributes.insert("COLOR_0".into(), json!(blob.floats(&colors, "VEC4", n, false)));
    }
    if mesh.skinned {
        let sets = if mesh.weights.iter().any(|w| w[4..].iter().any(|&x| x != 0.0)) { 2 } else { 1 };
        for set in 0..sets {
            // An unused influence names joint 0 (the validator warns of one with no weight).
            let joints: Vec<u16> = mesh
                .joints
                .iter()
                .zip(&mesh.weights)
                .flat_map(|(j, w)| {
                    (set * 4..set * 4 + 4)
                        .map(|k| if w[k] == 0.0 { 0 } else { slot_of.get(usize::from(j[k])).copied().unwrap_or(0) })
                        .collect::<Vec<_>>()
                })
                .collect();
            let weights: Vec<f32> = mesh.weights.iter().flat_map(|w| w[set * 4..set * 4 + 4].to_vec()).collect();
            attributes.insert(format!("JOINTS_{set}"), json!(blob.u16s(&joints, "VEC4", n)));
            attributes.insert(format!("WEIGHTS_{set}"), json!(blob.floats(&weights, "VEC4", n, false)));
        }
    }
    let indices = blob.u32s(&mesh.indices);
    let targets: Vec<Value> = mesh
        .morph_targets
        .iter()
        .map(|t| {
            let mut target = json!({ "POSITION": blob.vec3_with_bounds(&flat(&t.positions), n) });
            if t.normals.len() == n {
                target["NORMAL"] = json!(blob.floats(&flat(&t.normals), "VEC3", n, false));
            }
            target
        })
        .collect();
    let mut p = json!({ "attributes": attributes, "indices": indices, "material": k, "mode": 4 });
    if !targets.is_empty() {
        p["targets"] = json!(targets);
    }
    p
}

/// The mesh's material: base colour and texture, alpha, sides.
fn material(mesh: &Mesh, set: &MeshSet) -> Value {
    let m = &mesh.material;
    let mut pbr = json!({ "baseColorFactor": m.base_color, "metallicFactor": 0.0, "roughnessFactor": 1.0 });
    if let Some(t) = m.texture.filter(|&t| t < set.images.len()) {
        pbr["baseColorTexture"] = json!({ "index": t });
    }
    let mut out = json!({ "name": mesh.name, "pbrMetallicRoughness": pbr, "doubleSided": m.double_sided });
    match m.alpha {
        AlphaMode::Opaque => {}
        AlphaMode::Mask(c) => {
            out["alphaMode"] = json!("MASK");
            out["alphaCutoff"] = json!(c);
        }
        AlphaMode::Blend => out["alphaMode"] = json!("BLEND"),
    }
    out
}

/// The image encoded as PNG (`None` when its pixels do not fit its size).
fn png(image: &crate::core::mesh::Image) -> Option<Vec<u8>> {
    let rgba = image::RgbaImage::from_raw(image.width, image.height, image.rgba8.clone())?;
    let mut out = std::io::Cursor::new(Vec::new());
    rgba.write_to(&mut out, image::ImageFormat::Png).ok()?;
    Some(out.into_inner())
}
