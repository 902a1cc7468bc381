//! Tasks whose owner said, when it started them, what to do with their ends. The owner keeps
//! one [`Pending`] for all of them and takes what finished once a frame
//! ([`Pending::take_finished`]), each end with the code that handles it: a new kind of task
//! adds neither a field nor a poll line, only the closure beside the code that starts it.

use super::{Priority, Progress, Shown, Task, TaskError, TaskId, Tasks};

/// What an owner `O` does with a task's end, once it has one.
pub type Then<O> = Box<dyn FnOnce(&mut O)>;

struct Entry<O> {
    /// What kind of work (`export`, `dialog`…): one of a kind may be running at a time.
    kind: &'static str,
    id: Option<TaskId>,
    /// Polls the task; once it has ended, its end with the owner's handler.
    take: Box<dyn FnMut() -> Option<Then<O>>>,
}

/// The running tasks of an owner `O`, each with what to do with its end.
pub struct Pending<O> {
    entries: Vec<Entry<O>>,
}

impl<O> Default for Pending<O> {
    fn default() -> Self {
        Self { entries: Vec::new() }
    }
}

impl<O: 'static> Pending<O> {
    /// Starts `work` through the registry (listed under `label`, as `shown`) and keeps
    /// `then`, which the owner runs with the task's end (its messages are dropped).
    #[allow(clippy::too_many_arguments)]
    pub fn start<T: Send + 'static, E: Send + 'static, M: Send + 'static>(
        &mut self,
        tasks: &Tasks,
        kind: &'static str,
        label: impl Into<String>,
        priority: Priority,
        shown: Shown,
        work: impl FnOnce(&Progress<M>) -> Result<T, TaskError<E>> + Send + 'static,
        then: impl FnOnce(&mut O, Result<T, TaskError<E>>) + 'static,
    ) -> std::io::Result<TaskId> {
        let task: Task<T, E, M> = tasks.spawn(kind, label, priority, shown, work)?;
        let id = task.id();
        Ok(self.keep(kind, Some(id), task, then).unwrap_or(id))
    }

    fn keep<T: 'static, E: 'static, M: 'static>(
        &mut self,
        kind: &'static str,
        id: Option<TaskId>,
        mut task: Task<T, E, M>,
        then: impl FnOnce(&mut O, Result<T, TaskError<E>>) + 'static,
    ) -> Option<TaskId> {
        let mut then = Some(then);
        let take = move || -> Option<Then<O>> {
            let outcome = task.poll()?;
            let then = then.take()?;
            Some(Box::new(move |owner: &mut O| then(owner, outcome)))
        };
        self.entries.push(Entry { kind, id, take: Box::new(take) });
        id
    }

    /// An end known at once (a browser's dialog, answered within the click): handed over
    /// with the next [`Pending::take_finished`], in order with the others.
    pub fn done(&mut self, kind: &'static str, then: impl FnOnce(&mut O) + 'static) {
        let mut then: Option<Then<O>> = Some(Box::new(then));
        self.entries.push(Entry { kind, id: None, take: Box::new(move || then.take()) });
    }

    /// Drops the tasks of `kind` (dropping a task cancels it; its end is never handled): a
    /// newer one of the kind replaces them.
    pub fn forget(&mut self, kind: &str) {
        self.entries.retain(|e| e.kind != kind);
    }

    /// True while a task of `kind` runs (or its end waits to be taken).
    pub fn running(&self, kind: &str) -> bool {
        self.entries.iter().any(|e| e.kind == kind)
    }

    /// The id of the running task of `kind`, if any (a Cancel names it).
    pub fn id_of(&self, kind: &str) -> Option<TaskId> {
        self.entries.iter().find(|e| e.kind == kind).and_then(|e| e.id)
    }

    /// True while any task runs.
    pub fn busy(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The ends of the tasks that finished since the last call (those of one call in the
    /// order the tasks started), each with its owner's handler; the owner runs them on itself.
    pub fn take_finished(&mut self) -> Vec<Then<O>> {
        let mut ends = Vec::new();
        self.entries.retain_mut(|e| match (e.take)() {
            Some(then) => {
                ends.push(then);
                false
            }
            None => true,
        });
        ends
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_test_support::until_true;
    use std::sync::Arc;

    #[test]
    fn each_end_goes_to_the_handler_its_owner_gave_in_order() {
        let tasks = Tasks::new(Arc::new(|| {}));
        let mut pending: Pending<Vec<String>> = Pending::default();
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let slow = move |_: &Progress| {
            gate_rx.recv().ok();
            Ok::<_, TaskError<String>>(2)
        };
        pending.start(&tasks, "slow", "Slow", Priority::Normal, Shown::Waited, slow, |log, r| log.push(format!("slow {r:?}"))).unwrap();
        let fail = |_: &Progress| Err::<u8, _>(TaskError::Failed("no".to_owned()));
        pending.start(&tasks, "fail", "Fail", Priority::Normal, Shown::Upkeep, fail, |log, r| log.push(format!("fail {r:?}"))).unwrap();
        pending.done("dialog", |log| log.push("answered".into()));
        assert!(pending.running("slow") && pending.running("dialog") && pending.id_of("slow").is_some());
        let mut log = Vec::new();
        until_true("the failing task's end", || {
            for then in pending.take_finished() {
                then(&mut log);
            }
            log.len() == 2
        });
        log.sort();
        assert_eq!(log, ["answered", "fail Err(Failed(\"no\"))"], "the slow one is still running");
        assert!(pending.running("slow") && !pending.running("fail") && pending.busy());
        gate_tx.send(()).unwrap();
        until_true("the slow task's end", || {
            for then in pending.take_finished() {
                then(&mut log);
            }
            log.len() == 3
        });
        assert_eq!(log[2], "slow Ok(2)");
        assert!(!pending.busy());
        // A newer read of a kind replaces an older one still running: only its end is handled.
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let old = move |p: &Progress| {
            gate_rx.recv().ok();
            if p.cancelled() { Err(TaskError::Cancelled) } else { Ok::<_, TaskError<String>>(1) }
        };
        pending.start(&tasks, "read", "Old", Priority::Normal, Shown::Upkeep, old, |log, _| log.push("old".into())).unwrap();
        pending.forget("read");
        gate_tx.send(()).ok();
        let new = |_: &Progress| Ok::<_, TaskError<String>>(2);
        pending.start(&tasks, "read", "New", Priority::Normal, Shown::Upkeep, new, |log, _| log.push("new".into())).unwrap();
        until_true("the new read's end", || {
            for then in pending.take_finished() {
                then(&mut log);
            }
            !pending.busy()
        });
        assert_eq!(log.last().map(String::as_str), Some("new"));
        assert!(!log.iter().any(|l| l == "old"));
    }
}
