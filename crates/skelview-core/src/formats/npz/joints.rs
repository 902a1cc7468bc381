//! The SMPL family's joints: names as smplx's `joint_names.py` lists them, parents as the
//! models' `kintree_table` gives them, and HumanML3D's 22-joint kinematic chain.

/// The body models a motion can be for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// SMPL: 24 joints (22 body, 2 hands).
    Smpl,
    /// SMPL+H: 52 joints (22 body, 30 finger joints).
    SmplH,
    /// SMPL-X: 55 joints (22 body, jaw, 2 eyes, 30 finger joints).
    SmplX,
}

impl Family {
    /// Every family.
    pub const ALL: [Self; 3] = [Self::Smpl, Self::SmplH, Self::SmplX];

    /// Its joint count.
    pub fn joints(self) -> usize {
        match self {
            Self::Smpl => 24,
            Self::SmplH => 52,
            Self::SmplX => 55,
        }
    }

    /// The family with `joints` joints.
    pub fn with_joints(joints: usize) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.joints() == joints)
    }

    /// `SMPL`, `SMPL+H` or `SMPL-X`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Smpl => "SMPL",
            Self::SmplH => "SMPL+H",
            Self::SmplX => "SMPL-X",
        }
    }

    /// The folder of its models under a models folder, as the `smplx` package lays it out.
    pub fn folder(self) -> &'static str {
        match self {
            Self::Smpl => "smpl",
            Self::SmplH => "smplh",
            Self::SmplX => "smplx",
        }
    }

    /// Its model files' prefix (`SMPLX` of `SMPLX_MALE.npz`).
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Smpl => "SMPL",
            Self::SmplH => "SMPLH",
            Self::SmplX => "SMPLX",
        }
    }

    /// Its joint names, in the models' order.
    pub fn names(self) -> Vec<String> {
        let mut out: Vec<String> = BODY.iter().map(|s| (*s).to_owned()).collect();
        match self {
            Self::Smpl => out.extend(["left_hand", "right_hand"].map(String::from)),
            Self::SmplH => out.extend(hand_names()),
            Self::SmplX => {
                out.extend(["jaw", "left_eye_smplhf", "right_eye_smplhf"].map(String::from));
                out.extend(hand_names());
            }
        }
        out
    }

    /// Its parents, in the models' order (the root has none).
    pub fn parents(self) -> Vec<Option<usize>> {
        let mut out: Vec<Option<usize>> = BODY_PARENTS.iter().map(|&p| usize::try_from(p).ok()).collect();
        let hands = |out: &mut Vec<Option<usize>>| {
            for wrist in [20, 21] {
                for _finger in 0..5 {
                    let first = out.len();
                    out.extend([Some(wrist), Some(first), Some(first + 1)]);
                }
            }
        };
        match self {
            Self::Smpl => out.extend([Some(20), Some(21)]),
            Self::SmplH => hands(&mut out),
            Self::SmplX => {
                out.extend([Some(15), Some(15), Some(15)]);
                hands(&mut out);
            }
        }
        out
    }
}

/// The 22 body joints every family shares (HumanML3D's too).
pub const BODY: [&str; 22] = [
    "pelvis",
    "left_hip",
    "right_hip",
    "spine1",
    "left_knee",
    "right_knee",
    "spine2",
    "left_ankle",
    "right_ankle",
    "spine3",
    "left_foot",
    "right_foot",
    "neck",
    "left_collar",
    "right_collar",
    "head",
    "left_shoulder",
    "right_shoulder",
    "left_elbow",
    "right_elbow",
    "left_wrist",
    "right_wrist",
];

/// The body joints' parents (-1: the root).
const BODY_PARENTS: [i32; 22] = [-1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 12, 13, 14, 16, 17, 18, 19];

/// The fingers in the models' order.
pub const FINGERS: [&str; 5] = ["index", "middle", "pinky", "ring", "thumb"];

/// The 30 finger joints: `left_index1` … `right_thumb3`.
fn hand_names() -> Vec<String> {
    let mut out = Vec::with_capacity(30);
    for side in ["left", "right"] {
        for finger in FINGERS {
            out.extend((1..=3).map(|k| format!("{side}_{finger}{k}")));
        }
    }
    out
}

/// The VRM humanoid bone a joint of the SMPL family is (`left_shoulder` is the upper arm,
/// `left_collar` the shoulder, `left_ankle` the foot, `left_foot` the toes); SMPL's
/// `left_hand` (the knuckles) is none.
pub fn humanoid(name: &str) -> Option<String> {
    let (side, part) = match name.split_once('_') {
        Some(("left", p)) => ("left", p),
        Some(("right", p)) => ("right", p),
        _ => ("", name),
    };
    let body = match part {
        "pelvis" => "hips",
        "spine1" => "spine",
        "spine2" => "chest",
        "spine3" => "upperChest",
        "neck" | "head" | "jaw" => part,
        "hip" => "UpperLeg",
        "knee" => "LowerLeg",
        "ankle" => "Foot",
        "foot" => "Toes",
        "collar" => "Shoulder",
        "shoulder" => "UpperArm",
        "elbow" => "LowerArm",
        "wrist" => "Hand",
        "eye_smplhf" => "Eye",
        _ => return finger(side, part),
    };
    Some(format!("{side}{body}"))
}

/// `leftIndexProximal` for `left`, `index1` (the thumb's joints are its metacarpal,
/// proximal and distal).
fn finger(side: &str, part: &str) -> Option<String> {
    let (finger, k) = part.split_at(part.len().checked_sub(1)?);
    let name = match finger {
        "index" => "Index",
        "middle" => "Middle",
        "ring" => "Ring",
        "pinky" => "Little",
        "thumb" => "Thumb",
        _ => return None,
    };
    let segment = match (finger, k) {
        ("thumb", "1") => "Metacarpal",
        ("thumb", "2") | (_, "1") => "Proximal",
        ("thumb", "3") | (_, "3") => "Distal",
        (_, "2") => "Intermediate",
        _ => return None,
    };
    (!side.is_empty()).then(|| format!("{side}{name}{segment}"))
}

/// HumanML3D's `t2m_kinematic_chain`: chains from the pelvis out.
pub const T2M_CHAIN: [&[usize]; 5] =
    [&[0, 2, 5, 8, 11], &[0, 1, 4, 7, 10], &[0, 3, 6, 9, 12, 15], &[9, 14, 17, 19, 21], &[9, 13, 16, 18, 20]];

/// The parents of HumanML3D's 22 joints, from its kinematic chain.
pub fn t2m_parents() -> Vec<Option<usize>> {
    let mut parents = vec![None; 22];
    for chain in T2M_CHAIN {
        for pair in chain.windows(2) {
            parents[pair[1]] = Some(pair[0]);
        }
    }
    parents
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parents_line_up() {
        for f in Family::ALL {
            let (names, parents) = (f.names(), f.parents());
            assert_eq!((names.len(), parents.len()), (f.joints(), f.joints()), "{}", f.name());
            assert!(parents.iter().enumerate().all(|(i, p)| p.is_none_or(|p| p < i)));
        }
        let x = Family::SmplX.names();
        assert_eq!((x[22].as_str(), x[25].as_str(), x[39].as_str(), x[54].as_str()), ("jaw", "left_index1", "left_thumb3", "right_thumb3"));
        assert_eq!(Family::SmplX.parents()[40], Some(21));
        assert_eq!(Family::SmplH.parents()[23], Some(22));
        let vrm: Vec<Option<String>> = x.iter().map(|n| humanoid(n)).collect();
        assert!(vrm.iter().all(Option::is_some), "{vrm:?}");
        let vrm: Vec<&str> = vrm.iter().flatten().map(String::as_str).collect();
        assert_eq!(vrm[..4], ["hips", "leftUpperLeg", "rightUpperLeg", "spine"]);
        assert_eq!(
            vrm[22..29],
            ["jaw", "leftEye", "rightEye", "leftIndexProximal", "leftIndexIntermediate", "leftIndexDistal", "leftMiddleProximal"]
        );
        assert_eq!(vrm[37..40], ["leftThumbMetacarpal", "leftThumbProximal", "leftThumbDistal"]);
        assert_eq!(humanoid("left_hand"), None);
        assert_eq!(humanoid("right_pinky2").as_deref(), Some("rightLittleIntermediate"));
        assert_eq!(t2m_parents()[..22], BODY_PARENTS.map(|p| usize::try_from(p).ok()), "HumanML3D's chain is SMPL's body");
    }
}
