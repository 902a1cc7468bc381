//! The comparison panel (two or more clips): the compared clip, the error now and over
//! time (click the plot to seek), the worst joints, the heat-map legend and the editable pairs.

use crate::app::{Command, Commands, CompareEdit, Viewer};
use skelview_core::core::envelope::decimate;
use skelview_core::core::{PlaybackCommand, Skeleton};
use skelview_core::retarget::BoneAgreement;
use skelview_scene::{CompareMode, CompareView, heat_color};

/// The comparison panel (in the inspector's column while two or more clips are open).
pub fn compare_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    if viewer.session.scene.clips.len() < 2 {
        ui.label("Open a second clip to compare (File > Add file…).");
        return;
    }
    let mut commands = Vec::new();
    other_clip_ui(ui, viewer, &mut commands);
    mode_ui(ui, viewer, &mut commands);
    name_map_ui(ui, viewer, out, &mut commands);
    let c = &viewer.session.scene.compare;
    let clips = &viewer.session.scene.clips;
    let nearest = clips.get(c.other).is_some_and(|b| c.mode.effective(&clips[0].motion, &b.motion) == CompareMode::NearestJoint);
    let scale = c.overlap.as_ref().map_or(c.mean_now(), |o| o.mean as f32);
    let shown = Shown::of(c.mode, scale, viewer.settings.lengths);
    error_plot_ui(ui, viewer, nearest, &shown, &mut commands);
    if c.heat && !nearest {
        legend_ui(ui, c.legend_max, &shown);
    }
    let (ra, rb) = (
        &viewer.session.scene.clips[0].motion.skeleton,
        &viewer.session.scene.clips[c.other.min(viewer.session.scene.clips.len() - 1)].motion.skeleton,
    );
    worst_joints_ui(ui, c, nearest, (ra, rb), &shown);
    if !nearest {
        pairs_ui(ui, c, (ra, rb), &shown, &mut commands);
        if let Some(o) = c.overlap.as_ref().filter(|o| !o.directions.is_empty()) {
            bone_directions_ui(ui, &o.directions, &mut commands);
        }
    }
    for c in commands {
        out.send(c);
    }
}

/// The reference clip's name and the choice of the clip compared with it.
fn other_clip_ui(ui: &mut egui::Ui, viewer: &Viewer, commands: &mut Vec<Command>) {
    let names: Vec<String> = viewer.session.scene.clips.iter().map(|c| c.name.clone()).collect();
    ui.add(egui::Label::new(format!("{} (reference)", names[0])).truncate());
    ui.horizontal(|ui| {
        let other = viewer.session.scene.compare.other.min(names.len() - 1);
        let label = ui.label("vs");
        let width = (ui.available_width() - 8.0).max(80.0);
        egui::ComboBox::new("compare_other", "")
            .width(width)
            .truncate()
            .selected_text(names.get(other).cloned().unwrap_or_default())
            .show_ui(ui, |ui| {
                for (i, name) in names.iter().enumerate().skip(1) {
                    if ui.selectable_label(i == other, name).clicked() && i != other {
                        let id = viewer.session.scene.clips[i].id();
                        commands.push(Command::Compare(CompareEdit::Other(id)));
                    }
                }
            })
            .response
            .on_hover_text("The compared clip")
            .labelled_by(label.id);
    });
}

/// What is compared (positions or local rotation angles, or markers to the nearest joint)
/// and whether the bones show the heat map.
fn mode_ui(ui: &mut egui::Ui, viewer: &Viewer, commands: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        let c = &viewer.session.scene.compare;
        let (mut mode, mut heat) = (c.mode, c.heat);
        let clips = &viewer.session.scene.clips;
        if let (Some(a), Some(b)) = (clips.first(), clips.get(c.other)) {
            if c.mode.effective(&a.motion, &b.motion) == CompareMode::NearestJoint {
                ui.label("marker to the nearest joint");
            } else {
                ui.radio_value(&mut mode, CompareMode::Position, "position");
                ui.radio_value(&mut mode, CompareMode::Angle, "local rotation angle");
                // Bones coloured by their partner's error: markers have no bones to colour.
                ui.checkbox(&mut heat, "heat map");
            }
        }
        if mode != c.mode {
            commands.push(Command::Compare(CompareEdit::Mode(mode)));
        }
        if heat != c.heat {
            commands.push(Command::Compare(CompareEdit::Heat(heat)));
        }
    });
}

/// The name map (an MNM file) in use, with the buttons to choose or clear it.
fn name_map_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, commands: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        // A name map is read by path: not in the browser build.
        if !cfg!(target_arch = "wasm32")
            && ui.button("Name map…").on_hover_text("An MNM file mapping both skeletons' names to Biped names").clicked()
        {
            out.send(Command::Job(crate::app::JobCommand::Ask(crate::app::Dialog::NameMap)));
        }
        match &viewer.session.document.name_map {
            Some((path, map)) => {
                ui.label(format!("{} ({} names)", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(), map.len()));
                if ui.small_button("x").clicked() {
                    commands.push(Command::Compare(CompareEdit::ClearNameMap));
                }
            }
            None => {
                ui.weak("no name map");
            }
        }
    });
}

/// The mean error now and over the overlap, and its plot over time (click or drag to seek).
fn error_plot_ui(ui: &mut egui::Ui, viewer: &Viewer, nearest: bool, shown: &Shown, commands: &mut Vec<Command>) {
    let c = &viewer.session.scene.compare;
    let unit = shown.symbol;
    let label = match c.unit {
        "deg" => "mean angle",
        _ if nearest => "mean marker to nearest joint",
        _ => "MPJPE",
    };
    let overlap = match (&c.overlap, viewer.whole.overlap.running()) {
        (Some(o), _) => format!("over the overlap {}", shown.show(o.mean as f32)),
        (None, Some(f)) => format!("over the overlap: computing {:.0}%", f * 100.0),
        (None, None) => "over the overlap: -".to_owned(),
    };
    let counted = if nearest { "markers" } else { "pairs" };
    ui.add(egui::Label::new(format!("{label} now {} · {} {counted} · {overlap}", shown.show(c.mean_now()), c.current.len())).wrap());
    let t = viewer.session.playback.time_secs;
    let columns = (ui.available_width() * ui.ctx().pixels_per_point()).max(16.0) as usize;
    let mut points = c.overlap.as_ref().map(|o| decimate(&o.points, columns)).unwrap_or_default();
    for p in &mut points {
        p[1] *= shown.factor as f64;
    }
    let plot = egui_plot::Plot::new("mpjpe_plot")
        .height(90.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_y(0.0)
        .x_axis_label("s")
        .y_axis_label(unit);
    let response = plot.show(ui, |p| {
        p.line(egui_plot::Line::new(label, points));
        p.vline(egui_plot::VLine::new("now", t));
        (p.response().clicked() || p.response().dragged()).then(|| p.pointer_coordinate()).flatten()
    });
    if let Some(at) = response.inner {
        commands.push(Command::Playback(PlaybackCommand::Seek(at.x.max(0.0))));
    }
}

/// A joint's name in a skeleton, or "?" past its end.
fn joint_name(s: &Skeleton, i: usize) -> String {
    s.joints().get(i).map_or("?".to_owned(), |j| j.name.clone())
}

/// The five largest errors now, with the joints (or marker and nearest joint) they are between.
fn worst_joints_ui(ui: &mut egui::Ui, c: &CompareView, nearest: bool, (ra, rb): (&Skeleton, &Skeleton), shown: &Shown) {
    ui.label(if nearest { "markers farthest from a joint now:" } else { "worst joints now:" });
    egui::Grid::new("worst_joints").num_columns(3).striped(true).show(ui, |ui| {
        ui.weak("error");
        ui.weak(if nearest { "marker" } else { "reference" });
        ui.weak(if nearest { "nearest joint" } else { "compared" });
        ui.end_row();
        for (i, k, e) in c.worst(5) {
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| ui.monospace(shown.show(e)));
            ui.label(joint_name(ra, i));
            ui.label(joint_name(rb, k));
            ui.end_row();
        }
    });
}

/// The editable pairs: each reference joint's partner in the compared clip, with its error now.
fn pairs_ui(ui: &mut egui::Ui, c: &CompareView, (ra, rb): (&Skeleton, &Skeleton), shown: &Shown, commands: &mut Vec<Command>) {
    let current: std::collections::HashMap<usize, f32> = c.current.iter().map(|&(i, _, e)| (i, e)).collect();
    let mut partner = c.partner.clone();
    let other_names: Vec<String> = rb.joints().iter().map(|j| j.name.clone()).collect();
    egui::CollapsingHeader::new(format!("pairs ({} matched)", c.current.len())).show(ui, |ui| {
        egui::ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
            for (i, slot) in partner.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    let label = ui.label(joint_name(ra, i));
                    let partner_name = slot.and_then(|k| other_names.get(k)).cloned().unwrap_or_else(|| "(none)".into());
                    let combo = egui::ComboBox::new(("partner", i), "").selected_text(partner_name).show_ui(ui, |ui| {
                        ui.selectable_value(slot, None, "(none)");
                        for (k, name) in other_names.iter().enumerate() {
                            ui.selectable_value(slot, Some(k), name);
                        }
                    });
                    combo.response.labelled_by(label.id);
                    if let Some(e) = current.get(&i) {
                        ui.monospace(shown.show(*e));
                    }
                });
            }
        });
    });
    if partner != c.partner {
        commands.push(Command::Compare(CompareEdit::Partners(partner)));
    }
}

/// Per humanoid bone, the angle between its direction in the two clips over the overlap (a
/// retarget against its source); a row's button goes to the frame of the largest.
fn bone_directions_ui(ui: &mut egui::Ui, directions: &[(BoneAgreement, f64)], commands: &mut Vec<Command>) {
    let worst = directions.iter().map(|d| d.0.max_deg).filter(|d| d.is_finite()).fold(0f32, f32::max);
    egui::CollapsingHeader::new(format!("bone directions ({} bones, largest {worst:.1} deg)", directions.len()))
        .id_salt("bone_directions")
        .show(ui, |ui| {
            ui.weak("angle between each humanoid bone's direction in the two clips, over the overlap");
            egui::Grid::new("bone_directions_grid").num_columns(4).striped(true).show(ui, |ui| {
                ui.weak("bone");
                ui.weak("median");
                ui.weak("largest");
                ui.weak("");
                ui.end_row();
                for (d, at) in directions {
                    ui.label(format!("{} > {}", d.bone, d.towards));
                    ui.monospace(format!("{:.1} deg", d.median_deg));
                    ui.monospace(format!("{:.1} deg", d.max_deg));
                    if ui.small_button(format!("at {at:.2} s")).on_hover_text("Go to the frame of the largest").clicked() {
                        commands.push(Command::Playback(PlaybackCommand::Seek(*at)));
                    }
                    ui.end_row();
                }
            });
        });
}

/// How the comparison's values are written: lengths (metres inside) in the unit the user
/// chose or the one their size picks, angles in degrees.
struct Shown {
    factor: f32,
    symbol: &'static str,
    decimals: usize,
}

impl Shown {
    fn of(mode: CompareMode, scale: f32, lengths: skelview_core::core::LengthDisplay) -> Self {
        match mode {
            CompareMode::Position | CompareMode::NearestJoint => {
                let u = lengths.unit_for(scale);
                Self { factor: u.per_metre(), symbol: u.symbol(), decimals: u.decimals() }
            }
            CompareMode::Angle => Self { factor: 1.0, symbol: "°", decimals: 2 },
        }
    }

    fn show(&self, v: f32) -> String {
        let sep = if self.symbol == "°" { "" } else { " " };
        format!("{:.*}{sep}{}", self.decimals, v * self.factor, self.symbol)
    }
}

/// The heat-map ramp with its range.
fn legend_ui(ui: &mut egui::Ui, max: f32, shown: &Shown) {
    ui.horizontal(|ui| {
        ui.monospace(shown.show(0.0));
        let (rect, _) = ui.allocate_exact_size(egui::vec2(160.0, 12.0), egui::Sense::hover());
        let painter = ui.painter_at(rect);
        let steps = 32;
        for s in 0..steps {
            let c = heat_color(s as f32 / (steps - 1) as f32);
            let x0 = rect.left() + rect.width() * s as f32 / steps as f32;
            let x1 = rect.left() + rect.width() * (s + 1) as f32 / steps as f32;
            let r = egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom()));
            painter.rect_filled(r, 0.0, egui::Rgba::from_rgba_unmultiplied(c[0], c[1], c[2], 1.0));
        }
        ui.monospace(shown.show(max));
    });
}
