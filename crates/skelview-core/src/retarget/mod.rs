//! Putting a capture on a character. First piece: which joint of any skeleton is each
//! humanoid bone ([`bone_map`]), the map retargeting and VRM animation writing stand on.

pub mod bone_map;

pub use bone_map::{BONES, BoneMap, Found, MapEntry, MapError, REQUIRED, apply_toml, bone_map};
