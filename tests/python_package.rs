//! The Python package (python/): built and installed into the test Python with pip (maturin
//! builds the extension), then its pytest suite, which compares it with this executable.

mod common;

use skelview_test_support::python;

use std::process::Command;

#[test]
fn the_python_package_builds_installs_and_passes_its_tests() {
    let Some(python) = python::python() else { return };
    let root = common::workspace_root();
    // maturin's build hook runs `maturin` by name: the environment's bin folder first.
    let bin = python.parent().map(|p| p.to_path_buf()).unwrap_or_default();
    let path =
        std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()))).unwrap();
    // Its own target folder: the wheel is a release build, and the test run may hold the
    // debug one.
    let install = Command::new(&python)
        .args(["-m", "pip", "install", "-q", "--no-build-isolation", "--force-reinstall", "--no-deps"])
        .arg(root.join("python"))
        .env("CARGO_TARGET_DIR", root.join("target/python-build"))
        .env("PATH", &path)
        .status()
        .unwrap();
    assert!(install.success(), "pip install ./python failed");
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-p", "no:cacheprovider"]).arg(root.join("python/tests"));
    pytest.env("SKELVIEW_BIN", env!("CARGO_BIN_EXE_skelview"));
    if let Some(corpus) = common::corpus() {
        pytest.env("SKELVIEW_CORPUS", corpus);
    }
    let status = pytest.status().unwrap();
    assert!(status.success(), "the Python package's tests failed (output above)");
}
