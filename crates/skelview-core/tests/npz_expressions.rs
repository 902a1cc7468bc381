//! SMPL-X expressions (BEAT2's `expressions`, T×100) on synthetic models of both layouts the
//! `smplx` package knows (v1.1's 10 shape + 10 expression columns, and 300 + 100): the face
//! joints' rest and the face's vertices move with them exactly as the model's equations say.

use glam::{DVec3, Mat4};
use skelview_core::core::ChannelKind;
use skelview_core::core::mesh_frames::vertices;
use skelview_core::formats::npz::{Family, ReadOptions};

mod npz_support;
use npz_support::*;

const HEAD: usize = 15;
const JAW: usize = 22;

/// A BEAT2-layout file: SMPL-X poses, 300 betas, 100 expression coefficients a frame.
fn beat2(r: &mut Random, frames: usize) -> (Vec<u8>, Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (p, trans, betas, expressions) = (poses(r, frames, 165), r.many(frames * 3, 1.0), r.many(300, 0.5), r.many(frames * 100, 1.5));
    let file = npz(
        vec![
            ("poses", f8(&[frames, 165], &p)),
            ("trans", f8(&[frames, 3], &trans)),
            ("betas", f8(&[300], &betas)),
            ("expressions", f8(&[frames, 100], &expressions)),
            ("mocap_frame_rate", f8(&[], &[30.0])),
        ],
        true,
    );
    (file, p, trans, betas, expressions)
}

fn warned(m: &skelview_core::core::Motion, words: &[&str]) -> bool {
    m.warnings.iter().any(|w| words.iter().all(|word| w.message.contains(word)))
}

#[test]
fn expressions_move_the_face_joints_and_vertices_as_the_model_does() {
    let dir = tempfile::tempdir().unwrap();
    let frames = 4;
    for (shapes, used) in [(20, 10), (400, 100)] {
        let model = Model::with_expressions(Family::SmplX, 40 + shapes as u64, shapes, &[HEAD, JAW]);
        let path = dir.path().join(format!("SMPLX_NEUTRAL_{shapes}.npz"));
        std::fs::write(&path, model.bytes()).unwrap();
        let (file, p, trans, betas, expressions) = beat2(&mut Random(41), frames);
        let m = load("beat2.npz", &file, &with_model(&path)).unwrap();
        let at = |f: usize| (&expressions[f * 100..(f + 1) * 100], &p[f * 165..(f + 1) * 165], &trans[f * 3..f * 3 + 3]);
        // Of v1.1's 20 columns the first 10 are shape: the betas past them are not applied.
        assert_joints(
            &m,
            |f| {
                let (e, pose, t) = at(f);
                model.posed_joints_with(&betas, e, pose, t)
            },
            1e-5,
        );
        // The face joints' rest moves: they (and the eyes, whose parent is the head) get a
        // translation channel; the rest of the body keeps its rotations only.
        let translated: Vec<&str> =
            m.skeleton.joints().iter().filter(|j| j.channels.contains(&ChannelKind::TranslateX)).map(|j| j.name.as_str()).collect();
        assert_eq!(translated, ["pelvis", "head", "jaw", "left_eye_smplhf", "right_eye_smplhf"], "{shapes} columns");
        for f in 0..frames {
            let got = vertices(&m, &[0], &[f], Mat4::IDENTITY);
            let (e, pose, t) = at(f);
            let want = model.posed_vertices_with(&betas, e, pose, t);
            assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                let d = (g.as_dvec3() - DVec3::from_array(*w)).length();
                assert!(d < 1e-5, "{shapes} columns, frame {f}, vertex {i}: {g} vs {w:?} ({d:e} m)");
            }
        }
        let still = model.posed_vertices_with(&betas, &[], at(1).1, at(1).2);
        let moved = vertices(&m, &[0], &[1], Mat4::IDENTITY);
        let face = (4 * JAW..4 * JAW + 4).map(|i| (moved[i].as_dvec3() - DVec3::from_array(still[i])).length()).fold(0.0, f64::max);
        assert!(face > 1e-3, "the expression moves the jaw's vertices ({face} m)");
        let detail = m.source.details.iter().find(|(k, _)| k == "expressions").map(|(_, v)| v.clone()).unwrap_or_default();
        assert!(detail.starts_with(&format!("{used} coefficients per frame applied (of 100)")), "{detail}");
        assert!(detail.contains("rest of 2 joints"), "{detail}");
        assert_eq!(warned(&m, &["first 10 of the file's 100"]), used == 10, "{:?}", m.warnings);
        // In a GLB the expressions are morph targets keyed at every frame, and each moving
        // bind a node whose translation is keyed.
        glb_round_trip(&m);
    }
}

#[test]
fn expressions_without_directions_or_without_a_model_are_named_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    // Ten columns: all of them shape, none for expressions.
    let model = Model::new(Family::SmplX, 45);
    let path = dir.path().join("SMPLX_TEN.npz");
    std::fs::write(&path, model.bytes()).unwrap();
    let (file, p, trans, betas, _) = beat2(&mut Random(46), 2);
    let m = load("beat2.npz", &file, &with_model(&path)).unwrap();
    assert!(warned(&m, &["not applied", "SMPLX_TEN.npz", "10 columns"]), "{:?}", m.warnings);
    assert_joints(&m, |f| model.posed_joints(&betas, &p[f * 165..(f + 1) * 165], &trans[f * 3..f * 3 + 3]), 1e-5);
    let translated = m.skeleton.joints().iter().filter(|j| j.channels.contains(&ChannelKind::TranslateX)).count();
    assert_eq!(translated, 1, "only the root");
    let m = load("beat2.npz", &file, &ReadOptions::default()).unwrap();
    assert!(warned(&m, &["100 expression coefficients", "need a body model"]), "{:?}", m.warnings);
}

#[test]
fn one_row_of_expression_shapes_every_frame() {
    let dir = tempfile::tempdir().unwrap();
    let model = Model::with_expressions(Family::SmplX, 47, 20, &[JAW]);
    let path = dir.path().join("SMPLX_NEUTRAL.npz");
    std::fs::write(&path, model.bytes()).unwrap();
    let mut r = Random(48);
    let (p, expression) = (poses(&mut r, 3, 165), r.many(10, 1.0));
    // SMPLify-X and PIXIE write one row of `expression` for a fit.
    let file = npz(vec![("poses", f8(&[3, 165], &p)), ("expression", f8(&[1, 10], &expression)), ("fps", f8(&[], &[30.0]))], false);
    let m = load("fit.npz", &file, &with_model(&path)).unwrap();
    assert_joints(&m, |f| model.posed_joints_with(&[], &expression, &p[f * 165..(f + 1) * 165], &[0.0; 3]), 1e-5);
}
