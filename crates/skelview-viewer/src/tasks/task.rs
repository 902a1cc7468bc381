//! The one way the viewer runs work off the UI thread: a [`Task`] is a named thread with
//! progress, cancel, messages on the way (a loader's first frames, each file it finished)
//! and a typed result, and it wakes the UI whenever there is something new to show.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};

use crate::platform::{self, MessageSender, message_channel};

use thiserror::Error;

/// Wakes a UI thread from another thread (a repaint request).
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// A task's stable id, unique in the process: a Cancel button names the task it stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TaskId(pub u64);

impl TaskId {
    fn next() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Self(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Why a task has no result.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum TaskError<E> {
    /// The work failed.
    #[error("{0}")]
    Failed(E),
    /// It was cancelled before it finished.
    #[error("cancelled")]
    Cancelled,
    /// Its thread ended without an answer (it panicked).
    #[error("the {0} thread stopped unexpectedly")]
    Stopped(&'static str),
}

impl<E> From<E> for TaskError<E> {
    fn from(e: E) -> Self {
        Self::Failed(e)
    }
}

/// How a task's thread is scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// As the UI (an export the user waits for, a dialog).
    Normal,
    /// Below the UI ([`super::background_priority`]): loads, checks, curves.
    Background,
}

/// Progress, cancel and done/total counts shared by a task, its handle and the registry.
#[derive(Default)]
pub(crate) struct Control {
    done: AtomicU64,
    total: AtomicU64,
    cancel: AtomicBool,
    /// The handle took the task's end, or was dropped: nobody waits on it any more.
    released: AtomicBool,
    /// The work has returned and its result waits for the handle.
    ended: AtomicBool,
}

impl Control {
    pub(crate) fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub(crate) fn released(&self) -> bool {
        self.released.load(Ordering::Relaxed)
    }

    /// Items done and in all, as last reported (`total` 0: not known yet).
    pub(crate) fn progress(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// Fraction done, 0 until a total is known.
    pub(crate) fn fraction(&self) -> f32 {
        match self.progress() {
            (_, 0) => 0.0,
            (done, total) => (done.min(total) as f64 / total as f64) as f32,
        }
    }
}

/// What a task's work is given: where to report progress, send messages and learn that it
/// should stop.
pub struct Progress<M = ()> {
    shared: Arc<Control>,
    messages: MessageSender<M>,
    waker: Waker,
}

impl<M> Progress<M> {
    /// Reports `done` of `total` items (bytes, frames); wakes the UI when the shown percentage
    /// changes. `Break` when the task was cancelled and the work should stop.
    pub fn report(&self, done: u64, total: u64) -> ControlFlow<()> {
        let percent = |d: u64, t: u64| if t == 0 { 0 } else { d.min(t) as u128 * 100 / t as u128 };
        let before = percent(self.shared.done.swap(done, Ordering::Relaxed), self.shared.total.swap(total, Ordering::Relaxed));
        if percent(done, total) != before {
            (self.waker)();
        }
        // In a browser tab: let it draw a frame now and then (the work shares its thread).
        platform::yield_now();
        if self.cancelled() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    /// Reports a fraction done (0..1); false when the work should stop.
    pub fn keep_going(&self, fraction: f64) -> bool {
        self.report((fraction.clamp(0.0, 1.0) * 1000.0) as u64, 1000).is_continue()
    }

    /// True once the task was cancelled (or its handle dropped).
    pub fn cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// Sends a message to the handle, in order, and wakes the UI. Waits while the handle has
    /// not taken the earlier ones (a slow UI slows the work, it never loses a message); when
    /// the handle is gone the task counts as cancelled.
    pub fn send(&self, message: M) -> ControlFlow<()> {
        if self.messages.send(message).is_err() {
            self.shared.cancel.store(true, Ordering::Relaxed);
        }
        (self.waker)();
        platform::yield_now();
        if self.cancelled() { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// What a task's handle takes from it, in the order the work produced it.
#[derive(Debug)]
pub enum TaskEvent<T, E, M> {
    /// A message sent on the way.
    Message(M),
    /// The end: the result, or why there is none. Nothing follows.
    Done(Result<T, TaskError<E>>),
}

/// A running task: its messages and result, its progress, and a way to cancel it. Dropping
/// the handle cancels the work.
pub struct Task<T, E, M = ()> {
    id: TaskId,
    thread: &'static str,
    label: String,
    shared: Arc<Control>,
    messages: Receiver<M>,
    result: Receiver<Result<T, TaskError<E>>>,
    outcome: Option<Result<T, TaskError<E>>>,
    finished: bool,
}

impl<T: Send + 'static, E: Send + 'static, M: Send + 'static> Task<T, E, M> {
    /// Runs `work` on a thread named `skelview-<thread>`; `label` says what it does (for a
    /// status bar). The UI is woken when the work reports progress, sends a message or ends.
    /// An `Err` returned after a cancel counts as [`TaskError::Cancelled`].
    pub fn spawn(
        thread: &'static str,
        label: impl Into<String>,
        priority: Priority,
        waker: Waker,
        work: impl FnOnce(&Progress<M>) -> Result<T, TaskError<E>> + Send + 'static,
    ) -> std::io::Result<Self> {
        let shared = Arc::new(Control::default());
        let (message_tx, messages) = message_channel();
        let (result_tx, result) = std::sync::mpsc::sync_channel(1);
        let progress = Progress { shared: shared.clone(), messages: message_tx, waker };
        let run = move || {
            if priority == Priority::Background {
                super::background_priority();
            }
            let outcome = match work(&progress) {
                Err(TaskError::Failed(_)) if progress.cancelled() => Err(TaskError::Cancelled),
                outcome => outcome,
            };
            let _ = result_tx.send(outcome);
            progress.shared.ended.store(true, Ordering::Release);
            (progress.waker)();
        };
        platform::run_task(thread, run)?;
        Ok(Self { id: TaskId::next(), thread, label: label.into(), shared, messages, result, outcome: None, finished: false })
    }
}

impl<T, E, M> Task<T, E, M> {
    /// Its id.
    pub fn id(&self) -> TaskId {
        self.id
    }

    /// What it does.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Asks the work to stop; it ends with [`TaskError::Cancelled`] unless it had finished.
    pub fn cancel(&self) {
        self.shared.cancel();
    }

    /// What the registry keeps of it.
    pub(crate) fn control(&self) -> &Arc<Control> {
        &self.shared
    }

    fn finish(&mut self) {
        self.finished = true;
        self.shared.released.store(true, Ordering::Relaxed);
    }

    /// True once cancelled.
    pub fn cancelled(&self) -> bool {
        self.shared.cancel.load(Ordering::Relaxed)
    }

    /// Items done and in all, as last reported (`total` 0: not known yet).
    pub fn progress(&self) -> (u64, u64) {
        self.shared.progress()
    }

    /// Fraction done, 0 until a total is known.
    pub fn fraction(&self) -> f32 {
        self.shared.fraction()
    }

    /// True once the work has returned: its result waits to be taken (a test waits for this
    /// state, not for a while, before it looks at several tasks' results in one frame).
    pub fn ended(&self) -> bool {
        self.shared.ended.load(Ordering::Acquire)
    }

    /// True once its last event ([`TaskEvent::Done`]) was taken.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The next event without blocking: the messages in order, then the result once.
    pub fn next_event(&mut self) -> Option<TaskEvent<T, E, M>> {
        if self.finished {
            return None;
        }
        if self.outcome.is_none() {
            self.outcome = match self.result.try_recv() {
                Ok(outcome) => Some(outcome),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Err(TaskError::Stopped(self.thread))),
            };
        }
        // Every message was sent before the result: once the result is in, they all are.
        if let Ok(m) = self.messages.try_recv() {
            return Some(TaskEvent::Message(m));
        }
        let outcome = self.outcome.take()?;
        self.finish();
        Some(TaskEvent::Done(outcome))
    }

    /// The next event, waiting for it; `None` after the last (for tests and command-line
    /// use: a UI calls [`Task::next_event`] once a frame instead).
    pub fn wait_event(&mut self) -> Option<TaskEvent<T, E, M>> {
        loop {
            if let Some(event) = self.next_event() {
                return Some(event);
            }
            if self.finished {
                return None;
            }
            if let Ok(m) = self.messages.recv_timeout(std::time::Duration::from_millis(5)) {
                return Some(TaskEvent::Message(m));
            }
        }
    }

    /// Takes the result when the task has ended (messages are dropped): for tasks that send
    /// none.
    pub fn poll(&mut self) -> Option<Result<T, TaskError<E>>> {
        while let Some(event) = self.next_event() {
            if let TaskEvent::Done(outcome) = event {
                return Some(outcome);
            }
        }
        None
    }

    /// Blocks until the task ends and returns its result (messages are dropped); `None`
    /// when it was already taken.
    pub fn wait(mut self) -> Option<Result<T, TaskError<E>>> {
        if self.finished {
            return None;
        }
        let outcome = self.outcome.take().unwrap_or_else(|| {
            // Messages would block a worker that waits for room: take them while waiting.
            loop {
                while self.messages.try_recv().is_ok() {}
                match self.result.recv_timeout(std::time::Duration::from_millis(5)) {
                    Ok(outcome) => break outcome,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break Err(TaskError::Stopped(self.thread)),
                }
            }
        });
        self.finish();
        Some(outcome)
    }
}

impl<T, E, M> Drop for Task<T, E, M> {
    fn drop(&mut self) {
        // Nobody will read the result: stop the work.
        if !self.finished {
            self.cancel();
        }
        self.shared.released.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_test_support::until_true;
    use std::time::Duration;

    fn quiet() -> Waker {
        Arc::new(|| {})
    }

    fn until_done<T, E, M>(task: &mut Task<T, E, M>) -> (Vec<M>, Result<T, TaskError<E>>) {
        let (mut messages, mut outcome) = (Vec::new(), None);
        until_true("the task's end", || {
            match task.next_event() {
                Some(TaskEvent::Message(m)) => messages.push(m),
                Some(TaskEvent::Done(o)) => outcome = Some(o),
                None => {}
            }
            outcome.is_some()
        });
        (messages, outcome.expect("the end was taken"))
    }

    #[test]
    fn messages_arrive_in_order_before_the_result_and_progress_is_shared() {
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let mut task: Task<u32, String, u32> = Task::spawn("test", "counting", Priority::Background, quiet(), move |p| {
            let _ = p.report(3, 4);
            gate_rx.recv().ok();
            for k in 0..20 {
                let _ = p.send(k);
            }
            Ok(99)
        })
        .unwrap();
        until_true("progress 3 of 4", || task.progress() == (3, 4));
        assert_eq!(task.fraction(), 0.75);
        assert_eq!(task.label(), "counting");
        gate_tx.send(()).unwrap();
        let (messages, outcome) = until_done(&mut task);
        assert_eq!(messages, (0..20).collect::<Vec<_>>(), "more messages than the channel holds, none lost");
        assert_eq!(outcome, Ok(99));
        assert!(task.finished() && task.next_event().is_none(), "the result comes once");
    }

    #[test]
    fn a_cancelled_task_ends_cancelled_and_a_panic_ends_stopped() {
        let mut task: Task<(), String> = Task::spawn("test", "spin", Priority::Normal, quiet(), |p| {
            while p.report(1, 2).is_continue() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err("stopped half way".to_owned().into())
        })
        .unwrap();
        task.cancel();
        assert_eq!(until_done(&mut task).1, Err(TaskError::Cancelled), "an error after a cancel is a cancel");
        let mut task: Task<(), String> = Task::spawn("test", "boom", Priority::Normal, quiet(), |_| panic!("boom")).unwrap();
        assert!(matches!(until_done(&mut task).1, Err(TaskError::Stopped(_))));
        let mut task: Task<(), String> = Task::spawn("test", "fail", Priority::Normal, quiet(), |_| Err("no".to_owned().into())).unwrap();
        assert_eq!(until_done(&mut task).1, Err(TaskError::Failed("no".to_owned())));
    }

    #[test]
    fn dropping_the_handle_cancels_and_wait_blocks_for_the_result() {
        let saw_cancel = Arc::new(AtomicBool::new(false));
        let saw = saw_cancel.clone();
        let task: Task<(), String> = Task::spawn("test", "long", Priority::Normal, quiet(), move |p| {
            until_true("the cancel", || p.cancelled());
            saw.store(p.cancelled(), Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
        drop(task);
        until_true("the cancel seen", || saw_cancel.load(Ordering::SeqCst));
        assert!(saw_cancel.load(Ordering::SeqCst));
        let task: Task<u8, String, u8> = Task::spawn("test", "wait", Priority::Normal, quiet(), |p| {
            for k in 0..50 {
                let _ = p.send(k);
            }
            Ok(7)
        })
        .unwrap();
        assert_eq!(task.wait(), Some(Ok(7)), "waiting takes the messages that would block the worker");
    }
}
