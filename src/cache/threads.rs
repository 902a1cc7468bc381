//! [`Parallel`] runners: rayon's global pool (what skelview uses), and a runner on scoped
//! threads of our own, kept so that the parse benchmark can compare the two.

use std::sync::Mutex;

use crate::formats::Parallel;

/// Lowers the calling thread's scheduling priority (nice +10, Linux): background work
/// (loading, checks) then yields the cores to the UI thread and the graphics driver's
/// threads whenever both want them, and takes them all when the UI is idle. Elsewhere, and
/// when the OS refuses, nothing changes.
pub fn background_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments. On Linux, `who = 0` with PRIO_PROCESS
    // names the calling thread, not the whole process.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Sets up rayon's global pool for the viewer: named workers at [`background_priority`].
/// Does nothing when the pool already exists.
pub fn background_pool() {
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|k| format!("skelview-worker-{}", k + 1))
        .start_handler(|_| background_priority())
        .build_global();
}

/// Runs jobs on rayon's global pool (one thread per core), the calling thread helping.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rayon;

impl Parallel for Rayon {
    fn width(&self) -> usize {
        rayon::current_num_threads()
    }

    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        rayon::scope(|s| {
            for job in jobs {
                s.spawn(move |_| job());
            }
        });
    }
}

/// Runs jobs on up to `width` threads (the calling thread included).
#[derive(Clone, Copy, Debug)]
pub struct ScopedThreads {
    width: usize,
}

impl ScopedThreads {
    /// One thread per available core.
    pub fn per_core() -> Self {
        Self { width: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }

    /// A fixed number of threads (at least one).
    pub fn new(width: usize) -> Self {
        Self { width: width.max(1) }
    }
}

impl Parallel for ScopedThreads {
    fn width(&self) -> usize {
        self.width
    }

    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        // Workers pull jobs from a shared queue; the calling thread pulls too, so every job
        // runs even if no extra thread can be started.
        let helpers = self.width.min(jobs.len()).saturating_sub(1);
        let queue = Mutex::new(jobs.into_iter());
        let work = || {
            loop {
                let job = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                match job {
                    Some(job) => job(),
                    None => break,
                }
            }
        };
        std::thread::scope(|s| {
            for k in 0..helpers {
                // A failed spawn only means less parallelism.
                let _ = std::thread::Builder::new().name(format!("skelview-parse-{}", k + 1)).spawn_scoped(s, work);
            }
            work();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[cfg(target_os = "linux")]
    #[test]
    fn background_threads_run_at_a_lower_priority() {
        let (before, after) = std::thread::spawn(|| {
            // SAFETY: getpriority only reads its arguments (0: this thread).
            let get = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            let before = get();
            background_priority();
            (before, get())
        })
        .join()
        .unwrap();
        assert!(after > before || before >= 10, "nice {before} -> {after}");
        // SAFETY: as above.
        assert!(unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) } < 10 || before >= 10, "only the calling thread changes");
    }

    #[test]
    fn runs_every_job() {
        let count = AtomicUsize::new(0);
        let jobs: Vec<Box<dyn FnOnce() + Send + '_>> = (0..5)
            .map(|_| {
                Box::new(|| {
                    count.fetch_add(1, Ordering::SeqCst);
                }) as Box<dyn FnOnce() + Send + '_>
            })
            .collect();
        ScopedThreads::new(2).run(jobs);
        assert_eq!(count.load(Ordering::SeqCst), 5);
        let jobs: Vec<Box<dyn FnOnce() + Send + '_>> = (0..7)
            .map(|_| {
                Box::new(|| {
                    count.fetch_add(1, Ordering::SeqCst);
                }) as Box<dyn FnOnce() + Send + '_>
            })
            .collect();
        Rayon.run(jobs);
        assert_eq!(count.load(Ordering::SeqCst), 12);
    }
}
