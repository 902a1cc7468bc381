//! The real window under a (virtual) X display: it opens, loads the bundled sample, renders
//! frames and closes cleanly. Skips without DISPLAY, except under CI=true (`.ci/run` runs the
//! tests inside `xvfb-run`).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn window_opens_renders_and_exits() {
    if std::env::var_os("DISPLAY").is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("CI must run the tests under Xvfb (xvfb-run); DISPLAY is not set");
        }
        eprintln!("skipping: no DISPLAY (install xvfb and run under xvfb-run)");
        return;
    }
    let runtime = std::env::temp_dir().join(format!("skelview-xdg-{}", std::process::id()));
    std::fs::create_dir_all(&runtime).unwrap();
    let config = std::env::temp_dir().join(format!("skelview-config-{}", std::process::id()));
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skelview"))
        .env("SKELVIEW_QUIT_AFTER_FRAMES", "20")
        .env("SKELVIEW_TRACE", "1")
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_CONFIG_HOME", &config)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Never hang: give it a minute on a software renderer.
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > common::patience(1, Duration::from_secs(10)) {
            child.kill().ok();
            panic!("the window did not finish 20 frames: it looks stuck");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stdout: {stdout}\nstderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("rendered 20 frames"), "{stdout}");
    // The start-up trace: each milestone once, in order, in milliseconds that never go back.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut last_ms = 0.0;
    for label in
        ["window created", "adapter ready", "first frame presented", "first pose drawn", "files fully loaded", "background work done"]
    {
        let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("skelview trace:") && l.ends_with(label)).collect();
        assert_eq!(lines.len(), 1, "{label}: {stderr}");
        let ms: f64 = lines[0]["skelview trace:".len()..].split_whitespace().next().unwrap().parse().unwrap();
        assert!(ms >= last_ms, "{label} at {ms} ms before {last_ms} ms: {stderr}");
        last_ms = ms;
    }
    assert!(stderr.contains("skelview trace: 20 frames; app + UI CPU per frame: mean "), "{stderr}");
    std::fs::remove_dir_all(&runtime).ok();
    std::fs::remove_dir_all(&config).ok();
}

/// Starts the viewer on the bundled sample with `env` and screenshots the display until the
/// skeleton shows (a hang fails after a generous limit); `None` when this machine cannot take
/// screenshots.
fn skeleton_on_screen(env: &[(&str, &str)]) -> Option<((usize, usize), String)> {
    let Some(display) = std::env::var_os("DISPLAY") else {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("CI must run the tests under Xvfb (xvfb-run); DISPLAY is not set");
        }
        eprintln!("skipping: no DISPLAY");
        return None;
    };
    let has = |p: &str| std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(p).is_file()));
    if !has("import") {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"), "CI needs ImageMagick's import for screenshots");
        eprintln!("skipping: no 'import' (install imagemagick)");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    // The viewer's own words go to a file (a pipe nobody reads could fill and stall it) and
    // into the failure message.
    let log = dir.path().join("viewer.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skelview"))
        .env("XDG_RUNTIME_DIR", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .envs(env.iter().copied())
        .stdout(std::fs::File::create(dir.path().join("viewer.out")).unwrap())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let said = || log_tail(&log);
    let shot = dir.path().join("shot.png");
    let started = Instant::now();
    let mut found = (0, 0);
    while started.elapsed() < common::patience(1, Duration::from_secs(10)) {
        std::thread::sleep(Duration::from_millis(1000));
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the viewer exited early ({status}) with env {env:?}; it said:\n{}", said());
        }
        let ok = Command::new("import")
            .args(["-display", &display.to_string_lossy(), "-window", "root"])
            .arg(&shot)
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            found = common::skeleton_pixels(&shot);
            if found.0 > 50 && found.1 > 200 {
                break;
            }
        }
    }
    child.kill().ok();
    child.wait().ok();
    Some((found, said()))
}

/// The last 40 lines the viewer wrote to `log`.
fn log_tail(log: &std::path::Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

#[test]
fn screenshot_of_the_window_shows_the_playing_sample() {
    let Some((found, said)) = skeleton_on_screen(&[]) else { return };
    assert!(
        found.0 > 50 && found.1 > 200,
        "no skeleton on screen: {} joint and {} bone pixels; the viewer said:\n{said}",
        found.0,
        found.1
    );
}

#[test]
fn the_window_falls_back_to_another_backend_when_the_first_gives_no_device() {
    // Vulkan refused (as DX12 fails under Wine): the window draws with GL instead.
    let Some((found, said)) = skeleton_on_screen(&[("SKELVIEW_REFUSE_BACKEND", "vulkan")]) else { return };
    assert!(
        found.0 > 50 && found.1 > 200,
        "no skeleton on screen: {} joint and {} bone pixels; the viewer said:\n{said}",
        found.0,
        found.1
    );
}

#[test]
fn settings_persist_between_runs_in_the_config_dir() {
    if std::env::var_os("DISPLAY").is_none() {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"), "CI must run the tests under Xvfb");
        eprintln!("skipping: no DISPLAY");
        return;
    }
    // The viewer reads its settings at start: a saved light theme, hidden grid and rate come
    // back; a broken settings file does not stop it.
    let dir = std::env::temp_dir().join(format!("skelview-settings-win-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("skelview")).unwrap();
    let mut saved = skelview::app::settings::Settings { light_theme: true, rate: 0.5, ..Default::default() };
    saved.style.grid = false;
    saved.save(&dir.join("skelview")).unwrap();
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_skelview"))
            .env("SKELVIEW_QUIT_AFTER_FRAMES", "5")
            .env("XDG_RUNTIME_DIR", &dir)
            .env("XDG_CONFIG_HOME", &dir)
            .output()
            .unwrap()
    };
    assert_eq!(run().status.code(), Some(0));
    // Quitting after N frames does not save, so the file is as written.
    assert_eq!(skelview::app::settings::Settings::load(&dir.join("skelview")).0, saved);
    std::fs::write(dir.join("skelview/settings.toml"), b"\xff\xfe garbage = = =\n").unwrap();
    assert_eq!(run().status.code(), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_files_on_the_command_line_show_two_clips_in_their_colours() {
    let Some(display) = std::env::var_os("DISPLAY") else {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"), "CI must run the tests under Xvfb");
        eprintln!("skipping: no DISPLAY");
        return;
    };
    let has = |p: &str| std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(p).is_file()));
    if !has("import") {
        assert!(!std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"), "CI needs ImageMagick's import for screenshots");
        eprintln!("skipping: no 'import'");
        return;
    }
    // Two different captures, so that they do not hide each other in the overlay.
    let dir = std::env::temp_dir().join(format!("skelview-two-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a = dir.join("a.bvh");
    std::fs::write(&a, skelview_core::formats::SAMPLE_BVH).unwrap();
    // The sample with its root moved 150 units along X on every frame (first channel).
    let text = String::from_utf8_lossy(skelview_core::formats::SAMPLE_BVH).into_owned();
    let (head, motion) = text.split_once("Frame Time:").unwrap();
    let (time_line, frames) = motion.split_once('\n').unwrap();
    let moved: String = frames
        .lines()
        .map(|l| match l.split_once(' ') {
            Some((x, rest)) if x.parse::<f64>().is_ok() => format!("{} {rest}\n", x.parse::<f64>().unwrap() + 150.0),
            _ => format!("{l}\n"),
        })
        .collect();
    let b = dir.join("b.bvh");
    std::fs::write(&b, format!("{head}Frame Time:{time_line}\n{moved}")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args([&a, &b])
        .env("XDG_RUNTIME_DIR", &dir)
        .env("XDG_CONFIG_HOME", &dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.join("viewer.log")).unwrap())
        .spawn()
        .unwrap();
    let said = || log_tail(&dir.join("viewer.log"));
    let shot = dir.join("shot.png");
    let started = Instant::now();
    let mut found = (0, 0);
    while started.elapsed() < common::patience(1, Duration::from_secs(10)) {
        std::thread::sleep(Duration::from_millis(1000));
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the viewer exited early ({status}); it said:\n{}", said());
        }
        let ok = Command::new("import")
            .args(["-display", &display.to_string_lossy(), "-window", "root"])
            .arg(&shot)
            .status()
            .is_ok_and(|s| s.success());
        if let (true, Ok(img)) = (ok, image::open(&shot)) {
            // Red-orange bones of the second clip (the palette's second colour), counted in
            // the middle of the screen only: the clip list's colour swatch and the timeline's
            // extent bar are red too.
            let img = img.to_rgb8();
            let (w, h) = img.dimensions();
            let (x0, x1, y0, y1) = (w * 27 / 100, w * 72 / 100, h / 10, h * 85 / 100);
            let red = img
                .enumerate_pixels()
                .filter(|(x, y, _)| (x0..x1).contains(x) && (y0..y1).contains(y))
                .filter(|(_, _, p)| p.0[0] > 170 && p.0[0] > p.0[1].saturating_add(50) && p.0[0] > p.0[2].saturating_add(60))
                .count();
            found = (red, common::skeleton_pixels(&shot).1);
            if found.0 > 100 && found.1 > 200 {
                break;
            }
        }
    }
    child.kill().ok();
    child.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        found.0 > 100 && found.1 > 200,
        "two clips not on screen: {} red and {} grey pixels; the viewer said:\n{}",
        found.0,
        found.1,
        said()
    );
}
