//! `--install-desktop` with a throwaway HOME: the files, idempotence, the MIME types the
//! desktop sees, the default application, `gio open` starting skelview, and uninstall.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn has(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn with_home(cmd: &mut Command, home: &Path) -> Output {
    cmd.env("HOME", home)
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("XDG_DATA_DIRS")
        .output()
        .unwrap()
}

#[test]
fn install_is_idempotent_and_registers_the_types() {
    let home = std::env::temp_dir().join(format!("skelview-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let exe = env!("CARGO_BIN_EXE_skelview");
    let first = with_home(Command::new(exe).arg("--install-desktop"), &home);
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    let text = String::from_utf8_lossy(&first.stdout).into_owned();
    for rel in [
        "applications/skelview.desktop",
        "mime/packages/skelview.xml",
        "icons/hicolor/scalable/apps/skelview.svg",
        "thumbnailers/skelview.thumbnailer",
    ] {
        assert!(text.contains(&format!("wrote {}", home.join(".local/share").join(rel).display())), "{text}");
    }
    let desktop = std::fs::read_to_string(home.join(".local/share/applications/skelview.desktop")).unwrap();
    assert!(desktop.contains("MimeType=application/x-bvh;application/x-acclaim-asf;application/x-acclaim-amc;"), "{desktop}");
    assert!(desktop.contains("application/x-motion-analysis-htr;") && desktop.contains("model/x-hanim+xml;"), "{desktop}");
    assert!(desktop.contains(" %F"));
    let thumbnailer = std::fs::read_to_string(home.join(".local/share/thumbnailers/skelview.thumbnailer")).unwrap();
    assert!(thumbnailer.contains("thumbnail %i %o --size %s"), "{thumbnailer}");
    let second = with_home(Command::new(exe).arg("--install-desktop"), &home);
    let text = String::from_utf8_lossy(&second.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("wrote")).count(), 0, "second run changes nothing: {text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("unchanged")).count(), 4);

    let tools = has("update-mime-database") && has("gio") && has("xdg-mime");
    if tools {
        let bvh = home.join("walk.bvh");
        std::fs::write(&bvh, skelview_core::formats::SAMPLE_BVH).unwrap();
        let asf = home.join("skeleton.asf");
        std::fs::write(&asf, ":version 1.10\n:name x\n:root\n  order TX TY TZ RX RY RZ\n:bonedata\n:hierarchy\n  begin\n  end\n").unwrap();
        let htr = home.join("take.htr");
        std::fs::write(&htr, "[Header]\nFileType htr\n").unwrap();
        let sjson = home.join("clip.acl.sjson");
        std::fs::write(&sjson, "version = 5\nclip = { }\n").unwrap();
        let x3d = home.join("humanoid.x3d");
        std::fs::write(&x3d, "<?xml version=\"1.0\"?>\n<X3D><Scene><HAnimHumanoid name='h'/></Scene></X3D>\n").unwrap();
        for (file, ty) in [
            (&bvh, "application/x-bvh"),
            (&asf, "application/x-acclaim-asf"),
            (&htr, "application/x-motion-analysis-htr"),
            (&sjson, "application/x-acl-sjson"),
            (&x3d, "model/x-hanim+xml"),
        ] {
            let info = with_home(Command::new("gio").args(["info", "-a", "standard::content-type"]).arg(file), &home);
            assert!(String::from_utf8_lossy(&info.stdout).contains(ty), "{}: {}", file.display(), String::from_utf8_lossy(&info.stdout));
        }
        let default = with_home(Command::new("xdg-mime").args(["query", "default", "application/x-bvh"]), &home);
        assert_eq!(String::from_utf8_lossy(&default.stdout).trim(), "skelview.desktop");
        if std::env::var_os("DISPLAY").is_some() && has("pgrep") {
            // Double-click as the desktop does it: gio opens the file with the default app.
            let marker = home.join("double-clicked.bvh");
            std::fs::write(&marker, skelview_core::formats::SAMPLE_BVH).unwrap();
            let runtime = home.join("runtime");
            std::fs::create_dir_all(&runtime).unwrap();
            // Not `output()`: the started viewer inherits gio's pipes and would keep them open.
            let _ = Command::new("gio")
                .arg("open")
                .arg(&marker)
                .env("XDG_RUNTIME_DIR", &runtime)
                .env("HOME", &home)
                .env("XDG_DATA_HOME", home.join(".local/share"))
                .env("XDG_CONFIG_HOME", home.join(".config"))
                .env_remove("XDG_DATA_DIRS")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            let started = Instant::now();
            let mut pid = String::new();
            while started.elapsed() < skelview_test_support::patience(1, Duration::from_secs(10)) && pid.is_empty() {
                std::thread::sleep(Duration::from_millis(200));
                let o = Command::new("pgrep").args(["-f", &format!("skelview.*{}", marker.display())]).output().unwrap();
                pid = String::from_utf8_lossy(&o.stdout).trim().to_owned();
            }
            assert!(!pid.is_empty(), "gio open did not start skelview on the file");
            for p in pid.lines() {
                let _ = Command::new("kill").arg(p).status();
            }
        }
    } else {
        assert!(!in_ci(), "CI needs shared-mime-info, xdg-utils and libglib2.0-bin (gio)");
        eprintln!("skipping the MIME checks: install shared-mime-info, xdg-utils, desktop-file-utils and libglib2.0-bin");
    }

    let removed = with_home(Command::new(exe).arg("--uninstall-desktop"), &home);
    assert_eq!(removed.status.code(), Some(0));
    assert!(!home.join(".local/share/applications/skelview.desktop").exists());
    std::fs::remove_dir_all(&home).ok();
}
