//! ASF/AMC fixtures with the expected positions worked out by hand from the conventions:
//! C = Rz·Ry·Rx from `axis a b c XYZ`; dof evaluated in listed order (`rx ry rz`: M = Rz·Ry·Rx);
//! a bone's local rotation L = C·M·C⁻¹; its far end = start + R_global · direction × length.

use skelview_core::core::Motion;
use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::formats::{self, LoadError, LoadOptions, LoadRequest, Quiet, Sequential, Source};

const ASF: &str = "# test skeleton
:version 1.10
:name test
:units
  mass 1.0
  length 1.0
  angle deg
:documentation
  notes: anything, even (parentheses)
:root
   order TX TY TZ RX RY RZ
   axis XYZ
   position 0 0 0
   orientation 0 0 0
:bonedata
  begin
     id 1
     name upper
     direction 1 0 0
     length 2
     axis 0 0 90 XYZ
     dof rx
     limits (-90.0 90.0)
  end
  begin
     id 2
     name lower
     direction 1, 0, 0
     length 3
     axis 0 0 0 XYZ
     dof rx ry rz
     limits (-inf inf)
            (-inf inf)
            (-inf inf)
     bodymass 1.0 cofmass 0.5
  end
:hierarchy
  begin
    root upper
    upper lower
  end
";

const AMC: &str = "# comment with a latin-1 byte
:FULLY-SPECIFIED
:DEGREES
1
root 1 2 3 0 0 0
lower 90 0 90
upper 90
2
root 0 0 0 0 0 90
upper 0
lower 0 0 0
";

fn mem(name: &str, text: &[u8]) -> Source {
    Source::Memory { name: name.into(), bytes: text.into() }
}

fn load(asf: &[u8], amc: Option<&[u8]>) -> Result<Motion, LoadError> {
    let request = LoadRequest {
        format: &skelview_core::formats::acclaim::Acclaim,
        sources: std::iter::once(mem("t.asf", asf)).chain(amc.map(|a| mem("t.amc", a))).collect(),
    };
    formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet)
}

fn positions(m: &Motion, frame: usize) -> Vec<[f32; 3]> {
    let (mut l, mut g) = (LocalPose::default(), GlobalPose::default());
    pose::frame_pose(&m.skeleton, &m.clip, frame, &mut l);
    pose::global_pose(&m.skeleton, &l, &mut g);
    (0..m.skeleton.len()).map(|i| g.position(i).to_array()).collect()
}

fn assert_close(got: [f32; 3], want: [f32; 3], what: &str) {
    assert!((0..3).all(|k| (got[k] - want[k]).abs() < 1e-5), "{what}: got {got:?}, want {want:?}");
}

#[test]
fn bone_axes_and_dof_order_follow_the_cmu_convention() {
    let mut amc = AMC.as_bytes().to_vec();
    amc.insert(28, 0xFC); // a Latin-1 'ü' inside the header comment
    let m = load(ASF.as_bytes(), Some(&amc)).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["root", "upper", "lower"]);
    // Frame 0. upper: C = Rz(90), M = Rx(90): L = C·M·C⁻¹ turns 90° about C·X = +Y, so
    // (2,0,0) → (0,0,-2); plus the root at (1,2,3) → (1,2,1).
    // lower: M = Rz(90)·Rx(90) (rx first): (3,0,0) → Rx → (3,0,0) → Rz → (0,3,0); then
    // upper's Ry(90) leaves (0,3,0) alone → (1,5,1). (Rx·Rz would give (0,0,3) → (3,0,0).)
    let p = positions(&m, 0);
    assert_close(p[0], [1.0, 2.0, 3.0], "root");
    assert_close(p[1], [1.0, 2.0, 1.0], "upper far end");
    assert_close(p[2], [1.0, 5.0, 1.0], "lower far end");
    // Frame 1: root Rz(90) turns the straight arm (5,0,0) to (0,5,0).
    let p = positions(&m, 1);
    assert_close(p[1], [0.0, 2.0, 0.0], "upper far end");
    assert_close(p[2], [0.0, 5.0, 0.0], "lower far end");
    // Limits are kept (in radians) for the inspector.
    assert_eq!(m.skeleton.joints()[1].limits.len(), 1);
    assert!((m.skeleton.joints()[1].limits[0].1 - 90f32.to_radians()).abs() < 1e-6);
    assert!(m.skeleton.joints()[2].limits[0].1.is_infinite());
}

#[test]
fn asf_alone_is_the_rest_pose() {
    let m = load(ASF.as_bytes(), None).unwrap();
    assert_eq!(m.clip.num_frames(), 0);
    let p = positions(&m, 0);
    assert_close(p[2], [5.0, 0.0, 0.0], "rest far end of lower");
}

#[test]
fn case_translation_stretch_and_dummy_bones() {
    let asf = ":VERSION 1.10\n:NAME x\n:UNITS\n  LENGTH 0.5\n  ANGLE RAD\n:ROOT\n  ORDER tx ty tz\n  AXIS xyz\n  POSITION 0 0 0\n  ORIENTATION 0 0 0\n  ACME_vendor 1 2 3\n:BONEDATA\n  BEGIN\n    NAME dummy\n    DIRECTION 0 1 0\n    LENGTH 1\n    AXIS 0 0 0 XYZ\n  END\n  BEGIN\n    NAME tip\n    DIRECTION 0 2 0\n    LENGTH 1\n    AXIS 0 0 0 XYZ\n    DOF tx l\n  END\n:HIERARCHY\n  BEGIN\n    root dummy\n    dummy tip\n  END\n";
    let amc = ":fully-specified\n:radians\n1\nroot 0 0 0\ntip 0.5 2\n";
    let m = load(asf.as_bytes(), Some(amc.as_bytes())).unwrap_or_else(|e| panic!("{e}"));
    let warnings: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    assert!(warnings.iter().any(|w| w.contains("ACME_vendor") && w.starts_with("t.asf:11:3")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("has length 2; normalised")), "{warnings:?}");
    assert_eq!(m.source.length_divisor, 0.5);
    assert_eq!(m.source.angle_unit, "rad");
    let p = positions(&m, 0);
    // dummy: (0,1,0). tip starts there, moved by tx 0.5, stretched by l = 2: (0.5, 1 + 3, 0).
    assert_close(p[1], [0.0, 1.0, 0.0], "dummy");
    assert_close(p[2], [0.5, 4.0, 0.0], "tip");
}

#[test]
fn amc_problems_warn_or_fail_with_positions() {
    let warn =
        load(ASF.as_bytes(), Some(b"1\nroot 0 0 0 0 0 0\nupper 1\nlower 1 2 3\nelbow 4\n2\nroot 0 0 0 0 0 0\nlower 1 2 3\n")).unwrap();
    let msgs: Vec<String> = warn.warnings.iter().map(|w| w.to_string()).collect();
    assert!(msgs.iter().any(|w| w.starts_with("t.amc:5:1: warning: bone 'elbow' is not in the skeleton")), "{msgs:?}");
    assert!(msgs.iter().any(|w| w.contains("no line for bone 'upper'")), "{msgs:?}");
    assert_eq!(warn.clip.num_frames(), 2);
    // The missing bone keeps its previous value.
    assert_eq!(warn.clip.frame(1)[6], 1f32.to_radians());

    let cases: [(&[u8], &str); 4] = [
        (b"1\nroot 0 0 0 0 0 0\nupper 1 2\n", "t.amc:3:9: expected end of line after 1 values for bone 'upper', found '2'"),
        (b"1\nroot 0 0 0\n", "t.amc:2:11: expected 6 values for bone 'root', found 3"),
        (b"root 0 0 0 0 0 0\n", "t.amc:1:1: expected a frame number, found 'root'"),
        (b"1\nroot 0 0 0 0 0 inf\n", "t.amc:2:16: expected a number, found 'inf'"),
    ];
    for (amc, want) in cases {
        let e = load(ASF.as_bytes(), Some(amc)).expect_err("should fail").to_string();
        assert!(e.starts_with(want), "got: {e}\nwant: {want}");
    }
}

#[test]
fn asf_errors_name_the_place() {
    let cases: [(&str, &str); 4] = [
        (":bonedata\n  begin\n    name a\n    length x\n  end\n", "t.asf:4:12: expected a bone length, found 'x'"),
        (":bonedata\n  begin\n    name a\n    axis 0 0 0 XQZ\n  end\n", "t.asf:4:16: expected a rotation order such as XYZ"),
        (
            ":bonedata\n  begin\n    name a\n  end\n:hierarchy\n  begin\n    root b\n  end\n",
            "t.asf:7:10: expected a bone defined in :bonedata, found 'b'",
        ),
        ("HIERARCHY\nROOT x\n", "t.asf:1:1: expected a ':' keyword such as :bonedata, found 'HIERARCHY'"),
    ];
    for (asf, want) in cases {
        let e = load(asf.as_bytes(), None).expect_err("should fail").to_string();
        assert!(e.starts_with(want), "got: {e}\nwant: {want}");
    }
}
