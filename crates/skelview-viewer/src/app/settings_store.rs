//! Saving settings off the UI thread: one write at a time, the newest pending save next.

use std::path::{Path, PathBuf};

use crate::tasks::{Priority, Shown, Task, TaskError, Tasks};

use super::settings::Settings;

/// Why the settings could not be saved.
#[derive(Debug, thiserror::Error)]
#[error("cannot save settings in {}: {source}", dir.display())]
pub struct SettingsError {
    /// The settings folder.
    pub dir: PathBuf,
    /// The system's reason.
    pub source: std::io::Error,
}

/// Writes settings as tasks on threads named `skelview-settings`, so that the UI thread never
/// touches the disk: one write at a time, and of several saves asked for meanwhile only the
/// newest is written next. Failures come back through [`SettingsStore::poll`].
pub struct SettingsStore {
    dir: Option<PathBuf>,
    tasks: Tasks,
    writing: Option<Task<(), SettingsError>>,
    pending: Option<Settings>,
}

impl SettingsStore {
    /// A store writing into `dir` (`None`: settings are not saved, as in tests).
    pub fn new(dir: Option<PathBuf>, tasks: Tasks) -> Self {
        Self { dir, tasks, writing: None, pending: None }
    }

    /// The folder settings are written to.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Saves `settings` in the background (after the write under way, if any).
    pub fn save(&mut self, settings: &Settings) {
        if self.dir.is_some() {
            self.pending = Some(settings.clone());
            self.start_next();
        }
    }

    fn start_next(&mut self) {
        let (Some(dir), None) = (self.dir.clone(), &self.writing) else { return };
        let Some(settings) = self.pending.take() else { return };
        let copy = settings.clone();
        let task = self.tasks.spawn("settings", "Saving settings", Priority::Normal, Shown::Upkeep, move |_| {
            settings.save(&dir).map_err(|source| SettingsError { dir: dir.clone(), source }.into())
        });
        match task {
            Ok(task) => self.writing = Some(task),
            // No thread now: kept, and tried again on the next frame.
            Err(_) => self.pending = Some(copy),
        }
    }

    /// A write that failed since the last call, if any; starts the next pending write.
    pub fn poll(&mut self) -> Option<TaskError<SettingsError>> {
        let outcome = self.writing.as_mut().and_then(Task::poll);
        if outcome.is_some() {
            self.writing = None;
        }
        self.start_next();
        outcome.and_then(Result::err)
    }

    /// Saves `settings` and waits until they are written (on exit).
    pub fn finish(&mut self, settings: &Settings) {
        if let Some(task) = self.writing.take() {
            let _ = task.wait();
        }
        if let Some(dir) = &self.dir {
            let _ = settings.save(dir);
        }
        self.pending = None;
    }
}
