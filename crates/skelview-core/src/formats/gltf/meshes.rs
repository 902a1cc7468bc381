//! A glTF document's meshes, bound to the skeleton [`super::build`] made: every primitive of
//! every node that uses a mesh, with its skin (the node's `skin`: inverse bind matrices,
//! identity where the skin gives none, as the specification says) or, for a rigid mesh, the
//! joint at or above its node. Morph targets come with their default and animated weights,
//! materials with their base colour and texture (PNG, JPEG).
//!
//! A primitive that cannot be read (an accessor of the wrong type, counts that disagree, a
//! joint index beyond its skin, NaN in a skin's matrices) is left out with a warning naming
//! the mesh and the accessor; the skeleton still loads.

use crate::core::character_extensions::MeshOrigin;
use crate::core::mesh::MeshError;
use std::collections::HashMap;

use ::gltf::accessor::{DataType, Dimensions};
use glam::{Mat4, Vec2, Vec3, Vec4};

use super::accessor::check_accessor;
use super::sample::{Interpolation, Track};
use crate::core::mesh::{AlphaMode, Bone, Image, MAX_INFLUENCES, Material, Mesh, MeshSet, MorphAnimation, MorphTarget};
use crate::formats::error::RawWarning;

/// Most vertices read over all meshes (a mesh of millions of triangles is read; past this
/// the rest are left out, with a warning).
const MAX_VERTICES: usize = 20_000_000;

/// What the reader needs of the skeleton: node → joint, and each node's parent.
pub struct Nodes<'a> {
    /// Joint of each node that is one.
    pub joint_of: &'a HashMap<usize, usize>,
    /// Parent of every node.
    pub parent: &'a [Option<usize>],
}

/// The take's sampling: its animation, frame rate, frames and length.
pub struct Sampling {
    /// The animation played (index in the document), if any.
    pub animation: Option<usize>,
    /// Frames per second of the clip.
    pub fps: f64,
    /// Frames of the clip.
    pub frames: usize,
    /// Length in seconds.
    pub duration_secs: f64,
}

/// Reads every drawn primitive, with the node, mesh and material each came from; what cannot
/// be read is warned about and left out.
pub fn read(
    doc: &::gltf::Document,
    buffers: &[::gltf::buffer::Data],
    base: Option<&std::path::Path>,
    nodes: &Nodes,
    sampling: &Sampling,
    warnings: &mut Vec<RawWarning>,
) -> (MeshSet, Vec<MeshOrigin>) {
    let mut set = MeshSet::default();
    let mut origins = Vec::new();
    let mut images: HashMap<usize, Option<usize>> = HashMap::new();
    let weights = animated_weights(doc, buffers, sampling, warnings);
    let mut vertices = 0usize;
    for node in doc.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        let bones = match node.skin() {
            Some(skin) => skin_bones(&skin, buffers, nodes, &mesh),
            None => Ok(vec![rigid_bone(doc, node.index(), nodes)]),
        };
        let bones = match bones {
            Ok(b) => b,
            Err(message) => {
                warnings.push(RawWarning { offset: 0, message: message.to_string() });
                continue;
            }
        };
        let several = mesh.primitives().len() > 1;
        for p in mesh.primitives() {
            let name = mesh_name(&mesh, node.index(), several.then_some(p.index()));
            if vertices >= MAX_VERTICES {
                let message = format!("mesh {name}: past {MAX_VERTICES} vertices in all; it and the meshes after it are left out");
                warnings.push(RawWarning { offset: 0, message });
                return (set, origins);
            }
            match primitive(&p, buffers, &name, &bones, node.skin().is_some()) {
                Ok(Some(mut m)) => {
                    m.morph_weights = mesh.weights().map(<[f32]>::to_vec).unwrap_or_default();
                    m.morph_animation = weights.get(&node.index()).cloned();
                    m.material = material(&p.material(), base, buffers, &mut set.images, &mut images, warnings);
                    vertices += m.positions.len();
                    set.meshes.push(m);
                    origins.push(MeshOrigin { node: node.index(), mesh: mesh.index(), material: p.material().index() });
                }
                Ok(None) => {}
                Err(message) => warnings.push(RawWarning { offset: 0, message: format!("mesh {name}: {message}; left out") }),
            }
        }
    }
    (set, origins)
}

/// `'Name'` (node N), with the primitive's number when the mesh has several.
fn mesh_name(mesh: &::gltf::Mesh, node: usize, primitive: Option<usize>) -> String {
    let base = mesh.name().map_or_else(|| format!("mesh {} (node {node})", mesh.index()), str::to_owned);
    match primitive {
        Some(k) => format!("{base} #{k}"),
        None => base,
    }
}

/// The palette of a skin: each joint with its inverse bind matrix.
fn skin_bones(skin: &::gltf::Skin, buffers: &[::gltf::buffer::Data], nodes: &Nodes, mesh: &::gltf::Mesh) -> Result<Vec<Bone>, MeshError> {
    let name = mesh.name().map_or_else(|| format!("mesh {}", mesh.index()), |n| format!("mesh '{n}'"));
    let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    let matrices: Vec<Mat4> = match skin.inverse_bind_matrices() {
        None => vec![Mat4::IDENTITY; joints.len()],
        Some(a) => {
            check_accessor(&a, buffers).map_err(|e| format!("{name}: its skin's inverse bind matrices: {e}; the mesh is left out"))?;
            if a.dimensions() != Dimensions::Mat4 || a.data_type() != DataType::F32 {
                return Err(MeshError::from(format!(
                    "{name}: accessor {} of its skin's inverse bind matrices is not MAT4 of floats; the mesh is left out",
                    a.index()
                )));
            }
            let reader = skin.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
            reader.read_inverse_bind_matrices().map(|it| it.map(|m| Mat4::from_cols_array_2d(&m)).collect()).unwrap_or_default()
        }
    };
    if matrices.len() < joints.len() {
        return Err(MeshError::from(format!(
            "{name}: its skin has {} joints but {} inverse bind matrices; the mesh is left out",
            joints.len(),
            matrices.len()
        )));
    }
    if let Some(k) = matrices.iter().position(|m| !m.is_finite()) {
        let accessor = skin.inverse_bind_matrices().map_or(0, |a| a.index());
        return Err(MeshError::from(format!("{name}: inverse bind matrix {k} (accessor {accessor}) is not finite; the mesh is left out")));
    }
    Ok(joints.iter().zip(matrices).map(|(n, m)| Bone { joint: nodes.joint_of.get(n).copied(), joint_from_mesh: m }).collect())
}

/// A rigid mesh's one bone: the joint at or above its node and the node's place in it.
fn rigid_bone(doc: &::gltf::Document, node: usize, nodes: &Nodes) -> Bone {
    let local = |n: usize| doc.nodes().nth(n).map_or(Mat4::IDENTITY, |n| Mat4::from_cols_array_2d(&n.transform().matrix()));
    let mut joint_from_mesh = Mat4::IDENTITY;
    let mut n = Some(node);
    while let Some(k) = n {
        if let Some(&j) = nodes.joint_of.get(&k) {
            return Bone { joint: Some(j), joint_from_mesh };
        }
        joint_from_mesh = local(k) * joint_from_mesh;
        n = nodes.parent.get(k).copied().flatten();
    }
    Bone { joint: None, joint_from_mesh }
}

/// The types the specification allows for each attribute (the crate's readers panic on others).
fn check_type(a: &::gltf::Accessor, what: &str, dims: &[Dimensions], types: &[DataType]) -> Result<(), MeshError> {
    if dims.contains(&a.dimensions()) && types.contains(&a.data_type()) {
        return Ok(());
    }
    Err(MeshError::from(format!(
        "its {what} (accessor {}) are {:?} of {:?}, which glTF does not allow",
        a.index(),
        a.dimensions(),
        a.data_type()
    )))
}

/// Checks an attribute's accessor: inside its buffers, of an allowed type, `count` long.
fn attribute(
    p: &::gltf::Primitive,
    semantic: ::gltf::Semantic,
    buffers: &[::gltf::buffer::Data],
    (dims, types): (&[Dimensions], &[DataType]),
    count: Option<usize>,
) -> Result<bool, MeshError> {
    let what = format!("{semantic:?}");
    let Some(a) = p.get(&semantic) else { return Ok(false) };
    check_accessor(&a, buffers).map_err(|e| format!("its {what}: {e}"))?;
    check_type(&a, &what, dims, types)?;
    if let Some(n) = count.filter(|&n| n != a.count()) {
        return Err(MeshError::from(format!("its {what} (accessor {}) has {} entries for {n} positions", a.index(), a.count())));
    }
    Ok(true)
}

const F32: &[DataType] = &[DataType::F32];
const NORMALIZED: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];

/// One primitive, or `None` for points and lines (not drawn).
fn primitive(
    p: &::gltf::Primitive,
    buffers: &[::gltf::buffer::Data],
    name: &str,
    bones: &[Bone],
    skinned: bool,
) -> Result<Option<Mesh>, MeshError> {
    use ::gltf::Semantic as S;
    use ::gltf::mesh::Mode;
    if !matches!(p.mode(), Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
        return Ok(None);
    }
    let Some(pos) = p.get(&S::Positions) else { return Err(MeshError::from("no POSITION")) };
    let n = pos.count();
    attribute(p, S::Positions, buffers, (&[Dimensions::Vec3], F32), None)?;
    let has_normals = attribute(p, S::Normals, buffers, (&[Dimensions::Vec3], F32), Some(n))?;
    let has_uvs = attribute(p, S::TexCoords(0), buffers, (&[Dimensions::Vec2], NORMALIZED), Some(n))?;
    let has_colors = attribute(p, S::Colors(0), buffers, (&[Dimensions::Vec3, Dimensions::Vec4], NORMALIZED), Some(n))?;
    let joint_types: &[DataType] = &[DataType::U8, DataType::U16];
    let sets = if skinned { 2 } else { 0 };
    let mut influence_sets = 0;
    for k in 0..sets {
        let j = attribute(p, S::Joints(k), buffers, (&[Dimensions::Vec4], joint_types), Some(n))?;
        let w = attribute(p, S::Weights(k), buffers, (&[Dimensions::Vec4], NORMALIZED), Some(n))?;
        if j != w {
            return Err(MeshError::from(format!("JOINTS_{k} and WEIGHTS_{k} do not come together")));
        }
        influence_sets += usize::from(j);
    }
    let reader = p.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
    let positions: Vec<Vec3> = reader.read_positions().map(|it| it.map(Vec3::from).collect()).unwrap_or_default();
    if positions.len() != n {
        return Err(MeshError::from(format!("its POSITION (accessor {}) could not be read", pos.index())));
    }
    if positions.iter().any(|v| !v.is_finite()) {
        return Err(MeshError::from(format!("its POSITION (accessor {}) holds numbers that are not finite", pos.index())));
    }
    let indices = indices(p, &reader, buffers, n)?;
    let mut mesh =
        Mesh::rigid(name, positions, indices, bones.first().copied().unwrap_or(Bone { joint: None, joint_from_mesh: Mat4::IDENTITY }));
    mesh.bones = bones.to_vec();
    mesh.skinned = skinned;
    if has_normals {
        let normals: Vec<Vec3> =
            reader.read_normals().map(|it| it.map(|v| Vec3::from(v).try_normalize().unwrap_or(Vec3::Y)).collect()).unwrap_or_default();
        if normals.len() == n {
            mesh.normals = normals;
        }
    }
    if has_uvs {
        mesh.uvs = reader.read_tex_coords(0).map(|t| t.into_f32().map(Vec2::from).collect()).unwrap_or_default();
    }
    if has_colors {
        mesh.colors = reader.read_colors(0).map(|c| c.into_rgba_f32().map(Vec4::from).collect()).unwrap_or_default();
    }
    if skinned {
        influences(&reader, influence_sets, bones.len(), &mut mesh, p)?;
    }
    mesh.morph_targets = morph_targets(p, &reader, buffers, n)?;
    Ok(Some(mesh))
}

/// Triangle indices (strips and fans made lists), checked against the vertex count.
fn indices<'a, 's, F>(
    p: &::gltf::Primitive,
    reader: &::gltf::mesh::Reader<'a, 's, F>,
    buffers: &[::gltf::buffer::Data],
    n: usize,
) -> Result<Vec<u32>, MeshError>
where
    F: Clone + Fn(::gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    let raw: Vec<u32> = match p.indices() {
        None => (0..n as u32).collect(),
        Some(a) => {
            check_accessor(&a, buffers).map_err(|e| format!("its indices: {e}"))?;
            check_type(&a, "indices", &[Dimensions::Scalar], &[DataType::U8, DataType::U16, DataType::U32])?;
            let v: Vec<u32> = reader.read_indices().map(|i| i.into_u32().collect()).unwrap_or_default();
            if let Some(bad) = v.iter().find(|&&i| i as usize >= n) {
                return Err(MeshError::from(format!("its indices (accessor {}) name vertex {bad} of {n}", a.index())));
            }
            v
        }
    };
    use ::gltf::mesh::Mode;
    Ok(match p.mode() {
        Mode::TriangleStrip => (2..raw.len())
            .flat_map(|k| if k % 2 == 0 { [raw[k - 2], raw[k - 1], raw[k]] } else { [raw[k - 1], raw[k - 2], raw[k]] })
            .collect(),
        Mode::TriangleFan => (2..raw.len()).flat_map(|k| [raw[0], raw[k - 1], raw[k]]).collect(),
        _ => {
            let whole = raw.len() / 3 * 3;
            raw[..whole].to_vec()
        }
    })
}

/// Up to eight influences per vertex, weights renormalised; a joint index beyond the skin or
/// a vertex without weight refuses the primitive.
fn influences<'a, 's, F>(
    reader: &::gltf::mesh::Reader<'a, 's, F>,
    sets: usize,
    bones: usize,
    mesh: &mut Mesh,
    p: &::gltf::Primitive,
) -> Result<(), MeshError>
where
    F: Clone + Fn(::gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    if sets == 0 {
        return Err(MeshError::from("it is skinned but has no JOINTS_0 and WEIGHTS_0"));
    }
    let n = mesh.positions.len();
    let (mut joints, mut weights) = (vec![[0u16; MAX_INFLUENCES]; n], vec![[0f32; MAX_INFLUENCES]; n]);
    for k in 0..sets {
        let j: Vec<[u16; 4]> = reader.read_joints(k as u32).map(|r| r.into_u16().collect()).unwrap_or_default();
        let w: Vec<[f32; 4]> = reader.read_weights(k as u32).map(|r| r.into_f32().collect()).unwrap_or_default();
        let accessor = p.get(&::gltf::Semantic::Joints(k as u32)).map_or(0, |a| a.index());
        for v in 0..n.min(j.len()).min(w.len()) {
            for c in 0..4 {
                let (joint, weight) = (j[v][c], w[v][c]);
                if weight != 0.0 && usize::from(joint) >= bones {
                    return Err(MeshError::from(format!(
                        "vertex {v} names joint {joint} of its skin's {bones} in JOINTS_{k} (accessor {accessor})"
                    )));
                }
                if !weight.is_finite() || weight < 0.0 {
                    return Err(MeshError::from(format!("vertex {v}'s weight {weight} in WEIGHTS_{k} is not a number from 0 to 1")));
                }
                (joints[v][k * 4 + c], weights[v][k * 4 + c]) = (joint, weight);
            }
        }
    }
    for (v, w) in weights.iter_mut().enumerate() {
        let sum: f32 = w.iter().sum();
        if sum <= 0.0 {
            return Err(MeshError::from(format!("vertex {v}'s weights are all zero")));
        }
        w.iter_mut().for_each(|x| *x /= sum);
    }
    (mesh.joints, mesh.weights) = (joints, weights);
    Ok(())
}

/// The primitive's morph targets (position and normal displacements).
fn morph_targets<'a, 's, F>(
    p: &::gltf::Primitive,
    reader: &::gltf::mesh::Reader<'a, 's, F>,
    buffers: &[::gltf::buffer::Data],
    n: usize,
) -> Result<Vec<MorphTarget>, MeshError>
where
    F: Clone + Fn(::gltf::Buffer<'a>) -> Option<&'s [u8]>,
{
    for (k, t) in p.morph_targets().enumerate() {
        for a in [t.positions(), t.normals(), t.tangents()].into_iter().flatten() {
            check_accessor(&a, buffers).map_err(|e| format!("morph target {k}: {e}"))?;
            check_type(&a, &format!("morph target {k}'s displacements"), &[Dimensions::Vec3], F32)?;
            if a.count() != n {
                return Err(MeshError::from(format!(
                    "morph target {k} (accessor {}) has {} entries for {n} positions",
                    a.index(),
                    a.count()
                )));
            }
        }
    }
    Ok(reader
        .read_morph_targets()
        .enumerate()
        .map(|(k, (pos, normals, _))| MorphTarget {
            name: format!("target {k}"),
            positions: pos.map(|it| it.map(Vec3::from).collect()).unwrap_or_else(|| vec![Vec3::ZERO; n]),
            normals: normals.map(|it| it.map(Vec3::from).collect()).unwrap_or_default(),
        })
        .collect())
}

/// The material's base colour, texture, alpha and sides; images decoded once each.
fn material(
    m: &::gltf::Material,
    base: Option<&std::path::Path>,
    buffers: &[::gltf::buffer::Data],
    images: &mut Vec<Image>,
    decoded: &mut HashMap<usize, Option<usize>>,
    warnings: &mut Vec<RawWarning>,
) -> Material {
    let pbr = m.pbr_metallic_roughness();
    let texture = pbr.base_color_texture().and_then(|info| {
        let image = info.texture().source();
        *decoded.entry(image.index()).or_insert_with(|| match super::images::decode(&image, base, buffers) {
            Ok(i) => {
                images.push(i);
                Some(images.len() - 1)
            }
            Err(message) => {
                warnings.push(RawWarning { offset: 0, message: format!("image {}: {message}; drawn without it", image.index()) });
                None
            }
        })
    });
    Material {
        base_color: pbr.base_color_factor(),
        texture,
        alpha: match m.alpha_mode() {
            ::gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            ::gltf::material::AlphaMode::Mask => AlphaMode::Mask(m.alpha_cutoff().unwrap_or(0.5)),
            ::gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        },
        double_sided: m.double_sided(),
    }
}

/// Morph weights of the take's animation, per node, sampled at the clip's frames.
fn animated_weights(
    doc: &::gltf::Document,
    buffers: &[::gltf::buffer::Data],
    sampling: &Sampling,
    warnings: &mut Vec<RawWarning>,
) -> HashMap<usize, MorphAnimation> {
    let mut out = HashMap::new();
    let Some(animation) = sampling.animation.and_then(|a| doc.animations().nth(a)) else { return out };
    for c in animation.channels() {
        if c.target().property() != ::gltf::animation::Property::MorphTargetWeights {
            continue;
        }
        let node = c.target().node();
        let targets = node.mesh().and_then(|m| m.primitives().next()).map_or(0, |p| p.morph_targets().len());
        match weight_tracks(&c, buffers, targets) {
            Ok(tracks) if targets > 0 => {
                let values = (0..sampling.frames)
                    .flat_map(|f| {
                        let t = ((f as f64 / sampling.fps).min(sampling.duration_secs)) as f32;
                        let row: Vec<f32> = tracks.iter().flat_map(|tr| tr.at(t).to_array()).collect();
                        row.into_iter().take(targets)
                    })
                    .collect();
                out.insert(node.index(), MorphAnimation { frame_time_secs: 1.0 / sampling.fps, targets, values });
            }
            Ok(_) => {}
            Err(message) => warnings.push(RawWarning {
                offset: 0,
                message: format!("animation {}: morph weights of node {}: {message}; not animated", animation.index(), node.index()),
            }),
        }
    }
    out
}

/// A weights channel as tracks of four targets each (the last padded with zeros).
fn weight_tracks(c: &::gltf::animation::Channel, buffers: &[::gltf::buffer::Data], targets: usize) -> Result<Vec<Track>, MeshError> {
    let sampler = c.sampler();
    let (input, output) = (sampler.input(), sampler.output());
    check_accessor(&input, buffers).map_err(|e| e.to_string())?;
    check_accessor(&output, buffers).map_err(|e| e.to_string())?;
    check_type(&input, "key times", &[Dimensions::Scalar], F32)?;
    check_type(&output, "weights", &[Dimensions::Scalar], NORMALIZED)?;
    let reader = c.reader(|b| buffers.get(b.index()).map(|d| &d.0[..]));
    let times: Vec<f32> = reader.read_inputs().map(Iterator::collect).unwrap_or_default();
    if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] <= w[0]) {
        return Err(MeshError::from("key times not finite and increasing"));
    }
    use ::gltf::animation::util::ReadOutputs;
    let values: Vec<f32> = match reader.read_outputs() {
        Some(ReadOutputs::MorphTargetWeights(w)) => w.into_f32().collect(),
        _ => return Err(MeshError::from("unreadable weights")),
    };
    let interpolation = match sampler.interpolation() {
        ::gltf::animation::Interpolation::Linear => Interpolation::Linear,
        ::gltf::animation::Interpolation::Step => Interpolation::Step,
        ::gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
    };
    let parts = if interpolation == Interpolation::CubicSpline { 3 } else { 1 };
    if targets == 0 || values.len() != times.len() * parts * targets || values.iter().any(|v| !v.is_finite()) {
        return Err(MeshError::from(format!("{} values for {} keys of {targets} targets", values.len(), times.len())));
    }
    let groups = targets.div_ceil(4);
    Ok((0..groups)
        .map(|g| {
            let vec4 = |row: &[f32]| Vec4::from_array(std::array::from_fn(|c| row.get(g * 4 + c).copied().unwrap_or(0.0)));
            Track { times: times.clone(), values: values.chunks_exact(targets).map(vec4).collect(), interpolation, rotation: false }
        })
        .collect())
}
