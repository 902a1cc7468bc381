//! The depth buffer every pipeline and target shares.

/// Depth format of every target.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
