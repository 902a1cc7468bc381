//! Humanoid bone maps: which joint of a skeleton is each VRM 1.0 humanoid bone (`hips` …
//! `leftToes`, fingers), found from the file's own map (VRM), from the names the usual
//! exporters give (Mixamo, HumanIK/MotionBuilder, CMU's BVH and ASF, 3ds Max Biped, the Unreal
//! and Unity mannequins, SMPL, Rokoko, Xsens MVN, Perception Neuron, Sony mocopi, H-Anim), and
//! from the tree's shape where names say nothing. Each entry says how it was found; a map is
//! saved and read as a small TOML (`[bones] hips = "Hips"`), so the user's corrections stick.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::core::Skeleton;

/// The VRM 1.0 humanoid bones, parents first (the specification's list).
pub const BONES: [&str; 55] = [
    "hips",
    "spine",
    "chest",
    "upperChest",
    "neck",
    "head",
    "leftEye",
    "rightEye",
    "jaw",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "leftToes",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "rightToes",
    "leftShoulder",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightShoulder",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
    "leftThumbMetacarpal",
    "leftThumbProximal",
    "leftThumbDistal",
    "leftIndexProximal",
    "leftIndexIntermediate",
    "leftIndexDistal",
    "leftMiddleProximal",
    "leftMiddleIntermediate",
    "leftMiddleDistal",
    "leftRingProximal",
    "leftRingIntermediate",
    "leftRingDistal",
    "leftLittleProximal",
    "leftLittleIntermediate",
    "leftLittleDistal",
    "rightThumbMetacarpal",
    "rightThumbProximal",
    "rightThumbDistal",
    "rightIndexProximal",
    "rightIndexIntermediate",
    "rightIndexDistal",
    "rightMiddleProximal",
    "rightMiddleIntermediate",
    "rightMiddleDistal",
    "rightRingProximal",
    "rightRingIntermediate",
    "rightRingDistal",
    "rightLittleProximal",
    "rightLittleIntermediate",
    "rightLittleDistal",
];

/// The bones a humanoid must have (VRM 1.0's required set).
pub const REQUIRED: [&str; 15] = [
    "hips",
    "spine",
    "head",
    "leftUpperLeg",
    "leftLowerLeg",
    "leftFoot",
    "rightUpperLeg",
    "rightLowerLeg",
    "rightFoot",
    "leftUpperArm",
    "leftLowerArm",
    "leftHand",
    "rightUpperArm",
    "rightLowerArm",
    "rightHand",
];

/// How an entry of a map was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The file maps it (VRM's humanoid extension).
    File,
    /// A joint name of an exporter's convention.
    Name,
    /// The tree's shape (legs and arms as the chains that leave the hips and the chest).
    Shape,
    /// The user's map (TOML).
    User,
}

impl Found {
    /// Short name for listings.
    pub fn name(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Name => "name",
            Self::Shape => "shape",
            Self::User => "map",
        }
    }
}

/// One humanoid bone and its joint.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    /// The VRM bone (`leftUpperArm`).
    pub bone: &'static str,
    /// The joint that is it.
    pub joint: usize,
    /// How it was found.
    pub found: Found,
}

/// A skeleton's humanoid bones, in [`BONES`] order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoneMap {
    /// The bones found.
    pub entries: Vec<MapEntry>,
}

impl BoneMap {
    /// The joint of `bone`.
    pub fn joint(&self, bone: &str) -> Option<usize> {
        self.entries.iter().find(|e| e.bone == bone).map(|e| e.joint)
    }

    /// Makes `joint` the bone `bone` (a VRM bone name), or no bone, as the user says; a bone
    /// another joint had moves here. Returns false for a name that is not a VRM bone.
    pub fn assign(&mut self, joint: usize, bone: Option<&str>) -> bool {
        let bone = match bone {
            Some(b) => match BONES.iter().find(|x| **x == b) {
                Some(b) => Some(*b),
                None => return false,
            },
            None => None,
        };
        self.entries.retain(|e| e.joint != joint);
        if let Some(b) = bone {
            self.set(b, joint, Found::User);
        }
        self.sort();
        true
    }

    /// The required bones it lacks.
    pub fn missing(&self) -> Vec<&'static str> {
        REQUIRED.iter().copied().filter(|b| self.joint(b).is_none()).collect()
    }

    pub(super) fn set(&mut self, bone: &'static str, joint: usize, found: Found) {
        self.entries.retain(|e| e.bone != bone && e.joint != joint);
        self.entries.push(MapEntry { bone, joint, found });
    }

    pub(super) fn sort(&mut self) {
        self.entries.sort_by_key(|e| BONES.iter().position(|b| *b == e.bone));
    }

    /// The map as TOML: `[bones]` with `bone = "joint name"`, in [`BONES`] order.
    pub fn to_toml(&self, skeleton: &Skeleton) -> String {
        let mut out = String::from("# skelview humanoid bone map: VRM 1.0 bone = joint name\n[bones]\n");
        for e in &self.entries {
            let name = &skeleton.joints()[e.joint].name;
            out.push_str(&format!("{} = {}\n", e.bone, toml::Value::String(name.clone())));
        }
        out
    }
}

/// A map file that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum MapError {
    /// Not TOML, or no `[bones]` table of strings.
    #[error("{0}")]
    Syntax(String),
    /// A key that is not a VRM humanoid bone.
    #[error("'{0}' is not a VRM humanoid bone (hips, spine, leftUpperArm…)")]
    Bone(String),
    /// A joint the skeleton does not have.
    #[error("{bone} = '{joint}': the skeleton has no joint of that name")]
    Joint {
        /// The bone.
        bone: String,
        /// The name given.
        joint: String,
    },
}

/// Puts the bones of a map file (`[bones] hips = "Hips"`) over `map`; a bone set to `""`
/// is taken out.
pub fn apply_toml(map: &mut BoneMap, skeleton: &Skeleton, text: &str) -> Result<(), MapError> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| MapError::Syntax(e.message().to_owned()))?;
    let Some(toml::Value::Table(bones)) = table.get("bones") else {
        return Err(MapError::Syntax("expected a [bones] table (bone = \"joint name\")".into()));
    };
    for (bone, value) in bones {
        let Some(name) = value.as_str() else { return Err(MapError::Syntax(format!("{bone}: expected a joint name in quotes"))) };
        let Some(&known) = BONES.iter().find(|b| **b == bone.as_str()) else { return Err(MapError::Bone(bone.clone())) };
        if name.is_empty() {
            map.entries.retain(|e| e.bone != known);
            continue;
        }
        let joint = skeleton.find(name).ok_or_else(|| MapError::Joint { bone: bone.clone(), joint: name.to_owned() })?;
        map.set(known, joint, Found::User);
    }
    map.sort();
    Ok(())
}

/// Folded names of each bone, for one side where the bone has one: `L` stands for the side
/// (`left`, `l`), and a name is tried with the side before and after it (`LeftUpLeg`,
/// `thigh_l`, `L Thigh`).
const NAMES: &[(&str, &[&str])] = &[
    ("hips", &["hips", "pelvis", "hip", "humanoidroot", "sacroiliac", "root", "bip01", "bip001"]),
    ("spine", &["spine", "spine01", "spine1lower", "abdomen", "lowerback", "torso1", "l5", "vl5", "waist"]),
    ("chest", &["spine1", "spine02", "chest", "torso3", "l3", "t12", "vt10"]),
    ("upperChest", &["spine2", "spine03", "upperchest", "torso5", "t8", "vt1"]),
    ("neck", &["neck", "neck1", "neck01", "vc7", "neck_1"]),
    ("head", &["head", "skullbase"]),
    ("jaw", &["jaw"]),
    ("L:Eye", &["eye"]),
    ("L:UpperLeg", &["upleg", "upperleg", "thigh", "hip", "femur"]),
    ("L:LowerLeg", &["leg", "lowerleg", "lowleg", "calf", "shin", "knee", "tibia"]),
    ("L:Foot", &["foot", "ankle", "talocrural"]),
    ("L:Toes", &["toebase", "toe", "toes", "ball", "toe0", "foottoe"]),
    ("L:Shoulder", &["shoulder", "clavicle", "collar", "sternoclavicular"]),
    ("L:UpperArm", &["arm", "uparm", "upperarm", "humerus"]),
    ("L:LowerArm", &["forearm", "lowerarm", "lowarm", "elbow", "radius"]),
    ("L:Hand", &["hand", "wrist", "radiocarpal"]),
];

/// Acclaim ASF bones are joints at their far end (`lfemur` sits at the knee): the bone whose
/// end is where each humanoid bone starts.
pub(super) const FAR_END_NAMES: &[(&str, &str)] = &[
    ("hips", "root"),
    ("spine", "lowerback"),
    ("chest", "upperback"),
    ("upperChest", "thorax"),
    ("neck", "lowerneck"),
    ("head", "upperneck"),
    ("leftUpperLeg", "lhipjoint"),
    ("leftLowerLeg", "lfemur"),
    ("leftFoot", "ltibia"),
    ("leftToes", "lfoot"),
    ("rightUpperLeg", "rhipjoint"),
    ("rightLowerLeg", "rfemur"),
    ("rightFoot", "rtibia"),
    ("rightToes", "rfoot"),
    ("leftUpperArm", "lclavicle"),
    ("leftLowerArm", "lhumerus"),
    ("leftHand", "lradius"),
    ("rightUpperArm", "rclavicle"),
    ("rightLowerArm", "rhumerus"),
    ("rightHand", "rradius"),
];

/// The folded names `part` takes on `left` or the right side.
fn with_side(part: &str, left: bool) -> Vec<String> {
    let sides: &[&str] = if left { &["left", "l"] } else { &["right", "r"] };
    sides.iter().flat_map(|s| [format!("{s}{part}"), format!("{part}{s}")]).collect()
}

/// Maps bones by their joints' names: the `NAMES` table, read with each rig family's habits.
pub(super) fn by_names(skeleton: &Skeleton, map: &mut BoneMap) {
    let folded = super::joint_names::folded_names(skeleton);
    let find = |names: &[String]| names.iter().find_map(|n| folded.iter().position(|f| f == n));
    // MotionBuilder's `LeftShoulder` is the clavicle when an upper arm (`LeftArm`) exists;
    // SMPL's and H-Anim's `left_shoulder`/`l_shoulder` are the upper arm (next to a collar).
    let has = |names: &[&str]| has_name(&folded, names);
    let shoulder_is_arm = |left: bool| {
        let s = if left { "l" } else { "r" };
        let side = if left { "left" } else { "right" };
        has(&[
            &format!("{side}collar"),
            &format!("{s}collar"),
            &format!("{s}sternoclavicular"),
            &format!("{side}clavicle"),
            &format!("clavicle{s}"),
        ]) && !has(&[&format!("{side}arm"), &format!("{side}upperarm"), &format!("upperarm{s}")])
    };
    // SMPL's `left_ankle` is the foot and its `left_foot` the toes.
    let ankle_is_foot = |left: bool| {
        let (s, side) = if left { ("l", "left") } else { ("r", "right") };
        has(&[&format!("{side}ankle"), &format!("{s}ankle")]) && has(&[&format!("{side}foot"), &format!("{s}foot")])
    };
    by_spine_conventions(&folded, map);
    for (bone, names) in NAMES {
        match bone.split_once(':') {
            None => {
                let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                if let (Some(j), Some(b)) = (find(&names), BONES.iter().find(|b| *b == bone))
                    && map.joint(b).is_none()
                    && !map.entries.iter().any(|e| e.joint == j)
                {
                    map.set(b, j, Found::Name);
                }
            }
            Some((_, part)) => {
                for left in [true, false] {
                    let full = format!("{}{part}", if left { "left" } else { "right" });
                    let Some(&b) = BONES.iter().find(|b| **b == full) else { continue };
                    let mut parts: Vec<&str> = names.to_vec();
                    if part == "UpperArm" && shoulder_is_arm(left) {
                        parts.insert(0, "shoulder");
                    }
                    if part == "Shoulder" && shoulder_is_arm(left) {
                        parts.retain(|p| *p != "shoulder");
                    }
                    if part == "Foot" && ankle_is_foot(left) {
                        parts.retain(|p| *p != "foot");
                    }
                    if part == "Toes" && ankle_is_foot(left) {
                        parts.push("foot");
                    }
                    let candidates: Vec<String> = parts.iter().flat_map(|p| with_side(p, left)).collect();
                    if let Some(j) = find(&candidates).filter(|j| !map.entries.iter().any(|e| e.joint == *j)) {
                        map.set(b, j, Found::Name);
                    }
                }
            }
        }
    }
}

/// Whether any joint's folded name is one of `names`.
fn has_name(folded: &[String], names: &[&str]) -> bool {
    names.iter().any(|n| folded.iter().any(|f| f == n))
}

/// Spines whose numbering or names differ from the table's, recognised by the set of names.
fn by_spine_conventions(folded: &[String], map: &mut BoneMap) {
    let has = |names: &[&str]| has_name(folded, names);
    // SMPL counts its spine from 1 (`spine1` the spine), Mixamo from none (`Spine1` the chest).
    if !has(&["spine"]) && has(&["spine1"]) {
        for (bone, name) in [("spine", "spine1"), ("chest", "spine2"), ("upperChest", "spine3")] {
            if let Some(j) = folded.iter().position(|f| f == name) {
                map.set(bone, j, Found::Name);
            }
        }
    }
    // Xsens MVN's BVH for 3ds Max and MotionBuilder: Chest..Chest4 are its L5, L3, T12, T8
    // (the spine, the chest, and T8 the upper chest, as its own names map).
    if has(&["chest"]) && has(&["chest2"]) && !has(&["spine"]) {
        for (bone, name) in [("spine", "chest"), ("chest", "chest2"), ("upperChest", "chest4")] {
            if let Some(j) = folded.iter().position(|f| f == name) {
                map.set(bone, j, Found::Name);
            }
        }
    }
    // Quaternius' and other Blender rigs: Hips, Abdomen (the spine), Torso (the chest).
    if has(&["abdomen"])
        && has(&["torso"])
        && !has(&["chest"])
        && let Some(j) = folded.iter().position(|f| f == "torso")
    {
        map.set("chest", j, Found::Name);
    }
}

/// Every bone's joint in a skeleton's map, for listings: `(bone, joint name, how)`.
pub fn listing(map: &BoneMap, skeleton: &Skeleton) -> BTreeMap<usize, (&'static str, String, &'static str)> {
    map.entries
        .iter()
        .map(|e| {
            (
                BONES.iter().position(|b| *b == e.bone).unwrap_or(usize::MAX),
                (e.bone, skeleton.joints()[e.joint].name.clone(), e.found.name()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::UpAxis;
    use crate::core::{Joint, PositionRule};
    use crate::retarget::bone_map;
    use glam::Vec3;

    /// A humanoid of 21 joints named `names` (hips, spine, chest, neck, head, then each leg
    /// upper/lower/foot/toes and each arm clavicle/upper/lower/hand), laid out standing and
    /// facing +Z with left at +X.
    fn humanoid(names: [&str; 25]) -> Skeleton {
        let v = Vec3::new;
        let spec: [(usize, Option<usize>, Vec3); 25] = [
            (0, None, v(0.0, 1.0, 0.0)),
            (1, Some(0), v(0.0, 0.1, 0.0)),
            (2, Some(1), v(0.0, 0.15, 0.0)),
            (3, Some(2), v(0.0, 0.25, 0.0)),
            (4, Some(3), v(0.0, 0.1, 0.0)),
            (5, Some(0), v(0.1, -0.05, 0.0)),
            (6, Some(5), v(0.0, -0.45, 0.0)),
            (7, Some(6), v(0.0, -0.42, 0.0)),
            (8, Some(7), v(0.0, -0.05, 0.12)),
            (9, Some(0), v(-0.1, -0.05, 0.0)),
            (10, Some(9), v(0.0, -0.45, 0.0)),
            (11, Some(10), v(0.0, -0.42, 0.0)),
            (12, Some(11), v(0.0, -0.05, 0.12)),
            (13, Some(2), v(0.05, 0.2, 0.0)),
            (14, Some(13), v(0.12, 0.0, 0.0)),
            (15, Some(14), v(0.28, 0.0, 0.0)),
            (16, Some(15), v(0.25, 0.0, 0.0)),
            (17, Some(2), v(-0.05, 0.2, 0.0)),
            (18, Some(17), v(-0.12, 0.0, 0.0)),
            (19, Some(18), v(-0.28, 0.0, 0.0)),
            (20, Some(19), v(-0.25, 0.0, 0.0)),
            (21, Some(16), v(0.08, 0.0, 0.0)),
            (22, Some(20), v(-0.08, 0.0, 0.0)),
            (23, Some(8), v(0.0, 0.0, 0.05)),
            (24, Some(12), v(0.0, 0.0, 0.05)),
        ];
        let joints = spec.iter().map(|&(i, p, o)| Joint::new(names[i], p, o)).collect();
        Skeleton::new(joints, PositionRule::Replace).unwrap()
    }

    fn named(s: &Skeleton, map: &BoneMap) -> Vec<(&'static str, String)> {
        map.entries.iter().map(|e| (e.bone, s.joints()[e.joint].name.clone())).collect()
    }

    fn check(names: [&str; 25], expect: &[(&str, &str)]) {
        let s = humanoid(names);
        let map = bone_map(&s, UpAxis::Y, false);
        assert!(map.missing().is_empty(), "{:?}: missing {:?}", names[0], map.missing());
        let got = named(&s, &map);
        for (bone, joint) in expect {
            assert!(got.iter().any(|(b, j)| b == bone && j == joint), "{bone} = {joint} in {got:?}");
        }
    }

    #[test]
    fn the_usual_exporters_names_map_to_their_bones() {
        check(
            [
                "mixamorig:Hips",
                "mixamorig:Spine",
                "mixamorig:Spine1",
                "mixamorig:Neck",
                "mixamorig:Head",
                "mixamorig:LeftUpLeg",
                "mixamorig:LeftLeg",
                "mixamorig:LeftFoot",
                "mixamorig:LeftToeBase",
                "mixamorig:RightUpLeg",
                "mixamorig:RightLeg",
                "mixamorig:RightFoot",
                "mixamorig:RightToeBase",
                "mixamorig:LeftShoulder",
                "mixamorig:LeftArm",
                "mixamorig:LeftForeArm",
                "mixamorig:LeftHand",
                "mixamorig:RightShoulder",
                "mixamorig:RightArm",
                "mixamorig:RightForeArm",
                "mixamorig:RightHand",
                "mixamorig:LeftHandIndex1",
                "mixamorig:RightHandIndex1",
                "mixamorig:LeftToe_End",
                "mixamorig:RightToe_End",
            ],
            &[
                ("leftShoulder", "mixamorig:LeftShoulder"),
                ("leftUpperArm", "mixamorig:LeftArm"),
                ("leftToes", "mixamorig:LeftToeBase"),
                ("chest", "mixamorig:Spine1"),
            ],
        );
        check(
            [
                "pelvis",
                "spine_01",
                "spine_02",
                "neck_01",
                "head",
                "thigh_l",
                "calf_l",
                "foot_l",
                "ball_l",
                "thigh_r",
                "calf_r",
                "foot_r",
                "ball_r",
                "clavicle_l",
                "upperarm_l",
                "lowerarm_l",
                "hand_l",
                "clavicle_r",
                "upperarm_r",
                "lowerarm_r",
                "hand_r",
                "index_01_l",
                "index_01_r",
                "ball_l_end",
                "ball_r_end",
            ],
            &[("hips", "pelvis"), ("leftLowerLeg", "calf_l"), ("rightToes", "ball_r"), ("leftShoulder", "clavicle_l")],
        );
        check(
            [
                "Bip01 Pelvis",
                "Bip01 Spine",
                "Bip01 Spine1",
                "Bip01 Neck",
                "Bip01 Head",
                "Bip01 L Thigh",
                "Bip01 L Calf",
                "Bip01 L Foot",
                "Bip01 L Toe0",
                "Bip01 R Thigh",
                "Bip01 R Calf",
                "Bip01 R Foot",
                "Bip01 R Toe0",
                "Bip01 L Clavicle",
                "Bip01 L UpperArm",
                "Bip01 L Forearm",
                "Bip01 L Hand",
                "Bip01 R Clavicle",
                "Bip01 R UpperArm",
                "Bip01 R Forearm",
                "Bip01 R Hand",
                "Bip01 L Finger0",
                "Bip01 R Finger0",
                "Bip01 L Toe0Nub",
                "Bip01 R Toe0Nub",
            ],
            &[("leftUpperLeg", "Bip01 L Thigh"), ("rightHand", "Bip01 R Hand")],
        );
        // SMPL: the collar is the clavicle, `left_shoulder` the upper arm, `left_ankle` the
        // foot and `left_foot` the toes.
        check(
            [
                "pelvis",
                "spine1",
                "spine2",
                "neck",
                "head",
                "left_hip",
                "left_knee",
                "left_ankle",
                "left_foot",
                "right_hip",
                "right_knee",
                "right_ankle",
                "right_foot",
                "left_collar",
                "left_shoulder",
                "left_elbow",
                "left_wrist",
                "right_collar",
                "right_shoulder",
                "right_elbow",
                "right_wrist",
                "left_hand",
                "right_hand",
                "left_foot_end",
                "right_foot_end",
            ],
            &[
                ("leftShoulder", "left_collar"),
                ("leftUpperArm", "left_shoulder"),
                ("leftLowerArm", "left_elbow"),
                ("leftFoot", "left_ankle"),
                ("leftToes", "left_foot"),
            ],
        );
        check(
            [
                "root",
                "torso_1",
                "torso_3",
                "neck_1",
                "head",
                "l_up_leg",
                "l_low_leg",
                "l_foot",
                "l_toes",
                "r_up_leg",
                "r_low_leg",
                "r_foot",
                "r_toes",
                "l_shoulder",
                "l_up_arm",
                "l_low_arm",
                "l_hand",
                "r_shoulder",
                "r_up_arm",
                "r_low_arm",
                "r_hand",
                "l_hand_end",
                "r_hand_end",
                "l_toes_end",
                "r_toes_end",
            ],
            &[("hips", "root"), ("leftUpperArm", "l_up_arm"), ("leftShoulder", "l_shoulder"), ("rightLowerLeg", "r_low_leg")],
        );
        check(
            [
                "humanoid_root",
                "vl5",
                "vt10",
                "vc7",
                "skullbase",
                "l_hip",
                "l_knee",
                "l_talocrural",
                "l_metatarsophalangeal_2",
                "r_hip",
                "r_knee",
                "r_talocrural",
                "r_metatarsophalangeal_2",
                "l_sternoclavicular",
                "l_shoulder",
                "l_elbow",
                "l_radiocarpal",
                "r_sternoclavicular",
                "r_shoulder",
                "r_elbow",
                "r_radiocarpal",
                "l_index1",
                "r_index1",
                "l_toe_end",
                "r_toe_end",
            ],
            &[("leftUpperArm", "l_shoulder"), ("leftShoulder", "l_sternoclavicular"), ("leftFoot", "l_talocrural"), ("head", "skullbase")],
        );
    }

    #[test]
    fn a_skeleton_named_by_numbers_is_mapped_by_its_shape() {
        let names: Vec<String> = (0..25).map(|i| format!("JOINT{i}")).collect();
        let names: [&str; 25] = std::array::from_fn(|i| names[i].as_str());
        let s = humanoid(names);
        let map = bone_map(&s, UpAxis::Y, false);
        let got = named(&s, &map);
        for (bone, joint) in [
            ("hips", "JOINT0"),
            ("spine", "JOINT1"),
            ("leftUpperLeg", "JOINT5"),
            ("leftFoot", "JOINT7"),
            ("rightLowerLeg", "JOINT10"),
            ("neck", "JOINT3"),
            ("head", "JOINT4"),
            ("leftShoulder", "JOINT13"),
            ("leftHand", "JOINT16"),
            ("rightUpperArm", "JOINT18"),
        ] {
            assert!(got.iter().any(|(b, j)| *b == bone && j == joint), "{bone} = {joint} in {got:?}");
        }
        assert!(map.entries.iter().all(|e| e.found == Found::Shape));
    }

    #[test]
    fn a_map_file_corrects_the_map_and_round_trips() {
        let names: [&str; 25] = [
            "Hips",
            "Spine",
            "Chest",
            "Neck",
            "Head",
            "LeftUpLeg",
            "LeftLeg",
            "LeftFoot",
            "LeftToeBase",
            "RightUpLeg",
            "RightLeg",
            "RightFoot",
            "RightToeBase",
            "LeftShoulder",
            "LeftArm",
            "LeftForeArm",
            "LeftHand",
            "RightShoulder",
            "RightArm",
            "RightForeArm",
            "RightHand",
            "LeftFinger",
            "RightFinger",
            "LeftToeEnd",
            "RightToeEnd",
        ];
        let s = humanoid(names);
        let mut map = bone_map(&s, UpAxis::Y, false);
        apply_toml(&mut map, &s, "[bones]\nleftToes = \"LeftToeEnd\"\nchest = \"\"\n").unwrap();
        assert_eq!(map.joint("leftToes"), s.find("LeftToeEnd"));
        assert_eq!(map.joint("chest"), None);
        assert_eq!(map.entries.iter().find(|e| e.bone == "leftToes").map(|e| e.found), Some(Found::User));
        let text = map.to_toml(&s);
        let mut again = BoneMap::default();
        apply_toml(&mut again, &s, &text).unwrap();
        assert_eq!(named(&s, &again), named(&s, &map));
        assert_eq!(
            apply_toml(&mut map, &s, "[bones]\nleftFoot = \"Paw\"\n"),
            Err(MapError::Joint { bone: "leftFoot".into(), joint: "Paw".into() })
        );
        assert_eq!(apply_toml(&mut map, &s, "[bones]\ntail = \"Hips\"\n"), Err(MapError::Bone("tail".into())));
        assert!(matches!(apply_toml(&mut map, &s, "hips = 1\n"), Err(MapError::Syntax(_))));
    }
}
