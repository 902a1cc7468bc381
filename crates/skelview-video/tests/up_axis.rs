//! Files nobody here wrote, stood up right: the same motion turned upside down (camera space,
//! Y down), lying along Z or X and in other units is detected with its signed up axis and
//! comes out in metres, Y-up, where the original does; a creature wider than tall stands on
//! its legs; a rest pose alone still finds its head.

use std::sync::Arc;

use glam::{Quat, Vec3};
use skelview_core::core::{ChannelKind, Clip, Joint, Motion, Skeleton, UpAxis};
use skelview_core::export::{BvhWriteOptions, write_bvh};
use skelview_core::formats::{self, LoadOptions};

fn load_text(name: &str, text: &[u8]) -> Motion {
    skelview_core::formats::open_bytes(name, Arc::<[u8]>::from(text), &LoadOptions::default()).unwrap()
}

/// `m` turned by `rotation` and scaled by `scale`, written as BVH and read back: a file as
/// another exporter would have written the same take.
fn turned(m: &Motion, rotation: Quat, scale: f32) -> Motion {
    let mut joints = vec![{
        let mut world = Joint::new("world", None, Vec3::ZERO);
        world.pre_rotation = rotation;
        world
    }];
    for j in m.skeleton.joints() {
        let mut j = j.clone();
        j.parent = Some(j.parent.map_or(0, |p| p + 1));
        j.offset *= scale;
        j.tail *= scale;
        joints.push(j);
    }
    let skeleton = Skeleton::new(joints, m.skeleton.position_rule).unwrap();
    let mut values = Vec::with_capacity(m.clip.num_frames() * m.clip.channels_per_frame());
    for f in 0..m.clip.num_frames() {
        let row = m.clip.frame(f);
        for j in m.skeleton.joints() {
            for (k, kind) in j.channels.iter().enumerate() {
                let v = row[j.first_channel + k];
                let is_length = matches!(kind, ChannelKind::TranslateX | ChannelKind::TranslateY | ChannelKind::TranslateZ);
                values.push(if is_length { v * scale } else { v });
            }
        }
    }
    let clip = Clip::new(m.clip.frame_time_secs, m.clip.channels_per_frame(), m.clip.num_frames(), values);
    let moved = Motion { skeleton, clip, source: m.source.clone(), warnings: Vec::new(), capture: None, meshes: None };
    let mut text = Vec::new();
    write_bvh(&moved, &BvhWriteOptions::default(), &mut text).unwrap();
    load_text("turned.bvh", &text)
}

/// Joint positions of frame `f` in metres, Y-up, by joint name.
fn positions(m: &Motion, f: usize) -> Vec<(String, Vec3)> {
    let mut s = skelview_core::core::Sampler::default();
    let p =
        s.positions(m, skelview_core::core::PoseAt::Frame(f), skelview_core::core::Interpolation::Nearest, m.display_from_file()).to_vec();
    m.skeleton.joints().iter().zip(p).map(|(j, p)| (j.name.clone(), p)).collect()
}

fn assert_same_pose(a: &Motion, b: &Motion, what: &str) {
    let height = a.body_size_m();
    for f in [0, a.clip.num_frames() / 2, a.clip.num_frames() - 1] {
        let pa = positions(a, f);
        let pb = positions(b, f);
        let root_a = pa[0].1;
        let root_b = pb.iter().find(|(n, _)| *n == pa[0].0).unwrap().1;
        for (name, p) in &pa {
            let q = pb.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("{what}: {name} missing")).1;
            // Up to where the world joint puts the root: compare relative to the root.
            let (ra, rb) = (*p - root_a, q - root_b);
            assert!((ra - rb).length() < 1e-3 * height, "{what}: frame {f} {name}: {ra} vs {rb}");
        }
    }
}

#[test]
fn the_sample_walk_stands_up_however_it_is_turned_and_scaled() {
    let original = formats::load_sample().unwrap();
    assert_eq!(original.source.up_axis, UpAxis::Y);
    assert_eq!(original.source.up_reason, "head above the feet");
    let half = std::f32::consts::FRAC_PI_2;
    for (rotation, scale, up, unit, what) in [
        // Camera space: +Y down (Kinect, MediaPipe).
        (Quat::from_rotation_x(std::f32::consts::PI), 1.0, UpAxis::NegY, "cm", "Y down"),
        // Z-up in millimetres (a Max export).
        (Quat::from_rotation_x(half), 10.0, UpAxis::Z, "mm", "Z-up mm"),
        (Quat::from_rotation_x(-half), 0.01, UpAxis::NegZ, "m", "-Z up, metres"),
        (Quat::from_rotation_z(-half), 1.0, UpAxis::X, "cm", "X up"),
        (Quat::from_rotation_z(half), 1.0, UpAxis::NegX, "cm", "-X up"),
    ] {
        let m = turned(&original, rotation, scale);
        assert_eq!(m.source.up_axis, up, "{what}");
        assert!(m.source.up_detected && m.source.up_reason == "head above the feet", "{what}");
        assert_eq!(m.source.unit.symbol(), unit, "{what}");
        assert!((m.body_size_m() - original.body_size_m()).abs() < 0.01, "{what}: {} vs {}", m.body_size_m(), original.body_size_m());
        assert_same_pose(&original, &m, what);
    }
}

/// A crab: a body 0.3 m above the floor and eight two-segment legs reaching 0.55 m out and
/// down to the floor; no joint named like a head or a foot. It scuttles sideways along X.
fn crab() -> String {
    let mut text = String::from(
        "HIERARCHY\nROOT carapace\n{\n OFFSET 0 30 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n",
    );
    for k in 0..8 {
        let angle = (k as f32 + 0.5) * std::f32::consts::TAU / 8.0;
        let (x, z) = (angle.cos(), angle.sin());
        text += &format!(
            " JOINT leg{k}_coxa\n {{\n  OFFSET {:.3} 0 {:.3}\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT leg{k}_merus\n  {{\n   OFFSET {:.3} 10 {:.3}\n   CHANNELS 3 Zrotation Xrotation Yrotation\n   End Site\n   {{\n    OFFSET {:.3} -40 {:.3}\n   }}\n  }}\n }}\n",
            x * 15.0,
            z * 15.0,
            x * 25.0,
            z * 25.0,
            x * 15.0,
            z * 15.0
        );
    }
    text += "}\nMOTION\nFrames: 40\nFrame Time: 0.0333333\n";
    for f in 0..40 {
        text += &format!("{} 0 0 0 0 0", f as f32 * 2.0);
        for k in 0..8 {
            // Legs swing a little; the tips stay near the floor.
            let swing = ((f + k * 5) as f32 * 0.4).sin() * 4.0;
            text += &format!(" 0 0 {swing:.3} 0 0 0");
        }
        text += "\n";
    }
    text
}

#[test]
fn a_creature_wider_than_tall_stands_on_its_legs() {
    let crab = load_text("crab.bvh", crab().as_bytes());
    assert_eq!(crab.source.up_axis, UpAxis::Y, "{}", crab.source.up_reason);
    assert_eq!(crab.source.up_reason, "floor plane under the lowest joints");
    // The same crab lying along Z, and upside down: still on its legs.
    let z = turned(&crab, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2), 1.0);
    assert_eq!(z.source.up_axis, UpAxis::Z, "{}", z.source.up_reason);
    let down = turned(&crab, Quat::from_rotation_x(std::f32::consts::PI), 1.0);
    assert_eq!(down.source.up_axis, UpAxis::NegY, "{}", down.source.up_reason);
}

#[test]
fn a_rest_pose_alone_finds_its_head() {
    let text = String::from_utf8_lossy(formats::SAMPLE_BVH).into_owned();
    let header = &text[..text.find("MOTION").unwrap()];
    let rest_only = format!("{header}MOTION\nFrames: 0\nFrame Time: 0.0333333\n");
    let m = load_text("rest.bvh", rest_only.as_bytes());
    assert_eq!(m.clip.num_frames(), 0);
    assert_eq!((m.source.up_axis, m.source.up_reason), (UpAxis::Y, "head above the feet"));
    let flipped = turned(&m, Quat::from_rotation_x(std::f32::consts::PI), 1.0);
    assert_eq!(flipped.source.up_axis, UpAxis::NegY);
}

#[test]
fn every_direction_has_an_exact_right_handed_rotation_to_y_up() {
    for up in UpAxis::ALL {
        let m = skelview_core::core::units::display_transform(1.0, up);
        assert_eq!(m.transform_vector3(up.vector()), Vec3::Y, "{up:?}");
        assert!((m.determinant() - 1.0).abs() < 1e-6, "{up:?} keeps handedness");
        assert_eq!(UpAxis::parse(up.name()), Some(up));
    }
    assert_eq!(UpAxis::parse("+z"), Some(UpAxis::Z));
}

#[test]
fn a_humanoid_of_absurd_size_in_declared_units_is_warned_about() {
    // An X3D export written in centimetres while X3D says metres: 1.6 "m" becomes 160 m.
    let x3d = r#"<X3D><Scene><HAnimHumanoid name='cm' version='2.0'>
      <HAnimJoint containerField='skeleton' name='humanoid_root' center='0 95 0'>
        <HAnimJoint name='skullbase' center='0 160 0'/>
        <HAnimJoint name='l_talocrural' center='10 8 0'/>
        <HAnimJoint name='r_talocrural' center='-10 8 0'/>
      </HAnimJoint>
    </HAnimHumanoid></Scene></X3D>"#;
    let m = load_text("cm.x3d", x3d.as_bytes());
    assert_eq!(m.source.unit.symbol(), "m", "declared units stay the default");
    let w = m.warnings.iter().find(|w| w.message.contains("m tall")).expect("a size warning");
    assert_eq!(w.message, "body 152.00 m tall with the declared m: is it in cm? View > File units changes it");
    assert_eq!((w.line, w.col), (1, 1));
    // The sample (detected cm, 1.6 m) gets no such warning.
    assert!(formats::load_sample().unwrap().warnings.is_empty());
}

/// Pixels per side of [`render_rows`]' pictures (the figure fills 0.6 of the height).
const SIZE: u32 = 256;

/// Renders `m` at its first frame, front view, and returns how many pixels differ from the
/// background, and the rows (top, bottom) the drawing spans; `None` without an adapter.
fn render_rows(m: &Motion) -> Option<(usize, u32, u32)> {
    use skelview_render::offscreen;
    use skelview_scene::{BACKGROUND, FrameSpec, Layout, Scene, Style, ViewPreset, framing};
    use skelview_video::Offscreen;
    let gpu = match offscreen::headless() {
        Ok(g) => g,
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => panic!("CI needs a graphics adapter: {e}"),
        Err(e) => {
            eprintln!("skipping: {e} (install mesa-vulkan-drivers)");
            return None;
        }
    };
    let mut scene = Scene::arranged([Arc::new(m.clone())], Layout::Overlay, ViewPreset::Front, false);
    let style = Style { grid: false, gizmo: false, shadow: false, ..Style::default() };
    let spec = FrameSpec::at(0.0, style);
    let camera = framing(scene.bounds_over_times(&spec, [0.0]), ViewPreset::Front, 1.0, false);
    let rgba = Offscreen::new(&gpu, (SIZE, SIZE), 1).picture(&gpu, &mut scene, &spec, &camera).unwrap();
    let enc = |c: f64| ((if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }) * 255.0).round() as i32;
    let bg = [enc(BACKGROUND[0]), enc(BACKGROUND[1]), enc(BACKGROUND[2])];
    let (mut drawn, mut top, mut bottom) = (0, u32::MAX, 0);
    for (k, px) in rgba.chunks(4).enumerate() {
        if (0..3).any(|c| (i32::from(px[c]) - bg[c]).abs() > 24) {
            drawn += 1;
            top = top.min(k as u32 / SIZE);
            bottom = bottom.max(k as u32 / SIZE);
        }
    }
    Some((drawn, top, bottom))
}

#[test]
fn turned_files_and_the_crab_render_upright_and_not_blank() {
    let original = formats::load_sample().unwrap();
    let Some((drawn, top, bottom)) = render_rows(&original) else { return };
    assert!(drawn > 200, "the sample draws: {drawn}");
    let tall = bottom - top;
    for (rotation, what) in
        [(Quat::from_rotation_x(std::f32::consts::PI), "Y down"), (Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2), "X up")]
    {
        let m = turned(&original, rotation, 1.0);
        let (d, t, b) = render_rows(&m).unwrap();
        assert!(d > 200, "{what}: {d} pixels");
        // Upright: the figure spans about as many rows as the original, not a lying width.
        assert!((b - t).abs_diff(tall) <= tall / 5, "{what}: rows {t}..{b} against {top}..{bottom}");
    }
    let crab = load_text("crab.bvh", crab().as_bytes());
    let (d, t, b) = render_rows(&crab).unwrap();
    assert!(d > 60 && b - t < SIZE * 5 / 8, "the crab draws, lower than it is wide: {d} pixels, rows {t}..{b}");
}
