//! VRM avatar output (`.vrm`): a character read from a VRM, with the motion on it, written as
//! glTF ([`super::gltf_writer`]: its joints, meshes, skins, materials, textures and the
//! motion's takes) plus the VRM extensions it was read with, in the same version (VRM 0.x
//! `VRM`, or VRM 1.0 `VRMC_vrm` and `VRMC_springBone`), every index in them renumbered: the
//! humanoid's and spring bones' nodes to the joints' nodes, expressions' (blend shapes')
//! morph binds to the meshes and nodes each primitive became, material binds to the
//! primitives' materials. So a VRM player (three-vrm, VSeeFace) finds the avatar's humanoid,
//! expressions and licence in the output, and a glTF player plays the capture on it.
//!
//! Left out, because the output's materials and images are its own: MToon material
//! properties, a thumbnail, material values of VRM 0.x blend shapes; and what refers to a node
//! that is not a joint here (a spring bone on a node no skin uses drops the spring set).

use serde_json::{Map, Value, json};

use super::gltf_writer::{Animation, NonFinite, document as gltf_document};
use crate::core::character_extensions::CharacterExtensions;

/// Why a motion cannot be written as a VRM avatar.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum VrmError {
    /// The motion's character was not read from a VRM.
    #[error("a .vrm needs a VRM avatar's character (its licence, humanoid and expressions): retarget onto a .vrm, or write .glb")]
    NotAnAvatar,
    /// A value is not a finite number.
    #[error(transparent)]
    Gltf(#[from] NonFinite),
}

/// The glTF document and buffer of `animations` (sharing the first one's skeleton and
/// character) as a VRM avatar.
pub fn document(animations: &[Animation]) -> Result<(Value, Vec<u8>), VrmError> {
    let ext =
        animations.first().and_then(|a| a.motion.meshes.as_deref()).and_then(|set| set.extensions.clone()).ok_or(VrmError::NotAnAvatar)?;
    let source: Map<String, Value> = serde_json::from_str(&ext.json).map_err(|_| VrmError::NotAnAvatar)?;
    let (mut doc, bin) = gltf_document(animations)?;
    let mesh_node: Vec<usize> = (0..ext.origins.len())
        .map(|k| {
            let nodes = doc["nodes"].as_array().map(Vec::as_slice).unwrap_or_default();
            nodes.iter().position(|n| n.get("mesh").and_then(Value::as_u64) == Some(k as u64)).unwrap_or(0)
        })
        .collect();
    let r = Renumber { ext: &ext, mesh_node };
    let mut out = Map::new();
    for (name, value) in source {
        let kept = match name.as_str() {
            "VRMC_vrm" => Some(r.vrm1(value)),
            "VRMC_springBone" => r.springs1(value),
            "VRM" => Some(r.vrm0(value)),
            _ => None,
        };
        if let Some(v) = kept {
            out.insert(name, v);
        }
    }
    if out.is_empty() {
        return Err(VrmError::NotAnAvatar);
    }
    doc["extensionsUsed"] = json!(out.keys().collect::<Vec<_>>());
    doc["extensions"] = Value::Object(out);
    Ok((doc, bin))
}

/// Source indices → output indices.
struct Renumber<'a> {
    ext: &'a CharacterExtensions,
    /// The output node of each mesh (mesh `k` is the output's mesh `k` and material `k`).
    mesh_node: Vec<usize>,
}

impl Renumber<'_> {
    /// The output node of a source node that is a joint (joint `j` is node `j`).
    fn joint(&self, node: &Value) -> Option<usize> {
        let n = usize::try_from(node.as_u64()?).ok()?;
        *self.ext.joint_of_node.get(n)?
    }

    /// The output nodes drawing the primitives of source node `n`'s mesh.
    fn mesh_nodes(&self, n: usize) -> Vec<usize> {
        self.ext.origins.iter().enumerate().filter(|(_, o)| o.node == n).map(|(k, _)| self.mesh_node[k]).collect()
    }

    /// The output meshes made of source mesh `m`'s primitives.
    fn meshes(&self, m: usize) -> Vec<usize> {
        self.ext.origins.iter().enumerate().filter(|(_, o)| o.mesh == m).map(|(k, _)| k).collect()
    }

    /// The output materials of primitives that used source material `m`.
    fn materials(&self, m: usize) -> Vec<usize> {
        self.ext.origins.iter().enumerate().filter(|(_, o)| o.material == Some(m)).map(|(k, _)| k).collect()
    }

    /// VRM 1.0's `VRMC_vrm`.
    fn vrm1(&self, mut v: Value) -> Value {
        if let Some(bones) = v.pointer_mut("/humanoid/humanBones").and_then(Value::as_object_mut) {
            bones.retain(|_, b| match b.get("node").and_then(|n| self.joint(n)) {
                Some(j) => {
                    b["node"] = json!(j);
                    true
                }
                None => false,
            });
        }
        if let Some(meta) = v.get_mut("meta").and_then(Value::as_object_mut) {
            meta.remove("thumbnailImage");
        }
        spread(v.pointer_mut("/firstPerson/meshAnnotations"), "node", |n| self.mesh_nodes(n));
        for group in ["preset", "custom"] {
            let Some(list) = v.pointer_mut(&format!("/expressions/{group}")).and_then(Value::as_object_mut) else { continue };
            for e in list.values_mut() {
                spread(e.get_mut("morphTargetBinds"), "node", |n| self.mesh_nodes(n));
                spread(e.get_mut("materialColorBinds"), "material", |m| self.materials(m));
                spread(e.get_mut("textureTransformBinds"), "material", |m| self.materials(m));
            }
        }
        v
    }

    /// VRM 1.0's `VRMC_springBone`, or `None` when a node it names is no joint here.
    fn springs1(&self, mut v: Value) -> Option<Value> {
        for c in v.get_mut("colliders").and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or_default() {
            c["node"] = json!(self.joint(c.get("node")?)?);
        }
        for s in v.get_mut("springs").and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or_default() {
            if let Some(center) = s.get("center") {
                s["center"] = json!(self.joint(center)?);
            }
            for j in s.get_mut("joints").and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or_default() {
                j["node"] = json!(self.joint(j.get("node")?)?);
            }
        }
        Some(v)
    }

    /// VRM 0.x's `VRM`.
    fn vrm0(&self, mut v: Value) -> Value {
        if let Some(bones) = v.pointer_mut("/humanoid/humanBones").and_then(Value::as_array_mut) {
            bones.retain_mut(|b| match b.get("node").and_then(|n| self.joint(n)) {
                Some(j) => {
                    b["node"] = json!(j);
                    true
                }
                None => false,
            });
        }
        if let Some(meta) = v.get_mut("meta").and_then(Value::as_object_mut) {
            meta.remove("texture");
        }
        if let Some(fp) = v.get_mut("firstPerson").and_then(Value::as_object_mut) {
            let bone = fp.get("firstPersonBone").and_then(|n| self.joint(n));
            fp.insert("firstPersonBone".into(), bone.map_or(json!(-1), |j| json!(j)));
            spread(fp.get_mut("meshAnnotations"), "mesh", |m| self.meshes(m));
        }
        if let Some(groups) = v.pointer_mut("/blendShapeMaster/blendShapeGroups").and_then(Value::as_array_mut) {
            for g in groups {
                spread(g.get_mut("binds"), "mesh", |m| self.meshes(m));
                // They name the source's materials, which the output does not have.
                g["materialValues"] = json!([]);
            }
        }
        if let Some(o) = v.as_object_mut() {
            o.remove("materialProperties");
            let springs = o.remove("secondaryAnimation").and_then(|s| self.springs0(s));
            if let Some(s) = springs {
                o.insert("secondaryAnimation".into(), s);
            }
        }
        v
    }

    /// VRM 0.x's `secondaryAnimation`, or `None` when a node it names is no joint here.
    fn springs0(&self, mut v: Value) -> Option<Value> {
        for g in v.get_mut("boneGroups").and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or_default() {
            let bones = g.get("bones").and_then(Value::as_array).cloned().unwrap_or_default();
            g["bones"] = json!(bones.iter().map(|b| self.joint(b)).collect::<Option<Vec<_>>>()?);
            // -1 (or none): no centre.
            if let Some(center) = g.get("center").filter(|c| c.as_i64() != Some(-1)) {
                g["center"] = json!(self.joint(center)?);
            }
        }
        for c in v.get_mut("colliderGroups").and_then(Value::as_array_mut).map(Vec::as_mut_slice).unwrap_or_default() {
            c["node"] = json!(self.joint(c.get("node")?)?);
        }
        Some(v)
    }
}

/// Replaces each object of the array `list` by copies of it with `key` renumbered to each of
/// `targets(old)`: none drops it, several (a mesh split into primitives) repeat it.
fn spread(list: Option<&mut Value>, key: &str, targets: impl Fn(usize) -> Vec<usize>) {
    let Some(Value::Array(items)) = list else { return };
    let old = std::mem::take(items);
    for item in old {
        let Some(n) = item.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok()) else { continue };
        for t in targets(n) {
            let mut copy = item.clone();
            copy[key] = json!(t);
            items.push(copy);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_repeats_an_entry_per_target_and_drops_one_without() {
        let mut list = json!([{ "node": 1, "index": 0 }, { "node": 2, "index": 3 }, { "index": 9 }]);
        spread(Some(&mut list), "node", |n| if n == 1 { vec![7, 8] } else { vec![] });
        assert_eq!(list, json!([{ "node": 7, "index": 0 }, { "node": 8, "index": 0 }]));
    }
}
