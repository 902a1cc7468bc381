//! Every task the viewer runs, seen one way whatever it does (loads, exports, dialogs, name
//! maps, settings writes, capture checks, whole-clip curves): each started through the one
//! registry ([`crate::tasks::Tasks`]), which lists them for the status bar (knowing no kinds)
//! and cancels by id; one poll a frame hands each owner what its tasks finished, to the
//! handler given when the task started.

use std::sync::Arc;

use super::{AppError, Viewer};
use crate::tasks::{RunningTask, TaskId};

impl Viewer {
    /// Takes what every task finished since the last frame; `update` calls it once a frame.
    /// The jobs' ends go to the handlers given when they started; the loads and the
    /// whole-clip results (checks, edits, curves) keep their results as state the panels read.
    pub(super) fn poll_tasks(&mut self) {
        for then in self.jobs.take_finished() {
            then(self);
        }
        if let Some(e) = self.store.poll() {
            self.messages.fail(AppError::Settings(Arc::new(e)));
        }
        self.poll_loads();
        self.checks.poll();
        self.edit_runs.poll();
        self.whole.poll();
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
