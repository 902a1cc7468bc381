//! The Windows build under Wine: `windows/build.sh` makes it (CI as a stage of its own, which
//! points `SKELVIEW_WINDOWS_DIST` at its folder; these tests otherwise). The program is a GUI program that imports system
//! DLLs only and carries its icon; its command line prints what the Linux build prints; its
//! pictures match the Linux ones after falling back from DX12 (which fails under Wine); its
//! window draws; the installer and `--install-desktop` register the file types per user and
//! their uninstallers leave nothing behind. Where it cannot be built these tests say why (and
//! fail under CI=true).
//!
//! Wine 8.0 lacks `bcryptprimitives.dll`, which Rust's std imports: a stand-in built here from
//! `windows/test/bcryptprimitives.c` goes into the test prefix only, never into what ships.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The folder windows/build.sh wrote: `SKELVIEW_WINDOWS_DIST` (CI builds it as a stage of its
/// own), else built here once (`windows/build.sh --profile windows-test`, which sets up its
/// toolchain: minutes the first time). `None` with the reason when it cannot be built (a
/// failure in CI).
fn dist() -> Option<PathBuf> {
    static DIST: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let built = DIST.get_or_init(|| {
        if let Some(d) = std::env::var_os("SKELVIEW_WINDOWS_DIST") {
            return Ok(PathBuf::from(d));
        }
        let root = common::workspace_root();
        let out = root.join("target/windows-dist");
        let run = Command::new(root.join("windows/build.sh")).args(["--profile", "windows-test", "--out"]).arg(&out).output();
        match run {
            Ok(o) if o.status.success() => Ok(out),
            Ok(o) => Err(String::from_utf8_lossy(&o.stderr).lines().rev().take(5).collect::<Vec<_>>().join(" | ")),
            Err(e) => Err(e.to_string()),
        }
    });
    match built {
        Ok(d) => Some(d.clone()),
        Err(e) if ci() => panic!("the Windows build failed: {e}"),
        Err(e) => {
            eprintln!(
                "skipping: no Windows build (windows/build.sh needs Debian's mingw-w64, nsis and wine64, which windows/toolchain.sh installs as root): {e}"
            );
            None
        }
    }
}

/// Debian's wine64 loader (beside its libraries, not on PATH).
fn wine64() -> PathBuf {
    let debian = PathBuf::from("/usr/lib/wine/wine64");
    if debian.is_file() { debian } else { PathBuf::from("wine64") }
}

/// A fresh Wine prefix of these tests' own, with the stand-in DLL; made once per run.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let prefix = common::workspace_root().join("target/wine-test-prefix");
        let _ = std::fs::remove_dir_all(&prefix);
        std::fs::create_dir_all(&prefix).unwrap();
        let boot = wine(&prefix).args(["wineboot", "-i"]).output().expect("wine64 runs (apt install wine64)");
        assert!(boot.status.success(), "wineboot failed: {}", String::from_utf8_lossy(&boot.stderr));
        let dll = prefix.join("drive_c/windows/system32/bcryptprimitives.dll");
        let built = Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O2", "-o"])
            .arg(&dll)
            .arg(common::workspace_root().join("windows/test/bcryptprimitives.c"))
            .arg("-ladvapi32")
            .status()
            .expect("x86_64-w64-mingw32-gcc runs (apt install gcc-mingw-w64-x86-64)");
        assert!(built.success(), "building the stand-in DLL failed");
        prefix
    })
}

fn wine(prefix: &Path) -> Command {
    let mut c = Command::new(wine64());
    c.env("WINEPREFIX", prefix).env("WINEDEBUG", "-all").env_remove("WGPU_BACKEND").current_dir(common::workspace_root());
    c
}

/// `skelview.exe ARGS` under Wine.
fn exe(dist: &Path, args: &[impl AsRef<OsStr>]) -> Output {
    wine(prefix()).arg(dist.join("skelview.exe")).args(args).output().unwrap()
}

fn linux(args: &[impl AsRef<OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(common::workspace_root()).output().unwrap()
}

fn os(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

/// Waits for every program of the prefix to end (an uninstaller copies itself and goes on).
fn settle() {
    let server = wine64().with_file_name("wineserver");
    let server = if server.is_file() { server } else { PathBuf::from("wineserver") };
    Command::new(server).arg("-w").env("WINEPREFIX", prefix()).status().unwrap();
}

#[test]
fn the_program_is_a_gui_program_with_its_icon_importing_system_dlls_only() {
    let Some(dist) = dist() else { return };
    let dump = Command::new("x86_64-w64-mingw32-objdump").arg("-p").arg(dist.join("skelview.exe")).output().unwrap();
    let text = String::from_utf8_lossy(&dump.stdout);
    assert!(text.contains("Subsystem\t\t00000002\t(Windows GUI)"), "not a GUI program: no console window on a double-click");
    let dlls: Vec<String> = text.lines().filter_map(|l| l.trim().strip_prefix("DLL Name: ")).map(str::to_ascii_lowercase).collect();
    // The C and C++ runtimes of mingw must be linked in, not shipped beside the program.
    for dll in &dlls {
        assert!(!dll.starts_with("libgcc") && !dll.starts_with("libstdc++") && !dll.starts_with("libwinpthread"), "imports {dll}");
    }
    assert!(text.contains("AttachConsole"), "attaches to the terminal's console for the command line");
    let sections = Command::new("x86_64-w64-mingw32-objdump").arg("-h").arg(dist.join("skelview.exe")).output().unwrap();
    assert!(String::from_utf8_lossy(&sections.stdout).contains(".rsrc"), "the icon resource");
}

#[test]
fn the_command_line_prints_what_the_linux_build_prints() {
    let Some(dist) = dist() else { return };
    let mut cases = vec![
        os(&["info", "assets/walk01.bvh"]),
        os(&["positions", "assets/walk01.bvh", "--frames", "0,40,-1"]),
        os(&["info", "--humanoid", "assets/walk01.bvh"]),
        os(&["formats"]),
    ];
    let corpus = common::corpus();
    let files = ["bvh/cmu_cgspeed_01_01.bvh", "c3d/cmu_01_01_float.c3d", "fbx/ozz_robot.fbx", "gltf/Fox.glb"];
    if let Some(c) = &corpus {
        for f in files {
            let p = c.join(f).display().to_string();
            cases.push(os(&["info", &p]));
            cases.push(os(&["positions", &p, "--frames", "0,-1"]));
        }
    }
    for args in cases {
        let (w, l) = (exe(&dist, &args), linux(&args));
        assert_eq!(w.status.code(), l.status.code(), "{args:?}: {}", String::from_utf8_lossy(&w.stderr));
        assert_eq!(String::from_utf8_lossy(&w.stdout), String::from_utf8_lossy(&l.stdout), "{args:?}");
    }
    let version = exe(&dist, &os(&["--version"]));
    assert_eq!(String::from_utf8_lossy(&version.stdout), String::from_utf8_lossy(&linux(&os(&["--version"])).stdout));
}

#[test]
fn render_falls_back_from_dx12_and_draws_the_linux_picture() {
    let Some(dist) = dist() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (w, l) = (dir.path().join("wine.png"), dir.path().join("linux.png"));
    let args = |out: &Path| os(&["render", "assets/walk01.bvh", "--frame", "30", "--size", "320x240", "-o", &out.display().to_string()]);
    let wine_run = exe(&dist, &args(&w));
    let err = String::from_utf8_lossy(&wine_run.stderr);
    assert!(wine_run.status.success(), "{err}");
    // DX12, wgpu's first choice on Windows, gives no device under Wine: the next backend draws.
    assert!(err.contains("(Dx12)") && err.contains("drawn with"), "the fallback is said: {err}");
    assert!(linux(&args(&l)).status.success());
    let (a, b) = (image::open(&w).unwrap().to_rgba8(), image::open(&l).unwrap().to_rgba8());
    assert_eq!(a.dimensions(), b.dimensions());
    let differing = a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 16)).count();
    assert!(differing * 200 < (320 * 240), "{differing} pixels differ from the Linux picture");
}

#[test]
fn the_window_starts_and_draws_the_sample() {
    let Some(dist) = dist() else { return };
    let Some(display) = std::env::var_os("DISPLAY") else {
        assert!(!ci(), "CI runs the tests under Xvfb");
        eprintln!("skipping: no DISPLAY");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut child = wine(prefix()).arg(dist.join("skelview.exe")).arg("assets/walk01.bvh").spawn().unwrap();
    let shot = dir.path().join("shot.png");
    let started = Instant::now();
    let mut found = (0, 0);
    while started.elapsed() < common::patience(1, Duration::from_secs(10)) {
        std::thread::sleep(Duration::from_millis(1500));
        assert!(child.try_wait().unwrap().is_none(), "the window closed early");
        let ok = Command::new("import").args(["-display", &display.to_string_lossy(), "-window", "root"]).arg(&shot).status();
        if ok.is_ok_and(|s| s.success()) {
            found = common::skeleton_pixels(&shot);
            if found.0 > 50 && found.1 > 200 {
                break;
            }
        }
    }
    child.kill().ok();
    child.wait().ok();
    assert!(found.0 > 50 && found.1 > 200, "no skeleton in the window: {} joint and {} bone pixels", found.0, found.1);
}

/// `reg query KEY [/v NAME | /ve]` in the test prefix: its output, `None` when absent.
fn reg_query(key: &str, value: Option<&str>) -> Option<String> {
    let mut c = wine(prefix());
    c.args(["reg", "query", key]);
    match value {
        Some(v) => c.args(["/v", v]),
        None => c.arg("/ve"),
    };
    let o = c.output().unwrap();
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

fn reg_add(key: &str, data: &str) {
    let o = wine(prefix()).args(["reg", "add", key, "/ve", "/d", data, "/f"]).output().unwrap();
    assert!(o.status.success(), "reg add {key}");
}

/// The per-user programs folder of the prefix (`%LOCALAPPDATA%\Programs`).
fn programs() -> PathBuf {
    let users = prefix().join("drive_c/users");
    let user = std::fs::read_dir(&users).unwrap().flatten().map(|e| e.path()).find(|p| p.join("AppData/Local").is_dir()).unwrap();
    user.join("AppData/Local/Programs")
}

#[test]
fn the_installer_registers_the_file_types_and_its_uninstaller_removes_everything() {
    let Some(dist) = dist() else { return };
    let setup =
        std::fs::read_dir(&dist).unwrap().flatten().map(|e| e.path()).find(|p| p.to_string_lossy().ends_with("-setup.exe")).unwrap();
    // Another program already opens .fbx: skelview is only offered there.
    reg_add(r"HKCU\Software\Classes\.fbx", "Other.fbx");
    let run = wine(prefix()).arg(&setup).arg("/S").output().unwrap();
    assert!(run.status.success(), "the installer failed");
    settle();
    let installed = programs().join("skelview");
    for f in ["skelview.exe", "uninstall.exe", "README.md", "LICENSE-MIT.txt", "LICENSE-APACHE.txt"] {
        assert!(installed.join(f).is_file(), "{f} installed");
    }
    let start_menu = programs().parent().unwrap().parent().unwrap().join("Roaming/Microsoft/Windows/Start Menu/Programs/skelview.lnk");
    assert!(start_menu.is_file(), "the Start-menu entry {}", start_menu.display());
    let key = |k: &str| format!(r"HKCU\Software\Classes\{k}");
    assert!(reg_query(&key(".bvh"), None).is_some_and(|o| o.contains("skelview.bvh")), ".bvh opens with skelview");
    assert!(reg_query(&key(r"skelview.bvh\shell\open\command"), None).is_some_and(|o| o.contains("skelview.exe") && o.contains("%1")));
    assert!(reg_query(&key(r"skelview.bvh\DefaultIcon"), None).is_some_and(|o| o.contains("skelview.exe")));
    assert!(reg_query(&key(".c3d"), None).is_some_and(|o| o.contains("skelview.c3d")));
    assert!(reg_query(&key(".fbx"), None).is_some_and(|o| o.contains("Other.fbx")), "another program's default stays");
    assert!(reg_query(&key(r".fbx\OpenWithProgids"), Some("skelview.fbx")).is_some(), "offered under Open with");
    // A two-part extension never takes over the general one.
    assert!(reg_query(&key(r".zip\OpenWithProgids"), Some("skelview.acl_zip")).is_some());
    assert!(!reg_query(&key(".zip"), None).is_some_and(|o| o.contains("skelview")), ".zip is not skelview's");
    let uninstall_key = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\skelview";
    assert!(reg_query(uninstall_key, Some("DisplayVersion")).is_some_and(|o| o.contains(env!("CARGO_PKG_VERSION"))));

    let run = wine(prefix()).arg(installed.join("uninstall.exe")).arg("/S").output().unwrap();
    assert!(run.status.success(), "the uninstaller failed");
    settle();
    // The uninstaller copies itself away and goes on: give it a moment to finish.
    let gone = Instant::now();
    while installed.exists() && gone.elapsed() < common::patience(1, Duration::from_secs(10)) {
        std::thread::sleep(Duration::from_millis(300));
        settle();
    }
    assert!(!installed.exists(), "the program's folder is removed");
    assert!(!start_menu.exists(), "the Start-menu entry is removed");
    assert!(reg_query(uninstall_key, Some("DisplayName")).is_none(), "the Apps & features entry is removed");
    assert!(reg_query(&key(".bvh"), None).is_none(), ".bvh is left as before");
    assert!(reg_query(&key("skelview.bvh"), None).is_none(), "the ProgID is removed");
    assert!(reg_query(&key(".fbx"), None).is_some_and(|o| o.contains("Other.fbx")), "another program's default stays");
    assert!(reg_query(&key(r".fbx\OpenWithProgids"), Some("skelview.fbx")).is_none());
    assert!(reg_query(&key(r".zip\OpenWithProgids"), Some("skelview.acl_zip")).is_none());
}
