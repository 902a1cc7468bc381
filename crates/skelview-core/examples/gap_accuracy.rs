//! Gap-fill accuracy on real captures: gaps of 10, 30 and 60 frames cut out of marker runs
//! that are complete, filled by each method, and the RMS error against the cut-out truth
//! (mm, the capture's unit), per method and gap length. By default the four head markers of
//! CMU 01_01 (a rigid cluster), at ten places each.
//!
//!   cargo run --release -p skelview-core --example gap_accuracy [FILE.c3d MARKER...]

use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec3;
use skelview_core::core::{Clip, Motion};
use skelview_core::edit::{FillGaps, FillMethod, Op, Recipe, apply};
use skelview_core::formats::{LoadOptions, Sequential, open_one};

/// `m` with marker `j` cut out over `first..=last`.
fn cut(m: &Motion, j: usize, first: usize, last: usize) -> Motion {
    let cpf = m.clip.channels_per_frame();
    let mut values = m.clip.values().to_vec();
    for r in m.clip.missing() {
        (r.first as usize..=r.last as usize).for_each(|f| values[f * cpf + r.channel as usize] = f32::NAN);
    }
    (first..=last).for_each(|f| values[f * cpf + 3 * j..f * cpf + 3 * j + 3].fill(f32::NAN));
    let mut out = m.clone();
    let mut clip = Clip::new(m.clip.frame_time_secs, cpf, m.clip.num_frames(), values);
    clip.hold_missing();
    out.clip = clip;
    let mut c = (**m.capture.as_ref().expect("a capture")).clone();
    let p = c.marker_point(j).expect("a marker");
    (first..=last).for_each(|f| c.residuals[f * c.points.len() + p] = -1.0);
    out.capture = Some(Arc::new(c));
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, names): (PathBuf, Vec<String>) = match args.split_first() {
        Some((f, rest)) if !rest.is_empty() => (f.into(), rest.to_vec()),
        _ => ("../shared/corpus/c3d/cmu_01_01_float.c3d".into(), ["LFHD", "RFHD", "LBHD", "RBHD"].map(String::from).to_vec()),
    };
    let m = open_one(&file, &LoadOptions::default(), &Sequential).unwrap_or_else(|e| panic!("{e}"));
    let c = m.capture.as_ref().expect("a marker capture");
    let markers: Vec<usize> = names.iter().map(|n| m.skeleton.find(n).unwrap_or_else(|| panic!("no marker {n}"))).collect();
    let complete = |j: usize, a: usize, b: usize| (a..=b).all(|f| !c.is_gap(f, c.marker_point(j).unwrap()));
    let methods = [FillMethod::Linear, FillMethod::Spline, FillMethod::Pattern, FillMethod::Rigid, FillMethod::Auto];
    println!("{}: markers {}, RMS error ({})", file.display(), names.join(" "), c.unit);
    println!("{:>5} {:>6} {}", "gap", "cases", methods.iter().map(|k| format!("{:>9}", k.name())).collect::<String>());
    for gap in [10, 30, 60] {
        let mut sums = [0.0f64; 5];
        let mut cases = 0;
        for &j in &markers {
            // Ten places spread over the clip where the gap and 20 frames each side are seen.
            let n = c.frames;
            for k in 1..=10 {
                let first = n * k / 11;
                if first < 20 || first + gap + 20 >= n || !complete(j, first - 20, first + gap + 20) {
                    continue;
                }
                let last = first + gap - 1;
                let gappy = cut(&m, j, first, last);
                cases += 1;
                for (s, method) in sums.iter_mut().zip(methods) {
                    let op = Op::FillGaps(FillGaps {
                        method,
                        max_gap: Some(gap),
                        donors: Vec::new(),
                        joints: vec![m.skeleton.joints()[j].name.clone()],
                        range: None,
                    });
                    let out = apply(&gappy, &Recipe::of([op]), &|_| true).expect("fills").motion;
                    let cpf = m.clip.channels_per_frame();
                    let err: f64 = (first..=last)
                        .map(|f| {
                            let a = Vec3::from_slice(&m.clip.values()[f * cpf + 3 * j..]);
                            let b = Vec3::from_slice(&out.clip.values()[f * cpf + 3 * j..]);
                            f64::from((a - b).length_squared())
                        })
                        .sum();
                    *s += err / gap as f64;
                }
            }
        }
        let cells: String = sums.iter().map(|s| format!("{:>9.2}", (s / cases.max(1) as f64).sqrt())).collect();
        println!("{gap:>5} {cases:>6} {cells}");
    }
}
