//! The Issues window: the active clip's capture-check findings, filtered by kind, sorted,
//! each a click away (seek, select, frame); the neutral-pose verdicts; the thresholds.

use crate::app::{CheckState, Command, Commands, IssueSort, SelectionEdit, SettingEdit, Viewer, WindowEdit};
use skelview_core::qa::{self, Finding, Kind, Report};

/// Colour of a kind's marks on the timeline and in the list.
pub fn kind_color(kind: Kind) -> egui::Color32 {
    match kind {
        Kind::Pop => egui::Color32::from_rgb(235, 64, 52),
        Kind::Jitter => egui::Color32::from_rgb(240, 200, 40),
        Kind::FootSlide => egui::Color32::from_rgb(170, 110, 240),
        Kind::Floor => egui::Color32::from_rgb(190, 120, 60),
        Kind::Frozen => egui::Color32::from_rgb(120, 160, 200),
        Kind::Flip => egui::Color32::from_rgb(235, 80, 200),
        Kind::Limit => egui::Color32::from_rgb(255, 150, 30),
        Kind::BoneLength => egui::Color32::from_rgb(60, 210, 210),
        Kind::NeutralPose => egui::Color32::from_rgb(110, 200, 90),
        Kind::Gap => egui::Color32::from_rgb(150, 150, 160),
        Kind::Jump => egui::Color32::from_rgb(255, 90, 120),
        Kind::Swap => egui::Color32::from_rgb(80, 140, 255),
    }
}

/// The Issues window (View → Issues, I).
pub fn issues_window(ctx: &egui::Context, viewer: &Viewer, out: &mut Commands) {
    let mut open = viewer.view.issues.open;
    let corner = ctx.content_rect().right_top() + egui::vec2(-20.0, 60.0);
    egui::Window::new("Issues")
        .open(&mut open)
        .pivot(egui::Align2::RIGHT_TOP)
        .default_pos(corner)
        .default_size([560.0, 560.0])
        .min_width(420.0)
        .resizable(true)
        .show(ctx, |ui| issues_ui(ui, viewer, out));
    if open != viewer.view.issues.open {
        out.send(Command::Window(WindowEdit::Issues(open)));
    }
}

fn frames_label(f: &Finding) -> String {
    if f.start_frame == f.end_frame { f.start_frame.to_string() } else { format!("{}–{}", f.start_frame, f.end_frame) }
}

/// The findings in the order asked for, hidden kinds left out.
fn listed<'r>(viewer: &Viewer, report: &'r Report) -> Vec<&'r Finding> {
    let issues = &viewer.view.issues;
    let mut list: Vec<&Finding> = report.findings.iter().filter(|f| !issues.hidden.contains(&f.kind)).collect();
    let name = |f: &Finding| viewer.motion().map(|m| qa::joint_name(m, f.joint).to_owned()).unwrap_or_default();
    match issues.sort {
        IssueSort::Frame => {}
        IssueSort::Kind => list.sort_by_key(|f| (f.kind, f.start_frame)),
        IssueSort::Joint => list.sort_by_cached_key(|f| (name(f), f.start_frame)),
        IssueSort::Severity => {
            let over = |f: &Finding| if f.threshold > 0.0 { f.value / f.threshold } else { f.value };
            list.sort_by(|a, b| over(b).total_cmp(&over(a)));
        }
    }
    list
}

/// The contents of the Issues window.
pub fn issues_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let Some(clip) = viewer.session.active_clip() else {
        ui.label("Open a file to check it.");
        return;
    };
    ui.label(egui::RichText::new(&clip.name).strong());
    let report = match viewer.checks.state(clip.serial) {
        None => {
            ui.label("Checks start once the file has loaded.");
            return;
        }
        Some(CheckState::Failed(e)) => {
            ui.colored_label(egui::Color32::RED, e.to_string());
            return;
        }
        Some(CheckState::Running(fraction)) => {
            ui.horizontal(|ui| {
                ui.label("Checking…");
                ui.add(egui::ProgressBar::new(fraction).desired_width(200.0).show_percentage());
            });
            return;
        }
        Some(CheckState::Done(report)) => report.clone(),
    };
    for v in &report.neutral {
        let m = &clip.motion;
        ui.label(v.summary(&m.skeleton)).on_hover_text("Up and facing in the file's axes; limbs against the ideal pose");
    }
    ui.separator();
    before_after_ui(ui, viewer, clip, &report);
    kinds_ui(ui, viewer, out, &report);
    ui.horizontal(|ui| {
        ui.label("sort by");
        let mut sort = viewer.view.issues.sort;
        for (value, label) in
            [(IssueSort::Frame, "frame"), (IssueSort::Kind, "kind"), (IssueSort::Joint, "joint"), (IssueSort::Severity, "severity")]
        {
            ui.selectable_value(&mut sort, value, label);
        }
        if sort != viewer.view.issues.sort {
            out.send(Command::Window(WindowEdit::IssueSort(sort)));
        }
    });
    ui.separator();
    let list = listed(viewer, &report);
    if list.is_empty() {
        ui.label(if report.findings.is_empty() { "Nothing found with these thresholds." } else { "Every kind found is hidden." });
    } else {
        findings_table(ui, viewer, out, &list);
    }
    ui.separator();
    thresholds_ui(ui, viewer, out);
}

/// For an edited clip: the counts of its source against the counts now, per kind found in
/// either.
fn before_after_ui(ui: &mut egui::Ui, viewer: &Viewer, clip: &skelview_scene::ClipView, now: &Report) {
    let edited = viewer.session.document.edits(clip.id()).is_some_and(|e| e.active());
    if !edited {
        return;
    }
    let Some(before) = viewer.checks.before(clip.serial) else {
        ui.label("Edited: checking the source for the counts before…");
        return;
    };
    let (was, is) = (before.counts(), now.counts());
    let total =
        |c: &std::collections::BTreeMap<Kind, usize>| c.iter().filter(|(k, _)| **k != Kind::NeutralPose).map(|(_, n)| n).sum::<usize>();
    ui.label(egui::RichText::new(format!("Before the edits: {} issues · now {}", total(&was), total(&is))).strong())
        .on_hover_text("The same checks and thresholds on the clip as loaded and as edited");
    ui.horizontal_wrapped(|ui| {
        for kind in Kind::ALL.into_iter().filter(|k| *k != Kind::NeutralPose) {
            let (a, b) = (was.get(&kind).copied().unwrap_or(0), is.get(&kind).copied().unwrap_or(0));
            if a + b > 0 {
                let color = if b < a {
                    egui::Color32::from_rgb(110, 200, 90)
                } else if b > a {
                    egui::Color32::from_rgb(255, 110, 90)
                } else {
                    ui.visuals().text_color()
                };
                ui.label(egui::RichText::new(format!("{} {a} to {b}", kind.name())).color(color));
            }
        }
    });
    ui.separator();
}

/// A toggle per kind with its colour and count.
fn kinds_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, report: &Report) {
    let counts = report.counts();
    ui.horizontal_wrapped(|ui| {
        for kind in Kind::ALL {
            let n = counts.get(&kind).copied().unwrap_or(0);
            let mut shown = !viewer.view.issues.hidden.contains(&kind);
            let text = egui::RichText::new(format!("{} {n}", kind.name())).color(if n > 0 {
                kind_color(kind)
            } else {
                ui.visuals().weak_text_color()
            });
            if ui.checkbox(&mut shown, text).on_hover_text("Show or hide this kind in the list, the timeline and the viewport").changed() {
                out.send(Command::Window(WindowEdit::IssueKind(kind, shown)));
            }
        }
    });
}

fn findings_table(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands, list: &[&Finding]) {
    let Some(m) = viewer.motion().cloned() else { return };
    let current = viewer.active_frame();
    let lengths = viewer.settings.lengths;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let mut clicked = None;
    egui::ScrollArea::vertical().max_height((ui.available_height() - 30.0).max(120.0)).auto_shrink([false, true]).show_rows(
        ui,
        row_height,
        list.len(),
        |ui, rows| {
            egui::Grid::new("findings").striped(true).num_columns(4).min_col_width(60.0).show(ui, |ui| {
                for f in &list[rows] {
                    let here = current.is_some_and(|c| f.covers(c));
                    let kind = egui::RichText::new(f.kind.name()).color(kind_color(f.kind));
                    let value = format!("{} (> {})", qa::shown_in(f.value, f.unit, lengths), qa::shown_in(f.threshold, f.unit, lengths));
                    let cells = [
                        ui.selectable_label(here, kind),
                        ui.selectable_label(here, qa::joint_name(&m, f.joint)),
                        ui.selectable_label(here, egui::RichText::new(frames_label(f)).monospace()),
                        ui.selectable_label(here, value),
                    ];
                    if cells.into_iter().any(|c| c.on_hover_text(&f.message).clicked()) {
                        clicked = Some((f.start_frame, f.joint));
                    }
                    ui.end_row();
                }
            });
        },
    );
    if let Some((frame, joint)) = clicked {
        out.send(Command::Selection(SelectionEdit::Finding { frame, joint }));
    }
}

/// The thresholds: edited as a draft and applied with a button, so that dragging a value
/// does not start a check per step.
fn thresholds_ui(ui: &mut egui::Ui, viewer: &Viewer, out: &mut Commands) {
    let saved = viewer.settings.qa;
    let mut apply = None;
    let mut draft = viewer.view.issues.draft.unwrap_or(saved);
    egui::CollapsingHeader::new("Thresholds").show(ui, |ui| {
        let t = &mut draft;
        egui::Grid::new("thresholds").num_columns(2).show(ui, |ui| {
            let row = |ui: &mut egui::Ui, label: &str, value: &mut f32, speed: f64, suffix: &str| {
                ui.label(label);
                ui.add(egui::DragValue::new(value).speed(speed).range(0.0..=1e6).suffix(suffix));
                ui.end_row();
            };
            row(ui, "pop: robust deviations", &mut t.pop.factor, 0.1, "×");
            row(ui, "pop: smallest jump", &mut t.pop.min_m, 0.001, " m");
            row(ui, "pop: smallest turn", &mut t.pop.min_deg, 0.5, "°");
            row(ui, "jitter: RMS noise", &mut t.jitter.rms_mm, 0.1, " mm");
            row(ui, "jitter: window", &mut t.jitter.window_secs, 0.01, " s");
            row(ui, "foot slide: contact height", &mut t.foot_slide.contact_height_m, 0.001, " m");
            row(ui, "foot slide: contact speed", &mut t.foot_slide.contact_speed_m_s, 0.01, " m/s");
            row(ui, "foot slide: shortest contact", &mut t.foot_slide.min_contact_secs, 0.01, " s");
            row(ui, "foot slide: drift", &mut t.foot_slide.drift_m, 0.001, " m");
            row(ui, "floor: depth", &mut t.floor.depth_m, 0.001, " m");
            row(ui, "frozen: shortest hold", &mut t.frozen.min_secs, 0.01, " s");
            row(ui, "flip: channel jump", &mut t.flip.jump_deg, 1.0, "°");
            row(ui, "flip: largest real turn", &mut t.flip.max_turn_deg, 0.5, "°");
            row(ui, "limit: tolerance", &mut t.limit.tolerance_deg, 0.1, "°");
            row(ui, "bone length: change", &mut t.bone_length.percent, 0.1, "%");
            row(ui, "neutral pose: limb", &mut t.neutral_pose.limb_deg, 0.5, "°");
        });
        ui.horizontal(|ui| {
            let valid = t.check();
            if ui.add_enabled(*t != saved && valid.is_ok(), egui::Button::new("Apply")).clicked() {
                apply = Some(*t);
            }
            if ui.add_enabled(*t != saved, egui::Button::new("Revert")).clicked() {
                *t = saved;
            }
            if ui.button("Defaults").clicked() {
                *t = qa::Thresholds::default();
            }
            if let Err(e) = valid {
                ui.colored_label(egui::Color32::RED, e.to_string());
            }
        });
    });
    if let Some(t) = apply {
        out.send(Command::Setting(SettingEdit::Thresholds(t)));
    } else if draft != viewer.view.issues.draft.unwrap_or(saved) {
        out.send(Command::Window(WindowEdit::ThresholdDraft(Some(draft))));
    }
}
