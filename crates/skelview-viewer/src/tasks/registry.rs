//! The one place tasks start: every task is registered by id as it starts, so that a status
//! bar lists what runs and a Cancel stops it without knowing what kind of work it is. The
//! owner keeps the typed handle (its result is the owner's business); the registry keeps
//! the task's id, label, progress and cancel until the owner has taken its end or dropped it.

use std::sync::{Arc, Mutex, PoisonError, Weak};

use super::task::{Control, Task, TaskError};
use super::{Priority, Progress, TaskId, Waker};

/// How a task is listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// The user waits on it and may stop it (an export, a load that replaces what is shown).
    Waited,
    /// Background work the user may stop (a load that adds a clip).
    Stoppable,
    /// Upkeep the user does not stop (capture checks, curves, settings writes, dialogs).
    Upkeep,
}

/// A task as a status bar lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunningTask {
    /// Its id (a Cancel names it).
    pub id: TaskId,
    /// What it does (`Loading walk.bvh`, `Exporting video`).
    pub label: String,
    /// Fraction done, 0 until its total is known.
    pub fraction: f32,
    /// The user may stop it.
    pub cancellable: bool,
    /// The user waits on it (a load that replaces what is shown, an export); background work
    /// (an added clip's load, the checks) is listed but not shown in the status bar.
    pub foreground: bool,
    /// It was asked to stop and has not ended yet.
    pub stopping: bool,
}

struct Entry {
    id: TaskId,
    label: String,
    shown: Shown,
    control: Weak<Control>,
}

/// Starts tasks and lists them: cloned into whatever starts work (the loads, the jobs, the
/// settings store, the whole-clip results), one list for all.
#[derive(Clone)]
pub struct Tasks {
    waker: Waker,
    entries: Arc<Mutex<Vec<Entry>>>,
}

impl Tasks {
    /// A registry whose tasks wake the UI with `waker`.
    pub fn new(waker: Waker) -> Self {
        Self { waker, entries: Arc::default() }
    }

    /// What wakes the UI.
    pub fn waker(&self) -> &Waker {
        &self.waker
    }

    /// Runs `work` as a [`Task`] on a thread named `skelview-<thread>` and registers it under
    /// `label`, listed as `shown`.
    pub fn spawn<T: Send + 'static, E: Send + 'static, M: Send + 'static>(
        &self,
        thread: &'static str,
        label: impl Into<String>,
        priority: Priority,
        shown: Shown,
        work: impl FnOnce(&Progress<M>) -> Result<T, TaskError<E>> + Send + 'static,
    ) -> std::io::Result<Task<T, E, M>> {
        let task = Task::spawn(thread, label, priority, self.waker.clone(), work)?;
        let entry = Entry { id: task.id(), label: task.label().to_owned(), shown, control: Arc::downgrade(task.control()) };
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.retain(|e| e.control.upgrade().is_some_and(|c| !c.released()));
        entries.push(entry);
        Ok(task)
    }

    /// The tasks whose owners have not yet taken their end, in the order they started.
    pub fn running(&self) -> Vec<RunningTask> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries
            .iter()
            .filter_map(|e| {
                let control = e.control.upgrade().filter(|c| !c.released())?;
                Some(RunningTask {
                    id: e.id,
                    label: e.label.clone(),
                    fraction: control.fraction(),
                    cancellable: e.shown != Shown::Upkeep,
                    foreground: e.shown == Shown::Waited,
                    stopping: control.cancelled(),
                })
            })
            .collect()
    }

    /// Asks task `id` to stop (nothing when it has ended, or is upkeep the user does not stop).
    pub fn cancel(&self, id: TaskId) {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        for e in entries.iter().filter(|e| e.id == id && e.shown != Shown::Upkeep) {
            if let Some(control) = e.control.upgrade() {
                control.cancel();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_test_support::until_true;
    use std::time::Duration;

    #[test]
    fn tasks_are_listed_until_their_end_is_taken_and_cancelled_by_id() {
        let tasks = Tasks::new(Arc::new(|| {}));
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let mut waited: Task<u8, String> = tasks
            .spawn("test", "Exporting", Priority::Normal, Shown::Waited, move |p| {
                let _ = p.report(1, 4);
                gate_rx.recv().ok();
                Ok(1)
            })
            .unwrap();
        let spin = |p: &Progress| {
            while !p.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(TaskError::Cancelled)
        };
        let mut upkeep: Task<u8, String> = tasks.spawn("test", "Checking", Priority::Background, Shown::Upkeep, spin).unwrap();
        let mut stoppable: Task<u8, String> = tasks.spawn("test", "Adding", Priority::Background, Shown::Stoppable, spin).unwrap();
        let listed = tasks.running();
        let flags: Vec<_> = listed.iter().map(|t| (t.label.as_str(), t.cancellable, t.foreground)).collect();
        assert_eq!(flags, [("Exporting", true, true), ("Checking", false, false), ("Adding", true, false)]);
        // Upkeep is not stopped by a Cancel; the others are.
        tasks.cancel(listed[1].id);
        tasks.cancel(listed[2].id);
        assert!(!upkeep.cancelled() && stoppable.cancelled());
        until_true("the stopped task's end", || stoppable.poll().is_some());
        assert_eq!(tasks.running().len(), 2, "a task whose end was taken leaves the list");
        gate_tx.send(()).unwrap();
        while !matches!(waited.wait_event(), Some(crate::tasks::TaskEvent::Done(_))) {}
        assert_eq!(tasks.running().len(), 1);
        let _ = upkeep.next_event();
        drop(upkeep);
        assert!(tasks.running().is_empty(), "a dropped handle leaves the list too");
    }
}
