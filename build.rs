//! Build script of the application and of skelview-core and skelview-viewer (which name this
//! file in their manifests): when the test corpus (`../shared/corpus` beside the workspace) is missing and
//! this is not CI, sets `cfg(no_corpus)`, so that the corpus tests are reported as ignored,
//! with the reason, instead of passing without having run. Under `CI=true` they run and fail.
//!
//! For the application alone: `SKELVIEW_COMMIT` (the commit `--version` names, from git, or
//! the variable of that name when building outside a checkout) and, for Windows, the icon
//! resource linked into skelview.exe.

use std::path::{Path, PathBuf};
use std::process::Command;

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
    if std::env::var("CARGO_PKG_NAME").as_deref() == Ok("skelview") {
        commit(root);
        windows_icon(root);
    }
}

/// `SKELVIEW_COMMIT`: the checkout's commit (not marked when files differ from it: watching
/// the index would rebuild the program at every `git add`).
fn commit(root: &Path) {
    println!("cargo::rerun-if-env-changed=SKELVIEW_COMMIT");
    let git = root.join(".git");
    // A new commit moves the branch's ref (or the packed refs); a checkout moves HEAD.
    for f in ["HEAD", "packed-refs"] {
        println!("cargo::rerun-if-changed={}", git.join(f).display());
    }
    if let Ok(head) = std::fs::read_to_string(git.join("HEAD"))
        && let Some(r) = head.strip_prefix("ref: ")
    {
        println!("cargo::rerun-if-changed={}", git.join(r.trim()).display());
    }
    let run = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let commit = std::env::var("SKELVIEW_COMMIT").ok().filter(|c| !c.is_empty()).or_else(|| run(&["rev-parse", "--short=10", "HEAD"]));
    println!("cargo::rustc-env=SKELVIEW_COMMIT={}", commit.unwrap_or_else(|| "unknown commit".to_owned()));
}

/// For a Windows target: assets/skelview.ico as the program's icon (resource 1, which the
/// file associations and the installer point at), compiled with mingw's windres.
fn windows_icon(root: &Path) {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let icon = root.join("assets/skelview.ico");
    println!("cargo::rerun-if-changed={}", icon.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let rc = out.join("skelview.rc");
    let res = out.join("skelview-res.o");
    let path = icon.display().to_string().replace('\\', "/");
    if std::fs::write(&rc, format!("1 ICON \"{path}\"\n")).is_err() {
        return;
    }
    let windres = std::env::var("WINDRES").unwrap_or_else(|_| "x86_64-w64-mingw32-windres".to_owned());
    let made = Command::new(&windres).arg(&rc).args(["-O", "coff", "-o"]).arg(&res).status().is_ok_and(|s| s.success());
    if made {
        println!("cargo::rustc-link-arg-bin=skelview={}", res.display());
    } else {
        println!("cargo::warning=no icon in skelview.exe: {windres} failed or is missing (apt install binutils-mingw-w64-x86-64)");
    }
}
