//! The Python wheel (python/build_wheel.sh) of this build: one abi3 wheel tagged for the glibc
//! it needs, which installs into a fresh virtual environment with no Rust toolchain on PATH
//! and carries the program, so that `skelview`, `python -m skelview` and `skelview.show(...)`
//! work with nothing else installed.

mod common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn run(c: &mut Command) -> String {
    let o = c.output().unwrap();
    assert!(o.status.success(), "{c:?}: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_wheel_installs_in_a_fresh_environment_and_carries_the_viewer() {
    let Some(python) = common::python() else { return };
    let root = common::workspace_root();
    let dir = tempfile::tempdir().unwrap();
    let wheels = dir.path().join("wheels");
    let made = run(Command::new(root.join("python/build_wheel.sh"))
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_skelview"))
        .arg("--out")
        .arg(&wheels)
        .env("MATURIN", python.with_file_name("maturin"))
        .env("CARGO_TARGET_DIR", root.join("target/python-build")));
    let wheel = Path::new(made.trim());
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&format!("skelview-{}-cp39-abi3-manylinux_2_", env!("CARGO_PKG_VERSION"))), "{name}");
    // A fresh environment whose PATH has no Rust toolchain (and no skelview).
    let venv = dir.path().join("venv");
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    let path = format!("{}:/usr/bin:/bin", venv.join("bin").display());
    let cmd = |program: &Path| {
        let mut c = Command::new(program);
        c.env("PATH", &path).env_remove("SKELVIEW_BIN").env_remove("VIRTUAL_ENV").current_dir(&root);
        c
    };
    run(cmd(&venv.join("bin/python")).args(["-m", "pip", "install", "-q"]).arg(wheel));
    assert!(!Command::new("sh").args(["-c", "command -v cargo rustc"]).env("PATH", &path).status().unwrap().success(), "no Rust on PATH");
    let version = run(cmd(&venv.join("bin/skelview")).arg("--version"));
    assert!(version.starts_with(&format!("skelview {}", env!("CARGO_PKG_VERSION"))), "{version}");
    let info = run(cmd(&venv.join("bin/python")).args(["-m", "skelview", "info", "assets/walk01.bvh"]));
    assert!(info.contains("joints:          24"), "{info}");
    let found = run(cmd(&venv.join("bin/python"))
        .args(["-c", "import skelview; print(skelview.viewer()); print(skelview.load('assets/walk01.bvh').frame_count)"]));
    assert_eq!(found.lines().collect::<Vec<_>>(), [venv.join("bin/skelview").to_string_lossy().as_ref(), "101"]);
    // skelview.show() opens the window: its skeleton shows on the (virtual) display.
    let Some(display) = std::env::var_os("DISPLAY") else {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"), "CI runs the tests under Xvfb");
        eprintln!("skipping the window: no DISPLAY");
        return;
    };
    let config = dir.path().join("config");
    let mut shown = cmd(&venv.join("bin/python"))
        .args(["-c", "import skelview, time; p = skelview.show('assets/walk01.bvh'); time.sleep(120); p.terminate()"])
        .env("XDG_CONFIG_HOME", &config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let shot = dir.path().join("shot.png");
    let started = Instant::now();
    let mut pixels = (0, 0);
    while started.elapsed() < common::patience(1, Duration::from_secs(10)) && !(pixels.0 > 50 && pixels.1 > 200) {
        std::thread::sleep(Duration::from_millis(1000));
        if Command::new("import")
            .args(["-display", &display.to_string_lossy(), "-window", "root"])
            .arg(&shot)
            .status()
            .is_ok_and(|s| s.success())
        {
            pixels = common::skeleton_pixels(&shot);
        }
    }
    // The Python and the viewer it started, as a group.
    Command::new("kill").args(["--", &format!("-{}", shown.id())]).status().ok();
    shown.wait().ok();
    assert!(pixels.0 > 50 && pixels.1 > 200, "no skeleton from skelview.show(): {pixels:?}");
}
