//! The commands the UI sends, grouped by the state they change; [`super::Viewer::apply_commands`]
//! hands each to that state's owner once per frame. Clips are addressed by [`ClipId`], which
//! survives reordering and in-place reloads, never by their place in the list.

use std::path::PathBuf;

use glam::Vec2;

use super::Dialog;
use super::error::AppError;
use super::view::IssueSort;
use crate::tasks::TaskId;
use skelview_core::core::{Interpolation, LengthDisplay, LengthUnit, PlaybackCommand, UpAxis};
use skelview_core::qa::{Kind, Thresholds};
use skelview_scene::{ClipId, CompareMode, Layout, Overlays, PoseMode, Style, ViewPreset};

/// A change requested by the UI, applied once per frame by the owner of what it changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// The shared clock (owner: the session's playback; the rate is also a setting).
    Playback(PlaybackCommand),
    /// Files in (owner: the loads).
    Files(FilesCommand),
    /// One clip (owner: the session).
    Clip(ClipId, ClipEdit),
    /// One clip's recipe of edits (owner: the document; applied in the background).
    Edit(ClipId, super::EditCommand),
    /// How the clips are composed (owner: the scene).
    Scene(SceneEdit),
    /// The comparison of the reference with another clip (owner: the scene's comparison).
    Compare(CompareEdit),
    /// The camera (owner: the view).
    Camera(CameraEdit),
    /// The selected joint (owner: the view; the Measure tool picks what is selected).
    Selection(SelectionEdit),
    /// Which windows are open and what they list (owner: the view).
    Window(WindowEdit),
    /// What persists (owner: the settings and their store).
    Setting(SettingEdit),
    /// Background jobs: exports, dialogs, reads (owner: the jobs).
    Job(JobCommand),
    /// Show an error (a dialog thread found no dialog to show, a page's download failed).
    ShowError(AppError),
    /// Show a notice in the status bar (what the window finished: a download, a recording).
    Notify(String),
    /// Close the error message.
    DismissError,
    /// Stop this task, whatever it does (a load, an export).
    CancelTask(TaskId),
}

/// Files in.
#[derive(Clone, Debug, PartialEq)]
pub enum FilesCommand {
    /// Open files, replacing what is shown.
    Open(Vec<PathBuf>),
    /// Open files as more clips beside those shown.
    Add(Vec<PathBuf>),
    /// Open files held in memory (dropped on a web page): grouped as paths are (an AMC with
    /// its ASF), replacing what is shown unless `add`.
    OpenBytes {
        /// Names and contents.
        files: Vec<(PathBuf, std::sync::Arc<[u8]>)>,
        /// Beside the clips shown.
        add: bool,
    },
}

/// A change to one clip.
#[derive(Clone, Debug, PartialEq)]
pub enum ClipEdit {
    /// Close it.
    Remove,
    /// Make it the one the inspector and joint tree show.
    Activate,
    /// Shared-clock time (seconds) of its first frame.
    Offset(f64),
    /// Start it together with the reference (first) clip.
    MatchStart,
    /// How it is drawn: colour (linear RGBA), visible, opacity.
    Look {
        /// Linear RGBA.
        color: [f32; 4],
        /// Drawn at all.
        visible: bool,
        /// 0 (invisible) to 1.
        opacity: f32,
    },
    /// Show its skeleton, its meshes or both (a character's).
    Body(skelview_scene::Body),
    /// Reload it in place playing another of its file's takes (by name).
    Take(String),
    /// Its length unit (`None`: as detected or declared), remembered for its file.
    Unit(Option<LengthUnit>),
    /// Its up axis (`None`: as detected or declared), remembered for its file.
    UpAxis(Option<UpAxis>),
    /// Put this clip's motion on another clip's skeleton, as a new clip.
    RetargetOnto {
        /// The clip whose skeleton takes the motion.
        target: ClipId,
        /// Keep the feet planted while the source's stand.
        keep_feet: bool,
    },
    /// Open a file beside the clips and put this clip's motion on its skeleton once it is in.
    RetargetOntoFile {
        /// The file whose skeleton takes the motion.
        path: PathBuf,
        /// Keep the feet planted while the source's stand.
        keep_feet: bool,
    },
    /// Make a joint a humanoid bone (a VRM 1.0 bone name) or no bone (`None`), in the clip's
    /// bone map (what the retarget and the comparison pair by).
    HumanoidBone {
        /// The joint.
        joint: usize,
        /// The bone.
        bone: Option<String>,
    },
    /// Find the clip's humanoid bones again from the file, names and shape (the user's
    /// choices dropped).
    FindBonesAgain,
    /// Draw (`linked`) or take away the stick between two of a capture's markers (by name),
    /// remembered for its file.
    MarkerLink {
        /// One marker.
        a: String,
        /// The other.
        b: String,
        /// Drawn or not.
        linked: bool,
    },
    /// Reload it with another value of one of its format's read options (`bvh.positions`),
    /// remembered for its file.
    FormatOption {
        /// The option's key.
        key: &'static str,
        /// Its new value.
        value: String,
    },
}

/// How the clips are composed.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneEdit {
    /// Place the clips another way.
    Layout(Layout),
    /// Show another pose.
    PoseMode(PoseMode),
    /// Trails and onion skin.
    Overlays(Overlays),
}

/// A change to the comparison of the reference with another clip.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareEdit {
    /// Compare the reference with this clip.
    Other(ClipId),
    /// Positions or angles.
    Mode(CompareMode),
    /// Colour the compared clip's bones by their error.
    Heat(bool),
    /// For each joint of the reference, its partner in the compared clip.
    Partners(Vec<Option<usize>>),
    /// Drop the MNM name map.
    ClearNameMap,
}

/// A change to the camera.
#[derive(Clone, Debug, PartialEq)]
pub enum CameraEdit {
    /// Fit the whole clips in view (and stop following).
    FrameAll,
    /// A preset direction.
    Preset(ViewPreset),
    /// Orthographic (true) or perspective.
    Orthographic(bool),
    /// Keep the root in the centre of the view.
    FollowRoot(bool),
    /// Orbit by a drag (pixels).
    Orbit(Vec2),
    /// Pan by a drag (pixels) in a viewport of this height.
    Pan(Vec2, f32),
    /// Zoom by a factor towards a point (NDC) in a viewport of this aspect.
    Zoom(f32, Vec2, f32),
    /// The viewport's aspect and size in physical pixels (framing, screenshots).
    Viewport {
        /// Width over height.
        aspect: f32,
        /// Physical pixels.
        px: (u32, u32),
        /// Top-left corner in the window, physical pixels.
        origin: (u32, u32),
    },
}

/// A change to the selection.
#[derive(Clone, Debug, PartialEq)]
pub enum SelectionEdit {
    /// Select a joint of the active clip (or nothing).
    Joint(Option<usize>),
    /// Select what is under a point (NDC) in a viewport of this aspect.
    Pick(Vec2, f32),
    /// Go to a finding of the active clip's checks: seek to its first frame, select its
    /// joint and frame the camera on it.
    Finding {
        /// Frame of the active clip.
        frame: usize,
        /// The joint, if the finding has one.
        joint: Option<usize>,
    },
}

/// Which windows are open and what they list.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowEdit {
    /// The shortcut list.
    Help(bool),
    /// The Measure tool (clicked joints are then picked for it).
    Measure(bool),
    /// Forget the joints picked for the Measure tool.
    ClearMeasure,
    /// The Issues window.
    Issues(bool),
    /// The channel curves of the selected joint.
    Curves(bool),
    /// Show a capture's signal (analog, platform, model output) in the curves window, or
    /// (`None`) the selected joint's channels.
    Signal(Option<skelview_core::core::signals::Signal>),
    /// The joint tree's search text.
    JointFilter(String),
    /// The order of the findings list.
    IssueSort(IssueSort),
    /// List (true) or hide a kind of finding.
    IssueKind(Kind, bool),
    /// Thresholds being edited, not yet applied (`None`: the saved ones).
    ThresholdDraft(Option<Thresholds>),
    /// The Edits window.
    Edits(bool),
    /// The Bone map window.
    BoneMap(bool),
    /// The step the Edits window is putting together.
    EditDraft(Box<super::EditDraft>),
}

/// A change to what persists.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingEdit {
    /// What is drawn (bones, joints, axes, grid, shadow, world axes).
    Style(Style),
    /// Joint names in the viewport.
    ShowNames(bool),
    /// Nearest or linear sampling.
    Interpolation(Interpolation),
    /// The light theme.
    LightTheme(bool),
    /// The unit lengths are shown in.
    Lengths(LengthDisplay),
    /// Which side panels are shown (left, right).
    PanelsShown(bool, bool),
    /// The side panels' widths in points (left, right), as the user dragged them.
    PanelWidths(f32, f32),
    /// The window's size in points.
    WindowSize(u32, u32),
    /// The capture checks' thresholds.
    Thresholds(Thresholds),
    /// Back to the default settings (the window size and recent files stay).
    Reset,
}

impl SettingEdit {
    /// Whether the settings are written at once. The rest (sizes, toggles changed often) are
    /// written when the viewer closes, so that a run that is only looked at writes nothing.
    pub fn saves_now(&self) -> bool {
        matches!(self, Self::LightTheme(_) | Self::Lengths(_) | Self::PanelsShown(..) | Self::Thresholds(_) | Self::Reset)
    }
}

/// Background jobs.
#[derive(Clone, Debug, PartialEq)]
pub enum JobCommand {
    /// Ask the user with a file dialog (on a background thread); the answer is a command.
    Ask(Dialog),
    /// Start an export.
    Export(Export),
    /// Read this MNM name map for the comparison.
    ReadNameMap(PathBuf),
    /// Read this recipe (TOML) and make it the active clip's.
    ReadRecipe(PathBuf),
    /// Read this humanoid bone map (skelview's TOML or a Character Studio MNM) over the
    /// active clip's.
    ReadBoneMap(PathBuf),
}

/// What an export writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Export {
    /// Every frame's positions of the active clip as CSV.
    Positions(PathBuf),
    /// The Measure tool's values over the whole clip as CSV.
    Measures(PathBuf),
    /// The in/out range as numbered PNGs of this size into a folder.
    Frames(PathBuf, (u32, u32)),
    /// The in/out range as a video (`.gif` or `.mp4`) with the current camera.
    Video(PathBuf),
    /// A picture of the viewport: saved as PNG, or (`None`) put on the clipboard.
    Screenshot(Option<PathBuf>),
    /// The active clip, in the format the extension names (every writer).
    Motion(PathBuf),
    /// The active clip's recipe of edits, as TOML.
    Recipe(PathBuf),
    /// The active clip's humanoid bone map, as TOML (what `--map` reads).
    BoneMap(PathBuf),
}

/// The panels' outbox: they read the viewer through `&Viewer` and put what they want changed
/// here, so the type system keeps them from changing its state any other way. See
/// [`super::Viewer::ui`].
#[derive(Debug, Default)]
pub struct Commands(Vec<Command>);

impl Commands {
    /// The commands sent, in order.
    pub fn into_inner(self) -> Vec<Command> {
        self.0
    }

    /// Queues a command for the next update.
    pub fn send(&mut self, command: Command) {
        self.0.push(command);
    }
}
