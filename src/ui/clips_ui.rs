//! The clip list: one row per open clip (colour, visibility, name, opacity, time offset,
//! match start, remove) and the layout choice.

use crate::app::{Command, Viewer};
use crate::scene::Layout;

/// Lays out the clip list; edits of colour, opacity and visibility apply directly (they
/// only change how the next frame is drawn), the rest goes through commands.
pub fn clips_ui(ui: &mut egui::Ui, viewer: &mut Viewer) {
    ui.horizontal(|ui| {
        ui.heading("Clips");
        if ui.button("Add…").on_hover_text("Open more files beside these (or drop them with Shift held)").clicked() {
            super::add_dialog(viewer);
        }
    });
    if viewer.session.scene.clips.is_empty() {
        ui.label("(nothing loaded)");
    }
    let mut commands = Vec::new();
    let active = viewer.session.active;
    for (i, clip) in viewer.session.scene.clips.iter_mut().enumerate() {
        ui.push_id(i, |ui| {
            ui.horizontal(|ui| {
                let mut rgba = egui::Rgba::from_rgba_unmultiplied(clip.color[0], clip.color[1], clip.color[2], clip.color[3]);
                if egui::color_picker::color_edit_button_rgba(ui, &mut rgba, egui::color_picker::Alpha::Opaque).changed() {
                    clip.color = [rgba.r(), rgba.g(), rgba.b(), 1.0];
                }
                ui.checkbox(&mut clip.visible, "").on_hover_text("Visible");
                let name = if i == 0 { format!("{} (reference)", clip.name) } else { clip.name.clone() };
                if ui.selectable_label(i == active, name).on_hover_text("Show this clip in the inspector and joint tree").clicked() {
                    commands.push(Command::SetActiveClip(i));
                }
                if ui.small_button("x").on_hover_text("Close this clip").clicked() {
                    commands.push(Command::RemoveClip(i));
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.add_space(22.0);
                let label = ui.label("offset s");
                let mut offset = clip.offset_secs;
                let min = -clip.motion.clip.last_frame_time_secs();
                let drag = egui::DragValue::new(&mut offset).speed(0.01).range(min..=1e6).max_decimals(4);
                if ui.add(drag).labelled_by(label.id).on_hover_text("Shared-clock time of this clip's first frame").changed() {
                    commands.push(Command::SetClipOffset(i, offset));
                }
                if ui.add_enabled(i > 0, egui::Button::new("match start").small()).on_hover_text("Start with the reference clip").clicked()
                {
                    commands.push(Command::MatchStart(i));
                }
                let label = ui.label("opacity");
                ui.add(egui::DragValue::new(&mut clip.opacity).speed(0.01).range(0.05..=1.0).max_decimals(2)).labelled_by(label.id);
            });
        });
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.label("layout");
        for layout in Layout::ALL {
            if ui.radio(viewer.session.scene.layout == layout, layout.name()).clicked() && viewer.session.scene.layout != layout {
                commands.push(Command::SetLayout(layout));
            }
        }
    });
    for (i, loading) in viewer.session.loads.iter().filter(|l| !l.replace).enumerate() {
        ui.push_id(("adding", i), |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("Loading {}", loading.name));
                ui.add(egui::ProgressBar::new(loading.progress).desired_width(80.0));
            });
        });
    }
    viewer.commands.extend(commands);
}
