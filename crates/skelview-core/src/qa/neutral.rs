//! `neutral_pose`: the verdict on the rest pose and the first frame: which way is up and
//! forward (against Character Studio Biped's convention: upright on +Z, facing −Y), T-pose or
//! A-pose, and how far each limb is from that ideal pose.

use glam::{Mat4, Vec3};

use super::thresholds::NeutralThresholds;
use super::{Finding, Kind};
use crate::core::rest::{FOREARM, Limb, SHIN, THIGH, UPPER_ARM, arm_shape, limb};
use crate::core::units::HEAD_NAMES;
use crate::core::{Interpolation, Motion, PoseAt, Sampler, Skeleton, UpAxis};

/// One limb's direction against the ideal pose.
#[derive(Clone, Debug, PartialEq)]
pub struct LimbDeviation {
    /// `left upper arm`, `spine`, …
    pub limb: &'static str,
    /// The joint the limb starts at (as the file names it).
    pub joint: usize,
    /// Angle between the limb and its ideal direction, degrees.
    pub deg: f32,
}

/// What one pose looks like.
#[derive(Clone, Debug, PartialEq)]
pub struct NeutralVerdict {
    /// `rest pose` or `first frame`.
    pub pose: &'static str,
    /// The file's up axis.
    pub up: UpAxis,
    /// The file axis the body faces, when left and right limbs are found.
    pub facing: Option<UpAxis>,
    /// Upright on +Z and facing −Y, as Character Studio Biped expects.
    pub biped: bool,
    /// Mean angle of the upper arms below horizontal, degrees.
    pub arm_angle_deg: Option<f32>,
    /// `T-pose`, `A-pose` or `other` (`unknown` without arms).
    pub shape: &'static str,
    /// The ideal the limbs are measured against: `T-pose`, or `A-pose` for an A-pose.
    pub ideal: &'static str,
    /// Each limb found, against the ideal.
    pub limbs: Vec<LimbDeviation>,
}

impl NeutralVerdict {
    /// The limb furthest from the ideal.
    pub fn worst(&self) -> Option<&LimbDeviation> {
        self.limbs.iter().max_by(|a, b| a.deg.total_cmp(&b.deg))
    }

    /// One line: `+Z up, facing −Y (Biped), T-pose (arms 2° below horizontal), worst limb …`.
    pub fn summary(&self, skeleton: &Skeleton) -> String {
        let facing = self.facing.map_or("facing unknown".to_owned(), |f| format!("facing {}", f.signed_name()));
        let biped = if self.biped { " (the Biped convention)" } else { "" };
        let arms = self.arm_angle_deg.map_or(String::new(), |a| format!(" (arms {:.0}° below horizontal)", a.round() + 0.0));
        let worst = self.worst().map_or(String::new(), |w| {
            format!("; worst limb {} ({}) {:.0}° from a {}", w.limb, skeleton.joints()[w.joint].name, w.deg, self.ideal)
        });
        format!(
            "{}: {} up, {facing}{biped}, {}{arms}{worst}{}",
            self.pose,
            self.up.signed_name(),
            self.shape,
            self.ideal_note(worst.is_empty())
        )
    }

    fn ideal_note(&self, no_limbs: bool) -> &'static str {
        if no_limbs { "; no limbs named like arms or legs" } else { "" }
    }
}

/// The bone a limb joint stands for: to its farthest child, or from its parent where joints
/// sit at the far end of their bones (ASF).
fn limb_vector(m: &Motion, p: &[Vec3], j: usize) -> Option<Vec3> {
    let v = if m.source.format.joints_at_far_end {
        p[j] - p[m.skeleton.joints()[j].parent?]
    } else {
        let far = m.skeleton.children(j).max_by(|&a, &b| (p[a] - p[j]).length().total_cmp(&(p[b] - p[j]).length()))?;
        p[far] - p[j]
    };
    (v.length() > 1e-6 && v.is_finite()).then(|| v.normalize())
}

fn angle_deg(a: Vec3, b: Vec3) -> f32 {
    a.dot(b).clamp(-1.0, 1.0).acos().to_degrees()
}

fn verdict(m: &Motion, pose: &'static str, p: &[Vec3], display: Mat4, file_up: UpAxis) -> NeutralVerdict {
    let s = &m.skeleton;
    let up = Vec3::Y;
    let pair = |groups| limb(s, true, groups).zip(limb(s, false, groups));
    let across = pair(THIGH).or_else(|| pair(UPPER_ARM)).map(|(l, r)| {
        let d = p[l] - p[r];
        Vec3::new(d.x, 0.0, d.z)
    });
    let left_dir = across.filter(|d| d.length() > 1e-6).map(|d| d.normalize());
    let file_from_display = display.inverse();
    let facing = left_dir.and_then(|l| UpAxis::nearest(file_from_display.transform_vector3(l.cross(up))));
    let mut arms = Vec::new();
    let mut limbs = Vec::new();
    for left in [true, false] {
        if let Some(v) = limb(s, left, UPPER_ARM).and_then(|j| limb_vector(m, p, j)) {
            arms.push((-v.y).clamp(-1.0, 1.0).asin().to_degrees());
        }
    }
    let arm_angle_deg = (!arms.is_empty()).then(|| arms.iter().sum::<f32>() / arms.len() as f32);
    let shape = match arm_angle_deg {
        None => "unknown",
        Some(a) => arm_shape(a),
    };
    let ideal = if shape == "A-pose" { "A-pose" } else { "T-pose" };
    if let Some(side) = left_dir {
        let arm_drop = if ideal == "A-pose" { 45f32.to_radians() } else { 0.0 };
        for (left, sign) in [(true, 1.0f32), (false, -1.0)] {
            let arm_ideal = side * sign * arm_drop.cos() - up * arm_drop.sin();
            let parts: [(&'static str, &'static str, Limb, Vec3); 4] = [
                ("left upper arm", "right upper arm", UPPER_ARM, arm_ideal),
                ("left forearm", "right forearm", FOREARM, arm_ideal),
                ("left thigh", "right thigh", THIGH, -up),
                ("left shin", "right shin", SHIN, -up),
            ];
            for (lname, rname, groups, ideal_dir) in parts {
                if let Some(j) = limb(s, left, groups)
                    && let Some(v) = limb_vector(m, p, j)
                {
                    limbs.push(LimbDeviation { limb: if left { lname } else { rname }, joint: j, deg: angle_deg(v, ideal_dir) });
                }
            }
        }
        let head = s.joints().iter().position(|j| HEAD_NAMES[..1].iter().any(|k| j.name.to_ascii_lowercase().contains(k)));
        if let (Some(h), Some((l, r))) = (head, pair(THIGH)) {
            let v = p[h] - 0.5 * (p[l] + p[r]);
            if v.length() > 1e-6 {
                limbs.push(LimbDeviation { limb: "spine", joint: h, deg: angle_deg(v.normalize(), up) });
            }
        }
    }
    NeutralVerdict {
        pose,
        up: file_up,
        facing,
        biped: file_up == UpAxis::Z && facing == Some(UpAxis::NegY),
        arm_angle_deg,
        shape,
        ideal,
        limbs,
    }
}

/// Verdicts on the rest pose and (when the clip has frames) on the first frame.
pub fn verdicts(m: &Motion, space: &super::Space) -> Vec<NeutralVerdict> {
    let display = space.display;
    let mut sampler = Sampler::default();
    let mut out = Vec::new();
    let p = sampler.positions(m, PoseAt::Rest, Interpolation::Nearest, display).to_vec();
    out.push(verdict(m, "rest pose", &p, display, space.up));
    if m.clip.num_frames() > 0 {
        let p = sampler.positions(m, PoseAt::Frame(0), Interpolation::Nearest, display).to_vec();
        out.push(verdict(m, "first frame", &p, display, space.up));
    }
    out
}

/// A finding for each verdict whose worst limb is further than the threshold from the ideal.
pub fn findings(verdicts: &[NeutralVerdict], th: &NeutralThresholds, skeleton: &Skeleton) -> Vec<Finding> {
    verdicts
        .iter()
        .filter_map(|v| {
            let worst = v.worst()?;
            (worst.deg > th.limb_deg).then(|| Finding {
                kind: Kind::NeutralPose,
                joint: Some(worst.joint),
                start_frame: 0,
                end_frame: 0,
                value: worst.deg,
                unit: "deg",
                threshold: th.limb_deg,
                message: format!("{} is not a clean neutral pose: {}", v.pose, v.summary(skeleton)),
            })
        })
        .collect()
}
