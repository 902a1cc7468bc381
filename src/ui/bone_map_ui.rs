//! The Bone map window: the active clip's humanoid bone map as a table (every VRM 1.0 bone,
//! the joint that is it and how it was found), each entry changeable; the map found again,
//! saved as TOML and loaded from TOML or MNM. What it changes is what retargeting and the
//! comparison pair by.

use crate::app::{ClipEdit, Command, Commands, Dialog, JobCommand, SelectionEdit, Viewer, WindowEdit};
use skelview_core::retarget::{BONES, BoneMap, Found, REQUIRED};

/// The window, when open.
pub fn bone_map_window(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let mut open = viewer.view.bone_map_open;
    let corner = ctx.content_rect().left_top() + egui::vec2(320.0, 70.0);
    egui::Window::new("Bone map")
        .open(&mut open)
        .default_pos(corner)
        .default_size([420.0, 620.0])
        .resizable(true)
        .show(ctx, |ui| bone_map_ui(ui, viewer, out));
    if open != viewer.view.bone_map_open {
        out.send(Command::Window(WindowEdit::BoneMap(open)));
    }
}

/// How an entry was found, in words.
fn how(found: Found) -> &'static str {
    match found {
        Found::File => "file",
        Found::Name => "name",
        Found::Shape => "shape",
        Found::User => "you",
    }
}

/// The contents of the Bone map window.
pub fn bone_map_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let Some(clip) = viewer.session.active_clip() else {
        ui.label("Open a file to see its humanoid bones.");
        return;
    };
    if clip.motion.capture.is_some() {
        ui.label(format!("{} is a marker capture: markers are no bones.", clip.name));
        return;
    }
    let (id, map, joints) = (clip.id(), &clip.humanoid, clip.motion.skeleton.joints());
    ui.label(egui::RichText::new(&clip.name).strong());
    summary_ui(ui, map);
    if clip.motion.source.format.joints_at_far_end {
        ui.weak("This format draws a joint at the far end of its bone: each bone is the joint where it starts.");
    }
    ui.horizontal(|ui| {
        if ui.button("Find again").on_hover_text("From the file, the names and the skeleton's shape; your changes dropped").clicked() {
            out.send(Command::Clip(id, ClipEdit::FindBonesAgain));
        }
        if ui.button("Save map…").on_hover_text("As TOML: bone = \"joint name\" (what --map reads)").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::SaveBoneMap)));
        }
        if !super::WEB && ui.button("Load map…").on_hover_text("A skelview TOML map or a Character Studio MNM, over this map").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::OpenBoneMap)));
        }
    });
    ui.separator();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        egui::Grid::new("bone_map").num_columns(3).striped(true).spacing([12.0, 4.0]).show(ui, |ui| {
            ui.strong("Bone");
            ui.strong("Joint");
            ui.strong("Found by");
            ui.end_row();
            for bone in BONES {
                let entry = map.entries.iter().find(|e| e.bone == bone);
                let required = REQUIRED.contains(&bone);
                let mut text = egui::RichText::new(if required { format!("{bone} *") } else { bone.to_owned() });
                if required && entry.is_none() {
                    text = text.color(ui.visuals().error_fg_color);
                }
                let label = ui.add(egui::Label::new(text).sense(egui::Sense::click()));
                let label_id = label.id;
                if let Some(e) = entry
                    && label.on_hover_text("Click: select the joint").clicked()
                {
                    out.send(Command::Selection(SelectionEdit::Joint(Some(e.joint))));
                }
                joint_choice_ui(ui, out, (id, label_id), bone, entry.map(|e| e.joint), joints);
                ui.weak(entry.map_or("", |e| how(e.found)));
                ui.end_row();
            }
        });
    });
}

/// How many bones are found and which required ones are not.
fn summary_ui(ui: &mut egui::Ui, map: &BoneMap) {
    let missing = map.missing();
    ui.label(format!("{} of {} humanoid bones found (* required)", map.entries.len(), BONES.len()));
    if missing.is_empty() {
        ui.label("Every required bone is found: the clip can be retargeted.");
    } else {
        ui.colored_label(ui.visuals().error_fg_color, format!("Required but not found: {}", missing.join(", ")));
    }
}

/// The joint chosen for `bone`: "(none)" or any joint of the skeleton.
fn joint_choice_ui(
    ui: &mut egui::Ui,
    out: &mut Commands,
    (clip, label): (skelview_scene::ClipId, egui::Id),
    bone: &'static str,
    current: Option<usize>,
    joints: &[skelview_core::core::Joint],
) {
    let mut chosen = current;
    egui::ComboBox::new(("bone_joint", bone), "")
        .selected_text(current.map_or("(none)", |j| joints[j].name.as_str()))
        .width(170.0)
        .height(320.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut chosen, None, "(none)");
            for (j, joint) in joints.iter().enumerate() {
                ui.selectable_value(&mut chosen, Some(j), &joint.name);
            }
        })
        .response
        .labelled_by(label);
    if chosen == current {
        return;
    }
    let edit = match (chosen, current) {
        (Some(j), _) => ClipEdit::HumanoidBone { joint: j, bone: Some(bone.to_owned()) },
        (None, Some(old)) => ClipEdit::HumanoidBone { joint: old, bone: None },
        (None, None) => return,
    };
    out.send(Command::Clip(clip, edit));
}
