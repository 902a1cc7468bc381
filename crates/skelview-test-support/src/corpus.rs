//! The test corpus, found the same way from every crate's tests.

use std::path::{Path, PathBuf};

/// `../shared/corpus`, or `None` (with a note) outside CI when it is missing. In CI
/// (`CI=true`) a missing corpus fails the test.
pub fn corpus() -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/corpus");
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

/// The workspace's root (where `Cargo.lock` is), from whichever crate's tests run.
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().find(|d| d.join("Cargo.lock").is_file()).unwrap_or(here).to_path_buf()
}
