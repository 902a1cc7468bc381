//! Character Studio MNM name maps as humanoid bone maps: an MNM gives each of the file's joint
//! names (right column) a standard Biped/BVH name (left column), and the standard names are
//! ones the bone map already knows, so the joints an MNM names are mapped through it.

use std::collections::HashMap;

use super::bone_map::{BoneMap, Found, by_names};
use crate::core::Skeleton;
use crate::core::names::fold;

/// Sets the bones whose joints the MNM pairs `(standard, file's own)` name, over those found
/// before; returns how many bones it set.
pub fn apply_name_map(map: &mut BoneMap, skeleton: &Skeleton, names: &[(String, String)]) -> usize {
    let standard: HashMap<String, &str> = names.iter().map(|(biped, own)| (fold(own), biped.as_str())).collect();
    // Joints the map leaves out are not looked at: the map says what it means.
    let joints = skeleton
        .joints()
        .iter()
        .map(|j| {
            let mut j = j.clone();
            j.name = standard.get(&fold(&j.name)).map_or_else(String::new, |s| (*s).to_owned());
            j
        })
        .collect();
    let Ok(renamed) = Skeleton::new(joints, skeleton.position_rule) else { return 0 };
    let mut through = BoneMap::default();
    by_names(&renamed, &mut through);
    for e in &through.entries {
        map.set(e.bone, e.joint, Found::User);
    }
    map.sort();
    through.entries.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Joint, PositionRule};
    use glam::Vec3;

    #[test]
    fn an_mnm_names_the_bones_of_a_skeleton_named_otherwise() {
        let names = ["Root", "Jnt_L_Leg", "Jnt_L_Knee", "Jnt_L_Ankle", "Jnt_Back"];
        let parents = [None, Some(0), Some(1), Some(2), Some(0)];
        let joints = names.iter().zip(parents).map(|(n, p)| Joint::new(*n, p, Vec3::Y)).collect();
        let s = Skeleton::new(joints, PositionRule::Replace).unwrap();
        let mnm: Vec<(String, String)> =
            [("Hips", "root"), ("LeftUpLeg", "Jnt_L_Leg"), ("LeftLeg", "Jnt_L_Knee"), ("LeftFoot", "JNT_L_ANKLE"), ("Spine", "Jnt_Back")]
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect();
        let mut map = BoneMap::default();
        assert_eq!(apply_name_map(&mut map, &s, &mnm), 5);
        let got: Vec<(&str, usize, Found)> = map.entries.iter().map(|e| (e.bone, e.joint, e.found)).collect();
        assert_eq!(
            got,
            vec![
                ("hips", 0, Found::User),
                ("spine", 4, Found::User),
                ("leftUpperLeg", 1, Found::User),
                ("leftLowerLeg", 2, Found::User),
                ("leftFoot", 3, Found::User)
            ]
        );
    }
}
