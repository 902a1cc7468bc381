//! H-Anim loader: hand-computed fixtures in both encodings, the corpus, robustness.

use skelview_test_support as support;

use glam::Vec3;
use proptest::prelude::*;
use skelview_core::core::Skeleton;
use skelview_core::core::pose::{GlobalPose, LocalPose, frame_pose, global_pose, rest_pose};
use skelview_core::formats::ParseErrorKind;
use skelview_core::formats::hanim::{ParsedHAnim, parse_vrml, parse_x3d};

/// Humanoid: translation (1,0,0), scale 2. Joint `root`: translation (0,0,1), center (0,1,0),
/// rotation 90° about Z, animated 0 → 90° over a 2 s cycle. Inside it a Transform moving
/// (0,0.5,0) holds joint `child` (center (0,2,0)) with site `tip` (translation (0,3,0)).
const FIXTURE_X3D: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE X3D PUBLIC "ISO//Web3D//DTD X3D 4.0//EN" "https://www.web3d.org/specifications/x3d-4.0.dtd">
<X3D profile='Immersive' version='4.0'>
  <head><component name='HAnim' level='1'/></head>
  <Scene>
    <HAnimHumanoid DEF='H' name='fixture' version='2.0' loa='1' translation='1 0 0' scale='2 2 2'>
      <HAnimJoint DEF='J_root' containerField='skeleton' name='root' translation='0 0 1' center='0 1 0'
          rotation='0 0 1 1.5707963267948966' llimit='-1 -1 -1' ulimit='1 1 1'>
        <HAnimSegment DEF='S_pelvis' name='pelvis'/>
        <Transform translation='0 0.5 0'>
          <HAnimJoint DEF='J_child' name='child' center='0 2 0'>
            <HAnimSite DEF='S_tip' name='tip' translation='0 3 0'/>
          </HAnimJoint>
        </Transform>
      </HAnimJoint>
      <HAnimJoint USE='J_root' containerField='joints'/>
      <HAnimJoint USE='J_child' containerField='joints'/>
    </HAnimHumanoid>
    <TimeSensor DEF='Clock' cycleInterval='2' loop='true'/>
    <OrientationInterpolator DEF='Turn' key='0 1' keyValue='0 0 1 0, 0 0 1 1.5707963267948966'/>
    <ROUTE fromNode='Clock' fromField='fraction_changed' toNode='Turn' toField='set_fraction'/>
    <ROUTE fromNode='Turn' fromField='value_changed' toNode='J_root' toField='set_rotation'/>
  </Scene>
</X3D>
"#;

/// The same scene in ClassicVRML.
const FIXTURE_VRML: &str = r#"#X3D V3.3 utf8
PROFILE Immersive
COMPONENT HAnim:1
DEF H HAnimHumanoid {
  name "fixture" version "2.0" loa 1 translation 1 0 0 scale 2 2 2
  skeleton [
    DEF J_root HAnimJoint {
      name "root" translation 0 0 1 center 0 1 0 rotation 0 0 1 1.5707963267948966
      llimit [ -1 -1 -1 ] ulimit [ 1 1 1 ]
      children [
        DEF S_pelvis HAnimSegment { name "pelvis" }
        Transform { translation 0 0.5 0 children [
          DEF J_child HAnimJoint { name "child" center 0 2 0
            children DEF S_tip HAnimSite { name "tip" translation 0 3 0 } }
        ] }
      ]
    }
  ]
  joints [ USE J_root USE J_child ]
}
DEF Clock TimeSensor { cycleInterval 2 loop TRUE }
DEF Turn OrientationInterpolator { key [ 0 1 ] keyValue [ 0 0 1 0, 0 0 1 1.5707963267948966 ] }
ROUTE Clock.fraction_changed TO Turn.set_fraction
ROUTE Turn.value_changed TO J_root.set_rotation
"#;

fn rest_positions(s: &Skeleton) -> Vec<Vec3> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    rest_pose(s, &mut local);
    global_pose(s, &local, &mut global);
    (0..s.len()).map(|i| global.position(i)).collect()
}

fn frame_positions(p: &ParsedHAnim, frame: usize) -> Vec<Vec3> {
    let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
    frame_pose(&p.skeleton, &p.clip, frame, &mut local);
    global_pose(&p.skeleton, &local, &mut global);
    (0..p.skeleton.len()).map(|i| global.position(i)).collect()
}

fn assert_near(got: Vec3, want: Vec3, tol: f32, what: &str) {
    assert!((got - want).abs().max_element() <= tol, "{what}: got {got}, want {want}");
}

fn check_fixture(p: &ParsedHAnim) {
    let s = &p.skeleton;
    let names: Vec<&str> = s.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["root", "child", "tip"]);
    assert_eq!(s.joints().iter().map(|j| j.parent).collect::<Vec<_>>(), [None, Some(0), Some(1)]);
    assert!(s.joints()[2].is_end_site && !s.joints()[1].is_end_site);
    let root = &s.joints()[0];
    assert!(root.details.contains(&("segment".into(), "pelvis".into())), "{:?}", root.details);
    assert!(root.details.iter().any(|(k, v)| k == "llimit" && v.starts_with("-57.3°")), "{:?}", root.details);
    // World map of the humanoid: H(p) = (1,0,0) + 2·p. R = 90° about Z: (x,y,z) → (−y,x,z).
    // Root joint frame: world_from_root(p) = H((0,0,1) + c + R(p − c)), c = (0,1,0).
    // root centre: H((0,0,1) + (0,1,0)) = (1,0,0) + 2·(0,1,1) = (1,2,2)
    // child centre: p = Transform(0,0.5,0) + (0,2,0) = (0,2.5,0); p − c = (0,1.5,0) → R → (−1.5,0,0);
    //   + c + t = (−1.5,1,1); H → (1−3, 2, 2) = (−2,2,2)
    // tip: p = (0,0.5,0) + (0,3,0) = (0,3.5,0); p − c = (0,2.5,0) → R → (−2.5,0,0); + c + t = (−2.5,1,1);
    //   H → (1−5, 2, 2) = (−4,2,2)
    let rest = rest_positions(s);
    assert_near(rest[0], Vec3::new(1.0, 2.0, 2.0), 1e-5, "rest root");
    assert_near(rest[1], Vec3::new(-2.0, 2.0, 2.0), 1e-5, "rest child");
    assert_near(rest[2], Vec3::new(-4.0, 2.0, 2.0), 1e-5, "rest tip");
    // Keys 0 and 1 over a 2 s cycle: regular, finest spacing 2 s → 60 frames of 1/30 s (looping,
    // so the end sample is frame 0 again).
    assert_eq!(p.clip.num_frames(), 60);
    assert!((p.clip.frame_time_secs - 1.0 / 30.0).abs() < 1e-12);
    // Frame 0: angle 0. child: (0,2.5,0) + t = (0,2.5,1) → H → (1,5,2); tip: (0,3.5,1) → (1,7,2).
    let f0 = frame_positions(p, 0);
    assert_near(f0[0], Vec3::new(1.0, 2.0, 2.0), 1e-5, "f0 root");
    assert_near(f0[1], Vec3::new(1.0, 5.0, 2.0), 1e-5, "f0 child");
    assert_near(f0[2], Vec3::new(1.0, 7.0, 2.0), 1e-5, "f0 tip");
    // Frame 30 (fraction 0.5): angle 45°, sin = cos = 0.70710678. child: R(0,1.5,0) = (−1.06066, 1.06066, 0);
    //   + c + t = (−1.06066, 2.06066, 1); H → (1 − 2.12132, 4.12132, 2) = (−1.12132, 4.12132, 2)
    // tip: R(0,2.5,0) = (−1.76777, 1.76777, 0); + c + t = (−1.76777, 2.76777, 1); H → (−2.53553, 5.53553, 2)
    let f30 = frame_positions(p, 30);
    assert_near(f30[1], Vec3::new(-1.121_320_3, 4.121_320_3, 2.0), 1e-5, "f30 child");
    assert_near(f30[2], Vec3::new(-2.535_534, 5.535_534, 2.0), 1e-5, "f30 tip");
    let get = |k: &str| p.details.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
    assert_eq!(get("humanoid"), Some("fixture"));
    assert_eq!(get("H-Anim version"), Some("2.0"));
    assert_eq!(get("LOA"), Some("1"));
    assert_eq!(get("joints"), Some("2"));
    assert_eq!(get("sites"), Some("1"));
    assert_eq!(get("segments"), Some("1"));
    assert!(get("TimeSensor").is_some_and(|t| t.starts_with("Clock")));
}

#[test]
fn fixture_x3d_matches_hand_computation() {
    let p = parse_x3d(FIXTURE_X3D.as_bytes()).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    check_fixture(&p);
    let with_bom = format!("\u{FEFF}{FIXTURE_X3D}");
    check_fixture(&parse_x3d(with_bom.as_bytes()).unwrap());
}

#[test]
fn fixture_vrml_matches_hand_computation() {
    let p = parse_vrml(FIXTURE_VRML.as_bytes()).unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    check_fixture(&p);
}

fn load(name: &str) -> Option<ParsedHAnim> {
    let dir = support::corpus()?;
    let bytes = std::fs::read(dir.join("hanim").join(name)).unwrap();
    let parsed = if name.ends_with(".x3d") { parse_x3d(&bytes) } else { parse_vrml(&bytes) };
    Some(parsed.unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn count(p: &ParsedHAnim, node: &str) -> usize {
    p.skeleton.joints().iter().filter(|j| j.details.first().is_some_and(|(k, v)| k == "node" && v == node)).count()
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn corpus_files_load_with_their_joint_counts() {
    let cases = [
        ("JinLOA4.x3d", 146, 0),
        ("JinLOA4_new_graal.wrl", 146, 0),
        ("JinScaledV2L1LOA4Humanoid.x3d", 146, 124),
        ("JoeHAnimKick1a.x3d", 89, 1),
        ("JoeHAnimKick1a.x3dv", 89, 1),
        ("NewLilyApproved.x3d", 54, 126),
        ("castle_hanim_transforms.x3dv", 1, 1),
        ("castle_hanimmotion_containerfield.x3d", 0, 0),
    ];
    for (name, joints, sites) in cases {
        let Some(p) = load(name) else { return };
        assert_eq!(count(&p, "HAnimJoint"), joints, "{name} joints");
        assert_eq!(count(&p, "HAnimSite"), sites, "{name} sites");
        assert!(p.skeleton.joints().iter().filter(|j| j.is_end_site).count() == sites, "{name}");
        for frame in 0..p.clip.num_frames() {
            assert!(p.clip.frame(frame).iter().all(|v| v.is_finite()), "{name} frame {frame}");
        }
    }
    // Animated: the castle humanoid itself moves, so it is a joint; Joe kicks; Jin has 9 timers.
    let castle = load("castle_hanim_transforms.x3dv").unwrap();
    assert_eq!(count(&castle, "HAnimHumanoid"), 1);
    assert_eq!(castle.clip.num_frames(), 150);
    let jin = load("JinLOA4.x3d").unwrap();
    assert!(jin.warnings.iter().any(|w| w.message.contains("9 takes in this file; showing 'StandTimer'")), "{:?}", jin.warnings);
    assert_eq!(jin.takes.0.len(), 9);
    assert!(!jin.takes.0[0].moving && jin.takes.1 == Some(1), "StopTimer holds a pose: not the default");
    assert!(jin.details.iter().any(|(k, v)| k == "LOA" && v == "4"));
}

fn height(s: &Skeleton) -> f32 {
    let pos = rest_positions(s);
    let (lo, hi) = pos.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
    hi - lo
}

fn assert_equivalent(a: &ParsedHAnim, b: &ParsedHAnim, what: &str) {
    let names = |p: &ParsedHAnim| p.skeleton.joints().iter().map(|j| (j.name.clone(), j.parent)).collect::<Vec<_>>();
    assert_eq!(names(a), names(b), "{what}: joints");
    assert_eq!(a.clip.num_frames(), b.clip.num_frames(), "{what}: frames");
    assert!(a.clip.num_frames() > 0, "{what}: animated");
    let tol = 1e-5 * height(&a.skeleton);
    for frame in 0..a.clip.num_frames() {
        let (pa, pb) = (frame_positions(a, frame), frame_positions(b, frame));
        for (i, (x, y)) in pa.iter().zip(&pb).enumerate() {
            assert_near(*x, *y, tol, &format!("{what}: frame {frame} joint {}", a.skeleton.joints()[i].name));
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn xml_and_classic_encodings_agree() {
    let (Some(a), Some(dir)) = (load("JoeHAnimKick1a.x3d"), support::corpus()) else { return };
    // The two Joe files differ in one number (vc3 centre y 1.5823 vs 1.58225, 5e-5 m, above the
    // 1e-5 × height tolerance): align it so that the comparison tests the loaders, not the data.
    let classic = std::fs::read_to_string(dir.join("hanim/JoeHAnimKick1a.x3dv")).unwrap();
    assert!(classic.contains("center 0.0 1.58225 -0.0185"));
    let b = parse_vrml(classic.replace("center 0.0 1.58225 -0.0185", "center 0.0 1.5823 -0.0185").as_bytes()).unwrap();
    assert_equivalent(&a, &b, "Joe");
    let (Some(a), Some(b)) = (load("JinLOA4.x3d"), load("JinLOA4_new_graal.wrl")) else { return };
    assert_equivalent(&a, &b, "Jin");
    // Jin's humanoid scale 0.0225 makes a 1.5-ish metre figure out of centimetre-like centres.
    let h = height(&a.skeleton);
    assert!((1.0..2.0).contains(&h), "Jin height {h}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn humanoids_stand_upright() {
    for (name, head, foot) in [
        ("JinLOA4.x3d", "skullbase", "l_talocrural"),
        ("JinLOA4_new_graal.wrl", "skullbase", "l_talocrural"),
        ("JinScaledV2L1LOA4Humanoid.x3d", "skullbase", "l_talocrural"),
        ("JoeHAnimKick1a.x3d", "skullbase", "l_ankle"),
        ("NewLilyApproved.x3d", "skullbase", "l_talocrural"),
    ] {
        let Some(p) = load(name) else { return };
        let s = &p.skeleton;
        let pos = rest_positions(s);
        let (h, f) = (s.find(head).unwrap_or_else(|| panic!("{name}: {head}")), s.find(foot).unwrap_or_else(|| panic!("{name}: {foot}")));
        // Upright: the head is well above the foot (over a metre), and more above it than beside it.
        let d = pos[h] - pos[f];
        assert!(d.y > 1.0 && d.y > 3.0 * d.x.hypot(d.z), "{name}: head {} foot {}", pos[h], pos[f]);
    }
}

fn message(e: &skelview_core::formats::ParseError) -> String {
    e.kind.to_string()
}

#[test]
fn malformed_inputs_say_what_was_expected() {
    let e = parse_x3d(b"<X3D><Scene><Group></Scene></X3D>").unwrap_err();
    assert!(message(&e).contains("not well-formed") && e.offset > 10, "{e}");
    let e = parse_x3d(b"<X3D><Scene><Group/></Scene></X3D>").unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::Invalid("no HAnimHumanoid in this file".into()));
    let e = parse_vrml(b"#VRML V2.0 utf8\nGroup { }").unwrap_err();
    assert!(message(&e).contains("no HAnimHumanoid"), "{e}");
    let e = parse_vrml(b"solid cube\n").unwrap_err();
    assert!(message(&e).contains("header"), "{e}");
    let e = parse_vrml(b"#X3D V3.0 utf8\nHAnimHumanoid { skeleton [ HAnimJoint { name \"a\" ").unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Eof(_)), "{e}");
    let e = parse_vrml(b"#X3D V3.0 utf8\nHAnimHumanoid { skeleton [ HAnimJoint { center 0 nan 0 } ] }").unwrap_err();
    assert!(message(&e).contains("a number"), "{e}");
    let e = parse_x3d(b"<X3D><Scene><HAnimHumanoid><HAnimJoint center='0 NaN 0'/></HAnimHumanoid></Scene></X3D>").unwrap_err();
    assert!(message(&e).contains("a number in field 'center'") && message(&e).contains("NaN"), "{e}");
    let e = parse_x3d(b"<X3D><Scene><HAnimHumanoid><HAnimJoint center='0 1'/></HAnimHumanoid></Scene></X3D>").unwrap_err();
    assert!(message(&e).contains("needs 3 numbers, found 2"), "{e}");
    // key/keyValue mismatch: error at the keyValue field with both counts.
    let bad = FIXTURE_X3D.replace("keyValue='0 0 1 0, 0 0 1 1.5707963267948966'", "keyValue='0 0 1 0'");
    let e = parse_x3d(bad.as_bytes()).unwrap_err();
    assert!(message(&e).contains("keyValue has 4 numbers for 2 keys"), "{e}");
    assert_eq!(e.offset as usize, bad.find("keyValue='0 0 1 0'").unwrap() + "keyValue='".len());
    let bad = FIXTURE_VRML.replace("keyValue [ 0 0 1 0, 0 0 1 1.5707963267948966 ]", "keyValue [ 0 0 1 0 0 0 1 1 0 0 1 2 ]");
    let e = parse_vrml(bad.as_bytes()).unwrap_err();
    assert!(message(&e).contains("keyValue has 12 numbers for 2 keys"), "{e}");
    let e = parse_vrml(FIXTURE_VRML.replace("center 0 2 0", "center 0 2 0 }}}").as_bytes()).unwrap_err();
    assert!(message(&e).contains("expected"), "{e}");
}

#[test]
fn route_to_unknown_def_is_a_warning() {
    let text = FIXTURE_VRML.replace("ROUTE Turn.value_changed TO J_root.set_rotation", "ROUTE Turn.value_changed TO Nobody.set_rotation");
    let p = parse_vrml(text.as_bytes()).unwrap();
    assert!(p.warnings.iter().any(|w| w.message.contains("unknown node 'Nobody'")), "{:?}", p.warnings);
    assert_eq!(p.clip.num_frames(), 0);
}

fn small_corpus(name: &str) -> Vec<u8> {
    match support::corpus() {
        Some(dir) => std::fs::read(dir.join("hanim").join(name)).unwrap(),
        None => (if name.ends_with(".x3d") { FIXTURE_X3D } else { FIXTURE_VRML }).as_bytes().to_vec(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn truncated_or_mutated_vrml_never_panics(cut in 0.0f64..1.0, at in 0.0f64..1.0, byte in any::<u8>()) {
        let mut bytes = small_corpus("castle_hanim_transforms.x3dv");
        let _ = parse_vrml(&bytes[..(cut * bytes.len() as f64) as usize]);
        let i = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
        bytes[i] = byte;
        let _ = parse_vrml(&bytes);
        let mut fixture = FIXTURE_VRML.as_bytes().to_vec();
        let j = ((at * fixture.len() as f64) as usize).min(fixture.len() - 1);
        fixture[j] = byte;
        let _ = parse_vrml(&fixture);
    }

    #[test]
    fn truncated_or_mutated_xml_never_panics(cut in 0.0f64..1.0, at in 0.0f64..1.0, byte in any::<u8>()) {
        let bytes = FIXTURE_X3D.as_bytes();
        let _ = parse_x3d(&bytes[..(cut * bytes.len() as f64) as usize]);
        let mut bytes = bytes.to_vec();
        let i = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
        bytes[i] = byte;
        let _ = parse_x3d(&bytes);
        let mut motion = small_corpus("castle_hanimmotion_containerfield.x3d");
        let k = ((at * motion.len() as f64) as usize).min(motion.len() - 1);
        motion[k] = byte;
        let _ = parse_x3d(&motion);
    }
}

/// An X3D transform's matrix, written independently of the loader:
/// `T(t) · T(c) · R · SR · S · SR⁻¹ · T(−c)`.
fn x3d_matrix(t: [f64; 3], c: [f64; 3], r: [f64; 4], s: [f64; 3]) -> glam::DAffine3 {
    use glam::{DAffine3, DQuat, DVec3};
    let axis = DVec3::from_slice(&r[..3]).normalize();
    DAffine3::from_translation(DVec3::from(t) + DVec3::from(c))
        * DAffine3::from_quat(DQuat::from_axis_angle(axis, r[3]))
        * DAffine3::from_scale(DVec3::from(s))
        * DAffine3::from_translation(-DVec3::from(c))
}

fn v3(v: [f64; 3]) -> String {
    format!("{} {} {}", v[0], v[1], v[2])
}
fn v4(v: [f64; 4]) -> String {
    format!("{} {} {} {}", v[0], v[1], v[2], v[3])
}

fn arb_vec() -> impl Strategy<Value = [f64; 3]> {
    [-2.0f64..2.0, -2.0f64..2.0, -2.0f64..2.0]
}
fn arb_rot() -> impl Strategy<Value = [f64; 4]> {
    [0.1f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -3.0f64..3.0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random humanoid/joint/Transform/joint/site chains: the loaded rest positions equal the
    /// X3D matrix composition of every node (uniform scales above joints, any scale on joints).
    #[test]
    fn rest_positions_follow_x3d_transform_semantics(
        ht in arb_vec(), hc in arb_vec(), hr in arb_rot(), hs in 0.2f64..3.0,
        at in arb_vec(), ac in arb_vec(), ar in arb_rot(), as_ in [0.5f64..2.0, 0.5f64..2.0, 0.5f64..2.0],
        tt in arb_vec(), tc in arb_vec(), tr in arb_rot(), ts in 0.2f64..3.0,
        bt in arb_vec(), bc in arb_vec(), br in arb_rot(),
        st in arb_vec(),
    ) {
        let text = format!(
            "#X3D V3.3 utf8\nHAnimHumanoid {{ name \"p\" translation {} center {} rotation {} scale {hs} {hs} {hs}\n\
             skeleton HAnimJoint {{ name \"a\" translation {} center {} rotation {} scale {}\n\
             children Transform {{ translation {} center {} rotation {} scale {ts} {ts} {ts}\n\
             children HAnimJoint {{ name \"b\" translation {} center {} rotation {}\n\
             children HAnimSite {{ name \"s\" translation {} }} }} }} }} }}\n",
            v3(ht), v3(hc), v4(hr), v3(at), v3(ac), v4(ar), v3(as_), v3(tt), v3(tc), v4(tr), v3(bt), v3(bc), v4(br), v3(st)
        );
        let p = parse_vrml(text.as_bytes()).unwrap();
        let world_a = x3d_matrix(ht, hc, hr, [hs; 3]) * x3d_matrix(at, ac, ar, as_);
        let world_b = world_a * x3d_matrix(tt, tc, tr, [ts; 3]) * x3d_matrix(bt, bc, br, [1.0; 3]);
        let want = [
            world_a.transform_point3(ac.into()),
            world_b.transform_point3(bc.into()),
            world_b.transform_point3(st.into()),
        ];
        let got = rest_positions(&p.skeleton);
        prop_assert_eq!(got.len(), 3);
        for (g, w) in got.iter().zip(want) {
            let tol = 1e-4 * (1.0 + w.length() as f32);
            prop_assert!((*g - w.as_vec3()).abs().max_element() <= tol, "got {} want {}\n{}", g, w, text);
        }
    }
}

#[test]
fn hanim_1_proto_files_load_their_joint_tree() {
    let text = r#"#VRML V2.0 utf8
PROTO Joint [
  exposedField SFVec3f center 0 0 0
  exposedField MFNode children []
  exposedField SFString name ""
  exposedField SFRotation rotation 0 0 1 0
] { Transform { center IS center rotation IS rotation children IS children } }
PROTO Segment [ exposedField SFString name "" exposedField MFNode children [] ] { Group { children IS children } }
PROTO Humanoid [ field SFString name "" field MFNode humanoidBody [] field MFNode joints [] field SFString version "1.1" ]
  { Transform { children IS humanoidBody } }
DEF hanim_Humanoid Humanoid {
  name "old" version "1.1"
  humanoidBody [
    DEF hanim_HumanoidRoot Joint { name "HumanoidRoot" center 0 1 0
      children [
        DEF hanim_pelvis Segment { name "pelvis" children [ Shape { geometry Box { size 0.1 0.1 0.1 } } ] }
        DEF hanim_skullbase Joint { name "skullbase" center 0 1.6 0 }
      ] }
  ]
  joints [ USE hanim_HumanoidRoot USE hanim_skullbase ]
}
"#;
    let p = parse_vrml(text.as_bytes()).unwrap();
    let s = &p.skeleton;
    assert_eq!(
        s.joints().iter().map(|j| (j.name.as_str(), j.parent)).collect::<Vec<_>>(),
        [("HumanoidRoot", None), ("skullbase", Some(0))]
    );
    assert!(s.joints()[0].details.contains(&("segment".into(), "pelvis".into())));
    let pos = rest_positions(s);
    assert_near(pos[1], Vec3::new(0.0, 1.6, 0.0), 1e-6, "skullbase");
    assert!(p.details.contains(&("H-Anim version".into(), "1.1".into())));
}

#[test]
fn shared_and_deep_graphs_stay_fast() {
    // Every level USEs the previous one twice: 2^60 paths if followed naively.
    let mut text = String::from("#X3D V3.0 utf8\nDEF G0 Group { }\n");
    for i in 1..60 {
        text += &format!("DEF G{i} Group {{ children [ USE G{} USE G{} ] }}\n", i - 1, i - 1);
    }
    text += "HAnimHumanoid { skeleton [ HAnimJoint { name \"r\" children [ USE G59 Anchor { children [ USE G59 ] } ] } ] }\n";
    // Followed naively this never ends: the parse runs on a thread and the test waits for it
    // (how long it takes is a benchmark's business; a hang fails after a generous limit).
    let parse = std::thread::spawn(move || parse_vrml(text.as_bytes()).map(|p| p.skeleton.len()));
    skelview_test_support::until_true("the parse of a graph with 2^60 paths", || parse.is_finished());
    assert_eq!(parse.join().unwrap().unwrap(), 1);
    // A USE inside its own DEF is not a cycle: the DEF is not known yet.
    let p = parse_vrml(b"#X3D V3.0 utf8\nHAnimHumanoid { skeleton DEF A HAnimJoint { children [ USE A ] } }").unwrap();
    assert_eq!(p.skeleton.len(), 1);
    assert!(p.warnings.iter().any(|w| w.message.contains("unknown DEF 'A'")));
    let deep = "<Group>".repeat(5000) + &"</Group>".repeat(5000);
    let e = parse_x3d(format!("<X3D><Scene>{deep}</Scene></X3D>").as_bytes()).unwrap_err();
    assert!(message(&e).contains("no HAnimHumanoid"), "{e}");
    let deep = "Group { children [ ".repeat(5000);
    let e = parse_vrml(format!("#X3D V3.0 utf8\n{deep}").as_bytes()).unwrap_err();
    assert!(message(&e).contains("nested deeper"), "{e}");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn animated_humanoid_units_and_timer_choice() {
    // castle: the humanoid (translation keys 0,0.5,1 → x 0,10,0) and its joint (y 0,10,0) move
    // over 5 s; at frame 75 (2.5 s, fraction 0.5) the joint centre is (10,10,0).
    let Some(castle) = load("castle_hanim_transforms.x3dv") else { return };
    let s = &castle.skeleton;
    let j = s
        .find("AnimatedJoint")
        .or_else(|| s.joints().iter().position(|j| j.details.contains(&("node".into(), "HAnimJoint".into()))))
        .unwrap();
    assert_near(frame_positions(&castle, 75)[j], Vec3::new(10.0, 10.0, 0.0), 1e-4, "castle joint");
    assert_near(frame_positions(&castle, 0)[j], Vec3::ZERO, 1e-6, "castle joint at 0");
    // JinLOA4: the humanoid's scale 0.0225 becomes scale channels on its root joint.
    let jin = load("JinLOA4.x3d").unwrap();
    let root = &jin.skeleton.joints()[0];
    assert!(root.channels.contains(&skelview_core::core::ChannelKind::ScaleX));
    let rest = jin.skeleton.rest_values().unwrap();
    let k = root.channels.iter().position(|c| *c == skelview_core::core::ChannelKind::ScaleY).unwrap();
    assert!((rest[root.first_channel + k] - 0.0225).abs() < 1e-7);

    // UNIT length: centimetres → every position scaled by 0.01.
    let cm = FIXTURE_VRML.replace("COMPONENT HAnim:1", "COMPONENT HAnim:1\nUNIT length centimetres 0.01");
    let p = parse_vrml(cm.as_bytes()).unwrap();
    assert_near(rest_positions(&p.skeleton)[2], Vec3::new(-0.04, 0.02, 0.02), 1e-7, "tip in cm");
    assert!(p.details.iter().any(|(k, v)| k == "units" && v.contains("centimetres")));
    let cm = FIXTURE_X3D.replace("<head>", "<head><unit category='length' name='centimetres' conversionFactor='0.01'/>");
    let p = parse_x3d(cm.as_bytes()).unwrap();
    assert_near(rest_positions(&p.skeleton)[2], Vec3::new(-0.04, 0.02, 0.02), 1e-7, "tip in cm (XML)");

    // Two TimeSensors: the one routed to more joints wins, the other is named in a warning.
    let two = FIXTURE_VRML.to_owned()
        + "DEF Idle TimeSensor { cycleInterval 9 }\n\
           DEF Still OrientationInterpolator { key [ 0 1 ] keyValue [ 0 1 0 0, 0 1 0 1 ] }\n\
           ROUTE Idle.fraction_changed TO Still.set_fraction\n\
           ROUTE Still.value_changed TO J_child.set_rotation\n\
           ROUTE Turn.value_changed TO J_child.set_rotation\n";
    let p = parse_vrml(two.as_bytes()).unwrap();
    assert!(p.details.iter().any(|(k, v)| k == "TimeSensor" && v.starts_with("Clock")), "{:?}", p.details);
    assert!(p.warnings.iter().any(|w| w.message.contains("Idle")), "{:?}", p.warnings);
}

#[test]
fn hanim_motion_frames_drive_joints() {
    // root: centre (0,1,0); child c: centre (0,2,0). Frame 1 moves root by (1,0,0) and turns it
    // 90° about Z (radians, as every X3D angle): child = c_root + R(0,1,0) + t = (0,1,0) + (−1,0,0)
    // + (1,0,0) = (0,1,0); root centre = (0,1,0) + (1,0,0) = (1,1,0). The IGNORED column is skipped.
    let text = r#"<X3D><Scene><HAnimHumanoid name='m'>
      <HAnimJoint DEF='R' containerField='skeleton' name='root' center='0 1 0'>
        <HAnimJoint name='c' center='0 2 0'/>
      </HAnimJoint>
      <HAnimMotion name='wave' joints='root IGNORED' channels='4 Xposition Yposition Zposition Zrotation 1 Xrotation'
          values='0 0 0 0 5, 1 0 0 1.5707963267948966 5' frameDuration='0.5'/>
    </HAnimHumanoid></Scene></X3D>"#;
    let p = parse_x3d(text.as_bytes()).unwrap();
    assert_eq!(p.clip.num_frames(), 2);
    assert!((p.clip.frame_time_secs - 0.5).abs() < 1e-12);
    let f0 = frame_positions(&p, 0);
    assert_near(f0[1], Vec3::new(0.0, 2.0, 0.0), 1e-6, "motion f0 child");
    let f1 = frame_positions(&p, 1);
    assert_near(f1[0], Vec3::new(1.0, 1.0, 0.0), 1e-6, "motion f1 root");
    assert_near(f1[1], Vec3::new(0.0, 1.0, 0.0), 1e-6, "motion f1 child");
    assert!(p.details.iter().any(|(k, v)| k == "HAnimMotion" && v.starts_with("wave")), "{:?}", p.details);
    let bad = text.replace("values='0 0 0 0 5, 1 0 0 1.5707963267948966 5'", "values='0 0 0 0 5 1'");
    let e = parse_x3d(bad.as_bytes()).unwrap_err();
    assert!(message(&e).contains("6 numbers is not a whole number of frames of 5 channels"), "{e}");
}

/// Three TimeSensors: Stop holds a pose on three joints (keys never change), Walk moves two
/// joints for 2 s, Kick one joint for 3 s.
const THREE_TAKES: &str = include_str!("../../../tests/data/three_takes.x3d");

#[test]
fn several_takes_are_listed_and_the_moving_one_with_most_joints_plays() {
    let load = |take: Option<&str>| {
        let request = skelview_core::formats::LoadRequest::memory("takes.x3d", THREE_TAKES.as_bytes()).unwrap();
        let options = skelview_core::formats::LoadOptions { take: take.map(str::to_owned), ..Default::default() };
        skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut skelview_core::formats::Quiet)
    };
    let m = load(None).unwrap();
    let names: Vec<(&str, usize, bool)> = m.source.takes.iter().map(|t| (t.name.as_str(), t.joints, t.moving)).collect();
    assert_eq!(names, [("Stop", 3, false), ("Walk", 2, true), ("Kick", 1, true)]);
    assert_eq!(m.source.take, Some(1), "a still take is never the default while another moves");
    assert!((m.clip.last_frame_time_secs() - 2.0).abs() < 0.05);
    assert!(m.warnings.iter().any(|w| w.message.contains("3 takes in this file; showing 'Walk'")));
    let kick = load(Some("kick")).unwrap();
    assert_eq!(kick.source.take, Some(2));
    assert!((kick.clip.last_frame_time_secs() - 3.0).abs() < 0.05);
    assert_eq!(load(Some("0")).unwrap().source.take, Some(0));
    let e = load(Some("Run")).unwrap_err().to_string();
    assert!(e.contains("no take 'Run' in this file (takes 0: Stop, 1: Walk, 2: Kick)"), "{e}");
}

#[test]
fn joint_limits_are_read_in_their_frame() {
    let p = parse_vrml(FIXTURE_VRML.as_bytes()).unwrap();
    let limits = p.skeleton.joints()[p.skeleton.find("root").unwrap()].rotation_limits.expect("root has limits");
    assert_eq!((limits.lower, limits.upper), (Vec3::splat(-1.0), Vec3::splat(1.0)));
    assert_eq!(limits.frame, glam::Quat::IDENTITY);
    assert_eq!(p.skeleton.joints()[p.skeleton.find("child").unwrap()].rotation_limits, None);
    let turned = FIXTURE_VRML.replace("ulimit [ 1 1 1 ]", "ulimit [ 1 1 1 ] limitOrientation 1 0 0 1.5707963267948966");
    let limits = parse_vrml(turned.as_bytes()).unwrap().skeleton.joints()[0].rotation_limits.unwrap();
    assert!((limits.frame.to_axis_angle().1 - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    // One without the other, or the wrong count: ignored, with a warning naming the joint.
    for (from, to, says) in [
        ("ulimit [ 1 1 1 ]", "", "llimit without ulimit"),
        ("ulimit [ 1 1 1 ]", "ulimit [ 1 1 ]", "three numbers"),
        ("llimit [ -1 -1 -1 ]", "llimit [ -1 2 -1 ]", "left free"),
    ] {
        let p = parse_vrml(FIXTURE_VRML.replace(from, to).as_bytes()).unwrap();
        assert!(p.warnings.iter().any(|w| w.message.contains(says) && w.message.contains("'root'")), "{says}: {:?}", p.warnings);
        let limits = p.skeleton.joints()[0].rotation_limits;
        if says == "left free" {
            let l = limits.unwrap();
            assert_eq!((l.lower.y, l.upper.y), (0.0, 0.0), "the crossed axis is free");
            assert_eq!((l.lower.x, l.upper.x), (-1.0, 1.0));
        } else {
            assert_eq!(limits, None);
        }
    }
}

/// A humanoid authored Z-up (as robot models in VRML often are), and the same one Y-up.
fn robot(z_up: bool) -> String {
    let at = |x: f32, up: f32| if z_up { format!("{x} 0 {up}") } else { format!("{x} {up} 0") };
    format!(
        "#X3D V3.3 utf8\nPROFILE Immersive\nDEF H HAnimHumanoid {{ name \"robot\" version \"2.0\" skeleton [\n  DEF R HAnimJoint {{ name \"humanoid_root\" center {} children [\n    DEF LA HAnimJoint {{ name \"l_talocrural\" center {} }}\n    DEF RA HAnimJoint {{ name \"r_talocrural\" center {} }}\n    DEF SK HAnimJoint {{ name \"skullbase\" center {} }}\n  ] }}\n] joints [ USE R USE LA USE RA USE SK ] }}\n",
        at(0.0, 1.0),
        at(0.1, 0.1),
        at(-0.1, 0.1),
        at(0.0, 1.6)
    )
}

#[test]
fn a_humanoid_authored_z_up_is_shown_upright_and_says_why() {
    use skelview_core::core::UpAxis;
    use skelview_core::formats::LoadOptions;
    let load = |text: String| skelview_core::formats::open_bytes("robot.wrl", text.into_bytes(), &LoadOptions::default()).unwrap();
    let m = load(robot(true));
    assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Z, true), "{:?}", m.warnings);
    assert!(m.source.up_reason.contains("declared up axis puts the head below the feet or level with them"), "{}", m.source.up_reason);
    assert!(m.warnings.iter().any(|w| w.message.contains("declares +Y up") && w.message.contains("shown with +Z up")), "{:?}", m.warnings);
    // Authored as the standard says: the declared axis stands.
    let m = load(robot(false));
    assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Y, false));
    assert!(m.warnings.iter().all(|w| !w.message.contains("declares")), "{:?}", m.warnings);
}

/// A robot whose joints are only numbered (as HRP models name them), authored Z-up: legs
/// straight down from the waist, a chest with a head and two arms held out sideways.
fn numbered_robot(z_up: bool) -> String {
    let at = |x: f32, up: f32| if z_up { format!("{x} 0 {up}") } else { format!("{x} {up} 0") };
    let joint = |def: &str, name: &str, x: f32, up: f32, children: &str| {
        format!("DEF {def} HAnimJoint {{ name \"{name}\" center {} children [ {children} ] }}\n", at(x, up))
    };
    let leg = |side: &str, x: f32| {
        let j2 = joint(&format!("{side}2"), &format!("{side}LEG_JOINT5"), x, 0.05, "");
        let j1 = joint(&format!("{side}1"), &format!("{side}LEG_JOINT3"), x, 0.45, &j2);
        joint(&format!("{side}0"), &format!("{side}LEG_JOINT0"), x, 0.85, &j1)
    };
    let arm = |side: &str, x: f32| {
        let j1 = joint(&format!("{side}A1"), &format!("{side}ARM_JOINT5"), x * 2.0, 1.35, "");
        joint(&format!("{side}A0"), &format!("{side}ARM_JOINT0"), x, 1.35, &j1)
    };
    let head = joint("HD", "HEAD_JOINT1", 0.0, 1.6, "");
    let chest = joint("CH", "CHEST_JOINT0", 0.0, 1.1, &format!("{head}{}{}", arm("L", 0.2), arm("R", -0.2)));
    let waist = joint("W", "WAIST", 0.0, 0.9, &format!("{}{}{chest}", leg("L", 0.1), leg("R", -0.1)));
    let uses = ["W", "L0", "L1", "L2", "R0", "R1", "R2", "CH", "HD", "LA0", "LA1", "RA0", "RA1"].map(|d| format!("USE {d}")).join(" ");
    format!(
        "#X3D V3.3 utf8\nPROFILE Immersive\nDEF H HAnimHumanoid {{ name \"hrp\" version \"2.0\" skeleton [\n{waist}] joints [ {uses} ] }}\n"
    )
}

#[test]
fn a_robot_with_numbered_joints_authored_z_up_stands_by_its_tree() {
    use skelview_core::core::UpAxis;
    use skelview_core::formats::LoadOptions;
    let load = |text: String| skelview_core::formats::open_bytes("hrp.wrl", text.into_bytes(), &LoadOptions::default()).unwrap();
    let m = load(numbered_robot(true));
    assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Z, true), "{:?}", m.warnings);
    assert!(m.warnings.iter().any(|w| w.message.contains("declares +Y up") && w.message.contains("shown with +Z up")), "{:?}", m.warnings);
    let m = load(numbered_robot(false));
    assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Y, false), "{:?}", m.warnings);
}

/// A joint of a numbered figure: its name and where it is in the figure's own axes (forward,
/// left, up, as HRP robots are authored), with its children.
struct Numbered(String, [f32; 3], Vec<Numbered>);

/// `figure` as an X3D file, written Z-up as authored or turned Y-up as the standard asks.
fn numbered_x3d(figure: &Numbered, z_up: bool) -> String {
    fn write(j: &Numbered, z_up: bool, out: &mut String, uses: &mut Vec<String>) {
        let [f, l, u] = j.1;
        let at = if z_up { format!("{f} {l} {u}") } else { format!("{l} {u} {f}") };
        out.push_str(&format!("DEF {0} HAnimJoint {{ name \"{0}\" center {at} children [\n", j.0));
        uses.push(format!("USE {}", j.0));
        j.2.iter().for_each(|c| write(c, z_up, out, uses));
        out.push_str("] }\n");
    }
    let (mut body, mut uses) = (String::new(), Vec::new());
    write(figure, z_up, &mut body, &mut uses);
    format!(
        "#X3D V3.3 utf8\nPROFILE Immersive\nDEF H HAnimHumanoid {{ name \"figure\" version \"2.0\" skeleton [\n{body}] joints [ {} ] }}\n",
        uses.join(" ")
    )
}

/// A chain of joints `NAME0`, `NAME1`, … through `points`, the last with `end` as children.
fn numbered_chain(name: &str, points: &[[f32; 3]], end: Vec<Numbered>) -> Numbered {
    let mut node = Numbered(format!("{name}{}", points.len() - 1), points[points.len() - 1], end);
    for i in (0..points.len() - 1).rev() {
        node = Numbered(format!("{name}{i}"), points[i], vec![node]);
    }
    node
}

/// An HRP-like robot: Y to its left (so as wide along the declared Y as it is tall, arms held
/// out), feet that fork into toe and heel, and legs that hang from the waist or from a pelvis
/// of their own.
fn wide_robot(pelvis: bool) -> Numbered {
    let leg = |name, side: f32| {
        let foot = vec![Numbered(format!("{name}3"), [0.12, side, 0.0], vec![]), Numbered(format!("{name}4"), [-0.06, side, 0.0], vec![])];
        numbered_chain(name, &[[0.0, side, 0.72], [0.0, side, 0.4], [0.0, side, 0.08]], foot)
    };
    let arm = |name, side: f32| numbered_chain(name, &[[0.0, side * 0.2, 1.3], [0.0, side * 0.45, 1.3], [0.0, side * 0.7, 1.3]], vec![]);
    let head = numbered_chain("HEAD_JOINT", &[[0.0, 0.0, 1.35], [0.0, 0.0, 1.5]], vec![]);
    let chest = Numbered("CHEST_JOINT1".into(), [0.0, 0.0, 1.1], vec![head, arm("LARM_JOINT", 1.0), arm("RARM_JOINT", -1.0)]);
    let legs = vec![leg("LLEG_JOINT", 0.08), leg("RLEG_JOINT", -0.08)];
    let legs = if pelvis { vec![Numbered("PELVIS".into(), [0.0, 0.0, 0.74], legs)] } else { legs };
    Numbered(
        "WAIST".into(),
        [0.0, 0.0, 0.75],
        legs.into_iter().chain([Numbered("CHEST_JOINT0".into(), [0.0, 0.0, 0.95], vec![chest])]).collect(),
    )
}

/// A quadruped with numbered joints, standing: hind legs from the hips, a tail, a spine to
/// the front legs and the neck.
fn numbered_quadruped() -> Numbered {
    let leg = |name, x: f32, side: f32| numbered_chain(name, &[[x, side, 0.5], [x, side, 0.25], [x + 0.05, side, 0.0]], vec![]);
    let tail = numbered_chain("TAIL", &[[-0.1, 0.0, 0.55], [-0.4, 0.0, 0.5]], vec![]);
    let neck = numbered_chain("NECK", &[[0.85, 0.0, 0.65], [1.0, 0.0, 0.8]], vec![]);
    let shoulders = Numbered("SPINE2".into(), [0.8, 0.0, 0.55], vec![neck, leg("FL", 0.8, 0.12), leg("FR", 0.8, -0.12)]);
    let spine = Numbered("SPINE1".into(), [0.4, 0.0, 0.55], vec![shoulders]);
    Numbered("HIPS".into(), [0.0, 0.0, 0.55], vec![leg("HL", 0.0, 0.12), leg("HR", 0.0, -0.12), tail, spine])
}

#[test]
fn numbered_figures_stand_by_their_legs_however_wide_they_are() {
    use skelview_core::core::UpAxis;
    use skelview_core::formats::LoadOptions;
    let load = |text: String| skelview_core::formats::open_bytes("figure.wrl", text.into_bytes(), &LoadOptions::default()).unwrap();
    for pelvis in [false, true] {
        let m = load(numbered_x3d(&wide_robot(pelvis), true));
        assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Z, true), "pelvis {pelvis}: {:?}", m.warnings);
        assert!(m.warnings.iter().any(|w| w.message.contains("shown with +Z up")), "{:?}", m.warnings);
        let m = load(numbered_x3d(&wide_robot(pelvis), false));
        assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Y, false), "pelvis {pelvis}: {:?}", m.warnings);
    }
    // A quadruped authored Y-up keeps it: its hind legs hang down too.
    let m = load(numbered_x3d(&numbered_quadruped(), false));
    assert_eq!((m.source.up_axis, m.source.up_detected), (UpAxis::Y, false), "{:?}", m.warnings);
}
