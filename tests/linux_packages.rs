//! The Linux packages (linux/package.sh) of this build: the Debian package holds the program,
//! desktop entry, MIME types, icon, thumbnailer, man page and completions; installed with
//! dpkg (as root: CI) it makes skelview the default for its types, and removed it leaves
//! nothing. The portable archive runs from wherever it is unpacked.

use std::path::Path;
use std::process::Command;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn has(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

/// Builds both packages of this test build into `dir`; `None` (with a note) without dpkg.
fn packages(dir: &Path) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    if !has("dpkg-deb") {
        assert!(!ci(), "CI runs on Debian: dpkg-deb must be there");
        eprintln!("skipping: no dpkg-deb (a Debian or Ubuntu machine builds the package)");
        return None;
    }
    let root = skelview_test_support::workspace_root();
    let run = Command::new(root.join("linux/package.sh"))
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_skelview"))
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    assert!(run.status.success(), "linux/package.sh failed: {}", String::from_utf8_lossy(&run.stderr));
    let version = env!("CARGO_PKG_VERSION");
    Some((dir.join(format!("skelview_{version}_amd64.deb")), dir.join(format!("skelview-{version}-x86_64-linux.tar.gz"))))
}

fn output(c: &mut Command) -> String {
    let o = c.output().unwrap();
    assert!(o.status.success(), "{c:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_debian_package_installs_as_the_default_for_its_types_and_removes_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let Some((deb, _)) = packages(dir.path()) else { return };
    let listing = output(Command::new("dpkg-deb").arg("-c").arg(&deb));
    for f in [
        "./usr/bin/skelview",
        "./usr/share/applications/skelview.desktop",
        "./usr/share/mime/packages/skelview.xml",
        "./usr/share/icons/hicolor/scalable/apps/skelview.svg",
        "./usr/share/thumbnailers/skelview.thumbnailer",
        "./usr/share/man/man1/skelview.1.gz",
        "./usr/share/bash-completion/completions/skelview",
        "./usr/share/zsh/vendor-completions/_skelview",
        "./usr/share/fish/vendor_completions.d/skelview.fish",
        "./usr/share/doc/skelview/copyright",
    ] {
        assert!(listing.lines().any(|l| l.ends_with(f)), "{f} in the package:\n{listing}");
    }
    let fields = output(Command::new("dpkg-deb").arg("-f").arg(&deb));
    assert!(fields.contains(&format!("Version: {}", env!("CARGO_PKG_VERSION"))) && fields.contains("Architecture: amd64"), "{fields}");
    // Installing changes the machine: only where that is wanted (CI, as root).
    let root = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false);
    if !(root && has("dpkg") && has("xdg-mime")) {
        assert!(!ci(), "CI installs the package: it needs root, dpkg and xdg-mime (xdg-utils)");
        eprintln!("skipping the install: needs root, dpkg and xdg-mime");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let query = |ty: &str| {
        let o = Command::new("xdg-mime")
            .args(["query", "default", ty])
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env_remove("XDG_CURRENT_DESKTOP")
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).trim().to_owned()
    };
    output(Command::new("dpkg").arg("-i").arg(&deb));
    let installed = output(Command::new("dpkg").args(["-L", "skelview"]));
    assert_eq!(query("application/x-bvh"), "skelview.desktop");
    assert_eq!(query("application/x-c3d"), "skelview.desktop");
    assert!(Path::new("/usr/share/mime/application/x-bvh.xml").is_file(), "the MIME database knows .bvh");
    let help = output(Command::new("/usr/bin/skelview").arg("--version"));
    assert!(help.starts_with(&format!("skelview {}", env!("CARGO_PKG_VERSION"))), "{help}");
    output(Command::new("dpkg").args(["--purge", "skelview"]));
    for f in installed.lines().filter(|l| l.contains("skelview")) {
        assert!(!Path::new(f).exists(), "{f} left after removal");
    }
    assert!(!Path::new("/usr/share/mime/application/x-bvh.xml").exists(), "the MIME type is gone");
    assert_eq!(query("application/x-bvh"), "", "no default left");
}

#[test]
fn the_portable_archive_runs_where_it_is_unpacked() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_, tarball)) = packages(dir.path()) else { return };
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    output(Command::new("tar").arg("-xzf").arg(&tarball).arg("-C").arg(&unpacked));
    let top = unpacked.join(format!("skelview-{}-x86_64-linux", env!("CARGO_PKG_VERSION")));
    for f in ["skelview", "README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(top.join(f).is_file(), "{f} in the archive");
    }
    let info =
        output(Command::new(top.join("skelview")).arg("info").arg(skelview_test_support::workspace_root().join("assets/walk01.bvh")));
    assert!(info.contains("joints:          24"), "{info}");
}
