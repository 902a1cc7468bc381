//! Build script of the application and of skelview-core and skelview-viewer (which name this
//! file in their manifests): when the test corpus (`../shared/corpus` beside the workspace) is missing and
//! this is not CI, sets `cfg(no_corpus)`, so that the corpus tests are reported as ignored,
//! with the reason, instead of passing without having run. Under `CI=true` they run and fail.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(no_corpus)");
    println!("cargo::rerun-if-env-changed=CI");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let here = Path::new(&manifest);
    let root = here.ancestors().find(|d| d.join("Cargo.lock").is_file()).unwrap_or(here);
    let marker = root.join("../shared/corpus/SOURCES.md");
    // A missing file makes Cargo run this again on every build, so the cfg follows the corpus.
    println!("cargo::rerun-if-changed={}", marker.display());
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    if !marker.is_file() && !ci {
        println!("cargo::rustc-cfg=no_corpus");
    }
}
