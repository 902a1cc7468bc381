//! How the scene is looked at: the camera, the selection, and which windows are open.
//! Plain data; commands change it.

use skelview_scene::OrbitCamera;

/// What the command line asked of the clip that arrives first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadEffect {
    /// Select this joint (`--select`).
    Select(String),
    /// Open the Measure tool on these joints (`--measure`), once the active clip is in.
    Measure(Vec<String>),
    /// Put this clip's motion on the next clip to arrive (Retarget onto a file).
    RetargetOnto {
        /// The clip whose motion moves.
        source: skelview_scene::ClipId,
        /// Keep the feet planted.
        keep_feet: bool,
    },
}

/// What the camera is asked to do when the next picture is composed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewEffect {
    /// Frame the figures as posed (half the view's height).
    FramePose,
    /// Fit the whole clips' extent (F, "frame all").
    FrameAll,
    /// Fit around this joint of the active clip.
    FrameJoint(usize),
    /// Choose follow mode by whether the clips travel.
    ChooseFollow,
}

/// The view's state.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The camera.
    pub camera: OrbitCamera,
    /// Selected joint of the active clip.
    pub selected: Option<usize>,
    /// What the command line asked of the first clip to arrive (`--select`, `--measure`),
    /// drained by the arrival that applies it.
    on_load: Vec<LoadEffect>,
    /// Keep the root centred.
    pub follow_root: bool,
    /// Shortcut overlay visible.
    pub show_help: bool,
    /// The channel-curves window is open.
    pub show_curves: bool,
    /// A capture's signal the curves window shows instead of the selected joint's channels.
    pub signal: Option<skelview_core::core::signals::Signal>,
    /// Joint tree search text.
    pub joint_filter: String,
    /// Aspect of the viewport, for framing.
    pub aspect: f32,
    /// Size of the viewport in physical pixels, for screenshots.
    pub viewport_px: (u32, u32),
    /// Top-left corner of the viewport in the window, physical pixels (a web page reports it).
    pub viewport_origin_px: (u32, u32),
    /// What the camera is asked to do when the next picture is composed, in order (queued by
    /// commands and loads with [`View::queue`], drained by that one step).
    pending: Vec<ViewEffect>,
    /// The Issues window.
    pub issues: IssuesView,
    /// The Measure tool.
    pub measure: super::measure::MeasureTool,
    /// The Edits window.
    pub edits: EditsView,
    /// The Bone map window is open.
    pub bone_map_open: bool,
}

/// The Edits window: open or not, and the step its form is putting together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditsView {
    /// The window is open.
    pub open: bool,
    /// The step being put together.
    pub draft: super::EditDraft,
}

/// How the viewer starts, besides its files (viewer options of the command line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Start {
    /// Joint to select once the first file is in.
    pub select: Option<String>,
    /// Open the channel-curves window.
    pub curves: bool,
    /// Open the Measure tool on these joints (one to three) once the first file is in.
    pub measure: Vec<String>,
}

/// How the capture-check findings are listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IssuesView {
    /// The window is open.
    pub open: bool,
    /// Kinds not listed, marked or highlighted.
    pub hidden: Vec<skelview_core::qa::Kind>,
    /// Order of the list.
    pub sort: IssueSort,
    /// Thresholds being edited, not yet applied.
    pub draft: Option<skelview_core::qa::Thresholds>,
}

/// Order of the findings list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IssueSort {
    /// By first frame.
    #[default]
    Frame,
    /// By kind, then frame.
    Kind,
    /// By joint name, then frame.
    Joint,
    /// Largest value over its threshold first.
    Severity,
}

impl Default for View {
    fn default() -> Self {
        Self {
            camera: OrbitCamera::default(),
            selected: None,
            on_load: Vec::new(),
            follow_root: false,
            show_help: false,
            show_curves: false,
            signal: None,
            joint_filter: String::new(),
            aspect: 16.0 / 9.0,
            viewport_px: (1280, 720),
            viewport_origin_px: (0, 0),
            pending: vec![ViewEffect::FramePose, ViewEffect::ChooseFollow],
            issues: IssuesView::default(),
            measure: Default::default(),
            edits: EditsView::default(),
            bone_map_open: false,
        }
    }
}

impl View {
    /// Opens and closes windows and changes what they list.
    pub fn apply_window(&mut self, edit: super::WindowEdit) {
        use super::WindowEdit as W;
        match edit {
            W::Help(open) => self.show_help = open,
            W::Measure(open) => {
                self.measure.open = open;
                // Opening the tool measures what is selected.
                if let (true, Some(j)) = (open && self.measure.picks.is_empty(), self.selected) {
                    self.measure.pick(j);
                }
            }
            W::ClearMeasure => self.measure.picks.clear(),
            W::Issues(open) => self.issues.open = open,
            W::Curves(open) => self.show_curves = open,
            W::Signal(signal) => self.signal = signal,
            W::JointFilter(text) => self.joint_filter = text,
            W::IssueSort(sort) => self.issues.sort = sort,
            W::IssueKind(kind, listed) => {
                self.issues.hidden.retain(|k| *k != kind);
                if !listed {
                    self.issues.hidden.push(kind);
                }
            }
            W::ThresholdDraft(draft) => self.issues.draft = draft,
            W::Edits(open) => self.edits.open = open,
            W::BoneMap(open) => self.bone_map_open = open,
            W::EditDraft(draft) => self.edits.draft = *draft,
        }
    }
}

impl View {
    /// Asks for `effect` when the next picture is composed.
    pub fn queue(&mut self, effect: ViewEffect) {
        if !self.pending.contains(&effect) {
            self.pending.push(effect);
        }
    }

    /// What is asked for the next picture, in order.
    pub fn pending(&self) -> &[ViewEffect] {
        &self.pending
    }

    /// Takes what is asked for the next picture (its one consumer: `Viewer::update`).
    pub(super) fn take_pending(&mut self) -> Vec<ViewEffect> {
        std::mem::take(&mut self.pending)
    }

    /// Asks for `effect` when a clip arrives.
    pub fn queue_on_load(&mut self, effect: LoadEffect) {
        self.on_load.push(effect);
    }

    /// What is asked of the next clip to arrive.
    pub fn on_load(&self) -> &[LoadEffect] {
        &self.on_load
    }

    /// Takes what is asked of an arriving clip: every request when it is the active clip,
    /// else the selection only (the Measure tool waits for the active clip).
    /// Drops the retargets waiting for a file that did not load.
    pub(super) fn drop_pending_retargets(&mut self) {
        self.on_load.retain(|e| !matches!(e, LoadEffect::RetargetOnto { .. }));
    }

    pub(super) fn take_on_load(&mut self, active: bool) -> Vec<LoadEffect> {
        let (now, later) = std::mem::take(&mut self.on_load)
            .into_iter()
            .partition(|e| active || matches!(e, LoadEffect::Select(_) | LoadEffect::RetargetOnto { .. }));
        self.on_load = later;
        now
    }

    /// Takes the framing asked for, leaving the rest (a preview frames, and nothing else).
    pub(super) fn take_framing(&mut self) -> bool {
        let before = self.pending.len();
        self.pending.retain(|e| !matches!(e, ViewEffect::FramePose | ViewEffect::FrameAll));
        self.pending.len() != before
    }
}
