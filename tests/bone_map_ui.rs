//! The Bone map window in egui_kittest: every humanoid bone listed with its joint and how it
//! was found, a bone given a joint from its list, the map found again; a snapshot (GPU).

mod common;
use common::{have_gpu, sample_viewer, wait};

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skelview::app::Viewer;
use skelview_core::formats::LoadOptions;

fn sample() -> Viewer {
    let mut v = sample_viewer();
    v.view.bone_map_open = true;
    v
}

fn harness(v: Viewer) -> Harness<'static, Viewer> {
    Harness::builder().with_size(egui::vec2(460.0, 1500.0)).build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::bone_map_ui(ui, v, out));
        },
        v,
    )
}

#[test]
fn every_bone_is_listed_and_a_bone_gets_a_joint_from_its_list() {
    let mut h = harness(sample());
    h.run();
    h.get_by_label("19 of 55 humanoid bones found (* required)");
    h.get_by_label("Every required bone is found: the clip can be retargeted.");
    assert!(h.get_all_by_label("hips *").count() >= 1, "the required bones are starred");
    assert_eq!(h.get_all_by_label("name").count(), 19, "each found bone says it was found by its name");
    // leftToes has no joint: its list offers every joint; LeftFoot is chosen.
    // The row's list (named by the row's label, right of it).
    let combo = h.get_all_by_label("leftToes").max_by(|a, b| a.rect().min.x.total_cmp(&b.rect().min.x)).unwrap();
    combo.click();
    h.run();
    // The popup's entry lies below the row (the leftFoot row's own button is above it).
    let entry = h.get_all_by_label("LeftFoot").max_by(|a, b| a.rect().min.y.total_cmp(&b.rect().min.y)).unwrap();
    entry.click_accesskit();
    h.run();
    h.run();
    let foot = h.state().motion().unwrap().skeleton.find("LeftFoot").unwrap();
    let map = &h.state().session.active_clip().unwrap().humanoid;
    assert_eq!((map.joint("leftToes"), map.joint("leftFoot")), (Some(foot), None), "{map:?}");
    h.run();
    // Applied: the foot's joint is now the toes, the foot bone has none (a required one).
    h.get_by_label_contains("Required but not found: leftFoot");
    h.get_by_label("you");
    h.get_by_label("Find again").click();
    h.run();
    h.run();
    h.get_by_label("Every required bone is found: the clip can be retargeted.");
}

#[test]
fn a_marker_capture_has_no_bone_map() {
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.open_paths(vec![skelview_test_support::workspace_root().join("tests/data/trc/outside_writer.trc")], false);
    wait(&mut v, &|v| v.motion().is_some());
    let mut h = harness(v);
    h.run();
    h.get_by_label_contains("is a marker capture: markers are no bones.");
}

#[test]
fn the_bone_map_window_snapshot() {
    if !have_gpu() {
        return;
    }
    let mut h = Harness::builder().with_size(egui::vec2(460.0, 700.0)).wgpu().build_ui_state(
        |ui, v: &mut Viewer| {
            v.update(0.0);
            v.ui(|v, out| skelview::ui::bone_map_ui(ui, v, out));
        },
        sample(),
    );
    h.run();
    h.get_by_label("19 of 55 humanoid bones found (* required)");
    h.snapshot("bone_map_window");
}
