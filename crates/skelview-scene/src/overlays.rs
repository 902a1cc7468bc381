//! Trails (the path of the root and of the selected joint over a time window) and onion skin
//! (ghost poses a few frames before and after, fading with distance), appended to the same
//! instance and line lists as the skeletons: nothing new for the renderer.

use glam::Vec3;

use super::clips::ClipView;
use super::draw::{self, Style};
use skelview_core::core::{Interpolation, PoseAt, Sampler};
use skelview_draw::DrawData;
use skelview_draw::LineVertex;

/// What is drawn around the current pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Overlays {
    /// Draw trails.
    pub trails: bool,
    /// Seconds before and after the current time that a trail covers.
    pub trail_secs: f64,
    /// Ghost poses on each side (0 = onion skin off).
    pub onion: usize,
    /// Frames between ghost poses.
    pub onion_step: usize,
    /// How a capture's markers are coloured.
    pub marker_color: super::markers::MarkerColor,
    /// Draw force platforms and their ground reaction forces.
    pub forces: bool,
    /// Draw an edited clip's source faintly behind it.
    pub ghost: bool,
    /// Draw sticks between a capture's markers.
    pub links: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            trails: false,
            trail_secs: 1.0,
            onion: 0,
            onion_step: 5,
            marker_color: super::markers::MarkerColor::Clip,
            forces: true,
            ghost: true,
            links: true,
        }
    }
}

/// Samples along a trail: enough for a smooth curve, bounded so that a long window stays cheap.
const TRAIL_SAMPLES: usize = 64;

/// Scratch buffers reused every frame, and the trail samples already computed.
#[derive(Clone, Default)]
pub struct OverlayScratch {
    sampler: Sampler,
    trail: Vec<(Vec3, Vec3)>,
    /// Samples by grid index (shared time / step): while playing, consecutive frames share
    /// all but one or two, so a trail costs about one pose per frame instead of 65.
    cache: std::collections::HashMap<i64, (Vec3, Vec3)>,
    cache_key: Option<TrailKey>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct TrailKey {
    serial: u64,
    selected: Option<usize>,
    display: glam::Mat4,
    step: f64,
    offset: f64,
    interp: Interpolation,
}

/// Appends the trails of `c`'s root and of `selected` around shared time `t`: lines in the
/// clip's colour, fading towards both ends of the window.
pub fn trails(
    c: &ClipView,
    t: f64,
    selected: Option<usize>,
    o: &Overlays,
    interp: Interpolation,
    s: &mut OverlayScratch,
    out: &mut DrawData,
) {
    let m = &c.motion;
    let Some(root) = m.skeleton.roots().next() else { return };
    if m.clip.num_frames() < 2 || o.trail_secs.is_nan() || o.trail_secs <= 0.0 || !t.is_finite() {
        return;
    }
    let display = c.placement * c.display.display_from_file;
    let span = o.trail_secs.min(1e5);
    let step = 2.0 * span / TRAIL_SAMPLES as f64;
    let key = TrailKey { serial: c.serial, selected, display, step, offset: c.offset_secs, interp };
    if s.cache_key != Some(key) {
        s.cache.clear();
        s.cache_key = Some(key);
    }
    let first = ((t - span) / step).floor() as i64;
    s.cache.retain(|&k, _| k >= first && k <= first + TRAIL_SAMPLES as i64 + 1);
    s.trail.clear();
    for k in first..=first + TRAIL_SAMPLES as i64 + 1 {
        let sample = match s.cache.get(&k) {
            Some(&p) => p,
            None => {
                let positions = s.sampler.positions(m, PoseAt::Time(c.local_time(k as f64 * step)), interp, display);
                let joint = selected.and_then(|j| positions.get(j)).copied().unwrap_or(Vec3::NAN);
                let p = (positions[root], joint);
                s.cache.insert(k, p);
                p
            }
        };
        s.trail.push(sample);
    }
    let [r, g, b, _] = c.color;
    for k in 1..s.trail.len() {
        // Opaque at the current time, transparent at the window's ends.
        let mid = (first + k as i64) as f64 * step - 0.5 * step;
        let fade = (1.0 - ((mid - t) / span).abs()).clamp(0.0, 1.0) as f32;
        let ((ra, ja), (rb, jb)) = (s.trail[k - 1], s.trail[k]);
        let root_color = [r, g, b, 0.9 * fade];
        out.lines.push(LineVertex { position: ra.to_array(), color: root_color });
        out.lines.push(LineVertex { position: rb.to_array(), color: root_color });
        if ja.is_finite() && jb.is_finite() {
            let joint_color = [0.15, 0.85, 1.0, 0.9 * fade];
            out.lines.push(LineVertex { position: ja.to_array(), color: joint_color });
            out.lines.push(LineVertex { position: jb.to_array(), color: joint_color });
        }
    }
}

/// Appends ghost poses of `c` at ±`step`, ±2·`step`… frames of its own clip around shared
/// time `t`, bones only, fading with distance.
pub fn onion_skin(c: &ClipView, t: f64, o: &Overlays, style: &Style, interp: Interpolation, s: &mut OverlayScratch, out: &mut DrawData) {
    let m = &c.motion;
    if o.onion == 0 || m.clip.num_frames() < 2 {
        return;
    }
    let display = c.placement * c.display.display_from_file;
    let step = o.onion_step.max(1) as f64 * m.clip.frame_time_secs;
    let mut ghost = Style { joints: false, axes: false, shadow: false, ..*style };
    for k in 1..=o.onion.min(16) {
        let alpha = 0.4 * (1.0 - k as f32 / (o.onion.min(16) + 1) as f32);
        for sign in [-1.0, 1.0] {
            let local_t = c.local_time(t) + sign * k as f64 * step;
            if local_t < 0.0 || local_t > m.clip.last_frame_time_secs() {
                continue;
            }
            s.sampler.pose(&m.skeleton, &m.clip, PoseAt::Time(local_t), interp);
            // Earlier ghosts cooler, later ones warmer, so the direction of motion reads.
            let tint = if sign < 0.0 { [0.45, 0.6, 1.0] } else { [1.0, 0.7, 0.4] };
            ghost.bone_color = [tint[0], tint[1], tint[2], alpha];
            draw::build(&m.skeleton, &s.sampler.global, display, c.display.size_m, &ghost, None, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn clip() -> ClipView {
        ClipView::new(Arc::new(skelview_core::formats::load_sample().unwrap()), 0)
    }

    #[test]
    fn trails_follow_the_root_and_the_selected_joint() {
        let c = clip();
        let (mut s, mut out) = (OverlayScratch::default(), DrawData::default());
        let o = Overlays { trails: true, ..Overlays::default() };
        trails(&c, 2.0, None, &o, Interpolation::Linear, &mut s, &mut out);
        assert_eq!(out.lines.len(), 2 * (TRAIL_SAMPLES + 1), "root only");
        // The walk moves: the trail's ends are apart.
        let (a, b) = (Vec3::from(out.lines[0].position), Vec3::from(out.lines[out.lines.len() - 1].position));
        assert!((a - b).length() > 0.3, "{a} {b}");
        out.clear();
        trails(&c, 2.0, Some(5), &o, Interpolation::Linear, &mut s, &mut out);
        assert_eq!(out.lines.len(), 4 * (TRAIL_SAMPLES + 1), "root and joint");
        // A later time reuses the cached samples and gives the same path where they overlap.
        let before: Vec<[f32; 3]> = out.lines.iter().map(|v| v.position).collect();
        out.clear();
        trails(&c, 2.0 + 2.0 * o.trail_secs / TRAIL_SAMPLES as f64, Some(5), &o, Interpolation::Linear, &mut s, &mut out);
        assert_eq!(out.lines[0].position, before[4], "shifted by one sample");
        assert!(out.lines.iter().all(|v| (0.0..=0.9).contains(&v.color[3])));
    }

    #[test]
    fn onion_skin_draws_fading_ghosts_inside_the_clip() {
        let c = clip();
        let (mut s, mut out) = (OverlayScratch::default(), DrawData::default());
        let o = Overlays { onion: 2, onion_step: 5, ..Overlays::default() };
        onion_skin(&c, 2.0, &o, &Style::default(), Interpolation::Linear, &mut s, &mut out);
        assert_eq!(out.bones.len(), 4 * 23, "two ghosts each side");
        assert!(out.joints.is_empty() && out.shadows.is_empty());
        let alphas: Vec<f32> = out.bones.iter().map(|b| b.color[3]).collect();
        assert!(alphas[0] > alphas[3 * 23], "nearer ghosts are more opaque");
        out.clear();
        onion_skin(&c, 0.0, &o, &Style::default(), Interpolation::Linear, &mut s, &mut out);
        assert_eq!(out.bones.len(), 2 * 23, "none before the first frame");
    }
}
