//! Golden images of the offscreen renderer: fixed clips, frames, cameras and styles rendered
//! without MSAA and compared with `tests/golden/*.png`. A pixel passes when every channel is
//! within 8 (of 255) of the golden; a test fails when more than 0.1% of the pixels (76) do not, so a Mesa
//! update that moves a few edge pixels passes and a changed camera, colour, size or layout
//! fails. To update after an intended change: `SKELVIEW_UPDATE_GOLDEN=1 cargo test -p
//! skelview-video --test golden`, then look at the new pictures before committing them. A mismatch leaves the
//! rendered picture in `target/golden-diff/` to compare. Without a graphics adapter the
//! tests skip with a note, except under CI=true where they fail.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use skelview_core::core::Motion;
use skelview_core::formats::{self, LoadOptions};
use skelview_render::offscreen::{self, Gpu};
use skelview_scene::{FrameSpec, Layout, Scene, Style, ViewPreset, framing};
use skelview_video::Offscreen;

const SIZE: (u32, u32) = (320, 240);
/// Largest difference of a channel (0-255) that still counts as the same pixel.
const TOLERANCE: u8 = 8;
/// Pixels that may differ: a recoloured skeleton changes about 300, a moved camera thousands.
const MAX_BAD: usize = (SIZE.0 * SIZE.1) as usize / 1000;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn gpu() -> Option<Gpu> {
    match offscreen::headless() {
        Ok(g) => Some(g),
        Err(e) if ci() => panic!("CI needs a graphics adapter: {e}"),
        Err(e) => {
            eprintln!("skipping: {e} (install mesa-vulkan-drivers)");
            None
        }
    }
}

fn sample(name: &str) -> Motion {
    skelview_core::formats::open_bytes(name, formats::SAMPLE_BVH, &LoadOptions::default()).unwrap()
}

/// Renders `scene` at `time_secs` framed as `render` frames it.
fn picture(gpu: &Gpu, scene: &mut Scene, time_secs: f64, view: ViewPreset, style: Style) -> Vec<u8> {
    let spec = FrameSpec::at(time_secs, style);
    let camera = framing(scene.bounds_over_times(&spec, [time_secs]), view, SIZE.0 as f32 / SIZE.1 as f32, false);
    Offscreen::new(gpu, SIZE, 1).picture(gpu, scene, &spec, &camera).unwrap()
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.png"))
}

/// Pixels whose largest channel difference exceeds `tolerance`.
fn differing(a: &[u8], b: &[u8], tolerance: u8) -> usize {
    a.chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).take(3).any(|(x, y)| x.abs_diff(*y) > tolerance))
        .count()
}

/// Compares `rgba` with the golden `name`, or writes it when asked to update.
fn check(name: &str, rgba: &[u8]) {
    let path = golden_path(name);
    if std::env::var("SKELVIEW_UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        skelview_video::write_png(&path, SIZE, rgba).unwrap();
        eprintln!("updated {}", path.display());
        return;
    }
    let golden = image::open(&path).unwrap_or_else(|e| panic!("{}: {e} (SKELVIEW_UPDATE_GOLDEN=1 writes it)", path.display())).to_rgba8();
    assert_eq!(golden.dimensions(), SIZE, "{name}: the golden has another size");
    let bad = differing(golden.as_raw(), rgba, TOLERANCE);
    let allowed = MAX_BAD;
    if bad > allowed {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/golden-diff");
        std::fs::create_dir_all(&dir).unwrap();
        skelview_video::write_png(&dir.join(format!("{name}.actual.png")), SIZE, rgba).unwrap();
        panic!("{name}: {bad} pixels differ from {} (at most {allowed}); the picture is in {}", path.display(), dir.display());
    }
}

#[test]
fn the_sample_walk_in_perspective() {
    let Some(gpu) = gpu() else { return };
    let mut scene = Scene::arranged([Arc::new(sample("walk01.bvh"))], Layout::Overlay, ViewPreset::Perspective, false);
    check("walk_perspective", &picture(&gpu, &mut scene, 1.0, ViewPreset::Perspective, Style::default()));
}

#[test]
fn joint_axes_from_the_side() {
    let Some(gpu) = gpu() else { return };
    let mut scene = Scene::arranged([Arc::new(sample("walk01.bvh"))], Layout::Overlay, ViewPreset::Side, false);
    let style = Style { axes: true, ..Style::default() };
    check("walk_side_axes", &picture(&gpu, &mut scene, 2.0, ViewPreset::Side, style));
}

#[test]
fn two_clips_side_by_side_with_the_heat_map() {
    let Some(gpu) = gpu() else { return };
    let clips = [Arc::new(sample("a.bvh")), Arc::new(sample("b.bvh"))];
    let mut scene = Scene::arranged(clips, Layout::SideBySide, ViewPreset::Front, true);
    // The second clip half a second later: its bones take heat colours.
    scene.clips[1].offset_secs = 0.5;
    scene.relayout();
    check("pair_side_by_side_heat", &picture(&gpu, &mut scene, 1.5, ViewPreset::Front, Style::default()));
}

/// The check itself: a picture passes against itself and fails against a shifted camera.
#[test]
fn the_comparison_tolerates_noise_and_catches_a_moved_camera() {
    let Some(gpu) = gpu() else { return };
    let mut scene = Scene::arranged([Arc::new(sample("walk01.bvh"))], Layout::Overlay, ViewPreset::Front, false);
    let a = picture(&gpu, &mut scene, 1.0, ViewPreset::Front, Style::default());
    let mut noisy = a.clone();
    noisy.iter_mut().step_by(7).for_each(|c| *c = c.saturating_add(TOLERANCE));
    assert_eq!(differing(&a, &noisy, TOLERANCE), 0);
    let b = picture(&gpu, &mut scene, 1.0, ViewPreset::Side, Style::default());
    assert!(differing(&a, &b, TOLERANCE) > MAX_BAD, "another camera is caught");
    let grey = Style { bone_color: [0.9, 0.2, 0.2, 1.0], ..Style::default() };
    let c = picture(&gpu, &mut scene, 1.0, ViewPreset::Front, grey);
    assert!(differing(&a, &c, TOLERANCE) > MAX_BAD, "another bone colour is caught: {}", differing(&a, &c, TOLERANCE));
}
