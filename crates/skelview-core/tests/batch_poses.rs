//! The batch poser (`core::batch`, behind `skelview positions` and the Python package) gives
//! the viewer's poses: on every corpus file of every format, world and local positions and
//! local and world rotations agree with the sampler's, and positions that rest on a missing
//! value are NaN exactly where the viewer's pose is not data.

use skelview_test_support as support;

use glam::{Mat4, Quat, Vec3};
use skelview_core::core::batch::{PositionSpace, RotationSpace, joint_positions, joint_rotations};
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Rayon, Sequential};

fn load_all(dir: &std::path::Path) -> Vec<Motion> {
    let paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    LoadRequest::from_paths(&paths)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|r| formats::load(&r, &LoadOptions::default(), &Sequential, &mut Quiet).ok())
        .collect()
}

/// Frames worth comparing: the ends, the middle and a stride through the rest.
fn frames_of(m: &Motion) -> Vec<usize> {
    let n = m.clip.num_frames();
    if n == 0 {
        return vec![0];
    }
    let mut f: Vec<usize> = (0..n).step_by((n / 40).max(1)).collect();
    f.extend([n / 2, n - 1]);
    f
}

fn check(m: &Motion, what: &str) {
    let frames = frames_of(m);
    let joints = m.skeleton.len();
    let display = m.display_from_file();
    // 1e-5 of the body's size: rounding of two ways of composing the same rotations.
    let tolerance = 1e-5 * m.body_size_m().max(0.1);
    let world = joint_positions(m, &frames, PositionSpace::World, display, &Rayon);
    let local = joint_positions(m, &frames, PositionSpace::Local, Mat4::IDENTITY, &Sequential);
    let local_q = joint_rotations(m, &frames, RotationSpace::Local, &Rayon);
    let world_q = joint_rotations(m, &frames, RotationSpace::World(Quat::IDENTITY), &Sequential);
    assert_eq!(world.len(), frames.len() * joints * 3, "{what}");
    let mut s = Sampler::default();
    let at = |f: usize| if m.clip.num_frames() == 0 { PoseAt::Rest } else { PoseAt::Frame(f) };
    for (i, &f) in frames.iter().enumerate() {
        let want = s.positions(m, at(f), Interpolation::Nearest, display).to_vec();
        let mut chain = vec![Quat::IDENTITY; joints];
        for j in 0..joints {
            let k = (i * joints + j) * 3;
            let got = Vec3::from_slice(&world[k..k + 3]);
            if got.is_nan() {
                // Only where the clip misses values, and then for the whole joint.
                assert!(!m.clip.missing().is_empty() && world[k..k + 3].iter().all(|v| v.is_nan()), "{what} frame {f} joint {j}: NaN");
                continue;
            }
            assert!((got - want[j]).length() <= tolerance, "{what} frame {f} joint {j}: {got} vs {}", want[j]);
            let l = &s.local.parent_from_joint[j];
            let got_local = Vec3::from_slice(&local[k..k + 3]);
            let unit = tolerance / m.metres_per_raw_unit().max(1e-9);
            assert!((got_local - l.translation).length() <= unit, "{what} frame {f} joint {j}: local {got_local} vs {}", l.translation);
            let q = (i * joints + j) * 4;
            let got_q = Quat::from_slice(&local_q[q..q + 4]);
            assert!(got_q.dot(l.rotation.normalize()).abs() > 1.0 - 1e-5, "{what} frame {f} joint {j}: {got_q} vs {}", l.rotation);
            // World rotations compose the local ones (scales left out).
            let parent = m.skeleton.joints()[j].parent.map_or(Quat::IDENTITY, |p| chain[p]);
            chain[j] = (parent * l.rotation).normalize();
            let want_w = chain[j];
            let got_w = Quat::from_slice(&world_q[q..q + 4]);
            assert!(got_w.dot(want_w).abs() > 1.0 - 1e-4, "{what} frame {f} joint {j}: world {got_w} vs {want_w}");
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn batch_poses_match_the_viewer_on_every_corpus_format() {
    let Some(corpus) = support::corpus() else { return };
    let mut checked = 0;
    for format in ["bvh", "asfamc", "htr", "acl", "hanim", "fbx", "gltf", "c3d"] {
        for m in load_all(&corpus.join(format)) {
            let what = m.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default();
            check(&m, &what);
            checked += 1;
        }
    }
    assert!(checked >= 60, "corpus motions checked: {checked}");
}

#[test]
fn missing_values_make_the_joint_and_everything_under_it_nan() {
    let text = "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n JOINT b\n {\n  OFFSET 0 1 0\n  \
                CHANNELS 1 Zrotation\n  JOINT c\n  {\n   OFFSET 0 1 0\n   CHANNELS 1 Zrotation\n   End Site\n   {\n    OFFSET 0 1 0\n   }\n  }\n \
                }\n}\nMOTION\nFrames: 3\nFrame Time: 0.1\n0 0 0 0 0\n0 0 0 nan 0\n0 nan 0 0 0\n";
    let m = skelview_core::formats::open_bytes("gap.bvh", text.as_bytes().to_vec(), &LoadOptions::default()).unwrap();
    let p = joint_positions(&m, &[0, 1, 2], PositionSpace::World, Mat4::IDENTITY, &Sequential);
    let nan = |f: usize| (0..m.skeleton.len()).map(|j| p[(f * m.skeleton.len() + j) * 3].is_nan()).collect::<Vec<_>>();
    assert!(nan(0).iter().all(|n| !n));
    // A rotation of b missing: b's own origin is known, c and the end site are not.
    assert_eq!(nan(1), [false, false, true, true]);
    // The root's translation missing: nothing is known.
    assert!(nan(2).iter().all(|n| *n));
}
