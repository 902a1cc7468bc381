//! Sticks between a capture's markers: from the marker set's names, drawn as lines, taken
//! away and drawn by the user, and remembered with the file's settings.

use super::*;

fn wait_for(v: &mut Viewer, done: impl Fn(&Viewer) -> bool) {
    for _ in 0..2000 {
        v.update(0.0);
        if done(v) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("timed out: {:?}", v.messages.error);
}

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
