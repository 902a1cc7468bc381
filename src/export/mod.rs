//! Writing motions out: BVH conversion (any format in, BVH out) and position CSVs.

pub mod bvh_writer;
pub mod positions;

pub use bvh_writer::{BvhWriteOptions, write_bvh};
