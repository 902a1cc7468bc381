//! What differs between the desktop and a browser tab, in one place, behind the same names:
//! how a task's work runs (a thread, or between frames on the page's one thread), how it
//! hands the page a frame, how a file is parsed (rayon, or on the calling thread), where an
//! export goes (a file, or a download) and where settings live (a folder, or local storage).
//! The rest of the crate calls these and carries no `cfg` of its own for them.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

pub use imp::*;

/// True in the browser build.
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;

    /// Where a task's messages go.
    pub type MessageSender<M> = std::sync::mpsc::SyncSender<M>;

    /// A few messages may wait for the handle: enough for a loader's preview and progress to
    /// overlap the UI's frame, few enough that memory stays bounded.
    pub fn message_channel<M>() -> (MessageSender<M>, Receiver<M>) {
        std::sync::mpsc::sync_channel(8)
    }

    /// Runs `work` on a thread named `skelview-<thread>`.
    pub fn run_task(thread: &str, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        std::thread::Builder::new().name(format!("skelview-{thread}")).spawn(work).map(drop)
    }

    /// Lets the page draw a frame when the work has run for a while (nothing on the desktop:
    /// the work has a thread of its own).
    pub fn yield_now() {}

    /// How files are parsed: over rayon's pool.
    pub fn parallel() -> &'static dyn skelview_core::formats::Parallel {
        &skelview_core::formats::Rayon
    }

    /// Writes an export atomically to `path`.
    pub fn write_out(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> std::io::Result<()> {
        skelview_core::export::write_atomically(path, |out| write(out))
    }

    /// `$XDG_CONFIG_HOME/skelview` on Linux (the platform's config folder elsewhere).
    pub fn config_dir() -> Option<PathBuf> {
        // `directories` ignores an empty or relative XDG_CONFIG_HOME, as the XDG spec asks.
        directories::ProjectDirs::from("", "", "skelview").map(|d| d.config_dir().to_owned())
    }

    /// The settings text kept outside the folder (none on the desktop: read the folder).
    pub fn stored_settings() -> Option<String> {
        None
    }

    /// Writes the settings text `text` as `file` in `dir` (creating the folder), atomically.
    pub fn store_settings(dir: &Path, file: &str, text: &str) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        skelview_core::export::write_atomically(&dir.join(file), |out| out.write_all(text.as_bytes()))
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;

    /// Where a task's messages go.
    pub type MessageSender<M> = std::sync::mpsc::Sender<M>;

    /// The work and the UI share one thread, so a full channel would wait forever: unbounded.
    pub fn message_channel<M>() -> (MessageSender<M>, Receiver<M>) {
        std::sync::mpsc::channel()
    }

    /// Runs `work` between frames, after the page has shown what was asked before it (the
    /// task's label, its progress bar).
    pub fn run_task(_thread: &str, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        crate::browser::spawn_task(work);
        Ok(())
    }

    /// Lets the page draw a frame now and then (the work shares its thread).
    pub fn yield_now() {
        crate::browser::yield_now();
    }

    /// How files are parsed: on the page's one thread.
    pub fn parallel() -> &'static dyn skelview_core::formats::Parallel {
        &skelview_core::formats::Sequential
    }

    /// Writes an export into memory and offers it as a download named as `path`'s file name.
    pub fn write_out(path: &Path, write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> std::io::Result<()> {
        let mut bytes = Vec::new();
        write(&mut bytes)?;
        let name = path.file_name().map_or("skelview-export".into(), |n| n.to_string_lossy());
        crate::browser::download(&name, &bytes, "text/csv").map_err(std::io::Error::other)
    }

    /// The settings live in local storage, under [`WEB_KEY`]; this stands for it.
    pub fn config_dir() -> Option<PathBuf> {
        Some(PathBuf::from("the browser's local storage"))
    }

    /// The local-storage key of the settings (the same TOML text as on disk).
    pub const WEB_KEY: &str = "skelview.settings.toml";

    /// The settings text in local storage.
    pub fn stored_settings() -> Option<String> {
        crate::browser::stored(WEB_KEY)
    }

    /// Writes the settings text into local storage.
    pub fn store_settings(_dir: &Path, _file: &str, text: &str) -> std::io::Result<()> {
        crate::browser::store(WEB_KEY, text).map_err(std::io::Error::other)
    }
}
