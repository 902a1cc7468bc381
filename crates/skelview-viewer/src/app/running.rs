//! Every task the viewer runs, seen one way whatever it does (loads, exports, dialogs, name
//! maps, settings writes, capture checks, whole-clip curves): each started through the one
//! registry ([`crate::tasks::Tasks`]), which lists them for the status bar (knowing no kinds)
//! and cancels by id; one poll a frame hands each owner what its tasks finished.

use std::sync::Arc;

use super::{AppError, Effect, ExportFailure, Finished, Viewer};
use crate::tasks::{RunningTask, TaskError, TaskId};

impl Viewer {
    /// Takes what every task finished since the last frame; `update` calls it once a frame.
    pub(super) fn poll_tasks(&mut self) {
        for finished in self.jobs.poll() {
            match finished {
                Finished::Export(Ok(message)) => self.messages.notice = Some(message),
                Finished::Export(Err(TaskError::Cancelled)) => self.messages.notice = Some("export cancelled".into()),
                Finished::Export(Err(e)) => self.messages.fail(ExportFailure::Failed(e).into()),
                Finished::NameMap(Ok((path, map))) => self.session.set_name_map(Some((path, map.into()))),
                Finished::NameMap(Err(e)) => self.messages.fail(AppError::NameMap(Arc::new(e))),
                Finished::Recipe(Ok(recipe)) => {
                    if let Some(id) = self.session.active_clip().map(|c| c.id()) {
                        self.apply_edit(id, super::EditCommand::Replace(recipe));
                    }
                }
                Finished::Recipe(Err(e)) => self.messages.fail(AppError::Recipe(Arc::new(e))),
                Finished::BoneMap(Ok((id, map))) => {
                    if let Some(c) = self.session.scene.clips.iter_mut().find(|c| c.id() == id) {
                        self.messages.notice = Some(format!("bone map: {} bones on {}", map.entries.len(), c.name));
                        c.humanoid = map;
                    }
                }
                Finished::BoneMap(Err(e)) => self.messages.fail(AppError::BoneMap(Arc::new(e))),
                Finished::Dialog(answer) => self.commands.extend(answer),
                Finished::Picture(Ok(picture)) => {
                    self.messages.notice = Some(format!("screenshot copied ({}x{})", picture.0.0, picture.0.1));
                    self.frame.effects.push(Effect::Clipboard(picture));
                }
                Finished::Picture(Err(e)) => self.messages.fail(ExportFailure::Screenshot(e).into()),
            }
        }
        if let Some(e) = self.store.poll() {
            self.messages.fail(AppError::Settings(Arc::new(e)));
        }
        self.poll_loads();
        self.checks.poll();
        self.edit_runs.poll();
        self.poll_retargets();
        self.whole.overlap.poll();
        self.whole.curves.poll();
        self.whole.measures.poll();
    }

    /// The tasks running, in the order they started (the registry's list: the status bar
    /// shows the foreground ones).
    pub fn running_tasks(&self) -> Vec<RunningTask> {
        self.tasks.running()
    }

    /// Stops task `id`, whichever kind it is (nothing when it has ended, or is upkeep).
    pub(super) fn cancel_task(&mut self, id: TaskId) {
        self.tasks.cancel(id);
    }
}
