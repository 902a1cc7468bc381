//! The channel-curves window: the selected joint's channels over the whole active clip, the
//! playhead, click to seek, Euler flips (jumps over 180° between frames) marked.

use crate::app::{Command, Commands, Viewer, WindowEdit};
use skelview_core::core::PlaybackCommand;
use skelview_core::core::envelope::{decimate, one_per_column};

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
    let (Some(m), Some(joint)) = (viewer.motion().cloned(), viewer.view.selected) else {
        ui.label("Select a joint to see its channels.");
        return;
    };
    let name = m.skeleton.joints().get(joint).map_or("?", |j| j.name.as_str());
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
    ui.label(format!("{name}: {} channels, rotations in degrees{translations} · {flips} Euler flips (jumps over 180°)", curves.len()));
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
        p.vline(egui_plot::VLine::new("now", t));
        (p.response().clicked() || p.response().dragged()).then(|| p.pointer_coordinate()).flatten()
    });
    if let Some(at) = response.inner {
        out.send(Command::Playback(PlaybackCommand::Seek(at.x.max(0.0))));
    }
}
