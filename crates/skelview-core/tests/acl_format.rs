//! ACL raw clips: a hand-computed fixture, every corpus file, `.acl.zip` equivalence, scale
//! edge cases, and malformed inputs.

use skelview_test_support as support;

use glam::Vec3;
use proptest::prelude::*;
use skelview_core::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose, rest_pose};
use skelview_core::core::{Clip, Skeleton};
use skelview_core::formats::acl::{ParsedAcl, parse_acl, unzip_clip};

fn parse(text: &str) -> ParsedAcl {
    parse_acl(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn err(text: &str) -> String {
    match parse_acl(text.as_bytes()) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn positions(skeleton: &Skeleton, clip: &Clip, frame: usize) -> Vec<Vec3> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    frame_pose(skeleton, clip, frame, &mut local);
    global_pose(skeleton, &local, &mut global);
    (0..skeleton.len()).map(|i| global.position(i)).collect()
}

fn globals(skeleton: &Skeleton, clip: &Clip, frame: usize) -> GlobalPose {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    frame_pose(skeleton, clip, frame, &mut local);
    global_pose(skeleton, &local, &mut global);
    global
}

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() < 1e-5
}

/// root: T (1,0,0), R 90° about Z, S (2,1,1); mid: T (3,0,0), track below; tip: T (1,0,0).
/// Bones are listed child first to exercise the reordering.
const FIXTURE: &str = r#"
version = 5
clip = { name = "fixture", num_samples = 2, sample_rate = 10, is_binary_exact = false }
bones = [
  { name = "tip" parent = "mid" vertex_distance = 1.0 bind_translation = [1, 0, 0] }
  { name = "root", parent = "", bind_rotation = [0 0 0.70710678 0.70710678], bind_translation = [1 0 0], bind_scale = [2 1 1] }
  { name = "mid" parent = "root" bind_translation = [3 0 0] }
]
tracks = [
  { name = "mid"
    rotations = [ [0 0 0 1] [0 0 0.70710678 0.70710678] ]
    translations = [ [3 0 0] [0 2 0] ]
  }
]
"#;

#[test]
fn hand_computed_fixture() {
    let p = parse(FIXTURE);
    let names: Vec<&str> = p.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["root", "mid", "tip"], "parents first");
    assert!(p.warnings.iter().any(|w| w.message.contains("reordered")), "{:?}", p.warnings);
    assert_eq!(p.clip.num_frames(), 2);
    assert!((p.clip.fps() - 10.0).abs() < 1e-9);
    // Rz90 maps (x, y, z) to (-y, x, z); a child's origin is T_parent + R_parent (S_parent ⊙ t_child).
    // Frame 0: root at (1,0,0).
    //   mid = (1,0,0) + Rz90((2,1,1) ⊙ (3,0,0)) = (1,0,0) + Rz90(6,0,0) = (1,0,0) + (0,6,0) = (1,6,0)
    //   tip: in root space M_mid·(1,0,0) = (3,0,0) + I·(1,0,0) = (4,0,0);
    //        (1,0,0) + Rz90((2,1,1) ⊙ (4,0,0)) = (1,0,0) + (0,8,0) = (1,8,0)
    let f0 = positions(&p.skeleton, &p.clip, 0);
    for (got, want) in f0.iter().zip([Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 6.0, 0.0), Vec3::new(1.0, 8.0, 0.0)]) {
        assert!(close(*got, want), "frame 0: {got} vs {want}");
    }
    // Frame 1: mid T = (0,2,0), R = Rz90.
    //   mid = (1,0,0) + Rz90((2,1,1) ⊙ (0,2,0)) = (1,0,0) + Rz90(0,2,0) = (1,0,0) + (-2,0,0) = (-1,0,0)
    //   tip: M_mid·(1,0,0) = (0,2,0) + Rz90(1,0,0) = (0,2,0) + (0,1,0) = (0,3,0);
    //        (1,0,0) + Rz90((2,1,1) ⊙ (0,3,0)) = (1,0,0) + (-3,0,0) = (-2,0,0)
    let f1 = positions(&p.skeleton, &p.clip, 1);
    for (got, want) in f1.iter().zip([Vec3::new(1.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)]) {
        assert!(close(*got, want), "frame 1: {got} vs {want}");
    }
    // The rest pose is the bind pose: mid and tip as in frame 0 (mid's bind equals its sample 0).
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    rest_pose(&p.skeleton, &mut local);
    global_pose(&p.skeleton, &local, &mut global);
    assert!(close(global.position(2), Vec3::new(1.0, 8.0, 0.0)), "{}", global.position(2));
    let tip = &p.skeleton.joints()[2];
    assert!(tip.details.iter().any(|(k, v)| k == "Vertex distance" && v == "1"), "{:?}", tip.details);
    assert!(p.details.iter().any(|(k, v)| k == "Clip name" && v == "fixture"));
    assert!(p.details.iter().any(|(k, v)| k == "ACL version" && v == "5"));
}

fn corpus_file(name: &str) -> Option<Vec<u8>> {
    support::corpus().map(|dir| std::fs::read(dir.join("acl").join(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_corpus_file() {
    let Some(dir) = support::corpus() else { return };
    let files = support::files(&dir.join("acl"), "sjson");
    assert!(files.len() >= 13, "{files:?}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let result = parse_acl(&bytes);
        match name.as_str() {
            "track_list_float3f.acl.sjson" => {
                let e = result.err().expect("track list refused").to_string();
                assert!(
                    e.contains(
                        "this ACL file holds a track list of 4 float3f tracks and no skeleton clip; skelview shows skeleton animation"
                    ),
                    "{e}"
                );
            }
            "no_output_transform_tracks.acl.sjson" => {
                let e = result.err().expect("empty clip refused").to_string();
                assert!(e.contains("empty clip '93_01': no bones"), "{e}");
            }
            _ => {
                let p = result.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(p.clip.num_frames() > 0, "{name}");
                assert_eq!(p.clip.channels_per_frame(), p.skeleton.len() * 10, "{name}");
                let want = if name.starts_with("format_reference") { 2 } else { 44 };
                assert_eq!(p.skeleton.len(), want, "{name}");
                assert!(positions(&p.skeleton, &p.clip, p.clip.num_frames() - 1).iter().all(|v| v.is_finite()), "{name}");
            }
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn reference_file_loads_the_clip_and_ignores_the_track_list() {
    let Some(bytes) = corpus_file("format_reference_acl_repo.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    assert!(p.warnings.iter().any(|w| w.message.contains("the track list is ignored")), "{:?}", p.warnings);
    // Its example tracks hold 2 samples under num_samples = 73: the data decides, with a warning.
    assert!(p.warnings.iter().any(|w| w.message.contains("has 2 rotation samples, clip says num_samples = 73")), "{:?}", p.warnings);
    assert_eq!(p.clip.num_frames(), 2);
    assert!(p.details.iter().any(|(k, v)| k == "Additive base" && v == "A base clip"));
    assert!(p.details.iter().any(|(k, v)| k == "Setting segmenting.ideal_num_samples" && v == "16"), "{:?}", p.details);
    // Its root track moves by (1,0,0) and turns 180° about X in its second sample.
    assert!(close(positions(&p.skeleton, &p.clip, 1)[0], Vec3::new(1.0, 0.0, 0.0)));
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn zip_equals_sjson() {
    let (Some(text), Some(zip)) = (corpus_file("09_02.acl.sjson"), corpus_file("09_02.acl.zip")) else { return };
    let (entry, unzipped) = unzip_clip(&zip).unwrap();
    assert!(entry.ends_with(".acl.sjson"), "{entry}");
    assert_eq!(unzipped, text);
    let (a, b) = (parse_acl(&text).unwrap(), parse_acl(&unzipped).unwrap());
    assert_eq!(a.skeleton, b.skeleton);
    assert_eq!(a.clip.values(), b.clip.values());
    for f in 0..a.clip.num_frames() {
        assert_eq!(positions(&a.skeleton, &a.clip, f), positions(&b.skeleton, &b.clip, f));
    }
}

#[test]
fn zip_errors_are_clear() {
    let e = unzip_clip(b"PK\x03\x04 not really").unwrap_err();
    assert_eq!(e.offset, 0);
    assert!(e.to_string().contains("zip"), "{e}");
}

fn index(p: &ParsedAcl, name: &str) -> usize {
    p.skeleton.find(name).unwrap_or_else(|| panic!("no joint {name}"))
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn zero_scale_collapses_the_children() {
    let Some(bytes) = corpus_file("09_02_with_zero_scale.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    assert!(
        p.warnings.iter().any(|w| w.message.contains("bone 'head' has scale x = 0 at frame 11: its children collapse")),
        "{:?}",
        p.warnings
    );
    let head = index(&p, "head");
    let eye = index(&p, "leftEye");
    // The eye's offset from the head lies in the plane of the head's (scaled) y and z axes
    // when its x scale is 0, and leaves it when the scale is 0.2 (frame 10).
    let off_plane = |frame: usize| {
        let g = globals(&p.skeleton, &p.clip, frame);
        let m = g.world_from_joint[head].matrix3;
        let normal = Vec3::from(m.y_axis).cross(Vec3::from(m.z_axis)).normalize();
        (g.position(eye) - g.position(head)).dot(normal).abs()
    };
    assert!(off_plane(11) < 1e-4, "{}", off_plane(11));
    assert!(off_plane(10) > 1e-2, "{}", off_plane(10));
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn negative_scale_loads_without_clamping() {
    let Some(bytes) = corpus_file("09_02_with_scale.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    let head = index(&p, "head");
    let sx = p.skeleton.joints()[head].first_channel + 7;
    assert_eq!(p.clip.frame(12)[sx], -0.2);
    assert_eq!(p.clip.frame(11)[sx], 0.01);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn rising_scale_changes_bone_length() {
    let Some(bytes) = corpus_file("09_02_with_rising_scale.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    let (root, hip) = (index(&p, "09_02"), index(&p, "hip"));
    let (rc, hc) = (p.skeleton.joints()[root].first_channel, p.skeleton.joints()[hip].first_channel);
    let mut lengths = Vec::new();
    for f in 0..p.clip.num_frames() {
        let pos = positions(&p.skeleton, &p.clip, f);
        let row = p.clip.frame(f);
        let scale = row[rc + 7];
        let t = Vec3::new(row[hc], row[hc + 1], row[hc + 2]);
        let length = (pos[hip] - pos[root]).length();
        // Uniform scale on the root: the hip's offset is scaled by it.
        assert!((length - scale * t.length()).abs() <= 1e-4 * (1.0 + length), "frame {f}: {length} vs {}", scale * t.length());
        lengths.push(length);
    }
    assert!(lengths[2] > 50.0 * lengths[0], "{lengths:?}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn multi_root_has_three_roots() {
    let Some(bytes) = corpus_file("09_02_multi_root.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    assert_eq!(p.skeleton.roots().count(), 3);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn bind_pose_is_the_rest_pose() {
    let Some(bytes) = corpus_file("09_02.acl.sjson") else { return };
    let p = parse_acl(&bytes).unwrap();
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    rest_pose(&p.skeleton, &mut local);
    global_pose(&p.skeleton, &local, &mut global);
    let hip = index(&p, "hip");
    // The hip has no bind translation but its track starts 7.18 units away.
    assert!(close(global.position(hip), Vec3::ZERO), "{}", global.position(hip));
    assert!(positions(&p.skeleton, &p.clip, 0)[hip].length() > 7.0);
    assert_eq!(p.skeleton.rest_values().unwrap().len(), p.clip.channels_per_frame());
}

#[test]
fn malformed_inputs_name_what_was_expected() {
    let head = "version = 1\nclip = { name = \"c\" num_samples = 2 sample_rate = 30 }\nbones = [ { name = \"hip\" parent = \"\" } ]\n";
    let cases: Vec<(String, &str)> = vec![
        ("version 1".into(), "'=' after key 'version'"),
        (format!("{head}tracks = [ {{ name = \"hip"), "closing the string"),
        (format!("{head}tracks = [ {{ name = \"hip\" translations = [ [1 2 nan] [1 2 3] ] }} ]"), "expected a number, found 'nan'"),
        (format!("{head}tracks = [ {{ name = \"hip\" translations = [ [1 2 1e999] [1 2 3] ] }} ]"), "out of range"),
        (format!("{head}tracks = [ {{ name = \"hip\" translations = [ [1 2 1e300] [1 2 3] ] }} ]"), "32-bit float"),
        (format!("{head}tracks = [ {{ name = \"hip\" translations = [ [1 2] [1 2 3] ] }} ]"), "3 numbers in a translation"),
        (format!("{head}tracks = [ {{ name = \"leg\" translations = [ [1 2 3] [1 2 3] ] }} ]"), "track 'leg' names no bone"),
        (format!("{head}tracks = [ {{ name = \"hip\" rotations = [ [0 0 0 0] [0 0 0 1] ] }} ]"), "no direction"),
        (format!("{head}tracks = [ ]"), "empty clip 'c': 1 bones but no tracks"),
        ("version = 0\nclip = { num_samples = 1 sample_rate = 1 } bones = [ { name = \"a\" parent = \"\" } ] tracks = [ { name = \"a\" } ]".into(), "version must be"),
        ("version = 1\nclip = { num_samples = 0 sample_rate = 1 } bones = [] tracks = []".into(), "num_samples = 0"),
        ("version = 1\nclip = { num_samples = 1 sample_rate = 1 } bones = [ { name = \"a\" parent = \"b\" } ] tracks = [ { name = \"a\" } ]".into(), "parent 'b', which is no bone"),
        (
            "version = 1\nclip = { num_samples = 1 sample_rate = 1 } bones = [ { name = \"a\" parent = \"b\" } { name = \"b\" parent = \"a\" } ] tracks = [ { name = \"a\" } ]".into(),
            "parent cycle",
        ),
        ("version = 1\nclip = { num_samples = 1.5 sample_rate = 1 }".into(), "whole number"),
        ("\u{1}\u{2}binary".into(), "expected a key"),
    ];
    for (text, want) in cases {
        let e = err(&text);
        assert!(e.contains(want), "{e}\n  wanted: {want}\n  input: {text}");
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn short_tracks_warn_and_hexadecimal_integers_are_whole_numbers() {
    // One rule with or without a track list: the samples present decide, with a warning, and
    // a shorter track holds its last sample.
    let head = "version = 1\nclip = { name = \"c\" num_samples = 0x3 sample_rate = 30 }\nbones = [ { name = \"hip\" parent = \"\" } ]\n";
    let p = parse(&format!(
        "{head}tracks = [ {{ name = \"hip\" output_index = 0xFFFFFFFF rotations = [ [0 0 0 1] [0 0 0 1] ] translations = [ [1 0 0] ] }} ]"
    ));
    assert!(
        p.warnings.iter().any(|w| w.message.contains("track 'hip' has 2 rotation samples, clip says num_samples = 3")),
        "{:?}",
        p.warnings
    );
    assert_eq!(p.clip.num_frames(), 2);
    assert_eq!(&p.clip.frame(1)[..3], &[1.0, 0.0, 0.0], "the one translation holds");
    // A track list with a hexadecimal output_index reaches the clear 'track list' message.
    let Some(corpus) = support::corpus() else { return };
    let text = std::fs::read_to_string(corpus.join("acl/track_list_float3f.acl.sjson")).unwrap();
    let text = text.replacen("type = \"float3f\"", "type = \"float3f\"\n\t\toutput_index = 0xFFFFFFFF", 1);
    let e = err(&text);
    assert!(e.contains("this ACL file holds a track list of 4 float3f tracks"), "{e}");
    assert!(err(&format!("{head}tracks = [ {{ name = \"hip\" output_index = 0xZZ }} ]")).contains("a whole number"));
}

#[test]
fn unknown_keys_newer_versions_and_hex_floats_are_accepted() {
    let p = parse(
        "version = 7 clip = { name: \"h\", num_samples: 1, sample_rate: 30, is_binary_exact: true, flavour = \"x\" } \
         bones = [ { name = \"a\", parent = \"\", bind_translation = [\"3FF0000000000000\", \"40000000\", 0] } ] \
         tracks = [ { name = \"a\" colour = [1 2 3] } ]",
    );
    let w: Vec<&str> = p.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(w.iter().any(|m| m.contains("newer than 5")), "{w:?}");
    assert!(w.iter().any(|m| m.contains("unknown key 'flavour' in clip")), "{w:?}");
    assert!(w.iter().any(|m| m.contains("unknown key 'colour' in a track")), "{w:?}");
    assert_eq!(&p.clip.frame(0)[..3], &[1.0, 2.0, 0.0]);
}

#[test]
fn off_unit_quaternions_are_normalized_once() {
    let p = parse(
        "version = 1 clip = { num_samples = 2 sample_rate = 30 } bones = [ { name = \"a\" parent = \"\" } ] \
         tracks = [ { name = \"a\" rotations = [ [0 0 0 2] [0 0 0.1 0.9] ] } ]",
    );
    assert_eq!(p.warnings.iter().filter(|w| w.message.contains("normalized")).count(), 1);
    let q = &p.clip.frame(0)[3..7];
    assert_eq!(q, &[0.0, 0.0, 0.0, 1.0]);
    let q = glam::Vec4::from_slice(&p.clip.frame(1)[3..7]);
    assert!((q.length() - 1.0).abs() < 1e-6);
}

fn seed() -> Option<Vec<u8>> {
    corpus_file("76_07.acl.sjson").map(|b| b[..b.len().min(24 << 10)].to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn truncations_never_panic(cut in 0usize..24_576) {
        if let Some(bytes) = seed() {
            let _ = parse_acl(&bytes[..cut.min(bytes.len())]);
        }
        let _ = parse_acl(&FIXTURE.as_bytes()[..cut.min(FIXTURE.len())]);
    }

    #[test]
    fn mutations_never_panic(edits in proptest::collection::vec((0usize..24_576, any::<u8>()), 1..16)) {
        let mut bytes = seed().unwrap_or_else(|| FIXTURE.as_bytes().to_vec());
        for (at, b) in &edits {
            let n = bytes.len();
            bytes[at % n] = *b;
        }
        let _ = parse_acl(&bytes);
        let mut fixture = FIXTURE.as_bytes().to_vec();
        for (at, b) in &edits {
            let n = fixture.len();
            fixture[at % n] = *b;
        }
        let _ = parse_acl(&fixture);
    }

    #[test]
    fn zip_mutations_never_panic(edits in proptest::collection::vec((0usize..62_623, any::<u8>()), 1..8), cut in 0usize..62_623) {
        let Some(zip) = corpus_file("09_02.acl.zip") else { return Ok(()) };
        let _ = unzip_clip(&zip[..cut.min(zip.len())]);
        let mut bytes = zip.clone();
        for (at, b) in &edits {
            let n = bytes.len();
            bytes[at % n] = *b;
        }
        if let Ok((_, text)) = unzip_clip(&bytes) {
            let _ = parse_acl(&text);
        }
    }
}
