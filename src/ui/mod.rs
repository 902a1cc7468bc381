//! egui panels: they read the viewer's state and push [`Command`]s, applied once per frame.
//! Direct edits are limited to the settings (stored once, edited in place, saved through a
//! command) and the view's own flags (joint search text, which windows are open).

mod clips_ui;
mod compare_ui;
mod curves_ui;
mod help_ui;
mod inspector_ui;
mod issues_ui;
mod measure_ui;
mod timeline_ui;

pub use clips_ui::clips_ui;
pub use compare_ui::compare_ui;
pub use curves_ui::{curves_ui, curves_window};
pub use inspector_ui::{inspector_ui, joint_tree_ui};
pub use issues_ui::{issues_ui, issues_window, kind_color};
pub use measure_ui::{measure_overlay, measure_ui, measure_window};
pub use timeline_ui::timeline_ui;
pub mod viewport_ui;

use crate::app::{Command, Dialog, Viewer};
use skelview_core::core::PlaybackCommand;
use skelview_render::scene::PoseMode;
use skelview_render::scene::ViewPreset;
pub use viewport_ui::ViewportGpu;

/// Lays out the whole window for one frame.
pub fn viewer_ui(ui: &mut egui::Ui, viewer: &mut Viewer, gpu: &mut ViewportGpu, frame_ms: f32) {
    shortcuts(ui, viewer);
    panels_ui(ui, viewer, frame_ms);
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| viewport_ui::viewport_ui(ui, viewer, gpu));
    windows_ui(ui.ctx(), viewer);
}

/// Everything around the viewport: menu, status bar, timeline and side panels (the snapshot
/// tests draw these without a GPU viewport).
pub fn panels_ui(ui: &mut egui::Ui, viewer: &mut Viewer, frame_ms: f32) {
    let theme = if viewer.settings.light_theme { egui::Theme::Light } else { egui::Theme::Dark };
    if ui.ctx().theme() != theme {
        ui.ctx().set_theme(theme);
    }
    egui::Panel::top("menu").show(ui, |ui| menu_ui(ui, viewer));
    egui::Panel::bottom("status").show(ui, |ui| status_ui(ui, viewer, frame_ms));
    egui::Panel::bottom("timeline").resizable(false).show(ui, |ui| timeline_ui(ui, viewer));
    side_panels_ui(ui, viewer);
}

/// The floating windows: channel curves, Measure, Issues, shortcuts and errors.
pub fn windows_ui(ctx: &egui::Context, viewer: &mut Viewer) {
    curves_window(ctx, viewer);
    measure_window(ctx, viewer);
    issues_window(ctx, viewer);
    help_ui::help_ui(ctx, viewer);
    error_ui(ctx, viewer);
}

/// The left (clips, joint tree) and right (inspector, comparison) panels, as the persisted
/// layout says; their widths are written back so the next start restores them.
pub fn side_panels_ui(ui: &mut egui::Ui, viewer: &mut Viewer) {
    // Panel sizes live in the settings; a reset bumps the generation so egui forgets its own.
    let layout = viewer.settings.panels;
    if layout.left_shown {
        let left = egui::Panel::left(("joints", layout.generation)).resizable(true).default_size(layout.left_width).min_size(220.0).show(
            ui,
            |ui| {
                egui::Panel::top("clips").resizable(true).show(ui, |ui| clips_ui(ui, viewer));
                joint_tree_ui(ui, viewer);
            },
        );
        viewer.settings.panels.left_width = left.response.rect.width();
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
                        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| compare_ui(ui, viewer));
                    });
                }
                inspector_ui(ui, viewer);
            });
        viewer.settings.panels.right_width = right.response.rect.width();
    }
}

/// Keyboard shortcuts (when no text field has focus).
pub fn shortcuts(ui: &mut egui::Ui, viewer: &mut Viewer) {
    if ui.ctx().egui_wants_keyboard_input() {
        return;
    }
    use egui::Key;
    let push = |v: &mut Viewer, c: PlaybackCommand| v.commands.push(Command::Playback(c));
    ui.input(|i| {
        let step = if i.modifiers.shift { 10 } else { 1 };
        if i.key_pressed(Key::Space) {
            push(viewer, PlaybackCommand::TogglePlay);
        }
        if i.key_pressed(Key::ArrowRight) {
            push(viewer, PlaybackCommand::Step(step));
        }
        if i.key_pressed(Key::ArrowLeft) {
            push(viewer, PlaybackCommand::Step(-step));
        }
        if i.key_pressed(Key::Home) {
            push(viewer, PlaybackCommand::Home);
        }
        if i.key_pressed(Key::End) {
            push(viewer, PlaybackCommand::End);
        }
        if i.key_pressed(Key::F) {
            viewer.commands.push(Command::FrameAll);
        }
        if i.key_pressed(Key::I) {
            viewer.view.issues.open = !viewer.view.issues.open;
        }
        if i.key_pressed(Key::M) {
            viewer.commands.push(Command::ToggleMeasure);
        }
        if i.key_pressed(Key::F1) {
            viewer.commands.push(Command::ToggleHelp);
        }
        if i.key_pressed(Key::O) && i.modifiers.command {
            open_dialog(viewer);
        } else if i.key_pressed(Key::O) {
            viewer.commands.push(Command::ToggleOrtho);
        }
        for (key, view) in [
            (Key::Num1, ViewPreset::Front),
            (Key::Num2, ViewPreset::Side),
            (Key::Num3, ViewPreset::Top),
            (Key::Num4, ViewPreset::Perspective),
        ] {
            if i.key_pressed(key) {
                viewer.commands.push(Command::View(view));
            }
        }
        if i.key_pressed(Key::R) {
            viewer.commands.push(Command::ToggleFollowRoot);
        }
        if i.key_pressed(Key::Escape) {
            viewer.commands.push(Command::Select(None));
        }
    });
}

/// Asks for files to open (the dialog runs on a background thread).
pub fn open_dialog(viewer: &mut Viewer) {
    viewer.commands.push(Command::Ask(Dialog::Open));
}

/// Asks for files to add beside those open.
pub fn add_dialog(viewer: &mut Viewer) {
    viewer.commands.push(Command::Ask(Dialog::Add));
}

fn menu_ui(ui: &mut egui::Ui, viewer: &mut Viewer) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open…  (Ctrl+O)").clicked() {
                open_dialog(viewer);
            }
            if ui.button("Add file…").on_hover_text("Open beside the clips shown (or drop with Shift held)").clicked() {
                add_dialog(viewer);
            }
            ui.add_enabled_ui(viewer.motion().is_some() && viewer.jobs.export.is_none(), |ui| {
                if ui.button("Export positions CSV…").clicked() {
                    viewer.commands.push(Command::Ask(Dialog::ExportPositions));
                }
                if ui.button("Export frames (in/out range) as PNG…").clicked() {
                    viewer.commands.push(Command::Ask(Dialog::ExportFrames));
                }
                if ui.button("Export video (in/out range)…").on_hover_text("Animated GIF, or MP4 when ffmpeg is installed").clicked() {
                    viewer.commands.push(Command::Ask(Dialog::ExportVideo));
                }
            });
            ui.menu_button("Open recent", |ui| {
                if viewer.settings.recent.is_empty() {
                    ui.label("(none yet)");
                }
                for path in viewer.settings.recent.clone() {
                    if ui.button(path.display().to_string()).clicked() {
                        viewer.commands.push(Command::Open(vec![path]));
                    }
                }
            });
        });
        ui.menu_button("View", |ui| {
            ui.checkbox(&mut viewer.settings.style.bones, "Bones");
            ui.checkbox(&mut viewer.settings.style.joints, "Joints");
            ui.checkbox(&mut viewer.settings.style.axes, "Joint axes");
            ui.checkbox(&mut viewer.settings.style.grid, "Grid");
            ui.checkbox(&mut viewer.settings.style.shadow, "Shadow");
            ui.checkbox(&mut viewer.settings.style.gizmo, "World axes");
            ui.separator();
            for (label, view) in [
                ("Front (1)", ViewPreset::Front),
                ("Side (2)", ViewPreset::Side),
                ("Top (3)", ViewPreset::Top),
                ("Perspective (4)", ViewPreset::Perspective),
            ] {
                if ui.button(label).clicked() {
                    viewer.commands.push(Command::View(view));
                }
            }
            if ui.button("Frame all (F)").clicked() {
                viewer.commands.push(Command::FrameAll);
            }
            ui.add_enabled_ui(viewer.motion().is_some(), |ui| {
                if ui.button("Copy screenshot").on_hover_text("The viewport, without panels, to the clipboard").clicked() {
                    viewer.commands.push(Command::CopyScreenshot);
                }
                if ui.button("Save screenshot…").clicked() {
                    viewer.commands.push(Command::Ask(Dialog::SaveScreenshot));
                }
            });
            ui.checkbox(&mut viewer.view.issues.open, "Issues (I)");
            let mut measuring = viewer.view.measure.open;
            if ui
                .checkbox(&mut measuring, "Measure (M)")
                .on_hover_text("Distance, angle, speed and acceleration of picked joints")
                .changed()
            {
                viewer.commands.push(Command::ToggleMeasure);
            }
            let mut ortho = viewer.view.camera.orthographic;
            if ui.checkbox(&mut ortho, "Orthographic (O)").changed() {
                viewer.commands.push(Command::ToggleOrtho);
            }
            ui.separator();
            let active = viewer
                .session
                .active_clip()
                .map(|c| (c.motion.source.unit, c.motion.source.up_axis, c.unit_override, c.up_override, c.motion.source.up_reason));
            let (unit_set, up_set) = active.map_or((None, None), |a| (a.2, a.3));
            ui.menu_button("Lengths shown", |ui| {
                for d in skelview_core::core::LengthDisplay::ALL {
                    let label = if d == skelview_core::core::LengthDisplay::Auto { "auto (m, cm or mm by size)" } else { d.name() };
                    if ui.radio_value(&mut viewer.settings.lengths, d, label).clicked() {
                        viewer.commands.push(Command::SaveSettings);
                    }
                }
            })
            .response
            .on_hover_text("The unit of lengths in the comparison, inspector, measurements and issues");
            ui.menu_button("File units", |ui| {
                use skelview_core::core::LengthUnit::*;
                let auto = active.map_or("auto".to_owned(), |a| format!("auto ({})", a.0.symbol()));
                if ui.radio(unit_set.is_none(), auto).clicked() {
                    viewer.commands.push(Command::SetUnit(None));
                }
                for unit in [Millimetre, Centimetre, Metre, Inch, Foot, CmuAsf] {
                    if ui.radio(unit_set == Some(unit), unit.symbol()).clicked() {
                        viewer.commands.push(Command::SetUnit(Some(unit)));
                    }
                }
            });
            ui.menu_button("Up axis", |ui| {
                use skelview_core::core::UpAxis;
                let auto = active.map_or("auto".to_owned(), |a| {
                    if a.4.is_empty() { format!("auto ({}, declared)", a.1.name()) } else { format!("auto ({}: {})", a.1.name(), a.4) }
                });
                if ui.radio(up_set.is_none(), auto).clicked() {
                    viewer.commands.push(Command::SetUpAxis(None));
                }
                for up in UpAxis::ALL {
                    let label = if up.name().starts_with('-') { format!("{} up", up.name()) } else { format!("+{} up", up.name()) };
                    if ui.radio(up_set == Some(up), label).clicked() {
                        viewer.commands.push(Command::SetUpAxis(Some(up)));
                    }
                }
            });
            ui.menu_button("BVH position channels", |ui| {
                use skelview_core::core::PositionRule;
                let rule = viewer.position_rule();
                if ui.radio(rule == PositionRule::Replace, "replace the OFFSET (default)").clicked() {
                    viewer.commands.push(Command::SetPositionRule(PositionRule::Replace));
                }
                if ui.radio(rule == PositionRule::Add, "add to the OFFSET (Meredith–Maddock)").clicked() {
                    viewer.commands.push(Command::SetPositionRule(PositionRule::Add));
                }
            });
            ui.separator();
            let mut changed = ui.checkbox(&mut viewer.settings.light_theme, "Light theme").changed();
            let panels = &mut viewer.settings.panels;
            changed |= ui.checkbox(&mut panels.left_shown, "Clips and joint tree panel").changed();
            changed |= ui.checkbox(&mut panels.right_shown, "Inspector panel").changed();
            if changed {
                viewer.commands.push(Command::SaveSettings);
            }
            if ui.button("Reset settings").clicked() {
                viewer.commands.push(Command::ResetSettings);
            }
            ui.checkbox(&mut viewer.view.show_curves, "Channel curves of the selected joint");
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
            if o != viewer.session.scene.overlays {
                viewer.commands.push(Command::SetOverlays(o));
            }
            let mut follow = viewer.view.follow_root;
            if ui.checkbox(&mut follow, "Follow root (R)").changed() {
                viewer.commands.push(Command::ToggleFollowRoot);
            }
        });
        ui.menu_button("Pose", |ui| {
            for (label, mode) in
                [("Animated", PoseMode::Animated), ("Rest pose (channels ignored)", PoseMode::Rest), ("First frame", PoseMode::FirstFrame)]
            {
                if ui.radio(viewer.session.pose_mode == mode, label).clicked() {
                    viewer.commands.push(Command::SetPoseMode(mode));
                }
            }
        });
        if ui.button("Help (F1)").clicked() {
            viewer.commands.push(Command::ToggleHelp);
        }
    });
}

fn status_ui(ui: &mut egui::Ui, viewer: &mut Viewer, frame_ms: f32) {
    ui.horizontal(|ui| {
        if let Some(job) = &viewer.jobs.export {
            ui.label(&job.name);
            ui.add(egui::ProgressBar::new(job.fraction()).desired_width(160.0).show_percentage());
            if ui.button("Cancel").clicked() {
                job.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            ui.separator();
        } else if let Some(notice) = &viewer.messages.notice {
            ui.label(notice);
            ui.separator();
        }
        if let Some(loading) = viewer.session.loads.iter().find(|l| l.replace) {
            ui.label(format!("Loading {}", loading.name));
            ui.add(egui::ProgressBar::new(loading.progress).desired_width(160.0).show_percentage());
        } else if let Some(clip) = viewer.session.active_clip() {
            let m = &clip.motion;
            let s = &m.source;
            let name =
                s.paths.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" + ");
            ui.label(format!(
                "{name} · {} · {} joints · {} frames · {:.3} fps · {:.2} s · file units {}{} · {} up{}",
                s.format.name(),
                m.skeleton.len(),
                m.clip.num_frames(),
                m.clip.fps(),
                m.clip.duration_secs(),
                clip.unit().symbol(),
                if clip.unit_override.is_some() {
                    " (set)"
                } else if s.unit_detected {
                    " (detected)"
                } else {
                    ""
                },
                clip.up_axis().name(),
                if clip.up_override.is_some() {
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
                        viewer.view.issues.open = true;
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

fn error_ui(ctx: &egui::Context, viewer: &mut Viewer) {
    let Some(error) = viewer.messages.error.clone() else { return };
    egui::Window::new("Could not open the file").collapsible(false).resizable(true).anchor(egui::Align2::CENTER_TOP, [0.0, 40.0]).show(
        ctx,
        |ui| {
            ui.label(egui::RichText::new(error).monospace());
            if ui.button("OK").clicked() {
                viewer.commands.push(Command::DismissError);
            }
        },
    );
}
