//! The one table of user actions: each with its label, its key and its help line. The menus,
//! the key handling and the F1 list are all made from it, so a shortcut is written once.

use super::{CameraEdit, Command, Dialog, FilesCommand, JobCommand, SelectionEdit, Viewer, WindowEdit};
use skelview_core::core::PlaybackCommand;
use skelview_scene::ViewPreset;

/// A key an action can be bound to (the UI maps it to its toolkit's key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Key {
    Space,
    Left,
    Right,
    Home,
    End,
    Escape,
    F1,
    E,
    F,
    I,
    M,
    O,
    R,
    Z,
    Num1,
    Num2,
    Num3,
    Num4,
}

/// A key with its modifiers; an action fires only on exactly these modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shortcut {
    /// The key.
    pub key: Key,
    /// Shift held.
    pub shift: bool,
    /// Ctrl (Cmd on macOS) held.
    pub command: bool,
}

const fn key(key: Key) -> Option<Shortcut> {
    Some(Shortcut { key, shift: false, command: false })
}

/// Every user action that has a label, a key or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ActionId {
    PlayPause,
    StepBack,
    StepForward,
    StepBack10,
    StepForward10,
    First,
    Last,
    ClearSelection,
    FrameAll,
    Front,
    Side,
    Top,
    Perspective,
    Orthographic,
    FollowRoot,
    Issues,
    Measure,
    Open,
    AddFile,
    Undo,
    Redo,
    Edits,
    BoneMap,
    ExportPositions,
    ExportVideo,
    SaveScreenshot,
    LightTheme,
    Help,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Action {
    /// Which action.
    pub id: ActionId,
    /// Menu text, without the key.
    pub label: &'static str,
    /// Its key, if any.
    pub shortcut: Option<Shortcut>,
    /// The key as shown in menus and the F1 list.
    pub keys: &'static str,
    /// The F1 list's line.
    pub help: &'static str,
}

/// Every action, in the F1 list's order.
pub const ACTIONS: &[Action] = &[
    Action { id: ActionId::PlayPause, label: "Play / pause", shortcut: key(Key::Space), keys: "Space", help: "play / pause" },
    Action { id: ActionId::StepBack, label: "Step back", shortcut: key(Key::Left), keys: "Left", help: "step one frame back" },
    Action { id: ActionId::StepForward, label: "Step forward", shortcut: key(Key::Right), keys: "Right", help: "step one frame forward" },
    Action {
        id: ActionId::StepBack10,
        label: "Step back 10",
        shortcut: Some(Shortcut { key: Key::Left, shift: true, command: false }),
        keys: "Shift+Left",
        help: "step ten frames back",
    },
    Action {
        id: ActionId::StepForward10,
        label: "Step forward 10",
        shortcut: Some(Shortcut { key: Key::Right, shift: true, command: false }),
        keys: "Shift+Right",
        help: "step ten frames forward",
    },
    Action { id: ActionId::First, label: "First frame", shortcut: key(Key::Home), keys: "Home", help: "first frame of the range" },
    Action { id: ActionId::Last, label: "Last frame", shortcut: key(Key::End), keys: "End", help: "last frame of the range" },
    Action { id: ActionId::ClearSelection, label: "Clear selection", shortcut: key(Key::Escape), keys: "Esc", help: "clear the selection" },
    Action { id: ActionId::FrameAll, label: "Frame all", shortcut: key(Key::F), keys: "F", help: "frame all (the whole clips)" },
    Action { id: ActionId::Front, label: "Front", shortcut: key(Key::Num1), keys: "1", help: "front view" },
    Action { id: ActionId::Side, label: "Side", shortcut: key(Key::Num2), keys: "2", help: "side view" },
    Action { id: ActionId::Top, label: "Top", shortcut: key(Key::Num3), keys: "3", help: "top view" },
    Action { id: ActionId::Perspective, label: "Perspective", shortcut: key(Key::Num4), keys: "4", help: "perspective view" },
    Action { id: ActionId::Orthographic, label: "Orthographic", shortcut: key(Key::O), keys: "O", help: "orthographic / perspective" },
    Action { id: ActionId::FollowRoot, label: "Follow root", shortcut: key(Key::R), keys: "R", help: "follow the root" },
    Action { id: ActionId::Issues, label: "Issues", shortcut: key(Key::I), keys: "I", help: "the Issues window (capture checks)" },
    Action {
        id: ActionId::Measure,
        label: "Measure",
        shortcut: key(Key::M),
        keys: "M",
        help: "the Measure tool (clicked joints are measured)",
    },
    Action {
        id: ActionId::Open,
        label: "Open…",
        shortcut: Some(Shortcut { key: Key::O, shift: false, command: true }),
        keys: "Ctrl+O",
        help: "open files",
    },
    Action { id: ActionId::AddFile, label: "Add file…", shortcut: None, keys: "", help: "add files beside the clips shown" },
    Action {
        id: ActionId::Undo,
        label: "Undo",
        shortcut: Some(Shortcut { key: Key::Z, shift: false, command: true }),
        keys: "Ctrl+Z",
        help: "undo the last edit of the active clip (a step, an event)",
    },
    Action {
        id: ActionId::Redo,
        label: "Redo",
        shortcut: Some(Shortcut { key: Key::Z, shift: true, command: true }),
        keys: "Ctrl+Shift+Z",
        help: "redo what was undone",
    },
    Action { id: ActionId::Edits, label: "Edits", shortcut: key(Key::E), keys: "E", help: "the Edits window (clean-up steps)" },
    Action {
        id: ActionId::BoneMap,
        label: "Bone map",
        shortcut: None,
        keys: "",
        help: "the Bone map window: the active clip's humanoid bones, to change, save and load",
    },
    Action {
        id: ActionId::ExportPositions,
        label: "Export positions…",
        shortcut: None,
        keys: "",
        help: "every joint's place at every frame of the active clip (metres, Y-up): CSV, or a NumPy array of frames × joints × 3 for a .npy name",
    },
    Action {
        id: ActionId::ExportVideo,
        label: "Export video (in/out range)…",
        shortcut: None,
        keys: "",
        help: "the in/out range as an animated GIF (or MP4 when ffmpeg is installed; a GIF download in a browser)",
    },
    Action { id: ActionId::SaveScreenshot, label: "Save screenshot…", shortcut: None, keys: "", help: "the viewport as a PNG" },
    Action { id: ActionId::LightTheme, label: "Light theme", shortcut: None, keys: "", help: "light or dark theme" },
    Action { id: ActionId::Help, label: "Help", shortcut: key(Key::F1), keys: "F1", help: "this list" },
];

/// Mouse gestures and drops, for the F1 list (they have no menu entry).
pub const GESTURES: &[(&str, &str)] = &[
    ("Left drag", "orbit"),
    ("Middle drag, Shift + left drag", "pan"),
    ("Wheel", "zoom towards the cursor"),
    ("Click", "select the joint or bone under the cursor"),
    ("Drop a file", "open it"),
    ("Shift or Ctrl + drop", "add it as another clip"),
];

impl ActionId {
    /// The action named `name`, as its id is spelled (`ExportVideo`): the page's
    /// `skelview.action(name)` reaches the menus' commands by name, not by where they are drawn.
    pub fn named(name: &str) -> Option<Self> {
        ACTIONS.iter().map(|a| a.id).find(|id| format!("{id:?}") == name)
    }

    /// Its row of the table.
    pub fn action(self) -> &'static Action {
        ACTIONS.iter().find(|a| a.id == self).expect("every action has a row")
    }

    /// Its menu text: the label and, when it has one, the key.
    pub fn menu_label(self) -> String {
        let a = self.action();
        if a.keys.is_empty() { a.label.to_owned() } else { format!("{} ({})", a.label, a.keys) }
    }

    /// The command it sends in the viewer's present state (toggles read what is shown now).
    pub fn command(self, v: &Viewer) -> Command {
        let play = Command::Playback;
        match self {
            Self::PlayPause => play(PlaybackCommand::TogglePlay),
            Self::StepBack => play(PlaybackCommand::Step(-1)),
            Self::StepForward => play(PlaybackCommand::Step(1)),
            Self::StepBack10 => play(PlaybackCommand::Step(-10)),
            Self::StepForward10 => play(PlaybackCommand::Step(10)),
            Self::First => play(PlaybackCommand::Home),
            Self::Last => play(PlaybackCommand::End),
            Self::ClearSelection => Command::Selection(SelectionEdit::Joint(None)),
            Self::FrameAll => Command::Camera(CameraEdit::FrameAll),
            Self::Front => Command::Camera(CameraEdit::Preset(ViewPreset::Front)),
            Self::Side => Command::Camera(CameraEdit::Preset(ViewPreset::Side)),
            Self::Top => Command::Camera(CameraEdit::Preset(ViewPreset::Top)),
            Self::Perspective => Command::Camera(CameraEdit::Preset(ViewPreset::Perspective)),
            Self::Orthographic => Command::Camera(CameraEdit::Orthographic(!v.view.camera.orthographic)),
            Self::FollowRoot => Command::Camera(CameraEdit::FollowRoot(!v.view.follow_root)),
            Self::Issues => Command::Window(WindowEdit::Issues(!v.view.issues.open)),
            Self::Measure => Command::Window(WindowEdit::Measure(!v.view.measure.open)),
            Self::Open => Command::Job(JobCommand::Ask(Dialog::Open)),
            Self::AddFile => Command::Job(JobCommand::Ask(Dialog::Add)),
            Self::Help => Command::Window(WindowEdit::Help(!v.view.show_help)),
            Self::Undo => Command::Edit(active(v), super::EditCommand::Undo),
            Self::Redo => Command::Edit(active(v), super::EditCommand::Redo),
            Self::Edits => Command::Window(WindowEdit::Edits(!v.view.edits.open)),
            Self::BoneMap => Command::Window(WindowEdit::BoneMap(!v.view.bone_map_open)),
            Self::ExportPositions => Command::Job(JobCommand::Ask(Dialog::ExportPositions)),
            Self::ExportVideo => Command::Job(JobCommand::Ask(Dialog::ExportVideo)),
            Self::SaveScreenshot => Command::Job(JobCommand::Ask(Dialog::SaveScreenshot)),
            Self::LightTheme => Command::Setting(super::SettingEdit::LightTheme(!v.settings.light_theme)),
        }
    }
}

/// The active clip's id (no clip has the default's place in an empty scene).
fn active(v: &Viewer) -> skelview_scene::ClipId {
    v.session.active_clip().map_or_else(Default::default, |c| c.id())
}

/// Files dropped on the window: opened, or added beside the clips shown.
pub fn dropped(paths: Vec<std::path::PathBuf>, add: bool) -> Command {
    Command::Files(if add { FilesCommand::Add(paths) } else { FilesCommand::Open(paths) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortcuts_are_unique_and_every_action_has_one_row() {
        let mut seen = std::collections::HashSet::new();
        for a in ACTIONS.iter().filter_map(|a| a.shortcut) {
            assert!(seen.insert(a), "{a:?} is bound twice");
        }
        let mut ids = std::collections::HashSet::new();
        for a in ACTIONS {
            assert!(ids.insert(a.id), "{:?} has two rows", a.id);
            assert_eq!(a.keys.is_empty(), a.shortcut.is_none(), "{:?}: its key is shown exactly when it has one", a.id);
            assert_eq!(ActionId::named(&format!("{:?}", a.id)), Some(a.id), "reached by its name");
        }
        assert_eq!(ActionId::named("NoSuchAction"), None);
    }
}
