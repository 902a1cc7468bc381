//! Helpers shared by the application's integration tests: those of every crate (the corpus,
//! the test Python) come from `skelview-test-support`; these two need the viewer or the GPU.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use skelview_test_support::*;

/// The graphics adapter tests render with; without one, a note naming the package (and a
/// failure under `CI=true`).
pub fn gpu() -> Option<skelview_render::offscreen::Gpu> {
    needed("graphics adapter", "install mesa-vulkan-drivers", skelview_render::offscreen::headless())
}

/// True when a graphics adapter exists (see [`gpu`]).
pub fn have_gpu() -> bool {
    gpu().is_some()
}

/// Updates the viewer until `done` holds; fails at once when the viewer shows an error and
/// has nothing left running (it will not get there), and after a generous limit on a hang.
pub fn wait(v: &mut skelview::app::Viewer, done: &dyn Fn(&skelview::app::Viewer) -> bool) {
    until(
        "the viewer's background work",
        v,
        |v| v.update(0.0),
        |v| {
            let done = done(v);
            assert!(done || v.stopped_with_error().is_none(), "the viewer stopped with an error: {:?}", v.messages.error);
            done.then_some(())
        },
    );
}

/// Runs a harness's frames, one at a time, until `done` holds of its viewer (see [`wait`]).
pub fn run_until(h: &mut egui_kittest::Harness<'static, skelview::app::Viewer>, done: impl Fn(&skelview::app::Viewer) -> bool) {
    until("the viewer's background work", h, |h| h.step(), |h| done(h.state()).then_some(()));
}

/// Counts pixels close to the joint colour (orange) and the bone colour (light grey) in a
/// screenshot of the whole X display.
pub fn skeleton_pixels(png: &std::path::Path) -> (usize, usize) {
    let Ok(img) = image::open(png) else { return (0, 0) };
    let img = img.to_rgb8();
    let (mut joints, mut bones) = (0, 0);
    for p in img.pixels() {
        let [r, g, b] = p.0;
        if r > 180 && (110..200).contains(&g) && b < 110 {
            joints += 1;
        }
        if r > 150 && g > 150 && b > 160 && r.abs_diff(g) < 20 && b >= g {
            bones += 1;
        }
    }
    (joints, bones)
}

/// A viewer with default settings that has opened the bundled sample (`walk01.bvh`).
pub fn sample_viewer() -> skelview::app::Viewer {
    use skelview_core::formats::{LoadOptions, LoadRequest, Source};
    let settings = skelview::app::settings::Settings::default();
    let mut v = skelview::app::Viewer::with_settings(LoadOptions::default(), std::sync::Arc::new(|| {}), settings);
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk01.bvh".into(), bytes: std::sync::Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.motion().is_some());
    v
}
