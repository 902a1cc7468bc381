//! Matching joints of two skeletons by name: exact, then case- and prefix-insensitive
//! (`mixamorig:Hips` = `Hips`), then a table of common conventions keyed by where the joint
//! sits (CMU ASF bones are joints at their far end, so `lfemur` is the knee).

use crate::core::Skeleton;

/// How a pair was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchKind {
    /// Same name.
    Exact,
    /// Same after folding case, namespaces and separators.
    Folded,
    /// Same body location in the alias table.
    Alias,
    /// Same Biped name through a user's MNM name map.
    NameMap,
    /// Same humanoid bone, as the files map them (VRM).
    Humanoid,
}

impl MatchKind {
    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Exact => "exact",
            Self::Folded => "folded",
            Self::Alias => "alias",
            Self::NameMap => "name map",
            Self::Humanoid => "humanoid",
        }
    }
}

pub use crate::core::names::fold;

/// Where a format puts a joint: at the start of its bone (BVH, H-Anim, most formats) or at
/// its far end (Acclaim ASF, where each bone is a joint placed where its children attach).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Joint at its own origin.
    Origin,
    /// Joint at the far end of the bone named after it.
    FarEnd,
}

/// Body locations and the folded names that sit there, for skeletons with joints at their
/// origin: BVH from MotionBuilder/Mixamo/CMU conversions, Character Studio Biped,
/// Bandai-Namco, H-Anim.
const ORIGIN_ALIASES: &[(&str, &[&str])] = &[
    ("hips", &["hips", "pelvis", "hip", "humanoidroot", "sacroiliac"]),
    ("l_hip", &["leftupleg", "lefthip", "lhip", "upperlegl", "lupleg", "lthigh", "leftthigh", "leftupperleg"]),
    ("r_hip", &["rightupleg", "righthip", "rhip", "upperlegr", "rupleg", "rthigh", "rightthigh", "rightupperleg"]),
    ("l_knee", &["leftleg", "leftknee", "leftlowleg", "lknee", "lowerlegl", "lleg", "lshin", "leftshin", "leftlowerleg"]),
    ("r_knee", &["rightleg", "rightknee", "rightlowleg", "rknee", "lowerlegr", "rleg", "rshin", "rightshin", "rightlowerleg"]),
    ("l_ankle", &["leftfoot", "leftankle", "lankle", "footl", "lfoot"]),
    ("r_ankle", &["rightfoot", "rightankle", "rankle", "footr", "rfoot"]),
    ("l_toe", &["lefttoebase", "lefttoe", "toesl", "ltoe", "lefttoes"]),
    ("r_toe", &["righttoebase", "righttoe", "toesr", "rtoe", "righttoes"]),
    ("l_shoulder", &["leftarm", "leftuparm", "lshoulder", "upperarml", "lupperarm", "leftupperarm"]),
    ("r_shoulder", &["rightarm", "rightuparm", "rshoulder", "upperarmr", "rupperarm", "rightupperarm"]),
    ("l_elbow", &["leftforearm", "leftelbow", "leftlowarm", "lelbow", "lowerarml", "lforearm", "leftlowerarm"]),
    ("r_elbow", &["rightforearm", "rightelbow", "rightlowarm", "relbow", "lowerarmr", "rforearm", "rightlowerarm"]),
    ("l_wrist", &["lefthand", "leftwrist", "lwrist", "handl", "lhand"]),
    ("r_wrist", &["righthand", "rightwrist", "rwrist", "handr", "rhand"]),
    ("neck", &["neck", "vc7"]),
    ("head", &["head", "skullbase"]),
];

/// The same locations for Acclaim ASF bones (joints at the bone's far end).
const FAR_END_ALIASES: &[(&str, &[&str])] = &[
    ("hips", &["root"]),
    ("l_hip", &["lhipjoint"]),
    ("r_hip", &["rhipjoint"]),
    ("l_knee", &["lfemur"]),
    ("r_knee", &["rfemur"]),
    ("l_ankle", &["ltibia"]),
    ("r_ankle", &["rtibia"]),
    ("l_toe", &["lfoot"]),
    ("r_toe", &["rfoot"]),
    ("l_shoulder", &["lclavicle"]),
    ("r_shoulder", &["rclavicle"]),
    ("l_elbow", &["lhumerus"]),
    ("r_elbow", &["rhumerus"]),
    ("l_wrist", &["lradius"]),
    ("r_wrist", &["rradius"]),
    ("neck", &["thorax"]),
    ("head", &["upperneck"]),
];

/// The alias location of a folded name in a skeleton whose folded names are `all`.
fn location(folded: &str, all: &[String], placement: Placement) -> Option<&'static str> {
    if placement == Placement::FarEnd {
        return FAR_END_ALIASES.iter().find(|(_, names)| names.contains(&folded)).map(|(loc, _)| *loc);
    }
    // Character Studio calls the upper arm "LeftShoulder" (its clavicle is "LeftCollar"),
    // MotionBuilder calls the clavicle "LeftShoulder" and the upper arm "LeftArm".
    // (VRM's `leftShoulder` is the clavicle too: its upper arm is `leftUpperArm`.)
    let upper_arm = |n: &String| matches!(n.as_str(), "leftarm" | "rightarm" | "leftupperarm" | "rightupperarm");
    if (folded == "leftshoulder" || folded == "rightshoulder") && !all.iter().any(upper_arm) {
        return Some(if folded.starts_with('l') { "l_shoulder" } else { "r_shoulder" });
    }
    ORIGIN_ALIASES.iter().find(|(_, names)| names.contains(&folded)).map(|(loc, _)| *loc)
}

/// Pairs `(joint in a, joint in b, how)`, each joint used at most once, in `a`'s order.
/// Names are only compared directly between skeletons of the same placement (or whose names
/// coincide almost entirely): a CMU BVH joint `LHipJoint` sits where the ASF bone
/// `lhipjoint` starts, not where it ends.
pub fn match_joints(a: &Skeleton, pa: Placement, b: &Skeleton, pb: Placement) -> Vec<(usize, usize, MatchKind)> {
    let fa: Vec<String> = a.joints().iter().map(|j| fold(&j.name)).collect();
    let fb: Vec<String> = b.joints().iter().map(|j| fold(&j.name)).collect();
    let mut used_a = vec![false; a.len()];
    let mut used_b = vec![false; b.len()];
    let mut pairs = Vec::new();
    // Bones the files themselves map to the humanoid (a VRM animation and its avatar) pair
    // first, whatever the joints are called.
    let humanoid_b: std::collections::HashMap<String, usize> =
        b.joints().iter().enumerate().filter_map(|(k, j)| Some((j.humanoid.as_deref()?.to_ascii_lowercase(), k))).collect();
    for (i, j) in a.joints().iter().enumerate() {
        if let Some(&k) = j.humanoid.as_deref().and_then(|h| humanoid_b.get(&h.to_ascii_lowercase())) {
            (used_a[i], used_b[k]) = (true, true);
            pairs.push((i, k, MatchKind::Humanoid));
        }
    }
    // A file converted from ASF keeps its bone names at the same places (skelview's own
    // `convert`): when nearly all names coincide exactly, trust them whatever the format.
    let names_b: std::collections::HashSet<&str> = b.joints().iter().map(|j| j.name.as_str()).collect();
    let exact = a.joints().iter().filter(|j| names_b.contains(j.name.as_str())).count();
    let same_names = exact * 5 >= a.len().min(b.len()) * 4;
    if pa == pb || same_names {
        let by_name: std::collections::HashMap<&str, usize> = b.joints().iter().enumerate().map(|(k, j)| (j.name.as_str(), k)).collect();
        for (i, j) in a.joints().iter().enumerate() {
            if used_a[i] {
                continue;
            }
            if let Some(&k) = by_name.get(j.name.as_str()).filter(|&&k| !used_b[k]) {
                (used_a[i], used_b[k]) = (true, true);
                pairs.push((i, k, MatchKind::Exact));
            }
        }
        let mut by_folded: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
        for (k, f) in fb.iter().enumerate().rev() {
            by_folded.entry(f.as_str()).or_default().push(k);
        }
        for i in 0..a.len() {
            if used_a[i] || fa[i].is_empty() {
                continue;
            }
            let Some(candidates) = by_folded.get_mut(fa[i].as_str()) else { continue };
            while let Some(k) = candidates.pop() {
                if !used_b[k] {
                    (used_a[i], used_b[k]) = (true, true);
                    pairs.push((i, k, MatchKind::Folded));
                    break;
                }
            }
        }
    }
    // Locations come from the humanoid bone when the file maps one (a VRM avatar against a
    // Mixamo or CMU take), else from the name.
    let located = |s: &Skeleton, folded: &[String]| -> Vec<String> {
        s.joints().iter().zip(folded).map(|(j, f)| j.humanoid.as_deref().map_or_else(|| f.clone(), fold)).collect()
    };
    let (la, lb) = (located(a, &fa), located(b, &fb));
    for i in 0..a.len() {
        let Some(loc) = (!used_a[i]).then(|| location(&la[i], &la, pa)).flatten() else { continue };
        if let Some(k) = (0..b.len()).find(|&k| !used_b[k] && location(&lb[k], &lb, pb) == Some(loc)) {
            (used_a[i], used_b[k]) = (true, true);
            pairs.push((i, k, MatchKind::Alias));
        }
    }
    pairs.sort_by_key(|p| p.0);
    pairs
}

/// Adds pairs for joints still unmatched whose names the MNM map sends to the same Biped
/// name (a name in the right column maps to its left column; others stay as they are).
pub fn match_with_map(a: &Skeleton, b: &Skeleton, map: &[(String, String)], pairs: &mut Vec<(usize, usize, MatchKind)>) {
    let lookup: std::collections::HashMap<String, String> = map.iter().map(|(biped, custom)| (fold(custom), fold(biped))).collect();
    let canon = |name: &str| {
        let f = fold(name);
        lookup.get(&f).cloned().unwrap_or(f)
    };
    let mut used_a: Vec<bool> = vec![false; a.len()];
    let mut used_b: Vec<bool> = vec![false; b.len()];
    for &(i, k, _) in pairs.iter() {
        (used_a[i], used_b[k]) = (true, true);
    }
    let cb: Vec<String> = b.joints().iter().map(|j| canon(&j.name)).collect();
    for (i, j) in a.joints().iter().enumerate() {
        if used_a[i] {
            continue;
        }
        let c = canon(&j.name);
        if let Some(k) = (0..b.len()).find(|&k| !used_b[k] && cb[k] == c) {
            (used_a[i], used_b[k]) = (true, true);
            pairs.push((i, k, MatchKind::NameMap));
        }
    }
    pairs.sort_by_key(|p| p.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Joint, PositionRule};
    use glam::Vec3;

    fn skel(names: &[&str]) -> Skeleton {
        let joints = names.iter().enumerate().map(|(i, n)| Joint::new(*n, i.checked_sub(1), Vec3::ZERO)).collect();
        Skeleton::new(joints, PositionRule::Replace).unwrap()
    }

    #[test]
    fn exact_then_folded_then_alias() {
        let a = skel(&["Hips", "LeftUpLeg", "LeftLeg", "Head"]);
        let b = skel(&["mixamorig:Hips", "mixamorig:LeftUpLeg", "LeftKnee", "Head"]);
        let m = match_joints(&a, Placement::Origin, &b, Placement::Origin);
        assert_eq!(m, vec![(0, 0, MatchKind::Folded), (1, 1, MatchKind::Folded), (2, 2, MatchKind::Alias), (3, 3, MatchKind::Exact)]);
        // Against ASF bones, only locations count: LeftUpLeg (hip) = lhipjoint's far end.
        let asf = skel(&["root", "lhipjoint", "lfemur", "LeftUpLeg"]);
        let m = match_joints(&a, Placement::Origin, &asf, Placement::FarEnd);
        assert_eq!(m, vec![(0, 0, MatchKind::Alias), (1, 1, MatchKind::Alias), (2, 2, MatchKind::Alias)]);
        assert_eq!(fold("mixamorig:Left_Up-Leg.001"), "leftupleg001");
    }

    #[test]
    fn a_name_map_pairs_what_the_tables_do_not_know() {
        let a = skel(&["Hips", "Chest", "Spine2"]);
        let b = skel(&["Hips", "torso_upper", "abdomen"]);
        let mut pairs = match_joints(&a, Placement::Origin, &b, Placement::Origin);
        assert_eq!(pairs.len(), 1);
        let map = vec![("Chest".to_owned(), "torso_upper".to_owned()), ("Spine2".to_owned(), "abdomen".to_owned())];
        match_with_map(&a, &b, &map, &mut pairs);
        assert_eq!(pairs, vec![(0, 0, MatchKind::Exact), (1, 1, MatchKind::NameMap), (2, 2, MatchKind::NameMap)]);
    }

    #[test]
    fn biped_shoulder_is_the_upper_arm() {
        let biped = skel(&["Hips", "LeftCollar", "LeftShoulder", "LeftElbow"]);
        let hanim = skel(&["HumanoidRoot", "l_shoulder", "l_elbow"]);
        let m = match_joints(&biped, Placement::Origin, &hanim, Placement::Origin);
        assert_eq!(m, vec![(0, 0, MatchKind::Alias), (2, 1, MatchKind::Alias), (3, 2, MatchKind::Alias)]);
        let mobu = skel(&["Hips", "LeftShoulder", "LeftArm", "LeftForeArm"]);
        let m = match_joints(&mobu, Placement::Origin, &hanim, Placement::Origin);
        assert!(m.contains(&(2, 1, MatchKind::Alias)), "MotionBuilder's LeftArm is the shoulder joint: {m:?}");
    }
}
