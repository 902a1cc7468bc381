//! What the integration tests of every crate in the workspace share: the test corpus
//! (`../shared/corpus`, required in CI) and a Python with the second readers (ezc3d, `c3d`,
//! pybvh…). A dev-dependency only; it knows none of the skelview crates, so any of them may
//! use it.

pub mod corpus;
pub mod python;

pub use corpus::{ACCLAIM_PAIRS, corpus, files, workspace_root};
pub use python::python;
