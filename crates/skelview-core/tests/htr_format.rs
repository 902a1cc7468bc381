//! HTR/GTR: global positions worked out by hand from the spec's `M = T·R0·Ri·S`, the real
//! files of the corpus, and robustness against truncated and mutated copies.

use skelview_test_support as support;

use std::sync::Arc;

use glam::Vec3;
use proptest::prelude::*;
use skelview_core::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose, rest_pose};
use skelview_core::core::{LengthUnit, Motion, UpAxis};
use skelview_core::formats::{self, LoadError, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn load(name: &str, text: &str) -> Result<Motion, LoadError> {
    let source = Source::Memory { name: name.into(), bytes: Arc::from(text.as_bytes()) };
    formats::load(&LoadRequest::single(&skelview_core::formats::htr::Htr, source), &LoadOptions::default(), &Sequential, &mut Quiet)
}

fn positions(m: &Motion, frame: Option<usize>) -> Vec<Vec3> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    match frame {
        Some(f) => frame_pose(&m.skeleton, &m.clip, f, &mut local),
        None => rest_pose(&m.skeleton, &mut local),
    }
    global_pose(&m.skeleton, &local, &mut global);
    (0..m.skeleton.len()).map(|i| global.position(i)).collect()
}

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() < 1e-4
}

const TWO_SEGMENTS: &str = "\
# two segments, worked by hand
[Header]
FileType htr
DataType HTRS
FileVersion 1
NumSegments 2
NumFrames 2
DataFrameRate 10
EulerRotationOrder ZYX
CalibrationUnits cm
RotationUnits Degrees
GlobalAxisofGravity Y
BoneLengthAxis Y
ScaleFactor 1.0
[SegmentNames&Hierarchy]
hip\tGLOBAL
leg\thip
[BasePosition]
hip\t1\t2\t3\t0\t0\t90\t10
leg\t0\t10\t0\t0\t0\t0\t5
[hip]
0\t0\t0\t0\t0\t0\t0\t1
1\t1\t0\t0\t90\t90\t0\t2
[leg]
0\t0\t0\t0\t0\t0\t0\t1
1\t0\t0\t0\t0\t0\t0\t1
[EndOfFile]
";

#[test]
fn two_segments_by_hand() {
    let m = load("two.htr", TWO_SEGMENTS).unwrap();
    assert_eq!(m.source.format, skelview_core::formats::htr::FORMAT);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["hip", "leg", "leg/End"]);
    assert_eq!(m.source.unit, LengthUnit::Centimetre);
    assert!(!m.source.unit_detected);
    assert_eq!(m.source.up_axis, UpAxis::Y);
    assert_eq!(m.clip.num_frames(), 2);
    assert!((m.clip.frame_time_secs - 0.1).abs() < 1e-12);

    // Frame 0: hip at its base (1,2,3) turned by R0 = Rz(90°), which maps (x,y,z) to (−y,x,z).
    // leg = hip + Rz90·(0,10,0) = (1,2,3) + (−10,0,0) = (−9,2,3).
    // leg/End = leg + Rz90·(0,5,0) = (−9,2,3) + (−5,0,0) = (−14,2,3).
    let p = positions(&m, Some(0));
    assert!(near(p[0], Vec3::new(1.0, 2.0, 3.0)), "{p:?}");
    assert!(near(p[1], Vec3::new(-9.0, 2.0, 3.0)), "{p:?}");
    assert!(near(p[2], Vec3::new(-14.0, 2.0, 3.0)), "{p:?}");
    // The base position is the rest pose.
    assert_eq!(positions(&m, None), p);

    // Frame 1: hip translation (1,2,3) + (1,0,0) = (2,2,3).
    // Ri in ZYX order = Rz(0)·Ry(90)·Rx(90); S scales Y (the bone axis) by 2.
    // leg = hip + R0·Ri·S·(0,10,0):  S → (0,20,0);  Rx90 (y→z) → (0,0,20);
    //       Ry90 ((x,y,z) → (z,y,−x)) → (20,0,0);  Rz90 → (0,20,0);  leg = (2,22,3).
    // (Composed the other way, Rx·Ry, the same steps give (0,0,20): the order matters.)
    // leg/End = hip + R0·Ri·S·((0,10,0) + (0,5,0)) = hip + (0,30,0) = (2,32,3).
    let p = positions(&m, Some(1));
    assert!(near(p[0], Vec3::new(2.0, 2.0, 3.0)), "{p:?}");
    assert!(near(p[1], Vec3::new(2.0, 22.0, 3.0)), "{p:?}");
    assert!(near(p[2], Vec3::new(2.0, 32.0, 3.0)), "{p:?}");
}

#[test]
fn rotation_first_data_type_rotates_the_translation() {
    // HRTS: M = R0·Ri·T·S. With R0 = Rz90 and no frame rotation, the base translation
    // (1,2,3) lands at Rz90·(1,2,3) = (−2,1,3); frame 1 adds (1,0,0) before rotating:
    // Rz90·(2,2,3) = (−2,2,3).
    let text = TWO_SEGMENTS.replace("DataType HTRS", "DataType HRTS").replace("1\t1\t0\t0\t90\t90\t0\t2", "1\t1\t0\t0\t0\t0\t0\t1");
    let m = load("rt.htr", &text).unwrap();
    assert!(near(positions(&m, Some(0))[0], Vec3::new(-2.0, 1.0, 3.0)));
    assert!(near(positions(&m, Some(1))[0], Vec3::new(-2.0, 2.0, 3.0)));
    assert!(near(positions(&m, None)[0], Vec3::new(-2.0, 1.0, 3.0)));
}

#[test]
fn gtr_segments_are_all_global() {
    let text = TWO_SEGMENTS.replace("FileType htr", "FileType gtr").replace("DataType HTRS", "DataType GTRS");
    let m = load("g.gtr", &text).unwrap();
    assert_eq!(m.skeleton.roots().count(), 2);
    // leg is now at its own base translation (0,10,0), not hung off the hip.
    assert!(near(positions(&m, Some(0))[1], Vec3::new(0.0, 10.0, 0.0)));
}

#[test]
fn keywords_and_sections_are_case_insensitive_and_parents_may_follow_children() {
    let text = TWO_SEGMENTS
        .replace("[Header]", "[HEADER]")
        .replace("EulerRotationOrder", "EULERROTATIONORDER")
        .replace("hip\tGLOBAL\nleg\thip", "leg\thip\nhip\tGLOBAL");
    let m = load("c.htr", &text).unwrap();
    assert_eq!(m.skeleton.joints()[0].name, "hip");
    assert!(near(positions(&m, Some(1))[1], Vec3::new(2.0, 22.0, 3.0)));
}

#[test]
fn zero_bone_scale_warns_and_keeps_the_skeleton() {
    let text = TWO_SEGMENTS.replace("1\t1\t0\t0\t90\t90\t0\t2", "1\t1\t0\t0\t0\t0\t0\t0");
    let m = load("z.htr", &text).unwrap();
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert!(m.warnings[0].message.contains("BoneScaleFactor is 0") && m.warnings[0].message.contains("treated as 1"));
    // With S = 1: leg = (2,2,3) + Rz90·(0,10,0) = (−8,2,3).
    assert!(near(positions(&m, Some(1))[1], Vec3::new(-8.0, 2.0, 3.0)));
}

#[test]
fn truncated_file_warns_and_keeps_the_complete_frames() {
    let cut = TWO_SEGMENTS.find("1\t0\t0\t0\t0\t0\t0\t1\n[EndOfFile]").unwrap();
    let m = load("t.htr", &TWO_SEGMENTS[..cut]).unwrap();
    assert_eq!(m.clip.num_frames(), 1);
    let text: Vec<String> = m.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(text.iter().any(|w| w.contains("without [EndOfFile]")), "{text:?}");
    assert!(text.iter().any(|w| w.contains("NumFrames says 2")), "{text:?}");
}

fn error(text: &str) -> String {
    match load("bad.htr", text) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("loaded:\n{text}"),
    }
}

#[test]
fn bad_input_names_place_and_expectation() {
    let e = error(&TWO_SEGMENTS.replace("leg\thip\n", "leg\tknee\n"));
    assert!(e.starts_with("bad.htr:17:5:") && e.contains("parent 'knee'"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("0\t0\t0\t0\t0\t0\t0\t1\n1\t1", "0\t0\t0\tnan\t0\t0\t0\t1\n1\t1"));
    assert!(e.contains("bad.htr:22:7:") && e.contains("expected a number"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("1\t1\t0\t0\t90\t90\t0\t2", "1\t1\t0\t0\t90\t90\t0"));
    assert!(e.contains("expected 8 values"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("EulerRotationOrder ZYX", "EulerRotationOrder ZZX"));
    assert!(e.contains("bad.htr:9:20:") && e.contains("X, Y and Z once each"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("leg\t0\t10\t0\t0\t0\t0\t5\n", ""));
    assert!(e.contains("'leg' has no [BasePosition]"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("hip\tGLOBAL", "hip\tleg"));
    assert!(e.contains("its own ancestor"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("DataType HTRS", "DataType HTQS"));
    assert!(e.contains("expected a data type such as HTRS"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("FileType htr", "FileType bvh"));
    assert!(e.contains("FileType htr or gtr"), "{e}");
    let e = error("HIERARCHY\n");
    assert!(e.contains("expected [Header]"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("DataFrameRate 10", "DataFrameRate 1e999"));
    assert!(e.contains("expected a frame rate"), "{e}");
    // A finite number beyond f32 would become infinity and the pose NaN: refused where it is.
    let e = error(&TWO_SEGMENTS.replace("1\t1\t0\t0\t90\t90\t0\t2", "1\t1\t6.6e116\t0\t90\t90\t0\t2"));
    assert!(e.starts_with("bad.htr:23:5:") && e.contains("'6.6e116' does not fit a 32-bit float"), "{e}");
    let e = error(&TWO_SEGMENTS.replace("leg\t0\t10\t0", "leg\t0\t1e39\t0"));
    assert!(e.contains("bad.htr:20:7:") && e.contains("does not fit a 32-bit float"), "{e}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn corpus_files_load_upright_with_their_declared_units() {
    let Some(dir) = support::corpus() else { return };
    let m = formats::load_paths(&[dir.join("htr/MACFileLib_ExampleFile_89seg.htr")]).unwrap().remove(0);
    assert_eq!(m.skeleton.joints().iter().filter(|j| !j.is_end_site).count(), 89);
    assert_eq!(m.clip.num_frames(), 81);
    assert_eq!(m.source.unit, LengthUnit::Millimetre);
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // Upright: the top of the spine is above both feet along +Y in every frame.
    let find = |n: &str| m.skeleton.find(n).unwrap_or_else(|| panic!("no {n}"));
    let (head, l_toe, r_toe) = (find("spine8"), find("L_toe"), find("R_toe"));
    for f in [0, 40, 80] {
        let p = positions(&m, Some(f));
        assert!(p[head].y > p[l_toe].y + 100.0 && p[head].y > p[r_toe].y + 100.0, "frame {f}");
    }

    let m = formats::load_paths(&[dir.join("htr/maya_exporter_HTR-Result_tail7.htr")]).unwrap().remove(0);
    assert_eq!(m.skeleton.len(), 8);
    assert_eq!(m.clip.num_frames(), 48);
    assert!(m.warnings.iter().any(|w| w.message.contains("BoneScaleFactor is 0")));
    // BoneLengthAxis X: the end marker sits 1 mm along tail7's X axis.
    let end = m.skeleton.find("tail7/End").unwrap();
    assert_eq!(m.skeleton.joints()[end].offset, Vec3::X);
    // Not collapsed: the tail keeps its length (sum of base offsets, ~62.5 mm).
    let p = positions(&m, Some(24));
    assert!((p[end] - p[0]).length() > 30.0, "{:?}", p);
}

fn seeds() -> Vec<Vec<u8>> {
    let mut v = vec![TWO_SEGMENTS.as_bytes().to_vec()];
    if let Some(dir) = support::corpus() {
        v.push(std::fs::read(dir.join("htr/maya_exporter_HTR-Result_tail7.htr")).unwrap());
        let big = std::fs::read(dir.join("htr/MACFileLib_ExampleFile_89seg.htr")).unwrap();
        v.push(big[..big.len().min(48 << 10)].to_vec());
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn truncated_and_mutated_copies_never_panic(seed in 0usize..3, cut in 0.0f64..1.0, edits in prop::collection::vec((0.0f64..1.0, any::<u8>()), 0..8)) {
        let seeds = seeds();
        let mut bytes = seeds[seed % seeds.len()].clone();
        const INTERESTING: &[u8] = b"[]#-.eE0123456789 \n\t\rGLOBALnN\x00\xff";
        for (pos, b) in edits {
            if bytes.is_empty() { break; }
            let i = ((bytes.len() - 1) as f64 * pos) as usize;
            bytes[i] = if b < 128 { INTERESTING[b as usize % INTERESTING.len()] } else { b };
        }
        let keep = ((bytes.len() as f64 * cut) as usize).max(1);
        bytes.truncate(keep);
        let source = Source::Memory { name: "fuzz.htr".into(), bytes: Arc::from(bytes) };
        let _ = formats::load(&LoadRequest::single(&skelview_core::formats::htr::Htr, source), &LoadOptions::default(), &Sequential, &mut Quiet);
    }
}
