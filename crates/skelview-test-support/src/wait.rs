//! Waiting in tests: for a state or an event, never for a duration. One limit turns a hang
//! into a failure; it is generous (a busy CI machine is slow, not stuck) and scaled by the
//! caller to the work (a GIF of N frames, not a fixed number of seconds).

use std::time::{Duration, Instant};

/// The limit for work of `units` (frames, files…) that takes about `per_unit` each on an idle
/// machine: ten times that, plus a minute, times `SKELVIEW_TEST_PATIENCE` (default 1).
pub fn patience(units: usize, per_unit: Duration) -> Duration {
    let factor = std::env::var("SKELVIEW_TEST_PATIENCE").ok().and_then(|v| v.parse::<f64>().ok()).filter(|f| *f > 0.0).unwrap_or(1.0);
    (Duration::from_secs(60) + per_unit * 10 * units as u32).mul_f64(factor)
}

/// The limit for a single piece of work (a load, a check, an edit): ten minutes.
pub fn patience_one() -> Duration {
    patience(1, Duration::from_secs(54))
}

/// Calls `step` until `look` returns something, and returns it; panics naming `what` once
/// [`patience_one`] has passed without it (a hang).
pub fn until<S, T>(what: &str, state: &mut S, mut step: impl FnMut(&mut S), mut look: impl FnMut(&S) -> Option<T>) -> T {
    until_within(what, patience_one(), state, &mut step, &mut look)
}

/// [`until`] with the limit given (see [`patience`]).
pub fn until_within<S, T>(
    what: &str,
    limit: Duration,
    state: &mut S,
    mut step: impl FnMut(&mut S),
    mut look: impl FnMut(&S) -> Option<T>,
) -> T {
    let start = Instant::now();
    loop {
        step(state);
        if let Some(found) = look(state) {
            return found;
        }
        assert!(start.elapsed() < limit, "gave up waiting for {what} after {limit:?}: it looks stuck");
        // Lets the worker threads run (on two cores the test would otherwise take one).
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Waits until `done()` holds (a flag another thread sets, a file appearing).
pub fn until_true(what: &str, mut done: impl FnMut() -> bool) {
    until(what, &mut (), |_| {}, |_| done().then_some(()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_for_the_state_and_gives_up_on_a_hang() {
        let mut n = 0;
        assert_eq!(until("three steps", &mut n, |n| *n += 1, |n| (*n >= 3).then_some(*n)), 3);
        let hung = std::panic::catch_unwind(|| until_within("nothing", Duration::ZERO, &mut (), |_| {}, |_| None::<()>));
        assert!(hung.is_err());
        assert!(patience(100, Duration::from_secs(1)) > patience(1, Duration::from_secs(1)));
    }
}
