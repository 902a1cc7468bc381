//! `skelview measure` against `skelview positions` (same joints, same frames), and its usage
//! errors. The measurements themselves are tested in skelview-core (tests/measure.rs).

mod common;

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
