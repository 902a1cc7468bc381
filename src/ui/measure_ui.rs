//! The Measure window (distance, angle, speed and acceleration of picked joints over time)
//! and its drawing over the viewport: lines between the joints, the angle's arc, the value.

use crate::app::measure::{MeasureCurves, MeasureTool};
use crate::app::{Command, Commands, Dialog, JobCommand, Viewer, WindowEdit};
use skelview_core::core::envelope::decimate;
use skelview_core::core::measure::Measure;
use skelview_core::core::{LengthDisplay, PlaybackCommand};

/// `value` of `measure` as a person reads it: lengths in the user's unit, angles in degrees.
pub fn shown(measure: &Measure, value: f64, lengths: LengthDisplay) -> String {
    if !value.is_finite() {
        return "- (missing data)".to_owned();
    }
    match measure {
        Measure::Distance(..) => lengths.show(value as f32),
        Measure::Angle(..) => format!("{value:.1}°"),
        Measure::Speed(_) => format!("{value:.3} m/s"),
        Measure::Acceleration(_) => format!("{value:.2} m/s²"),
    }
}

/// Factor and unit of a measure's plot axis (lengths follow the user's choice).
fn axis(measure: &Measure, values: &[[f64; 2]], lengths: LengthDisplay) -> (f64, &'static str) {
    match measure {
        Measure::Distance(..) => {
            let largest = values.iter().map(|p| p[1].abs() as f32).fold(0.0, f32::max);
            let u = lengths.unit_for(largest);
            (u.per_metre() as f64, u.symbol())
        }
        Measure::Angle(..) => (1.0, "°"),
        Measure::Speed(_) => (1.0, "m/s"),
        Measure::Acceleration(_) => (1.0, "m/s²"),
    }
}

/// Shows the window while the tool is open.
pub fn measure_window(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let mut open = viewer.view.measure.open;
    // Top right of the viewport, beside the inspector: clear of a figure framed in the middle.
    let right = if viewer.settings.panels.right_shown { viewer.settings.panels.right_width } else { 0.0 };
    egui::Window::new("Measure")
        .open(&mut open)
        .default_pos(ctx.content_rect().right_top() + egui::vec2(-right - 400.0, 70.0))
        .default_width(380.0)
        .resizable(true)
        .show(ctx, |ui| measure_ui(ui, viewer, out));
    if open != viewer.view.measure.open {
        out.send(Command::Window(WindowEdit::Measure(open)));
    }
}

/// The window's contents: the picks, the values now, a curve per measure, Copy and Export.
pub fn measure_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let Some(m) = viewer.motion().cloned() else {
        ui.label("Open a clip to measure it.");
        return;
    };
    let tool: MeasureTool = viewer.view.measure.clone();
    let name = |j: usize| m.skeleton.joints().get(j).map_or("?".to_owned(), |x| x.name.clone());
    ui.label("Click joints in the viewport or the tree: one for its speed and acceleration, two for their distance, three for the angle at the middle one.");
    ui.horizontal_wrapped(|ui| {
        if tool.picks.is_empty() {
            ui.weak("no joint picked");
        } else {
            ui.strong(tool.picks.iter().map(|&j| name(j)).collect::<Vec<_>>().join(" – "));
        }
        if ui.small_button("Clear").clicked() {
            out.send(Command::Window(WindowEdit::ClearMeasure));
        }
    });
    let measures = tool.measures();
    if measures.is_empty() {
        return;
    }
    let lengths = viewer.settings.lengths;
    egui::Grid::new("measure_now").num_columns(2).show(ui, |ui| {
        for (k, x) in measures.iter().enumerate() {
            ui.label(x.kind());
            ui.monospace(shown(x, tool.now.get(k).copied().unwrap_or(f64::NAN), lengths));
            ui.end_row();
        }
    });
    let curves = viewer.whole.measures.result().cloned().filter(|c| c.measures == measures);
    let Some(curves) = curves else {
        match (viewer.whole.measures.running(), viewer.whole.measures.error()) {
            (Some(f), _) => ui.add(egui::ProgressBar::new(f).text("measuring the whole clip…")),
            (None, Some(e)) => ui.label(e.to_string()),
            (None, None) => ui.label("…"),
        };
        return;
    };
    curves_ui(ui, viewer, out, &curves, lengths);
    ui.horizontal(|ui| {
        if ui.button("Copy").on_hover_text("Every frame as CSV (frame, time, one column per measure), metres, degrees, m/s").clicked() {
            let frames: Vec<usize> = (0..m.clip.num_frames().max(1)).collect();
            let mut out = Vec::new();
            if skelview_core::export::measures::write_measures(&m, &curves.measures, &frames, &curves.values, &mut out).is_ok() {
                ui.ctx().copy_text(String::from_utf8_lossy(&out).into_owned());
            }
        }
        let busy = viewer.jobs.exporting();
        if ui.add_enabled(!busy, egui::Button::new("Export CSV…")).clicked() {
            out.send(Command::Job(JobCommand::Ask(Dialog::ExportMeasures)));
        }
    });
}

/// One plot per measure over the whole clip, with the playhead; a click seeks.
fn curves_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, curves: &MeasureCurves, lengths: LengthDisplay) {
    let t = viewer.session.playback.time_secs;
    let columns = (ui.available_width() * ui.ctx().pixels_per_point()).max(16.0) as usize;
    let m = viewer.motion().cloned();
    let name = |j: usize| m.as_ref().and_then(|m| m.skeleton.joints().get(j)).map_or("?".to_owned(), |x| x.name.clone());
    for (k, (measure, points)) in curves.measures.iter().zip(&curves.points).enumerate() {
        let (factor, unit) = axis(measure, points, lengths);
        let mut shown_points = decimate(points, columns);
        shown_points.iter_mut().for_each(|p| p[1] *= factor);
        let plot = egui_plot::Plot::new(("measure_plot", k))
            .height(90.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .allow_boxed_zoom(false)
            .x_axis_label("s")
            .y_axis_label(unit);
        let label = measure.label(&name);
        let response = plot.show(ui, |p| {
            p.line(egui_plot::Line::new(label, shown_points));
            p.vline(egui_plot::VLine::new("now", t));
            (p.response().clicked() || p.response().dragged()).then(|| p.pointer_coordinate()).flatten()
        });
        if let Some(at) = response.inner {
            out.send(Command::Playback(PlaybackCommand::Seek(at.x.max(0.0))));
        }
    }
}

/// Lines between the picked joints, the angle's arc and the value, over the viewport.
pub fn measure_overlay(painter: &egui::Painter, rect: egui::Rect, viewer: &Viewer) {
    let tool = &viewer.view.measure;
    if !tool.open || tool.picks.is_empty() {
        return;
    }
    let camera = &viewer.view.camera;
    let positions = viewer.positions();
    let at = |j: usize| {
        positions.get(j).and_then(|p| camera.project(*p, rect.width(), rect.height())).map(|(p, _)| rect.min + egui::vec2(p.x, p.y))
    };
    let colour = egui::Color32::from_rgb(255, 215, 64);
    let stroke = egui::Stroke::new(2.0, colour);
    let points: Vec<Option<egui::Pos2>> = tool.picks.iter().map(|&j| at(j)).collect();
    for p in points.iter().flatten() {
        painter.circle_stroke(*p, 7.0, stroke);
    }
    for pair in points.windows(2) {
        if let [Some(a), Some(b)] = pair {
            painter.line_segment([*a, *b], stroke);
        }
    }
    let measures = tool.measures();
    let lengths = viewer.settings.lengths;
    let text: Vec<String> = measures.iter().zip(&tool.now).map(|(m, v)| shown(m, *v, lengths)).collect();
    // The arc at the middle joint, drawn in 3D between the two bones so it turns with the view.
    if let &[a, b, c] = tool.picks.as_slice()
        && let (Some(pa), Some(pb), Some(pc)) = (positions.get(a), positions.get(b), positions.get(c))
    {
        let (u, v) = ((*pa - *pb), (*pc - *pb));
        let r = 0.3 * u.length().min(v.length());
        let (u, v) = (u.normalize_or_zero(), v.normalize_or_zero());
        let arc: Vec<egui::Pos2> = (0..=24)
            .filter_map(|s| {
                let d = u.lerp(v, s as f32 / 24.0).normalize_or_zero();
                camera.project(*pb + d * r, rect.width(), rect.height()).map(|(p, _)| rect.min + egui::vec2(p.x, p.y))
            })
            .collect();
        painter.add(egui::Shape::line(arc, stroke));
    }
    // The value beside the middle of what is measured.
    let anchor = match points.as_slice() {
        [Some(a), Some(b)] => Some(a.lerp(*b, 0.5)),
        [_, Some(b), _] | [Some(b)] => Some(*b),
        _ => None,
    };
    if let Some(p) = anchor {
        let galley = painter.layout_no_wrap(text.join("\n"), egui::FontId::monospace(13.0), colour);
        let at = p + egui::vec2(12.0, -galley.size().y - 6.0);
        painter.rect_filled(egui::Rect::from_min_size(at, galley.size()).expand(3.0), 3.0, egui::Color32::from_black_alpha(170));
        painter.galley(at, galley, colour);
    }
}
