//! The channel-curves window: the selected joint's channels over the whole active clip, the
//! playhead, click to seek, Euler flips (jumps over 180° between frames) marked.

use crate::app::{Command, Commands, Viewer, WindowEdit};
use skelview_core::core::PlaybackCommand;
use skelview_core::core::capture::Capture;
use skelview_core::core::envelope::{decimate, one_per_column};
use skelview_core::core::signals::{self, Signal};

/// Shows the window while `viewer.view.show_curves` is set.
pub fn curves_window(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let mut open = viewer.view.show_curves;
    // Bottom left of the viewport, over the ground rather than the bodies.
    let corner = ctx.content_rect().left_bottom() + egui::vec2(310.0, -125.0);
    egui::Window::new("Channel curves")
        .open(&mut open)
        .pivot(egui::Align2::LEFT_BOTTOM)
        .default_pos(corner)
        .default_width(420.0)
        .resizable(true)
        .show(ctx, |ui| curves_ui(ui, viewer, out));
    if open != viewer.view.show_curves {
        out.send(Command::Window(WindowEdit::Curves(open)));
    }
}

/// The contents of the channel-curves window: the curves computed in the background for the
/// selected joint, reduced to the plot's width in pixels.
pub fn curves_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let capture = viewer.motion().and_then(|m| m.capture.clone());
    let signal = viewer.view.signal.filter(|_| capture.is_some());
    if let Some(c) = &capture {
        signal_ui(ui, c, signal, out);
    }
    let Some(m) = viewer.motion().cloned() else { return };
    let name = match (signal, &capture, viewer.view.selected) {
        (Some(sig), Some(c), _) => signals::list(c).into_iter().find(|(s, _)| *s == sig).map_or("?".to_owned(), |(_, label)| label),
        (None, _, Some(joint)) => m.skeleton.joints().get(joint).map_or("?".to_owned(), |j| j.name.clone()),
        _ => {
            ui.label("Select a joint to see its channels.");
            return;
        }
    };
    let Some(curves) = viewer.whole.curves.result().cloned() else {
        match (viewer.whole.curves.running(), viewer.whole.curves.error()) {
            (Some(f), _) => ui.add(egui::ProgressBar::new(f).text(format!("{name}: reading the channels…"))),
            (None, Some(e)) => ui.label(format!("{name}: {e}")),
            (None, None) => ui.label(format!("{name}: …")),
        };
        return;
    };
    if curves.is_empty() {
        ui.label(format!("{name}: no channels"));
        return;
    }
    let flips: usize = curves.iter().map(|c| c.flip_count).sum();
    // One unit for every translation curve, picked by the largest of them.
    let largest = curves.iter().filter(|c| c.length).flat_map(|c| c.points.iter().map(|p| p[1].abs() as f32)).fold(0.0, f32::max);
    let unit = viewer.settings.lengths.unit_for(largest);
    let factor = unit.per_metre() as f64;
    let translations = if curves.iter().any(|c| c.length) { format!(", translations in {}", unit.symbol()) } else { String::new() };
    if signal.is_some() {
        ui.label(format!("{name}: {} components", curves.len()));
    } else {
        ui.label(format!("{name}: {} channels, rotations in degrees{translations} · {flips} Euler flips (jumps over 180°)", curves.len()));
    }
    let t = viewer.session.playback.time_secs;
    let columns = (ui.available_width() * ui.ctx().pixels_per_point()).max(16.0) as usize;
    let plot = egui_plot::Plot::new("channel_curves")
        .height(160.0)
        .legend(egui_plot::Legend::default())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .x_axis_label("s");
    let response = plot.show(ui, |p| {
        for c in curves.iter() {
            let mut points = decimate(&c.points, columns);
            let label = if c.length {
                points.iter_mut().for_each(|q| q[1] *= factor);
                format!("{} ({})", c.name, unit.symbol())
            } else {
                c.name.clone()
            };
            p.line(egui_plot::Line::new(label, points));
            let (t0, t1) = (c.points.first().map_or(0.0, |q| q[0]), c.points.last().map_or(0.0, |q| q[0]));
            for at in one_per_column(&c.flips, t0, t1, columns) {
                p.vline(egui_plot::VLine::new(format!("{} flip", c.name), at).color(egui::Color32::from_rgb(255, 80, 80)));
            }
        }
        if let Some(c) = &capture {
            // Event times count from the trial's frame 1; the clip starts at its first frame.
            let offset = viewer.session.active_clip().map_or(0.0, |k| k.offset_secs);
            let start = f64::from(c.first_frame.saturating_sub(1)) / c.point_rate_hz.max(1e-9);
            for e in &c.events {
                let label = format!("{} {}", e.context, e.label);
                p.vline(egui_plot::VLine::new(label.trim().to_owned(), offset + e.time_secs - start).color(egui::Color32::from_gray(150)));
            }
        }
        p.vline(egui_plot::VLine::new("now", t));
        (p.response().clicked() || p.response().dragged()).then(|| p.pointer_coordinate()).flatten()
    });
    if let Some(at) = response.inner {
        out.send(Command::Playback(PlaybackCommand::Seek(at.x.max(0.0))));
    }
}

/// A capture's signal picker: the selected marker's channels, or an analog channel, a
/// platform's force, moment, centre of pressure or free moment, or a model output.
fn signal_ui(ui: &mut egui::Ui, capture: &Capture, current: Option<Signal>, out: &mut Commands) {
    let list = signals::list(capture);
    if list.is_empty() {
        return;
    }
    let selected_text =
        current.and_then(|s| list.iter().find(|(k, _)| *k == s)).map_or("the selected marker".to_owned(), |(_, l)| l.clone());
    let mut chosen = current;
    egui::ComboBox::from_label("signal").selected_text(selected_text).width(260.0).show_ui(ui, |ui| {
        ui.selectable_value(&mut chosen, None, "the selected marker");
        for (s, label) in &list {
            ui.selectable_value(&mut chosen, Some(*s), label);
        }
    });
    if chosen != current {
        out.send(Command::Window(WindowEdit::Signal(chosen)));
    }
}
