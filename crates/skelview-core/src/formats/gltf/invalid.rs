//! What makes a glTF document's data unreadable as motion: accessors that run past their
//! buffers, samplers of the wrong type or length, a node hierarchy that is not a forest.
//! Numbers are the document's own indices, so that a user can find the object in the JSON.

use ::gltf::accessor::{DataType, Dimensions};
use thiserror::Error;

/// A glTF document's data that cannot be read (reported with the file's name by the loader).
#[derive(Clone, Debug, Error, PartialEq)]
pub enum Invalid {
    /// A buffer view's offset plus length overflows.
    #[error("buffer view {view} too long")]
    ViewTooLong {
        /// The buffer view.
        view: usize,
    },
    /// A buffer view ends past its buffer.
    #[error("buffer view {view} ends at byte {end} of a buffer of {data} bytes")]
    ViewPastBuffer {
        /// The buffer view.
        view: usize,
        /// Its end, in bytes.
        end: usize,
        /// The buffer's length.
        data: usize,
    },
    /// A view's stride is shorter than the accessor's elements.
    #[error("buffer view {view} strides {stride} bytes, less than accessor {accessor}'s {elem}-byte elements")]
    StrideTooShort {
        /// The buffer view.
        view: usize,
        /// Its stride.
        stride: usize,
        /// The accessor.
        accessor: usize,
        /// The accessor's element size.
        elem: usize,
    },
    /// An accessor's extent overflows.
    #[error("accessor {accessor} too long")]
    AccessorTooLong {
        /// The accessor.
        accessor: usize,
    },
    /// An accessor reads past its buffer view.
    #[error("accessor {accessor} needs {need} bytes of buffer view {view} ({length} bytes)")]
    AccessorPastView {
        /// The accessor.
        accessor: usize,
        /// Bytes it needs.
        need: usize,
        /// The buffer view.
        view: usize,
        /// The view's length.
        length: usize,
    },
    /// A sampler's input is not float times.
    #[error("sampler {sampler}'s input (accessor {accessor}) is not SCALAR float times")]
    Times {
        /// The sampler.
        sampler: usize,
        /// Its input accessor.
        accessor: usize,
    },
    /// A sampler's output cannot hold what its channel drives.
    #[error("sampler {sampler}'s output (accessor {accessor}) is {dimensions:?} {data_type:?}, which cannot hold a {path}")]
    Output {
        /// The sampler.
        sampler: usize,
        /// Its output accessor.
        accessor: usize,
        /// The accessor's element type.
        dimensions: Dimensions,
        /// The accessor's component type.
        data_type: DataType,
        /// What the channel drives (`Translation`, `Rotation`, `Scale`).
        path: String,
    },
    /// The crate could not read a sampler's `input` or `output`.
    #[error("a sampler's {0} cannot be read")]
    Unreadable(&'static str),
    /// A key time that is not a number (infinite or NaN).
    #[error("sampler {sampler}'s key {key} has time {time}, not a number of seconds")]
    KeyTimeNotFinite {
        /// The sampler.
        sampler: usize,
        /// The key (0-based).
        key: usize,
        /// Its time as read.
        time: f32,
    },
    /// A key time earlier than the key before it (repeated times are read as steps).
    #[error("sampler {sampler}'s key {key} at {time} s comes before key {before} at {previous} s: key times must not go back")]
    KeyTimesGoBack {
        /// The sampler.
        sampler: usize,
        /// The key (0-based).
        key: usize,
        /// Its time.
        time: f32,
        /// The key before it.
        before: usize,
        /// That key's time.
        previous: f32,
    },
    /// As many values as keys (three per key for cubic splines) were expected.
    #[error("sampler {sampler} has {keys} keys but {values} output values (expected {expected})")]
    ValueCount {
        /// The sampler.
        sampler: usize,
        /// Its key times.
        keys: usize,
        /// Its output values.
        values: usize,
        /// The values its interpolation needs.
        expected: usize,
    },
    /// Output values that are not numbers.
    #[error("sampler {sampler} has output values that are not finite")]
    NotFinite {
        /// The sampler.
        sampler: usize,
    },
    /// A node listed as the child of two nodes.
    #[error("node {node} has two parents (the node hierarchy must be a forest)")]
    TwoParents {
        /// The node.
        node: usize,
    },
    /// A loop of parents.
    #[error("node {node} is its own ancestor (the node hierarchy must be a forest)")]
    OwnAncestor {
        /// The node.
        node: usize,
    },
}
