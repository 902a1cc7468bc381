//! Every task the viewer runs, seen one way whatever it does (loads, exports, dialogs, name
//! maps, settings writes, capture checks, whole-clip curves): one poll a frame that takes what
//! each finished, one list of what runs for the status bar (which knows no kinds), and one
//! cancel by task id.

use std::sync::Arc;

use super::{AppError, Effect, ExportFailure, Finished, Viewer};
use crate::tasks::{TaskError, TaskId};

/// A task as the status bar lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunningTask {
    /// Its id ([`super::Command::CancelTask`] stops it).
    pub id: TaskId,
    /// What it does (`Loading walk.bvh`, `Exporting video`).
    pub label: String,
    /// Fraction done, 0 until its total is known.
    pub fraction: f32,
    /// The user may stop it.
    pub cancellable: bool,
    /// The user waits on it (a load that replaces what is shown, an export); background work
    /// (an added clip's load) is listed but not shown in the status bar.
    pub foreground: bool,
}

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
        self.whole.overlap.poll();
        self.whole.curves.poll();
        self.whole.measures.poll();
    }

    /// The tasks the user may see or stop, in the order the status bar shows them.
    pub fn running_tasks(&self) -> Vec<RunningTask> {
        let mut out = Vec::new();
        if let Some(job) = &self.jobs.export {
            let (id, label, fraction) = (job.id(), job.label().to_owned(), job.fraction());
            out.push(RunningTask { id, label, fraction, cancellable: true, foreground: true });
        }
        for l in &self.session.loads {
            let (id, fraction) = (l.task.id(), l.task.fraction());
            out.push(RunningTask { id, label: format!("Loading {}", l.name), fraction, cancellable: true, foreground: l.replace });
        }
        out
    }

    /// Stops task `id`, whichever kind it is (nothing when it has already finished).
    pub(super) fn cancel_task(&mut self, id: TaskId) {
        for l in self.session.loads.iter().filter(|l| l.task.id() == id) {
            l.task.cancel();
        }
        self.jobs.cancel(id);
    }
}
