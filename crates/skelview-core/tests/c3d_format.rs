//! Every corpus C3D loads, and its points, analog channels and force platforms agree with a
//! second reader: ezc3d (the `c3d` package for MIPS files, which ezc3d refuses), run from
//! tests/python/c3d_reference.py in a Python the test sets up.

use skelview_test_support as support;
use skelview_test_support::python;

use std::path::Path;

use serde_json::Value;
use skelview_core::core::capture::Capture;
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential};

fn capture(path: &Path) -> std::sync::Arc<Capture> {
    let motion = skelview_core::formats::open_one(path, &LoadOptions::default(), &Sequential).unwrap_or_else(|e| panic!("{e}"));
    motion.capture.clone().expect("a C3D motion keeps its capture")
}

fn reference(python: &Path, file: &Path) -> Value {
    let script = support::workspace_root().join("tests/python/c3d_reference.py");
    let out = std::process::Command::new(python).arg(script).arg(file).output().unwrap();
    assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * (1.0 + b.abs().max(a.abs()) * 1e-3)
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn every_corpus_c3d_agrees_with_ezc3d() {
    let Some(corpus) = support::corpus() else { return };
    let Some(python) = python::python() else { return };
    let files = support::files(&corpus.join("c3d"), "c3d");
    assert!(files.len() >= 15);
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let ours = capture(&file);
        let r = reference(&python, &file);
        assert_eq!(ours.frames as u64, r["frames"].as_u64().unwrap(), "{name}: frames");
        let labels = r["labels"].as_array().unwrap();
        for (p, point) in ours.points.iter().enumerate() {
            assert_eq!(point.label, labels[p].as_str().unwrap().trim(), "{name}: label {p}");
        }
        let mut compared = 0;
        for (frame, points) in r["positions"].as_object().unwrap() {
            let f: usize = frame.parse().unwrap();
            for (p, xyz) in points.as_array().unwrap().iter().enumerate().take(ours.points.len()) {
                let theirs: Vec<Option<f64>> = xyz.as_array().unwrap().iter().map(Value::as_f64).collect();
                let mine = ours.position(f, p);
                match (theirs.as_slice(), mine) {
                    ([None, ..], None) => {}
                    // A point at exactly (0, 0, 0) (or Qualisys' 65535.0 word) is a gap here.
                    ([Some(x), Some(y), Some(z)], None) if [*x, *y, *z] == [0.0; 3] => {}
                    ([Some(x), Some(y), Some(z)], Some(m)) => {
                        for (a, b) in [(m.x, *x), (m.y, *y), (m.z, *z)] {
                            assert!(close(f64::from(a), b, 1e-3), "{name}: frame {f} point {p}: {m} vs ({x}, {y}, {z})");
                        }
                        compared += 1;
                    }
                    (t, m) => panic!("{name}: frame {f} point {p} ('{}'): {m:?} here, {t:?} there", ours.points[p].label),
                }
            }
        }
        assert!(compared > 0 || ours.frames == 0, "{name}: no position compared");
        // (CMU's header claims analog samples with no channel: there are none to compare.)
        if let Some(samples) = r["analog_samples"].as_u64().filter(|_| !ours.analog.channels.is_empty()) {
            assert_eq!(ours.analog.samples() as u64, samples, "{name}: analog samples");
            for (s, values) in r["analog"].as_object().unwrap() {
                let s: usize = s.parse().unwrap();
                let n = ours.analog.channels.len();
                for (c, v) in values.as_array().unwrap().iter().enumerate() {
                    let mine = f64::from(ours.analog.values[s * n + c]);
                    assert!(close(mine, v.as_f64().unwrap(), 1e-3), "{name}: analog sample {s} channel {c}: {mine} vs {v}");
                }
            }
        }
        let Some(plates) = r["plates"].as_array() else { continue };
        assert_eq!(ours.plates.len(), plates.len(), "{name}: platforms");
        for (k, (samples, theirs)) in skelview_core::core::force_plates::samples(&ours).into_iter().zip(plates).enumerate() {
            let samples = samples.unwrap_or_else(|e| panic!("{name}: platform {k}: {e}"));
            assert_eq!(samples.len() as u64, theirs["samples"].as_u64().unwrap());
            for (i, at) in theirs["at"].as_array().unwrap().iter().enumerate() {
                let s = &samples[at.as_u64().unwrap() as usize];
                let v = |key: &str| -> [f64; 3] { std::array::from_fn(|j| theirs[key][i][j].as_f64().unwrap_or(f64::NAN)) };
                let (force, moment, cop) = (v("force"), v("moment"), v("cop"));
                for j in 0..3 {
                    assert!(
                        close(f64::from(s.force[j]), force[j], 1e-2),
                        "{name}: platform {k} sample {at}: force {} vs {force:?}",
                        s.force
                    );
                    assert!(
                        close(f64::from(s.moment[j]), moment[j], 1.0),
                        "{name}: platform {k} sample {at}: moment {} vs {moment:?}",
                        s.moment
                    );
                }
                if force[2].abs() > 20.0 {
                    for j in 0..3 {
                        assert!(
                            close(f64::from(s.cop[j]), cop[j], 1e-2),
                            "{name}: platform {k} sample {at}: centre of pressure {} vs {cop:?}",
                            s.cop
                        );
                    }
                }
            }
        }
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn one_recording_in_four_encodings_reads_the_same_within_one_scale_step() {
    let Some(corpus) = support::corpus() else { return };
    let dir = corpus.join("c3d");
    let names =
        ["amass_eb015pi_intel_int.c3d", "amass_eb015si_mips_int.c3d", "amass_eb015sr_mips_float.c3d", "amass_eb015vr_dec_float.c3d"];
    let all: Vec<_> = names.iter().map(|n| capture(&dir.join(n))).collect();
    let step = 0.0834;
    for c in &all[1..] {
        assert_eq!((c.frames, c.points.len()), (all[0].frames, all[0].points.len()));
        for f in 0..c.frames {
            for p in 0..c.points.len() {
                match (all[0].position(f, p), c.position(f, p)) {
                    (None, None) => {}
                    (Some(a), Some(b)) => assert!((a - b).abs().max_element() <= step, "frame {f} point {p}: {a} vs {b}"),
                    (a, b) => panic!("frame {f} point {p}: {a:?} vs {b:?}"),
                }
            }
        }
        assert_eq!(c.analog.values.len(), all[0].analog.values.len());
    }
}

#[test]
#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
fn trc_written_from_every_corpus_c3d_reads_back_the_same_positions_and_gaps() {
    use skelview_core::export::trc_writer::write_trc;
    let Some(corpus) = support::corpus() else { return };
    for file in support::files(&corpus.join("c3d"), "c3d") {
        let motion = skelview_core::formats::open_one(&file, &LoadOptions::default(), &Sequential).unwrap();
        let c = motion.capture.clone().unwrap();
        let mut bytes = Vec::new();
        write_trc(&motion, "x.trc", &mut bytes).unwrap();
        let back = formats::load(&LoadRequest::memory("x.trc", bytes).unwrap(), &LoadOptions::default(), &Sequential, &mut Quiet)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let t = back.capture.clone().unwrap();
        let markers = c.marker_indices();
        assert_eq!((t.frames, t.points.len(), t.unit.as_str()), (c.frames, markers.len(), c.unit.as_str()), "{}", file.display());
        assert!((t.point_rate_hz - c.point_rate_hz).abs() < 1e-9);
        for f in 0..c.frames {
            for (j, &p) in markers.iter().enumerate() {
                assert_eq!(t.position(f, j), c.position(f, p), "{}: frame {f} marker {}", file.display(), c.points[p].label);
            }
        }
        let unexpected: Vec<_> = back.warnings.iter().filter(|w| !w.message.contains("repeat another's label")).collect();
        assert!(unexpected.is_empty(), "{}: {unexpected:?}", file.display());
    }
}

#[test]
fn points_far_outside_the_body_do_not_set_its_size_units_or_framing() {
    // As a Nexus trial's model outputs stored as points (lt_thighMag at 197 m): ten markers of
    // a 1.6 m body and one point two hundred metres off.
    let path = skelview_test_support::workspace_root().join("crates/skelview-core/tests/data/captures/far_points.trc");
    let m = skelview_core::formats::open_one(&path, &skelview_core::formats::LoadOptions::default(), &skelview_core::formats::Sequential)
        .unwrap();
    let far = m.skeleton.find("lt_thighMag").unwrap();
    assert_eq!(m.source.left_out, [far]);
    let height_m = m.source.body_height * m.metres_per_raw_unit();
    assert!((height_m - 1.62).abs() < 0.01, "{height_m}");
    assert_eq!(m.source.up_axis, skelview_core::core::UpAxis::Y, "the far point's travel does not make Z the tallest");
    let (lo, hi) = skelview_core::core::bounds::clip_bounds(&m, m.display_from_file()).unwrap();
    assert!((hi - lo).max_element() < 3.0, "framed on the body: {lo} {hi}");
    // Still drawn: the point is a joint with its positions.
    assert!(m.capture.as_ref().unwrap().points.iter().any(|p| p.label == "lt_thighMag"));
}

/// A runner's markers, Z up (heels at 40 mm, the head at 1.6 m), as a TRC's text.
fn z_up_markers_trc() -> String {
    let names = ["LFHD", "RFHD", "LSHO", "RSHO", "LASI", "RASI", "LKNE", "RKNE", "LANK", "RANK", "LHEE", "RHEE"];
    let at = |n: &str| -> [f32; 3] {
        let x = if n.starts_with('L') { 90.0 } else { -90.0 };
        let z = match &n[1..] {
            "FHD" => 1623.0,
            "SHO" => 1420.0,
            "ASI" => 1000.0,
            "KNE" => 500.0,
            "ANK" => 80.0,
            _ => 40.0,
        };
        [x, 0.0, z]
    };
    let mut text = format!(
        "PathFileType\t4\t(X/Y/Z)\tqtm.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n100\t100\t10\t{}\tmm\t100\t1\t10\nFrame#\tTime\t{}\t\t\n\t\t{}\n\n",
        names.len(),
        names.join("\t\t\t"),
        (1..=names.len()).map(|i| format!("X{i}\tY{i}\tZ{i}")).collect::<Vec<_>>().join("\t")
    );
    for f in 0..10 {
        let row: Vec<String> = names
            .iter()
            .flat_map(|n| {
                let [x, y, z] = at(n);
                [x, y + 15.0 * f as f32, z].map(|v| format!("{v:.2}"))
            })
            .collect();
        text.push_str(&format!("{}\t{:.2}\t{}\n", f + 1, f as f32 / 100.0, row.join("\t")));
    }
    text
}

#[test]
fn a_declared_up_axis_the_markers_contradict_is_overruled_with_a_warning() {
    // As a Qualisys QTM 2.12 C3D: X_SCREEN -X, Y_SCREEN -Z over markers that are Z up.
    let dir = tempfile::tempdir().unwrap();
    let trc = dir.path().join("qtm.trc");
    std::fs::write(&trc, z_up_markers_trc()).unwrap();
    let options = skelview_core::formats::LoadOptions::default();
    let mut m = skelview_core::formats::open_one(&trc, &options, &skelview_core::formats::Sequential).unwrap();
    assert_eq!(m.source.up_axis, skelview_core::core::UpAxis::Z, "detected from the head and feet markers: {}", m.source.up_reason);
    let mut capture = (**m.capture.as_ref().unwrap()).clone();
    capture.axes = skelview_core::core::capture::ScreenAxes { x_screen: Some("-X".into()), y_screen: Some("-Z".into()) };
    m.capture = Some(std::sync::Arc::new(capture));
    let c3d = dir.path().join("qtm.c3d");
    skelview_core::export::files::write_file(&m, &c3d, &Default::default()).unwrap();
    let back = skelview_core::formats::open_one(&c3d, &options, &skelview_core::formats::Sequential).unwrap();
    assert_eq!(back.source.up_axis, skelview_core::core::UpAxis::Z, "the markers' axis, not the declared -Z");
    assert!(back.source.up_detected);
    let w: Vec<&str> = back.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        w.iter().any(|m| m.contains("declares -Z up") && m.contains("over the capture's frames") && m.contains("shown with +Z up")),
        "{w:?}"
    );
    // A declaration the markers agree with stands, without a warning.
    let mut agreeing = (**m.capture.as_ref().unwrap()).clone();
    agreeing.axes = skelview_core::core::capture::ScreenAxes { x_screen: Some("+X".into()), y_screen: Some("+Z".into()) };
    m.capture = Some(std::sync::Arc::new(agreeing));
    skelview_core::export::files::write_file(&m, &c3d, &Default::default()).unwrap();
    let back = skelview_core::formats::open_one(&c3d, &options, &skelview_core::formats::Sequential).unwrap();
    assert_eq!((back.source.up_axis, back.source.up_detected), (skelview_core::core::UpAxis::Z, false));
    assert!(back.warnings.iter().all(|w| !w.message.contains("declares")));
}

#[test]
fn a_trc_without_head_or_feet_markers_is_y_up_by_its_convention() {
    // Fourteen arm markers held out sideways (1.7 m along X, 0.3 m tall): no head, no feet,
    // nothing standing on a floor to guess from; a TRC is +Y up, as OpenSim writes it. Named
    // head and feet markers still decide.
    let names: Vec<String> = (0..7).flat_map(|i| [format!("L_arm{i}"), format!("R_arm{i}")]).collect();
    let mut text = format!(
        "PathFileType\t4\t(X/Y/Z)\tarms.trc\nDataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n100\t100\t5\t14\tm\t100\t1\t5\nFrame#\tTime\t{}\t\t\n\t\t{}\n\n",
        names.join("\t\t\t"),
        (1..=14).map(|i| format!("X{i}\tY{i}\tZ{i}")).collect::<Vec<_>>().join("\t")
    );
    for f in 0..5 {
        let row: Vec<String> = (0..7)
            .flat_map(|i| {
                let x = 0.12 * (i as f32 + 1.0);
                [[x, 1.35 + 0.04 * i as f32, 0.01 * f as f32], [-x, 1.35 + 0.04 * i as f32, 0.01 * f as f32]]
            })
            .flat_map(|p| p.map(|v| format!("{v:.4}")))
            .collect();
        text.push_str(&format!("{}\t{:.2}\t{}\n", f + 1, f as f32 / 100.0, row.join("\t")));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arms.trc");
    std::fs::write(&path, text).unwrap();
    let m = skelview_core::formats::open_one(&path, &skelview_core::formats::LoadOptions::default(), &skelview_core::formats::Sequential)
        .unwrap();
    assert_eq!(m.source.up_axis, skelview_core::core::UpAxis::Y);
    assert!(m.source.up_reason.contains("TRC convention"), "{}", m.source.up_reason);
    // Named head and feet markers overrule the convention (a Z-up lab's export).
    std::fs::write(&path, z_up_markers_trc()).unwrap();
    let m = skelview_core::formats::open_one(&path, &skelview_core::formats::LoadOptions::default(), &skelview_core::formats::Sequential)
        .unwrap();
    assert_eq!(m.source.up_axis, skelview_core::core::UpAxis::Z);
}
