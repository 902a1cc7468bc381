//! The inspector's readout of one joint: channel values, names, limits and transforms.

use skelview_core::core::readout::{JointReadout, global_readout};
use skelview_core::core::{Interpolation, PoseAt, Sampler};
use skelview_core::formats::{self, LoadOptions};

fn sample() -> skelview_core::core::Motion {
    skelview_core::formats::open_bytes("walk01.bvh", formats::SAMPLE_BVH, &LoadOptions::default()).unwrap()
}

#[test]
fn a_joint_at_a_frame_in_file_units_with_its_euler_angles() {
    let m = sample();
    let head = m.skeleton.find("Head").unwrap();
    let j = &m.skeleton.joints()[head];
    let r = JointReadout::of(&m, head, 3).unwrap();
    assert_eq!(r.frame, 3);
    let names: Vec<_> = r.channels.iter().map(|c| c.name).collect();
    assert_eq!(names, ["Zrotation", "Xrotation", "Yrotation"]);
    let row = &m.clip.frame(3)[j.first_channel..j.first_channel + 3];
    assert_eq!(r.channels.iter().map(|c| c.value).collect::<Vec<_>>(), row);
    let (order, e) = r.euler_deg.clone().unwrap();
    assert_eq!(order, "ZXY");
    for (deg, rad) in e.iter().zip(row) {
        assert!((deg.to_radians() - rad).abs() < 1e-3, "{e:?} vs {row:?}");
    }
    assert_eq!(r.local.translation, j.offset, "rotation channels only: the offset is the translation");
    // Past the end: the last frame.
    assert_eq!(JointReadout::of(&m, head, usize::MAX).unwrap().frame, m.clip.num_frames() - 1);
    assert!(JointReadout::of(&m, m.skeleton.len(), 0).is_none());
}

#[test]
fn the_global_rotation_and_bone_length_come_from_the_pose() {
    let m = sample();
    let mut s = Sampler::default();
    s.pose(&m.skeleton, &m.clip, PoseAt::Frame(0), Interpolation::Nearest);
    let neck = m.skeleton.find("Neck").unwrap();
    let (rotation, length) = global_readout(&m, &s.global, neck).unwrap();
    assert!(rotation.is_normalized());
    let offset = m.skeleton.joints()[neck].offset.length();
    assert!((length.unwrap() - offset).abs() < 1e-3 * offset.max(1.0), "{length:?} vs {offset}");
    assert_eq!(global_readout(&m, &s.global, 0).unwrap().1, None, "the root has no bone");
}
