//! A Python with the test-only packages (ezc3d, c3d, numpy, maturin, pytest, mypy, Ray Data,
//! pybvh, bvhio, SciPy), for tests that compare with a second reader, the Python package's tests and
//! the Python benchmark: `SKELVIEW_TEST_PYTHON` when set, else a virtual environment made once under
//! the target directory (`python3 -m venv`, packages from PyPI at pinned versions).

use std::path::PathBuf;
use std::process::Command;

/// The packages the tests import (second readers, the Python package's build and tests),
/// pinned.
pub const PACKAGES: [&str; 10] = [
    "ezc3d==1.7.2",
    "c3d==0.6.0",
    "numpy==2.4.6",
    "maturin==1.16.0",
    "pytest==9.2.0",
    "mypy==2.4.1",
    "ray[data]==2.60.0",
    "pybvh==0.9.0",
    "bvhio==1.5.4",
    "scipy==1.16.3",
];

/// The Python to run reference scripts with, or `None` (with a note) outside CI when it
/// cannot be set up; in CI (`CI=true`) that fails the test.
pub fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SKELVIEW_TEST_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let root = crate::workspace_root();
    let venv = root.join("target/test-python");
    let bin = venv.join("bin/python");
    let ready = venv.join(".ready");
    // Ready when made with this list of packages (a new pin installs again).
    if std::fs::read_to_string(&ready).is_ok_and(|t| t == PACKAGES.join("\n")) {
        return Some(bin);
    }
    let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().is_ok_and(|s| s.success())
        && Command::new(&bin).args(["-m", "pip", "install", "-q"]).args(PACKAGES).status().is_ok_and(|s| s.success());
    if made {
        std::fs::write(&ready, PACKAGES.join("\n")).ok();
        return Some(bin);
    }
    let how = format!("python3 -m venv {} && {} -m pip install {}", venv.display(), bin.display(), PACKAGES.join(" "));
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("could not set up the test Python (needs python3 with venv, and PyPI): {how}");
    }
    eprintln!("skipping: no test Python with ezc3d ({how})");
    None
}
