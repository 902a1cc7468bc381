//! A skeleton's humanoid bones, guessed in order: the file's own map, else the joints'
//! names, then the tree's shape for what the names leave out.

use super::bone_map::{BONES, BoneMap, FAR_END_NAMES, Found, by_names};
use super::bone_shape::{by_shape, hands_of_fans, hips_above_legs};
use crate::core::names::fold;
use crate::core::{Skeleton, UpAxis};

/// The skeleton's humanoid bones: the file's own map where it has one, else by names, then by
/// the tree's shape for what names leave out; `up` is the file's up axis (for the shape),
/// `far_end` true for skeletons whose joints sit at their bone's far end (Acclaim ASF).
pub fn bone_map(skeleton: &Skeleton, up: UpAxis, far_end: bool) -> BoneMap {
    let mut map = BoneMap::default();
    for (j, joint) in skeleton.joints().iter().enumerate() {
        if let Some(bone) = joint.humanoid.as_deref().and_then(|h| BONES.iter().find(|b| **b == h)) {
            map.set(bone, j, Found::File);
        }
    }
    if map.entries.is_empty() && far_end {
        for (bone, name) in FAR_END_NAMES {
            if let Some(j) = skeleton.joints().iter().position(|j| fold(&j.name) == *name) {
                map.set(bone, j, Found::Name);
            }
        }
    } else if map.entries.is_empty() {
        by_names(skeleton, &mut map);
        by_shape(skeleton, up, &mut map);
        hips_above_legs(skeleton, &mut map);
        hands_of_fans(skeleton, &mut map);
    }
    map.sort();
    map
}
