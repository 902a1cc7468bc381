//! The Edits window: the active clip's recipe (each step with its parameters, on/off, moved up
//! or down, removed), undo and redo, a form that adds a step for the selection and the in/out
//! range, how far the edits moved each joint, and the capture's events. Everything it changes
//! is sent as a command; the engine applies the recipe in the background.

use crate::app::{
    Command, Commands, Dialog, EditCommand, EditDraft, EditState, FormValue, JobCommand, SceneEdit, SelectionEdit, Viewer, WindowEdit,
    form_operations,
};
use skelview_core::edit::spec::{Absent, Kind, Param, Taken};
use skelview_core::edit::{AddEvent, Op, RemoveEvent};
use skelview_scene::ClipId;

/// The Edits window (Edit → Edits, E).
pub fn edits_window(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let mut open = viewer.view.edits.open;
    let corner = ctx.content_rect().left_top() + egui::vec2(300.0, 60.0);
    egui::Window::new("Edits")
        .open(&mut open)
        .default_pos(corner)
        .default_size([440.0, 600.0])
        .min_width(380.0)
        .resizable(true)
        .show(ctx, |ui| egui::ScrollArea::vertical().auto_shrink([false, true]).show(ui, |ui| edits_ui(ui, viewer, out)));
    if open != viewer.view.edits.open {
        out.send(Command::Window(WindowEdit::Edits(open)));
    }
}

/// The contents of the Edits window.
pub fn edits_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let Some(clip) = viewer.session.active_clip() else {
        ui.label("Open a file to edit it.");
        return;
    };
    let id = clip.id();
    let edits = viewer.session.document.edits(id);
    ui.label(egui::RichText::new(&clip.name).strong());
    ui.horizontal(|ui| {
        let send = |out: &mut Commands, c| out.send(Command::Edit(id, c));
        if ui.add_enabled(edits.is_some_and(|e| e.can_undo()), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
            send(out, EditCommand::Undo);
        }
        if ui.add_enabled(edits.is_some_and(|e| e.can_redo()), egui::Button::new("Redo")).on_hover_text("Ctrl+Shift+Z").clicked() {
            send(out, EditCommand::Redo);
        }
        let any = edits.is_some_and(|e| !e.recipe.steps.is_empty());
        if ui.add_enabled(any, egui::Button::new("Clear")).on_hover_text("Remove every step: the clip as loaded").clicked() {
            send(out, EditCommand::Clear);
        }
        if ui.add_enabled(any, egui::Button::new("Save recipe…")).clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::SaveRecipe)));
        }
        if !super::WEB && ui.button("Open recipe…").on_hover_text("A recipe (TOML) replaces this clip's steps").clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::OpenRecipe)));
        }
    });
    status_ui(ui, viewer, clip.serial, edits.is_some_and(|e| e.active()));
    ui.separator();
    match edits.filter(|e| !e.recipe.steps.is_empty()) {
        Some(e) => steps_ui(ui, id, &e.recipe.steps, out),
        None => {
            ui.label("No steps: the clip as loaded. Add one below.");
        }
    }
    ui.separator();
    add_step_ui(ui, viewer, id, out);
    if let Some(EditState::Done(applied)) = viewer.edit_runs.state(clip.serial) {
        ui.separator();
        moved_ui(ui, viewer, applied, out);
    }
    if clip.motion.capture.is_some() {
        ui.separator();
        events_ui(ui, viewer, id, out);
    }
}

/// Where the edit stands: applying (with its progress), applied (what each step did), or why
/// it failed.
fn status_ui(ui: &mut egui::Ui, viewer: &Viewer, serial: u64, active: bool) {
    match viewer.edit_runs.state(serial) {
        Some(EditState::Running(f)) => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Applying the edits");
                ui.add(egui::ProgressBar::new(f).desired_width(140.0).show_percentage());
            });
        }
        Some(EditState::Done(applied)) => {
            egui::CollapsingHeader::new(format!("Applied: {} steps", applied.notes.len())).id_salt("edit notes").show(ui, |ui| {
                for note in &applied.notes {
                    ui.label(note);
                }
            });
        }
        Some(EditState::Failed(why)) => {
            ui.colored_label(egui::Color32::from_rgb(255, 110, 90), format!("Not applied: {why}. The clip shows its source."));
        }
        None if active => {
            ui.label("Starting…");
        }
        None => {}
    }
}

/// The recipe's steps: on/off, the operation and its parameters, up, down, remove.
fn steps_ui(ui: &mut egui::Ui, id: ClipId, steps: &[skelview_core::edit::Step], out: &mut Commands) {
    let send = |out: &mut Commands, c| out.send(Command::Edit(id, c));
    egui::Grid::new("edit steps").num_columns(3).striped(true).show(ui, |ui| {
        for (i, step) in steps.iter().enumerate() {
            let mut on = step.enabled;
            if ui.checkbox(&mut on, format!("{}. {}", i + 1, step.op.name())).on_hover_text("On or off (kept in the recipe)").changed() {
                send(out, EditCommand::Enable(i, on));
            }
            ui.label(egui::RichText::new(step.op.parameters()).small());
            ui.horizontal(|ui| {
                if ui.add_enabled(i > 0, egui::Button::new("Up").small()).on_hover_text("Earlier").clicked() {
                    send(out, EditCommand::Move { from: i, to: i - 1 });
                }
                if ui.add_enabled(i + 1 < steps.len(), egui::Button::new("Down").small()).on_hover_text("Later").clicked() {
                    send(out, EditCommand::Move { from: i, to: i + 1 });
                }
                if ui.add(egui::Button::new("Remove").small()).on_hover_text("Remove the step").clicked() {
                    send(out, EditCommand::Remove(i));
                }
            });
            ui.end_row();
        }
    });
}

/// The form that adds a step: the operation, its parameters, and whether it keeps to the
/// selected joint and the in/out range. Made from the operations' declarations: each
/// parameter the form sets gets a field for its kind, with its range, unit and help.
fn add_step_ui(ui: &mut egui::Ui, viewer: &Viewer, id: ClipId, out: &mut Commands) {
    let Some(scope) = viewer.edit_scope() else { return };
    let mut d = viewer.view.edits.draft.clone();
    ui.label(egui::RichText::new("Add a step").strong());
    egui::ComboBox::from_label("Operation").selected_text(d.spec().label).show_ui(ui, |ui| {
        for spec in form_operations() {
            ui.selectable_value(&mut d.op, spec.name, spec.label).on_hover_text(spec.help);
        }
    });
    let spec = d.spec();
    for p in spec.params.iter().filter(|p| p.from == Taken::Form) {
        param_ui(ui, &mut d, p);
    }
    if spec.scoped() {
        let joint = scope.joint.as_deref().unwrap_or("no joint selected");
        ui.checkbox(&mut d.selected_only, format!("Only the selected joint ({joint})"));
        ui.checkbox(&mut d.range_only, format!("Only the in/out range (frames {}–{})", scope.range.0, scope.range.1));
    }
    let step = d.op(&scope);
    ui.horizontal(|ui| {
        let add = ui.add_enabled(step.is_ok(), egui::Button::new("Add step"));
        match &step {
            Ok(op) => {
                ui.label(egui::RichText::new(describe(op)).small().weak());
            }
            Err(why) => {
                ui.label(why.to_string());
            }
        }
        if let (true, Ok(op)) = (add.clicked(), step) {
            out.send(Command::Edit(id, EditCommand::Add(op)));
        }
    });
    if d != viewer.view.edits.draft {
        out.send(Command::Window(WindowEdit::EditDraft(Box::new(d))));
    }
}

/// A parameter's name in the form: its key in words, without its unit (`cutoff_hz`: Cutoff).
fn param_label(p: &Param) -> String {
    let unit = match p.kind {
        Kind::Number { unit, .. } => unit.to_lowercase(),
        _ => String::new(),
    };
    let words: Vec<&str> = p.key.split('_').filter(|w| unit.is_empty() || *w != unit && *w != "secs").collect();
    let text = if words.is_empty() { p.key.replace('_', " ") } else { words.join(" ") };
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The field of one parameter, by its kind.
fn param_ui(ui: &mut egui::Ui, d: &mut EditDraft, p: &'static Param) {
    let value = d.value(p);
    ui.horizontal(|ui| {
        let label = ui.label(param_label(p)).on_hover_text(p.help);
        match (&p.kind, value) {
            (Kind::Number { min, max, integer, unit, default }, FormValue::Number(mut v)) => {
                let auto = if let Absent::Auto(how) = default { Some(*how) } else { None };
                // An optional number is left to the clip at 0.
                let low = if auto.is_some() { 0.0 } else { *min };
                let mut drag = egui::DragValue::new(&mut v).range(low..=*max).speed(if *integer { 1.0 } else { 0.05 });
                if *integer {
                    drag = drag.fixed_decimals(0);
                }
                if !unit.is_empty() {
                    drag = drag.suffix(format!(" {unit}"));
                }
                if ui.add(drag).labelled_by(label.id).on_hover_text(p.help).changed() {
                    d.set(p, FormValue::Number(v));
                }
                if let (Some(how), true) = (auto, v == 0.0) {
                    ui.label(format!("(0: {how})"));
                }
            }
            (Kind::Choice { choices, .. }, FormValue::Text(mut t)) => {
                let before = t.clone();
                let shown = egui::ComboBox::from_id_salt(p.key).selected_text(&t).show_ui(ui, |ui| {
                    for c in *choices {
                        ui.selectable_value(&mut t, (*c).to_owned(), *c);
                    }
                });
                shown.response.labelled_by(label.id).on_hover_text(p.help);
                if t != before {
                    d.set(p, FormValue::Text(t));
                }
            }
            (_, FormValue::Text(mut t)) => {
                if ui.text_edit_singleline(&mut t).labelled_by(label.id).on_hover_text(p.help).changed() {
                    d.set(p, FormValue::Text(t));
                }
            }
            (_, FormValue::Number(_)) => {}
        }
    });
}

/// A step in one line, as the recipe writes it.
fn describe(op: &Op) -> String {
    let p = op.parameters();
    if p.is_empty() { op.name().to_owned() } else { format!("{}: {p}", op.name()) }
}

/// How far the edits moved each joint or marker, the largest first; a click goes to the frame
/// where it moved most. The source is drawn faintly behind the clip (switchable).
fn moved_ui(ui: &mut egui::Ui, viewer: &Viewer, applied: &crate::app::Applied, out: &mut Commands) {
    let Some(m) = viewer.motion() else { return };
    let mut o = viewer.session.scene.overlays;
    if ui.checkbox(&mut o.ghost, "Show the source faintly behind the clip").changed() {
        out.send(Command::Scene(SceneEdit::Overlays(o)));
    }
    let mut moved: Vec<&skelview_core::edit::Moved> = applied.moved.iter().filter(|d| d.frames > 0).collect();
    moved.sort_by(|a, b| b.max_m.total_cmp(&a.max_m));
    let filled: usize = applied.moved.iter().map(|d| d.filled).sum();
    let still = moved.iter().filter(|d| d.max_m < 1e-6).count();
    ui.label(egui::RichText::new("How far each joint moved from the source").strong());
    ui.label(format!("{} of {} unchanged; {filled} samples filled (not counted)", still, moved.len()));
    let lengths = viewer.settings.lengths;
    egui::Grid::new("moved").num_columns(4).striped(true).show(ui, |ui| {
        ui.label("joint");
        ui.label("largest");
        ui.label("RMS");
        ui.label("at frame");
        ui.end_row();
        for d in moved.iter().filter(|d| d.max_m >= 1e-6).take(12) {
            let name = m.skeleton.joints().get(d.joint).map_or("?", |j| j.name.as_str());
            ui.label(name);
            ui.label(lengths.show(d.max_m));
            ui.label(lengths.show(d.rms_m));
            if ui.link(d.max_frame.to_string()).on_hover_text("Go there and select the joint").clicked() {
                out.send(Command::Selection(SelectionEdit::Finding { frame: d.max_frame, joint: Some(d.joint) }));
            }
            ui.end_row();
        }
    });
}

/// The capture's events: each removed, or moved to the frame shown, with one step; new
/// ones are added with the form above (or from the timeline's menu).
fn events_ui(ui: &mut egui::Ui, viewer: &Viewer, id: ClipId, out: &mut Commands) {
    let Some(capture) = viewer.motion().and_then(|m| m.capture.as_ref()) else { return };
    let now = viewer.edit_scope().map_or(0.0, |s| s.event_time_secs);
    ui.label(egui::RichText::new(format!("Events ({})", capture.events.len())).strong());
    egui::Grid::new("events").num_columns(3).striped(true).show(ui, |ui| {
        for e in &capture.events {
            ui.label(format!("{} {}", e.context, e.label));
            ui.label(format!("{:.3} s", e.time_secs));
            ui.horizontal(|ui| {
                let remove = Op::RemoveEvent(RemoveEvent { label: e.label.clone(), time_secs: e.time_secs });
                if ui.small_button("Remove").on_hover_text("Remove it").clicked() {
                    out.send(Command::Edit(id, EditCommand::Add(remove.clone())));
                }
                if ui.small_button("move here").on_hover_text("Move it to the frame shown").clicked() {
                    let time_secs = (now * 1e6).round() / 1e6;
                    let add = Op::AddEvent(AddEvent { label: e.label.clone(), context: e.context.clone(), time_secs });
                    // One undo takes both back.
                    if let Some(edits) = viewer.session.document.edits(id) {
                        let mut recipe = edits.recipe.clone();
                        recipe.steps.extend([remove, add].map(|op| skelview_core::edit::Step { op, enabled: true }));
                        out.send(Command::Edit(id, EditCommand::Replace(recipe)));
                    } else {
                        out.send(Command::Edit(id, EditCommand::Replace(skelview_core::edit::Recipe::of([remove, add]))));
                    }
                }
            });
            ui.end_row();
        }
    });
}
