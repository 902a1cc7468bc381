//! The joint tree (with search) and the inspector of the selected joint.

use glam::{Quat, Vec3};

use crate::app::{ClipEdit, Command, Commands, FilesCommand, SceneEdit, SelectionEdit, Viewer, WindowEdit};
use skelview_core::core::readout::{JointReadout, global_readout};
use skelview_core::core::rest::rest_readout;
use skelview_core::core::{ChannelKind, Joint, Motion};
use skelview_scene::PoseMode;

pub fn joint_tree_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    // A capture's points are markers, not joints of a skeleton.
    ui.heading(if viewer.motion().is_some_and(|m| m.capture.is_some()) { "Markers" } else { "Joints" });
    let mut filter = viewer.view.joint_filter.clone();
    if ui.add(egui::TextEdit::singleline(&mut filter).hint_text("search")).changed() {
        out.send(Command::Window(WindowEdit::JointFilter(filter)));
    }
    let Some(motion) = viewer.motion().cloned() else {
        ui.label("(nothing loaded)");
        return;
    };
    let joints = motion.skeleton.joints();
    let mut depth = vec![0usize; joints.len()];
    for (i, j) in joints.iter().enumerate() {
        depth[i] = j.parent.map_or(0, |p| depth[p] + 1);
    }
    let filter = viewer.view.joint_filter.to_lowercase();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        for (i, j) in joints.iter().enumerate() {
            if !filter.is_empty() && !j.name.to_lowercase().contains(&filter) {
                continue;
            }
            let indent = if filter.is_empty() { depth[i].min(24) as f32 * 10.0 } else { 0.0 };
            ui.horizontal(|ui| {
                ui.add_space(indent);
                let text = if j.is_end_site { egui::RichText::new(&j.name).weak() } else { egui::RichText::new(&j.name) };
                if ui.selectable_label(viewer.view.selected == Some(i), text).clicked() {
                    out.send(Command::Selection(SelectionEdit::Joint(Some(i))));
                }
            });
        }
    });
}

fn vec3(v: Vec3) -> String {
    format!("{:>9.4} {:>9.4} {:>9.4}", v.x, v.y, v.z)
}

fn quat(q: Quat) -> String {
    format!("{:>6.3} {:>6.3} {:>6.3} {:>6.3}", q.x, q.y, q.z, q.w)
}

/// A label and its value in monospace, one row of a two-column grid.
fn row(ui: &mut egui::Ui, label: &str, value: String) {
    ui.label(label);
    ui.monospace(value);
    ui.end_row();
}

/// The sticks from marker `i` to others: each can be taken away, a new one drawn to any other
/// marker; kept with the file's settings.
fn sticks_ui(ui: &mut egui::Ui, viewer: &Viewer, motion: &skelview_core::core::Motion, i: usize, out: &mut Commands) {
    let Some(clip) = viewer.session.active_clip() else { return };
    let names = motion.skeleton.joints();
    let linked: Vec<usize> = clip
        .links
        .iter()
        .filter_map(|&(a, b)| {
            if a == i {
                Some(b)
            } else if b == i {
                Some(a)
            } else {
                None
            }
        })
        .collect();
    let send = |out: &mut Commands, other: usize, on: bool| {
        let (a, b) = (names[i].name.clone(), names[other].name.clone());
        out.send(Command::Clip(clip.id(), ClipEdit::MarkerLink { a, b, linked: on }));
    };
    ui.label(egui::RichText::new(format!("Sticks ({})", linked.len())).strong())
        .on_hover_text("Lines to other markers, from the marker set's names; yours are kept with the file's settings");
    for &other in &linked {
        ui.horizontal(|ui| {
            ui.label(format!("to {}", names[other].name));
            if ui.small_button("Remove").clicked() {
                send(out, other, false);
            }
        });
    }
    egui::ComboBox::from_id_salt(("link to", i)).selected_text("Draw a stick to…").show_ui(ui, |ui| {
        for (other, j) in names.iter().enumerate().filter(|(o, _)| *o != i && !linked.contains(o)) {
            if ui.selectable_label(false, &j.name).clicked() {
                send(out, other, true);
            }
        }
    });
}

pub fn inspector_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    ui.heading("Inspector");
    let Some(motion) = viewer.motion().cloned() else {
        ui.label("(nothing loaded)");
        return;
    };
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        companions_ui(ui, viewer, &motion, out);
        rest_pose_ui(ui, viewer, &motion, out);
        source_details_ui(ui, &motion);
        meshes_ui(ui, &motion);
        warnings_ui(ui, &motion);
        let Some(i) = viewer.view.selected.filter(|&i| i < motion.skeleton.len()) else {
            ui.label("Click a joint or bone (or pick one in the tree) to inspect it.");
            return;
        };
        selected_joint_ui(ui, viewer, &motion, i, out);
    });
}

/// The motions (AMC files) beside an ASF skeleton, each a button that opens it with the skeleton.
fn companions_ui(ui: &mut egui::Ui, viewer: &Viewer, motion: &Motion, out: &mut Commands) {
    if !viewer.session.companions.is_empty() {
        ui.label(egui::RichText::new("Motions beside this skeleton").strong());
        let asf = motion.source.paths[0].clone();
        for amc in viewer.session.companions.clone() {
            let name = amc.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if ui.button(name).clicked() {
                out.send(Command::Files(FilesCommand::Open(vec![asf.clone(), amc])));
            }
        }
        ui.separator();
    }
}

/// The rest pose's up axis, facing, arms and whether it is the Biped neutral pose.
fn rest_pose_ui(ui: &mut egui::Ui, viewer: &Viewer, motion: &Motion, out: &mut Commands) {
    egui::CollapsingHeader::new("Rest pose").default_open(false).show(ui, |ui| {
        let r = rest_readout(&motion.skeleton, motion.source.up_axis);
        ui.label(format!("up axis: {} ({})", r.up.name(), if motion.source.up_detected { "detected" } else { "declared" }));
        ui.label(match r.facing {
            Some(f) => format!("facing: {}", vec3(f)),
            None => "facing: unknown (no left/right limbs found by name)".into(),
        });
        ui.label(match r.arm_angle_deg {
            // Rounded first: no "-0°".
            Some(a) => format!("arms: {:.0}° below horizontal ({})", a.round() + 0.0, skelview_core::core::rest::arm_shape(a)),
            None => "arms: not found".into(),
        });
        ui.label(if r.matches_biped {
            "Character Studio Biped neutral pose: yes"
        } else {
            "Character Studio Biped neutral pose (+Z up, facing −Y): no"
        });
        if viewer.session.pose_mode != PoseMode::Rest && ui.button("Show the rest pose").clicked() {
            out.send(Command::Scene(SceneEdit::PoseMode(PoseMode::Rest)));
        }
    });
}

/// The file header's facts, when the format gives any.
fn source_details_ui(ui: &mut egui::Ui, motion: &Motion) {
    if !motion.source.details.is_empty() {
        egui::CollapsingHeader::new(format!("{} header", motion.source.format.name())).default_open(false).show(ui, |ui| {
            egui::Grid::new("source_details").striped(true).show(ui, |ui| {
                for (label, value) in &motion.source.details {
                    ui.label(label);
                    ui.label(egui::RichText::new(value).monospace());
                    ui.end_row();
                }
            });
        });
    }
}

/// The file's meshes: vertices, triangles, influences and morph targets of each.
fn meshes_ui(ui: &mut egui::Ui, motion: &Motion) {
    let Some(set) = motion.meshes.as_deref() else { return };
    let title = format!("Meshes ({}: {} vertices, {} triangles)", set.meshes.len(), set.vertex_count(), set.triangle_count());
    egui::CollapsingHeader::new(title).default_open(false).show(ui, |ui| {
        egui::Grid::new("meshes").striped(true).show(ui, |ui| {
            for header in ["mesh", "vertices", "triangles", "influences", "morphs"] {
                ui.label(egui::RichText::new(header).strong());
            }
            ui.end_row();
            for m in &set.meshes {
                ui.label(&m.name);
                ui.label(m.positions.len().to_string());
                ui.label(m.triangles().to_string());
                ui.label(if m.skinned { m.influences().to_string() } else { "rigid".into() });
                ui.label(m.morph_targets.len().to_string());
                ui.end_row();
            }
        });
    });
}

/// The warnings reading the file gave, when there are any.
fn warnings_ui(ui: &mut egui::Ui, motion: &Motion) {
    if !motion.warnings.is_empty() {
        egui::CollapsingHeader::new(format!("Warnings ({})", motion.warnings.len())).default_open(false).show(ui, |ui| {
            for w in &motion.warnings {
                ui.label(egui::RichText::new(w.to_string()).small().color(egui::Color32::YELLOW));
            }
        });
    }
}

/// The selected joint `i`: its name, humanoid bone, parent and children, marker, channels,
/// local and global transforms, and a button copying its channel values.
fn selected_joint_ui(ui: &mut egui::Ui, viewer: &Viewer, motion: &Motion, i: usize, out: &mut Commands) {
    let joint = &motion.skeleton.joints()[i];
    ui.separator();
    ui.label(egui::RichText::new(&joint.name).heading());
    if let Some(clip) = viewer.session.active_clip().filter(|c| c.motion.capture.is_none()) {
        humanoid_bone_ui(ui, clip, i, out);
    }
    if let Some(p) = joint.parent
        && ui.link(format!("parent: {}", motion.skeleton.joints()[p].name)).clicked()
    {
        out.send(Command::Selection(SelectionEdit::Joint(Some(p))));
    }
    for c in motion.skeleton.children(i) {
        if ui.link(format!("child: {}", motion.skeleton.joints()[c].name)).clicked() {
            out.send(Command::Selection(SelectionEdit::Joint(Some(c))));
        }
    }
    if let Some(c) = &motion.capture {
        marker_ui(ui, c, i, viewer.session.active_frame());
        sticks_ui(ui, viewer, motion, i, out);
    }
    let degrees = motion.source.angle_unit == "deg";
    let Some(readout) = JointReadout::of(motion, i, viewer.session.active_frame()) else { return };
    channels_ui(ui, joint, &readout, degrees);
    if !joint.details.is_empty() {
        // Format-specific facts (H-Anim limits and segment, HTR bone length, ACL bind values).
        egui::Grid::new("joint_details").striped(true).show(ui, |ui| {
            for (label, value) in &joint.details {
                ui.label(label);
                ui.label(egui::RichText::new(value).monospace());
                ui.end_row();
            }
        });
    }
    transforms_ui(ui, viewer, motion, i, &readout);
    if joint.channels.contains(&ChannelKind::Length) {
        ui.label("(l: bone stretch channel)");
    }
    if ui.button("Copy values").on_hover_text("Copy this joint's channel values to the clipboard").clicked() {
        let values = readout.values.as_deref().unwrap_or_default();
        let text = joint
            .channels
            .iter()
            .zip(values.iter().copied().chain(std::iter::repeat(0.0)))
            .map(|(c, v)| format!("{} {}", c.bvh_name(), shown(*c, v, degrees)))
            .collect::<Vec<_>>()
            .join("\n");
        ui.ctx().copy_text(text);
    }
}

/// A channel value as shown: rotations in degrees when the file writes degrees.
fn shown(kind: ChannelKind, v: f32, degrees: bool) -> f32 {
    if kind.is_rotation() && degrees { v.to_degrees() } else { v }
}

/// The joint's channels at the frame, in the file's order and units, with their limits.
fn channels_ui(ui: &mut egui::Ui, joint: &Joint, readout: &JointReadout, degrees: bool) {
    ui.separator();
    ui.label(egui::RichText::new(format!("Channels at frame {} (file order and units)", readout.frame)).strong());
    if joint.channels.is_empty() {
        ui.label("(none)");
    }
    egui::Grid::new("channels").striped(true).show(ui, |ui| {
        for (c, kind) in readout.channels.iter().zip(&joint.channels) {
            let unit = match (kind.is_rotation(), degrees) {
                (true, true) => "°",
                (true, false) => " rad",
                _ => "",
            };
            let value = shown(*kind, c.value, degrees);
            let text = if c.missing {
                egui::RichText::new(format!("missing (held {value:.2}{unit})")).monospace().color(egui::Color32::from_rgb(255, 90, 90))
            } else {
                egui::RichText::new(format!("{value:.2}{unit}")).monospace()
            };
            ui.label(c.name);
            ui.label(if c.outside { text.color(egui::Color32::from_rgb(255, 90, 90)) } else { text });
            if let Some((lo, hi)) = c.limits {
                let outside = if c.outside { "  outside!" } else { "" };
                ui.label(
                    egui::RichText::new(format!("limits {:.1} … {:.1}{outside}", shown(*kind, lo, degrees), shown(*kind, hi, degrees)))
                        .small(),
                );
            }
            ui.end_row();
        }
    });
}

/// Joint `i`'s local transform (in the file's axes) and its global one (Y up).
fn transforms_ui(ui: &mut egui::Ui, viewer: &Viewer, motion: &Motion, i: usize, readout: &JointReadout) {
    let local = readout.local;
    ui.separator();
    let metres = viewer.metres_per_unit();
    let lengths = viewer.settings.lengths;
    let unit = lengths.unit_for(local.translation.abs().max_element() * metres);
    ui.label(egui::RichText::new("Local (file axes)").strong());
    egui::Grid::new("local").num_columns(2).show(ui, |ui| {
        row(ui, "translation", unit.show_vec3(local.translation * metres));
        row(ui, "rotation xyzw", quat(local.rotation));
        if local.scale != glam::Vec3::ONE {
            row(ui, "scale", vec3(local.scale));
        }
        if let Some((order, e)) = &readout.euler_deg {
            row(ui, &format!("euler {order}"), format!("{:.2}° {:.2}° {:.2}°", e[0], e[1], e[2]));
        }
    });
    if viewer.global().world_from_joint.len() == motion.skeleton.len()
        && let Some((rotation, bone_length)) = global_readout(motion, viewer.global(), i)
    {
        ui.separator();
        ui.label(egui::RichText::new("Global").strong());
        egui::Grid::new("global").num_columns(2).show(ui, |ui| {
            if let Some(p) = viewer.positions().get(i) {
                row(ui, "position Y-up", lengths.unit_for(p.abs().max_element()).show_vec3(*p));
            }
            row(ui, "rotation xyzw", quat(rotation));
            if let Some(len) = bone_length {
                row(ui, "bone length", lengths.show(len * metres));
            }
        });
    }
}

/// A capture's marker: its description, where it is now (or that it is in a gap), its
/// residual and its gaps over the capture.
fn marker_ui(ui: &mut egui::Ui, c: &skelview_core::core::capture::Capture, joint: usize, frame: usize) {
    let Some(p) = c.marker_point(joint) else { return };
    let point = &c.points[p];
    ui.separator();
    ui.label(egui::RichText::new(format!("Marker at frame {frame}")).strong());
    egui::Grid::new(("marker", joint)).num_columns(2).show(ui, |ui| {
        if !point.description.is_empty() {
            row(ui, "description", point.description.clone());
        }
        match c.position(frame, p) {
            Some(at) => {
                row(ui, "position", format!("{} {}", vec3(at), c.unit));
                row(ui, "residual", c.residual(frame, p).map_or("-".into(), |r| format!("{r:.3} {}", c.unit)));
            }
            None => row(ui, "position", "missing (a gap in the file)".into()),
        }
        let runs = c.gap_runs(p);
        let missing: usize = runs.iter().map(|(a, b)| b - a + 1).sum();
        let longest = runs.iter().map(|(a, b)| b - a + 1).max().unwrap_or(0);
        row(ui, "gaps", format!("{} ({missing} of {} frames missing, longest {longest})", runs.len(), c.frames));
    });
}

/// The selected joint's humanoid bone, how it was found, and a choice to correct it (what the
/// retarget and the comparison pair by).
fn humanoid_bone_ui(ui: &mut egui::Ui, clip: &skelview_scene::ClipView, joint: usize, out: &mut Commands) {
    use skelview_core::retarget::{BONES, Found};
    let entry = clip.humanoid.entries.iter().find(|e| e.joint == joint);
    let how = entry.map_or("", |e| match e.found {
        Found::File => "from the file's map",
        Found::Name => "from its name",
        Found::Shape => "from the skeleton's shape",
        Found::User => "as you set it",
    });
    let current = entry.map(|e| e.bone);
    let mut chosen = current;
    ui.horizontal(|ui| {
        let label = ui.label("humanoid bone");
        egui::ComboBox::new("humanoid_bone", "")
            .selected_text(current.unwrap_or("(none)"))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut chosen, None, "(none)");
                for b in BONES {
                    let taken = clip.humanoid.joint(b).filter(|&j| j != joint).map(|j| clip.motion.skeleton.joints()[j].name.as_str());
                    let text = match taken {
                        Some(other) => format!("{b} (now {other})"),
                        None => (*b).to_owned(),
                    };
                    ui.selectable_value(&mut chosen, Some(b), text);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text("VRM 1.0 humanoid bone, as skelview info --humanoid lists it; retargeting and the comparison pair joints by it");
        ui.weak(how);
    });
    if chosen != current {
        out.send(Command::Clip(clip.id(), ClipEdit::HumanoidBone { joint, bone: chosen.map(str::to_owned) }));
    }
}
