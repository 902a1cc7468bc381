//! Snapshots of the main panels (menu, clip list, joint tree, inspector, comparison with its
//! curve and worst joints, timeline, status bar) at the default window size, 1280x800, in
//! both themes, drawn by egui_kittest's wgpu renderer and compared with
//! `tests/snapshots/*.png`. After an intended change of the UI: `UPDATE_SNAPSHOTS=1 cargo
//! test --test snapshots`, look at the new pictures, commit them. A failing run leaves
//! `*.new.png` and `*.diff.png` beside the snapshot. Also: the layout is the same in points
//! at a scale factor of 2 (HiDPI). Without a graphics adapter the tests skip with a note,
//! except under CI=true where they fail.

mod common;
use common::{have_gpu, wait};
use skelview::app::{ClipEdit, SelectionEdit};
use skelview_scene::ClipId;

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skelview::app::{Command, Viewer};
use skelview_core::core::PlaybackCommand;
use skelview_core::formats::{LoadOptions, LoadRequest, Source};

/// Two copies of the sample, the second half a second later, paused at 1.5 s, LeftArm
/// selected, the comparison's curve and both clips' checks done: what the panels show is
/// then fixed.
fn two_clips(light: bool) -> Viewer {
    let settings = skelview::app::settings::Settings { light_theme: light, ..Default::default() };
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), settings);
    let request = |name: &str| {
        LoadRequest::single(
            &skelview_core::formats::bvh::Bvh,
            Source::Memory { name: name.into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
        )
    };
    v.open(request("cmu_cgspeed_01_01_walk_reference_take.bvh"));
    wait(&mut v, &|v| v.motion().is_some());
    v.add(request("second_walk.bvh"));
    wait(&mut v, &|v| v.session.scene.clips.len() == 2);
    let arm = v.motion().unwrap().skeleton.find("LeftArm");
    for c in [
        Command::Clip(ClipId(1), ClipEdit::Offset(0.5)),
        Command::Selection(SelectionEdit::Joint(arm)),
        Command::Playback(PlaybackCommand::Pause),
    ] {
        v.commands.push(c);
    }
    v.commands.push(Command::Playback(PlaybackCommand::Seek(1.5)));
    wait(&mut v, &|v| {
        let serials: Vec<u64> = v.session.scene.clips.iter().map(|c| c.serial).collect();
        v.session.scene.compare.overlap.is_some() && serials.iter().all(|s| v.checks.report(*s).is_some())
    });
    v
}

fn harness(v: Viewer, pixels_per_point: f32) -> Harness<'static, Viewer> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_pixels_per_point(pixels_per_point)
        .wgpu()
        .build_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::panels_ui(ui, v, out, 16.7)), v)
}

fn snapshot(light: bool, name: &str) {
    if !have_gpu() {
        return;
    }
    let mut h = harness(two_clips(light), 1.0);
    h.run();
    h.get_by_label_contains("worst joints now");
    h.snapshot(name);
}

#[test]
fn the_panels_at_1280x800_in_the_dark_theme() {
    snapshot(false, "panels_dark_1280x800");
}

#[test]
fn the_panels_at_1280x800_in_the_light_theme() {
    snapshot(true, "panels_light_1280x800");
}

#[test]
fn at_a_scale_factor_of_2_the_layout_is_the_same_in_points() {
    let rect = |ppp: f32| {
        let mut h = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .with_pixels_per_point(ppp)
            .build_ui_state(|ui, v: &mut Viewer| v.ui(|v, out| skelview::ui::panels_ui(ui, v, out, 16.7)), two_clips(false));
        h.run();
        assert_eq!(h.ctx.pixels_per_point(), ppp);
        let names = ["Inspector", "worst joints now:", "Joints", "set in"];
        names.map(|n| h.get_by_label(n).rect())
    };
    // Text is snapped to physical pixels, half a point per row: a point or so apart, not twice as far.
    let (one, two) = (rect(1.0), rect(2.0));
    for (a, b) in one.iter().zip(&two) {
        assert!((a.min - b.min).length() <= 1.5 && (a.max - b.max).length() <= 1.5, "the same rectangles in points: {one:?} {two:?}");
    }
}
