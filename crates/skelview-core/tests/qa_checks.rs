//! Capture checks on injected artifacts: clean corpus clips get one artifact each, made here
//! from the clip's own numbers (a jump, noise, a drift, repeated rows, an Euler wrap, a
//! channel past its limit, a stretched bone, a sunk body), and the finding must appear with
//! the right kind, joint and frames while the untouched clip does not have it. Files unlike the
//! corpus (a prop, missing values, absurd numbers) too. `qa` on the command line is tested
//! beside the binary (tests/qa.rs at the root).

use skelview_test_support as support;

use std::path::PathBuf;

use skelview_core::core::{ChannelKind, Clip, Motion};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};
use skelview_core::qa::{self, Finding, Kind, Report, Thresholds};

fn load(paths: &[PathBuf]) -> Motion {
    let request = LoadRequest::from_paths(paths).pop().unwrap().unwrap();
    formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap()
}

fn corpus_file(rel: &str) -> Option<PathBuf> {
    support::corpus().map(|c| c.join(rel))
}

/// `m` with its channel values changed by `change(values, channels_per_frame)`.
fn edited(m: &Motion, change: impl FnOnce(&mut [f32], usize)) -> Motion {
    let cpf = m.clip.channels_per_frame();
    let mut values = m.clip.values().to_vec();
    change(&mut values, cpf);
    let mut out = m.clone();
    out.clip = Clip::new(m.clip.frame_time_secs, cpf, m.clip.num_frames(), values);
    out
}

fn joint(m: &Motion, name: &str) -> usize {
    m.skeleton.find(name).unwrap_or_else(|| panic!("no joint {name}"))
}

/// Row index of `joint`'s channel `kind`.
fn channel(m: &Motion, joint: usize, kind: ChannelKind) -> usize {
    let j = &m.skeleton.joints()[joint];
    j.first_channel + j.channels.iter().position(|&c| c == kind).unwrap_or_else(|| panic!("{} has no {kind:?}", j.name))
}

fn analyse(m: &Motion) -> Report {
    qa::analyse(m, &Thresholds::default(), &Kind::ALL, &|_| {})
}

/// Findings of `kind` on `joint` (None: whole pose) overlapping frames `a..=b`.
fn near(r: &Report, kind: Kind, joint: Option<usize>, a: usize, b: usize) -> Vec<&Finding> {
    r.findings.iter().filter(|f| f.kind == kind && f.joint == joint && f.start_frame <= b && a <= f.end_frame).collect()
}

fn within(x: usize, target: usize, tolerance: usize) -> bool {
    x.abs_diff(target) <= tolerance
}

/// Deterministic Gaussian samples (LCG + Box–Muller): the test must not change between runs.
struct Noise(u64);

impl Noise {
    fn uniform(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32 + 0.5) / (1u64 << 24) as f32
    }

    fn gaussian(&mut self) -> f32 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    }
}

fn cmu() -> Option<Motion> {
    corpus_file("bvh/cmu_cgspeed_01_01.bvh").map(|p| load(&[p]))
}

#[test]
fn a_one_frame_rotation_jump_is_a_pop_on_that_joint() {
    let Some(m) = cmu() else { return };
    let arm = joint(&m, "LeftForeArm");
    let c = channel(&m, arm, ChannelKind::RotateZ);
    let popped = edited(&m, |v, cpf| v[1000 * cpf + c] += 40f32.to_radians());
    let found = analyse(&popped);
    let pops = near(&found, Kind::Pop, Some(arm), 995, 1005);
    assert_eq!(pops.len(), 1, "{:#?}", found.findings);
    assert!(within(pops[0].start_frame, 1000, 1) && within(pops[0].end_frame, 1000, 1), "{:?}", pops[0]);
    assert!((pops[0].value - 40.0).abs() < 8.0 && pops[0].unit == "deg", "{:?}", pops[0]);
    assert!(pops[0].message.contains("comes back"), "{}", pops[0].message);
    assert!(near(&analyse(&m), Kind::Pop, Some(arm), 995, 1005).is_empty());
}

#[test]
fn a_root_that_jumps_and_stays_is_a_pop_on_the_root() {
    let Some(m) = cmu() else { return };
    let root = m.skeleton.roots().next().unwrap();
    let c = channel(&m, root, ChannelKind::TranslateX);
    let raw = 0.3 / m.metres_per_raw_unit();
    let moved = edited(&m, |v, cpf| {
        for f in 1500..m.clip.num_frames() {
            v[f * cpf + c] += raw;
        }
    });
    let found = analyse(&moved);
    let pops = near(&found, Kind::Pop, Some(root), 1490, 1510);
    assert_eq!(pops.len(), 1, "{:#?}", found.findings);
    assert!(within(pops[0].start_frame, 1500, 1) && within(pops[0].end_frame, 1500, 1), "{:?}", pops[0]);
    assert!((pops[0].value - 0.3).abs() < 0.05 && pops[0].unit == "m", "{:?}", pops[0]);
    assert!(near(&analyse(&m), Kind::Pop, Some(root), 1490, 1510).is_empty());
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_sudden_stop_at_30_fps_is_not_jitter() {
    // The root glides along X at 4.5 cm a frame (1.35 m/s) and halts for one frame, as a foot
    // does at a heel strike: one abrupt change, which the windowed mean alone reads as 5 mm
    // of noise at 30 fps (and which stays under the pop floor of 5 cm).
    let Some(p) = corpus_file("bvh/bandai1_walk_normal_002.bvh") else { return };
    let m = load(&[p]);
    let root = m.skeleton.roots().next().unwrap();
    let x = channel(&m, root, ChannelKind::TranslateX);
    let (n, stop) = (m.clip.num_frames(), m.clip.num_frames() / 2);
    let step_raw = 0.045 / m.metres_per_raw_unit();
    let glide = |halts: bool| {
        edited(&m, |v, cpf| {
            for f in 0..n {
                let moving_steps = if halts && f >= stop { f - 1 } else { f };
                v[f * cpf + x] = moving_steps as f32 * step_raw;
            }
        })
    };
    let found = analyse(&glide(true));
    let around =
        |r: &Report| r.findings.iter().filter(|f| f.start_frame <= stop + 8 && stop <= f.end_frame + 8).cloned().collect::<Vec<_>>();
    let near_stop = around(&found);
    assert!(!near_stop.iter().any(|f| f.kind == Kind::Jitter || f.kind == Kind::Pop), "{near_stop:#?}");
    // Noise on the same glide is still found.
    let mut noise = Noise(11);
    let sigma_raw = 0.006 / m.metres_per_raw_unit();
    let noisy = edited(&glide(true), |v, cpf| {
        for f in stop - 15..stop + 15 {
            v[f * cpf + x] += sigma_raw * noise.gaussian();
        }
    });
    assert!(around(&analyse(&noisy)).iter().any(|f| f.kind == Kind::Jitter && f.joint == Some(root)));
}

#[test]
fn noise_of_a_few_millimetres_over_a_second_is_jitter_on_that_joint() {
    let Some(m) = cmu() else { return };
    let root = m.skeleton.roots().next().unwrap();
    let channels: Vec<usize> =
        [ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ].map(|k| channel(&m, root, k)).to_vec();
    let sigma_raw = 0.006 / m.metres_per_raw_unit();
    let fps = m.clip.fps().round() as usize;
    let (a, b) = (600, 600 + fps - 1);
    let mut noise = Noise(7);
    let noisy = edited(&m, |v, cpf| {
        for f in a..=b {
            for &c in &channels {
                v[f * cpf + c] += sigma_raw * noise.gaussian();
            }
        }
    });
    let found = analyse(&noisy);
    let jitter = near(&found, Kind::Jitter, Some(root), a, b);
    assert_eq!(jitter.len(), 1, "{:#?}", found.findings.iter().filter(|f| f.kind == Kind::Jitter).collect::<Vec<_>>());
    // The smoothing filter reaches four frames either side of a noisy frame.
    assert!(within(jitter[0].start_frame, a, 4) && within(jitter[0].end_frame, b, 4), "{:?}", jitter[0]);
    assert!((4.0..9.0).contains(&jitter[0].value) && jitter[0].unit == "mm", "{:?}", jitter[0]);
    assert!(
        found.findings.iter().filter(|f| f.kind == Kind::Jitter && f.start_frame <= b && a <= f.end_frame).count() == 1,
        "the joints the root carries are not reported again"
    );
    assert!(near(&analyse(&m), Kind::Jitter, Some(root), 0, m.clip.num_frames()).is_empty());
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_root_drifting_during_a_walk_makes_the_planted_foot_slide() {
    let Some(p) = corpus_file("bvh/pymo_AV_8Walk_Meredith_XYZ.bvh") else { return };
    let m = load(&[p]);
    let root = m.skeleton.roots().next().unwrap();
    let c = channel(&m, root, ChannelKind::TranslateX);
    let (a, b) = (200, 320);
    let drift = 0.2 / m.metres_per_raw_unit();
    let drifting = edited(&m, |v, cpf| {
        for f in a..m.clip.num_frames() {
            v[f * cpf + c] += drift * ((f - a) as f32 / (b - a) as f32).min(1.0);
        }
    });
    let is_foot = |f: &&Finding| {
        let name = m.skeleton.joints()[f.joint.unwrap()].name.to_ascii_lowercase();
        name.contains("foot") || name.contains("toe")
    };
    let found = analyse(&drifting);
    let slides: Vec<&Finding> =
        found.findings.iter().filter(|f| f.kind == Kind::FootSlide && f.start_frame <= b && a <= f.end_frame).filter(is_foot).collect();
    assert!(!slides.is_empty(), "{:#?}", found.findings);
    for s in &slides {
        // A contact that outlasts the drift may add the foot's own roll after it.
        assert!(s.start_frame + 1 >= a && s.start_frame <= b + 1, "slides start inside the drift: {s:?}");
        assert!(s.value > 0.05 && s.unit == "m", "{s:?}");
    }
    assert!(slides.iter().any(|s| s.end_frame <= b + 1), "a contact inside the drift slides: {slides:#?}");
    let clean = analyse(&m);
    assert!(!clean.findings.iter().any(|f| f.kind == Kind::FootSlide && f.start_frame <= b && a <= f.end_frame));
}

#[test]
fn repeated_rows_are_a_frozen_stretch_of_the_whole_pose() {
    let Some(m) = cmu() else { return };
    let (a, b) = (1200, 1259);
    let held = edited(&m, |v, cpf| {
        let row: Vec<f32> = v[(a - 1) * cpf..a * cpf].to_vec();
        for f in a..=b {
            v[f * cpf..(f + 1) * cpf].copy_from_slice(&row);
        }
    });
    let found = analyse(&held);
    let frozen = near(&found, Kind::Frozen, None, a, b);
    assert_eq!(frozen.len(), 1, "{:#?}", found.findings);
    assert_eq!((frozen[0].start_frame, frozen[0].end_frame), (a, b));
    assert!((frozen[0].value - 60.0 * m.clip.frame_time_secs as f32).abs() < 1e-3);
    assert!(!found.findings.iter().any(|f| f.kind == Kind::Frozen && f.joint.is_some()), "a held row is not also every joint held");
    assert!(!analyse(&m).findings.iter().any(|f| f.kind == Kind::Frozen));
}

#[test]
fn a_full_turn_added_to_one_euler_channel_is_a_flip_not_a_pop() {
    let Some(m) = cmu() else { return };
    let arm = joint(&m, "LeftArm");
    let c = channel(&m, arm, ChannelKind::RotateY);
    let wrapped = edited(&m, |v, cpf| {
        for f in 800..m.clip.num_frames() {
            v[f * cpf + c] += std::f32::consts::TAU;
        }
    });
    let found = analyse(&wrapped);
    let flips = near(&found, Kind::Flip, Some(arm), 0, m.clip.num_frames());
    assert_eq!(flips.len(), 1, "{:#?}", found.findings);
    assert_eq!((flips[0].start_frame, flips[0].end_frame), (800, 800));
    assert!((flips[0].value - 360.0).abs() < 1.0, "{:?}", flips[0]);
    assert!(near(&found, Kind::Pop, Some(arm), 795, 805).is_empty(), "the rotation itself did not jump");
    assert!(near(&analyse(&m), Kind::Flip, Some(arm), 0, m.clip.num_frames()).is_empty());
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_stored_quaternion_changing_sign_is_a_flip() {
    let Some(p) = corpus_file("acl/104_30.acl.sjson") else { return };
    let m = load(&[p]);
    let knee = joint(&m, "lShin");
    let quat = [ChannelKind::QuatX, ChannelKind::QuatY, ChannelKind::QuatZ, ChannelKind::QuatW].map(|k| channel(&m, knee, k));
    let negated = edited(&m, |v, cpf| {
        for f in 100..m.clip.num_frames() {
            for &c in &quat {
                v[f * cpf + c] = -v[f * cpf + c];
            }
        }
    });
    let found = analyse(&negated);
    let flips = near(&found, Kind::Flip, Some(knee), 0, m.clip.num_frames());
    assert_eq!(flips.len(), 1, "{:#?}", found.findings);
    assert_eq!((flips[0].start_frame, flips[0].end_frame), (100, 100));
    assert!(flips[0].value > 300.0 && flips[0].message.contains("quaternion changes sign"), "{:?}", flips[0]);
    assert!(near(&found, Kind::Pop, Some(knee), 95, 105).is_empty(), "the same rotation: no pop");
    assert!(near(&analyse(&m), Kind::Flip, Some(knee), 0, m.clip.num_frames()).is_empty());
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_channel_pushed_past_its_asf_limit_is_a_limit_finding() {
    let Some(dir) = corpus_file("asfamc") else { return };
    let m = load(&[dir.join("hdm05_HDM_dg.asf"), dir.join("hdm05_HDM_dg_06-03_03_120.amc")]);
    let femur = joint(&m, "lfemur");
    let j = &m.skeleton.joints()[femur];
    let i = j.channels.iter().position(|&k| k == ChannelKind::RotateX).unwrap();
    let (_, hi) = j.limits[i];
    let c = j.first_channel + i;
    let pushed = edited(&m, |v, cpf| {
        for f in 50..=59 {
            v[f * cpf + c] = hi + 20f32.to_radians();
        }
    });
    let found = analyse(&pushed);
    let over = near(&found, Kind::Limit, Some(femur), 0, m.clip.num_frames());
    assert_eq!(over.len(), 1, "{:#?}", found.findings);
    assert_eq!((over[0].start_frame, over[0].end_frame), (50, 59));
    assert!((over[0].value - 20.0).abs() < 0.01 && over[0].unit == "deg", "{:?}", over[0]);
    assert!(near(&analyse(&m), Kind::Limit, Some(femur), 0, m.clip.num_frames()).is_empty());
}

/// An H-Anim humanoid whose elbow turns 0 → 90° about Z over a 2 s cycle, with `limits` in
/// its joint (written to a file and loaded as a user would).
fn hanim_elbow(limits: &str) -> (Motion, tempfile::TempDir) {
    let text = format!(
        "#X3D V3.3 utf8\nPROFILE Immersive\nCOMPONENT HAnim:1\n\
         HAnimHumanoid {{ name \"arm\" version \"2.0\" skeleton [\n\
         DEF Shoulder HAnimJoint {{ name \"l_shoulder\" center 0 1.4 0 children [\n\
         DEF Elbow HAnimJoint {{ name \"l_elbow\" center 0.3 1.4 0 {limits} children [\n\
         HAnimJoint {{ name \"l_wrist\" center 0.55 1.4 0 }} ] }} ] }} ] }}\n\
         DEF Clock TimeSensor {{ cycleInterval 2 loop TRUE }}\n\
         DEF Bend OrientationInterpolator {{ key [ 0 1 ] keyValue [ 0 0 1 0, 0 0 1 1.5707963267948966 ] }}\n\
         ROUTE Clock.fraction_changed TO Bend.set_fraction\n\
         ROUTE Bend.value_changed TO Elbow.set_rotation\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("elbow.x3dv");
    std::fs::write(&path, text).unwrap();
    (load(&[path]), dir)
}

#[test]
fn an_hanim_joint_turned_past_its_llimit_ulimit_is_a_limit_finding() {
    let (m, _dir) = hanim_elbow("llimit [ -1 -0.5 -1 ] ulimit [ 1 0.5 1 ]");
    let elbow = joint(&m, "l_elbow");
    let n = m.clip.num_frames();
    // A looping cycle: frame f is at f·dt of the 2 s cycle (the last frame just before 2 s).
    let angle = |f: usize| (f as f64 * m.clip.frame_time_secs / 2.0).min(1.0) as f32 * std::f32::consts::FRAC_PI_2;
    let first_past = (0..n).find(|&f| angle(f) > 1.0 + 1f32.to_radians()).unwrap();
    let found = analyse(&m);
    let over = near(&found, Kind::Limit, Some(elbow), 0, n);
    assert_eq!(over.len(), 1, "{:#?}", found.findings);
    assert!(within(over[0].start_frame, first_past, 1) && over[0].end_frame == n - 1, "{:?} (first past: {first_past})", over[0]);
    let excess = (angle(n - 1) - 1.0).to_degrees();
    assert!((over[0].value - excess).abs() < 0.1, "{:?}", over[0]);
    assert!(over[0].message.contains(" Z ") && over[0].message.contains("upper"), "{}", over[0].message);
    // In a limit frame turned 90° about X the same bend is about the frame's Y axis, where
    // the limits are tighter.
    let (turned, _dir) = hanim_elbow("llimit [ -1 -0.5 -1 ] ulimit [ 1 0.5 1 ] limitOrientation 1 0 0 1.5707963267948966");
    let over = near(&analyse(&turned), Kind::Limit, Some(elbow), 0, n).into_iter().cloned().collect::<Vec<_>>();
    assert_eq!(over.len(), 1);
    assert!(over[0].message.contains(" Y ") && (over[0].value - (angle(n - 1) - 0.5).to_degrees()).abs() < 0.1, "{:?}", over[0]);
    // Inside wider limits, and with equal limits (no constraint), nothing.
    for free in ["llimit [ -2 -2 -2 ] ulimit [ 2 2 2 ]", "llimit [ 0 0 0 ] ulimit [ 0 0 0 ]", ""] {
        let (m, _dir) = hanim_elbow(free);
        assert!(near(&analyse(&m), Kind::Limit, Some(elbow), 0, n).is_empty(), "{free}");
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_stretched_bone_in_a_file_with_translations_everywhere() {
    let Some(p) = corpus_file("bvh/bandai2_walk_normal_001.bvh") else { return };
    let m = load(&[p]);
    let shin = joint(&m, "LowerLeg_L");
    let channels: Vec<usize> =
        [ChannelKind::TranslateX, ChannelKind::TranslateY, ChannelKind::TranslateZ].map(|k| channel(&m, shin, k)).to_vec();
    let stretched = edited(&m, |v, cpf| {
        for f in 100..=109 {
            for &c in &channels {
                v[f * cpf + c] *= 1.2;
            }
        }
    });
    let found = analyse(&stretched);
    let bones = near(&found, Kind::BoneLength, Some(shin), 0, m.clip.num_frames());
    assert_eq!(bones.len(), 1, "{:#?}", found.findings);
    assert_eq!((bones[0].start_frame, bones[0].end_frame), (100, 109));
    assert!((bones[0].value - 20.0).abs() < 1.0 && bones[0].unit == "%", "{:?}", bones[0]);
    assert!(!analyse(&m).findings.iter().any(|f| f.kind == Kind::BoneLength));
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_body_lowered_through_the_floor() {
    let Some(p) = corpus_file("bvh/pymo_AV_8Walk_Meredith_XYZ.bvh") else { return };
    let m = load(&[p]);
    let root = m.skeleton.roots().next().unwrap();
    let c = channel(&m, root, ChannelKind::TranslateY);
    let down = 0.15 / m.metres_per_raw_unit();
    let sunk = edited(&m, |v, cpf| {
        for f in 300..=320 {
            v[f * cpf + c] -= down;
        }
    });
    let found = analyse(&sunk);
    let under: Vec<&Finding> =
        found.findings.iter().filter(|f| f.kind == Kind::Floor && f.start_frame <= 320 && 300 <= f.end_frame).collect();
    assert!(!under.is_empty(), "{:#?}", found.findings);
    for f in &under {
        assert!(within(f.start_frame, 300, 1) && within(f.end_frame, 320, 1), "{f:?}");
        assert!(f.value > 0.05 && f.unit == "m", "{f:?}");
    }
    assert!(!analyse(&m).findings.iter().any(|f| f.kind == Kind::Floor && f.start_frame <= 320 && 300 <= f.end_frame));
}

#[test]
fn a_raised_arm_in_the_first_frame_is_not_a_neutral_pose() {
    let Some(m) = cmu() else { return };
    let clean = analyse(&m);
    assert_eq!(clean.neutral[0].shape, "T-pose", "{:?}", clean.neutral[0]);
    assert_eq!(clean.neutral[0].facing.map(|f| f.signed_name()), Some("+Z".into()));
    assert!(!clean.findings.iter().any(|f| f.kind == Kind::NeutralPose), "01_01 starts in a T-pose");
    let arm = joint(&m, "LeftArm");
    let c = channel(&m, arm, ChannelKind::RotateZ);
    let raised = edited(&m, |v, _| v[c] += 70f32.to_radians());
    let found = analyse(&raised);
    let neutral: Vec<&Finding> = found.findings.iter().filter(|f| f.kind == Kind::NeutralPose).collect();
    assert_eq!(neutral.len(), 1, "only the first frame changed: {neutral:#?}");
    let name = &m.skeleton.joints()[neutral[0].joint.unwrap()].name;
    assert!(name.starts_with("LeftArm") || name.starts_with("LeftForeArm"), "{name}");
    assert!((neutral[0].value - 70.0).abs() < 10.0, "{:?}", neutral[0]);
}

fn load_text(name: &str, text: &str) -> Motion {
    skelview_core::formats::open_bytes(name, std::sync::Arc::<[u8]>::from(text.as_bytes()), &LoadOptions::default()).unwrap()
}

fn bvh(header: &str, rows: &[String], frame_time: f32) -> String {
    format!("HIERARCHY\n{header}MOTION\nFrames: {}\nFrame Time: {frame_time}\n{}\n", rows.len(), rows.join("\n"))
}

#[test]
fn files_unlike_the_corpus_are_checked_without_guessing_a_body() {
    // A prop: one joint gliding along X, no limbs, no feet.
    let prop = "ROOT cup\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 10 0\n }\n}\n";
    let rows: Vec<String> = (0..200).map(|f| format!("{} 80 0 0 0 {}", f as f32 * 0.5, f as f32 * 0.7)).collect();
    let m = load_text("prop.bvh", &bvh(prop, &rows, 1.0 / 60.0));
    let r = analyse(&m);
    assert_eq!(r.frames, 200);
    assert_eq!(r.neutral[0].shape, "unknown");
    assert!(r.findings.is_empty(), "a smooth glide has nothing wrong: {:#?}", r.findings);
    // The same prop jumping 40 cm for one frame.
    let mut jumped = rows.clone();
    jumped[120] = format!("{} 80 0 0 0 {}", 120.0 * 0.5 + 40.0, 120.0 * 0.7);
    let r = analyse(&load_text("prop.bvh", &bvh(prop, &jumped, 1.0 / 60.0)));
    let pops: Vec<&Finding> = r.findings.iter().filter(|f| f.kind == Kind::Pop).collect();
    assert_eq!(pops.len(), 1, "{:#?}", r.findings);
    assert_eq!((pops[0].joint, pops[0].start_frame, pops[0].end_frame), (Some(0), 120, 120));
    // A rest pose alone: only the rest-pose verdict.
    let r = analyse(&load_text("rest.bvh", &bvh(prop, &[], 1.0 / 30.0)));
    assert_eq!((r.frames, r.neutral.len()), (0, 1));
    assert!(r.findings.is_empty());
}

#[test]
fn values_the_file_left_missing_and_absurd_numbers_are_findings_not_panics() {
    let header = "ROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n JOINT knee\n {\n  OFFSET 0 -40 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 -40 0\n  }\n }\n}\n";
    let rows: Vec<String> = (0..120)
        .map(|f| {
            let knee = if (40..50).contains(&f) { "nan nan nan".to_owned() } else { format!("{} 0 0", (f as f32 * 0.1).sin() * 30.0) };
            let x = if f == 90 { "1e30".to_owned() } else { format!("{}", f as f32) };
            format!("{x} 90 0 0 0 0 {knee}")
        })
        .collect();
    let m = load_text("nan.bvh", &bvh(header, &rows, 1.0 / 30.0));
    let r = analyse(&m);
    let knee = m.skeleton.find("knee").unwrap();
    let missing: Vec<&Finding> = r.findings.iter().filter(|f| f.kind == Kind::Frozen && f.joint == Some(knee)).collect();
    assert_eq!(missing.len(), 1, "{:#?}", r.findings);
    assert_eq!((missing[0].start_frame, missing[0].end_frame), (40, 49));
    assert!(missing[0].message.contains("missing"), "{}", missing[0].message);
    assert!(r.findings.iter().any(|f| f.kind == Kind::Pop && f.joint == Some(0) && f.covers(90)), "{:#?}", r.findings);
    for f in &r.findings {
        assert!(f.value.is_finite() || f.kind == Kind::Pop, "{f:?}");
    }
}
