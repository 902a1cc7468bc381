//! Work off the UI thread, one way: [`Task`] (a named thread with progress, cancel, messages
//! and a typed result that wakes the UI), started and listed through one registry
//! ([`Tasks`]), its end handed to the handler its owner gave when it started it
//! ([`Pending`]); [`Keyed`] (a task per input, for whole-clip results) and the loader built
//! on it; plus the thread pool and priority they use.

pub mod keyed;
pub mod loader;
pub mod pending;
pub mod registry;
pub mod task;
pub mod threads;

pub use keyed::Keyed;
pub use loader::{LoadEvent, LoadTask, Loaded, OptionsFor, file_key, load_name, spawn_load, spawn_open, spawn_requests};
pub use pending::{Pending, Then};
pub use registry::{RunningTask, Shown, Tasks};
pub use task::{Priority, Progress, Task, TaskError, TaskEvent, TaskId, Waker};
pub use threads::{background_pool, background_priority};
