//! egui panels: they read the viewer's state and send [`Command`]s ([`Viewer::send`]), applied
//! once per frame by the state's owner; nothing here writes the viewer's state (a test checks).
//! Menus, keys and the F1 list come from the action table ([`crate::app::actions`]).

mod bone_map_ui;
mod clips_ui;
mod compare_ui;
mod curves_ui;
mod edits_ui;
mod help_ui;
mod inspector_ui;
mod issues_ui;
mod measure_ui;
mod timeline_ui;

pub use bone_map_ui::{bone_map_ui, bone_map_window};
pub use clips_ui::clips_ui;
pub use compare_ui::compare_ui;
pub use curves_ui::{curves_ui, curves_window};
pub use edits_ui::{edits_ui, edits_window};
pub use inspector_ui::{inspector_ui, joint_tree_ui};
pub use issues_ui::{issues_ui, issues_window, kind_color};
pub use measure_ui::{measure_overlay, measure_ui, measure_window};
pub use timeline_ui::timeline_ui;
pub mod viewport_ui;

use crate::app::actions::{ACTIONS, ActionId, Key};
use crate::app::{ClipEdit, Command, Commands, Dialog, Export, JobCommand, SceneEdit, SettingEdit, Viewer, WindowEdit};
use skelview_scene::PoseMode;
pub use viewport_ui::ViewportGpu;

/// Lays out the whole window for one frame.
pub fn viewer_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, gpu: &mut ViewportGpu, frame_ms: f32) {
    shortcuts(ui, viewer, out);
    panels_ui(ui, viewer, out, frame_ms);
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| viewport_ui::viewport_ui(ui, viewer, out, gpu));
    windows_ui(ui.ctx(), viewer, out);
}

/// Everything around the viewport: menu, status bar, timeline and side panels (the snapshot
/// tests draw these without a GPU viewport).
pub fn panels_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, frame_ms: f32) {
    let theme = if viewer.settings.light_theme { egui::Theme::Light } else { egui::Theme::Dark };
    if ui.ctx().theme() != theme {
        ui.ctx().set_theme(theme);
    }
    egui::Panel::top("menu").show(ui, |ui| menu_ui(ui, viewer, out));
    let status = egui::Panel::bottom("status").show(ui, |ui| status_ui(ui, viewer, out, frame_ms));
    let timeline = egui::Panel::bottom("timeline").resizable(false).show(ui, |ui| timeline_ui(ui, viewer, out));
    relayout_when_resized(ui, [status.response.rect.height(), timeline.response.rect.height()]);
    side_panels_ui(ui, viewer, out);
}

/// A bottom panel is laid out at the height its contents had the frame before: when they grow
/// or shrink (the timeline's issues row once the checks are in), one more frame lays out the
/// viewport beside them anew, also when nothing else asks for one.
fn relayout_when_resized(ui: &egui::Ui, heights: [f32; 2]) {
    let id = egui::Id::unique("bottom panel heights");
    let before = ui.ctx().data_mut(|d| d.get_temp::<[f32; 2]>(id));
    if before != Some(heights) {
        ui.ctx().data_mut(|d| d.insert_temp(id, heights));
        ui.ctx().request_repaint();
    }
}

/// The floating windows: channel curves, Measure, Issues, Edits, shortcuts and errors.
pub fn windows_ui(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    curves_window(ctx, viewer, out);
    edits_window(ctx, viewer, out);
    bone_map_window(ctx, viewer, out);
    measure_window(ctx, viewer, out);
    issues_window(ctx, viewer, out);
    help_ui::help_ui(ctx, viewer, out);
    error_ui(ctx, viewer, out);
}

/// The left (clips, joint tree) and right (inspector, comparison) panels, as the persisted
/// layout says; their widths are written back so the next start restores them.
pub fn side_panels_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    // Panel sizes live in the settings; a reset bumps the generation so egui forgets its own.
    let layout = viewer.settings.panels;
    let mut widths = (layout.left_width, layout.right_width);
    if layout.left_shown {
        let left = egui::Panel::left(("joints", layout.generation)).resizable(true).default_size(layout.left_width).min_size(220.0).show(
            ui,
            |ui| {
                egui::Panel::top("clips").resizable(true).show(ui, |ui| clips_ui(ui, viewer, out));
                joint_tree_ui(ui, viewer, out);
            },
        );
        widths.0 = left.response.rect.width();
    }
    if layout.right_shown {
        let right = egui::Panel::right(("inspector", layout.generation))
            .resizable(true)
            .default_size(layout.right_width)
            .min_size(280.0)
            .show(ui, |ui| {
                if viewer.session.scene.clips.len() > 1 {
                    egui::Panel::bottom("comparison").resizable(true).default_size(420.0).show(ui, |ui| {
                        ui.heading("Comparison");
                        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| compare_ui(ui, viewer, out));
                    });
                }
                inspector_ui(ui, viewer, out);
            });
        widths.1 = right.response.rect.width();
    }
    if widths != (layout.left_width, layout.right_width) {
        out.send(Command::Setting(SettingEdit::PanelWidths(widths.0, widths.1)));
    }
}

/// Keyboard shortcuts (when no text field has focus), from the action table.
pub fn shortcuts(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    let fired: Vec<ActionId> = ui.input(|i| {
        ACTIONS
            .iter()
            .filter(|a| {
                a.shortcut
                    .is_some_and(|s| i.key_pressed(egui_key(s.key)) && i.modifiers.shift == s.shift && i.modifiers.command == s.command)
            })
            .map(|a| a.id)
            .collect()
    });
    for id in fired {
        let command = id.command(viewer);
        out.send(command);
    }
}

fn egui_key(key: Key) -> egui::Key {
    match key {
        Key::Space => egui::Key::Space,
        Key::Left => egui::Key::ArrowLeft,
        Key::Right => egui::Key::ArrowRight,
        Key::Home => egui::Key::Home,
        Key::End => egui::Key::End,
        Key::Escape => egui::Key::Escape,
        Key::F1 => egui::Key::F1,
        Key::E => egui::Key::E,
        Key::F => egui::Key::F,
        Key::I => egui::Key::I,
        Key::M => egui::Key::M,
        Key::O => egui::Key::O,
        Key::R => egui::Key::R,
        Key::Z => egui::Key::Z,
        Key::Num1 => egui::Key::Num1,
        Key::Num2 => egui::Key::Num2,
        Key::Num3 => egui::Key::Num3,
        Key::Num4 => egui::Key::Num4,
    }
}

/// A menu button for an action of the table; true when clicked (its command is sent).
fn action_button(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, id: ActionId) -> bool {
    let clicked = ui.button(id.menu_label()).clicked();
    if clicked {
        let command = id.command(viewer);
        out.send(command);
    }
    clicked
}

/// The browser build: menus leave out what a tab cannot do (files by path, pictures rendered
/// on a device of their own).
const WEB: bool = cfg!(target_arch = "wasm32");

/// A menu checkbox for an on/off action of the table, showing `on`.
fn action_checkbox(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, id: ActionId, on: bool) -> egui::Response {
    let mut shown = on;
    let response = ui.checkbox(&mut shown, id.menu_label());
    if shown != on {
        let command = id.command(viewer);
        out.send(command);
    }
    response
}

/// Asks for files to open (the dialog runs on a background thread).
pub fn open_dialog(viewer: &Viewer, out: &mut Commands) {
    out.send(ActionId::Open.command(viewer));
}

/// Asks for files to add beside those open.
pub fn add_dialog(viewer: &Viewer, out: &mut Commands) {
    out.send(ActionId::AddFile.command(viewer));
}

/// The menu bar: File, View, Playback, Pose and Help; every action of the table is in it.
pub fn menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu_ui(ui, viewer, out));
        ui.menu_button("Edit", |ui| edit_menu_ui(ui, viewer, out));
        ui.menu_button("View", |ui| view_menu_ui(ui, viewer, out));
        ui.menu_button("Playback", |ui| playback_menu_ui(ui, viewer, out));
        ui.menu_button("Pose", |ui| pose_menu_ui(ui, viewer, out));
        action_button(ui, viewer, out, ActionId::Help);
    });
}

/// The File menu: open and add files, save and export the active clip, recent files.
fn file_menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    action_button(ui, viewer, out, ActionId::Open);
    action_button(ui, viewer, out, ActionId::AddFile);
    ui.add_enabled_ui(viewer.motion().is_some() && !viewer.jobs.exporting(), |ui| {
        action_button(ui, viewer, out, ActionId::ExportPositions);
        if WEB {
            action_button(ui, viewer, out, ActionId::ExportVideo);
            return;
        }
        if ui.button("Save as…").on_hover_text("The active clip in any format skelview writes: BVH, glTF, C3D, TRC, MOT").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::SaveMotion)));
        }
        if ui.button("Export frames (in/out range) as PNG…").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::ExportFrames)));
        }
        action_button(ui, viewer, out, ActionId::ExportVideo);
    });
    if WEB {
        return;
    }
    ui.menu_button("Open recent", |ui| {
        if viewer.settings.recent.is_empty() {
            ui.label("(none yet)");
        }
        for path in viewer.settings.recent.clone() {
            if ui.button(path.display().to_string()).clicked() {
                out.send(crate::app::actions::dropped(vec![path], false));
            }
        }
    });
}

/// The View menu: what is drawn, the camera, screenshots, the tool windows, lengths and the
/// active clip's units and axes, format options, theme, panels and overlays.
fn view_menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let mut style = viewer.settings.style;
    ui.checkbox(&mut style.bones, "Bones");
    ui.checkbox(&mut style.joints, "Joints");
    ui.checkbox(&mut style.axes, "Joint axes");
    ui.checkbox(&mut style.grid, "Grid");
    ui.checkbox(&mut style.shadow, "Shadow");
    ui.checkbox(&mut style.gizmo, "World axes");
    if style != viewer.settings.style {
        out.send(Command::Setting(SettingEdit::Style(style)));
    }
    ui.separator();
    for id in [ActionId::Front, ActionId::Side, ActionId::Top, ActionId::Perspective, ActionId::FrameAll, ActionId::ClearSelection] {
        action_button(ui, viewer, out, id);
    }
    ui.add_enabled_ui(viewer.motion().is_some(), |ui| {
        if !WEB && ui.button("Copy screenshot").on_hover_text("The viewport, without panels, to the clipboard").clicked() {
            out.send(Command::Job(JobCommand::Export(Export::Screenshot(None))));
        }
        action_button(ui, viewer, out, ActionId::SaveScreenshot);
    });
    action_checkbox(ui, viewer, out, ActionId::Issues, viewer.view.issues.open);
    action_checkbox(ui, viewer, out, ActionId::Measure, viewer.view.measure.open)
        .on_hover_text("Distance, angle, speed and acceleration of picked joints");
    action_checkbox(ui, viewer, out, ActionId::Orthographic, viewer.view.camera.orthographic);
    ui.separator();
    units_menus_ui(ui, viewer, out);
    format_options_ui(ui, viewer, out);
    ui.separator();
    action_checkbox(ui, viewer, out, ActionId::LightTheme, viewer.settings.light_theme);
    let (mut left, mut right) = (viewer.settings.panels.left_shown, viewer.settings.panels.right_shown);
    let changed = ui.checkbox(&mut left, "Clips and joint tree panel").changed() | ui.checkbox(&mut right, "Inspector panel").changed();
    if changed {
        out.send(Command::Setting(SettingEdit::PanelsShown(left, right)));
    }
    if ui.button("Reset settings").clicked() {
        out.send(Command::Setting(SettingEdit::Reset));
    }
    let mut curves = viewer.view.show_curves;
    if ui.checkbox(&mut curves, "Channel curves of the selected joint").changed() {
        out.send(Command::Window(WindowEdit::Curves(curves)));
    }
    overlays_ui(ui, viewer, out);
    action_checkbox(ui, viewer, out, ActionId::FollowRoot, viewer.view.follow_root);
}

/// The View menu's submenus for the unit lengths are shown in, and the active clip's file
/// units and up axis (automatic, or set by hand).
fn units_menus_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let active = viewer.session.active_clip().map(|c| {
        let (unit, up) = viewer.session.document.overrides(c.id());
        (c.motion.source.unit, c.motion.source.up_axis, unit, up, c.motion.source.up_reason)
    });
    let (unit_set, up_set) = active.map_or((None, None), |a| (a.2, a.3));
    // Unit, up axis and rule apply to the clip shown in the inspector now.
    let active_id = viewer.session.active_clip().map(|c| c.id()).unwrap_or_default();
    ui.menu_button("Lengths shown", |ui| {
        for d in skelview_core::core::LengthDisplay::ALL {
            let label = if d == skelview_core::core::LengthDisplay::Auto { "auto (m, cm or mm by size)" } else { d.name() };
            if ui.radio(viewer.settings.lengths == d, label).clicked() {
                out.send(Command::Setting(SettingEdit::Lengths(d)));
            }
        }
    })
    .response
    .on_hover_text("The unit of lengths in the comparison, inspector, measurements and issues");
    ui.menu_button("File units", |ui| {
        use skelview_core::core::LengthUnit::*;
        let auto = active.map_or("auto".to_owned(), |a| format!("auto ({})", a.0.symbol()));
        if ui.radio(unit_set.is_none(), auto).clicked() {
            out.send(Command::Clip(active_id, ClipEdit::Unit(None)));
        }
        for unit in [Millimetre, Centimetre, Decimetre, Metre, Inch, Foot, CmuAsf] {
            if ui.radio(unit_set == Some(unit), unit.symbol()).clicked() {
                out.send(Command::Clip(active_id, ClipEdit::Unit(Some(unit))));
            }
        }
    });
    ui.menu_button("Up axis", |ui| {
        use skelview_core::core::UpAxis;
        let auto = active.map_or("auto".to_owned(), |a| {
            if a.4.is_empty() { format!("auto ({}, declared)", a.1.name()) } else { format!("auto ({}: {})", a.1.name(), a.4) }
        });
        if ui.radio(up_set.is_none(), auto).clicked() {
            out.send(Command::Clip(active_id, ClipEdit::UpAxis(None)));
        }
        for up in UpAxis::ALL {
            let label = if up.name().starts_with('-') { format!("{} up", up.name()) } else { format!("+{} up", up.name()) };
            if ui.radio(up_set == Some(up), label).clicked() {
                out.send(Command::Clip(active_id, ClipEdit::UpAxis(Some(up))));
            }
        }
    });
}

/// The View menu's overlays: trails, onion-skin ghosts and, with a capture open, the markers'.
fn overlays_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let mut o = viewer.session.scene.overlays;
    ui.horizontal(|ui| {
        ui.checkbox(&mut o.trails, "Trails ±");
        ui.add(egui::DragValue::new(&mut o.trail_secs).speed(0.05).range(0.05..=60.0).suffix(" s"));
    });
    ui.horizontal(|ui| {
        let label = ui.label("Onion skin ghosts");
        ui.add(egui::DragValue::new(&mut o.onion).range(0..=16)).labelled_by(label.id);
        let label = ui.label("every");
        ui.add(egui::DragValue::new(&mut o.onion_step).range(1..=120).suffix(" frames")).labelled_by(label.id);
    });
    if viewer.session.scene.clips.iter().any(|c| c.motion.capture.is_some()) {
        marker_overlays_ui(ui, &mut o);
    }
    if o != viewer.session.scene.overlays {
        out.send(Command::Scene(SceneEdit::Overlays(o)));
    }
}

/// The Playback menu: play or pause, and the steps through the frames.
fn playback_menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    ui.add_enabled_ui(viewer.motion().is_some(), |ui| {
        let steps = [ActionId::StepBack, ActionId::StepForward, ActionId::StepBack10, ActionId::StepForward10, ActionId::First];
        for id in [ActionId::PlayPause].into_iter().chain(steps).chain([ActionId::Last]) {
            action_button(ui, viewer, out, id);
        }
    });
}

/// The Pose menu: the clips animated, in their rest pose, or held at their first frame.
fn pose_menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    for (label, mode) in
        [("Animated", PoseMode::Animated), ("Rest pose (channels ignored)", PoseMode::Rest), ("First frame", PoseMode::FirstFrame)]
    {
        if ui.radio(viewer.session.pose_mode == mode, label).clicked() {
            out.send(Command::Scene(SceneEdit::PoseMode(mode)));
        }
    }
}

/// The Edit menu: undo and redo over the active clip's edits, the Edits window, recipes.
fn edit_menu_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let edits = viewer.session.active_clip().and_then(|c| viewer.session.document.edits(c.id()));
    ui.add_enabled_ui(edits.is_some_and(|e| e.can_undo()), |ui| action_button(ui, viewer, out, ActionId::Undo));
    ui.add_enabled_ui(edits.is_some_and(|e| e.can_redo()), |ui| action_button(ui, viewer, out, ActionId::Redo));
    ui.separator();
    action_checkbox(ui, viewer, out, ActionId::Edits, viewer.view.edits.open)
        .on_hover_text("Fill gaps, filter, despike, unroll, trim, resample, loop… as a recipe");
    action_checkbox(ui, viewer, out, ActionId::BoneMap, viewer.view.bone_map_open)
        .on_hover_text("Which joint is which humanoid bone (what retargeting and the comparison pair by)");
    ui.add_enabled_ui(edits.is_some_and(|e| !e.recipe.steps.is_empty()), |ui| {
        if ui.button("Save recipe…").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::SaveRecipe)));
        }
    });
    if !WEB {
        ui.add_enabled_ui(viewer.motion().is_some(), |ui| {
            if ui.button("Open recipe…").clicked() {
                out.send(Command::Job(JobCommand::Ask(Dialog::OpenRecipe)));
            }
        });
    }
}

/// A submenu per read option of the active clip's format (BVH position channels, the AMC
/// frame rate): choosing a value reloads the clip with it (other values: `--format-option`).
fn format_options_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    use skelview_core::formats::OptionValues;
    let Some(c) = viewer.session.active_clip() else { return };
    let Some(format) = skelview_core::formats::table::by_format_name(c.motion.source.format.name) else { return };
    let read_with = viewer.session.document.source(c.id()).read_with;
    for option in format.options() {
        let send = |out: &mut Commands, value: String| out.send(Command::Clip(c.id(), ClipEdit::FormatOption { key: option.key, value }));
        let response = ui.menu_button(option.label, |ui| match &option.values {
            OptionValues::Choice { choices, .. } => {
                let now = option.choice(&read_with);
                for choice in *choices {
                    if ui.radio(now == choice.value, choice.label).clicked() {
                        send(out, choice.value.to_owned());
                    }
                }
            }
            OptionValues::Number { unit, presets, .. } => {
                // Menus close on a click, so a number is picked from the format's presets; the
                // value in force is listed too when it is not one of them (set by key).
                let now = option.number(&read_with);
                let mut values = presets.to_vec();
                if !values.contains(&now) {
                    values.push(now);
                    values.sort_by(f64::total_cmp);
                }
                for v in values {
                    if ui.radio(v == now, format!("{v} {unit}")).clicked() {
                        send(out, v.to_string());
                    }
                }
            }
            OptionValues::Path { hint } => {
                let now = option.value_in(&read_with);
                ui.label(if now.is_empty() { format!("none ({hint})") } else { now });
                if option.scope == skelview_core::formats::OptionScope::User {
                    ui.weak("chosen once, for every file");
                }
                if WEB {
                    ui.label("(a file on disk: not in the browser build)");
                    return;
                }
                let ask = |folder| Command::Job(JobCommand::Ask(Dialog::OptionPath { clip: c.id(), key: option.key, folder }));
                if ui.button("Choose a file…").clicked() {
                    out.send(ask(false));
                }
                if ui.button("Choose a folder…").clicked() {
                    out.send(ask(true));
                }
            }
        });
        response.response.on_hover_text(option.help);
    }
}

fn status_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, frame_ms: f32) {
    ui.horizontal(|ui| {
        // Running tasks, whatever they do: each with its progress and, when it can stop, a
        // Cancel button (the viewport has one for loads of its own).
        let tasks: Vec<_> = viewer.running_tasks().into_iter().filter(|t| t.foreground).collect();
        for task in &tasks {
            ui.label(&task.label);
            ui.add(egui::ProgressBar::new(task.fraction).desired_width(160.0).show_percentage());
            if task.cancellable && ui.button("Cancel").clicked() {
                out.send(Command::CancelTask(task.id));
            }
            ui.separator();
        }
        if tasks.is_empty()
            && let Some(notice) = &viewer.messages.notice
        {
            ui.label(notice);
            ui.separator();
        }
        if !viewer.session.loads.iter().any(|l| l.replace)
            && let Some(clip) = viewer.session.active_clip()
        {
            let m = &clip.motion;
            let s = &m.source;
            let (unit_override, up_override) = viewer.session.document.overrides(clip.id());
            let name =
                s.paths.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" + ");
            ui.label(format!(
                "{name} · {} · {} {} · {} frames · {:.3} fps · {:.2} s · file units {}{} · {} up{}",
                s.format.name(),
                m.skeleton.len(),
                if m.capture.is_some() { "markers" } else { "joints" },
                m.clip.num_frames(),
                m.clip.fps(),
                m.clip.duration_secs(),
                unit_override.unwrap_or(s.unit).symbol(),
                if unit_override.is_some() {
                    " (set)"
                } else if s.unit_detected {
                    " (detected)"
                } else {
                    ""
                },
                up_override.unwrap_or(s.up_axis).name(),
                if up_override.is_some() {
                    " (set)"
                } else if s.up_detected {
                    " (detected)"
                } else {
                    ""
                },
            ));
            if !m.warnings.is_empty() {
                ui.label(egui::RichText::new(format!("{} warnings", m.warnings.len())).color(egui::Color32::YELLOW));
            }
            match viewer.checks.state(clip.serial) {
                Some(crate::app::CheckState::Running(f)) => {
                    ui.label(format!("checking {:.0}%", f * 100.0));
                }
                Some(crate::app::CheckState::Done(r)) => {
                    let n = r.findings.len();
                    let text = egui::RichText::new(format!("{n} issue{}", if n == 1 { "" } else { "s" }));
                    let text = if n > 0 { text.color(egui::Color32::from_rgb(255, 150, 30)) } else { text };
                    if ui.link(text).on_hover_text("Open the Issues window (I)").clicked() {
                        out.send(Command::Window(WindowEdit::Issues(true)));
                    }
                }
                _ => {}
            }
        } else {
            ui.label("No file: open one with Ctrl+O or drop it on the window");
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(format!("{frame_ms:.1} ms/frame"));
        });
    });
}

fn error_ui(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let Some(error) = viewer.messages.error.clone() else { return };
    egui::Window::new(viewer.messages.error_title).collapsible(false).resizable(true).anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).show(
        ctx,
        |ui| {
            ui.label(egui::RichText::new(error).monospace());
            if ui.button("OK").clicked() {
                out.send(Command::DismissError);
            }
        },
    );
}

/// A capture's drawing choices: marker colours and force platforms.
fn marker_overlays_ui(ui: &mut egui::Ui, o: &mut skelview_scene::Overlays) {
    use skelview_scene::markers::MarkerColor;
    egui::ComboBox::from_label("Marker colour").selected_text(o.marker_color.label()).show_ui(ui, |ui| {
        for c in MarkerColor::ALL {
            ui.selectable_value(&mut o.marker_color, c, c.label());
        }
    });
    ui.checkbox(&mut o.forces, "Force plates and ground reaction forces");
    ui.checkbox(&mut o.links, "Sticks between markers")
        .on_hover_text("From the marker set's names (Plug-in Gait, CMU, OpenSim, OpenCap); the inspector edits a marker's");
}
