//! A joint's rotation channels as one rotation (the core's, used by the edits).

pub use crate::core::rotation_channels::*;
