//! F1: every shortcut and gesture, from the action table.

use crate::app::actions::{ACTIONS, GESTURES};
use crate::app::{Command, Commands, Viewer, WindowEdit};

pub(super) fn help_ui(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    if !viewer.view.show_help {
        return;
    }
    let mut open = true;
    egui::Window::new("Shortcuts").open(&mut open).collapsible(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
            let keyed = ACTIONS.iter().filter(|a| !a.keys.is_empty()).map(|a| (a.keys, a.help));
            for (key, what) in keyed.chain(GESTURES.iter().copied()) {
                ui.label(egui::RichText::new(key).strong());
                ui.label(what);
                ui.end_row();
            }
        });
    });
    if !open {
        out.send(Command::Window(WindowEdit::Help(false)));
    }
}
