//! Writing motions out: BVH and glTF conversion (any format in), position and measurement CSVs, and the one
//! atomic-write helper every output file goes through.

pub mod atomic;
pub mod bvh_writer;
pub mod gltf_writer;
pub mod measures;
pub mod positions;

pub use atomic::write_atomically;
pub use bvh_writer::{BvhWriteOptions, write_bvh};
