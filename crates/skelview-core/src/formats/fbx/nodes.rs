//! Which FBX nodes become joints.
//!
//! Every node whose attribute is a bone (LimbNode, Limb, Root) or that a skin's clusters bind
//! to whatever its attribute (3ds Max and Rokoko build bodies of Null/point helpers and Biped
//! nodes with few LimbNodes: the skin says which are the character's bones), the nodes between two bones
//! whatever they are (a mesh in a chain still moves the bones below it), and the nulls above
//! the top bones that carry them (MotionBuilder's `Reference`, Blender's `Armature`). Meshes,
//! cameras, lights and markers elsewhere are left out; their transforms still count, because
//! every joint's local transform is taken relative to its parent joint's world transform. A
//! file without bones shows its animated nodes and their ancestors instead, with a warning.
//! The node of a rigid mesh that the takes move (it, or a node between it and the joint
//! above) is a joint too, so that the mesh follows it, and so is a scale helper that a skin
//! binds to when a take changes its scale.
//! ufbx's scale helper nodes (they make FBX's inherit modes exact) are not joints otherwise.

use std::collections::{HashMap, HashSet};

use ufbx::{ElementType, Node, Scene};

use crate::formats::error::ParseError;

/// A node whose world transform the sampler needs, parents before children.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainNode {
    /// Index into the scene's nodes.
    pub node: usize,
    /// Slot of its parent in the chain (`None` for the scene's root).
    pub parent: Option<usize>,
}

/// A node that becomes a joint.
#[derive(Clone, Debug, PartialEq)]
pub struct JointNode {
    /// Slot of its node in the chain.
    pub slot: usize,
    /// Index of its parent joint.
    pub parent: Option<usize>,
    /// True when that parent joint is the node's own parent (no node in between), so the
    /// evaluated local transform is used as it is.
    pub direct: bool,
    /// Name as in the file (namespaces kept), made unique.
    pub name: String,
    /// Facts shown in the inspector.
    pub details: Vec<(String, String)>,
}

/// The joints of a scene and the nodes their transforms depend on.
#[derive(Clone, Debug, PartialEq)]
pub struct Nodes {
    /// Every joint and every ancestor of one, parents first.
    pub chain: Vec<ChainNode>,
    /// The joints, parents first.
    pub joints: Vec<JointNode>,
    /// What the choice of joints warns about.
    pub warnings: Vec<String>,
}

fn is_helper(n: &Node) -> bool {
    n.is_scale_helper || n.is_geometry_transform_helper
}

/// True for a skeleton node (its bone attribute may sit on its scale helper).
fn is_bone(n: &Node) -> bool {
    !is_helper(n) && (n.bone.is_some() || n.scale_helper.as_ref().is_some_and(|h| h.bone.is_some()))
}

/// The nodes a skin's clusters bind to.
fn skin_bound(scene: &Scene) -> HashSet<usize> {
    let bound = scene.skin_clusters.iter().filter_map(|c| c.bone_node.as_ref()).map(|n| n.element.typed_id as usize);
    bound.filter(|&n| n < scene.nodes.len() && !scene.nodes[n].is_root && !is_helper(&scene.nodes[n])).collect()
}

/// True for a node with no attribute of its own: an FBX Null.
fn is_null(n: &Node) -> bool {
    matches!(n.attrib_type, ElementType::Empty | ElementType::Unknown) && n.scale_helper.as_ref().is_none_or(|h| h.attrib.is_none())
}

/// The node's parent, looking through helper nodes; `None` at the scene's root.
fn real_parent(scene: &Scene, n: usize) -> Option<usize> {
    let mut p = scene.nodes[n].parent.as_ref().map(|p| p.element.typed_id as usize)?;
    while is_helper(&scene.nodes[p]) {
        p = scene.nodes[p].parent.as_ref().map(|q| q.element.typed_id as usize)?;
    }
    (!scene.nodes[p].is_root).then_some(p)
}

/// What kind of node this is, in FBX's words.
fn kind(n: &Node) -> &'static str {
    if is_bone(n) {
        return "skeleton (LimbNode, Limb or Root)";
    }
    match n.attrib_type {
        ElementType::Empty | ElementType::Unknown => "null",
        ElementType::Mesh => "mesh",
        ElementType::Camera => "camera",
        ElementType::Light => "light",
        ElementType::Marker => "marker",
        _ => "other",
    }
}

/// The animated properties of `layers` that belong to nodes, with the node's index.
pub fn node_props<'a>(layers: impl IntoIterator<Item = &'a ufbx::AnimLayer>) -> impl Iterator<Item = (usize, &'a ufbx::AnimProp)> {
    layers
        .into_iter()
        .flat_map(|l| l.anim_props.iter())
        .filter(|p| p.element.type_ == ElementType::Node)
        .map(|p| (p.element.typed_id as usize, p))
}

/// The nodes animated by any layer of any stack.
fn animated(scene: &Scene) -> HashSet<usize> {
    node_props(&scene.anim_layers)
        .map(|(mut n, _)| {
            while is_helper(&scene.nodes[n]) {
                match scene.nodes[n].parent.as_ref() {
                    Some(p) => n = p.element.typed_id as usize,
                    None => break,
                }
            }
            n
        })
        .filter(|&n| !scene.nodes[n].is_root && !is_helper(&scene.nodes[n]))
        .collect()
}

/// Chooses the joints of `scene`; `skin_joints` adds the nodes a skin binds to.
pub fn choose(scene: &Scene, skin_joints: bool) -> Result<Nodes, ParseError> {
    let mut warnings = Vec::new();
    let (wanted, roles) = wanted_joints(scene, skin_joints, &mut warnings)?;
    let needed = with_ancestors(scene, &wanted);
    let (chain, joints) = walk_chain(scene, &wanted, &roles, &needed);
    Ok(Nodes { chain, joints, warnings })
}

/// The nodes that become joints, and the role of those that are not plain bones: bones (and
/// skin-bound nodes), with the nodes between two of them and the nulls carrying them; without
/// any, the animated nodes and their parents.
fn wanted_joints(
    scene: &Scene,
    skin_joints: bool,
    warnings: &mut Vec<String>,
) -> Result<(HashSet<usize>, HashMap<usize, &'static str>), ParseError> {
    let count = scene.nodes.len();
    let bound = if skin_joints { skin_bound(scene) } else { HashSet::new() };
    let mut wanted: HashSet<usize> = (0..count).filter(|&n| is_bone(&scene.nodes[n]) || bound.contains(&n)).collect();
    let mut roles: HashMap<usize, &'static str> = HashMap::new();
    let not_bones = bound.iter().filter(|&&n| !is_bone(&scene.nodes[n])).count();
    if not_bones > 0 {
        for &n in bound.iter().filter(|&&n| !is_bone(&scene.nodes[n])) {
            roles.insert(n, "bound by the skin (not a LimbNode)");
        }
        warnings.push(format!(
            "{not_bones} nodes the skin binds to are not skeleton nodes (helpers, nulls): they are joints too (--format-option fbx.joints=bones, or View → FBX joints, for skeleton nodes only)"
        ));
    }
    if wanted.is_empty() {
        wanted = animated(scene);
        if wanted.is_empty() {
            return Err(ParseError::invalid(0, "no bones and no animated nodes: nothing to show as a skeleton"));
        }
        warnings.push("no bones (LimbNode, Limb or Root): the animated nodes and their parents are the skeleton".to_owned());
        for n in wanted.clone() {
            let mut p = real_parent(scene, n);
            while let Some(q) = p {
                if wanted.insert(q) {
                    roles.insert(q, "parent of animated nodes");
                }
                p = real_parent(scene, q);
            }
        }
    } else {
        add_links(scene, &bound, &mut wanted, &mut roles);
        add_moving_meshes(scene, &mut wanted, &mut roles);
    }
    add_scaling_helpers(scene, &mut wanted, &mut roles);
    Ok((wanted, roles))
}

/// Adds the scale helpers that a skin binds to and a take scales: ufbx moves a node's
/// scale onto its helper (for Maya's segment scale compensation), and a skin's cluster then
/// follows the helper; a joint of its own (right under its node's) keeps the mesh exact
/// while the scale changes. Helpers whose scale stays put are left out (the mesh keeps a
/// fixed offset on the node's joint).
fn add_scaling_helpers(scene: &Scene, wanted: &mut HashSet<usize>, roles: &mut HashMap<usize, &'static str>) {
    let scaling: HashSet<usize> = node_props(&scene.anim_layers)
        .filter(|(_, p)| p.anim_value.curves.iter().flatten().any(|c| c.max_value > c.min_value))
        .map(|(n, _)| n)
        .collect();
    for c in scene.skin_clusters.iter() {
        let Some(h) = c.bone_node.as_ref().filter(|h| h.is_scale_helper) else { continue };
        let (n, owner) = (h.element.typed_id as usize, h.parent.as_ref().map(|p| p.element.typed_id as usize));
        if scaling.contains(&n) && owner.is_some_and(|o| wanted.contains(&o)) && wanted.insert(n) {
            roles.insert(n, "scale of its parent node, which a take changes and a skin follows");
        }
    }
}

/// Adds the nodes of rigid meshes that a take moves relative to the joint above them (the
/// mesh's node or a node between is animated): a mesh hangs on a joint with a fixed offset,
/// so such a mesh needs a joint of its own to follow (MotionBuilder's animated props, a
/// target). Skinned meshes follow their clusters wherever their node is.
fn add_moving_meshes(scene: &Scene, wanted: &mut HashSet<usize>, roles: &mut HashMap<usize, &'static str>) {
    let moving = animated(scene);
    let rigid_mesh = |n: &Node| {
        let mesh = n.mesh.as_ref().or_else(|| n.scale_helper.as_ref().and_then(|h| h.mesh.as_ref()));
        mesh.is_some_and(|m| m.skin_deformers.is_empty())
    };
    for n in (0..scene.nodes.len()).filter(|&n| !is_helper(&scene.nodes[n]) && rigid_mesh(&scene.nodes[n])) {
        let mut at = Some(n);
        while let Some(x) = at.filter(|x| !wanted.contains(x)) {
            if moving.contains(&x) {
                wanted.insert(n);
                roles.insert(n, "a mesh the takes move");
                break;
            }
            at = real_parent(scene, x);
        }
    }
}

/// Adds the nodes between two bones, and the nulls above the top bones that carry them.
fn add_links(scene: &Scene, bound: &HashSet<usize>, wanted: &mut HashSet<usize>, roles: &mut HashMap<usize, &'static str>) {
    let is_joint = |n: usize| is_bone(&scene.nodes[n]) || bound.contains(&n);
    for b in wanted.clone() {
        let mut path = Vec::new();
        let mut p = real_parent(scene, b);
        while let Some(q) = p {
            if is_joint(q) {
                for &between in &path {
                    wanted.insert(between);
                    roles.insert(between, "between two bones");
                }
                break;
            }
            path.push(q);
            p = real_parent(scene, q);
        }
        if p.is_none() {
            for q in path.into_iter().filter(|&q| is_null(&scene.nodes[q])) {
                wanted.insert(q);
                roles.entry(q).or_insert("null carrying bones");
            }
        }
    }
}

/// The chain's nodes: joints and all their ancestors, helpers included.
fn with_ancestors(scene: &Scene, wanted: &HashSet<usize>) -> HashSet<usize> {
    let mut needed: HashSet<usize> = HashSet::new();
    for &n in wanted {
        let mut q = Some(n);
        while let Some(x) = q {
            if !needed.insert(x) {
                break;
            }
            q = scene.nodes[x].parent.as_ref().map(|p| p.element.typed_id as usize);
        }
    }
    needed
}

/// Lays out the chain depth first from the scene's root, and the joints on it with unique
/// names, parents and details.
fn walk_chain(
    scene: &Scene,
    wanted: &HashSet<usize>,
    roles: &HashMap<usize, &'static str>,
    needed: &HashSet<usize>,
) -> (Vec<ChainNode>, Vec<JointNode>) {
    let mut chain = Vec::new();
    let mut slot_of: HashMap<usize, usize> = HashMap::new();
    let mut joints: Vec<JointNode> = Vec::new();
    let mut joint_of_slot: HashMap<usize, usize> = HashMap::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let roots: Vec<usize> = (0..scene.nodes.len()).filter(|&n| scene.nodes[n].parent.is_none() && needed.contains(&n)).collect();
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(n) = stack.pop() {
        let node = &scene.nodes[n];
        let parent_slot = node.parent.as_ref().and_then(|p| slot_of.get(&(p.element.typed_id as usize)).copied());
        let slot = chain.len();
        chain.push(ChainNode { node: n, parent: parent_slot });
        slot_of.insert(n, slot);
        if wanted.contains(&n) {
            let parent = real_parent(scene, n).and_then(|p| slot_of.get(&p)).and_then(|s| joint_of_slot.get(s)).copied();
            let parent_node = |j: usize| chain[joints[j].slot].node;
            let direct = parent.is_some_and(|j| node.parent.as_ref().is_some_and(|p| p.element.typed_id as usize == parent_node(j)));
            let base = match node.parent.as_ref() {
                Some(p) if node.is_scale_helper => format!("{} scale (node {n})", &*p.element.name),
                _ if node.element.name.is_empty() => format!("node {n}"),
                _ => node.element.name.to_string(),
            };
            let seen = names.entry(base.clone()).or_insert(0);
            *seen += 1;
            let name = if *seen > 1 { format!("{base} (node {n})") } else { base };
            let details = joint_details(node, roles.get(&n).copied());
            joint_of_slot.insert(slot, joints.len());
            joints.push(JointNode { slot, parent, direct, name, details });
        }
        let children: Vec<usize> = node.children.iter().map(|c| c.element.typed_id as usize).filter(|c| needed.contains(c)).collect();
        stack.extend(children.into_iter().rev());
    }
    (chain, joints)
}

/// Inspector facts of a joint's node: its kind, role, and rotation order and inherit mode
/// where they are not the defaults.
fn joint_details(node: &Node, role: Option<&'static str>) -> Vec<(String, String)> {
    let mut details = vec![("FBX node".to_owned(), kind(node).to_owned())];
    if let Some(role) = role {
        details.push(("Role".into(), role.to_owned()));
    }
    if node.rotation_order != ufbx::RotationOrder::Xyz {
        details.push(("Rotation order".into(), format!("{:?}", node.rotation_order).to_uppercase()));
    }
    if node.original_inherit_mode != ufbx::InheritMode::Normal {
        details.push(("Inherit mode".into(), format!("{:?}", node.original_inherit_mode)));
    }
    details
}
