//! egui UI tests of several clips (egui_kittest, no GPU): the clip list, typed offsets, the
//! layout choice and the comparison window. Each frame runs the viewer's update first, as
//! the window does, so that commands take effect.

use skelview::app::{ClipEdit, SceneEdit};
use skelview_scene::ClipId;
use std::sync::Arc;

use egui_kittest::Harness;

mod common;
use common::run_until;
use egui_kittest::kittest::Queryable;
use skelview::app::Viewer;
use skelview_core::core::PlaybackCommand;
use skelview_core::formats::{LoadOptions, LoadRequest, Source};
use skelview_scene::Layout;

fn request(name: &str) -> LoadRequest {
    LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: name.into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    )
}

fn wait(v: &mut Viewer, done: impl Fn(&Viewer) -> bool) {
    common::wait(v, &done);
}

fn viewer_with(names: &[&str]) -> Viewer {
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.open(request(names[0]));
    wait(&mut v, |v| v.motion().is_some());
    for name in &names[1..] {
        v.add(request(name));
    }
    wait(&mut v, |v| v.session.scene.clips.len() == names.len());
    v.commands.push(skelview::app::Command::Playback(PlaybackCommand::Pause));
    v.update(0.0);
    v
}

fn clips_harness(v: Viewer) -> Harness<'static, Viewer> {
    Harness::builder().with_size(egui::vec2(520.0, 700.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::clips_ui(ui, v, out));
        },
        v,
    )
}

#[test]
fn adding_a_second_clip_shows_two_rows() {
    let mut h = clips_harness(viewer_with(&["first.bvh"]));
    h.run();
    assert_eq!(h.get_all_by_label_contains("first.bvh").count(), 1);
    assert!(h.query_by_label_contains("second.bvh").is_none());
    h.state_mut().add(request("second.bvh"));
    run_until(&mut h, |v| v.session.scene.clips.len() == 2);
    h.run();
    h.get_by_label_contains("first.bvh (reference)");
    h.get_by_label_contains("second.bvh");
    assert_eq!(h.get_all_by_label("offset s").count(), 2, "one row per clip");
    h.get_all_by_label("x").nth(1).unwrap().click();
    h.run();
    h.run();
    assert_eq!(h.state().session.scene.clips.len(), 1);
    assert!(h.query_by_label_contains("second.bvh").is_none());
}

#[test]
fn typing_an_offset_moves_that_clip_in_time() {
    let mut h = clips_harness(viewer_with(&["a.bvh", "b.bvh"]));
    h.run();
    let before = h.state().session.scene.clips[1].local_time(1.0);
    assert!((before - 1.0).abs() < 1e-9);
    h.get_all_by_label("offset s").nth(1).unwrap().focus();
    h.run();
    h.get_all_by_label("offset s").nth(1).unwrap().type_text("0.5");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    let c = &h.state().session.scene.clips[1];
    assert!((c.offset_secs - 0.5).abs() < 1e-9, "offset {}", c.offset_secs);
    assert!((c.local_time(1.0) - 0.5).abs() < 1e-9);
    assert_eq!(h.state().session.scene.clips[0].offset_secs, 0.0, "the other clip stays");
    // Match start brings it back.
    h.get_all_by_label("match start").nth(1).unwrap().click();
    h.run();
    h.run();
    assert_eq!(h.state().session.scene.clips[1].offset_secs, 0.0);
}

#[test]
fn choosing_align_roots_changes_the_layout() {
    let mut v = viewer_with(&["a.bvh", "b.bvh"]);
    v.commands.push(skelview::app::Command::Scene(SceneEdit::Layout(Layout::SideBySide)));
    v.update(0.0);
    let root = v.session.scene.clips[0].motion.skeleton.roots().next().unwrap();
    let apart = (v.session.scene.clips[0].positions()[root] - v.session.scene.clips[1].positions()[root]).length();
    assert!(apart > 0.3, "side by side: {apart}");
    let mut h = clips_harness(v);
    h.run();
    h.get_by_label("align roots").click();
    h.run();
    h.run();
    let v = h.state();
    assert_eq!(v.session.scene.layout, Layout::AlignRoots);
    let together = (v.session.scene.clips[0].positions()[root] - v.session.scene.clips[1].positions()[root]).length();
    assert!(together < 1e-3, "aligned roots: {together}");
}

#[test]
fn the_mpjpe_plot_appears_for_two_clips() {
    let v = viewer_with(&["a.bvh"]);
    let mut h = Harness::builder().with_size(egui::vec2(900.0, 700.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::compare_ui(ui, v, out));
        },
        v,
    );
    h.run();
    h.get_by_label_contains("Open a second clip");
    assert!(h.query_by_label_contains("MPJPE").is_none());
    h.state_mut().add(request("b.bvh"));
    run_until(&mut h, |v| v.session.scene.clips.len() == 2);
    h.run();
    h.get_by_label_contains("MPJPE now 0.0 mm");
    h.get_by_label_contains("24 pairs");
    h.get_by_label_contains("worst joints");
    // Editing a pair: open the pairs list and clear the first partner.
    h.get_by_label_contains("pairs (24 matched)").click();
    h.run();
    // "Hips" also names the worst joints' rows: the partner dropdown comes last.
    h.get_all_by_label("Hips").last().unwrap().click();
    h.run();
    h.get_by_label("(none)").click();
    h.run();
    h.run();
    assert_eq!(h.state().session.scene.compare.pairs().len(), 23);
    h.get_by_label_contains("pairs (23 matched)");
    // The error over the overlap comes from the background, then shows in the panel.
    run_until(&mut h, |v| v.session.scene.compare.overlap.is_some());
    h.run();
    let frames = h.state().session.scene.compare.overlap.as_ref().map(|o| o.frames);
    assert_eq!(frames, Some(101), "one point per reference frame");
    h.get_by_label_contains("over the overlap 0.0 mm");
    // The clip one second later: metres by the error's size, or millimetres when asked.
    h.state_mut().commands.push(skelview::app::Command::Clip(ClipId(1), ClipEdit::Offset(1.0)));
    run_until(&mut h, |v| v.session.scene.compare.overlap.as_ref().is_some_and(|o| o.mean > 0.0));
    h.run();
    let mean = h.state().session.scene.compare.overlap.as_ref().unwrap().mean as f32;
    assert!((1.0..3.0).contains(&mean), "a walk one second apart: {mean} m");
    h.get_by_label_contains(&format!("over the overlap {mean:.3} m"));
    h.state_mut().settings.lengths = skelview_core::core::LengthDisplay::Millimetre;
    h.run();
    h.get_by_label_contains(&format!("over the overlap {:.1} mm", mean * 1000.0));
    assert!(h.query_by_label_contains("cmu").is_none());
}
