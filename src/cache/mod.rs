//! Loading on a background thread, and the thread pool it and the other background work use.

pub mod loader;
pub mod threads;

pub use loader::{LoadEvent, LoadHandle, Loaded, OptionsFor, Waker, file_key, spawn_load, spawn_open};
pub use threads::{background_pool, background_priority};
