//! No writer emits NaN or infinity: a motion whose values are not finite numbers is refused
//! with a message, and nothing is written.

use glam::Vec3;
use skelview_core::core::{ChannelKind, Clip, Joint, Motion, PositionRule, Skeleton};
use skelview_core::export::{BvhWriteOptions, gltf_writer, write_bvh};
use skelview_core::formats::finish::{Parsed, motion};

fn with_offset(offset: Vec3) -> Motion {
    let mut root = Joint::new("root", None, Vec3::ZERO);
    root.channels = vec![ChannelKind::RotateZ];
    let tip = Joint::new("tip", Some(0), offset);
    let skeleton = Skeleton::new(vec![root, tip], PositionRule::Replace).unwrap();
    motion(
        skelview_core::formats::bvh::FORMAT,
        vec!["x.bvh".into()],
        Parsed::new(skeleton, Clip::new(0.1, 1, 2, vec![0.0, 0.5]), "rad"),
        vec![],
    )
}

#[test]
fn the_bvh_writer_refuses_a_value_that_is_not_finite() {
    let mut out = Vec::new();
    write_bvh(&with_offset(Vec3::Y), &BvhWriteOptions::default(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    let e = write_bvh(&with_offset(Vec3::new(0.0, f32::INFINITY, 0.0)), &BvhWriteOptions::default(), &mut Vec::new()).unwrap_err();
    assert!(e.to_string().contains("not a finite number"), "{e}");
}

#[test]
fn the_gltf_writer_refuses_a_value_that_is_not_finite() {
    let good = with_offset(Vec3::Y);
    assert!(gltf_writer::document(&[gltf_writer::Animation { name: "t".into(), motion: &good }]).is_ok());
    let bad = with_offset(Vec3::new(f32::NAN, 0.0, 0.0));
    let e = gltf_writer::document(&[gltf_writer::Animation { name: "t".into(), motion: &bad }]).unwrap_err();
    assert!(e.count > 0 && e.to_string().contains("nothing was written"), "{e}");
}
