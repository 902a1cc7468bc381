//! The timeline: scrub, play, step, rate, loop, range, interpolation.

use crate::app::{Command, Commands, EditCommand, SettingEdit, Viewer};
use crate::ui::kind_color;
use skelview_core::core::playback::RATE_RANGE;
use skelview_core::core::{Interpolation, PlaybackCommand};
use skelview_core::edit::{AddEvent, Op, RemoveEvent};
use skelview_core::qa::Kind;

pub fn timeline_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let p = viewer.session.playback.clone();
    let mut commands: Vec<PlaybackCommand> = Vec::new();
    let mut interp = viewer.settings.interpolation;
    let mut push = |c: PlaybackCommand| commands.push(c);
    ui.add_space(4.0);
    transport_ui(ui, &p, &mut push);
    // The clips' extents on the shared clock, and where values are missing: shown with
    // several clips, or with one that misses values.
    if viewer.session.scene.clips.len() > 1 || viewer.session.scene.clips.iter().any(|c| !c.motion.clip.missing().is_empty()) {
        extents_ui(ui, viewer, &p, &mut push);
    }
    let event_edits = events_ui(ui, viewer, &p, &mut push);
    for c in event_edits {
        out.send(c);
    }
    findings_ui(ui, viewer, &p, &mut push);
    playback_options_ui(ui, &p, &mut interp, &mut push);
    ui.add_space(2.0);
    for c in commands {
        out.send(Command::Playback(c));
    }
    if interp != viewer.settings.interpolation {
        out.send(Command::Setting(SettingEdit::Interpolation(interp)));
    }
}

/// The transport row: first, step back, play or pause, step forward, last, the frame and time
/// now, and the slider that seeks.
fn transport_ui(ui: &mut egui::Ui, p: &skelview_core::core::Playback, push: &mut impl FnMut(PlaybackCommand)) {
    let last = p.num_frames().saturating_sub(1);
    ui.horizontal(|ui| {
        ui.add_enabled_ui(p.num_frames() > 0, |ui| {
            if ui.button("|<").on_hover_text("First frame of the range (Home)").clicked() {
                push(PlaybackCommand::Home);
            }
            if ui.button("<").on_hover_text("Step back (←, Shift: 10)").clicked() {
                push(PlaybackCommand::Step(-1));
            }
            if ui.button(if p.playing { "Pause" } else { "Play" }).on_hover_text("Play / pause (Space)").clicked() {
                push(PlaybackCommand::TogglePlay);
            }
            if ui.button(">").on_hover_text("Step forward (→, Shift: 10)").clicked() {
                push(PlaybackCommand::Step(1));
            }
            if ui.button(">|").on_hover_text("Last frame of the range (End)").clicked() {
                push(PlaybackCommand::End);
            }
            let mut frame = p.frame();
            let width = (ui.available_width() - 250.0).max(120.0);
            ui.spacing_mut().slider_width = width;
            let readout = ui.monospace(format!("frame {:>5} / {:<5} {:>8.3} s", p.frame(), last, p.time_secs));
            let slider = egui::Slider::new(&mut frame, 0..=last.max(1)).show_value(false);
            if ui.add_enabled(last > 0, slider).labelled_by(readout.id).changed() {
                push(PlaybackCommand::SeekFrame(frame));
            }
        });
    });
}

/// The playback options row: rate (slider and presets), loop, the in/out range, the sampling
/// between frames (`interp`, the choice shown) and the frame time.
fn playback_options_ui(
    ui: &mut egui::Ui,
    p: &skelview_core::core::Playback,
    interp: &mut Interpolation,
    push: &mut impl FnMut(PlaybackCommand),
) {
    ui.horizontal(|ui| {
        let rate_label = ui.label("rate");
        let mut rate = p.rate;
        let slider = egui::Slider::new(&mut rate, RATE_RANGE.0..=RATE_RANGE.1).logarithmic(true).show_value(false);
        if ui.add(slider).labelled_by(rate_label.id).changed() {
            push(PlaybackCommand::SetRate(rate));
        }
        ui.monospace(format!("{:.2}×", p.rate));
        for preset in [0.25, 0.5, 1.0, 2.0] {
            if ui.selectable_label((p.rate - preset).abs() < 1e-9, format!("{preset}×")).clicked() {
                push(PlaybackCommand::SetRate(preset));
            }
        }
        ui.separator();
        let mut looping = p.looping;
        if ui.checkbox(&mut looping, "loop").changed() {
            push(PlaybackCommand::SetLooping(looping));
        }
        ui.separator();
        ui.label(format!("range {}–{}", p.in_frame, p.out_frame));
        if ui.button("set in").clicked() {
            push(PlaybackCommand::SetInHere);
        }
        if ui.button("set out").clicked() {
            push(PlaybackCommand::SetOutHere);
        }
        if ui.button("clear").clicked() {
            push(PlaybackCommand::ClearRange);
        }
        ui.separator();
        egui::ComboBox::new("interp", "sampling")
            .selected_text(if *interp == Interpolation::Linear { "linear" } else { "nearest" })
            .show_ui(ui, |ui| {
                ui.selectable_value(interp, Interpolation::Linear, "linear");
                ui.selectable_value(interp, Interpolation::Nearest, "nearest");
            });
        ui.separator();
        ui.label(format!("{} s/frame = {:.4} fps", seconds(p.frame_time_secs()), 1.0 / p.frame_time_secs()));
    });
}

/// Every clip's extent on the shared clock as a bar in its colour, with the playhead;
/// clicking or dragging seeks.
fn extents_ui(ui: &mut egui::Ui, viewer: &Viewer, p: &skelview_core::core::Playback, push: &mut impl FnMut(PlaybackCommand)) {
    let span = (p.num_frames().saturating_sub(1) as f64 * p.frame_time_secs()).max(1e-9);
    let row = 5.0;
    let height = row * viewer.session.scene.clips.len() as f32 + 2.0;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(ui.available_width(), height), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let x_of = |t: f64| rect.left() + (t / span).clamp(0.0, 1.0) as f32 * rect.width();
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    for (i, c) in viewer.session.scene.clips.iter().enumerate() {
        let y = rect.top() + 1.0 + row * i as f32;
        let color = egui::Rgba::from_rgba_unmultiplied(c.color[0], c.color[1], c.color[2], if c.visible { 1.0 } else { 0.3 });
        let bar = egui::Rect::from_min_max(
            egui::pos2(x_of(c.offset_secs), y),
            egui::pos2(x_of(c.end_secs()).max(x_of(c.offset_secs) + 2.0), y + row - 1.0),
        );
        painter.rect_filled(bar, 1.0, color);
        // Frames where the file left values missing (held for drawing): a red band.
        let ft = c.motion.clip.frame_time_secs;
        let mut columns = PixelRuns::new(rect);
        let mut cover = |first: usize, last: usize| {
            let (a, b) = (c.offset_secs + first as f64 * ft, c.offset_secs + (last as f64 + 1.0) * ft);
            columns.cover(x_of(a), x_of(b).max(x_of(a) + 1.0));
        };
        match &c.motion.capture {
            // A capture: the selected marker's gaps (most frames miss some marker).
            Some(capture) => {
                let selected = (i == viewer.session.active).then_some(viewer.view.selected).flatten();
                if let Some(p) = selected.and_then(|j| capture.marker_point(j)) {
                    for (first, last) in capture.gap_runs(p) {
                        cover(first, last);
                    }
                }
            }
            None => {
                for run in c.motion.clip.missing() {
                    cover(run.first as usize, run.last as usize);
                }
            }
        }
        columns.paint(&painter, y, row - 1.0, egui::Color32::from_rgb(230, 40, 40));
    }
    let x = x_of(p.time_secs);
    painter
        .line_segment([egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())], egui::Stroke::new(1.5, ui.visuals().strong_text_color()));
    if let Some(pos) = response.interact_pointer_pos().filter(|_| response.clicked() || response.dragged()) {
        push(PlaybackCommand::Seek(((pos.x - rect.left()) / rect.width().max(1.0)) as f64 * span));
    }
}

/// The active capture's events on the shared clock: a tick each, coloured by context (left
/// blue, right red, others grey); hovering names them, clicking seeks, and the right button's
/// menu adds an event at the frame shown or removes those at it (as edits, undone by Ctrl+Z).
fn events_ui(
    ui: &mut egui::Ui,
    viewer: &Viewer,
    p: &skelview_core::core::Playback,
    push: &mut impl FnMut(PlaybackCommand),
) -> Vec<Command> {
    let mut edits = Vec::new();
    let Some(c) = viewer.session.active_clip() else { return edits };
    let Some(capture) = c.motion.capture.as_ref() else { return edits };
    let span = (p.num_frames().saturating_sub(1) as f64 * p.frame_time_secs()).max(1e-9);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 9.0), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let x_of = |t: f64| rect.left() + (t / span).clamp(0.0, 1.0) as f32 * rect.width();
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    // Event times count from the trial's frame 1; the clip starts at its first frame.
    let start = f64::from(capture.first_frame.saturating_sub(1)) / capture.point_rate_hz.max(1e-9);
    let mut under = Vec::new();
    for e in &capture.events {
        let x = x_of(c.offset_secs + e.time_secs - start);
        let color = match e.context.to_ascii_lowercase().as_str() {
            "left" => egui::Color32::from_rgb(80, 140, 255),
            "right" => egui::Color32::from_rgb(255, 90, 80),
            _ => egui::Color32::from_gray(200),
        };
        painter.line_segment([egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())], egui::Stroke::new(2.0, color));
        if response.hover_pos().is_some_and(|q| (q.x - x).abs() < 4.0) {
            under.push(format!("{} {} at {:.3} s", e.context, e.label, e.time_secs));
        }
    }
    if !under.is_empty() {
        response.clone().on_hover_text(under.join("\n"));
    }
    if let Some(pos) = response.interact_pointer_pos().filter(|_| response.clicked() || response.dragged()) {
        push(PlaybackCommand::Seek(((pos.x - rect.left()) / rect.width().max(1.0)) as f64 * span));
    }
    let id = c.id();
    response.context_menu(|ui| {
        let Some(scope) = viewer.edit_scope() else { return };
        let now = (scope.event_time_secs * 1e6).round() / 1e6;
        for (context, label) in
            [("Left", "Foot Strike"), ("Right", "Foot Strike"), ("Left", "Foot Off"), ("Right", "Foot Off"), ("General", "Event")]
        {
            if ui.button(format!("Add {context} {label} at {now:.3} s")).clicked() {
                let op = Op::AddEvent(AddEvent { label: label.into(), context: context.into(), time_secs: now });
                edits.push(Command::Edit(id, EditCommand::Add(op)));
                ui.close();
            }
        }
        // The events at the frame shown (within half a frame, as removal matches them).
        let half = 0.5 * c.motion.clip.frame_time_secs.max(1e-6);
        let here: Vec<_> = capture.events.iter().filter(|e| (e.time_secs - now).abs() <= half).collect();
        if !here.is_empty() {
            ui.separator();
        }
        for e in here {
            if ui.button(format!("Remove {} {} at {:.3} s", e.context, e.label, e.time_secs)).clicked() {
                let op = Op::RemoveEvent(RemoveEvent { label: e.label.clone(), time_secs: e.time_secs });
                edits.push(Command::Edit(id, EditCommand::Add(op)));
                ui.close();
            }
        }
        ui.separator();
        if ui.button("Edits… (E)").clicked() {
            edits.push(Command::Window(crate::app::WindowEdit::Edits(true)));
            ui.close();
        }
    });
    edits
}

/// The active clip's capture-check findings on the shared clock: a row of marks per kind
/// found (hidden kinds left out), in the kind's colour; hovering names them, clicking seeks.
fn findings_ui(ui: &mut egui::Ui, viewer: &Viewer, p: &skelview_core::core::Playback, push: &mut impl FnMut(PlaybackCommand)) {
    let (Some(report), Some(c)) = (viewer.active_report(), viewer.session.active_clip()) else { return };
    let hidden = &viewer.view.issues.hidden;
    let kinds: Vec<Kind> = report.found().iter().copied().filter(|k| *k != Kind::NeutralPose && !hidden.contains(k)).collect();
    if kinds.is_empty() {
        return;
    }
    let span = (p.num_frames().saturating_sub(1) as f64 * p.frame_time_secs()).max(1e-9);
    let row = 4.0;
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(ui.available_width(), row * kinds.len() as f32 + 2.0), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let x_of = |t: f64| rect.left() + (t / span).clamp(0.0, 1.0) as f32 * rect.width();
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let ft = c.motion.clip.frame_time_secs;
    let mut under = Vec::new();
    let pointer = response.hover_pos();
    // Marks on the same pixels are merged: a long clip can have tens of thousands.
    let mut rows: Vec<PixelRuns> = kinds.iter().map(|_| PixelRuns::new(rect)).collect();
    for f in report.findings.iter() {
        let Some(k) = kinds.iter().position(|k| *k == f.kind) else { continue };
        let (a, b) = (c.offset_secs + f.start_frame as f64 * ft, c.offset_secs + (f.end_frame as f64 + 1.0) * ft);
        let (x0, x1) = (x_of(a), x_of(b).max(x_of(a) + 2.0));
        rows[k].cover(x0, x1);
        if pointer.is_some_and(|q| q.x >= x0 - 2.0 && q.x <= x1 + 2.0) && under.len() < 6 {
            under.push(f.message.clone());
        }
    }
    for (k, (runs, kind)) in rows.iter().zip(&kinds).enumerate() {
        runs.paint(&painter, rect.top() + 1.0 + row * k as f32, row - 1.0, kind_color(*kind));
    }
    let x = x_of(p.time_secs);
    painter
        .line_segment([egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())], egui::Stroke::new(1.5, ui.visuals().strong_text_color()));
    if !under.is_empty() {
        response.clone().on_hover_text(under.join("\n"));
    }
    if let Some(pos) = response.interact_pointer_pos().filter(|_| response.clicked() || response.dragged()) {
        push(PlaybackCommand::Seek(((pos.x - rect.left()) / rect.width().max(1.0)) as f64 * span));
    }
}

/// A frame time as the file wrote it (shortest exact text), or to 7 significant digits when
/// it was computed (1/120 has no short exact form).
fn seconds(t: f64) -> String {
    let exact = format!("{t}");
    if exact.len() <= 12 { exact } else { format!("{:.7}", t).trim_end_matches('0').to_owned() }
}

/// Spans on a horizontal strip, merged per whole pixel so that a clip with tens of
/// thousands of marks draws at most one rectangle per run of covered pixels.
struct PixelRuns {
    left: f32,
    covered: Vec<bool>,
}

impl PixelRuns {
    fn new(rect: egui::Rect) -> Self {
        Self { left: rect.left(), covered: vec![false; rect.width().max(0.0).ceil() as usize + 1] }
    }

    /// Marks the pixels from `x0` to `x1` (screen points).
    fn cover(&mut self, x0: f32, x1: f32) {
        let last = self.covered.len() - 1;
        let a = ((x0 - self.left).floor().max(0.0) as usize).min(last);
        let b = ((x1 - self.left).ceil().max(0.0) as usize).min(last);
        self.covered[a..=b.max(a)].iter_mut().for_each(|c| *c = true);
    }

    /// Paints each run of covered pixels as one rectangle from `y`, `height` tall.
    fn paint(&self, painter: &egui::Painter, y: f32, height: f32, color: impl Into<egui::Color32>) {
        let color = color.into();
        let mut k = 0;
        while k < self.covered.len() {
            if !self.covered[k] {
                k += 1;
                continue;
            }
            let start = k;
            while k < self.covered.len() && self.covered[k] {
                k += 1;
            }
            let r = egui::Rect::from_min_max(egui::pos2(self.left + start as f32, y), egui::pos2(self.left + k as f32, y + height));
            painter.rect_filled(r, 0.0, color);
        }
    }
}
