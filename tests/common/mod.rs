//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/corpus`, or `None` (with a note) outside CI when it is missing. In CI
/// (`CI=true`) a missing corpus fails the test.
pub fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("the test corpus is missing at {} (CI must have ../shared/corpus)", dir.display());
    }
    eprintln!("skipping: no test corpus at {} (clone the project next to shared/)", dir.display());
    None
}

/// Files in `dir` with extension `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// The ASF/AMC pairs of the corpus (AMC, its ASF).
pub const ACCLAIM_PAIRS: [(&str, &str); 6] = [
    ("cmu_backflip.amc", "cmu_backflip.asf"),
    ("cmu_pirouette.amc", "cmu_pirouette.asf"),
    ("cmu_charleston1.amc", "cmu_charleston.asf"),
    ("cmu_lambada.amc", "cmu_lambada.asf"),
    ("hdm05_HDM_dg_06-03_03_120.amc", "hdm05_HDM_dg.asf"),
    ("endorphin_walking.amc", "endorphin_skeleton.asf"),
];

/// True when a graphics adapter exists; without one, a note naming the package (and a
/// failure under `CI=true`).
pub fn have_gpu() -> bool {
    match skelview::render::offscreen::headless() {
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
