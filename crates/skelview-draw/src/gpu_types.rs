//! Data laid out exactly as the shaders read it.

use bytemuck::{Pod, Zeroable};

/// Per-frame uniforms shared by every pipeline (`Globals` in the shaders).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct Globals {
    /// Projection × view.
    pub clip_from_world: [[f32; 4]; 4],
    /// Direction towards the light (xyz).
    pub light_dir: [f32; 4],
    /// Camera position (xyz).
    pub eye: [f32; 4],
}

/// A vertex of a unit mesh (bone or joint).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct MeshVertex {
    /// Model-space position.
    pub position: [f32; 3],
    /// Model-space normal.
    pub normal: [f32; 3],
}

/// One bone or joint: where the unit mesh goes and its colour.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct MeshInstance {
    /// `world_from_model`, column-major.
    pub world_from_model: [[f32; 4]; 4],
    /// Linear RGBA.
    pub color: [f32; 4],
}

/// A line vertex (axes, grid, gizmo).
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct LineVertex {
    /// World position.
    pub position: [f32; 3],
    /// Linear RGBA.
    pub color: [f32; 4],
}

const _: () = assert!(std::mem::size_of::<Globals>() == 96);
const _: () = assert!(std::mem::size_of::<MeshVertex>() == 24);
const _: () = assert!(std::mem::size_of::<MeshInstance>() == 80);
const _: () = assert!(std::mem::size_of::<LineVertex>() == 28);
