//! Putting a capture on a character: which joint of any skeleton is each humanoid bone
//! ([`bone_map`]), and a motion moved onto another skeleton through two such maps
//! ([`retarget`]).

pub mod agreement;
mod bone_guess;
pub mod bone_map;
mod bone_shape;
mod feet;
mod joint_names;
pub mod name_map;
pub mod normalized;
mod rows;
mod source;
pub mod transfer;

pub use agreement::{BoneAgreement, DirectionPair, bone_directions, direction_pairs};
pub use bone_guess::bone_map;
pub use bone_map::{BONES, BoneMap, Found, MapEntry, MapError, REQUIRED, apply_toml};
pub use name_map::apply_name_map;
pub use normalized::normalized;
pub use transfer::{HipScale, RetargetError, RetargetOptions, retarget};
