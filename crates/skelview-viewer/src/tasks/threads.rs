//! The viewer's background threads: rayon's pool set up with named, low-priority workers.

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
    #[cfg(not(target_arch = "wasm32"))]
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|k| format!("skelview-worker-{}", k + 1))
        .start_handler(|_| background_priority())
        .build_global();
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
