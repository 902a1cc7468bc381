//! A skeleton without a body model: rest joints from published anthropometric proportions
//! (Winter, *Biomechanics and Motor Control of Human Movement*, segment lengths as fractions
//! of body height, for a body 1.7 m tall), never from a model file. In the models' space:
//! Y up, facing +Z, the body's left on +X, arms out (T pose), the pelvis at the origin.

use glam::DVec3;

use super::joints::{BODY, FINGERS, Family};

/// The body height the proportions are scaled to, in metres.
pub const HEIGHT: f64 = 1.7;

/// Heights above the floor and sideways offsets as fractions of height (Winter's figure 4.1:
/// hip 0.530, knee 0.285, ankle 0.039, shoulder 0.818, chin 0.870; upper arm 0.186, forearm
/// 0.146, hand 0.108, shoulder width 0.259, hip width 0.191, foot 0.152).
const PELVIS_HEIGHT: f64 = 0.560;

/// The left side's body joints as (x, height, z) fractions of height; the right mirrors them.
fn body_fraction(name: &str) -> [f64; 3] {
    match name {
        "pelvis" => [0.0, PELVIS_HEIGHT, 0.0],
        "left_hip" => [0.052, 0.530, 0.0],
        "spine1" => [0.0, 0.620, -0.005],
        "left_knee" => [0.057, 0.285, 0.005],
        "spine2" => [0.0, 0.680, -0.005],
        "left_ankle" => [0.057, 0.039, -0.015],
        "spine3" => [0.0, 0.735, 0.0],
        "left_foot" => [0.062, 0.010, 0.065],
        "neck" => [0.0, 0.845, -0.010],
        "left_collar" => [0.040, 0.810, 0.0],
        "head" => [0.0, 0.900, 0.010],
        "left_shoulder" => [0.110, 0.818, -0.005],
        "left_elbow" => [0.110 + 0.186, 0.818, -0.005],
        "left_wrist" => [0.110 + 0.186 + 0.146, 0.818, -0.005],
        "left_hand" => [0.442 + 0.060, 0.815, -0.005],
        "jaw" => [0.0, 0.880, 0.025],
        "left_eye_smplhf" => [0.018, 0.935, 0.050],
        _ => [0.0, PELVIS_HEIGHT, 0.0],
    }
}

/// A finger joint of the left hand (`index`, 1–3) as an offset from the wrist, in fractions
/// of height: the palm 0.055 long, the fingers 0.022, 0.014 and 0.010 per phalanx, spread
/// forward (index) to back (pinky), the thumb forward and below.
fn finger_fraction(finger: &str, k: usize) -> [f64; 3] {
    let (spread, scale) = match finger {
        "index" => (0.012, 0.95),
        "middle" => (0.003, 1.0),
        "ring" => (-0.006, 0.95),
        "pinky" => (-0.014, 0.80),
        _ => (0.0, 1.0),
    };
    if finger == "thumb" {
        let steps = [[0.012, -0.006, 0.012], [0.026, -0.010, 0.024], [0.038, -0.012, 0.032]];
        return steps[k - 1];
    }
    let along = [0.055, 0.055 + 0.022, 0.055 + 0.036][k - 1];
    [0.055 + (along - 0.055) * scale, 0.0, spread]
}

/// Approximate rest joint positions for `family`, pelvis at the origin, in metres.
pub fn rest_joints(family: Family) -> Vec<DVec3> {
    let wrist = DVec3::from_array(body_fraction("left_wrist"));
    let mut out = Vec::with_capacity(family.joints());
    for name in family.names() {
        let (side, base) = match name.strip_prefix("right_") {
            Some(rest) => (-1.0, format!("left_{rest}")),
            None => (1.0, name.clone()),
        };
        let base = base.replace("right_eye", "left_eye");
        let side = if name.starts_with("right_eye") { -1.0 } else { side };
        let finger = FINGERS.iter().find_map(|f| base.strip_prefix("left_").and_then(|r| r.strip_prefix(f)).map(|k| (*f, k)));
        let p = match finger {
            Some((f, k)) if !BODY.contains(&base.as_str()) => wrist + DVec3::from_array(finger_fraction(f, k.parse().unwrap_or(1))),
            _ => DVec3::from_array(body_fraction(&base)),
        };
        out.push(DVec3::new(p.x * side, p.y - PELVIS_HEIGHT, p.z) * HEIGHT);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_approximate_body_stands_about_1_7_m_with_bones_that_are_not_zero() {
        for family in Family::ALL {
            let rest = rest_joints(family);
            let names = family.names();
            let at = |n: &str| rest[names.iter().position(|x| x == n).unwrap()];
            let height = at("head").y - at("left_ankle").y;
            assert!((1.3..1.6).contains(&height), "{} head to ankle {height}", family.name());
            assert!(at("left_wrist").x > 0.6 && (at("right_wrist").x + at("left_wrist").x).abs() < 1e-9);
            for (j, p) in family.parents().iter().enumerate() {
                if let Some(p) = p {
                    assert!((rest[j] - rest[*p]).length() > 0.005, "{} {} sits on its parent", family.name(), names[j]);
                }
            }
        }
    }
}
