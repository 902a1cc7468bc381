//! Draw data of one skeleton from a global pose in display space (metres, Y-up), the grid,
//! and picking. No GPU calls here, so all of it is testable without an adapter.

use glam::{Mat3, Mat4, Quat, Vec2, Vec3};

use skelview_core::core::{GlobalPose, Skeleton};
use skelview_draw::{DrawData, LineVertex, MeshInstance, OrbitCamera};

/// What to draw and in which colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Draw bones.
    pub bones: bool,
    /// Draw joint spheres.
    pub joints: bool,
    /// Draw each joint's local axes.
    pub axes: bool,
    /// Draw the ground grid.
    pub grid: bool,
    /// Draw the world axes gizmo at the origin.
    pub gizmo: bool,
    /// Draw the soft shadow under the skeleton.
    pub shadow: bool,
    /// Bone colour (linear RGBA).
    pub bone_color: [f32; 4],
    /// Joint colour.
    pub joint_color: [f32; 4],
    /// Highlight colour of the selected joint and its bone.
    pub selected_color: [f32; 4],
    /// Grid line colour (alpha fades with distance).
    pub grid_color: [f32; 4],
    /// Multiplies the colours of a clip's meshes (white: their own; a clip's colour when
    /// several are open; a ghost's grey).
    pub mesh_tint: [f32; 4],
}

impl Default for Style {
    fn default() -> Self {
        Self {
            bones: true,
            joints: true,
            axes: false,
            grid: true,
            gizmo: true,
            shadow: true,
            bone_color: [0.78, 0.80, 0.86, 1.0],
            joint_color: [0.95, 0.62, 0.20, 1.0],
            selected_color: [0.15, 0.85, 1.0, 1.0],
            grid_color: [0.5, 0.5, 0.55, 0.55],
            mesh_tint: [1.0; 4],
        }
    }
}

/// Colour of H-Anim sites and other markers: teal, apart from joints and end sites.
pub const MARKER_COLOR: [f32; 4] = [0.25, 0.85, 0.8, 1.0];

/// Appends the instances and lines for one skeleton.
pub fn build(
    skeleton: &Skeleton,
    pose: &GlobalPose,
    display: Mat4,
    size_m: f32,
    style: &Style,
    selected: Option<usize>,
    out: &mut DrawData,
) {
    build_colored(skeleton, pose, display, size_m, 0.0, style, selected, None, out);
}

/// [`build`], with the bone ending at joint `i` drawn in `bone_colors[i]` when given (heat
/// maps); joints missing from the slice keep the style's colour.
#[allow(clippy::too_many_arguments)]
pub fn build_colored(
    skeleton: &Skeleton,
    pose: &GlobalPose,
    display: Mat4,
    size_m: f32,
    floor_y: f32,
    style: &Style,
    selected: Option<usize>,
    bone_colors: Option<&[[f32; 4]]>,
    out: &mut DrawData,
) {
    let joints = skeleton.joints();
    let at = |i: usize| display.transform_point3(pose.world_from_joint[i].translation.into());
    let display_rotation = Quat::from_mat3(&Mat3::from_mat4(display).mul_scalar(1.0 / display.x_axis.truncate().length().max(1e-12)));
    let joint_radius = size_m * 0.011;
    for (i, joint) in joints.iter().enumerate() {
        // A transform above a skin (an `Armature` at the origin) is not a bone: nothing drawn.
        if joint.is_transform {
            continue;
        }
        let p = at(i);
        let highlighted = selected == Some(i);
        if style.joints {
            let r = if joint.is_end_site { joint_radius * 0.6 } else { joint_radius } * if highlighted { 1.6 } else { 1.0 };
            let color = if highlighted {
                style.selected_color
            } else if joint.is_marker {
                MARKER_COLOR
            } else if joint.is_end_site {
                [style.joint_color[0] * 0.6, style.joint_color[1] * 0.6, style.joint_color[2] * 0.6, style.joint_color[3]]
            } else {
                style.joint_color
            };
            out.joints.push(MeshInstance {
                world_from_model: Mat4::from_scale_rotation_translation(Vec3::splat(r), Quat::IDENTITY, p).to_cols_array_2d(),
                color,
            });
        }
        if let (true, Some(parent), false) = (style.bones, joint.parent.filter(|&p| !joints[p].is_transform), joint.is_marker) {
            let a = at(parent);
            let v = p - a;
            let len = v.length();
            if len > size_m * 1e-4 {
                let width = (len * 0.14).clamp(size_m * 0.004, size_m * 0.022);
                let rotation = Quat::from_rotation_arc(Vec3::Y, v / len);
                let color = if highlighted {
                    style.selected_color
                } else {
                    bone_colors.and_then(|c| c.get(i)).map_or(style.bone_color, |c| [c[0], c[1], c[2], c[3] * style.bone_color[3]])
                };
                let m = Mat4::from_scale_rotation_translation(Vec3::new(width, len, width), rotation, a);
                out.bones.push(MeshInstance { world_from_model: m.to_cols_array_2d(), color });
            }
        }
        let orientation = Quat::from_mat3a(&pose.world_from_joint[i].matrix3).normalize();
        // A zero scale leaves no orientation to show.
        if style.axes && !joint.is_end_site && orientation.is_finite() {
            let rotation = display_rotation * orientation;
            let len = size_m * 0.05;
            for (axis, color) in [(Vec3::X, [0.95, 0.2, 0.2, 1.0]), (Vec3::Y, [0.2, 0.9, 0.25, 1.0]), (Vec3::Z, [0.25, 0.45, 1.0, 1.0])] {
                out.lines.push(LineVertex { position: p.to_array(), color });
                out.lines.push(LineVertex { position: (p + rotation * axis * len).to_array(), color });
            }
        }
    }
    if style.shadow
        && let Some(root) = skeleton.roots().next()
    {
        let p = at(root);
        let radius = size_m * 0.28;
        let m = Mat4::from_scale_rotation_translation(
            Vec3::new(radius, 1.0, radius),
            Quat::IDENTITY,
            Vec3::new(p.x, floor_y + size_m * 0.001, p.z),
        );
        out.shadows.push(MeshInstance { world_from_model: m.to_cols_array_2d(), color: [0.0, 0.0, 0.0, 0.35] });
    }
}

/// A 1, 2 or 5 × 10ⁿ step near `x`.
pub fn nice_step(x: f32) -> f32 {
    let x = x.max(1e-6);
    let p = 10f32.powf(x.log10().floor());
    let m = x / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// Ground grid on the plane y = `center.y` around `center`, spaced for a body of `size_m`,
/// fading with distance; plus the world axes gizmo (at the origin) when asked.
pub fn grid(center: Vec3, size_m: f32, style: &Style, out: &mut Vec<LineVertex>) {
    if style.grid {
        let step = nice_step(size_m * 0.25);
        let n = 24i32;
        let cx = (center.x / step).round() * step;
        let cz = (center.z / step).round() * step;
        let extent = n as f32 * step;
        let fade = |x: f32, z: f32| {
            let d = Vec2::new(x - cx, z - cz).length() / extent;
            let a = (1.0 - d).clamp(0.0, 1.0);
            let [r, g, b, alpha] = style.grid_color;
            [r, g, b, alpha * a * a]
        };
        for k in -n..=n {
            let o = k as f32 * step;
            for (a, b) in [((cx + o, cz - extent), (cx + o, cz + extent)), ((cx - extent, cz + o), (cx + extent, cz + o))] {
                // Split each line so the fade follows distance along it.
                let segments = 8;
                for s in 0..segments {
                    let t0 = s as f32 / segments as f32;
                    let t1 = (s + 1) as f32 / segments as f32;
                    let p0 = (a.0 + (b.0 - a.0) * t0, a.1 + (b.1 - a.1) * t0);
                    let p1 = (a.0 + (b.0 - a.0) * t1, a.1 + (b.1 - a.1) * t1);
                    out.push(LineVertex { position: [p0.0, center.y, p0.1], color: fade(p0.0, p0.1) });
                    out.push(LineVertex { position: [p1.0, center.y, p1.1], color: fade(p1.0, p1.1) });
                }
            }
        }
    }
    if style.gizmo {
        let len = size_m * 0.15;
        for (axis, color) in [(Vec3::X, [0.95, 0.2, 0.2, 1.0]), (Vec3::Y, [0.2, 0.9, 0.25, 1.0]), (Vec3::Z, [0.25, 0.45, 1.0, 1.0])] {
            out.push(LineVertex { position: [0.0, size_m * 0.002, 0.0], color });
            out.push(LineVertex { position: (axis * len + Vec3::Y * size_m * 0.002).to_array(), color });
        }
    }
}

/// The joint hit by a ray through `ndc`: joints as spheres, bones as capsules (a bone hit
/// picks its child joint). Among joints hit, the one whose centre is closest to the ray wins
/// (clicking on a joint picks it even where a neighbour's sphere overlaps); without a joint
/// hit, the nearest bone.
pub fn pick(camera: &OrbitCamera, ndc: Vec2, aspect: f32, skeleton: &Skeleton, positions: &[Vec3], size_m: f32) -> Option<usize> {
    let (origin, dir) = camera.ray(ndc, aspect);
    let joint_r = size_m * 0.02;
    let bone_r = size_m * 0.015;
    let mut best_joint: Option<(f32, usize)> = None;
    let mut best_bone: Option<(f32, usize)> = None;
    for (i, joint) in skeleton.joints().iter().enumerate() {
        let p = positions[i];
        let t = (p - origin).dot(dir);
        let off_ray = (origin + dir * t - p).length();
        if t > 0.0 && off_ray <= joint_r && best_joint.is_none_or(|(d, _)| off_ray < d) {
            best_joint = Some((off_ray, i));
        }
        if let Some(parent) = joint.parent
            && let Some(t) = ray_segment_hit(origin, dir, positions[parent], p, bone_r)
            && t > 0.0
            && best_bone.is_none_or(|(bt, _)| t < bt)
        {
            best_bone = Some((t, i));
        }
    }
    best_joint.or(best_bone).map(|(_, i)| i)
}

/// Distance along the ray to the closest approach with segment `a`–`b`, if within `radius`.
fn ray_segment_hit(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3, radius: f32) -> Option<f32> {
    let u = b - a;
    let w = origin - a;
    let (uu, ud, uw, dw) = (u.dot(u), u.dot(dir), u.dot(w), dir.dot(w));
    let denom = uu - ud * ud;
    if uu < 1e-12 || denom.abs() < 1e-12 {
        return None;
    }
    let s = ((uw - ud * dw) / denom).clamp(0.0, 1.0);
    let point = a + u * s;
    let t = (point - origin).dot(dir);
    ((origin + dir * t - point).length() <= radius).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::core::{Joint, PositionRule};

    fn chain() -> (Skeleton, Vec<Vec3>) {
        let s = Skeleton::new(
            vec![Joint::new("a", None, Vec3::ZERO), Joint::new("b", Some(0), Vec3::Y), Joint::new("c", Some(1), Vec3::Y)],
            PositionRule::Replace,
        )
        .unwrap();
        (s, vec![Vec3::ZERO, Vec3::Y, Vec3::new(0.0, 2.0, 0.0)])
    }

    #[test]
    fn picking_hits_the_joint_or_bone_under_the_cursor() {
        let (s, pos) = chain();
        let mut cam = OrbitCamera::default();
        cam.set_preset(skelview_draw::ViewPreset::Front);
        cam.frame_bounds(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 2.0, 1.0), 1.0);
        let ndc_of = |p: Vec3| {
            let (px, _) = cam.project(p, 100.0, 100.0).unwrap();
            Vec2::new(px.x / 50.0 - 1.0, 1.0 - px.y / 50.0)
        };
        assert_eq!(pick(&cam, ndc_of(pos[1]), 1.0, &s, &pos, 2.0), Some(1));
        assert_eq!(pick(&cam, ndc_of(Vec3::new(0.0, 1.5, 0.0)), 1.0, &s, &pos, 2.0), Some(2), "middle of bone b→c");
        assert_eq!(pick(&cam, ndc_of(Vec3::new(0.8, 1.5, 0.0)), 1.0, &s, &pos, 2.0), None);
    }

    #[test]
    fn steps_are_round_numbers() {
        assert_eq!(nice_step(0.4), 0.5);
        assert_eq!(nice_step(0.03), 0.02);
        assert_eq!(nice_step(170.0), 200.0);
    }

    #[test]
    fn bones_span_parent_to_child() {
        let (s, _) = chain();
        let pose = GlobalPose {
            world_from_joint: vec![
                glam::Affine3A::IDENTITY,
                glam::Affine3A::from_translation(Vec3::new(1.0, 0.0, 0.0)),
                glam::Affine3A::from_translation(Vec3::new(1.0, 2.0, 0.0)),
            ],
        };
        let mut d = DrawData::default();
        build(&s, &pose, Mat4::IDENTITY, 2.0, &Style::default(), Some(2), &mut d);
        assert_eq!((d.bones.len(), d.joints.len(), d.shadows.len()), (2, 3, 1));
        let m = Mat4::from_cols_array_2d(&d.bones[1].world_from_model);
        assert!((m.transform_point3(Vec3::ZERO) - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-5);
        assert!((m.transform_point3(Vec3::Y) - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-5);
        assert_eq!(d.bones[1].color, Style::default().selected_color);
    }

    /// A transform above the skin (glTF's `Armature` at the origin) gets no joint and no bone;
    /// its child, the skin's root, is drawn without a bone from the transform.
    #[test]
    fn transforms_draw_no_bone_and_no_joint() {
        let mut armature = Joint::new("Armature", None, Vec3::ZERO);
        armature.is_transform = true;
        let joints = vec![armature, Joint::new("hips", Some(0), Vec3::Y), Joint::new("head", Some(1), Vec3::Y)];
        let skeleton = Skeleton::new(joints, PositionRule::Add).unwrap();
        let (mut local, mut global) = (skelview_core::core::LocalPose::default(), GlobalPose::default());
        skelview_core::core::pose::rest_pose(&skeleton, &mut local);
        skelview_core::core::pose::global_pose(&skeleton, &local, &mut global);
        let mut out = DrawData::default();
        build(&skeleton, &global, Mat4::IDENTITY, 2.0, &Style::default(), None, &mut out);
        assert_eq!((out.bones.len(), out.joints.len()), (1, 2), "hips → head only");
    }
}
