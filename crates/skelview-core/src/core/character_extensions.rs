//! What a character's file says beyond its skeleton and meshes, kept so that a writer of the
//! same kind can put it back: a VRM avatar's humanoid, expressions, first-person settings,
//! look-at and spring bones. The model does not read it (it is opaque JSON text here); it
//! only keeps the indices it refers to mapped onto the skeleton and the meshes, so that the
//! VRM writer can renumber them.

/// The glTF node, mesh and material one drawn primitive came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshOrigin {
    /// The node that uses the mesh.
    pub node: usize,
    /// The glTF mesh.
    pub mesh: usize,
    /// The primitive's material, if it names one.
    pub material: Option<usize>,
}

/// A glTF document's root `extensions` (VRM's), with what its indices now are.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterExtensions {
    /// The root `extensions` object as JSON text, as read.
    pub json: String,
    /// The joint each glTF node became, by node index (`None`: not a joint).
    pub joint_of_node: Vec<Option<usize>>,
    /// Where each of the set's meshes came from, in the set's order.
    pub origins: Vec<MeshOrigin>,
}

impl CharacterExtensions {
    /// The same extensions on a skeleton whose joints were renumbered (`joint_of(old)`, `None`
    /// for a removed joint: what referred to it is then left out when written).
    pub fn remapped(&self, joint_of: impl Fn(usize) -> Option<usize>) -> Self {
        let joint_of_node = self.joint_of_node.iter().map(|j| j.and_then(&joint_of)).collect();
        Self { joint_of_node, ..self.clone() }
    }
}
