//! Loading on a background thread, and the cache of global poses the viewer draws from.

pub mod loader;
pub mod pose_cache;
pub mod threads;

pub use loader::{LoadEvent, LoadHandle, spawn_load};
pub use pose_cache::PoseCache;
pub use threads::ScopedThreads;
