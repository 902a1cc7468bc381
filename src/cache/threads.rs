//! [`Parallel`] runners: rayon's global pool (what skelview uses), and a runner on scoped
//! threads of our own, kept so that the parse benchmark can compare the two.

use std::sync::Mutex;

use crate::formats::Parallel;

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
