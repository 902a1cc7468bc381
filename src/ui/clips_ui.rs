//! The clip list: one row per open clip (colour, visibility, name, opacity, time offset,
//! match start, remove) and the layout choice.

use crate::app::{ClipEdit, Command, Commands, SceneEdit, Viewer};
use skelview_scene::{ClipView, Layout};

/// "on…": put clip `i`'s motion on another open skeleton or a file's, as a new clip (captures
/// have no bones to put on, nor to take from).
fn retarget_ui(ui: &mut egui::Ui, viewer: &Viewer, i: usize, commands: &mut Vec<Command>) {
    let clips = &viewer.session.scene.clips;
    let skeleton = |c: &skelview_scene::ClipView| c.motion.capture.is_none();
    // With one skeleton open, a file can still be the target (not in a browser: no paths).
    if !skeleton(&clips[i]) || (super::WEB && clips.iter().filter(|c| skeleton(c)).count() < 2) {
        return;
    }
    let label = ui.label("on");
    egui::ComboBox::new(("retarget", i), "")
        .selected_text("…")
        .width(36.0)
        .show_ui(ui, |ui| {
            ui.label("Put this motion on the skeleton of:");
            for c in clips.iter().enumerate().filter(|(k, c)| *k != i && skeleton(c)).map(|(_, c)| c) {
                if ui.selectable_label(false, &c.name).on_hover_text("Retarget through the humanoid bone maps, as a new clip").clicked() {
                    commands.push(Command::Clip(clips[i].id(), ClipEdit::RetargetOnto { target: c.id(), keep_feet: false }));
                }
                if ui
                    .selectable_label(false, format!("{}, feet planted", c.name))
                    .on_hover_text("The same, with the feet held still while the source's stand (leg IK)")
                    .clicked()
                {
                    commands.push(Command::Clip(clips[i].id(), ClipEdit::RetargetOnto { target: c.id(), keep_feet: true }));
                }
            }
            if !super::WEB {
                for (label, keep_feet) in [("a file…", false), ("a file…, feet planted", true)] {
                    if ui
                        .selectable_label(false, label)
                        .on_hover_text("Open a character's file beside the clips and retarget onto it")
                        .clicked()
                    {
                        let dialog = crate::app::Dialog::RetargetOntoFile { source: clips[i].id(), keep_feet };
                        commands.push(Command::Job(crate::app::JobCommand::Ask(dialog)));
                    }
                }
            }
            ui.separator();
            if ui.selectable_label(false, "Bone maps…").on_hover_text("Which joint is which humanoid bone, clip by clip").clicked() {
                commands.push(Command::Window(crate::app::WindowEdit::BoneMap(true)));
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text("Put this clip's motion on another clip's skeleton (retarget), as a new clip");
}

/// Lays out the clip list; every edit goes through a command.
pub fn clips_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    ui.horizontal(|ui| {
        ui.heading("Clips");
        if ui.button("Add…").on_hover_text("Open more files beside these (or drop them with Shift held)").clicked() {
            super::add_dialog(viewer, out);
        }
    });
    if viewer.session.scene.clips.is_empty() {
        ui.label("(nothing loaded)");
    }
    let mut commands = Vec::new();
    let active = viewer.session.active;
    for (i, clip) in viewer.session.scene.clips.iter().enumerate() {
        ui.push_id(clip.id(), |ui| clip_ui(ui, viewer, i, i == active, &mut commands));
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.label("layout");
        for layout in Layout::ALL {
            if ui.radio(viewer.session.scene.layout == layout, layout.name()).clicked() && viewer.session.scene.layout != layout {
                commands.push(Command::Scene(SceneEdit::Layout(layout)));
            }
        }
    });
    for (i, loading) in viewer.session.loads.iter().filter(|l| !l.replace).enumerate() {
        ui.push_id(("adding", i), |ui| {
            ui.horizontal(|ui| {
                ui.label(format!("Loading {}", loading.name));
                ui.add(egui::ProgressBar::new(loading.task.fraction()).desired_width(80.0));
            });
        });
    }
    for c in commands {
        out.send(c);
    }
}

/// Clip `i`'s rows: colour, visibility, name (`active`: shown in the inspector) and close;
/// time offset and match start; opacity, retarget and take.
fn clip_ui(ui: &mut egui::Ui, viewer: &Viewer, i: usize, active: bool, commands: &mut Vec<Command>) {
    let clip = &viewer.session.scene.clips[i];
    ui.horizontal(|ui| {
        let (mut color, mut visible) = (clip.color, clip.visible);
        let mut rgba = egui::Rgba::from_rgba_unmultiplied(color[0], color[1], color[2], color[3]);
        if egui::color_picker::color_edit_button_rgba(ui, &mut rgba, egui::color_picker::Alpha::Opaque).changed() {
            color = [rgba.r(), rgba.g(), rgba.b(), 1.0];
        }
        ui.checkbox(&mut visible, "").on_hover_text("Visible");
        if (color, visible) != (clip.color, clip.visible) {
            commands.push(Command::Clip(clip.id(), ClipEdit::Look { color, visible, opacity: clip.opacity }));
        }
        // The close button keeps its place at the right; a long name is elided before it.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui.small_button("x").on_hover_text("Close this clip").clicked() {
                commands.push(Command::Clip(clip.id(), ClipEdit::Remove));
            }
            let name = if i == 0 { format!("{} (reference)", clip.name) } else { clip.name.clone() };
            let hover = format!("{name}\nClick: show this clip in the inspector and joint tree");
            let button = egui::Button::selectable(active, name).truncate();
            let button = ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| ui.add(button)).inner;
            if button.on_hover_text(hover).clicked() {
                commands.push(Command::Clip(clip.id(), ClipEdit::Activate));
            }
        });
    });
    // Short rows that fit the panel's minimum width, so nothing is cut or pushed out.
    ui.horizontal(|ui| {
        ui.add_space(22.0);
        let label = ui.label("offset s");
        let mut offset = clip.offset_secs;
        let min = -clip.motion.clip.last_frame_time_secs();
        let drag = egui::DragValue::new(&mut offset).speed(0.01).range(min..=1e6).max_decimals(4);
        if ui.add(drag).labelled_by(label.id).on_hover_text("Shared-clock time of this clip's first frame").changed() {
            commands.push(Command::Clip(clip.id(), ClipEdit::Offset(offset)));
        }
        if ui.add_enabled(i > 0, egui::Button::new("match start").small()).on_hover_text("Start with the reference clip").clicked() {
            commands.push(Command::Clip(clip.id(), ClipEdit::MatchStart));
        }
    });
    ui.horizontal(|ui| {
        ui.add_space(22.0);
        let label = ui.label("opacity");
        let mut opacity = clip.opacity;
        let drag = egui::DragValue::new(&mut opacity).speed(0.01).range(0.05..=1.0).max_decimals(2);
        if ui.add(drag).labelled_by(label.id).changed() {
            commands.push(Command::Clip(clip.id(), ClipEdit::Look { color: clip.color, visible: clip.visible, opacity }));
        }
        retarget_ui(ui, viewer, i, commands);
        take_ui(ui, clip, i, commands);
    });
    body_ui(ui, clip, commands);
}

/// What a character's clip shows: its skeleton, its meshes or both.
fn body_ui(ui: &mut egui::Ui, clip: &ClipView, commands: &mut Vec<Command>) {
    if clip.skins.is_none() {
        return;
    }
    ui.horizontal(|ui| {
        ui.add_space(22.0);
        ui.label("show");
        for body in skelview_scene::Body::ALL {
            let hover = match body {
                skelview_scene::Body::Both => "Bones over a translucent mesh",
                skelview_scene::Body::Mesh => "The character's meshes only",
                skelview_scene::Body::Skeleton => "Bones and joints only",
            };
            if ui.selectable_label(clip.body == body, body.name()).on_hover_text(hover).clicked() && clip.body != body {
                commands.push(Command::Clip(clip.id(), ClipEdit::Body(body)));
            }
        }
    });
}

/// The choice of clip `i`'s take, when its file holds more than one.
fn take_ui(ui: &mut egui::Ui, clip: &ClipView, i: usize, commands: &mut Vec<Command>) {
    let takes = &clip.motion.source.takes;
    if takes.len() > 1 {
        let current = clip.motion.source.take.and_then(|t| takes.get(t)).map_or("", |t| t.name.as_str());
        let label = ui.label("take");
        egui::ComboBox::new(("take", i), "")
            .width((ui.available_width() - 8.0).max(60.0))
            .truncate()
            .selected_text(current)
            .show_ui(ui, |ui| {
                for t in takes {
                    let text =
                        format!("{} ({:.1} s, {} joints{})", t.name, t.duration_secs, t.joints, if t.moving { "" } else { ", still" });
                    if ui.selectable_label(t.name == current, text).clicked() && t.name != current {
                        commands.push(Command::Clip(clip.id(), ClipEdit::Take(t.name.clone())));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    }
}
