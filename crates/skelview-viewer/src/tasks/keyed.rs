//! Whole-clip results the panels show (capture checks, the comparison over the overlap,
//! channel curves, measurements): each a [`Task`] for the input last asked for, at
//! background priority. A new input cancels the old computation; the same input is free.

use std::sync::Arc;

use super::{Priority, Shown, Task, TaskError, Tasks};

enum State<T> {
    Idle,
    Running(Task<T, String>),
    Done(Arc<T>),
    Failed(TaskError<String>),
}

/// A result computed in the background for the input `K` last asked for.
pub struct Keyed<K, T> {
    name: &'static str,
    label: &'static str,
    shown: Shown,
    key: Option<K>,
    state: State<T>,
}

impl<K: PartialEq, T: Send + Sync + 'static> Keyed<K, T> {
    /// Nothing asked yet; threads are named `skelview-<name>`.
    pub fn new(name: &'static str) -> Self {
        Self { name, label: name, shown: Shown::Upkeep, key: None, state: State::Idle }
    }

    /// Listed under `label` and shown as `shown` (an edit the user waits on and may stop),
    /// instead of as upkeep.
    pub fn shown_as(mut self, label: &'static str, shown: Shown) -> Self {
        (self.label, self.shown) = (label, shown);
        self
    }

    /// Asks for the result for `key`: when it differs from the last key, the running
    /// computation is cancelled and `work` starts on a new task (`work` returns `None`
    /// when it stopped because it was cancelled). Cheap when the key is the same.
    pub fn want(&mut self, key: K, tasks: &Tasks, work: impl FnOnce(&super::Progress) -> Option<T> + Send + 'static) {
        if self.key.as_ref() == Some(&key) {
            return;
        }
        self.key = Some(key);
        // Replacing a running task drops its handle, which cancels it.
        let started = tasks.spawn(self.name, self.label, Priority::Background, self.shown, move |p| work(p).ok_or(TaskError::Cancelled));
        self.state = match started {
            Ok(task) => State::Running(task),
            Err(e) => State::Failed(TaskError::Failed(format!("cannot start the {} thread: {e}", self.name))),
        };
    }

    /// Forgets the key and stops the running computation.
    pub fn clear(&mut self) {
        self.key = None;
        self.state = State::Idle;
    }

    /// Takes a finished result (call once per frame).
    pub fn poll(&mut self) {
        if let State::Running(task) = &mut self.state
            && let Some(outcome) = task.poll()
        {
            self.state = match outcome {
                Ok(result) => State::Done(Arc::new(result)),
                Err(e) => State::Failed(e),
            };
        }
    }

    /// The result for the last key, once done.
    pub fn result(&self) -> Option<&Arc<T>> {
        match &self.state {
            State::Done(r) => Some(r),
            _ => None,
        }
    }

    /// Fraction done while running.
    pub fn running(&self) -> Option<f32> {
        match &self.state {
            State::Running(task) => Some(task.fraction()),
            _ => None,
        }
    }

    /// Why there is no result, when the computation failed.
    pub fn error(&self) -> Option<&TaskError<String>> {
        match &self.state {
            State::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// The key last asked for.
    pub fn key(&self) -> Option<&K> {
        self.key.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_test_support::until_true;
    use std::sync::atomic::{AtomicBool, Ordering};

    fn wait<K: PartialEq, T: Send + Sync + 'static>(k: &mut Keyed<K, T>) {
        until_true("the computation's end", || {
            k.poll();
            k.running().is_none()
        });
    }

    #[test]
    fn computes_once_per_key_and_a_new_key_cancels_the_old_work() {
        let tasks = Tasks::new(Arc::new(|| {}));
        let mut k: Keyed<u32, u64> = Keyed::new("test");
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let saw_cancel = Arc::new(AtomicBool::new(false));
        let saw = saw_cancel.clone();
        k.want(1, &tasks, move |p| {
            // Held until key 2 is asked for, then sees the cancel.
            gate_rx.recv().ok();
            saw.store(!p.keep_going(0.5), Ordering::SeqCst);
            None
        });
        assert!(k.running().is_some() && k.result().is_none());
        k.want(2, &tasks, |p| p.keep_going(1.0).then_some(42));
        gate_tx.send(()).unwrap();
        wait(&mut k);
        assert_eq!(k.result().map(|r| **r), Some(42));
        // The first computation was told to stop.
        until_true("the cancel seen", || saw_cancel.load(Ordering::SeqCst));
        assert!(saw_cancel.load(Ordering::SeqCst));
        // Same key: nothing runs again.
        k.want(2, &tasks, |_| panic!("must not run"));
        assert_eq!(k.result().map(|r| **r), Some(42));
        k.clear();
        assert!(k.result().is_none() && k.key().is_none());
    }
}
