//! The scene composer: every open clip posed at one instant on the shared clock, placed by
//! the layout, coloured by the palette or the heat map, with trails and onion skin, appended
//! to one [`DrawData`]. The viewer and the command line build their pictures with the same
//! [`Scene`], so `skelview render A B --layout side-by-side --heat-map` draws what the viewer
//! shows for the same clips.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use super::clips::{ClipId, ClipView, GHOST_COLOR, Layout, apply_layout};
use super::comparison::CompareView;
use super::draw::{self, Style};
use super::overlays::{OverlayScratch, Overlays, onion_skin, trails};
use skelview_core::core::bounds::{bounds_of, clip_bounds, robust_bounds};
use skelview_core::core::{Clip, Interpolation, LengthUnit, Motion, PoseAt, Sampler, Skeleton};
use skelview_draw::DrawData;
use skelview_draw::{LineVertex, MeshInstance};

/// Clips from which posing is spread over the cores.
const PARALLEL_POSE_CLIPS: usize = 8;
use skelview_draw::{OrbitCamera, ViewPreset};

/// Which pose is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseMode {
    /// The clip at the playback time.
    Animated,
    /// Offsets only, all channels ignored (the format's bind pose).
    Rest,
    /// The first frame.
    FirstFrame,
}

/// What one picture shows besides the clips: the instant, the pose, the selection and the
/// style.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSpec {
    /// Shared-clock time in seconds.
    pub time_secs: f64,
    /// Animated, rest or first frame.
    pub pose: PoseMode,
    /// Sampling between frames.
    pub interpolation: Interpolation,
    /// The clip whose selection is highlighted and whose overlays are drawn.
    pub active: usize,
    /// Selected joint of the active clip.
    pub selected: Option<usize>,
    /// Display toggles and colours.
    pub style: Style,
}

impl FrameSpec {
    /// The animated pose at `time_secs`, linear sampling, clip 0 active, nothing selected.
    pub fn at(time_secs: f64, style: Style) -> Self {
        Self { time_secs, pose: PoseMode::Animated, interpolation: Interpolation::Linear, active: 0, selected: None, style }
    }
}

/// Colour of the halo around joints that a capture-check finding is about (translucent orange).
pub const FLAGGED_COLOR: [f32; 4] = [1.0, 0.45, 0.05, 0.55];

/// The clips and everything that decides how they are drawn.
#[derive(Clone)]
pub struct Scene {
    /// Every open clip, the reference (first) clip first.
    pub clips: Vec<ClipView>,
    /// How the clips are placed.
    pub layout: Layout,
    /// The comparison of the reference with another clip (heat-map colours).
    pub compare: CompareView,
    /// Trails and onion skin of the active clip.
    pub overlays: Overlays,
    /// Joints of the active clip marked as part of a finding of the capture checks.
    pub flagged: Vec<usize>,
    side_axis: Vec3,
    layout_dirty: bool,
    scratch: OverlayScratch,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            clips: Vec::new(),
            layout: Layout::Overlay,
            compare: CompareView::default(),
            overlays: Overlays::default(),
            flagged: Vec::new(),
            side_axis: Vec3::X,
            layout_dirty: true,
            scratch: OverlayScratch::default(),
        }
    }
}

impl Scene {
    /// Where the clip `id` is in the list now.
    pub fn index_of(&self, id: ClipId) -> Option<usize> {
        self.clips.iter().position(|c| c.serial == id.0)
    }

    /// A scene of `motions` in palette order, starting together at shared time 0.
    pub fn from_motions(motions: impl IntoIterator<Item = Arc<Motion>>) -> Self {
        let mut scene = Self::default();
        for (i, m) in motions.into_iter().enumerate() {
            let mut clip = ClipView::new(m, i);
            clip.serial = i as u64;
            scene.clips.push(clip);
        }
        scene
    }

    /// The scene of `motions` as the command line draws it: palette colours, `layout` (side
    /// by side spreads along the horizontal axis of a camera looking from `view`), and the
    /// heat map of the second clip against the first when asked. The viewer reaches the same
    /// scene through its commands.
    pub fn arranged(motions: impl IntoIterator<Item = Arc<Motion>>, layout: Layout, view: ViewPreset, heat_map: bool) -> Self {
        let mut scene = Self::from_motions(motions);
        let mut camera = OrbitCamera::default();
        camera.set_preset(view);
        scene.set_layout(layout, Vec3::Y.cross(camera.backward()));
        scene.compare.heat = heat_map;
        scene
    }

    /// Computes on this thread what a viewer computes in the background for the scene as
    /// `frame` shows it: the error over the whole overlap, which scales the heat map. A
    /// picture made without a viewer (`render`, its videos) then colours the compared clip as
    /// the viewer does, and the same in every frame of a video.
    pub fn settle(&mut self, frame: &FrameSpec) {
        if !self.compare.heat || self.clips.len() < 2 {
            return;
        }
        let mut scratch = DrawData::default();
        self.compose(frame, &mut scratch);
        if let (Some(input), None) = (self.compare.overlap_input.clone(), &self.compare.overlap) {
            self.compare.overlap = super::comparison::overlap_curve(&input, &|_| true).map(Arc::new);
        }
    }

    /// Places the clips another way; `side_axis` is the screen's horizontal direction
    /// (side by side spreads along it).
    pub fn set_layout(&mut self, layout: Layout, side_axis: Vec3) {
        self.layout = layout;
        self.side_axis = side_axis;
        self.layout_dirty = true;
    }

    /// Recomputes the placements before the next picture (a clip was added, removed,
    /// reloaded or its units changed).
    pub fn relayout(&mut self) {
        self.layout_dirty = true;
    }

    /// Sets clip `i`'s unit and up-axis choices.
    pub fn set_overrides(&mut self, i: usize, unit: Option<LengthUnit>, up: Option<skelview_core::core::UpAxis>) {
        if let Some(c) = self.clips.get_mut(i) {
            c.set_overrides(unit, up);
            self.layout_dirty = true;
        }
    }

    /// Poses every clip at the frame's instant (hidden ones too: the comparison measures them).
    pub fn pose_all(&mut self, frame: &FrameSpec) {
        if self.layout_dirty {
            apply_layout(&mut self.clips, self.layout, self.side_axis);
            self.layout_dirty = false;
        }
        let pose = |c: &mut ClipView| match frame.pose {
            PoseMode::Animated => c.pose_at(frame.time_secs, frame.interpolation),
            PoseMode::FirstFrame => c.pose_with(PoseAt::Frame(0), frame.interpolation),
            PoseMode::Rest => c.pose_rest(),
        };
        // A crowd (a hundred Foxes, each on its own clock) is posed on every core; a few
        // clips are not worth waking the pool for.
        if self.clips.len() >= PARALLEL_POSE_CLIPS {
            // `for_each` is rayon's with the parallel feature, std's without (the browser).
            #[allow(unused_imports)]
            use skelview_core::par::{IntoParallelIterator, ParallelIterator};
            (&mut self.clips).into_par_iter().for_each(pose);
        } else {
            self.clips.iter_mut().for_each(pose);
        }
    }

    /// Poses every clip, updates the comparison, and appends the visible clips and the
    /// active clip's overlays to `out`. One clip keeps the style's colours; several are told
    /// apart by theirs, and the compared clip's bones take the heat map's when it is on.
    pub fn compose(&mut self, frame: &FrameSpec, out: &mut DrawData) {
        self.pose_all(frame);
        let now = (frame.pose == PoseMode::Animated).then_some(frame.time_secs);
        self.compare.update(&self.clips, self.layout, frame.interpolation, now);
        let single = self.clips.len() == 1;
        for (i, c) in self.clips.iter().enumerate() {
            if !c.visible {
                continue;
            }
            let mut style = frame.style;
            if single {
                style.bone_color[3] *= c.opacity;
                style.joint_color[3] *= c.opacity;
            } else {
                let [r, g, b, a] = c.color;
                style.bone_color = [r, g, b, a * c.opacity];
                style.joint_color = [r * 0.55 + 0.45, g * 0.55 + 0.45, b * 0.55 + 0.45, a * c.opacity];
                style.mesh_tint = [r * 0.5 + 0.5, g * 0.5 + 0.5, b * 0.5 + 0.5, 1.0];
            }
            style.mesh_tint[3] *= c.opacity;
            let selected = if i == frame.active { frame.selected } else { None };
            let heat = (i == self.compare.other && !self.compare.bone_colors.is_empty()).then_some(self.compare.bone_colors.as_slice());
            if let Some(g) = c.ghost.as_ref().filter(|_| self.overlays.ghost) {
                // Behind the clip: no shadow, axes or selection of its own.
                let faint = Style {
                    bone_color: GHOST_COLOR,
                    joint_color: GHOST_COLOR,
                    mesh_tint: GHOST_COLOR,
                    shadow: false,
                    axes: false,
                    ..style
                };
                self.draw_one(&g.clip, frame, &faint, None, None, None, out);
            }
            self.draw_one(c, frame, &style, selected, heat, Some(self.overlays.marker_color), out);
            let [r, g, b, a] = style.bone_color;
            let color = [r, g, b, a * 0.8];
            for w in c.path.windows(2) {
                for p in w {
                    out.lines.push(LineVertex { position: c.placement.transform_point3(*p).to_array(), color });
                }
            }
        }
        if let Some(c) = self.clips.get(frame.active).filter(|c| c.visible) {
            // A halo around each flagged joint, larger than a selected joint.
            let radius = c.display.size_m * 0.03;
            // A capture's marker in a gap has no position to ring.
            let gaps = match (&c.motion.capture, frame.pose) {
                (Some(capture), PoseMode::Animated) => super::markers::gaps(capture, super::markers::frame_at(c, capture, frame.time_secs)),
                _ => Vec::new(),
            };
            for p in self.flagged.iter().filter(|&&j| !gaps.get(j).copied().unwrap_or(false)).filter_map(|&j| c.positions().get(j)) {
                out.joints.push(MeshInstance {
                    world_from_model: Mat4::from_scale_rotation_translation(Vec3::splat(radius), glam::Quat::IDENTITY, *p)
                        .to_cols_array_2d(),
                    color: FLAGGED_COLOR,
                });
            }
        }
        if let (PoseMode::Animated, Some(c)) = (frame.pose, self.clips.get(frame.active)) {
            let o = self.overlays;
            if o.trails {
                trails(c, frame.time_secs, frame.selected, &o, frame.interpolation, &mut self.scratch, out);
            }
            onion_skin(c, frame.time_secs, &o, &frame.style, frame.interpolation, &mut self.scratch, out);
        }
    }

    /// One clip's skeleton or markers in `style`; a capture's forces with its own marker
    /// colours (`None`: a ghost, in the style's colours and without forces).
    #[allow(clippy::too_many_arguments)]
    fn draw_one(
        &self,
        c: &ClipView,
        frame: &FrameSpec,
        style: &Style,
        selected: Option<usize>,
        heat: Option<&[[f32; 4]]>,
        marker_color: Option<super::markers::MarkerColor>,
        out: &mut DrawData,
    ) {
        let floor = c.placement.transform_point3(Vec3::new(0.0, c.floor_y, 0.0)).y;
        if let Some(capture) = &c.motion.capture {
            let at = match frame.pose {
                PoseMode::Animated => super::markers::frame_at(c, capture, frame.time_secs),
                _ => 0,
            };
            let colors = marker_color.unwrap_or(super::markers::MarkerColor::Clip);
            super::markers::build(c, capture, at, colors, style, selected, self.overlays.links, out);
            if self.overlays.forces && frame.pose == PoseMode::Animated && marker_color.is_some() {
                super::markers::forces(c, capture, frame.time_secs, out);
            }
        } else {
            let style = &self.draw_skins(c, style, out);
            draw::build_colored(
                &c.motion.skeleton,
                &c.pose.global,
                c.world_from_file(),
                c.display.size_m,
                floor,
                style,
                selected,
                heat,
                out,
            );
        }
    }

    /// Appends clip `c`'s meshes when its body shows them (translucent under its bones), and
    /// returns the style its skeleton is drawn in (no bones or joints for meshes alone).
    fn draw_skins(&self, c: &ClipView, style: &Style, out: &mut DrawData) -> Style {
        let mut style = *style;
        if let (Some(skins), Some(set)) = (c.skins.as_ref().filter(|_| c.body.mesh()), c.motion.meshes.as_deref()) {
            let mut tint = style.mesh_tint;
            if c.body.skeleton() {
                tint[3] *= super::skins::UNDER_BONES_ALPHA;
            }
            super::skins::append(&c.skin_frame(set, &skins.geometry), tint, out);
        }
        if !c.body.skeleton() {
            (style.bones, style.joints, style.shadow) = (false, false, style.shadow && c.skins.is_none());
        }
        style
    }

    /// Body size (metres) of clip `active`, or of the first clip; 1 m with no clip.
    pub fn size_m(&self, active: usize) -> f32 {
        self.clips.get(active).or(self.clips.first()).map_or(1.0, |c| c.display.size_m)
    }

    /// Display-space bounds of the current poses of the visible clips (and the active one),
    /// with the path of a body without height, padded by a little of each body's size.
    pub fn bounds_now(&self, active: usize) -> Option<(Vec3, Vec3)> {
        self.with_ghosts(active).filter_map(|c| padded(c, robust_bounds(&c.framed_positions()))).reduce(union)
    }

    /// Display-space bounds over up to 32 frames spread across each shown clip, as placed:
    /// what "frame all" fits so that a walk stays in view.
    pub fn bounds_over_clips(&self, active: usize) -> Option<(Vec3, Vec3)> {
        self.with_ghosts(active).filter_map(|c| padded(c, clip_bounds(&c.motion, c.world_from_file()))).reduce(union)
    }

    /// The mean of the shown clips' first roots as posed now: what "follow" keeps in view.
    pub fn roots_centre(&self, active: usize) -> Option<Vec3> {
        // Every frame while following: summed in place, no list.
        let roots = self.shown(active).filter_map(|c| c.motion.skeleton.roots().next().and_then(|r| c.positions().get(r).copied()));
        let (sum, n) = roots.fold((Vec3::ZERO, 0), |(s, n), p| (s + p, n + 1));
        (n > 0).then(|| sum / n as f32)
    }

    /// True when the shown clips travel: their bounds over the whole clips reach more than a
    /// body size beyond their bounds now (a walk, a run; not a dance in place).
    pub fn travels(&self, active: usize) -> bool {
        let (Some(now), Some(whole)) = (self.bounds_now(active), self.bounds_over_clips(active)) else { return false };
        let grow = (whole.1 - whole.0) - (now.1 - now.0);
        grow.x.max(grow.z) > self.size_m(active)
    }

    /// Bounds of the shown clips over the shared-clock times `times` (one camera for a whole
    /// sequence); leaves the clips posed at the last time.
    pub fn bounds_over_times(&mut self, frame: &FrameSpec, times: impl IntoIterator<Item = f64>) -> Option<(Vec3, Vec3)> {
        let mut out = None;
        for t in times {
            self.pose_all(&FrameSpec { time_secs: t, ..*frame });
            out = match (out, self.bounds_now(frame.active)) {
                (Some(a), Some(b)) => Some(union(a, b)),
                (a, b) => a.or(b),
            };
        }
        out
    }

    /// Appends the ground grid (and world axes) around the camera's target, spaced for the
    /// active clip's body.
    pub fn grid(&self, frame: &FrameSpec, camera_target: Vec3, out: &mut DrawData) {
        let floor = self.clips.get(frame.active).map_or(0.0, |c| c.placement.transform_point3(Vec3::new(0.0, c.floor_y, 0.0)).y);
        let center = Vec3::new(camera_target.x, floor, camera_target.z);
        draw::grid(center, self.size_m(frame.active), &frame.style, &mut out.lines);
    }

    fn shown(&self, active: usize) -> impl Iterator<Item = &ClipView> {
        self.clips.iter().enumerate().filter(move |(i, c)| c.visible || *i == active).map(|(_, c)| c)
    }

    /// The shown clips and the ghosts drawn behind them: what framing keeps in view.
    fn with_ghosts(&self, active: usize) -> impl Iterator<Item = &ClipView> {
        let ghosts = self.overlays.ghost;
        self.shown(active).flat_map(move |c| std::iter::once(c).chain(c.ghost.as_ref().filter(|_| ghosts).map(|g| &*g.clip)))
    }
}

fn union(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> (Vec3, Vec3) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// `bounds` of clip `c` with its path when its body has no height (a prop, a single joint),
/// then with a margin of half its size, so that such a clip is framed at a visible size
/// rather than with the camera inside its one joint.
fn padded(c: &ClipView, bounds: Option<(Vec3, Vec3)>) -> Option<(Vec3, Vec3)> {
    let path = bounds_of(&c.path).map(|(lo, hi)| (c.placement.transform_point3(lo), c.placement.transform_point3(hi)));
    let (lo, hi) = match (bounds, path) {
        (Some(a), Some(b)) => union(a, b),
        (a, b) => a.or(b)?,
    };
    let (lo, hi) = (lo.min(hi), hi.max(lo));
    if c.path.is_empty() && (hi - lo).max_element() > c.display.size_m * 0.05 {
        return Some((lo, hi));
    }
    let margin = Vec3::splat(c.display.size_m * 0.5);
    Some((lo - margin, hi + margin))
}

/// A camera for `view` framing the box `lo`–`hi` (the default view when there is no box).
pub fn framing(bounds: Option<(Vec3, Vec3)>, view: ViewPreset, aspect: f32, ortho: bool) -> OrbitCamera {
    let mut camera = OrbitCamera { orthographic: ortho, ..OrbitCamera::default() };
    camera.set_preset(view);
    if let Some((lo, hi)) = bounds {
        camera.frame_figure(lo, hi, aspect, 0.6);
    }
    camera
}

/// Draws a skeleton whose file is still loading (first frames, units not yet detected),
/// scaled to a plausible size from its height. Returns its joint positions' bounds and body
/// size in metres.
pub fn preview(
    skeleton: &Skeleton,
    clip: &Clip,
    style: &Style,
    selected: Option<usize>,
    sampler: &mut Sampler,
    out: &mut DrawData,
) -> (Option<(Vec3, Vec3)>, f32) {
    sampler.pose(skeleton, clip, PoseAt::Frame(0), Interpolation::Nearest);
    let h = bounds_of(sampler.place(Mat4::IDENTITY)).map_or(1e-6, |(lo, hi)| (hi - lo).max_element().max(1e-6));
    let scale = LengthUnit::from_height(h).metres();
    let display = Mat4::from_scale(Vec3::splat(scale));
    let bounds = bounds_of(sampler.place(display));
    draw::build(skeleton, &sampler.global, display, h * scale, style, selected, out);
    (bounds, h * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_joint_is_framed_with_a_margin_and_its_path() {
        let text = b"HIERARCHY\nROOT cup\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n {\n  OFFSET 0 0 0\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.1\n0 1 0\n0.5 1 0\n1 1 0\n";
        let request = skelview_core::formats::LoadRequest::memory("cup.bvh", &text[..]).unwrap();
        let m = skelview_core::formats::load(
            &request,
            &Default::default(),
            &skelview_core::formats::Sequential,
            &mut skelview_core::formats::Quiet,
        )
        .unwrap();
        assert!((m.body_size_m() - 0.25).abs() < 1e-6, "a quarter of the 1 m it travels: {}", m.body_size_m());
        let mut scene = Scene::from_motions([Arc::new(m)]);
        assert_eq!(scene.clips[0].path.len(), 3);
        let frame = FrameSpec::at(0.0, Style::default());
        let mut out = DrawData::default();
        scene.compose(&frame, &mut out);
        assert_eq!(out.lines.len(), 4, "two path segments");
        let (lo, hi) = scene.bounds_now(0).unwrap();
        assert!(hi.x - lo.x > 1.2 && hi.y - lo.y > 0.2, "the path and a margin: {lo} {hi}");
        // Nothing moves: a default size of 0.1 m, never zero.
        let still = b"HIERARCHY\nROOT p\n{\n OFFSET 0 0 0\n CHANNELS 1 Xposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0\n0\n";
        let request = skelview_core::formats::LoadRequest::memory("p.bvh", &still[..]).unwrap();
        let m = skelview_core::formats::load(
            &request,
            &Default::default(),
            &skelview_core::formats::Sequential,
            &mut skelview_core::formats::Quiet,
        )
        .unwrap();
        assert_eq!(m.body_size_m(), 0.1);
    }
}
