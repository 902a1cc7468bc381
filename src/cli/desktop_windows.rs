//! `--install-desktop` / `--uninstall-desktop` on Windows: the per-user file associations
//! (`HKCU\Software\Classes`), as the installer makes them by running this, and as the portable
//! zip's users make them by hand. Each format gets a ProgID (`skelview.bvh`: its description,
//! the program's icon, "Open with skelview"); an extension whose default is free, or already
//! ours, gets skelview as its default, others only offer it under "Open with"; a two-part
//! extension (`.acl.zip`) is offered under its last part (`.zip`) and never becomes its default.

use std::path::Path;

use windows_sys::Win32::System::Registry::{
    HKEY, HKEY_CURRENT_USER, KEY_ALL_ACCESS, KEY_READ, REG_OPTION_NON_VOLATILE, REG_SZ, RRF_RT_REG_SZ, RegCloseKey, RegCreateKeyExW,
    RegDeleteKeyValueW, RegDeleteTreeW, RegGetValueW, RegOpenKeyExW, RegQueryInfoKeyW, RegSetValueExW,
};
use windows_sys::Win32::UI::Shell::{SHCNE_ASSOCCHANGED, SHCNF_IDLIST, SHChangeNotify};

use super::error::CliError;
use skelview_core::formats::FORMATS;

const CLASSES: &str = r"Software\Classes";
const APP_PATHS: &str = r"Software\Microsoft\Windows\CurrentVersion\App Paths\skelview.exe";

/// `(extension with its dot, ProgID, description)` for every extension of a format skelview
/// opens (name maps are no motion to open).
fn associations() -> Vec<(String, String, &'static str)> {
    let mut out = Vec::new();
    for f in FORMATS.iter().filter(|f| !f.mime_types().is_empty() && !f.extensions().is_empty()) {
        for ext in f.extensions() {
            let ext = ext.trim_start_matches('.').to_ascii_lowercase();
            let prog_id = format!("skelview.{}", ext.replace('.', "_"));
            if !out.iter().any(|(e, _, _): &(String, String, &str)| *e == format!(".{ext}")) {
                out.push((format!(".{ext}"), prog_id, f.description()));
            }
        }
    }
    out
}

fn wide(s: &str) -> Vec<u16> {
    s.encode_utf16().chain(std::iter::once(0)).collect()
}

fn failed(what: &str, code: u32) -> CliError {
    CliError::Registry(format!("{what}: Windows error {code}"))
}

/// An open key under HKEY_CURRENT_USER, closed when dropped.
struct Key(HKEY);

impl Drop for Key {
    fn drop(&mut self) {
        // SAFETY: the key was opened by RegCreateKeyExW and is closed once.
        unsafe { RegCloseKey(self.0) };
    }
}

fn create(path: &str) -> Result<Key, CliError> {
    let mut key: HKEY = std::ptr::null_mut();
    let p = wide(path);
    // SAFETY: valid NUL-terminated strings and out-pointers for the call's length.
    let code = unsafe {
        RegCreateKeyExW(
            HKEY_CURRENT_USER,
            p.as_ptr(),
            0,
            std::ptr::null(),
            REG_OPTION_NON_VOLATILE,
            KEY_ALL_ACCESS,
            std::ptr::null(),
            &mut key,
            std::ptr::null_mut(),
        )
    };
    if code != 0 { Err(failed(&format!("HKCU\\{path}"), code)) } else { Ok(Key(key)) }
}

/// Sets `name` (empty: the key's default value) of `HKCU\path` to `value`.
fn set(path: &str, name: &str, value: &str) -> Result<(), CliError> {
    let key = create(path)?;
    let (n, v) = (wide(name), wide(value));
    // SAFETY: `v` holds `v.len() * 2` bytes, NUL included as REG_SZ wants.
    let code = unsafe { RegSetValueExW(key.0, n.as_ptr(), 0, REG_SZ, v.as_ptr().cast(), (v.len() * 2) as u32) };
    if code != 0 { Err(failed(&format!("HKCU\\{path} {name}"), code)) } else { Ok(()) }
}

/// The string `name` of `HKCU\path`, when there is one.
fn get(path: &str, name: &str) -> Option<String> {
    let (p, n) = (wide(path), wide(name));
    let mut buf = vec![0u16; 1024];
    let mut bytes = (buf.len() * 2) as u32;
    // SAFETY: `buf` has `bytes` bytes of room.
    let code = unsafe {
        RegGetValueW(HKEY_CURRENT_USER, p.as_ptr(), n.as_ptr(), RRF_RT_REG_SZ, std::ptr::null_mut(), buf.as_mut_ptr().cast(), &mut bytes)
    };
    if code != 0 {
        return None;
    }
    let len = (bytes as usize / 2).saturating_sub(1);
    Some(String::from_utf16_lossy(&buf[..len.min(buf.len())]))
}

/// Removes `HKCU\path` and everything below it; true when it was there.
fn remove_tree(path: &str) -> bool {
    let p = wide(path);
    // SAFETY: a valid NUL-terminated string.
    unsafe { RegDeleteTreeW(HKEY_CURRENT_USER, p.as_ptr()) == 0 }
}

/// Removes `HKCU\path` when it holds no value and no key (one the registration made and
/// nothing else uses).
fn remove_if_empty(path: &str) {
    let p = wide(path);
    let mut key: HKEY = std::ptr::null_mut();
    // SAFETY: a valid NUL-terminated string and out-pointer.
    if unsafe { RegOpenKeyExW(HKEY_CURRENT_USER, p.as_ptr(), 0, KEY_READ, &mut key) } != 0 {
        return;
    }
    let key = Key(key);
    let (mut keys, mut values) = (0u32, 0u32);
    let n = std::ptr::null_mut::<u32>();
    // SAFETY: an open key; only the two counts are asked for.
    let code = unsafe {
        RegQueryInfoKeyW(key.0, std::ptr::null_mut(), n, std::ptr::null(), &mut keys, n, n, &mut values, n, n, n, std::ptr::null_mut())
    };
    drop(key);
    if code == 0 && keys == 0 && values == 0 {
        remove_tree(path);
    }
}

/// Removes the value `name` of `HKCU\path`; true when it was there.
fn remove_value(path: &str, name: &str) -> bool {
    let (p, n) = (wide(path), wide(name));
    // SAFETY: valid NUL-terminated strings.
    unsafe { RegDeleteKeyValueW(HKEY_CURRENT_USER, p.as_ptr(), n.as_ptr()) == 0 }
}

fn notify_shell() {
    // SAFETY: SHCNE_ASSOCCHANGED takes no items.
    unsafe { SHChangeNotify(SHCNE_ASSOCCHANGED as i32, SHCNF_IDLIST, std::ptr::null(), std::ptr::null()) };
}

/// The last part of an extension (`.zip` of `.acl.zip`) and whether it had more parts.
fn last_part(ext: &str) -> (String, bool) {
    let trimmed = ext.trim_start_matches('.');
    match trimmed.rsplit_once('.') {
        Some((_, last)) => (format!(".{last}"), true),
        None => (ext.to_owned(), false),
    }
}

/// Registers the file types for the current user; returns what it did, one line each.
pub fn install(exe: &Path) -> Result<Vec<String>, CliError> {
    let exe = exe.display().to_string();
    let mut lines = Vec::new();
    set(APP_PATHS, "", &exe)?;
    lines.push(format!("registered HKCU\\{APP_PATHS}"));
    let app = format!(r"{CLASSES}\Applications\skelview.exe");
    set(&format!(r"{app}\shell\open\command"), "", &format!("\"{exe}\" \"%1\""))?;
    set(&app, "FriendlyAppName", "skelview")?;
    for (ext, prog_id, description) in associations() {
        let class = format!(r"{CLASSES}\{prog_id}");
        set(&class, "", description)?;
        set(&class, "FriendlyTypeName", description)?;
        set(&format!(r"{class}\DefaultIcon"), "", &format!("\"{exe}\",0"))?;
        set(&format!(r"{class}\shell\open"), "", "Open with skelview")?;
        set(&format!(r"{class}\shell\open\command"), "", &format!("\"{exe}\" \"%1\""))?;
        let (key_ext, two_part) = last_part(&ext);
        let ext_key = format!(r"{CLASSES}\{key_ext}");
        set(&format!(r"{ext_key}\OpenWithProgids"), &prog_id, "")?;
        set(&format!(r"{app}\SupportedTypes"), &key_ext, "")?;
        let current = get(&ext_key, "").filter(|c| !c.is_empty());
        let take_default = !two_part && current.as_deref().is_none_or(|c| c.starts_with("skelview."));
        if take_default {
            set(&ext_key, "", &prog_id)?;
            lines.push(format!("{ext}: opens with skelview ({prog_id})"));
        } else {
            let why =
                if two_part { format!("{key_ext} stays as it is") } else { format!("its default stays {}", current.unwrap_or_default()) };
            lines.push(format!("{ext}: skelview offered under Open with ({why})"));
        }
    }
    notify_shell();
    Ok(lines)
}

/// Removes what `install` wrote (an extension's default only where it is still skelview's).
pub fn uninstall() -> Result<Vec<String>, CliError> {
    let mut lines = Vec::new();
    for (ext, prog_id, _) in associations() {
        let (key_ext, _) = last_part(&ext);
        let ext_key = format!(r"{CLASSES}\{key_ext}");
        remove_value(&format!(r"{ext_key}\OpenWithProgids"), &prog_id);
        if get(&ext_key, "").as_deref() == Some(prog_id.as_str()) {
            remove_value(&ext_key, "");
        }
        remove_if_empty(&format!(r"{ext_key}\OpenWithProgids"));
        remove_if_empty(&ext_key);
        if remove_tree(&format!(r"{CLASSES}\{prog_id}")) {
            lines.push(format!("removed {prog_id} ({ext})"));
        }
    }
    remove_tree(&format!(r"{CLASSES}\Applications\skelview.exe"));
    remove_tree(APP_PATHS);
    lines.push("removed the program's registration".to_owned());
    notify_shell();
    Ok(lines)
}
