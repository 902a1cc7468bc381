//! What the FBX mesh reader and its skin reader share: the take being sampled and the scene
//! with its node → joint map.

use std::collections::HashMap;

use glam::DMat4;
use ufbx::Scene;

/// The take the clip holds, so that rigid offsets and morph weights are taken at its times.
pub struct Sampling {
    /// The animation stack played, if any.
    pub take: Option<usize>,
    /// The take's first and last time in the file (seconds).
    pub begin: f64,
    /// See `begin`.
    pub end: f64,
    /// Frames per second of the clip.
    pub fps: f64,
    /// Frames of the clip.
    pub frames: usize,
}

/// What the mesh reader needs of the scene and the skeleton.
pub(super) struct Context<'a> {
    pub scene: &'a Scene,
    /// Joint of each node (index in the scene's nodes) that is one.
    pub joint_of: HashMap<usize, usize>,
    /// The take's animation (the scene's default one without a take).
    pub anim: &'a ufbx::Anim,
    pub sampling: &'a Sampling,
}

impl Context<'_> {
    /// The joint at or above `node` and `joint_from_node`, the node's place in that joint at
    /// the take's first frame (exact for the node itself, and for nodes the take does not move
    /// between it and the joint); `None` and the node's world transform above every joint.
    /// Composed from ufbx's evaluated local transforms as the joints themselves are.
    pub fn place(&self, node: usize) -> (Option<usize>, DMat4) {
        let mut joint_from_node = DMat4::IDENTITY;
        let mut at = Some(node);
        while let Some(k) = at.filter(|&k| k < self.scene.nodes.len()) {
            if let Some(&j) = self.joint_of.get(&k) {
                return (Some(j), joint_from_node);
            }
            let n = &self.scene.nodes[k];
            let t = ufbx::evaluate_transform(self.anim, n, self.sampling.begin);
            let local = DMat4::from_scale_rotation_translation(
                glam::DVec3::new(t.scale.x, t.scale.y, t.scale.z),
                glam::DQuat::from_xyzw(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w),
                glam::DVec3::new(t.translation.x, t.translation.y, t.translation.z),
            );
            joint_from_node = local * joint_from_node;
            at = n.parent.as_ref().map(|p| p.element.typed_id as usize);
        }
        (None, joint_from_node)
    }
}
