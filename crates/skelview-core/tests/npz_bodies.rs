//! SMPL-family motions and HumanML3D joints in NumPy files, on synthetic body models and
//! motions written here in the real files' layouts (no model or AMASS file may be in the
//! repository): joints against the models' equations written out again below in f64, the
//! gender picking the model, HumanML3D joints as written, and each bad input's error.

use std::path::PathBuf;

use glam::{DVec3, Mat4};
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler, UpAxis};
use skelview_core::formats::npz::{self, BodyModel, Family, ReadOptions};
use skelview_core::formats::{LoadRequest, Quiet};

mod npz_support;
use npz_support::*;

// ---- tests -------------------------------------------------------------------------------

#[test]
fn amass_smplh_joints_follow_the_male_model_from_a_folder() {
    let (dir, male, female, ..) = models_folder();
    let mut r = Random(10);
    let (frames, width) = (4, 156);
    let p = poses(&mut r, frames, width);
    let trans = r.many(frames * 3, 1.0);
    let betas = r.many(16, 1.5);
    let file = npz(
        vec![
            ("trans", f8(&[frames, 3], &trans)),
            ("gender", unicode("male")),
            ("mocap_framerate", f8(&[], &[120.0])),
            ("betas", f8(&[16], &betas)),
            ("dmpls", f8(&[frames, 8], &r.many(frames * 8, 1.0))),
            ("poses", f8(&[frames, width], &p)),
        ],
        true,
    );
    let m = load("walk_poses.npz", &file, &with_model(dir.path())).unwrap();
    assert_eq!((m.skeleton.len(), m.clip.num_frames(), m.clip.fps()), (52, frames, 120.0));
    // The gender saved as a Python object (pickled, never unpickled) picks the same model.
    let pickled_gender = npz(vec![("gender", pickled("male")), ("poses", f8(&[frames, width], &p))], false);
    let pm = load("walk_poses.npz", &pickled_gender, &with_model(dir.path())).unwrap();
    assert!(pm.source.details.iter().any(|(k, v)| k == "body model" && v.ends_with("smplh/male/model.npz")), "{:?}", pm.source.details);
    assert_eq!(m.skeleton.joints()[37].name, "right_index1");
    assert!(m.source.details.iter().any(|(k, v)| k == "body model" && v.ends_with("smplh/male/model.npz")), "{:?}", m.source.details);
    let row = |f: usize| (&p[f * width..(f + 1) * width], &trans[f * 3..f * 3 + 3]);
    assert_joints(&m, |f| male.posed_joints(&betas, row(f).0, row(f).1), 1e-5);
    // Not the female model's joints.
    let fj = female.posed_joints(&betas, row(0).0, row(0).1);
    let mj = male.posed_joints(&betas, row(0).0, row(0).1);
    assert!((0..3).any(|k| (fj[5][k] - mj[5][k]).abs() > 1e-3));
}

#[test]
fn amass_smplx_with_pickled_members_and_the_female_model() {
    let (dir, .., x_female, _) = models_folder();
    let mut r = Random(11);
    let frames = 3;
    let p = poses(&mut r, frames, 165);
    let trans = r.many(frames * 3, 1.0);
    let betas = r.many(16, 1.0);
    let part =
        |from: usize, width: usize| -> Vec<f64> { (0..frames).flat_map(|f| p[f * 165 + from..f * 165 + from + width].to_vec()).collect() };
    let file = npz(
        vec![
            ("gender", npy("|S6", &[], b"female".to_vec())),
            ("surface_model_type", unicode("smplx")),
            ("mocap_frame_rate", f8(&[], &[60.0])),
            ("mocap_time_length", f8(&[], &[0.05])),
            ("markers_latent_vids", object()),
            ("trans", f4_big(&[frames, 3], &trans)),
            ("poses", f8(&[frames, 165], &p)),
            ("betas", f8(&[16], &betas)),
            ("num_betas", npy("<i8", &[], 16i64.to_le_bytes().to_vec())),
            ("root_orient", f8(&[frames, 3], &part(0, 3))),
            ("pose_body", f8(&[frames, 63], &part(3, 63))),
            ("pose_hand", f8(&[frames, 90], &part(75, 90))),
            ("pose_jaw", f8(&[frames, 3], &part(66, 3))),
            ("pose_eye", f8(&[frames, 6], &part(69, 6))),
        ],
        false,
    );
    let m = load("x_stageii.npz", &file, &with_model(dir.path())).unwrap();
    assert_eq!((m.skeleton.len(), m.clip.fps()), (55, 60.0));
    let names: Vec<&str> = m.skeleton.joints().iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names[22..26], ["jaw", "left_eye_smplhf", "right_eye_smplhf", "left_index1"]);
    let trans32: Vec<f64> = trans.iter().map(|t| f64::from(*t as f32)).collect();
    assert_joints(&m, |f| x_female.posed_joints(&betas, &p[f * 165..(f + 1) * 165], &trans32[f * 3..f * 3 + 3]), 1e-5);
}

#[test]
fn plain_smpl_without_a_rate_asks_for_fps_and_motion_x_rows_read() {
    let (dir, .., x_female, smpl) = models_folder();
    let mut r = Random(12);
    let p = poses(&mut r, 3, 72);
    let trans = r.many(9, 1.0);
    let betas = r.many(10, 1.0);
    let file = npz(vec![("poses", f8(&[3, 72], &p)), ("trans", f8(&[3, 3], &trans)), ("betas", f8(&[10], &betas))], false);
    let m = load("smpl.npz", &file, &with_model(dir.path())).unwrap();
    assert_eq!((m.skeleton.len(), m.clip.fps()), (24, 30.0));
    assert_eq!(m.skeleton.joints()[23].name, "right_hand");
    assert!(m.warnings.iter().any(|w| w.message.contains("no frame rate") && w.message.contains("--fps")), "{:?}", m.warnings);
    assert_joints(&m, |f| smpl.posed_joints(&betas, &p[f * 72..(f + 1) * 72], &trans[f * 3..f * 3 + 3]), 1e-5);
    let at_50 = load("smpl.npz", &file, &ReadOptions { fps: Some(50.0), ..with_model(dir.path()) }).unwrap();
    assert_eq!(at_50.clip.fps(), 50.0);
    // Motion-X: T×322 packed SMPL-X rows in one .npy (the female model given as a file).
    let rows = r.many(2 * 322, 0.5);
    let m = load("motionx.npy", &f4(&[2, 322], &rows), &with_model(&dir.path().join("smplx/SMPLX_FEMALE.npz"))).unwrap();
    let rows32: Vec<f64> = rows.iter().map(|v| f64::from(*v as f32)).collect();
    assert_joints(
        &m,
        |f| {
            let row = &rows32[f * 322..(f + 1) * 322];
            let pose: Vec<f64> = [&row[..66], &row[156..159], &[0.0; 6][..], &row[66..156]].concat();
            x_female.posed_joints(&rows32[312..322], &pose, &row[309..312])
        },
        1e-5,
    );
}

#[test]
fn posed_vertices_follow_the_equations() {
    let (dir, male, ..) = models_folder();
    let model = BodyModel::read(&dir.path().join("smplh/male/model.npz"), true).unwrap();
    assert_eq!((model.joints(), model.family(), model.mesh.as_ref().unwrap().faces.len()), (52, Some(Family::SmplH), 104));
    let mut r = Random(13);
    let (pose, trans, betas) = (poses(&mut r, 1, 156), r.many(3, 1.0), r.many(12, 1.0));
    let shaped = model.shape(&betas);
    let got = model.posed_vertices(&shaped, &pose, DVec3::from_slice(&trans)).unwrap();
    let want = male.posed_vertices(&betas, &pose, &trans);
    for (g, w) in got.iter().zip(&want) {
        assert!((*g - DVec3::from_array(*w)).length() < 1e-9, "{g} vs {w:?}");
    }
    let joints = model.posed_joints(&shaped, &pose, DVec3::from_slice(&trans));
    let want = male.posed_joints(&betas, &pose, &trans);
    assert!(joints.iter().zip(&want).all(|(g, w)| (*g - DVec3::from_array(*w)).length() < 1e-9));
    // A model read for its joints only says so when asked for vertices.
    let light = BodyModel::read(&dir.path().join("smplh/male/model.npz"), false).unwrap();
    assert!(light.posed_vertices(&shaped, &pose, DVec3::ZERO).unwrap_err().to_string().contains("posedirs"));
}

#[test]
fn humanml3d_joints_come_out_as_written() {
    let mut r = Random(14);
    let frames = 5;
    // A standing body (the approximate SMPL rest joints, pelvis 0.95 m up) moving a little.
    let rest = npz::approx::rest_joints(Family::Smpl);
    let joints: Vec<f64> = (0..frames)
        .flat_map(|f| rest[..22].iter().flat_map(move |p| [p.x + 0.1 * f as f64, p.y + 0.95, p.z]))
        .zip(r.many(frames * 66, 0.02))
        .map(|(a, b)| a + b)
        .collect();
    let bytes = f4(&[frames, 22, 3], &joints);
    let request = LoadRequest::memory("000021.npy", bytes.clone()).unwrap();
    assert_eq!(request.format.name(), "NumPy");
    let m = load("000021.npy", &bytes, &ReadOptions::default()).unwrap();
    assert_eq!((m.skeleton.len(), m.clip.fps(), m.source.up_axis), (22, 20.0, UpAxis::Y));
    assert_eq!(m.skeleton.joints()[15].name, "head");
    assert_eq!(m.skeleton.joints()[21].parent, Some(19));
    let j32: Vec<f64> = joints.iter().map(|v| f64::from(*v as f32)).collect();
    assert_joints(&m, |f| (0..22).map(|j| std::array::from_fn(|k| j32[(f * 22 + j) * 3 + k])).collect(), 1e-6);
    // Written back as an array of joints (`positions -o FILE.npy`), it reads as the same
    // HumanML3D joints.
    let mut written = Vec::new();
    let all: Vec<usize> = (0..frames).collect();
    skelview_core::export::positions::write_npy(&m, &all, false, &mut written, &mut |_, _| std::ops::ControlFlow::Continue(())).unwrap();
    assert_eq!(written.len(), 128 + frames * 22 * 3 * 4);
    let again = load("again.npy", &written, &ReadOptions::default()).unwrap();
    assert_eq!((again.skeleton.len(), again.clip.num_frames()), (22, frames));
    assert_joints(&again, |f| (0..22).map(|j| std::array::from_fn(|k| j32[(f * 22 + j) * 3 + k])).collect(), 1e-6);
    // Features (new_joint_vecs): a still root with ground height and root-relative joints.
    let mut features = vec![0.0; 2 * 263];
    for f in 0..2 {
        features[f * 263 + 3] = 0.95;
        features[f * 263 + 4..f * 263 + 67].copy_from_slice(&r.many(63, 0.5));
    }
    let m = load("vecs.npy", &f8(&[2, 263], &features), &ReadOptions::default()).unwrap();
    assert_joints(
        &m,
        |f| {
            let mut out = vec![[0.0, 0.95, 0.0]];
            out.extend((0..21).map(|j| std::array::from_fn(|k| features[f * 263 + 4 + j * 3 + k])));
            out
        },
        1e-5,
    );
}

#[test]
fn without_a_model_an_approximate_skeleton_stands_z_up_and_says_how_to_set_one() {
    let mut r = Random(15);
    let frames = 3;
    let mut p = r.many(frames * 165, 0.1);
    for f in 0..frames {
        p[f * 165..f * 165 + 3].copy_from_slice(&[std::f64::consts::FRAC_PI_2, 0.0, 0.0]);
    }
    let trans: Vec<f64> = (0..frames).flat_map(|f| [0.1 * f as f64, 0.0, 0.95]).collect();
    let file = npz(
        vec![
            ("poses", f8(&[frames, 165], &p)),
            ("trans", f8(&[frames, 3], &trans)),
            ("gender", unicode("neutral")),
            ("surface_model_type", unicode("smplx")),
            ("mocap_frame_rate", f8(&[], &[30.0])),
        ],
        true,
    );
    let m = load("approx.npz", &file, &ReadOptions::default()).unwrap();
    assert_eq!(m.skeleton.len(), 55);
    let w = m.warnings.iter().find(|w| w.message.contains("approximate skeleton")).expect("a warning");
    assert!(w.message.contains("--body-model") && w.message.contains("SKELVIEW_BODY_MODELS"), "{}", w.message);
    assert_eq!(m.source.up_axis, UpAxis::Z);
    let height = m.source.body_height * m.metres_per_raw_unit();
    assert!((1.3..1.9).contains(&height), "{height} m");
    // The pelvis sits at trans (the approximate rest pelvis is the origin).
    let mut sampler = Sampler::default();
    for f in 0..frames {
        let pelvis = sampler.positions(&m, PoseAt::Frame(f), Interpolation::Linear, Mat4::IDENTITY)[0];
        assert!((pelvis.as_dvec3() - DVec3::from_slice(&trans[f * 3..f * 3 + 3])).length() < 1e-6, "{pelvis}");
    }
}

#[test]
fn bad_inputs_name_the_file_and_the_array() {
    let (dir, ..) = models_folder();
    let smpl_model: PathBuf = dir.path().join("smpl/SMPL_NEUTRAL.npz");
    let x = npz(vec![("poses", f8(&[1, 165], &[0.0; 165])), ("trans", f8(&[1, 3], &[0.0; 3]))], false);
    let e = load("x.npz", &x, &with_model(&smpl_model)).unwrap_err();
    assert!(e.contains("x.npz") && e.contains("SMPL_NEUTRAL.npz") && e.contains("55 joints") && e.contains("24 joints"), "{e}");
    let e = load("m.npz", &npz(vec![("trans", f8(&[1, 3], &[0.0; 3])), ("betas", f8(&[10], &[0.0; 10]))], true), &ReadOptions::default())
        .unwrap_err();
    assert!(e.contains("m.npz") && e.contains("poses") && e.contains("trans (1, 3) <f8"), "{e}");
    let e = load("w.npz", &npz(vec![("poses", f8(&[2, 100], &[0.0; 200]))], false), &ReadOptions::default()).unwrap_err();
    assert!(e.contains("2×100") && e.contains("fits no layout"), "{e}");
    let mut nan = vec![0.0; 144];
    nan[75] = f64::NAN;
    let e = load("n.npz", &npz(vec![("poses", f8(&[2, 72], &nan))], false), &ReadOptions::default()).unwrap_err();
    assert!(e.contains("'poses'") && e.contains("frame 1"), "{e}");
    let whole = npz(vec![("poses", f8(&[2, 72], &[0.0; 144]))], true);
    let e = load("t.npz", &whole[..whole.len() - 40], &ReadOptions::default()).unwrap_err();
    assert!(e.contains("t.npz") && e.contains("zip"), "{e}");
    let e = load("o.npy", &f8(&[4, 7], &[0.0; 28]), &ReadOptions::default()).unwrap_err();
    assert!(e.contains("o (4, 7) <f8"), "{e}");
    let huge = npy("<f8", &[1 << 20, 1 << 20, 156], Vec::new());
    assert!(load("h.npy", &huge, &ReadOptions::default()).unwrap_err().contains("too large"));
    // A model whose regressor disagrees with its template.
    let bad = Model::new(Family::Smpl, 5);
    let v = bad.vertices();
    let mut members = bad.members();
    members.retain(|(n, _)| *n != "J_regressor");
    members.push(("J_regressor", f8(&[24, v + 1], &vec![0.01; 24 * (v + 1)])));
    let path = dir.path().join("bad.npz");
    std::fs::write(&path, npz(members, false)).unwrap();
    let smpl = npz(vec![("poses", f8(&[1, 72], &[0.0; 72]))], false);
    let e = load("s.npz", &smpl, &with_model(&path)).unwrap_err();
    assert!(e.contains("bad.npz") && e.contains("J_regressor"), "{e}");
}

#[test]
fn the_body_model_and_gender_options_reach_the_reader() {
    let (dir, male, female, ..) = models_folder();
    let mut r = Random(16);
    let p = poses(&mut r, 2, 156);
    let file = npz(vec![("poses", f8(&[2, 156], &p)), ("gender", unicode("male")), ("mocap_framerate", f8(&[], &[100.0]))], true);
    let mut options = skelview_core::formats::LoadOptions::default();
    options.format.set("npz.body_model", &dir.path().display().to_string()).unwrap();
    assert!(options.format.set("npz.body_model", " ").is_err(), "an empty path is refused");
    let request = LoadRequest::memory("m.npz", file).unwrap();
    let m = skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut Quiet).unwrap();
    assert_joints(&m, |f| male.posed_joints(&[], &p[f * 156..(f + 1) * 156], &[0.0; 3]), 1e-5);
    // Another gender's model of the folder, chosen over the file's; the details say both.
    options.format.set("npz.gender", "Female").unwrap();
    assert!(options.format.set("npz.gender", "other").is_err(), "a gender the folder cannot hold is refused");
    let m = skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut Quiet).unwrap();
    assert_joints(&m, |f| female.posed_joints(&[], &p[f * 156..(f + 1) * 156], &[0.0; 3]), 1e-5);
    let gender = m.source.details.iter().find(|(k, _)| k == "gender").map(|(_, v)| v.as_str());
    assert_eq!(gender, Some("female (chosen; the file: male)"));
}

#[test]
fn a_model_whose_mesh_arrays_disagree_names_the_array() {
    let dir = tempfile::tempdir().unwrap();
    let model = Model::new(Family::Smpl, 6);
    let v = model.vertices();
    let mut members = model.members();
    members.retain(|(n, _)| *n != "weights");
    members.push(("weights", f8(&[v, 23], &vec![0.0; v * 23])));
    let path = dir.path().join("SMPL_NEUTRAL.npz");
    std::fs::write(&path, npz(members, true)).unwrap();
    let e = BodyModel::read(&path, true).unwrap_err().to_string();
    assert!(e.contains("SMPL_NEUTRAL.npz") && e.contains("'weights'") && e.contains("disagree"), "{e}");
    // Read for its joints only, the weights are not looked at.
    assert_eq!(BodyModel::read(&path, false).unwrap().joints(), 24);
}

#[test]
fn truncated_and_mutated_files_never_panic() {
    let (dir, ..) = models_folder();
    let mut r = Random(17);
    let seeds = [
        npz(vec![("poses", f8(&[2, 156], &r.many(312, 1.0))), ("trans", f8(&[2, 3], &[0.0; 6])), ("gender", unicode("female"))], true),
        npz(vec![("poses", f8(&[2, 72], &r.many(144, 1.0))), ("betas", f4(&[10], &[0.1; 10]))], false),
        f4(&[2, 22, 3], &r.many(132, 1.0)),
        f8(&[2, 263], &r.many(526, 1.0)),
    ];
    for seed in &seeds {
        for cut in (0..seed.len()).step_by(7) {
            let _ = load("cut.npz", &seed[..cut], &with_model(dir.path()));
        }
        for _ in 0..300 {
            let mut bytes = seed.clone();
            for _ in 0..3 {
                let at = ((r.next() + 1.0) / 2.0 * bytes.len() as f64) as usize % bytes.len();
                bytes[at] = (r.next() * 255.0) as u8;
            }
            if let Ok(m) = load("mutated.npz", &bytes, &with_model(dir.path())) {
                Sampler::default().positions(&m, PoseAt::Frame(1), Interpolation::Linear, Mat4::IDENTITY);
            }
        }
    }
    // No frames at all, with and without a model (found by fuzzing): no panic, and the
    // layout and frame count said either way.
    for (name, bytes) in [("empty.npy", f4(&[0, 156], &[])), ("empty.npz", npz(vec![("poses", f8(&[0, 165], &[]))], false))] {
        for options in [ReadOptions::default(), with_model(dir.path())] {
            if let Ok(m) = load(name, &bytes, &options) {
                assert!(m.clip.num_frames() <= 1, "{name}: {} frames", m.clip.num_frames());
                Sampler::default().positions(&m, PoseAt::Frame(0), Interpolation::Linear, Mat4::IDENTITY);
            }
        }
    }
    // The fuzzer's own input: a header whose shape reads as (0, 156).
    let crash = b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape':(0\r, 156) 3)False";
    let mut crash = crash.to_vec();
    crash.resize(10 + 0x76, b' ');
    crash.push(b'\n');
    let _ = load("crash.npz", &crash, &ReadOptions::default());
    // And another: no frames, but a second dimension of 10^19 (its products overflowed).
    let huge = b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (0, 16233402244732900692, 2, 3), }";
    let mut huge = huge.to_vec();
    huge.resize(10 + 0x76, b' ');
    huge.push(b'\n');
    let e = load("huge.npy", &huge, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("16233402244732900692"), "{e}");
}

#[test]
fn the_body_mesh_skins_with_pose_blend_shapes_as_the_model_does() {
    let (dir, male, ..) = models_folder();
    let mut r = Random(18);
    let (p, trans, betas) = (poses(&mut r, 2, 156), r.many(6, 1.0), r.many(10, 1.0));
    let file = npz(
        vec![("poses", f8(&[2, 156], &p)), ("trans", f8(&[2, 3], &trans)), ("betas", f8(&[10], &betas)), ("gender", unicode("male"))],
        true,
    );
    // Loaded with a model, the motion carries the body as its mesh.
    let m = load("m.npz", &file, &with_model(dir.path())).unwrap();
    let set = m.meshes.as_deref().expect("the body's mesh");
    assert_eq!((set.meshes[0].positions.len(), set.meshes[0].morph_targets.len(), set.meshes[0].bones.len()), (208, 9 * 51, 52));
    let expected = |f: usize| male.posed_vertices(&betas, &p[f * 156..(f + 1) * 156], &trans[f * 3..f * 3 + 3]);
    let close = |m: &Motion, what: &str| {
        for f in 0..2 {
            let got = skelview_core::core::mesh_frames::vertices(m, &[0], &[f], Mat4::IDENTITY);
            for (g, w) in got.iter().zip(&expected(f)) {
                assert!((g.as_dvec3() - DVec3::from_array(*w)).length() < 1e-5, "{what}: frame {f}: {g} vs {w:?}");
            }
        }
    };
    close(&m, "loaded");
    // Written as a GLB, the pose blend shapes are morph targets whose weights the animation
    // keys at every frame: read back, the vertices are the model's still.
    let back = glb_round_trip(&m);
    assert!(back.meshes.as_deref().unwrap().meshes[0].morph_animation.is_some());
}

#[test]
fn the_humanoid_bone_map_finds_the_smpl_family_joints() {
    use skelview_core::retarget::bone_map;
    for (family, width) in [(Family::Smpl, 72), (Family::SmplH, 156), (Family::SmplX, 165)] {
        let file = npz(vec![("poses", f8(&[1, width], &vec![0.0; width])), ("mocap_frame_rate", f8(&[], &[30.0]))], false);
        let m = load("m.npz", &file, &ReadOptions::default()).unwrap();
        let map = bone_map(&m.skeleton, UpAxis::Y, false);
        assert!(map.missing().is_empty(), "{}: missing {:?}", family.name(), map.missing());
        let names = family.names();
        let got: Vec<(&str, &str)> = map.entries.iter().map(|e| (e.bone, names[e.joint].as_str())).collect();
        for pair in [
            ("hips", "pelvis"),
            ("leftUpperArm", "left_shoulder"),
            ("leftShoulder", "left_collar"),
            ("rightFoot", "right_ankle"),
            ("leftToes", "left_foot"),
        ] {
            assert!(got.contains(&pair), "{}: {pair:?} not in {got:?}", family.name());
        }
        if family != Family::Smpl {
            for pair in
                [("leftIndexProximal", "left_index1"), ("rightThumbDistal", "right_thumb3"), ("leftLittleIntermediate", "left_pinky2")]
            {
                assert!(got.contains(&pair), "{}: {pair:?} not in {got:?}", family.name());
            }
        }
        if family == Family::SmplX {
            assert!(got.contains(&("jaw", "jaw")) && got.contains(&("leftEye", "left_eye_smplhf")), "{got:?}");
        }
    }
}

#[test]
fn a_bvh_written_from_a_body_reproduces_the_posed_joints() {
    let (dir, male, ..) = models_folder();
    let mut r = Random(21);
    let frames = 6;
    let (p, trans, betas) = (poses(&mut r, frames, 156), r.many(frames * 3, 1.0), r.many(16, 1.0));
    let file = npz(
        vec![
            ("poses", f8(&[frames, 156], &p)),
            ("trans", f8(&[frames, 3], &trans)),
            ("betas", f8(&[16], &betas)),
            ("gender", unicode("male")),
            ("mocap_framerate", f8(&[], &[60.0])),
        ],
        true,
    );
    let m = load("walk.npz", &file, &with_model(dir.path())).unwrap();
    let mut bvh = Vec::new();
    skelview_core::export::write_bvh(&m, &skelview_core::export::BvhWriteOptions::default(), &mut bvh).unwrap();
    let out = dir.path().join("walk.bvh");
    std::fs::write(&out, bvh).unwrap();
    let back = skelview_core::formats::load_paths(&[out]).unwrap().remove(0);
    assert_eq!(back.clip.num_frames(), frames);
    // The written file's joints (its own numbers: the model's metres, depth first) by name.
    let model_index: Vec<usize> = back.skeleton.joints().iter().map(|j| m.skeleton.find(&j.name).unwrap()).collect();
    assert_joints(
        &back,
        |f| {
            let joints = male.posed_joints(&betas, &p[f * 156..(f + 1) * 156], &trans[f * 3..f * 3 + 3]);
            model_index.iter().map(|&k| joints[k]).collect()
        },
        1e-4,
    );
}

#[test]
fn a_model_read_for_joints_alone_seeks_the_regressors_rows_and_poses_the_same_joints() {
    let dir = tempfile::tempdir().unwrap();
    let mut model = Model::new(Family::SmplX, 21);
    // A vertex no joint is regressed from: its shape directions are never read.
    let v = model.vertices();
    model.j_regressor[0] = 0.0;
    model.j_regressor[1] += 0.4;
    let betas = [0.5, -1.0, 2.0];
    for (name, deflate) in [("stored.npz", false), ("deflated.npz", true)] {
        let path = dir.path().join(name);
        std::fs::write(&path, npz(model.members(), deflate)).unwrap();
        let whole = BodyModel::read(&path, true).unwrap();
        let joints = BodyModel::read(&path, false).unwrap();
        assert!(joints.mesh.is_none());
        // Stored members are sought row by row; a deflated one is read whole.
        let rows = joints.shaped_rows.as_ref().map(Vec::len);
        assert_eq!(rows, (!deflate).then_some(v - 1), "{name}");
        let (a, b) = (whole.shape(&betas).joints, joints.shape(&betas).joints);
        for (p, q) in a.iter().zip(&b) {
            assert!(p.distance(*q) < 1e-12, "{name}: {p} against {q}");
        }
    }
    // The command line's positions read the model so, and pose what the whole model poses.
    let motion = npz(vec![("poses", f8(&[2, 165], &poses(&mut Random(5), 2, 165))), ("betas", f8(&[3], &betas))], false);
    let request = LoadRequest::memory("m.npz", motion).unwrap();
    let mut options = skelview_core::formats::LoadOptions::default();
    options.format.set("npz.body_model", &dir.path().join("stored.npz").display().to_string()).unwrap();
    let with_mesh = skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut Quiet).unwrap();
    options.skip_meshes = true;
    let without = skelview_core::formats::load(&request, &options, &skelview_core::formats::Sequential, &mut Quiet).unwrap();
    assert!(with_mesh.meshes.is_some() && without.meshes.is_none());
    let mut s = Sampler::default();
    let expected = |f: usize| -> Vec<[f64; 3]> {
        s.positions(&with_mesh, PoseAt::Frame(f), Interpolation::Linear, Mat4::IDENTITY).iter().map(|p| p.as_dvec3().to_array()).collect()
    };
    let expected: Vec<Vec<[f64; 3]>> = (0..2).map(expected).collect();
    assert_joints(&without, |f| expected[f].clone(), 1e-6);
}

#[test]
fn a_model_read_for_joints_is_kept_until_its_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("SMPLX_NEUTRAL.npz");
    let (first, second) = (Model::new(Family::SmplX, 31), Model::new(Family::SmplX, 32));
    std::fs::write(&path, npz(first.members(), false)).unwrap();
    let a = BodyModel::read_kept(&path, false).unwrap();
    let again = BodyModel::read_kept(&path, false).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &again), "the same file, unchanged: the model kept");
    assert_eq!(*a, BodyModel::read(&path, false).unwrap());
    // Rewritten with another model: read again (its size and time differ), never the old one.
    std::fs::write(&path, npz(second.members(), true)).unwrap();
    let earlier = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(earlier).unwrap();
    let b = BodyModel::read_kept(&path, false).unwrap();
    assert_eq!(*b, BodyModel::read(&path, false).unwrap());
    assert!(a.v_template != b.v_template, "the rewritten file's own model");
    // Named another way (a relative or linked path), the kept model names the path given.
    let link = dir.path().join("link.npz");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    assert_eq!(BodyModel::read_kept(&link, false).unwrap().path, link);
}

/// A model read with its mesh is kept too (the viewer and Python read a folder of motions'
/// model once), within a memory budget that holds three SMPL-X models (what puts one out is
/// tested in `smpl.rs`); read for joints alone, the same file gives its own lighter model.
#[test]
fn models_read_with_their_mesh_are_kept_three_in_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (path, other, third) =
        (dir.path().join("SMPLX_MALE.npz"), dir.path().join("SMPLX_FEMALE.npz"), dir.path().join("SMPLX_NEUTRAL.npz"));
    for (file, seed) in [(&path, 41), (&other, 42), (&third, 43)] {
        std::fs::write(file, npz(Model::new(Family::SmplX, seed).members(), false)).unwrap();
    }
    let whole = BodyModel::read(&path, true).unwrap();
    assert!(whole.heap_bytes() > 0);
    // Other tests read mesh models at the same time and may put this one out between two
    // reads: kept means kept on some try, and never a different model.
    let kept = (0..20).any(|_| {
        let (a, b) = (BodyModel::read_kept(&path, true).unwrap(), BodyModel::read_kept(&path, true).unwrap());
        assert_eq!(*a, whole);
        std::sync::Arc::ptr_eq(&a, &b)
    });
    assert!(kept, "read twice with its mesh, the model is read once");
    let joints = BodyModel::read_kept(&path, false).unwrap();
    assert_eq!(*joints, BodyModel::read(&path, false).unwrap(), "joints alone: the lighter model");
    // Motions going round three models (male, female, neutral) read each once.
    let in_turn = (0..20).any(|_| {
        let a = BodyModel::read_kept(&path, true).unwrap();
        assert_eq!(*BodyModel::read_kept(&other, true).unwrap(), BodyModel::read(&other, true).unwrap());
        assert_eq!(*BodyModel::read_kept(&third, true).unwrap(), BodyModel::read(&third, true).unwrap());
        std::sync::Arc::ptr_eq(&a, &BodyModel::read_kept(&path, true).unwrap())
    });
    assert!(in_turn, "two other mesh models read between: still kept");
}
