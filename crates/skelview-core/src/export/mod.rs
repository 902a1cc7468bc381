//! Writing motions out: BVH, glTF, VRM, VRMA, TRC and C3D conversion (any format in), force platforms as OpenSim MOT, position and measurement CSVs, and the one
//! atomic-write helper every output file goes through.

pub mod atomic;
pub mod bvh_writer;
pub mod c3d_writer;
pub mod decimal;
pub mod files;
mod gltf_blob;
mod gltf_meshes;
pub mod gltf_writer;
pub mod measures;
pub mod mot_writer;
pub mod positions;
pub mod trc_writer;
pub mod vertices;
pub mod vrm_writer;
pub mod vrma_writer;

pub use atomic::write_atomically;
pub use bvh_writer::{BvhWriteOptions, write_bvh};
