//! Writing motions out: BVH conversion (any format in, BVH out).

pub mod bvh_writer;

pub use bvh_writer::{BvhWriteOptions, write_bvh};
