//! A body model's mesh as the document's skinned mesh, so that the viewer, `render`, the
//! GLB writer and `positions --vertices` draw and pose it like any character's: the template
//! shaped by the body's `betas` at rest, a bone per model joint bound at its rest position,
//! the model's skinning weights (the eight strongest of a vertex, renormalised), and the pose
//! blend shapes as morph targets that the pose drives ([`PoseBlend`]: target
//! `9·(k−1) + 3·r + c` weighs `(R_k − I)[r][c]`, as the models define them). So the GPU does exactly the
//! model's work per vertex (pose blend shapes, then linear blend skinning) and the CPU's work
//! per frame stays the palette and the `9·(J−1)` weights; no frame's vertices are computed up
//! front.

use glam::{DVec3, Mat4, Vec3};

use super::expressions::Expressed;
use super::smpl::{BodyModel, Shaped};
use crate::core::mesh::{BindMotion, Bone, MAX_INFLUENCES, Mesh, MorphAnimation, MorphTarget, PoseBlend};

/// The posed body of `model` shaped as `shaped`, with `expressed`'s expressions (frames
/// `frame_time_secs` apart), or `None` when the model was read without its mesh; `warnings`
/// gets one line when vertices lost influences past eight.
pub fn body_mesh(
    model: &BodyModel,
    shaped: &Shaped,
    name: &str,
    expressed: Option<&Expressed>,
    frame_time_secs: f64,
    warnings: &mut Vec<String>,
) -> Option<Mesh> {
    let data = model.mesh.as_ref()?;
    let j = model.joints();
    let positions: Vec<Vec3> = shaped.vertices.iter().map(|v| v.as_vec3()).collect();
    let v = positions.len();
    let indices: Vec<u32> = data.faces.iter().flatten().copied().collect();
    // Joint k's rest frame is its rest position, unturned (the models' rest rotations are the
    // identity): the mesh sits at minus that position in it.
    let bone = |k: usize| Bone {
        joint: Some(k),
        joint_from_mesh: Mat4::from_translation(-shaped.joints.get(k).copied().unwrap_or(DVec3::ZERO).as_vec3()),
    };
    let mut mesh = Mesh::rigid(name, positions, indices, bone(0));
    mesh.bones = (0..j).map(bone).collect();
    mesh.skinned = true;
    let mut trimmed = 0usize;
    for (i, (joints, weights)) in mesh.joints.iter_mut().zip(&mut mesh.weights).enumerate() {
        let row = &data.weights[i * j..(i + 1) * j];
        let (js, ws, cut) = strongest(row);
        (*joints, *weights) = (js, ws);
        trimmed += usize::from(cut);
    }
    if trimmed > 0 {
        warnings.push(format!(
            "{name}: {trimmed} of {v} vertices have more than {MAX_INFLUENCES} skinning weights; the {MAX_INFLUENCES} strongest are kept, renormalised (the drawn body differs from the model's there; joints do not)"
        ));
    }
    let p = 9 * j.saturating_sub(1);
    // The expressions' targets first (the take animates them), then the pose's.
    let (b, e) = (model.num_shapes, expressed.map_or(0, |x| x.used));
    let first_column = expressed.map_or(0, |x| x.first_column);
    let expression = |t: usize, i: usize, k: usize| model.shapedirs.get((i * 3 + k) * b + first_column + t).copied().unwrap_or(0.0);
    let pose = |t: usize, i: usize, k: usize| data.posedirs.get((i * 3 + k) * p + t).copied().unwrap_or(0.0);
    let target = |name: String, at: &dyn Fn(usize, usize) -> f64| MorphTarget {
        name,
        positions: (0..v).map(|i| Vec3::new(at(i, 0) as f32, at(i, 1) as f32, at(i, 2) as f32)).collect(),
        normals: Vec::new(),
    };
    mesh.morph_targets = (0..e)
        .map(|t| target(format!("expression {t}"), &|i, k| expression(t, i, k)))
        .chain((0..p).map(|t| target(format!("pose blend {t}"), &|i, k| pose(t, i, k))))
        .collect();
    mesh.pose_blend = Some(PoseBlend { first_target: e, joints: (1..j).map(|k| (k, model.parents[k])).collect() });
    if let Some(x) = expressed {
        let values = x.coefficients.iter().map(|c| *c as f32).collect();
        mesh.morph_animation = Some(MorphAnimation { frame_time_secs, targets: e, values });
        let shifts = x.rest.shifts.chunks_exact(j).flat_map(|row| x.shifted.iter().map(|&k| row[k].as_vec3())).collect();
        // Bone k is joint k's.
        mesh.bind_motion = Some(BindMotion { frame_time_secs, bones: x.shifted.clone(), shifts });
    }
    mesh.material.base_color = [0.72, 0.74, 0.78, 1.0];
    Some(mesh)
}

/// A vertex's eight strongest weights (joint indices and weights, renormalised), and whether
/// any non-zero weight was left out.
fn strongest(row: &[f64]) -> ([u16; MAX_INFLUENCES], [f32; MAX_INFLUENCES], bool) {
    let mut order: Vec<usize> = (0..row.len()).filter(|&k| row[k] != 0.0).collect();
    order.sort_by(|&a, &b| row[b].abs().total_cmp(&row[a].abs()));
    let cut = order.len() > MAX_INFLUENCES;
    order.truncate(MAX_INFLUENCES);
    let total: f64 = order.iter().map(|&k| row[k]).sum();
    let (mut js, mut ws) = ([0u16; MAX_INFLUENCES], [0f32; MAX_INFLUENCES]);
    for (slot, &k) in order.iter().enumerate() {
        js[slot] = k as u16;
        // Renormalised only when some were cut: a model's own weights are used as they are.
        ws[slot] = if cut && total != 0.0 { (row[k] / total) as f32 } else { row[k] as f32 };
    }
    (js, ws, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_eight_weights_are_kept_and_renormalised_only_when_cut() {
        let (js, ws, cut) = strongest(&[0.0, 0.5, 0.25, 0.25]);
        assert!(!cut);
        assert_eq!((&js[..3], &ws[..3]), (&[1u16, 2, 3][..], &[0.5f32, 0.25, 0.25][..]));
        let row: Vec<f64> = (0..10).map(|k| 0.1 + 0.01 * k as f64).collect();
        let (js, ws, cut) = strongest(&row);
        assert!(cut);
        assert_eq!(js[0], 9);
        assert!(!js.contains(&0) && !js.contains(&1));
        assert!((ws.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
