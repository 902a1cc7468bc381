//! What the integration tests of every crate in the workspace share: the test corpus
//! (`../shared/corpus`, required in CI), a Python with the second readers (ezc3d, `c3d`,
//! pybvh…), the reference players in Node.js (three.js, three-vrm) and the one way tests wait (for a state, never for a duration). A dev-dependency
//! only; it knows none of the skelview crates, so any of them may use it.

pub mod corpus;
pub mod needs;
pub mod node;
pub mod python;
pub mod wait;

pub use corpus::{ACCLAIM_PAIRS, corpus, files, workspace_root};
pub use needs::{ci, needed};
pub use node::{output_of, vrma_players};
pub use python::python;
pub use wait::{patience, patience_one, until, until_true, until_within};
