//! BVH fixtures written here, with the expected numbers worked out by hand.

use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::core::{Motion, PositionRule};
use skelview_core::formats::{self, LoadError, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn load_with(text: &[u8], rule: PositionRule) -> Result<Motion, LoadError> {
    let request = LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::Memory { name: "t.bvh".into(), bytes: text.into() });
    let mut options = LoadOptions::default();
    options.format.set("bvh.positions", rule.name()).unwrap();
    formats::load(&request, &options, &Sequential, &mut Quiet)
}

fn load(text: &str) -> Motion {
    load_with(text.as_bytes(), PositionRule::Replace).unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &[u8]) -> String {
    load_with(text, PositionRule::Replace).expect_err("should fail").to_string()
}

fn positions(m: &Motion, frame: usize) -> Vec<[f32; 3]> {
    let (mut l, mut g) = (LocalPose::default(), GlobalPose::default());
    pose::frame_pose(&m.skeleton, &m.clip, frame, &mut l);
    pose::global_pose(&m.skeleton, &l, &mut g);
    (0..m.skeleton.len()).map(|i| g.position(i).to_array()).collect()
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() < 1e-4)
}

const TWO_JOINTS: &str = "HIERARCHY
ROOT Hips
{
  OFFSET 1 2 3
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Left Up Leg
  {
    OFFSET 0 -10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 -5 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.0083333
0 0 0 0 0 0 0 0 0
10 20 30 90 0 0 0 90 0
";

#[test]
fn rotations_compose_in_listed_order_and_positions_replace_offsets() {
    let m = load(TWO_JOINTS);
    assert_eq!(m.clip.frame_time_secs, 0.0083333);
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["Hips", "Left Up Leg", "Left Up Leg/EndSite"]);
    // Frame 0: position channels 0 replace the OFFSET (1 2 3): hips at the origin.
    let p = positions(&m, 0);
    assert!(close(p[0], [0.0, 0.0, 0.0]) && close(p[1], [0.0, -10.0, 0.0]) && close(p[2], [0.0, -15.0, 0.0]), "{p:?}");
    // Frame 1: hips at (10,20,30), Rz(90°) maps the leg's (0,-10,0) to (10,0,0).
    // The knee joint's own Xrotation 90° turns its end site (0,-5,0) about X to (0,0,-5),
    // then the hips' Rz(90) leaves Z alone: end at (20,20,25).
    let p = positions(&m, 1);
    assert!(close(p[0], [10.0, 20.0, 30.0]), "{p:?}");
    assert!(close(p[1], [20.0, 20.0, 30.0]), "{p:?}");
    assert!(close(p[2], [20.0, 20.0, 25.0]), "{p:?}");
}

#[test]
fn add_rule_sums_channels_and_offsets() {
    let m = load_with(TWO_JOINTS.as_bytes(), PositionRule::Add).unwrap();
    assert!(close(positions(&m, 0)[0], [1.0, 2.0, 3.0]));
    assert!(close(positions(&m, 1)[0], [11.0, 22.0, 33.0]));
}

#[test]
fn tolerates_what_real_exporters_write() {
    // CRLF, tabs, blank lines (also after MOTION), several roots, a root with only an End
    // Site, ':' '.' '-' in names, scientific notation, Latin-1 in a name, no final newline,
    // `Frames:` glued to a tab, braces on the name line.
    let text = b"HIERARCHY\r\n\r\nROOT mixamorig:Hips.001 {\r\n\tOFFSET\t0\t0\t0\r\n\tCHANNELS 3 Xposition Yposition Zposition\r\n\tJOINT J\xfcrgen-Arm\r\n\t{\r\n\t\tOFFSET 1e1 0 0\r\n\t\tCHANNELS 1 Yrotation\r\n\t\tEnd Site\r\n\t\t{\r\n\t\t\tOFFSET 1 0 0\r\n\t\t}\r\n\t}\r\n}\r\nROOT Cup\r\n{\r\n\tOFFSET 0 0 0\r\n\tCHANNELS 3 Xposition Yposition Zposition\r\n\tEnd Site\r\n\t{\r\n\t\tOFFSET 0 1 0\r\n\t}\r\n}\r\nMOTION\r\n\r\nFrames:\t2\r\nFrame Time:\t0.04\r\n\r\n1 2 3 1.5E+01 4 5 6\r\n\r\n-1 -2 -3 -9e-1 0 0 0";
    let m = load_with(text, PositionRule::Replace).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["mixamorig:Hips.001", "Jürgen-Arm", "Jürgen-Arm/EndSite", "Cup", "Cup/EndSite"]);
    assert_eq!(m.skeleton.roots().count(), 2);
    assert_eq!(m.clip.num_frames(), 2);
    assert!((m.clip.frame(0)[3] - 15f32.to_radians()).abs() < 1e-6);
    assert!(close(positions(&m, 1)[4], [0.0, 1.0, 0.0]));
}

#[test]
fn frame_count_mismatches_and_zero_frame_time_warn() {
    let header = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n}\nMOTION\n";
    let m = load(&format!("{header}Frames: 5\nFrame Time: 0\n1\n2\n"));
    assert_eq!(m.clip.num_frames(), 2);
    assert!((m.clip.fps() - 30.0).abs() < 1e-9);
    let msgs: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    assert!(msgs.iter().any(|w| w.starts_with("t.bvh:9:1: warning: Frame Time is 0")), "{msgs:?}");
    assert!(msgs.iter().any(|w| w.starts_with("t.bvh:8:1: warning: Frames: says 5 but the file has 2")), "{msgs:?}");
    let m = load(&format!("{header}Frames: 1\nFrame Time: 0.1\n1\n2\n3\n"));
    assert_eq!(m.clip.num_frames(), 3);
    // A count far beyond what the file could hold must not allocate for it.
    let m = load(&format!("{header}Frames: 999999999999\nFrame Time: 0.1\n1\n"));
    assert_eq!(m.clip.num_frames(), 1);
    // A truncated last row is dropped with a warning.
    let m = load("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Yposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1 2\n3");
    assert_eq!(m.clip.num_frames(), 1);
    assert!(m.warnings.iter().any(|w| w.line == 11 && w.message.contains("incomplete")), "{:?}", m.warnings);
}

#[test]
fn unknown_keywords_inside_a_joint_warn() {
    let m = load("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nSCALE 1 1 1\nCHANNELS 1 Xposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1\n");
    assert_eq!(m.warnings.len(), 1);
    assert_eq!((m.warnings[0].line, m.warnings[0].col), (5, 1));
}

#[test]
fn errors_name_file_line_column_and_what_was_expected() {
    let head = "HIERARCHY\nROOT A\n{\n  OFFSET 0 0 0\n  CHANNELS 2 Xposition Yposition\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n";
    let cases: [(String, &str); 9] = [
        (format!("{head}1 2\n3\n"), "t.bvh:11:2: expected 2 values in this motion row, found 1"),
        (format!("{head}1 2 3\n"), "t.bvh:10:5: expected end of row after 2 values, found '3'"),
        (format!("{head}1 nanx\n"), "t.bvh:10:3: expected a number, found 'nanx'"),
        (format!("{head}1 1e99\n"), "t.bvh:10:3: number out of range: '1e99'"),
        (format!("{head}1 2x\n"), "t.bvh:10:3: expected a number, found '2x'"),
        ("HIERARCHY\nROOT A\n{\n  OFFSET 0 zero 0\n".into(), "t.bvh:4:12: expected the OFFSET y value, found 'zero'"),
        ("HIERARCHY\nROOT A\n{\n  CHANNELS 2 Xposition Wrotation\n".into(), "t.bvh:4:24: expected a channel name"),
        ("HIERARCHY\nROOT A\n{\n  CHANNELS 99999999999 Xposition\n".into(), "t.bvh:4:12: expected a channel count from 0 to 16"),
        ("HIERARCHY\nROOT A\n{\n  OFFSET 0 0 0\n".into(), "t.bvh:5:1: unexpected end of file: expected '}' closing 'A'"),
    ];
    for (text, expected) in cases {
        let e = error(text.as_bytes());
        assert!(e.starts_with(expected), "got: {e}\nwanted: {expected}");
    }
    assert!(error(b"\x00\x01garbage").contains("expected HIERARCHY"));
    assert!(error(b"").starts_with("t.bvh:1:1: unexpected end of file"));
    assert!(
        error(b"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: many\n")
            .starts_with("t.bvh:7:9: expected 'Frames:' and the frame count, found 'many'")
    );
}

/// `text` written to a file and loaded from it block by block on `threads` threads.
fn load_streamed(text: &str, threads: usize) -> skelview_core::core::Motion {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("streamed.bvh");
    std::fs::write(&path, text).unwrap();
    let request = LoadRequest::single(&skelview_core::formats::bvh::Bvh, Source::File(path));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| formats::load(&request, &LoadOptions::default(), &skelview_core::formats::Rayon, &mut Quiet)).unwrap()
}

#[test]
fn streaming_reads_match_in_memory_parsing_across_block_boundaries() {
    // Big enough to span several 4 MiB blocks and the parallel split.
    let mut text = String::from(
        "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Zrotation Yposition\n}\nMOTION\nFrames: 400000\nFrame Time: 0.01\n",
    );
    for i in 0..400_000 {
        text.push_str(&format!("{}.25 -{} {}e-2\n", i % 5000, i % 360, i % 97));
    }
    let from_file = load_streamed(&text, 3);
    let in_memory = load(&text);
    assert_eq!(from_file.clip, in_memory.clip);
    assert_eq!(from_file.clip.num_frames(), 400_000);
    assert_eq!(from_file.clip.frame(399_999)[0], 4999.25);
    assert!(from_file.warnings.is_empty());
}

#[test]
fn blank_lines_and_an_under_declared_count_across_parallel_blocks() {
    // Each part of a block gets room for as many rows as it has lines: blank lines leave gaps
    // that must close, and a file with far more rows than declared must grow the buffer.
    let mut text =
        String::from("HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Zrotation\n}\nMOTION\nFrames: 1000\nFrame Time: 0.01\n");
    let rows = 500_000;
    for i in 0..rows {
        text.push_str(&format!("{i} {}.5{}", i % 90, if i % 3 == 0 { "\r\n" } else { "\n" }));
        if i % 7919 == 0 {
            text.push_str("\n  \t\n");
        }
    }
    text.push_str("17 4"); // a last row without its newline
    let from_file = load_streamed(&text, 2);
    assert_eq!(from_file.clip.num_frames(), rows + 1);
    assert!((0..rows).step_by(997).all(|f| from_file.clip.frame(f)[0] == f as f32), "rows in order, none lost or doubled");
    assert_eq!(from_file.clip.frame(rows)[0], 17.0);
    assert_eq!(from_file.clip, load(&text).clip, "the same as one sequential parse in memory");
    assert!(from_file.warnings.iter().any(|w| w.to_string().contains("Frames: says 1000")), "{:?}", from_file.warnings);
}

#[test]
fn huge_hierarchies_load_in_linear_time() {
    // 200 000 nested joints with end sites: quadratic name checks would take minutes.
    let mut text = String::from("HIERARCHY\n");
    let n = 200_000;
    for i in 0..n {
        text.push_str(if i == 0 { "ROOT j0\n{\nOFFSET 0 1 0\n" } else { "" });
        if i > 0 {
            text.push_str(&format!("JOINT j{i}\n{{\nOFFSET 0 1 0\n"));
        }
    }
    text.push_str("End Site\n{\nOFFSET 0 1 0\n}\n");
    text.push_str(&"}\n".repeat(n));
    text.push_str("MOTION\nFrames: 1\nFrame Time: 0.1\n\n");
    let m = load(&text);
    assert_eq!(m.skeleton.len(), n + 1);
}

#[test]
fn missing_values_load_held_and_marked() {
    // Kinect-style rows with nan/inf where tracking was lost.
    let text = "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n JOINT b\n {\n  OFFSET 0 10 0\n  CHANNELS 1 Zrotation\n  End Site\n  {\n   OFFSET 0 10 0\n  }\n }\n}\nMOTION\nFrames: 5\nFrame Time: 0.1\n0 0 0 0\n1 0 0 nan\n2 NaN 0 -nan\n3 0 0 inf\n4 0 0 90\n";
    let m = skelview_core::formats::open_bytes("nan.bvh", text.as_bytes(), &LoadOptions::default()).unwrap();
    assert_eq!(m.warnings.len(), 1, "{:?}", m.warnings);
    assert_eq!(
        m.warnings[0].to_string(),
        "nan.bvh:20:7: warning: 4 missing values (nan/inf: tracking lost?) on 3 frames; each is held from the last valid frame and marked"
    );
    // Held for drawing: Zrotation keeps frame 0's 0 through frames 1-3, a's Y keeps 0.
    assert!((0..5).all(|f| m.clip.frame(f).iter().all(|v| v.is_finite())));
    assert_eq!((m.clip.frame(2)[1], m.clip.frame(3)[3]), (0.0, 0.0));
    assert!(m.clip.is_missing(2, 1) && m.clip.is_missing(3, 3) && !m.clip.is_missing(4, 3));
    assert_eq!(m.clip.missing_count(), 4);
    // Positions that rest on a missing value are empty fields, not fake numbers.
    let mut csv = Vec::new();
    skelview_core::export::positions::write_csv(&m, &[0, 1, 2], true, false, &mut csv, &mut |_, _| std::ops::ControlFlow::Continue(()))
        .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[3..], ["a,1,1,0,0", "b,1,1,10,0", "b/EndSite,1,,,", "a,2,,,", "b,2,,,", "b/EndSite,2,,,"]);
    // A value missing from the first frame holds the first valid one backwards.
    let text = text.replace("0 0 0 0\n1 0 0 nan", "nan 0 0 0\n1 0 0 nan");
    let m = skelview_core::formats::load(
        &LoadRequest::memory("nan.bvh", text.as_bytes()).unwrap(),
        &LoadOptions::default(),
        &Sequential,
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(m.clip.frame(0)[0], 1.0);
}

#[test]
fn a_first_joint_written_as_joint_and_keywords_in_other_cases_load_with_a_warning() {
    let text = "HIERARCHY\nJOINT Hips\n{\n  OFFSET 0 1 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n  Joint Spine\n  {\n    offset 0 1 0\n    channels 3 zrotation xrotation yrotation\n    End site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\nMotion\nFrames: 1\nFrame Time: 0.04\n0 1 0 0 0 0 0 0 0\n";
    let m = load_with(text.as_bytes(), PositionRule::Replace).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.skeleton.len(), 3);
    assert_eq!(m.skeleton.joints()[0].parent, None);
    assert!(
        m.warnings.iter().any(|w| w.message.contains("JOINT where ROOT was expected") && (w.line, w.col) == (2, 1)),
        "{:?}",
        m.warnings
    );
    // A nested ROOT is a child, also with a warning.
    let nested = text.replace("  Joint Spine", "  ROOT Spine").replace("JOINT Hips", "ROOT Hips");
    let m = load_with(nested.as_bytes(), PositionRule::Replace).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.skeleton.joints()[1].parent, Some(0));
    assert!(m.warnings.iter().any(|w| w.message.contains("ROOT inside a joint")), "{:?}", m.warnings);
}

#[test]
fn leaf_joints_without_channels_or_end_site_are_leaves() {
    let text = "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT Tip\n  {\n    OFFSET 0 2 0\n    CHANNELS 0\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0\n90 0 0\n";
    let m = load(text);
    assert_eq!(m.skeleton.len(), 2, "no End Site is invented");
    assert!(m.skeleton.joints()[1].channels.is_empty());
    let mut s = skelview_core::core::Sampler::default();
    let p = s.positions(&m, skelview_core::core::PoseAt::Frame(1), skelview_core::core::Interpolation::Nearest, glam::Mat4::IDENTITY)[1];
    assert!((p - glam::Vec3::new(-2.0, 0.0, 0.0)).length() < 1e-5, "the leaf follows its parent's rotation: {p}");
}

#[test]
fn a_100000_joint_chain_loads() {
    // Linear steps only: this took 28 s in `info` when the up-axis guess scanned every joint
    // for each joint (timed in benches/formats.rs).
    let n = 100_000;
    let mut text = String::from("HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n");
    for k in 1..n {
        text.push_str(&format!("JOINT j{k}\n{{\nOFFSET 0 0.01 0\nCHANNELS 0\n"));
    }
    text.push_str(&"}\n".repeat(n));
    text.push_str("MOTION\nFrames: 1\nFrame Time: 0.04\n0 0 0\n");
    let m = load(&text);
    assert_eq!(m.skeleton.len(), n);
    assert_eq!(m.skeleton.joints()[n - 1].parent, Some(n - 2));
    assert!(m.source.body_height > 0.0);
}

#[test]
fn a_makehuman_bvh_in_decimetres_is_read_as_decimetres() {
    // MakeHuman writes decimetres (hips at 9.56): 15.7 units tall is a 1.57 m person, not a
    // 0.89 m one in CMU units.
    let path = skelview_test_support::workspace_root().join("crates/skelview-core/tests/data/units/makehuman_decimetres.bvh");
    let m = skelview_core::formats::open_one(&path, &skelview_core::formats::LoadOptions::default(), &skelview_core::formats::Sequential)
        .unwrap();
    assert_eq!((m.source.unit, m.source.unit_detected), (skelview_core::core::LengthUnit::Decimetre, true));
    let height_m = m.source.body_height * m.metres_per_raw_unit();
    assert!((height_m - 1.57).abs() < 0.01, "{height_m}");
}
