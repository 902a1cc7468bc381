//! The measurements of `core::measure` on a small BVH whose values are worked out by hand.
//! `skelview measure` against `skelview positions` is tested beside the binary.

use std::sync::Arc;

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
