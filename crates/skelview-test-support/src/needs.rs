//! What a test needs from the machine (an adapter, a program): without it, a note saying what
//! to install and a skip; under `CI=true`, a failure.

/// True under `CI=true` (or `1`), where a missing tool fails instead of skipping.
pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// `got`'s value; without it (its error says why), a note naming `install` and `None`, or a
/// panic in CI.
pub fn needed<T, E: std::fmt::Display>(what: &str, install: &str, got: Result<T, E>) -> Option<T> {
    match got {
        Ok(t) => Some(t),
        Err(e) if ci() => panic!("CI needs {what}: {e} ({install})"),
        Err(e) => {
            eprintln!("skipping: no {what}: {e} ({install})");
            None
        }
    }
}
