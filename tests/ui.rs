//! egui UI tests (egui_kittest, no GPU): the timeline, the joint tree and the inspector push
//! the right commands; shortcuts map to playback commands.

use skelview::app::{CameraEdit, SelectionEdit};
use std::sync::Arc;

use egui_kittest::Harness;

mod common;
use common::run_until;
use egui_kittest::kittest::Queryable;
use skelview::app::{Command, Viewer};
use skelview_core::core::PlaybackCommand;
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn loaded() -> Viewer {
    let request = LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk01.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    );
    let motion = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap();
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.session.scene = skelview_scene::Scene::from_motions([Arc::new(motion)]);
    v.session.reclock();
    v.update(0.0);
    v
}

#[test]
fn timeline_buttons_push_playback_commands() {
    let mut h = Harness::new_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::timeline_ui(ui, v, out)), loaded());
    h.run();
    h.get_by_label("Play").click();
    h.run();
    h.get_by_label(">").click();
    h.run();
    h.get_by_label("2×").click();
    h.run();
    h.get_by_label("set in").click();
    h.run();
    let commands = &h.state().commands;
    for expected in [PlaybackCommand::TogglePlay, PlaybackCommand::Step(1), PlaybackCommand::SetRate(2.0), PlaybackCommand::SetInHere] {
        assert!(commands.contains(&Command::Playback(expected)), "{expected:?} not in {commands:?}");
    }
    // The exact frame time is shown, not a rounded fps.
    h.get_by_label_contains("0.0416667 s/frame");
}

#[test]
fn joint_tree_filters_and_selects() {
    let mut v = loaded();
    v.view.joint_filter = "arm".into();
    let mut h = Harness::new_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::joint_tree_ui(ui, v, out)), v);
    h.run();
    assert!(h.query_by_label("Hips").is_none(), "filtered out");
    h.get_by_label("LeftForeArm").click();
    h.run();
    let left_fore_arm = h.state().motion().unwrap().skeleton.find("LeftForeArm");
    assert!(h.state().commands.contains(&Command::Selection(SelectionEdit::Joint(left_fore_arm))));
}

#[test]
fn inspector_shows_raw_channels_and_links_to_the_parent() {
    let mut v = loaded();
    let skeleton = &v.motion().unwrap().skeleton;
    let (head, neck) = (skeleton.find("Head"), skeleton.find("Neck"));
    v.view.selected = head;
    let mut h = Harness::new_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::inspector_ui(ui, v, out)), v);
    h.run();
    h.get_by_label("Zrotation");
    h.get_by_label("Xrotation");
    h.get_by_label_contains("euler ZXY");
    h.get_by_label_contains("bone length");
    h.get_by_label("parent: Neck").click();
    h.run();
    assert!(h.state().commands.contains(&Command::Selection(SelectionEdit::Joint(neck))));
}

#[test]
fn shortcuts_map_to_commands() {
    let mut h = Harness::new_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::shortcuts(ui, v, out)), loaded());
    h.run();
    h.key_press(egui::Key::Space);
    h.run();
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowRight);
    h.run();
    h.key_press(egui::Key::F);
    h.run();
    let c = &h.state().commands;
    assert!(c.contains(&Command::Playback(PlaybackCommand::TogglePlay)), "{c:?}");
    assert!(c.contains(&Command::Playback(PlaybackCommand::Step(10))), "{c:?}");
    assert!(c.contains(&Command::Camera(CameraEdit::FrameAll)), "{c:?}");
}

#[test]
fn side_panels_follow_the_saved_layout_and_reset() {
    let mut v = loaded();
    v.settings.panels.left_width = 250.0;
    v.settings.panels.right_shown = false;
    let mut h = Harness::builder().with_size(egui::vec2(1000.0, 700.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.ui(|v, out| skelview::ui::side_panels_ui(ui, v, out));
        },
        v,
    );
    h.run();
    // The joint tree is shown at the saved width (within egui's rounding); the inspector is not.
    assert!(h.query_by_label("Hips").is_some());
    assert!(h.query_by_label_contains("Click a joint").is_none(), "inspector hidden");
    assert!((h.state().settings.panels.left_width - 250.0).abs() < 2.0, "{}", h.state().settings.panels.left_width);
    // What Reset settings does to the layout (without writing the user's settings file):
    // defaults with a new generation, so egui drops the size it remembered.
    h.state_mut().settings.panels = skelview::app::settings::PanelLayout { generation: 1, ..Default::default() };
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Click a joint").is_some(), "inspector back");
    let d = skelview::app::settings::PanelLayout::default();
    assert!((h.state().settings.panels.left_width - d.left_width).abs() < 2.0, "{}", h.state().settings.panels.left_width);
    assert!((h.state().settings.panels.right_width - d.right_width).abs() < 2.0, "{}", h.state().settings.panels.right_width);
}

#[test]
fn channel_curves_come_from_the_background_and_fit_the_plot() {
    let mut v = loaded();
    v.view.selected = v.motion().unwrap().skeleton.find("LeftForeArm");
    v.view.show_curves = true;
    let mut h = Harness::builder().with_size(egui::vec2(500.0, 300.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::curves_ui(ui, v, out));
        },
        v,
    );
    run_until(&mut h, |v| v.whole.curves.result().is_some());
    h.run();
    h.get_by_label_contains("LeftForeArm: 3 channels, rotations in degrees");
    let curves = h.state().whole.curves.result().unwrap().clone();
    assert_eq!(curves.len(), 3);
    let frames = h.state().motion().unwrap().clip.num_frames();
    assert_eq!(curves[0].points.len(), frames, "a short clip is kept whole");
    // Another joint: the old curves are dropped and new ones computed.
    h.state_mut().view.selected = h.state().motion().unwrap().skeleton.find("Hips");
    h.run();
    assert!(h.state().whole.curves.result().is_none_or(|c| c.len() == 6));
}

#[test]
fn every_action_is_in_a_menu_and_every_shortcut_in_f1() {
    use skelview::app::actions::ACTIONS;
    let mut v = loaded();
    v.view.show_help = true;
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.ui(|v, out| {
                skelview::ui::menu_ui(ui, v, out);
                skelview::ui::windows_ui(ui.ctx(), v, out);
            })
        },
        v,
    );
    h.run();
    // F1 lists each key with its help line.
    for a in ACTIONS.iter().filter(|a| !a.keys.is_empty()) {
        h.get_by_label(a.keys);
        h.get_by_label(a.help);
    }
    // Each top-level menu opened in turn: every action's label (with its key) is in one.
    let mut found: Vec<&str> = Vec::new();
    for menu in ["File", "Edit", "View", "Playback"] {
        h.get_by_label(menu).click();
        h.run();
        for a in ACTIONS {
            if h.query_by_label(&a.id.menu_label()).is_some() {
                found.push(a.label);
            }
        }
        h.key_press(egui::Key::Escape);
        h.run();
    }
    // Help is a button on the bar itself.
    found.extend(ACTIONS.iter().filter(|a| h.query_by_label(&a.id.menu_label()).is_some()).map(|a| a.label));
    for a in ACTIONS {
        assert!(found.contains(&a.label), "{:?} ({}) is in no menu", a.id, a.id.menu_label());
    }
}

#[test]
fn the_view_menu_offers_the_active_formats_read_options() {
    use skelview::app::ClipEdit;
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::menu_ui(ui, v, out)), loaded());
    h.run();
    h.get_by_label("View").click();
    h.run();
    assert!(h.query_by_label("AMC frame rate").is_none(), "a BVH clip: only BVH's options");
    h.get_by_label("BVH position channels").click();
    h.run();
    h.get_by_label("add to the OFFSET (Meredith–Maddock)").click();
    h.run();
    let id = h.state().session.active_clip().unwrap().id();
    let expected = Command::Clip(id, ClipEdit::FormatOption { key: "bvh.positions", value: "add".into() });
    assert!(h.state().commands.contains(&expected), "{:?}", h.state().commands);
}
