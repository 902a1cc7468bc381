//! Loading on a background thread, and the runners that parse in parallel.

pub mod loader;
pub mod threads;

pub use loader::{LoadEvent, LoadHandle, Loaded, OptionsFor, Waker, spawn_load, spawn_open};
pub use threads::{Rayon, ScopedThreads, background_pool, background_priority};
