//! Captures in the viewer: sticks between markers (from the marker set's names, drawn as
//! lines, taken away and drawn by the user, remembered with the file's settings), and an
//! OpenSim motion's columns plotted on the shared clock beside them.

use super::*;

use super::tests::wait_for;

#[test]
fn marker_sticks_come_from_names_and_the_users_changes_are_kept_for_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let trc = dir.path().join("head.trc");
    std::fs::copy(skelview_test_support::workspace_root().join("tests/data/trc/outside_writer.trc"), &trc).unwrap();
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), Settings::default());
    v.open_paths(vec![trc.clone()], false);
    wait_for(&mut v, |v| v.motion().is_some());
    let names = |v: &Viewer| -> Vec<(String, String)> {
        let c = &v.session.scene.clips[0];
        let j = c.motion.skeleton.joints();
        c.links.iter().map(|&(a, b)| (j[a].name.clone(), j[b].name.clone())).collect()
    };
    assert_eq!(names(&v), [("LFHD".to_owned(), "RFHD".to_owned())], "across the forehead, by the names");
    let lines = v.frame.draw.lines.len();
    let id = v.session.scene.clips[0].id();
    v.send(Command::Clip(id, ClipEdit::MarkerLink { a: "RFHD".into(), b: "LFHD".into(), linked: false }));
    v.update(0.0);
    assert!(names(&v).is_empty());
    assert_eq!(v.frame.draw.lines.len(), lines - 2, "one stick fewer: two line vertices");
    let key = crate::tasks::file_key(&trc).display().to_string();
    assert_eq!(v.settings.overrides[&key].links_removed, [("RFHD".to_owned(), "LFHD".to_owned())]);
    // Drawn again by hand: the marker set's stick is back, nothing is remembered as added.
    v.send(Command::Clip(id, ClipEdit::MarkerLink { a: "LFHD".into(), b: "RFHD".into(), linked: true }));
    v.update(0.0);
    assert_eq!(names(&v).len(), 1);
    assert!(v.settings.overrides[&key].links_removed.is_empty() && v.settings.overrides[&key].links_added.is_empty());
    // Taken away again, and the file opened in a new viewer with these settings: still away.
    v.send(Command::Clip(id, ClipEdit::MarkerLink { a: "LFHD".into(), b: "RFHD".into(), linked: false }));
    v.update(0.0);
    let mut w = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), v.settings.clone());
    w.open_paths(vec![trc], false);
    wait_for(&mut w, |w| w.motion().is_some());
    assert!(names(&w).is_empty(), "{:?}", names(&w));
    // Switched off for all captures from the View menu.
    let mut o = v.session.scene.overlays;
    o.links = false;
    v.send(Command::Scene(SceneEdit::Overlays(o)));
    v.send(Command::Clip(id, ClipEdit::MarkerLink { a: "LFHD".into(), b: "RFHD".into(), linked: true }));
    v.update(0.0);
    assert_eq!(v.frame.draw.lines.len(), lines - 2, "no sticks drawn while switched off");
}

#[test]
fn an_opensim_motion_is_plotted_on_the_shared_clock_beside_the_markers() {
    let dir = tempfile::tempdir().unwrap();
    let mot = dir.path().join("gait.mot");
    let rows: String = (0..50).map(|f| format!("{:.2}\t{}\t{}\n", f as f64 / 100.0, 10 + f, 0.5 + f as f64 * 0.01)).collect();
    std::fs::write(
        &mot,
        format!("Coordinates\nversion=1\nnRows=50\nnColumns=3\ninDegrees=yes\nendheader\ntime\thip_flexion_r\tpelvis_tx\n{rows}"),
    )
    .unwrap();
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), Settings::default());
    v.open_paths(vec![skelview_test_support::workspace_root().join("tests/data/trc/outside_writer.trc")], false);
    wait_for(&mut v, |v| v.motion().is_some());
    v.open_paths(vec![mot], true);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    let id = v.session.scene.clips[1].id();
    let m = &v.session.scene.clips[1].motion;
    assert!(m.warnings.iter().any(|w| w.message.contains("posing them needs the OpenSim model")));
    v.send(Command::Clip(id, ClipEdit::Activate));
    v.send(Command::Window(WindowEdit::Curves(true)));
    v.send(Command::Window(WindowEdit::Signal(Some(skelview_core::core::signals::Signal::Analog(0)))));
    wait_for(&mut v, |v| v.whole.curves.result().is_some());
    let curves = v.whole.curves.result().unwrap();
    assert_eq!(curves.len(), 1);
    let p = &curves[0].points;
    assert_eq!(p.len(), 50);
    assert!((p[10][0] - 0.10).abs() < 1e-6 && (p[10][1] - 20.0).abs() < 1e-4, "{:?}", p[10]);
    // The shared clock spans both clips; nothing is drawn for the motion itself.
    assert!(v.session.playback.num_frames() >= 3);
}
