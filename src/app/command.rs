//! The commands the UI pushes; [`super::Viewer::apply_commands`] applies them once per frame.

use std::path::PathBuf;

use glam::Vec2;

use super::Dialog;
use skelview_core::core::{Interpolation, LengthUnit, PlaybackCommand, PositionRule, UpAxis};
use skelview_render::scene::{CompareMode, Layout, Overlays, PoseMode, ViewPreset};

/// A change requested by the UI, applied once per frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Playback change.
    Playback(PlaybackCommand),
    /// Open files (replacing what is shown).
    Open(Vec<PathBuf>),
    /// Open files as more clips beside those shown.
    Add(Vec<PathBuf>),
    /// Close clip `i`.
    RemoveClip(usize),
    /// Make clip `i` the one the inspector and joint tree show.
    SetActiveClip(usize),
    /// Shared-clock time (seconds) of clip `i`'s first frame.
    SetClipOffset(usize, f64),
    /// Start clip `i` together with the reference (first) clip.
    MatchStart(usize),
    /// Place the clips another way.
    SetLayout(Layout),
    /// Select a joint (or nothing).
    Select(Option<usize>),
    /// Show another pose.
    SetPoseMode(PoseMode),
    /// Nearest or linear sampling.
    SetInterpolation(Interpolation),
    /// Fit the skeleton in view.
    FrameAll,
    /// Camera preset.
    View(ViewPreset),
    /// Perspective ↔ orthographic.
    ToggleOrtho,
    /// Keep the root in the centre of the view.
    ToggleFollowRoot,
    /// Stop the running loads.
    CancelLoad,
    /// Orbit by a drag (pixels).
    Orbit(Vec2),
    /// Pan by a drag (pixels) in a viewport of this height.
    Pan(Vec2, f32),
    /// Zoom by a factor towards a point (NDC) in a viewport of this aspect.
    Zoom(f32, Vec2, f32),
    /// Select what is under a point (NDC) in a viewport of this aspect.
    Pick(Vec2, f32),
    /// Show or hide the shortcut list.
    ToggleHelp,
    /// Open or close the Measure tool (clicked joints are then picked for it).
    ToggleMeasure,
    /// Forget the joints picked for the Measure tool.
    ClearMeasure,
    /// Write the Measure tool's values over the whole clip as CSV.
    ExportMeasures(PathBuf),
    /// Close the error message.
    DismissError,
    /// Show an error message (from the UI: no file dialog available).
    ShowError(String),
    /// The active clip's length unit (`None`: as detected or declared), remembered per file.
    SetUnit(Option<LengthUnit>),
    /// The active clip's up axis (`None`: as detected or declared), remembered per file.
    SetUpAxis(Option<UpAxis>),
    /// Reload the active BVH with another position-channel rule, remembered per file.
    SetPositionRule(PositionRule),
    /// Write the settings (after the UI edited them in place).
    SaveSettings,
    /// Back to the default settings (the window size stays).
    ResetSettings,
    /// Export every frame's positions of the active clip as CSV.
    ExportPositions(PathBuf),
    /// Render the in/out range as numbered PNGs of this size into a folder.
    ExportFrames(PathBuf, (u32, u32)),
    /// Render the in/out range into a video (`.gif` or `.mp4`) with the current camera.
    ExportVideo(PathBuf),
    /// Put a picture of the viewport on the clipboard.
    CopyScreenshot,
    /// Save a picture of the viewport as PNG.
    SaveScreenshot(PathBuf),
    /// Stop the running export.
    CancelJob,
    /// Use this MNM name map in the comparison.
    LoadNameMap(PathBuf),
    /// Ask the user with a file dialog (on a background thread); the answer is a command.
    Ask(Dialog),
    /// Reload clip `i` in place playing another of its file's takes (by name).
    SetTake(usize, String),
    /// How clip `i` is drawn: colour (linear RGBA), visible, opacity.
    SetClipLook(usize, [f32; 4], bool, f32),
    /// A change to the comparison.
    Compare(CompareEdit),
    /// Trails and onion skin.
    SetOverlays(Overlays),
    /// Go to a finding of the active clip's checks: seek to its first frame, select its
    /// joint and frame the camera on it.
    ShowFinding {
        /// Frame of the active clip.
        frame: usize,
        /// The joint, if the finding has one.
        joint: Option<usize>,
    },
}

/// A change to the comparison of the reference with another clip.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareEdit {
    /// Compare the reference with clip `i`.
    Other(usize),
    /// Positions or angles.
    Mode(CompareMode),
    /// Colour the compared clip's bones by their error.
    Heat(bool),
    /// For each joint of the reference, its partner in the compared clip.
    Partners(Vec<Option<usize>>),
    /// Drop the MNM name map.
    ClearNameMap,
}
