//! Whole-clip results the panels show (the comparison over the overlap, channel curves):
//! each computed once per input on a named background thread at background priority, with
//! progress and cancel, never on the UI thread. A new input cancels the old computation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};

use super::Waker;

/// What a computation is told while it runs.
pub struct Progress {
    permille: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    waker: Waker,
}

impl Progress {
    /// Reports the fraction done (wakes the UI once per percent); returns false when the
    /// result is no longer wanted and the work should stop.
    pub fn report(&self, fraction: f64) -> bool {
        let permille = (fraction.clamp(0.0, 1.0) * 1000.0) as u32;
        if permille / 10 > self.permille.swap(permille, Ordering::Relaxed) / 10 {
            (self.waker)();
        }
        !self.cancel.load(Ordering::Relaxed)
    }

    /// True once the result is no longer wanted.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

enum State<T> {
    Idle,
    Running { permille: Arc<AtomicU32>, cancel: Arc<AtomicBool>, rx: Receiver<Option<T>> },
    Done(Arc<T>),
    Failed(String),
}

/// A result computed in the background for the input `K` last asked for.
pub struct Keyed<K, T> {
    name: &'static str,
    key: Option<K>,
    state: State<T>,
}

impl<K: PartialEq, T: Send + Sync + 'static> Keyed<K, T> {
    /// Nothing asked yet; threads are named `skelview-<name>`.
    pub fn new(name: &'static str) -> Self {
        Self { name, key: None, state: State::Idle }
    }

    /// Asks for the result for `key`: when it differs from the last key, the running
    /// computation is cancelled and `work` starts on a new thread (`work` returns `None`
    /// when it stopped because it was cancelled). Cheap when the key is the same.
    pub fn want(&mut self, key: K, waker: &Waker, work: impl FnOnce(&Progress) -> Option<T> + Send + 'static) {
        if self.key.as_ref() == Some(&key) {
            return;
        }
        self.cancel();
        self.key = Some(key);
        let (permille, cancel) = (Arc::new(AtomicU32::new(0)), Arc::new(AtomicBool::new(false)));
        let (tx, rx) = sync_channel(1);
        let progress = Progress { permille: permille.clone(), cancel: cancel.clone(), waker: waker.clone() };
        let started = std::thread::Builder::new().name(format!("skelview-{}", self.name)).spawn(move || {
            crate::cache::background_priority();
            let result = work(&progress);
            let _ = tx.send(result);
            (progress.waker)();
        });
        self.state = match started {
            Ok(_) => State::Running { permille, cancel, rx },
            Err(e) => State::Failed(format!("cannot start the {} thread: {e}", self.name)),
        };
    }

    /// Forgets the key and stops the running computation.
    pub fn clear(&mut self) {
        self.cancel();
        self.key = None;
        self.state = State::Idle;
    }

    fn cancel(&self) {
        if let State::Running { cancel, .. } = &self.state {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes a finished result (call once per frame).
    pub fn poll(&mut self) {
        if let State::Running { rx, .. } = &self.state {
            self.state = match rx.try_recv() {
                Ok(Some(result)) => State::Done(Arc::new(result)),
                Ok(None) => State::Failed("cancelled".into()),
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => State::Failed(format!("the {} thread stopped unexpectedly", self.name)),
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
            State::Running { permille, .. } => Some(permille.load(Ordering::Relaxed) as f32 / 1000.0),
            _ => None,
        }
    }

    /// Why there is no result, when the computation failed.
    pub fn error(&self) -> Option<&str> {
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
    use std::time::{Duration, Instant};

    fn wait<K: PartialEq, T: Send + Sync + 'static>(k: &mut Keyed<K, T>) {
        let start = Instant::now();
        while k.running().is_some() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
            k.poll();
        }
    }

    #[test]
    fn computes_once_per_key_and_a_new_key_cancels_the_old_work() {
        let waker: Waker = Arc::new(|| {});
        let mut k: Keyed<u32, u64> = Keyed::new("test");
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let saw_cancel = Arc::new(AtomicBool::new(false));
        let saw = saw_cancel.clone();
        k.want(1, &waker, move |p| {
            // Held until key 2 is asked for, then sees the cancel.
            gate_rx.recv().ok();
            saw.store(!p.report(0.5), Ordering::SeqCst);
            None
        });
        assert!(k.running().is_some() && k.result().is_none());
        k.want(2, &waker, |p| p.report(1.0).then_some(42));
        gate_tx.send(()).unwrap();
        wait(&mut k);
        assert_eq!(k.result().map(|r| **r), Some(42));
        // The first computation was told to stop.
        let start = Instant::now();
        while !saw_cancel.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(saw_cancel.load(Ordering::SeqCst));
        // Same key: nothing runs again.
        k.want(2, &waker, |_| panic!("must not run"));
        assert_eq!(k.result().map(|r| **r), Some(42));
        k.clear();
        assert!(k.result().is_none() && k.key().is_none());
    }
}
