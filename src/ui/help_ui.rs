//! F1: every shortcut.

use crate::app::{Command, Viewer};

/// The shortcut table shown by F1 (also in the README).
pub const SHORTCUTS: [(&str, &str); 18] = [
    ("Space", "play / pause"),
    ("Left / Right arrow", "step one frame"),
    ("Shift + Left / Right", "step ten frames"),
    ("Home / End", "first / last frame of the range"),
    ("Left drag", "orbit"),
    ("Middle drag, Shift + left drag", "pan"),
    ("Wheel", "zoom towards the cursor"),
    ("Click", "select the joint or bone under the cursor"),
    ("Esc", "clear the selection"),
    ("F", "frame all"),
    ("1 / 2 / 3 / 4", "front / side / top / perspective view"),
    ("O", "orthographic / perspective"),
    ("R", "follow the root"),
    ("I", "the Issues window (capture checks)"),
    ("M", "the Measure tool (clicked joints are measured)"),
    ("Ctrl + O", "open a file"),
    ("Drop a file", "open it"),
    ("F1", "this help"),
];

pub(super) fn help_ui(ctx: &egui::Context, viewer: &mut Viewer) {
    if !viewer.view.show_help {
        return;
    }
    let mut open = true;
    egui::Window::new("Shortcuts").open(&mut open).collapsible(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
            for (key, what) in SHORTCUTS {
                ui.label(egui::RichText::new(key).strong());
                ui.label(what);
                ui.end_row();
            }
        });
    });
    if !open {
        viewer.commands.push(Command::ToggleHelp);
    }
}
