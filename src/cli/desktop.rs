//! `--install-desktop` / `--uninstall-desktop`: a freedesktop application entry, MIME types,
//! icon and thumbnailer for the current user, so a double-click on a `.bvh` opens skelview
//! (on Windows, the per-user file associations of `desktop_windows`). `desktop-files` writes
//! the same files for a system package.
#![cfg_attr(windows, allow(dead_code))]

use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::CliError;
use skelview_core::formats::{FORMATS, MimeType};

/// The MIME types of every format skelview reads, from the format table.
fn mime_types() -> impl Iterator<Item = &'static MimeType> {
    FORMATS.iter().flat_map(|f| f.mime_types().iter())
}

/// Types the desktop entry and thumbnailer claim: the formats skelview reads.
fn opened_types() -> Vec<&'static str> {
    mime_types().map(|m| m.name).collect()
}

fn data_home() -> Result<PathBuf, CliError> {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")).ok_or(CliError::NoDataHome)
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn mime_xml() -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n",
    );
    for m in mime_types() {
        let (ty, comment, parent, weight, magic) = (m.name, m.comment, m.parent, m.glob_weight, m.magic);
        x.push_str(&format!("  <mime-type type=\"{ty}\">\n    <comment>{}</comment>\n", xml_escape(comment)));
        x.push_str(&format!("    <sub-class-of type=\"{parent}\"/>\n"));
        for g in m.globs {
            x.push_str(&format!("    <glob pattern=\"{g}\" weight=\"{weight}\"/>\n"));
        }
        if !magic.is_empty() {
            x.push_str("    <magic priority=\"80\">\n");
            for (value, range) in magic {
                x.push_str(&format!("      <match type=\"string\" value=\"{}\" offset=\"{range}\"/>\n", xml_escape(value)));
            }
            x.push_str("    </magic>\n");
        }
        x.push_str("  </mime-type>\n");
    }
    x.push_str("</mime-info>\n");
    x
}

fn desktop_entry(exe: &Path) -> String {
    format!(
        "[Desktop Entry]\nType=Application\nName=skelview\nGenericName=Motion capture viewer\nComment=View BVH and Acclaim ASF/AMC motion capture\nExec=\"{}\" %F\nIcon=skelview\nTerminal=false\nCategories=Graphics;3DGraphics;Viewer;\nMimeType={};\n",
        exe.display(),
        opened_types().join(";")
    )
}

fn thumbnailer(exe: &Path) -> String {
    format!(
        "[Thumbnailer Entry]\nTryExec={0}\nExec=\"{0}\" thumbnail %i %o --size %s\nMimeType={1};\n",
        exe.display(),
        opened_types().join(";")
    )
}

/// The files installed, relative to the data home, with their contents.
fn files(exe: &Path) -> Vec<(PathBuf, String)> {
    vec![
        (PathBuf::from("applications/skelview.desktop"), desktop_entry(exe)),
        (PathBuf::from("mime/packages/skelview.xml"), mime_xml()),
        (PathBuf::from("icons/hicolor/scalable/apps/skelview.svg"), include_str!("../../assets/skelview.svg").to_owned()),
        (PathBuf::from("thumbnailers/skelview.thumbnailer"), thumbnailer(exe)),
    ]
}

fn tool(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

fn refresh(data: &Path, lines: &mut Vec<String>, set_defaults: bool) {
    let mut run = |name: &str, args: &[&std::ffi::OsStr]| {
        if !tool(name) {
            lines.push(format!("missing {name}: skipped (install its package to refresh the desktop databases)"));
            return;
        }
        match Command::new(name).args(args).output() {
            Ok(o) if o.status.success() => lines.push(format!("ran {name}")),
            Ok(o) => lines.push(format!("{name} failed: {}", String::from_utf8_lossy(&o.stderr).trim())),
            Err(e) => lines.push(format!("{name} failed: {e}")),
        }
    };
    run("update-mime-database", &[data.join("mime").as_os_str()]);
    run("update-desktop-database", &[data.join("applications").as_os_str()]);
    if set_defaults {
        let mut args: Vec<&std::ffi::OsStr> = vec!["default".as_ref(), "skelview.desktop".as_ref()];
        args.extend(opened_types().into_iter().map(std::ffi::OsStr::new));
        run("xdg-mime", &args);
    }
}

/// Installs (or refreshes) the desktop integration; returns what it did, one line each.
pub fn install() -> Result<Vec<String>, CliError> {
    let exe = std::env::current_exe().map_err(CliError::Executable)?;
    #[cfg(windows)]
    return super::desktop_windows::install(&exe);
    #[cfg(not(windows))]
    install_freedesktop(&std::fs::canonicalize(&exe).unwrap_or(exe))
}

/// Writes the desktop entry, MIME types, icon and thumbnailer under `dir` as a system package
/// installs them below `/usr/share` (`dir/applications/skelview.desktop`…), for `exe`; no
/// database is refreshed (the package's scripts do that).
pub fn write_files(dir: &Path, exe: &Path) -> Result<Vec<String>, CliError> {
    let mut lines = Vec::new();
    for (rel, contents) in files(exe) {
        let path = dir.join(&rel);
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d).map_err(|source| CliError::File { path: d.to_owned(), source })?;
        }
        std::fs::write(&path, contents).map_err(|source| CliError::File { path: path.clone(), source })?;
        lines.push(format!("wrote {}", path.display()));
    }
    Ok(lines)
}

fn install_freedesktop(exe: &Path) -> Result<Vec<String>, CliError> {
    let data = data_home()?;
    let mut lines = Vec::new();
    for (rel, contents) in files(exe) {
        let path = data.join(&rel);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == contents) {
            lines.push(format!("unchanged {}", path.display()));
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| CliError::File { path: dir.to_owned(), source })?;
        }
        std::fs::write(&path, contents).map_err(|source| CliError::File { path: path.clone(), source })?;
        lines.push(format!("wrote {}", path.display()));
    }
    refresh(&data, &mut lines, true);
    Ok(lines)
}

/// Removes what `install` wrote; returns what it did.
pub fn uninstall() -> Result<Vec<String>, CliError> {
    #[cfg(windows)]
    return super::desktop_windows::uninstall();
    #[cfg(not(windows))]
    uninstall_freedesktop()
}

fn uninstall_freedesktop() -> Result<Vec<String>, CliError> {
    let data = data_home()?;
    let mut lines = Vec::new();
    for (rel, _) in files(Path::new("skelview")) {
        let path = data.join(rel);
        match std::fs::remove_file(&path) {
            Ok(()) => lines.push(format!("removed {}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => lines.push(format!("absent {}", path.display())),
            Err(source) => return Err(CliError::File { path: path.clone(), source }),
        }
    }
    refresh(&data, &mut lines, false);
    Ok(lines)
}
