//! `foot_slide` and `floor`: feet against the ground the viewer draws.

use crate::par::*;

use super::ranges::{frames_text, keep_topmost, runs};
use super::thresholds::{FloorThresholds, FootSlideThresholds};
use super::tracks::Tracks;
use super::{Finding, Kind, Space};
use crate::core::Motion;
use crate::core::contacts::{ContactRule, contacts, ground_level};
use crate::core::units::{FOOT_NAMES, named};

/// The floor's height in display space: the one the viewer draws the grid on.
fn floor_height(m: &Motion, space: &Space) -> f32 {
    crate::core::bounds::floor_y(m, space.display)
}

/// Joints named like a foot, toe, ankle or heel (markers aside).
fn feet(m: &Motion) -> Vec<usize> {
    named(&m.skeleton, &FOOT_NAMES).into_iter().filter(|&j| !m.skeleton.joints()[j].is_marker).collect()
}

/// `foot_slide`: for each foot joint, contacts are stretches near its own lowest level (which
/// must be near the floor) and slower than the contact speed; a contact whose horizontal
/// drift passes the threshold is a slide.
pub fn foot_slide(m: &Motion, space: &Space, t: &Tracks, th: &FootSlideThresholds) -> Vec<Finding> {
    let n = t.frames;
    if n < 3 {
        return Vec::new();
    }
    let floor = floor_height(m, space);
    let min_frames = ((th.min_contact_secs / t.dt.max(1e-6)).ceil() as usize).max(3);
    let mut out = Vec::new();
    let rule = ContactRule { height_m: th.contact_height_m, speed_m_s: th.contact_speed_m_s, min_frames };
    for j in feet(m) {
        let track: Vec<glam::Vec3> = (0..n).map(|f| t.pos(f, j)).collect();
        // A foot that never comes near the floor never stands on it.
        let Some(ground) = ground_level(&track).filter(|g| g - floor <= 0.15) else { continue };
        for (a, b) in contacts(&track, t.dt, ground, &rule) {
            let start = t.pos(a, j);
            let (mut drift, mut worst) = (0f32, a);
            for f in a..=b {
                let d = t.pos(f, j) - start;
                let h = (d.x * d.x + d.z * d.z).sqrt();
                if h > drift {
                    (drift, worst) = (h, f);
                }
            }
            if drift > th.drift_m {
                // The slide itself: from where the foot last sat near its contact position
                // to where it got furthest.
                let near = |f: usize| {
                    let d = t.pos(f, j) - start;
                    (d.x * d.x + d.z * d.z).sqrt() <= 0.1 * drift
                };
                let from = (a..=worst).rev().find(|&f| near(f)).unwrap_or(a);
                out.push(Finding {
                    kind: Kind::FootSlide,
                    joint: Some(j),
                    start_frame: from,
                    end_frame: worst,
                    value: drift,
                    unit: "m",
                    threshold: th.drift_m,
                    message: format!(
                        "{} slides {:.1} cm over {} while planted (contact over {})",
                        m.skeleton.joints()[j].name,
                        drift * 100.0,
                        frames_text(from, worst),
                        frames_text(a, b)
                    ),
                });
            }
        }
    }
    keep_topmost(&m.skeleton, out)
}

/// `floor`: joints deeper below the floor than the threshold, with the deepest point.
pub fn floor(m: &Motion, space: &Space, t: &Tracks, th: &FloorThresholds) -> Vec<Finding> {
    let n = t.frames;
    let floor = floor_height(m, space);
    let joints = m.skeleton.joints();
    let out: Vec<Finding> = (0..joints.len())
        .into_par_iter()
        .filter(|&j| !joints[j].is_marker)
        .flat_map_iter(|j| {
            let depth = move |f: usize| floor - t.pos(f, j).y;
            runs(n, 0, |f| depth(f) > th.depth_m).into_iter().map(move |(a, b)| {
                let (deepest, at) = (a..=b).map(|f| (depth(f), f)).fold((0f32, a), |best, d| if d.0 > best.0 { d } else { best });
                Finding {
                    kind: Kind::Floor,
                    joint: Some(j),
                    start_frame: a,
                    end_frame: b,
                    value: deepest,
                    unit: "m",
                    threshold: th.depth_m,
                    message: format!(
                        "{} is {:.1} cm below the floor at frame {at} (below it over {})",
                        joints[j].name,
                        deepest * 100.0,
                        frames_text(a, b)
                    ),
                }
            })
        })
        .collect();
    keep_topmost(&m.skeleton, out)
}
