//! Several clips open at once: per-clip colour, opacity, visibility and time offset on one
//! shared clock in seconds, and how they are laid out (overlay, side by side, roots aligned).
//! Plain data; the viewer samples each clip and the UI edits these fields.

use std::sync::Arc;

use glam::{Mat4, Vec3};

use skelview_core::core::capture::PlateSample;
use skelview_core::core::units::{LengthUnit, UpAxis};
use skelview_core::core::{DisplayFrame, Interpolation, LocalPose, Motion, PoseAt, Sampler};

/// Colours given to clips in the order they are opened (linear RGBA): the viewer and
/// `skelview render A B` use the same ones.
pub const PALETTE: [[f32; 4]; 8] = [
    [0.78, 0.80, 0.86, 1.0],
    [0.95, 0.35, 0.25, 1.0],
    [0.25, 0.65, 0.95, 1.0],
    [0.40, 0.85, 0.35, 1.0],
    [0.95, 0.80, 0.20, 1.0],
    [0.75, 0.40, 0.95, 1.0],
    [0.20, 0.85, 0.80, 1.0],
    [0.95, 0.55, 0.75, 1.0],
];

/// The first palette colour not in `taken` (cycling by count when all are taken).
pub fn first_free(taken: impl Iterator<Item = [f32; 4]>) -> [f32; 4] {
    let taken: Vec<[f32; 4]> = taken.collect();
    PALETTE.iter().copied().find(|c| !taken.contains(c)).unwrap_or(PALETTE[taken.len() % PALETTE.len()])
}

/// How the clips are placed relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Where each file puts them.
    Overlay,
    /// Roots brought together on the ground at the first frame, then spread along the
    /// screen's horizontal axis by body size.
    SideBySide,
    /// Each clip translated so its first-frame root coincides with the first clip's.
    AlignRoots,
    /// As `AlignRoots`, also turned about the up axis so the roots face the same way.
    AlignRootsHeading,
}

impl Layout {
    /// The matching alignment of `skelview_core::compare`, for measuring errors as shown.
    pub fn align(self) -> skelview_core::compare::Align {
        match self {
            Self::AlignRoots => skelview_core::compare::Align::Roots,
            Self::AlignRootsHeading => skelview_core::compare::Align::RootsAndHeading,
            Self::Overlay | Self::SideBySide => skelview_core::compare::Align::None,
        }
    }

    /// Every layout, in menu order.
    pub const ALL: [Self; 4] = [Self::Overlay, Self::SideBySide, Self::AlignRoots, Self::AlignRootsHeading];

    /// Label in the UI.
    pub fn name(self) -> &'static str {
        match self {
            Self::Overlay => "overlay",
            Self::SideBySide => "side by side",
            Self::AlignRoots => "align roots",
            Self::AlignRootsHeading => "align roots + heading",
        }
    }
}

/// A clip's stable name: its serial, kept while other clips come and go and when it reloads
/// in place. Commands address clips by it, never by their place in the list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId(pub u64);

/// One open clip and how it is shown.
#[derive(Clone)]
pub struct ClipView {
    /// The loaded motion.
    pub motion: Arc<Motion>,
    /// File name(s), for the clip list.
    pub name: String,
    /// Bone colour (linear RGBA); joints are drawn in a lighter shade.
    pub color: [f32; 4],
    /// 0..1, multiplies the colour's alpha.
    pub opacity: f32,
    /// Drawn or not.
    pub visible: bool,
    /// Shared-clock time of this clip's first frame (seconds; may be negative).
    pub offset_secs: f64,
    /// `display_from_file` and body size in metres (the file's units and up axis, or the
    /// user's choices).
    pub display: DisplayFrame,
    /// Placement from the layout, applied after `display`.
    pub placement: Mat4,
    /// Order of opening; a replacing load keeps only clips opened after it started.
    pub serial: u64,
    /// This frame's pose (file space) and joint positions (display space, after the placement).
    pub pose: Sampler,
    /// Height of the floor the clip stands on (display space, before the placement): the
    /// grid and the shadow sit there, not at the file's raw 0.
    pub floor_y: f32,
    /// For a body without height (a prop, a single joint): the root's path over the whole
    /// clip in display space before the placement, drawn so that the view is never empty.
    pub path: Vec<Vec3>,
    /// A capture's force-platform samples, computed once (empty without a capture).
    plates: Arc<[Result<Vec<PlateSample>, skelview_core::core::force_plates::PlateError>]>,
    /// A capture's largest residual (the top of the residual colours), found once.
    max_residual: f32,
    /// The clip as it was before its edits, drawn faintly behind it.
    pub ghost: Option<Ghost>,
    /// A capture's sticks between markers (joint indices) from its marker set's names.
    auto_links: Vec<(usize, usize)>,
    /// The sticks drawn: the marker set's with the user's added and removed ones.
    pub links: Vec<(usize, usize)>,
    /// Which joint is each humanoid bone (empty for a capture), found once.
    pub humanoid: skelview_core::retarget::BoneMap,
    /// Skeleton, meshes or both (both by default for a file with meshes).
    pub body: super::skins::Body,
    /// The meshes' GPU geometry and the vertices that frame the view, made once.
    pub skins: Option<ClipSkins>,
    /// The clip's own time of this frame's pose (morph weights follow it).
    pub posed_secs: f64,
}

/// A clip's meshes as drawn: the geometry uploaded once, a sample of vertices for framing.
#[derive(Clone)]
pub struct ClipSkins {
    /// One per mesh, in the motion's order.
    pub geometry: Arc<[Arc<skelview_draw::SkinGeometry>]>,
    /// Vertices posed on the CPU to frame the view.
    pub sample: Arc<skelview_core::core::mesh::MeshSet>,
}

impl ClipSkins {
    /// The drawn meshes of `set`, shared by every clip of the same meshes (a crowd of one
    /// character): its geometry and textures are made, uploaded and held once, not per clip
    /// (10,000 Foxes would otherwise hold 10,000 copies of a 4 MB texture).
    pub fn of(set: &Arc<skelview_core::core::mesh::MeshSet>) -> Self {
        type Made = Vec<(std::sync::Weak<skelview_core::core::mesh::MeshSet>, ClipSkins)>;
        static MADE: std::sync::Mutex<Made> = std::sync::Mutex::new(Vec::new());
        let make = || Self { geometry: super::skins::geometries(set), sample: Arc::new(super::skins::bounds_sample(set)) };
        let Ok(mut made) = MADE.lock() else { return make() };
        made.retain(|(s, _)| s.strong_count() > 0);
        if let Some((_, skins)) = made.iter().find(|(s, _)| s.upgrade().is_some_and(|s| Arc::ptr_eq(&s, set))) {
            return skins.clone();
        }
        let skins = make();
        made.push((Arc::downgrade(set), skins.clone()));
        skins
    }
}

/// An edited clip's source, posed at the same instant and drawn faintly: the edit's
/// before and after in one picture.
#[derive(Clone)]
pub struct Ghost {
    /// The source as a clip of its own (placed, timed and shown as the edited clip).
    pub clip: Box<ClipView>,
    /// The source's time of the edited clip's first frame (a trim moves it).
    pub source_offset_secs: f64,
}

/// Colour of a ghost's bones and joints (grey, faint).
pub const GHOST_COLOR: [f32; 4] = [0.62, 0.64, 0.70, 0.38];

/// Points sampled along a path: enough for a smooth line, bounded for long clips.
const PATH_SAMPLES: usize = 512;

/// The root's path over the clip when the body has no height (else nothing).
fn path_of(m: &Motion, display: Mat4) -> Vec<Vec3> {
    let metres = m.metres_per_raw_unit();
    let n = m.clip.num_frames();
    let Some(root) = m.skeleton.roots().next() else { return Vec::new() };
    if (m.source.body_height * metres).is_finite() && m.source.body_height * metres > 1e-3 || n < 2 {
        return Vec::new();
    }
    let k = n.min(PATH_SAMPLES);
    let mut s = Sampler::default();
    (0..k)
        .filter_map(|i| {
            let f = i * (n - 1) / (k - 1);
            s.positions(m, PoseAt::Frame(f), Interpolation::Nearest, display).get(root).copied().filter(|p| p.is_finite())
        })
        .collect()
}

impl ClipView {
    /// The clip's stable id.
    pub fn id(&self) -> ClipId {
        ClipId(self.serial)
    }

    /// A clip shown in the `index`-th palette colour, starting at shared time 0.
    pub fn new(motion: Arc<Motion>, index: usize) -> Self {
        let name = motion.source.paths.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect::<Vec<_>>();
        let name = if name.is_empty() { format!("clip {}", index + 1) } else { name.join(" + ") };
        let display = motion.display_with(None, None);
        let plates = motion.capture.as_ref().map_or_else(Vec::new, |c| skelview_core::core::force_plates::samples(c)).into();
        let max_residual = motion.capture.as_ref().map_or(0.0, |c| c.max_residual());
        let skins = motion.meshes.as_ref().map(ClipSkins::of);
        Self {
            plates,
            max_residual,
            path: path_of(&motion, display.display_from_file),
            floor_y: skelview_core::core::bounds::floor_y(&motion, display.display_from_file),
            display,
            motion,
            name,
            color: PALETTE[index % PALETTE.len()],
            opacity: 1.0,
            visible: true,
            offset_secs: 0.0,
            placement: Mat4::IDENTITY,
            serial: 0,
            pose: Sampler::default(),
            ghost: None,
            auto_links: Vec::new(),
            links: Vec::new(),
            humanoid: Default::default(),
            body: if skins.is_some() { super::skins::Body::Both } else { super::skins::Body::Skeleton },
            skins,
            posed_secs: 0.0,
        }
        .with_marker_links()
        .with_humanoid()
    }

    /// Shows what `old` showed of its character (a reload or an edit of the same clip), when
    /// both have meshes.
    pub fn keep_body_of(&mut self, old: &ClipView) {
        if self.skins.is_some() && old.skins.is_some() {
            self.body = old.body;
        }
    }

    /// A skeleton's humanoid bone map (not a capture's: markers are no bones).
    fn with_humanoid(mut self) -> Self {
        self.find_humanoid();
        self
    }

    /// Finds the humanoid bone map from the file, names and shape (a capture has none).
    pub fn find_humanoid(&mut self) {
        if self.motion.capture.is_none() {
            let s = &self.motion.source;
            self.humanoid = skelview_core::retarget::bone_map(&self.motion.skeleton, s.up_axis, s.format.joints_at_far_end);
        }
    }

    /// A capture's sticks from its markers' names.
    fn with_marker_links(mut self) -> Self {
        if self.motion.capture.is_some() {
            let names: Vec<&str> = self.motion.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
            self.auto_links = skelview_core::core::marker_links::marker_links(&names);
            self.links = self.auto_links.clone();
        }
        self
    }

    /// The marker set's sticks, before the user's choices.
    pub fn links_without_edits(&self) -> &[(usize, usize)] {
        &self.auto_links
    }

    /// The marker set's sticks with the user's on top: `added` pairs linked, `removed` not.
    pub fn set_link_edits(&mut self, added: &[(String, String)], removed: &[(String, String)]) {
        if self.motion.capture.is_none() {
            return;
        }
        let names: Vec<&str> = self.motion.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
        self.links = skelview_core::core::marker_links::edited_links(&names, &self.auto_links, added, removed);
    }

    /// Shows `source` faintly behind this clip, its time `source_offset_secs` at this clip's
    /// first frame (`None`: no ghost).
    pub fn set_ghost(&mut self, source: Option<(Arc<Motion>, f64)>) {
        self.ghost = source.map(|(m, source_offset_secs)| Ghost { clip: Box::new(ClipView::new(m, 0)), source_offset_secs });
    }

    /// Shows the clip in the user's unit and up-axis choices (`None`: the file's): recomputes
    /// `display` and what follows from it. The choices themselves are the viewer's document.
    pub fn set_overrides(&mut self, unit: Option<LengthUnit>, up: Option<UpAxis>) {
        self.display = self.motion.display_with(unit, up);
        let display = self.display.display_from_file;
        self.path = path_of(&self.motion, display);
        self.floor_y = skelview_core::core::bounds::floor_y(&self.motion, display);
    }

    /// The capture's force-platform samples (one list per platform, or why it has none).
    pub fn plate_samples(&self) -> &[Result<Vec<PlateSample>, skelview_core::core::force_plates::PlateError>] {
        &self.plates
    }

    /// A capture's largest residual (0 without one).
    pub fn max_residual(&self) -> f32 {
        self.max_residual
    }

    /// `display_from_file` followed by the layout's placement.
    pub fn world_from_file(&self) -> Mat4 {
        self.placement * self.display.display_from_file
    }

    /// Joint positions of this frame (display space, placed).
    pub fn positions(&self) -> &[Vec3] {
        &self.pose.positions
    }

    /// This frame's positions that frame the view: all but the points the source leaves out
    /// (a capture's model outputs far outside the body), and the corners of the meshes' box
    /// when they are drawn.
    pub fn framed_positions(&self) -> Vec<Vec3> {
        let left_out = &self.motion.source.left_out;
        let mut points: Vec<Vec3> = self.positions().iter().enumerate().filter(|(j, _)| !left_out.contains(j)).map(|(_, p)| *p).collect();
        if let Some((lo, hi)) = self.mesh_bounds() {
            points.extend([lo, hi]);
        }
        points
    }

    /// The drawn meshes of this frame as posed (display space, placed), from a sample of
    /// their vertices; `None` when none are drawn.
    pub fn mesh_bounds(&self) -> Option<(Vec3, Vec3)> {
        let skins = self.skins.as_ref().filter(|_| self.body.mesh())?;
        super::skins::mesh_bounds(&self.skin_frame(&skins.sample, &skins.geometry))
    }

    /// This frame's meshes to draw: `set` (the motion's, or a sample of it) posed now.
    pub fn skin_frame<'a>(
        &'a self,
        set: &'a skelview_core::core::mesh::MeshSet,
        geometry: &'a [Arc<skelview_draw::SkinGeometry>],
    ) -> super::skins::SkinFrame<'a> {
        super::skins::SkinFrame {
            set,
            geometry,
            pose: &self.pose.global,
            time_secs: self.posed_secs,
            world_from_file: self.world_from_file(),
        }
    }

    /// Shared-clock time of the last frame.
    pub fn end_secs(&self) -> f64 {
        self.offset_secs + self.motion.clip.last_frame_time_secs()
    }

    /// The clip's own time at shared time `t`, held at its first/last frame outside its extent.
    pub fn local_time(&self, t: f64) -> f64 {
        (t - self.offset_secs).clamp(0.0, self.motion.clip.last_frame_time_secs().max(0.0))
    }

    /// Samples the clip at shared time `t` into `pose` (no allocation once warm).
    pub fn pose_at(&mut self, t: f64, interpolation: Interpolation) {
        self.pose_with(PoseAt::Time(self.local_time(t)), interpolation);
    }

    /// Poses the clip (`Time` is the clip's own time) and places the joints; its ghost at
    /// the same instant of its source.
    pub fn pose_with(&mut self, at: PoseAt, interpolation: Interpolation) {
        let world_from_file = self.world_from_file();
        let m = &self.motion;
        self.pose.pose(&m.skeleton, &m.clip, at, interpolation);
        self.pose.place(world_from_file);
        self.posed_secs = match at {
            PoseAt::Time(t) => t,
            PoseAt::Frame(f) => f as f64 * m.clip.frame_time_secs,
            PoseAt::Rest => 0.0,
        };
        if let Some(g) = &mut self.ghost {
            let c = &mut g.clip;
            (c.display, c.placement, c.offset_secs) = (self.display, self.placement, self.offset_secs - g.source_offset_secs);
            let at = match at {
                PoseAt::Time(t) => PoseAt::Time((t + g.source_offset_secs).clamp(0.0, c.motion.clip.last_frame_time_secs().max(0.0))),
                PoseAt::Frame(0) => PoseAt::Time(g.source_offset_secs.max(0.0)),
                other => other,
            };
            c.pose_with(at, interpolation);
        }
    }

    /// Local pose of this frame.
    pub fn local(&self) -> &LocalPose {
        &self.pose.local
    }

    /// The rest pose (channels ignored) into `pose`.
    pub fn pose_rest(&mut self) {
        self.pose_with(PoseAt::Rest, Interpolation::Linear);
    }

    /// Root position and heading (radians about +Y) at the clip's first frame, in display
    /// space before the placement.
    fn first_root(&self) -> Option<(Vec3, f32)> {
        let m = &self.motion;
        let root = m.skeleton.roots().next()?;
        let mut s = Sampler::default();
        let global = s.pose(&m.skeleton, &m.clip, PoseAt::Frame(0), Interpolation::Linear);
        let display = self.display.display_from_file;
        let p = display.transform_point3(global.world_from_joint.get(root)?.translation.into());
        let forward = display.transform_vector3(global.world_from_joint[root].transform_vector3(Vec3::Z));
        Some((p, forward.x.atan2(forward.z)))
    }
}

/// Span of the shared clock: from 0 to the last clip's last frame (at least 0).
pub fn shared_end_secs(clips: &[ClipView]) -> f64 {
    clips.iter().map(ClipView::end_secs).fold(0.0, f64::max)
}

/// Offset that makes clip `i` start together with the reference (the first clip).
pub fn match_start(clips: &mut [ClipView], i: usize) {
    let Some(reference) = clips.first().map(|c| c.offset_secs) else { return };
    if let Some(c) = clips.get_mut(i) {
        c.offset_secs = reference;
    }
}

/// Sets every clip's `placement` for `layout`. `side_axis` is the screen's horizontal
/// direction on the ground when side by side was chosen.
pub fn apply_layout(clips: &mut [ClipView], layout: Layout, side_axis: Vec3) {
    let firsts: Vec<Option<(Vec3, f32)>> = clips.iter().map(ClipView::first_root).collect();
    let reference = firsts.first().copied().flatten();
    let axis = Vec3::new(side_axis.x, 0.0, side_axis.z).try_normalize().unwrap_or(Vec3::X);
    // Neighbours stand one body width apart: 60 % of the tallest body.
    let spacing = clips.iter().map(|c| c.display.size_m).fold(0.0, f32::max) * 0.6;
    let n = clips.len();
    for (i, (c, first)) in clips.iter_mut().zip(firsts).enumerate() {
        c.placement = match (layout, reference, first) {
            (Layout::Overlay, _, _) | (_, None, _) | (_, _, None) => Mat4::IDENTITY,
            (Layout::SideBySide, Some((r, _)), Some((p, _))) => {
                let slot = i as f32 - (n as f32 - 1.0) / 2.0;
                Mat4::from_translation(Vec3::new(r.x - p.x, 0.0, r.z - p.z) + axis * slot * spacing)
            }
            (Layout::AlignRoots, Some((r, _)), Some((p, _))) => Mat4::from_translation(r - p),
            (Layout::AlignRootsHeading, Some((r, ra)), Some((p, pa))) => {
                let rotate = Mat4::from_rotation_y(ra - pa);
                Mat4::from_translation(r - rotate.transform_point3(p)) * rotate
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

    fn sample() -> Arc<Motion> {
        let request = LoadRequest::single(
            &skelview_core::formats::bvh::Bvh,
            Source::Memory { name: "walk.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
        );
        Arc::new(formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap())
    }

    #[test]
    fn clips_of_one_character_share_its_drawn_meshes() {
        use skelview_core::core::mesh::{Bone, Mesh, MeshSet};
        let with_mesh = || {
            let mut m = (*sample()).clone();
            let bone = Bone { joint: Some(0), joint_from_mesh: glam::Mat4::IDENTITY };
            let mesh = Mesh::rigid("box", vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![0, 1, 2], bone);
            m.meshes = Some(Arc::new(MeshSet { meshes: vec![mesh], ..Default::default() }));
            Arc::new(m)
        };
        let (one, other) = (with_mesh(), with_mesh());
        let geometry = |m: &Arc<Motion>, k| ClipView::new(m.clone(), k).skins.unwrap().geometry;
        // A crowd of one character: one geometry (and texture) however many clips.
        assert!(Arc::ptr_eq(&geometry(&one, 0), &geometry(&one, 1)));
        assert!(!Arc::ptr_eq(&geometry(&one, 0), &geometry(&other, 0)), "another character's meshes are its own");
    }

    /// The sample resampled to `fps` (nearest frames), moved by `shift` in file units.
    fn resampled(fps: f64, shift: Vec3) -> Arc<Motion> {
        let m = sample();
        let n = ((m.clip.last_frame_time_secs() * fps).round() as usize) + 1;
        let cpf = m.clip.channels_per_frame();
        let mut values = Vec::with_capacity(n * cpf);
        for f in 0..n {
            let (a, _, _) = m.clip.locate(f as f64 / fps).unwrap();
            values.extend_from_slice(m.clip.frame(a));
        }
        let root = m.skeleton.roots().next().unwrap();
        let first = m.skeleton.joints()[root].first_channel;
        for f in 0..n {
            for k in 0..3 {
                values[f * cpf + first + k] += shift[k];
            }
        }
        let mut out = (*m).clone();
        out.clip = skelview_core::core::Clip::new(1.0 / fps, cpf, n, values);
        Arc::new(out)
    }

    #[test]
    fn shared_clock_keeps_clips_of_different_rates_in_sync() {
        let mut clips = vec![ClipView::new(resampled(30.0, Vec3::ZERO), 0), ClipView::new(resampled(120.0, Vec3::ZERO), 1)];
        clips[1].offset_secs = 0.5;
        assert!((shared_end_secs(&clips) - (0.5 + clips[1].motion.clip.last_frame_time_secs())).abs() < 1e-9);
        for t in [0.0, 0.5, 1.0, 1.5] {
            assert!((clips[1].local_time(t) - (t - 0.5).max(0.0)).abs() < 1e-9);
        }
        // At shared t = 1.5 the 120 fps clip shows its own 1.0 s, the same pose as the 30 fps clip at 1.0.
        clips[0].pose_at(1.0, Interpolation::Nearest);
        clips[1].pose_at(1.5, Interpolation::Nearest);
        for (a, b) in clips[0].pose.positions.iter().zip(&clips[1].pose.positions) {
            assert!((*a - *b).length() < 1e-4, "{a} {b}");
        }
        match_start(&mut clips, 1);
        assert_eq!(clips[1].offset_secs, 0.0);
        assert_eq!(clips[1].local_time(1.0), 1.0);
    }

    #[test]
    fn align_roots_makes_first_frame_roots_coincide() {
        let mut clips = vec![ClipView::new(sample(), 0), ClipView::new(resampled(60.0, Vec3::new(300.0, 20.0, -150.0)), 1)];
        let root = clips[0].motion.skeleton.roots().next().unwrap();
        for c in &mut clips {
            c.pose_at(0.0, Interpolation::Linear);
        }
        assert!((clips[0].pose.positions[root] - clips[1].pose.positions[root]).length() > 0.5, "shifted before aligning");
        for layout in [Layout::AlignRoots, Layout::AlignRootsHeading] {
            apply_layout(&mut clips, layout, Vec3::X);
            for c in &mut clips {
                c.pose_at(0.0, Interpolation::Linear);
            }
            assert!((clips[0].pose.positions[root] - clips[1].pose.positions[root]).length() < 1e-3, "{layout:?}");
        }
        apply_layout(&mut clips, Layout::Overlay, Vec3::X);
        assert_eq!(clips[1].placement, Mat4::IDENTITY);
    }

    #[test]
    fn side_by_side_spaces_by_body_size_along_the_screen_axis() {
        let mut clips: Vec<ClipView> = (0..3).map(|i| ClipView::new(sample(), i)).collect();
        apply_layout(&mut clips, Layout::SideBySide, Vec3::new(0.0, 0.3, -2.0));
        let root = clips[0].motion.skeleton.roots().next().unwrap();
        for c in &mut clips {
            c.pose_at(0.0, Interpolation::Linear);
        }
        let size = clips[0].display.size_m;
        let (a, b, c) = (clips[0].pose.positions[root], clips[1].pose.positions[root], clips[2].pose.positions[root]);
        assert!(((b - a) - Vec3::new(0.0, 0.0, -0.6 * size)).length() < 1e-3, "{a} {b}");
        assert!(((c - b) - (b - a)).length() < 1e-3, "evenly spaced");
        assert_eq!(clips[1].placement, Mat4::IDENTITY, "the middle one stays");
        assert_eq!(clips.iter().map(|c| c.color).collect::<Vec<_>>(), PALETTE[..3].to_vec());
    }
}
