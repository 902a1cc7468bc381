//! Helpers shared by the application's integration tests: those of every crate (the corpus,
//! the test Python) come from `skelview-test-support`; these two need the viewer or the GPU.
#![allow(dead_code)]

#[allow(unused_imports)]
pub use skelview_test_support::*;

/// True when a graphics adapter exists; without one, a note naming the package (and a
/// failure under `CI=true`).
pub fn have_gpu() -> bool {
    match skelview_render::offscreen::headless() {
        Ok(_) => true,
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => panic!("CI needs a graphics adapter: {e}"),
        Err(e) => {
            eprintln!("skipping: {e} (install mesa-vulkan-drivers)");
            false
        }
    }
}

/// Updates the viewer until `done` holds (20 s at most).
pub fn wait(v: &mut skelview::app::Viewer, done: &dyn Fn(&skelview::app::Viewer) -> bool) {
    for _ in 0..4000 {
        v.update(0.0);
        if done(v) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("timed out: {:?}", v.messages.error);
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
