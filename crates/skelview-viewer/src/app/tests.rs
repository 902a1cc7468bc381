//! Viewer unit tests: loading, commands, picking, settings, export, several clips.

use super::*;
use glam::Vec2;
use skelview_core::core::LengthUnit;
use skelview_core::formats::{LoadRequest, Source};
use skelview_scene::{CompareMode, PALETTE};

fn viewer() -> Viewer {
    Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), Settings::default())
}

fn load_sample(v: &mut Viewer) {
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "sample.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait_for(v, |v| v.motion().is_some());
}

#[test]
fn loads_plays_and_steps_through_commands() {
    let mut v = viewer();
    load_sample(&mut v);
    assert!(v.session.playback.playing);
    assert_eq!(v.frame.draw.bones.len(), 23, "one bone per non-root joint");
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.commands.push(Command::Playback(PlaybackCommand::SeekFrame(10)));
    v.commands.push(Command::Playback(PlaybackCommand::Step(5)));
    v.update(1.0);
    assert_eq!(v.session.playback.frame(), 15, "paused: time does not advance");
    v.commands.push(Command::Scene(SceneEdit::PoseMode(PoseMode::Rest)));
    v.update(0.0);
    let rest = v.positions().to_vec();
    v.commands.push(Command::Scene(SceneEdit::PoseMode(PoseMode::Animated)));
    v.update(0.0);
    assert_ne!(rest, v.positions());
}

#[test]
fn picking_selects_the_joint_under_the_cursor() {
    let mut v = viewer();
    load_sample(&mut v);
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.update(0.0);
    let head = v.motion().unwrap().skeleton.find("Head").unwrap();
    let (px, _) = v.view.camera.project(v.positions()[head], 1600.0, 900.0).unwrap();
    let ndc = Vec2::new(px.x / 800.0 - 1.0, 1.0 - px.y / 450.0);
    v.commands.push(Command::Selection(SelectionEdit::Pick(ndc, 16.0 / 9.0)));
    v.update(0.0);
    assert_eq!(v.view.selected, Some(head));
}

#[test]
fn saved_settings_apply_to_a_new_viewer() {
    let mut saved = Settings { light_theme: true, rate: 0.5, show_names: true, ..Settings::default() };
    saved.style.grid = false;
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), saved);
    assert!(v.settings.light_theme && v.settings.show_names && !v.settings.style.grid);
    load_sample(&mut v);
    assert_eq!(v.session.playback.rate, 0.5);
    assert!(v.frame.draw.lines.len() < 100, "no grid lines, only the gizmo");
}

#[test]
fn positions_export_runs_in_the_background() {
    let mut v = viewer();
    load_sample(&mut v);
    let path = std::env::temp_dir().join(format!("skelview-export-{}.csv", std::process::id()));
    v.commands.push(Command::Job(JobCommand::Export(Export::Positions(path.clone()))));
    wait_for(&mut v, |v| !v.jobs.exporting());
    assert!(v.messages.notice.as_deref().is_some_and(|n| n.contains("101 frames")), "{:?} {:?}", v.messages.notice, v.messages.error);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1 + 101 * 24);
    std::fs::remove_file(&path).ok();
}

#[test]
fn errors_are_shown_and_the_app_keeps_running() {
    let mut v = viewer();
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "bad.bvh".into(), bytes: Arc::from(&b"HIERARCHY\nROOT\n"[..]) },
    ));
    wait_for(&mut v, |v| v.messages.error.is_some());
    assert_eq!(v.messages.error.as_deref(), Some("bad.bvh:2:5: expected a joint name, found end of line"));
    assert!(v.session.loads.is_empty());
}

/// Updates the viewer until `done` holds (a state, not a while; a hang fails, naming the
/// error shown if any). The viewer's unit tests share it.
pub(super) fn wait_for(v: &mut Viewer, done: impl Fn(&Viewer) -> bool) {
    skelview_test_support::until(
        "the viewer's background work",
        v,
        |v| v.update(0.0),
        |v| {
            let done = done(v);
            assert!(done || v.stopped_with_error().is_none(), "the viewer stopped with an error: {:?}", v.messages.error);
            done.then_some(())
        },
    );
}

fn sample_request(name: &str) -> LoadRequest {
    LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: name.into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    )
}

#[test]
fn clips_are_added_drawn_in_their_colours_and_removed() {
    let mut v = viewer();
    load_sample(&mut v);
    // One after the other: two loads at once arrive in either order (the list follows
    // arrival), and the steps below address the clips by place.
    v.add(sample_request("b.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    v.add(sample_request("c.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 3);
    assert_eq!(v.session.active, 0, "adding keeps the active clip");
    assert_eq!(v.frame.draw.bones.len(), 3 * 23);
    let colors: Vec<[f32; 4]> = v.session.scene.clips.iter().map(|c| c.color).collect();
    assert_eq!(colors, PALETTE[..3].to_vec());
    assert!(v.frame.draw.bones.iter().any(|b| b.color == PALETTE[2]), "third clip in its colour");
    v.session.scene.clips[1].visible = false;
    v.update(0.0);
    assert_eq!(v.frame.draw.bones.len(), 2 * 23, "hidden clip not drawn");
    v.commands.push(Command::Clip(ClipId(2), ClipEdit::Activate));
    v.commands.push(Command::Selection(SelectionEdit::Joint(Some(3))));
    v.update(0.0);
    assert!(Arc::ptr_eq(v.motion().unwrap(), &v.session.scene.clips[2].motion));
    v.commands.push(Command::Clip(ClipId(0), ClipEdit::Remove));
    v.update(0.0);
    assert_eq!(v.session.scene.clips.len(), 2);
    assert_eq!(v.session.active, 1, "the active clip stays active after an earlier one is removed");
    assert_eq!(v.view.selected, Some(3));
    assert!(v.session.scene.clips.iter().all(|c| c.color != PALETTE[0]));
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Remove));
    v.update(0.0);
    assert!(Arc::ptr_eq(v.motion().unwrap(), &v.session.scene.clips[0].motion));
    v.add(sample_request("d.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    assert_eq!(v.session.scene.clips[1].color, PALETTE[0], "the first free colour is reused");
    for c in &v.session.scene.clips {
        v.commands.push(Command::Clip(c.id(), ClipEdit::Remove));
    }
    v.update(0.0);
    assert!(v.motion().is_none() && v.session.scene.clips.is_empty() && v.frame.draw.bones.is_empty());
}

#[test]
fn shared_clock_spans_offsets_and_match_start_resets_them() {
    let mut v = viewer();
    load_sample(&mut v);
    v.add(sample_request("b.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    let last = v.session.scene.clips[0].motion.clip.last_frame_time_secs();
    assert_eq!(v.session.playback.num_frames(), 101);
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Offset(1.0)));
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.update(0.0);
    let expected = ((last + 1.0) / v.session.playback.frame_time_secs()).round() as usize + 1;
    assert_eq!(v.session.playback.num_frames(), expected, "{last}");
    v.commands.push(Command::Playback(PlaybackCommand::Seek(1.0)));
    v.update(0.0);
    // Clip 1 is at its first frame, clip 0 one second in: different poses.
    assert_ne!(v.session.scene.clips[0].positions(), v.session.scene.clips[1].positions());
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::MatchStart));
    v.update(0.0);
    assert_eq!(v.session.scene.clips[1].offset_secs, 0.0);
    assert_eq!(v.session.playback.num_frames(), 101);
    assert_eq!(v.session.scene.clips[0].positions(), v.session.scene.clips[1].positions(), "overlay, same time: same pose");
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Offset(f64::NAN)));
    v.commands.push(Command::Clip(ClipId(7), ClipEdit::Offset(1.0)));
    v.update(0.0);
    assert_eq!(v.session.scene.clips[1].offset_secs, 0.0, "NaN and unknown clips are ignored");
}

#[test]
fn replacing_keeps_clips_added_after_it_started() {
    let mut v = viewer();
    load_sample(&mut v);
    v.add(sample_request("b.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    v.open(sample_request("new.bvh"));
    v.add(sample_request("later.bvh"));
    wait_for(&mut v, |v| v.session.loads.is_empty());
    let names: Vec<&str> =
        v.session.scene.clips.iter().map(|c| c.motion.source.paths.first().and_then(|p| p.to_str()).unwrap_or("")).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].contains("new") && names[1].contains("later"), "{names:?}");
}

#[test]
fn comparing_a_clip_with_itself_gives_zero_and_pairs_are_editable() {
    let mut v = viewer();
    load_sample(&mut v);
    v.add(sample_request("b.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2);
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.commands.push(Command::Playback(PlaybackCommand::Seek(1.0)));
    // Computed in the background (it may already be in: no assertion on its absence, which raced).
    wait_for(&mut v, |v| v.session.scene.compare.overlap.is_some());
    let c = &v.session.scene.compare;
    assert_eq!(c.pairs().len(), 24, "every joint matches itself");
    let o = c.overlap.as_ref().unwrap();
    assert_eq!((o.points.len(), o.frames), (101, 101));
    assert!(o.points.iter().all(|p| p[1].abs() < 1e-6) && o.mean < 1e-6 && c.mean_now() < 1e-6, "itself: no error");
    assert_eq!(c.unit, "m", "errors in metres whatever the file's unit");
    // The second clip one second later: errors appear, on the overlap only.
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Offset(1.0)));
    v.update(0.0);
    assert!(v.session.scene.compare.overlap.is_none(), "a new offset makes the old curve stale");
    wait_for(&mut v, |v| v.session.scene.compare.overlap.is_some());
    let c = &v.session.scene.compare;
    let o = c.overlap.as_ref().unwrap();
    assert!(o.frames < 101 && o.points.first().is_some_and(|p| (p[0] - 1.0).abs() < 1e-6), "{:?}", o.points.first());
    assert!(o.points.iter().any(|p| p[1] > 0.01) && c.legend_max == o.legend_max && c.legend_max > 0.0);
    assert_eq!(c.bone_colors.len(), 24, "heat map colours for the compared clip");
    // Clearing a partner drops the pair; pointing it elsewhere measures that joint.
    let head = v.session.scene.clips[0].motion.skeleton.find("Head").unwrap();
    v.session.scene.compare.partner[head] = None;
    v.update(0.0);
    assert_eq!(v.session.scene.compare.pairs().len(), 23);
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::MatchStart));
    v.session.scene.compare.partner[head] = Some(0);
    v.update(0.0);
    let wrong = v.session.scene.compare.current.iter().find(|p| p.0 == head).unwrap().2;
    assert!((0.3..1.5).contains(&wrong), "head against hips, metres: {wrong}");
    assert_eq!(v.session.scene.compare.worst(1)[0].0, head);
    v.session.scene.compare.mode = CompareMode::Angle;
    v.session.scene.compare.partner[head] = Some(head);
    v.update(0.0);
    assert_eq!(v.session.scene.compare.unit, "deg");
    assert!(v.session.scene.compare.mean_now() < 1e-3);
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Remove));
    v.update(0.0);
    let c = &v.session.scene.compare;
    assert!(c.overlap.is_none() && c.overlap_input.is_none() && c.current.is_empty());
}

#[test]
fn name_maps_load_or_report_errors() {
    let mut v = viewer();
    let path = std::env::temp_dir().join(format!("skelview-map-{}.mnm", std::process::id()));
    std::fs::write(&path, "Bip01 Hips\nBip01 Head Head\n").unwrap();
    v.commands.push(Command::Job(JobCommand::ReadNameMap(path.clone())));
    wait_for(&mut v, |v| !v.jobs.busy());
    assert_eq!(v.session.document.name_map.as_ref().map(|m| m.1.len()), Some(2));
    assert_eq!(v.session.scene.compare.name_map.as_ref().map(|m| m.len()), Some(2), "the scene pairs with it");
    std::fs::write(&path, "\n# nothing\n").unwrap();
    v.commands.push(Command::Job(JobCommand::ReadNameMap(path.clone())));
    wait_for(&mut v, |v| !v.jobs.busy());
    assert!(v.messages.error.as_deref().is_some_and(|e| e.contains("at least one line")), "{:?}", v.messages.error);
    std::fs::remove_file(&path).ok();
}

#[test]
fn reloading_one_clip_with_another_rule_keeps_the_others() {
    let dir = std::env::temp_dir().join(format!("skelview-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.bvh"), dir.join("b.bvh"));
    std::fs::write(&a, skelview_core::formats::SAMPLE_BVH).unwrap();
    std::fs::write(&b, skelview_core::formats::SAMPLE_BVH).unwrap();
    let mut v = viewer();
    v.open_paths(vec![a, b], false);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2 && v.session.loads.is_empty());
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Offset(0.5)));
    v.commands.push(Command::Clip(ClipId(1), ClipEdit::Activate));
    v.update(0.0);
    let before = v.session.scene.clips[1].motion.clone();
    assert_eq!(before.skeleton.position_rule, skelview_core::core::PositionRule::Replace);
    v.commands
        .push(Command::Clip(v.session.active_clip().unwrap().id(), ClipEdit::FormatOption { key: "bvh.positions", value: "add".into() }));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    assert_eq!(v.session.scene.clips.len(), 2, "nothing closed");
    assert_eq!(v.session.scene.clips[1].motion.skeleton.position_rule, skelview_core::core::PositionRule::Add);
    assert!(!Arc::ptr_eq(&v.session.scene.clips[1].motion, &before));
    assert_eq!((v.session.scene.clips[1].offset_secs, v.session.scene.clips[1].color, v.session.active), (0.5, PALETTE[1], 1));
    assert!(Arc::ptr_eq(v.motion().unwrap(), &v.session.scene.clips[1].motion));
    assert_eq!(v.session.scene.clips[0].motion.skeleton.position_rule, skelview_core::core::PositionRule::Replace);
    // The clip knows what it was read with, and its file remembers the choice.
    assert_eq!(v.session.document.source(v.session.scene.clips[1].id()).read_with.get("bvh.positions"), Some("add"));
    let key = crate::tasks::file_key(&dir.join("b.bvh")).display().to_string();
    assert_eq!(v.settings.overrides[&key].format.get("bvh.positions"), Some("add"));
    // An option BVH does not declare, or a value it does not take, changes nothing.
    let id = v.session.active_clip().unwrap().id();
    v.commands.push(Command::Clip(id, ClipEdit::FormatOption { key: "amc.fps", value: "60".into() }));
    v.commands.push(Command::Clip(id, ClipEdit::FormatOption { key: "bvh.positions", value: "sideways".into() }));
    v.update(0.0);
    assert!(v.session.loads.is_empty(), "no reload");
    std::fs::remove_dir_all(&dir).ok();
}

/// A HumanML3D `new_joints` file: `frames` × 22 joints × 3 float32, standing on the floor.
fn humanml3d_npy(frames: usize) -> Vec<u8> {
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({frames}, 22, 3), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for f in 0..frames {
        for j in 0..22 {
            out.extend([0.01 * f as f32, 0.08 * j as f32, 0.0].iter().flat_map(|x| x.to_le_bytes()));
        }
    }
    out
}

#[test]
fn a_body_model_folder_is_chosen_once_for_every_file_and_a_gender_per_file() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, models) = (dir.path().join("a.npy"), dir.path().join("b.npy"), dir.path().join("models"));
    std::fs::write(&a, humanml3d_npy(4)).unwrap();
    std::fs::write(&b, humanml3d_npy(6)).unwrap();
    std::fs::create_dir_all(&models).unwrap();
    let folder = models.display().to_string();
    let mut v = viewer();
    v.open_paths(vec![a], false);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 1 && v.session.loads.is_empty());
    let first = v.session.scene.clips[0].id();
    v.commands.push(Command::Clip(first, ClipEdit::FormatOption { key: "npz.body_model", value: folder.clone() }));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    let read_with =
        |v: &Viewer, i: usize, key: &str| v.session.document.source(v.session.scene.clips[i].id()).read_with.get(key).map(str::to_owned);
    assert_eq!(v.settings.format.get("npz.body_model"), Some(folder.as_str()), "remembered for every file");
    assert!(v.settings.overrides.values().all(|o| o.format.get("npz.body_model").is_none()), "not for one file");
    assert_eq!(read_with(&v, 0, "npz.body_model"), Some(folder.clone()), "the open clip is read again with it");
    // A file opened later is read with it, without being told.
    v.open_paths(vec![b.clone()], true);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2 && v.session.loads.is_empty());
    assert_eq!(read_with(&v, 1, "npz.body_model"), Some(folder.clone()));
    // A gender is chosen for one file: that clip alone reloads, and its file remembers it.
    let second = v.session.scene.clips[1].id();
    v.commands.push(Command::Clip(second, ClipEdit::FormatOption { key: "npz.gender", value: "male".into() }));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    assert_eq!((read_with(&v, 0, "npz.gender"), read_with(&v, 1, "npz.gender")), (None, Some("male".to_owned())));
    let key = crate::tasks::file_key(&b).display().to_string();
    assert_eq!(v.settings.overrides[&key].format.get("npz.gender"), Some("male"));
    // Resetting the settings keeps where the body models are.
    v.commands.push(Command::Setting(SettingEdit::Reset));
    v.update(0.0);
    assert_eq!(v.settings.format.get("npz.body_model"), Some(folder.as_str()));
}

#[test]
fn choosing_another_take_reloads_that_clip_in_place() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/three_takes.x3d");
    let mut v = viewer();
    v.open_paths(vec![path], false);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 1 && v.session.loads.is_empty());
    let take = |v: &Viewer| v.motion().and_then(|m| m.source.take.map(|i| m.source.takes[i].name.clone()));
    assert_eq!(take(&v).as_deref(), Some("Walk"));
    v.commands.push(Command::Clip(ClipId(0), ClipEdit::Offset(0.25)));
    v.commands.push(Command::Clip(ClipId(0), ClipEdit::Take("Kick".into())));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    assert_eq!(take(&v).as_deref(), Some("Kick"));
    assert_eq!(v.session.scene.clips.len(), 1);
    assert_eq!(v.session.scene.clips[0].offset_secs, 0.25, "the clip keeps its place on the clock");
}

fn wait_for_checks(v: &mut Viewer) -> Arc<skelview_core::qa::Report> {
    skelview_test_support::until("the checks", v, |v| v.update(0.0), |v| v.active_report().cloned())
}

#[test]
fn checks_run_in_the_background_and_a_finding_is_a_click_away() {
    let mut v = viewer();
    load_sample(&mut v);
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    let report = wait_for_checks(&mut v);
    assert_eq!(report.frames, v.motion().unwrap().clip.num_frames());
    assert_eq!(report.neutral.len(), 2, "rest pose and first frame");
    v.commands.push(Command::Selection(SelectionEdit::Finding { frame: 7, joint: Some(3) }));
    v.update(0.0);
    assert_eq!(v.session.playback.frame(), 7);
    assert!(!v.session.playback.playing);
    assert_eq!(v.view.selected, Some(3));
    let mut expected: Vec<usize> =
        report.findings.iter().filter(|f| f.kind != skelview_core::qa::Kind::NeutralPose && f.covers(7)).filter_map(|f| f.joint).collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(v.session.scene.flagged, expected);
    // New thresholds: the clip is checked again with them.
    v.settings.qa.floor.depth_m = 0.5;
    v.update(0.0);
    assert!(matches!(v.checks.state(v.session.active_clip().unwrap().serial), Some(CheckState::Running(..)) | Some(CheckState::Done(_))));
    let again = wait_for_checks(&mut v);
    assert!(!Arc::ptr_eq(&again, &report), "a new report");
}

#[test]
fn a_joint_named_on_the_command_line_is_selected_when_its_clip_arrives() {
    let mut v = viewer();
    v.start_with(Start { select: Some("LeftForeArm".into()), ..Start::default() });
    load_sample(&mut v);
    let arm = v.motion().unwrap().skeleton.find("LeftForeArm");
    assert!(arm.is_some());
    assert_eq!(v.view.selected, arm);
    assert!(v.view.on_load().is_empty(), "applied once");
    // A name the file lacks is an error the user sees, and nothing is selected.
    let mut v = viewer();
    v.view.queue_on_load(LoadEffect::Select("Tail".into()));
    load_sample(&mut v);
    assert_eq!(v.view.selected, None);
    assert!(v.messages.error.as_deref().is_some_and(|e| e.contains("--select: no joint named 'Tail' in")), "{:?}", v.messages.error);
}

#[test]
fn the_measure_tool_picks_clicked_joints_and_measures_the_whole_clip() {
    use skelview_core::core::measure::{Measure, series};
    let mut v = viewer();
    load_sample(&mut v);
    let m = v.motion().unwrap().clone();
    let (up, knee, foot) =
        (m.skeleton.find("LeftUpLeg").unwrap(), m.skeleton.find("LeftLeg").unwrap(), m.skeleton.find("LeftFoot").unwrap());
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.commands.push(Command::Selection(SelectionEdit::Joint(Some(up))));
    v.commands.push(Command::Window(WindowEdit::Measure(true)));
    v.update(0.0);
    assert_eq!(v.view.measure.picks, [up], "opening the tool picks the selected joint");
    for j in [knee, foot] {
        v.commands.push(Command::Selection(SelectionEdit::Joint(Some(j))));
    }
    v.commands.push(Command::Playback(PlaybackCommand::Seek(1.0)));
    v.update(0.0);
    assert_eq!(v.view.measure.measures(), [Measure::Angle(up, knee, foot)]);
    let frame = v.session.active_frame();
    let display = v.session.active_clip().unwrap().display.display_from_file;
    let expected = series(&m, &[Measure::Angle(up, knee, foot)], &[frame], display, &|_| true).unwrap()[0][0];
    assert!(expected > 90.0 && (v.view.measure.now[0] - expected).abs() < 1e-9, "{:?} vs {expected}", v.view.measure.now);
    wait_for(&mut v, |v| v.whole.measures.result().is_some());
    let curves = v.whole.measures.result().unwrap().clone();
    assert_eq!((curves.values.len(), curves.values[0].len()), (1, 101), "every frame");
    assert_eq!(curves.values[0][frame], v.view.measure.now[0]);
    assert!(!curves.points[0].is_empty());
    // Export CSV writes what `skelview measure` prints.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.csv");
    v.commands.push(Command::Job(JobCommand::Export(Export::Measures(path.clone()))));
    wait_for(&mut v, |v| !v.jobs.exporting() && path.exists());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("frame,time,angle LeftUpLeg LeftLeg LeftFoot [deg]\n0,0,"), "{}", &text[..80]);
    assert_eq!(text.lines().count(), 102);
    // Closing the tool stops measuring; a clear empties the picks.
    v.commands.push(Command::Window(WindowEdit::ClearMeasure));
    v.update(0.0);
    assert!(v.view.measure.picks.is_empty() && v.view.measure.now.is_empty());
}

/// Share of the viewport's height that the active clip's pose covers now.
fn height_on_screen(v: &Viewer) -> f32 {
    let (w, h) = (v.view.aspect * 600.0, 600.0);
    let ys: Vec<f32> = v.positions().iter().filter_map(|p| v.view.camera.project(*p, w, h)).map(|(p, _)| p.y).collect();
    (ys.iter().copied().fold(f32::MIN, f32::max) - ys.iter().copied().fold(f32::MAX, f32::min)) / h
}

#[test]
fn a_clip_opens_framed_at_half_the_view_and_followed_when_it_travels() {
    let mut v = viewer();
    load_sample(&mut v);
    v.update(0.0);
    let share = height_on_screen(&v);
    assert!((0.4..0.6).contains(&share), "the walk covers {share} of the height");
    assert!(v.view.follow_root, "the sample walks 3 m: followed");
    // F frames the whole walk (smaller on screen) and stops following.
    v.commands.push(Command::Camera(CameraEdit::FrameAll));
    v.update(0.0);
    assert!(!v.view.follow_root && height_on_screen(&v) < share * 0.8, "{}", height_on_screen(&v));
    // A clip that stays in place is not followed.
    // The sample walking on the spot: every frame's root position is the first frame's.
    let text = std::str::from_utf8(skelview_core::formats::SAMPLE_BVH).unwrap();
    let (head, rows) = text.split_at(text.find("Frame Time").unwrap());
    let mut lines = rows.lines();
    let mut still = format!("{head}{}\n", lines.next().unwrap());
    let mut first: Option<Vec<String>> = None;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let mut v: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let f = first.get_or_insert_with(|| v[..3].to_vec());
        v[..3].clone_from_slice(f);
        still += &(v.join(" ") + "\n");
    }
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "still.bvh".into(), bytes: Arc::from(still.as_bytes()) },
    ));
    wait_for(&mut v, |v| v.motion().is_some_and(|m| m.source.paths.iter().any(|p| p.ends_with("still.bvh"))));
    v.update(0.0);
    let s = &v.session.scene;
    assert!(!v.view.follow_root, "a clip in place is not followed: {:?} {:?} {}", s.bounds_now(0), s.bounds_over_clips(0), s.size_m(0));
    let share = height_on_screen(&v);
    assert!((0.4..0.6).contains(&share), "{share}");
}

#[cfg(unix)]
#[test]
fn a_unit_override_saved_through_a_symlink_and_dotdot_is_found_under_the_real_path() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("takes").join("walk.bvh");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, skelview_core::formats::SAMPLE_BVH).unwrap();
    let link = dir.path().join("link.bvh");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let wait_for = |v: &mut Viewer| wait_for(v, |v| v.motion().is_some() && v.session.loads.is_empty());
    // Opened through a symlink, with `..` in the path: the override is saved under one key.
    let mut v = viewer();
    v.open_paths(vec![dir.path().join("takes").join("..").join("link.bvh")], false);
    wait_for(&mut v);
    v.commands.push(Command::Clip(v.session.active_clip().unwrap().id(), ClipEdit::Unit(Some(LengthUnit::Millimetre))));
    v.update(0.0);
    assert_eq!(v.settings.overrides.len(), 1);
    let key = crate::tasks::file_key(&real).display().to_string();
    assert!(v.settings.overrides.contains_key(&key), "saved under the real path: {:?}", v.settings.overrides.keys());
    // Opened again under its real name, by a viewer that starts from the saved settings.
    let mut again = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), v.settings.clone());
    again.open_paths(vec![real.clone()], false);
    wait_for(&mut again);
    assert_eq!(again.session.active_clip().and_then(|c| again.session.document.overrides(c.id()).0), Some(LengthUnit::Millimetre));
}

#[test]
fn commands_reach_their_clip_by_id_when_a_replacing_load_arrives_in_the_same_frame() {
    let mut v = viewer();
    v.open(sample_request("a.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 1 && v.session.loads.is_empty());
    v.add(sample_request("b.bvh"));
    wait_for(&mut v, |v| v.session.scene.clips.len() == 2 && v.session.loads.is_empty());
    let b = v.session.scene.clips[1].id();
    // C replaces what is shown; D is added. Both arrive in one poll, before the commands the
    // UI queued while they loaded: removing B (gone with the replace) must not remove D, and
    // D's offset must reach D wherever it now is.
    v.open(sample_request("c.bvh"));
    v.add(sample_request("d.bvh"));
    // Both loads have ended (their clips wait in their tasks): the next update takes both.
    skelview_test_support::until_true("both loads' end", || v.session.loads.len() == 2 && v.session.loads.iter().all(|l| l.task.ended()));
    v.commands.push(Command::Clip(b, ClipEdit::Remove));
    let d = ClipId(b.0 + 2);
    v.commands.push(Command::Clip(d, ClipEdit::Offset(0.5)));
    wait_for(&mut v, |v| v.session.loads.is_empty());
    let names: Vec<&str> = v.session.scene.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["c.bvh", "d.bvh"], "the removal of a clip already gone removes nothing");
    let at = v.session.scene.index_of(d).expect("d is open");
    assert_eq!(v.session.scene.clips[at].name, "d.bvh");
    assert_eq!(v.session.scene.clips[at].offset_secs, 0.5, "the offset reached d");
}

#[test]
fn an_export_failure_is_shown_as_an_export_error() {
    let mut v = viewer();
    load_sample(&mut v);
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("missing folder").join("positions.csv");
    v.commands.push(Command::Job(JobCommand::Export(Export::Positions(nowhere))));
    wait_for(&mut v, |v| v.messages.error.is_some());
    assert_eq!(v.messages.error_title, "Export failed", "{:?}", v.messages.error);
}

#[test]
fn save_as_writes_the_active_clip_in_every_format_and_says_why_not() {
    let mut v = viewer();
    load_sample(&mut v);
    let dir = tempfile::tempdir().unwrap();
    for name in ["walk.bvh", "walk.c3d", "walk.trc", "walk.glb"] {
        let path = dir.path().join(name);
        v.commands.push(Command::Job(JobCommand::Export(Export::Motion(path.clone()))));
        wait_for(&mut v, |v| !v.jobs.exporting());
        assert!(
            v.messages.notice.as_deref().is_some_and(|n| n.starts_with("wrote") && n.contains(name)),
            "{:?} {:?}",
            v.messages.notice,
            v.messages.error
        );
        let back = skelview_core::formats::open_one(&path, &Default::default(), &skelview_core::formats::Sequential).unwrap();
        assert_eq!(back.clip.num_frames(), 101, "{name}");
    }
    // A BVH written from a BVH keeps its channels.
    let written = std::fs::read_to_string(dir.path().join("walk.bvh")).unwrap();
    let source = String::from_utf8_lossy(skelview_core::formats::SAMPLE_BVH).into_owned();
    let order = |t: &str| t.lines().find(|l| l.contains("CHANNELS 3")).map(|l| l.trim().to_owned());
    assert_eq!(order(&written), order(&source));
    v.commands.push(Command::Job(JobCommand::Export(Export::Motion(dir.path().join("walk.fbx")))));
    wait_for(&mut v, |v| v.messages.error.is_some());
    assert_eq!(v.messages.error_title, "Export failed");
    assert!(v.messages.error.as_deref().is_some_and(|e| e.contains("walk.fbx") && e.contains(".c3d")), "{:?}", v.messages.error);
}

#[test]
fn files_opened_from_memory_pair_and_reload_from_their_bytes() {
    // As a web page hands them in: names and bytes, no file on disk.
    let asf = ":version 1.10\n:name test\n:units\n  mass 1.0\n  length 1.0\n  angle deg\n:root\n  order TX TY TZ RX RY RZ\n  axis XYZ\n  position 0 0 0\n  orientation 0 0 0\n:bonedata\n  begin\n    id 1\n    name bone1\n    direction 0 1 0\n    length 1\n    axis 0 0 0 XYZ\n  end\n:hierarchy\n  begin\n    root bone1\n  end\n";
    let mut v = viewer();
    v.open_memory(vec![("in-memory-only.bvh".into(), Arc::from(skelview_core::formats::SAMPLE_BVH))], false);
    wait_for(&mut v, |v| v.session.scene.clips.len() == 1 && v.session.loads.is_empty());
    assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
    v.commands
        .push(Command::Clip(v.session.active_clip().unwrap().id(), ClipEdit::FormatOption { key: "bvh.positions", value: "add".into() }));
    v.update(0.0);
    wait_for(&mut v, |v| v.session.loads.is_empty());
    assert!(v.messages.error.is_none(), "a reload reads the bytes kept, not a file: {:?}", v.messages.error);
    assert_eq!(v.session.scene.clips[0].motion.skeleton.position_rule, skelview_core::core::PositionRule::Add);
    // An AMC without its ASF says what to do; with it, the two pair.
    {
        let amc = b":FULLY-SPECIFIED\n:DEGREES\n1\nroot 0 0 0 0 0 0\n2\nroot 1 0 0 0 0 0\n".to_vec();
        v.open_memory(vec![("take.amc".into(), Arc::from(amc.clone()))], false);
        v.update(0.0);
        assert!(
            v.messages.error.as_deref().is_some_and(|e| e.contains("take.amc") && e.contains("open both together")),
            "{:?}",
            v.messages.error
        );
        v.messages.error = None;
        v.open_memory(vec![("take.amc".into(), Arc::from(amc)), ("skeleton.asf".into(), Arc::from(asf.as_bytes()))], false);
        wait_for(&mut v, |v| v.session.loads.is_empty() && v.session.scene.clips.iter().any(|c| c.motion.source.paths.len() == 2));
        assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
        assert_eq!(v.session.scene.clips[0].motion.clip.num_frames(), 2);
    }
}

#[test]
fn pictures_and_dialogs_are_asked_of_the_host() {
    use std::sync::Mutex;
    // A host that records what it was asked and renders a picture of one grey pixel.
    #[derive(Default)]
    struct Recording(Mutex<Vec<String>>);
    impl Host for Recording {
        fn ask(&self, dialog: Dialog) -> Option<Command> {
            self.0.lock().unwrap().push(format!("ask {dialog:?}"));
            None
        }
        fn picture(&self, shot: Shot) -> Result<Vec<u8>, PictureError> {
            self.0.lock().unwrap().push(format!("picture {}x{}", shot.size.0, shot.size.1));
            Ok(vec![128; 4 * (shot.size.0 * shot.size.1) as usize])
        }
        fn write(
            &self,
            _: Shot,
            output: ShotOutput,
            progress: &mut dyn FnMut(usize, usize) -> std::ops::ControlFlow<()>,
        ) -> Result<usize, PictureError> {
            let _ = progress(1, 1);
            self.0.lock().unwrap().push(format!("write {output:?}"));
            Ok(1)
        }
    }
    // Without a host, a picture is refused with a message, not a panic or a silent nothing.
    let mut v = viewer();
    load_sample(&mut v);
    v.commands.push(Command::Job(JobCommand::Export(Export::Screenshot(Some("x.png".into())))));
    wait_for(&mut v, |v| v.messages.error.is_some());
    assert_eq!(v.messages.error.as_deref(), Some("pictures are not made in this build (no renderer)"));

    let host = Arc::new(Recording::default());
    v.set_host(host.clone());
    v.view.viewport_px = (2, 3);
    v.commands.push(Command::Job(JobCommand::Export(Export::Screenshot(None))));
    wait_for(&mut v, |v| !v.effects().is_empty());
    match v.take_effects().as_slice() {
        [Effect::Clipboard((size, px))] => assert_eq!((*size, px.len()), ((2, 3), 24)),
        other => panic!("one clipboard picture, not {other:?}"),
    }
    assert!(v.effects().is_empty(), "taken once");
    v.commands.push(Command::Job(JobCommand::Export(Export::Screenshot(Some("x.png".into())))));
    wait_for(&mut v, |v| !v.jobs.exporting() && v.messages.notice.as_deref().is_some_and(|n| n.contains("x.png")));
    v.commands.push(Command::Job(JobCommand::Ask(Dialog::NameMap)));
    wait_for(&mut v, |_| host.0.lock().unwrap().len() == 3);
    let asked = host.0.lock().unwrap().clone();
    assert_eq!(asked, ["picture 2x3", "write Png(\"x.png\")", "ask NameMap"]);
}

#[test]
fn the_document_holds_each_clips_choices_and_forgets_closed_clips() {
    let mut v = viewer();
    load_sample(&mut v);
    let id = v.session.scene.clips[0].id();
    let height = |v: &Viewer| v.session.scene.clips[0].display.size_m;
    let before = height(&v);
    v.commands.push(Command::Clip(id, ClipEdit::Unit(Some(LengthUnit::Millimetre))));
    v.update(0.0);
    assert_eq!(v.session.document.overrides(id), (Some(LengthUnit::Millimetre), None));
    assert!(height(&v) < before, "the scene shows the document's unit: {} vs {before}", height(&v));
    // Resetting the settings clears the choice in the document and in the picture alike.
    v.commands.push(Command::Setting(SettingEdit::Reset));
    v.update(0.0);
    assert_eq!(v.session.document.overrides(id), (None, None));
    assert_eq!(height(&v), before);
    v.commands.push(Command::Clip(id, ClipEdit::Remove));
    v.update(0.0);
    assert!(v.session.document.is_empty(), "a closed clip leaves nothing behind");
}

#[test]
fn camera_requests_are_queued_once_and_drained_by_the_next_picture() {
    let mut v = viewer();
    load_sample(&mut v);
    assert!(v.view.pending().is_empty(), "the load's framing was done: {:?}", v.view.pending());
    let far = v.view.camera.distance;
    v.view.camera.distance = far * 10.0;
    v.commands.push(Command::Camera(CameraEdit::FrameAll));
    v.commands.push(Command::Camera(CameraEdit::FrameAll));
    v.update(0.0);
    assert!(v.view.pending().is_empty());
    assert!(v.view.camera.distance < far * 5.0, "framed again: {} (was {far})", v.view.camera.distance);
    v.view.queue(ViewEffect::FramePose);
    v.view.queue(ViewEffect::FramePose);
    assert_eq!(v.view.pending(), [ViewEffect::FramePose], "a request asked twice is one request");
}

#[test]
fn every_task_is_listed_and_stopped_one_way() {
    let mut v = viewer();
    let stoppable = |v: &Viewer| v.running_tasks().into_iter().filter(|t| t.cancellable).collect::<Vec<_>>();
    // A load is listed until the next update takes what it did (finished or not).
    v.open_memory(vec![("big.bvh".into(), Arc::from(skelview_core::formats::SAMPLE_BVH))], false);
    let tasks = v.running_tasks();
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].label, "Loading big.bvh");
    assert!(tasks[0].cancellable && tasks[0].foreground);
    v.send(Command::CancelTask(tasks[0].id));
    v.update(0.0);
    assert!(v.session.loads.iter().all(|l| l.task.cancelled()), "the load's task was told to stop");
    wait_for(&mut v, |v| v.session.loads.is_empty());
    assert!(v.running_tasks().is_empty());
    // An added clip's load is listed in the background.
    v.add(LoadRequest::from_memory(vec![("added.bvh".into(), Arc::from(skelview_core::formats::SAMPLE_BVH))]).remove(0).unwrap());
    assert!(v.running_tasks().iter().any(|t| t.label == "Loading added.bvh" && t.cancellable && !t.foreground));
    wait_for(&mut v, |v| v.session.loads.is_empty() && !v.session.scene.clips.is_empty());
    // What a clip's arrival starts (its capture checks) is listed too, as upkeep: not stopped
    // by a Cancel.
    v.update(0.0);
    let upkeep = v.running_tasks();
    if let Some(check) = upkeep.iter().find(|t| !t.cancellable) {
        v.send(Command::CancelTask(check.id));
        wait_for(&mut v, |v| !v.working());
        assert!(v.active_report().is_some(), "the checks ran to the end");
    }
    // An export is listed the same way, and the same command stops it.
    let dir = tempfile::tempdir().unwrap();
    v.commands.push(Command::Job(JobCommand::Export(Export::Positions(dir.path().join("p.csv")))));
    v.update(0.0);
    if let Some(t) = stoppable(&v).first() {
        assert!(t.label.starts_with("Exporting") && t.foreground, "{t:?}");
        v.send(Command::CancelTask(t.id));
        v.update(0.0);
        let listed = v.running_tasks().into_iter().find(|r| r.id == t.id);
        assert!(listed.as_ref().is_none_or(|r| r.stopping), "the export was told to stop: {listed:?}");
    }
    wait_for(&mut v, |v| !v.jobs.exporting());
    assert!(stoppable(&v).is_empty());
}
