//! The C3D writer: every corpus C3D written and read back (here, by ezc3d and by the `c3d`
//! package) keeps its points in order with every marker value exactly, its gaps, residuals
//! to a scale step, analog channels, force platforms, events and its other parameters; an
//! edit's filled samples are written as residual 0.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use skelview_core::core::Motion;
use skelview_core::core::capture::Capture;
use skelview_core::export::files::{WriteOptions, write_file};
use skelview_core::formats::{LoadOptions, Sequential, open_one};
use skelview_test_support as support;
use skelview_test_support::python;

fn open(path: &Path) -> Motion {
    open_one(path, &LoadOptions::default(), &Sequential).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn written(m: &Motion, dir: &Path, name: &str) -> std::path::PathBuf {
    let out = dir.join(name);
    write_file(m, &out, &WriteOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    out
}

/// The scale step of a written file's residuals.
fn step(c: &Capture) -> f32 {
    (c.max_residual() / 127.0).max(1e-6)
}

fn same_capture(name: &str, a: &Capture, b: &Capture) {
    assert_eq!((a.frames, a.first_frame, a.point_rate_hz), (b.frames, b.first_frame, b.point_rate_hz), "{name}: frames and rate");
    assert_eq!(a.points, b.points, "{name}: points, their order, descriptions and kinds");
    assert_eq!(a.unit, b.unit, "{name}: unit");
    assert_eq!(a.axes, b.axes, "{name}: axes");
    let n = a.points.len();
    let tolerance = step(a).max(step(b));
    for f in 0..a.frames {
        for p in 0..n {
            match (a.position(f, p), b.position(f, p)) {
                (Some(x), Some(y)) => {
                    assert_eq!(x, y, "{name}: frame {f} point {p}: every value kept exactly");
                    let (ra, rb) = (a.residuals[f * n + p], b.residuals[f * n + p]);
                    assert!((ra - rb).abs() <= tolerance, "{name}: frame {f} point {p}: residual {ra} written as {rb}");
                }
                (None, None) => {}
                (x, y) => panic!("{name}: frame {f} point {p}: {x:?} written as {y:?}"),
            }
        }
    }
    assert_eq!(a.analog.channels, b.analog.channels, "{name}: analog channels");
    assert_eq!((a.analog.samples_per_frame, a.analog.rate_hz), (b.analog.samples_per_frame, b.analog.rate_hz), "{name}: analog rate");
    assert_eq!(a.analog.values, b.analog.values, "{name}: analog values (floats, written as they were read)");
    assert_eq!(a.plates.len(), b.plates.len(), "{name}: platforms");
    for (p, q) in a.plates.iter().zip(&b.plates) {
        assert_eq!((p.kind, p.corners, p.origin, &p.channels), (q.kind, q.corners, q.origin, &q.channels), "{name}: platform");
        let f32s = |m: Option<[[f64; 6]; 6]>| m.map(|m| m.map(|r| r.map(|v| v as f32)));
        assert_eq!(f32s(p.cal_matrix), f32s(q.cal_matrix), "{name}: calibration matrix");
    }
    assert_eq!(a.events.len(), b.events.len(), "{name}: events");
    for (e, g) in a.events.iter().zip(&b.events) {
        assert_eq!((&e.label, &e.context, &e.description), (&g.label, &g.context, &g.description), "{name}: event");
        assert!((e.time_secs - g.time_secs).abs() < 1e-4, "{name}: event at {} written at {}", e.time_secs, g.time_secs);
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn every_corpus_c3d_reads_back_the_same() {
    let Some(corpus) = support::corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    for file in support::files(&corpus.join("c3d"), "c3d") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let m = open(&file);
        let back = open(&written(&m, dir.path(), &name));
        let (a, b) = (m.capture.as_ref().unwrap(), back.capture.as_ref().unwrap());
        same_capture(&name, a, b);
        // What skelview does not read is kept: every group and parameter of the source.
        for g in &a.kept {
            let h = b.kept.iter().find(|h| h.name == g.name).unwrap_or_else(|| panic!("{name}: group {} lost", g.name));
            for p in g.params.iter().filter(|p| !["DATA_START"].contains(&p.name.as_str())) {
                let kept = h.params.iter().any(|q| q.name == p.name || (g.name == "EVENT" || g.name == "TRIAL"));
                assert!(kept, "{name}: {}:{} lost", g.name, p.name);
            }
        }
        // Written again, a written file gives the same bytes.
        let again = std::fs::read(written(&back, dir.path(), &format!("again_{name}"))).unwrap();
        assert_eq!(again, std::fs::read(dir.path().join(&name)).unwrap(), "{name}: writing is stable");
    }
}

fn reference(python: &Path, file: &Path, reader: &str) -> Value {
    let script = support::workspace_root().join("tests/python/c3d_reference.py");
    let out = std::process::Command::new(python).arg(script).arg(file).arg(reader).output().unwrap();
    assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn ezc3d_and_the_c3d_package_read_what_it_writes() {
    let (Some(corpus), Some(py)) = (support::corpus(), python::python()) else { return };
    let dir = tempfile::tempdir().unwrap();
    for file in support::files(&corpus.join("c3d"), "c3d") {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let m = open(&file);
        let c = m.capture.as_ref().unwrap();
        let out = written(&m, dir.path(), &name);
        for reader in ["ezc3d", "c3d"] {
            let r = reference(&py, &out, reader);
            assert_eq!(r["reader"], reader, "{name}: {r}");
            assert_eq!(r["frames"].as_u64(), Some(c.frames as u64), "{name} ({reader}): frames");
            let labels: Vec<&str> = r["labels"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().trim()).collect();
            assert_eq!(labels, c.points.iter().map(|p| p.label.as_str()).collect::<Vec<_>>(), "{name} ({reader}): labels");
            for (frame, points) in r["positions"].as_object().unwrap() {
                let f: usize = frame.parse().unwrap();
                for (p, xyz) in points.as_array().unwrap().iter().enumerate() {
                    let theirs: Vec<Option<f64>> = xyz.as_array().unwrap().iter().map(Value::as_f64).collect();
                    match (c.position(f, p), theirs.as_slice()) {
                        // Compared as the f32 both hold (JSON's decimal may round the last f64 bit).
                        (Some(v), [Some(x), Some(y), Some(z)]) => {
                            assert_eq!(v.to_array(), [*x as f32, *y as f32, *z as f32], "{name} ({reader}): frame {f} point {p}")
                        }
                        (None, [None, ..]) => {}
                        (v, t) => panic!("{name} ({reader}): frame {f} point {p}: {v:?} written, {t:?} read"),
                    }
                }
            }
            if reader != "ezc3d" {
                continue;
            }
            if !c.analog.channels.is_empty() {
                assert_eq!(r["analog_samples"].as_u64(), Some(c.analog.samples() as u64), "{name}: analog samples");
                for (s, values) in r["analog"].as_object().unwrap() {
                    let s: usize = s.parse().unwrap();
                    for (k, v) in values.as_array().unwrap().iter().enumerate() {
                        let mine = f64::from(c.analog.values[s * c.analog.channels.len() + k]);
                        assert!((mine - v.as_f64().unwrap()).abs() <= 1e-6 * mine.abs().max(1.0), "{name}: analog {s}/{k}: {mine} vs {v}");
                    }
                }
            }
            assert_eq!(r["plates"].as_array().map(Vec::len), Some(c.plates.len()), "{name}: platforms");
            let events = r["events"].as_array().cloned().unwrap_or_default();
            assert_eq!(events.len(), c.events.len(), "{name}: events");
            for (e, t) in c.events.iter().zip(&events) {
                assert_eq!((e.label.as_str(), e.context.as_str()), (t["label"].as_str().unwrap(), t["context"].as_str().unwrap()));
                assert!((e.time_secs - t["time"].as_f64().unwrap()).abs() < 1e-4, "{name}: event time");
            }
        }
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn filled_samples_are_written_as_residual_0_and_edits_change_only_what_they_must() {
    use skelview_core::edit::{self, AddEvent, FillGaps, FillMethod, Op, Recipe};
    let Some(corpus) = support::corpus() else { return };
    let m = open(&corpus.join("c3d/cmu_01_01_float.c3d"));
    let c = m.capture.as_ref().unwrap();
    // Cut LFHD's frames 100-119 out, fill them back, write, read.
    let j = m.skeleton.find("LFHD").unwrap();
    let p = c.marker_point(j).unwrap();
    let mut cut = (**c).clone();
    for f in 100..120 {
        cut.residuals[f * cut.points.len() + p] = -1.0;
    }
    let mut gappy = m.clone();
    gappy.capture = Some(Arc::new(cut));
    let cpf = m.clip.channels_per_frame();
    let mut values = m.clip.values().to_vec();
    for r in m.clip.missing() {
        (r.first as usize..=r.last as usize).for_each(|f| values[f * cpf + r.channel as usize] = f32::NAN);
    }
    (100..120).for_each(|f| values[f * cpf + 3 * j..f * cpf + 3 * j + 3].fill(f32::NAN));
    let mut clip = skelview_core::core::Clip::new(m.clip.frame_time_secs, cpf, m.clip.num_frames(), values);
    clip.hold_missing();
    gappy.clip = clip;
    let recipe = Recipe::of([
        Op::FillGaps(FillGaps { method: FillMethod::Auto, max_gap: Some(30), donors: vec![], joints: vec!["LFHD".into()], range: None }),
        Op::AddEvent(AddEvent { label: "Foot Strike".into(), context: "Left".into(), time_secs: 1.5 }),
    ]);
    let edited = edit::apply(&gappy, &recipe, &|_| true).unwrap().motion;
    let dir = tempfile::tempdir().unwrap();
    let back = open(&written(&edited, dir.path(), "filled.c3d"));
    let b = back.capture.as_ref().unwrap();
    assert!((100..120).all(|f| b.residual(f, p) == Some(0.0)), "filled: residual 0");
    assert!(b.residual(99, p).is_some_and(|r| r > 0.0), "measured samples keep theirs");
    assert_eq!(b.events.iter().filter(|e| e.label == "Foot Strike").count(), 1);
    // Every other marker is untouched, value for value.
    for q in (0..c.points.len()).filter(|&q| q != p) {
        for f in 0..c.frames {
            assert_eq!(c.position(f, q), b.position(f, q), "point {q} frame {f}");
        }
    }
}

#[test]
fn a_skeleton_clip_writes_its_joints_as_markers() {
    let m = open(&support::workspace_root().join("assets/walk01.bvh"));
    let dir = tempfile::tempdir().unwrap();
    let back = open(&written(&m, dir.path(), "walk.c3d"));
    let c = back.capture.as_ref().unwrap();
    assert_eq!(c.points.len(), m.skeleton.len());
    assert_eq!(c.frames, m.clip.num_frames());
    assert_eq!(c.unit, "mm");
    let head = m.skeleton.find("Head").unwrap();
    let want = skelview_core::core::Sampler::default().positions(
        &m,
        skelview_core::core::PoseAt::Frame(7),
        skelview_core::core::Interpolation::Nearest,
        m.display_from_file(),
    )[head]
        * 1000.0;
    assert!((c.position(7, head).unwrap() - want).length() < 1e-2);
}
