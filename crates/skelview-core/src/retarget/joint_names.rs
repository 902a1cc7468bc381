//! Joint names as the bone map reads them: folded (case and separators gone) and without
//! the namespaces rigs put before the well-known names (`mixamorig:`, HumanIK's `Character1_`,
//! a prefix every joint shares).

use crate::core::Skeleton;
use crate::core::names::fold;

/// The prefix every joint's name shares up to an underscore (`Character1_` on `Character1_Hips`,
/// MotionBuilder's HumanIK character; `Char_`): a namespace, as `mixamorig:` is. `None` when
/// the names share none, or only a side (`L_`), or the skeleton has one joint.
fn shared_prefix(names: &[&str]) -> Option<String> {
    let (first, rest) = names.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut common = first.len();
    for n in rest {
        common = common.min(first.bytes().zip(n.bytes()).take_while(|(a, b)| a == b).count());
    }
    // Bytes compared: back to a character's start before slicing (names are any UTF-8).
    while !first.is_char_boundary(common) {
        common -= 1;
    }
    let cut = first[..common].rfind('_')? + 1;
    let prefix = &first[..cut];
    let side = ["l", "r", "left", "right"].contains(&fold(prefix).as_str());
    (!side && names.iter().all(|n| n.len() > cut)).then(|| prefix.to_owned())
}

/// HumanIK's character prefixes (`Character1_`, `Char_`), stripped from a name even where not
/// every joint has one (a `Reference` root added by another tool).
fn strip_character_prefix(name: &str) -> &str {
    let Some((head, tail)) = name.split_once('_') else { return name };
    let digits = head.strip_prefix("Character").or_else(|| head.strip_prefix("Char"));
    if digits.is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit())) && !tail.is_empty() { tail } else { name }
}

/// The joints' names folded for matching, namespaces gone (`mixamorig:`, a prefix every joint
/// shares, HumanIK's `Character1_`); an end site (a BVH `End Site`) has no rotation of its own
/// and is never a bone: an empty name.
pub(super) fn folded_names(skeleton: &Skeleton) -> Vec<String> {
    let joints = skeleton.joints();
    let bare: Vec<&str> = joints.iter().filter(|j| !j.is_end_site).map(|j| j.name.rsplit(':').next().unwrap_or(&j.name)).collect();
    let prefix = shared_prefix(&bare);
    joints
        .iter()
        .map(|j| {
            if j.is_end_site {
                return String::new();
            }
            let name = j.name.rsplit(':').next().unwrap_or(&j.name);
            let name = prefix.as_deref().and_then(|p| name.strip_prefix(p)).unwrap_or(name);
            fold(strip_character_prefix(name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_prefixes_are_namespaces_but_sides_and_lone_joints_are_not() {
        assert_eq!(shared_prefix(&["Character1_Hips", "Character1_Spine"]).as_deref(), Some("Character1_"));
        assert_eq!(shared_prefix(&["L_hip", "L_knee"]), None, "a side, not a namespace");
        assert_eq!(shared_prefix(&["Hips"]), None);
        assert_eq!(shared_prefix(&["Hips", "Spine"]), None);
        assert_eq!(shared_prefix(&["é_a", "è_b"]), None, "bytes compared, characters sliced");
        assert_eq!(strip_character_prefix("Character12_LeftArm"), "LeftArm");
        assert_eq!(strip_character_prefix("Char_Hips"), "Hips");
        assert_eq!(strip_character_prefix("Characteristic_Hips"), "Characteristic_Hips");
    }
}
