//! The measurements of `core::measure` on a small BVH whose values are worked out by hand,
//! and `skelview measure` against `skelview positions`.

use std::sync::Arc;

mod common;

use skelview_core::core::Motion;
use skelview_core::core::measure::{Measure, series};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

// A root at z = f² cm at frame f (constant acceleration), and a chain r → a (1 m up) →
// b (1 m along X from a): the angle at a is 90° until frame 3 turns a by 90° about Z.
const ARM: &[u8] = b"HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n JOINT a\n {\n  OFFSET 0 100 0\n  CHANNELS 1 Zrotation\n  JOINT b\n  {\n   OFFSET 100 0 0\n   CHANNELS 1 Zrotation\n   End Site\n   {\n    OFFSET 0 10 0\n   }\n  }\n }\n}\nMOTION\nFrames: 5\nFrame Time: 0.5\n0 0 0 0 0\n0 0 1 0 0\n0 0 4 0 0\n0 0 9 90 0\n0 0 16 0 0\n";

fn arm() -> Motion {
    let request = LoadRequest::single(&formats::bvh::Bvh, Source::Memory { name: "arm.bvh".into(), bytes: Arc::from(ARM) });
    let options = LoadOptions::default();
    let mut m = formats::load(&request, &options, &Sequential, &mut Quiet).unwrap();
    // The expected values below are worked out in centimetres.
    m.source.unit = skelview_core::core::LengthUnit::Centimetre;
    m
}

#[test]
fn distance_angle_speed_and_acceleration_in_si_units() {
    let m = arm();
    let (r, a, b) = (0, 1, 2);
    let frames: Vec<usize> = (0..5).collect();
    let measures = [Measure::Distance(r, b), Measure::Angle(r, a, b), Measure::Speed(r), Measure::Acceleration(r)];
    let s = series(&m, &measures, &frames, m.display_from_file(), &|_| true).unwrap();
    let close = |x: f64, y: f64| (x - y).abs() < 1e-5;
    assert!(close(s[0][0], 2f64.sqrt()), "r to b: {}", s[0][0]);
    assert!(close(s[1][0], 90.0) && close(s[1][2], 90.0), "{:?}", s[1]);
    // Frame 3 turns a 90° about Z: b is straight above a, in line with r.
    assert!(close(s[1][3], 180.0) && close(s[0][3], 2.0), "{:?} {:?}", s[1], s[0]);
    // z = f² cm every 0.5 s: speed 2f cm / 0.5 s = 0.04 f m/s in the middle.
    assert!(close(s[2][2], 0.08) && close(s[2][1], 0.04), "{:?}", s[2]);
    // One-sided at the ends: (1-0)/0.5 s = 0.02 m/s, (16-9)/0.5 s = 0.14 m/s.
    assert!(close(s[2][0], 0.02) && close(s[2][4], 0.14), "{:?}", s[2]);
    // z'' = 2 cm per frame² = 0.02 m / 0.25 s² = 0.08 m/s² everywhere.
    assert!(s[3].iter().all(|&v| close(v, 0.08)), "{:?}", s[3]);
}

#[test]
fn a_subset_of_frames_reads_its_neighbours_and_stops_when_told() {
    let m = arm();
    let all = series(&m, &[Measure::Speed(0)], &[0, 1, 2, 3, 4], m.display_from_file(), &|_| true).unwrap();
    let some = series(&m, &[Measure::Speed(0)], &[3, 1], m.display_from_file(), &|_| true).unwrap();
    assert_eq!(some[0], vec![all[0][3], all[0][1]]);
    assert_eq!(series(&m, &[Measure::Speed(0)], &[0], m.display_from_file(), &|_| false), None);
}

#[test]
fn degenerate_cases_give_nan_not_a_panic() {
    let m = arm();
    let s = series(&m, &[Measure::Angle(0, 0, 1)], &[0], m.display_from_file(), &|_| true).unwrap();
    assert!(s[0][0].is_nan(), "a zero-length side has no angle");
}

fn skelview(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).output().expect("run skelview")
}

/// `joint → frame → position` from `skelview positions` CSV.
fn positions(files: &[&str], frames: &str) -> std::collections::HashMap<(String, usize), glam::DVec3> {
    let out = skelview(&[&["positions"], files, &["--frames", frames]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            let v: Vec<f64> = c[2..5].iter().map(|x| x.parse().unwrap()).collect();
            ((c[0].to_owned(), c[1].parse().unwrap()), glam::DVec3::new(v[0], v[1], v[2]))
        })
        .collect()
}

/// Every row of `measure`'s CSV after the header, as numbers (empty cells as NaN).
fn rows(out: &std::process::Output) -> (String, Vec<Vec<f64>>) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_owned();
    (header, lines.map(|l| l.split(',').map(|x| x.parse().unwrap_or(f64::NAN)).collect()).collect())
}

/// The command line agrees with distances, angles and speeds worked out from `positions`.
fn agrees_with_positions(files: &[&str], a: &str, b: &str, c: &str, frames: &[usize], frame_time: f64) {
    let list: Vec<String> = frames.iter().map(|f| f.to_string()).collect();
    let list = list.join(",");
    let options = ["--distance", a, c, "--angle", a, b, c, "--speed", b, "--frames", &list];
    let out = skelview(&[&["measure"], files, &options].concat());
    let (header, rows) = rows(&out);
    assert_eq!(header, format!("frame,time,distance {a} {c} [m],angle {a} {b} {c} [deg],speed {b} [m/s]"));
    let around: Vec<String> = frames.iter().flat_map(|&f| [f.saturating_sub(1), f, f + 1]).map(|f| f.to_string()).collect();
    let p = positions(files, &around.join(","));
    let at = |j: &str, f: usize| p[&(j.to_owned(), f)];
    for (row, &f) in rows.iter().zip(frames) {
        assert_eq!(row[0] as usize, f);
        assert!((row[1] - f as f64 * frame_time).abs() < 1e-9);
        let distance = at(a, f).distance(at(c, f));
        let (u, v) = (at(a, f) - at(b, f), at(c, f) - at(b, f));
        let angle = (u.dot(v) / (u.length() * v.length())).acos().to_degrees();
        let speed = at(b, f + 1).distance(at(b, f - 1)) / (2.0 * frame_time);
        for (got, want) in [(row[2], distance), (row[3], angle), (row[4], speed)] {
            assert!((got - want).abs() < 1e-5 * want.abs().max(1.0), "{files:?} frame {f}: {got} against {want}");
        }
    }
}

#[test]
fn measure_agrees_with_positions_on_the_sample() {
    agrees_with_positions(&["assets/walk01.bvh"], "LeftUpLeg", "LeftLeg", "LeftFoot", &[1, 2, 50, 99], 0.0416667);
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn measure_agrees_with_positions_on_a_corpus_asf_amc() {
    let Some(corpus) = common::corpus() else { return };
    let dir = corpus.join("asfamc");
    let (asf, amc) = (dir.join("cmu_lambada.asf"), dir.join("cmu_lambada.amc"));
    let files = [asf.to_str().unwrap(), amc.to_str().unwrap()];
    agrees_with_positions(&files, "lhumerus", "lradius", "lwrist", &[1, 100, 1000], 1.0 / 120.0);
}

#[test]
fn bad_measures_are_usage_errors_naming_the_joint() {
    let out = skelview(&["measure", "assets/walk01.bvh", "--speed", "Hip"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no joint named 'Hip'") && err.contains("Hips"), "{err}");
    let out = skelview(&["measure", "assets/walk01.bvh", "--angle", "Hips", "Hips", "Spine"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("twice"));
    let out = skelview(&["measure", "assets/walk01.bvh"]);
    assert_eq!(out.status.code(), Some(2));
    let out = skelview(&["measure", "assets/walk01.bvh", "--distance", "Hips"]);
    assert_eq!(out.status.code(), Some(2), "--distance needs two joints");
}

#[test]
fn columns_follow_the_order_of_the_options() {
    let out =
        skelview(&["measure", "assets/walk01.bvh", "--speed", "Hips", "--distance", "Hips", "Head", "--accel", "Head", "--frames", "0"]);
    let (header, r) = rows(&out);
    assert_eq!(header, "frame,time,speed Hips [m/s],distance Hips Head [m],acceleration Head [m/s^2]");
    assert_eq!(r[0].len(), 5);
}
