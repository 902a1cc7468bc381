//! VRM animation output (`.vrma`, `VRMC_vrm_animation` 1.0): the motion put on VRM's
//! normalized humanoid (one node per humanoid bone, a T-pose with identity rest rotations;
//! `retarget::normalized`) and written as glTF without a skin, its nodes bound to their bones
//! by the extension, as the specification says. A player (three-vrm) then turns each avatar
//! bone as the node turns from its rest, and moves the hips scaled by the two rest heights.

use serde_json::{Map, Value, json};

use super::gltf_writer::{Animation, NonFinite, document as gltf_document, take_names};
use crate::core::Motion;
use crate::retarget::{RetargetError, bone_map, normalized};

/// Why a motion cannot be written as a VRM animation.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum VrmaError {
    /// Its skeleton is no humanoid skelview can map.
    #[error(transparent)]
    Humanoid(#[from] RetargetError),
    /// A value is not a finite number.
    #[error(transparent)]
    Gltf(#[from] NonFinite),
}

/// The glTF document and buffer of `m` as a VRM animation.
pub fn document(m: &Motion) -> Result<(Value, Vec<u8>), VrmaError> {
    let map = bone_map(&m.skeleton, m.source.up_axis, m.source.format.joints_at_far_end);
    let missing = map.missing();
    if !missing.is_empty() {
        return Err(RetargetError::Missing { which: "motion", missing }.into());
    }
    let (humanoid, humanoid_map) = normalized(m, &map)?;
    let name = take_names(m).get(m.source.take.unwrap_or(0)).cloned().unwrap_or_else(|| "animation".into());
    let (mut doc, bin) = gltf_document(&[Animation { name, motion: &humanoid }])?;
    if let Some(o) = doc.as_object_mut() {
        // An animation of nodes: no mesh, so no skin.
        o.remove("skins");
    }
    let bones: Map<String, Value> = humanoid_map.entries.iter().map(|e| (e.bone.to_owned(), json!({ "node": e.joint }))).collect();
    doc["extensionsUsed"] = json!(["VRMC_vrm_animation"]);
    doc["extensions"] = json!({ "VRMC_vrm_animation": { "specVersion": "1.0", "humanoid": { "humanBones": bones } } });
    Ok((doc, bin))
}
