//! The Edits window in egui_kittest, with the viewer's update running each frame as in the
//! window: a step added from the form for the selected joint, switched off, moved and
//! removed; undo and redo from the buttons and from Ctrl+Z / Ctrl+Shift+Z; what moved and
//! the Issues window's counts before and after; a snapshot of the window (GPU).

mod common;
use common::{have_gpu, run_until, sample_viewer, wait};

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use skelview::app::{Command, EditCommand, EditDraft, EditState, FormValue, SelectionEdit, Viewer};
use skelview_core::core::PlaybackCommand;
use skelview_core::edit::{FillGaps, Filter, Ground, Loop, Op};
use skelview_core::formats::{LoadRequest, Source};

fn sample() -> Viewer {
    let mut v = sample_viewer();
    let arm = v.motion().unwrap().skeleton.find("LeftArm");
    v.send(Command::Playback(PlaybackCommand::Pause));
    v.send(Command::Playback(PlaybackCommand::SeekFrame(12)));
    v.send(Command::Selection(SelectionEdit::Joint(arm)));
    v.view.edits.open = true;
    wait(&mut v, &|v| v.view.selected.is_some() && v.active_report().is_some());
    v
}

fn harness(v: Viewer) -> Harness<'static, Viewer> {
    Harness::builder().with_size(egui::vec2(560.0, 900.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| {
                skelview::ui::shortcuts(ui, v, out);
                skelview::ui::edits_ui(ui, v, out);
            });
        },
        v,
    )
}

fn applied(v: &Viewer) -> bool {
    let c = v.session.active_clip().unwrap();
    matches!(v.edit_runs.state(c.serial), Some(EditState::Done(_)))
}

fn steps(v: &Viewer) -> Vec<(String, bool)> {
    let id = v.session.active_clip().unwrap().id();
    v.session.document.edits(id).map_or_else(Vec::new, |e| e.recipe.steps.iter().map(|s| (s.op.name().to_owned(), s.enabled)).collect())
}

#[test]
fn a_step_is_added_for_the_selected_joint_switched_moved_removed_and_undone() {
    let mut v = sample();
    let mut draft = EditDraft { selected_only: true, ..EditDraft::of("filter") };
    draft.set(draft.spec().param("cutoff_hz").unwrap(), FormValue::Number(4.0));
    v.view.edits.draft = draft;
    let mut h = harness(v);
    h.run();
    h.get_by_label_contains("No steps: the clip as loaded");
    h.get_by_label("Only the selected joint (LeftArm)");
    h.get_by_label("Add step").click();
    run_until(&mut h, applied);
    let id = h.state().session.active_clip().unwrap().id();
    let recipe = &h.state().session.document.edits(id).unwrap().recipe;
    assert_eq!(recipe.steps[0].op, Op::Filter(Filter { cutoff_hz: 4.0, order: 4, joints: vec!["LeftArm".into()], range: None }));
    h.get_by_label_contains("Applied: 1 steps");
    h.get_by_label_contains("How far each joint moved");
    // A second step from the form: the operation chosen in the draft.
    h.state_mut().view.edits.draft.op = "ground";
    h.run();
    h.get_by_label("Add step").click();
    run_until(&mut h, |v| steps(v).len() == 2 && applied(v));
    // Off, then up: the ground step first and on, the filter off.
    h.get_by_label("1. filter").click();
    run_until(&mut h, |v| !steps(v)[0].1);
    h.get_all_by_label("Up").last().unwrap().click();
    run_until(&mut h, |v| steps(v)[0].0 == "ground");
    assert_eq!(steps(h.state()), [("ground".to_owned(), true), ("filter".to_owned(), false)]);
    // Undo with the keyboard, twice: the order back, then the filter on again.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    run_until(&mut h, |v| steps(v)[0].0 == "filter");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    run_until(&mut h, |v| steps(v)[0].1);
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    run_until(&mut h, |v| !steps(v)[0].1);
    h.get_by_label("Redo").click();
    run_until(&mut h, |v| steps(v)[0].0 == "ground");
    // Remove both: the clip as loaded, no ghost.
    h.get_all_by_label("Remove").next().unwrap().click();
    run_until(&mut h, |v| steps(v).len() == 1);
    h.get_all_by_label("Remove").next().unwrap().click();
    run_until(&mut h, |v| steps(v).is_empty());
    assert!(h.state().session.active_clip().unwrap().ghost.is_none());
    h.get_by_label("Undo").click();
    run_until(&mut h, |v| steps(v).len() == 1);
}

#[test]
fn a_step_that_needs_a_selection_says_so_and_a_failing_one_says_why() {
    let mut v = sample();
    v.send(Command::Selection(SelectionEdit::Joint(None)));
    v.view.edits.draft = EditDraft::of("remove_joint");
    let mut h = harness(v);
    h.run();
    h.get_by_label("select a joint first");
    assert!(h.get_by_label("Add step").accesskit_node().is_disabled());
    let id = h.state().session.active_clip().unwrap().id();
    h.state_mut().send(Command::Edit(id, EditCommand::Add(Op::Loop(Loop { frames: 100_000 }))));
    run_until(&mut h, |v| matches!(v.edit_runs.state(v.session.active_clip().unwrap().serial), Some(EditState::Failed(_))));
    h.step();
    h.get_by_label_contains("Not applied: step 1 (loop): frames 100000");
}

#[test]
fn the_issues_window_counts_before_and_after_the_edits() {
    let mut v = sample();
    let id = v.session.active_clip().unwrap().id();
    v.send(Command::Edit(id, EditCommand::Add(Op::Filter(Filter { cutoff_hz: 2.0, order: 4, joints: vec![], range: None }))));
    let serial = v.session.active_clip().unwrap().serial;
    wait(&mut v, &|v| {
        matches!(v.edit_runs.state(serial), Some(EditState::Done(_))) && v.checks.before(serial).is_some() && v.active_report().is_some()
    });
    wait(&mut v, &|v| !Arc::ptr_eq(v.active_report().unwrap(), v.checks.before(serial).unwrap()));
    let mut h = Harness::builder().with_size(egui::vec2(700.0, 800.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::issues_ui(ui, v, out));
        },
        v,
    );
    h.run();
    let (before, after) = {
        let v = h.state();
        (v.checks.before(serial).unwrap().findings.len(), v.active_report().unwrap().findings.len())
    };
    let neutral = |r: &skelview_core::qa::Report| r.findings.iter().filter(|f| f.kind == skelview_core::qa::Kind::NeutralPose).count();
    let (nb, na) = (neutral(h.state().checks.before(serial).unwrap()), neutral(h.state().active_report().unwrap()));
    h.get_by_label(&format!("Before the edits: {} issues · now {}", before - nb, after - na));
}

#[test]
fn the_edits_window_snapshot() {
    if !have_gpu() {
        return;
    }
    let mut v = sample();
    let id = v.session.active_clip().unwrap().id();
    for op in [
        Op::FillGaps(FillGaps {
            method: skelview_core::edit::FillMethod::Auto,
            max_gap: Some(30),
            donors: vec![],
            joints: vec![],
            range: None,
        }),
        Op::Filter(Filter { cutoff_hz: 6.0, order: 4, joints: vec!["LeftArm".into()], range: None }),
        Op::Ground(Ground {}),
    ] {
        v.send(Command::Edit(id, EditCommand::Add(op)));
    }
    v.send(Command::Edit(id, EditCommand::Enable(2, false)));
    let serial = v.session.active_clip().unwrap().serial;
    wait(&mut v, &|v| matches!(v.edit_runs.state(serial), Some(EditState::Done(_))));
    let mut h = Harness::builder().with_size(egui::vec2(560.0, 760.0)).wgpu().build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::edits_ui(ui, v, out));
        },
        v,
    );
    h.run();
    h.get_by_label_contains("How far each joint moved");
    h.snapshot("edits_window");
}

#[test]
fn the_clip_list_puts_a_motion_on_another_skeleton() {
    let mut v = sample();
    v.add(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "robot.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.session.scene.clips.len() == 2);
    let mut h = Harness::builder().with_size(egui::vec2(420.0, 600.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.ui(|v, out| skelview::ui::clips_ui(ui, v, out));
        },
        v,
    );
    h.run();
    h.get_all_by_label("on").next().unwrap().click();
    h.run();
    h.get_by_label("Put this motion on the skeleton of:");
    // The popup's entry, under the combo box (right of the clip list's own button).
    let entry = h.get_all_by_label("robot.bvh").max_by(|a, b| a.rect().min.x.total_cmp(&b.rect().min.x)).unwrap();
    entry.click_accesskit();
    h.run();
    let (a, b) = (h.state().session.scene.clips[0].id(), h.state().session.scene.clips[1].id());
    assert!(
        h.state().commands.contains(&Command::Clip(a, skelview::app::ClipEdit::RetargetOnto { target: b, keep_feet: false })),
        "{:?}",
        h.state().commands
    );
}

#[test]
fn with_one_clip_the_clip_list_offers_a_file_to_put_its_motion_on() {
    let v = sample_viewer();
    let mut h = Harness::builder().with_size(egui::vec2(420.0, 600.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.ui(|v, out| skelview::ui::clips_ui(ui, v, out));
        },
        v,
    );
    h.run();
    h.get_by_label("on").click();
    h.run();
    h.get_by_label("a file…, feet planted").click_accesskit();
    h.run();
    let a = h.state().session.scene.clips[0].id();
    let ask = Command::Job(skelview::app::JobCommand::Ask(skelview::app::Dialog::RetargetOntoFile { source: a, keep_feet: true }));
    assert!(h.state().commands.contains(&ask), "{:?}", h.state().commands);
}
