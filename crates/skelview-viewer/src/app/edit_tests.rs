//! The viewer's edits: a recipe applied in the background replaces the clip shown, its
//! source drawn as a ghost; undo and redo step through recipes; a failing step shows the
//! source and says why; the checks count before and after; events are edits too.

use super::*;
use skelview_core::edit::{FillGaps, FillMethod, Filter, Ground, Op, RemoveEvent, RemoveJoint, Scale};
use skelview_core::formats::{LoadRequest, Source};

fn viewer() -> Viewer {
    Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), Settings::default())
}

fn wait_for(v: &mut Viewer, what: &str, done: impl Fn(&Viewer) -> bool) {
    skelview_test_support::until(what, v, |v| v.update(0.0), |v| done(v).then_some(()));
}

fn loaded(request: LoadRequest) -> Viewer {
    let mut v = viewer();
    v.open(request);
    wait_for(&mut v, "the clip", |v| v.motion().is_some());
    v.send(Command::Playback(PlaybackCommand::Pause));
    v
}

fn sample() -> Viewer {
    loaded(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ))
}

fn edit(v: &mut Viewer, c: EditCommand) {
    let id = v.session.active_clip().unwrap().id();
    v.send(Command::Edit(id, c));
}

fn shown(v: &Viewer) -> Arc<skelview_core::core::Motion> {
    v.motion().unwrap().clone()
}

fn applied(v: &Viewer) -> bool {
    let c = v.session.active_clip().unwrap();
    matches!(v.edit_runs.state(c.serial), Some(EditState::Done(_))) && c.ghost.is_some()
}

#[test]
fn an_edit_replaces_the_clip_shown_with_its_source_as_a_ghost_and_undo_brings_the_source_back() {
    let mut v = sample();
    let source = shown(&v);
    let (color, id) = (v.session.scene.clips[0].color, v.session.scene.clips[0].id());
    edit(&mut v, EditCommand::Add(Op::Scale(Scale { factor: 2.0 })));
    wait_for(&mut v, "the edit", applied);
    let edited = shown(&v);
    assert!(!Arc::ptr_eq(&edited, &source));
    assert_eq!(edited.skeleton.joints()[1].offset, source.skeleton.joints()[1].offset * 2.0);
    let c = &v.session.scene.clips[0];
    assert_eq!((c.color, c.id()), (color, id), "the clip keeps its look and id");
    assert!(Arc::ptr_eq(&c.ghost.as_ref().unwrap().clip.motion, &source), "the source is the ghost");
    // The ghost is drawn: twice the bones.
    assert_eq!(v.frame.draw.bones.len(), 2 * 23);
    // How far each joint moved: the head by about its height.
    let Some(EditState::Done(a)) = v.edit_runs.state(c.serial) else { panic!() };
    let head = edited.skeleton.find("Head").unwrap();
    assert!(a.moved[head].max_m > 1.0, "{:?}", a.moved[head]);
    // Undo: the source at once, no ghost; redo: the edit again (a new run).
    edit(&mut v, EditCommand::Undo);
    v.update(0.0);
    assert!(Arc::ptr_eq(&shown(&v), &source) && v.session.scene.clips[0].ghost.is_none());
    assert_eq!(v.frame.draw.bones.len(), 23);
    edit(&mut v, EditCommand::Redo);
    wait_for(&mut v, "the edit again", applied);
    assert_eq!(shown(&v).skeleton.joints()[1].offset, edited.skeleton.joints()[1].offset);
    // Off: the source, without waiting; the recipe keeps the step.
    edit(&mut v, EditCommand::Enable(0, false));
    v.update(0.0);
    assert!(Arc::ptr_eq(&shown(&v), &source));
    assert_eq!(v.session.document.edits(id).unwrap().recipe.steps.len(), 1);
}

#[test]
fn a_failing_step_shows_the_source_and_says_which_step() {
    let mut v = sample();
    let source = shown(&v);
    edit(&mut v, EditCommand::Add(Op::Ground(Ground {})));
    wait_for(&mut v, "ground", applied);
    edit(&mut v, EditCommand::Add(Op::RemoveJoint(RemoveJoint { name: "Tail".into() })));
    wait_for(&mut v, "the failure", |v| matches!(v.edit_runs.state(v.session.scene.clips[0].serial), Some(EditState::Failed(_))));
    let Some(EditState::Failed(why)) = v.edit_runs.state(v.session.scene.clips[0].serial) else { panic!() };
    assert!(why.starts_with("step 2 (remove_joint): no joint named 'Tail'"), "{why}");
    v.update(0.0);
    assert!(Arc::ptr_eq(&shown(&v), &source));
    edit(&mut v, EditCommand::Undo);
    wait_for(&mut v, "ground again", applied);
}

#[test]
fn removing_the_selected_joint_clears_the_selection_and_the_checks_count_before_and_after() {
    let mut v = sample();
    let last = v.motion().unwrap().skeleton.len() - 1;
    v.send(Command::Selection(SelectionEdit::Joint(Some(last))));
    wait_for(&mut v, "the checks", |v| v.active_report().is_some());
    let before = v.active_report().unwrap().clone();
    edit(&mut v, EditCommand::Add(Op::RemoveJoint(RemoveJoint { name: "RightArm".into() })));
    wait_for(&mut v, "the edit", applied);
    assert!(v.motion().unwrap().skeleton.find("RightArm").is_none());
    assert!(v.motion().unwrap().skeleton.len() <= last);
    assert_eq!(v.view.selected, None, "no selection past the joints");
    let serial = v.session.scene.clips[0].serial;
    wait_for(&mut v, "the checks of both", |v| {
        v.checks.before(serial).is_some() && v.active_report().is_some_and(|r| !Arc::ptr_eq(r, &before))
    });
    assert!(Arc::ptr_eq(v.checks.before(serial).unwrap(), &before), "the source's checks are the counts before, not run again");
    assert!(v.active_report().unwrap().findings.iter().all(|f| f.joint.is_none_or(|j| j < v.motion().unwrap().skeleton.len())));
}

#[test]
fn a_recipe_saved_from_the_viewer_reads_back_and_applies_to_another_clip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clean.toml");
    let mut v = sample();
    let fill =
        Op::FillGaps(FillGaps { method: FillMethod::Spline, max_gap: Some(12), donors: vec![], joints: vec!["Head".into()], range: None });
    edit(&mut v, EditCommand::Add(fill.clone()));
    edit(&mut v, EditCommand::Add(Op::Filter(Filter { cutoff_hz: 6.0, order: 2, joints: vec![], range: None })));
    edit(&mut v, EditCommand::Enable(1, false));
    wait_for(&mut v, "the edit", applied);
    v.send(Command::Job(JobCommand::Export(Export::Recipe(path.clone()))));
    wait_for(&mut v, "the recipe file", |v| !v.jobs.exporting() && path.exists());
    let text = std::fs::read_to_string(&path).unwrap();
    let recipe = skelview_core::edit::Recipe::from_toml(&text).unwrap();
    assert_eq!(recipe, v.session.document.edits(v.session.scene.clips[0].id()).unwrap().recipe);
    let mut other = sample();
    other.send(Command::Job(JobCommand::ReadRecipe(path)));
    wait_for(&mut other, "the recipe read", applied);
    let e = other.session.document.edits(other.session.scene.clips[0].id()).unwrap();
    assert_eq!(e.recipe, recipe);
    assert!(e.can_undo(), "reading a recipe is one change, undone in one step");
    other.send(Command::Job(JobCommand::ReadRecipe(dir.path().join("missing.toml"))));
    wait_for(&mut other, "the error", |v| v.messages.error.is_some());
    assert_eq!(other.messages.error_title, "Could not read the recipe");
}

#[test]
fn events_are_added_and_removed_as_edits_and_undone() {
    let root = skelview_test_support::workspace_root();
    let mut v = viewer();
    v.open_paths(vec![root.join("tests/data/trc/outside_writer.trc")], false);
    wait_for(&mut v, "the capture", |v| v.motion().is_some());
    assert!(v.motion().unwrap().capture.is_some());
    let events = |v: &Viewer| v.motion().unwrap().capture.as_ref().unwrap().events.clone();
    assert!(events(&v).is_empty());
    v.send(Command::Playback(PlaybackCommand::Pause));
    v.send(Command::Playback(PlaybackCommand::SeekFrame(2)));
    v.update(0.0);
    let scope = v.edit_scope().unwrap();
    let draft = EditDraft::of("add_event");
    edit(&mut v, EditCommand::Add(draft.op(&scope).unwrap()));
    wait_for(&mut v, "the event", |v| applied(v) && !events(v).is_empty());
    let e = events(&v);
    assert_eq!((e[0].label.as_str(), e[0].context.as_str()), ("Foot Strike", "Left"));
    assert!((e[0].time_secs - scope.event_time_secs).abs() < 1e-6);
    edit(&mut v, EditCommand::Add(Op::RemoveEvent(RemoveEvent { label: "Foot Strike".into(), time_secs: e[0].time_secs })));
    wait_for(&mut v, "no event", |v| applied(v) && events(v).is_empty());
    edit(&mut v, EditCommand::Undo);
    wait_for(&mut v, "the event back", |v| applied(v) && events(v).len() == 1);
}

/// The sample and a second copy of it named other.bvh, and their ids.
fn two_skeletons() -> (Viewer, skelview_scene::ClipId, skelview_scene::ClipId) {
    let mut v = sample();
    v.add(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "other.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait_for(&mut v, "the second clip", |v| v.session.scene.clips.len() == 2);
    let (a, b) = (v.session.scene.clips[0].id(), v.session.scene.clips[1].id());
    (v, a, b)
}

#[test]
fn a_clip_put_on_another_skeleton_arrives_as_a_new_clip_side_by_side() {
    let (mut v, a, b) = two_skeletons();
    v.send(Command::Clip(a, ClipEdit::RetargetOnto { target: b, keep_feet: false }));
    wait_for(&mut v, "the retarget", |v| v.session.scene.clips.len() == 3);
    let c = &v.session.scene.clips[2];
    assert_eq!(c.name, "walk.bvh on other.bvh");
    assert_eq!(c.motion.clip.num_frames(), v.session.scene.clips[0].motion.clip.num_frames());
    assert_eq!(v.session.scene.layout, skelview_scene::Layout::SideBySide);
    // A capture has no bones to put on: refused with the reason.
    v.open_paths(vec![skelview_test_support::workspace_root().join("tests/data/trc/outside_writer.trc")], true);
    wait_for(&mut v, "the capture", |v| v.session.scene.clips.len() == 4);
    let capture = v.session.scene.clips[3].id();
    v.send(Command::Clip(a, ClipEdit::RetargetOnto { target: capture, keep_feet: false }));
    wait_for(&mut v, "the refusal", |v| v.messages.error.is_some());
    assert_eq!(v.messages.error_title, "Could not retarget");
    assert!(v.messages.error.as_deref().is_some_and(|e| e.contains("target's humanoid bone map lacks")), "{:?}", v.messages.error);
}

#[test]
fn a_corrected_bone_map_drives_the_retarget_and_the_comparison_measures_bone_directions() {
    let (mut v, a, b) = two_skeletons();
    let joint = |v: &Viewer, name: &str| v.session.scene.clips[1].motion.skeleton.find(name).unwrap();
    let (l, r) = (joint(&v, "LeftUpLeg"), joint(&v, "RightUpLeg"));
    // The target's thighs swapped, as a wrongly labelled character would need.
    for (j, bone) in [(l, "rightUpperLeg"), (r, "leftUpperLeg"), (0, "notABone")] {
        v.send(Command::Clip(b, ClipEdit::HumanoidBone { joint: j, bone: Some(bone.into()) }));
    }
    v.update(0.0);
    let map = &v.session.scene.clips[1].humanoid;
    assert_eq!((map.joint("leftUpperLeg"), map.joint("rightUpperLeg"), map.joint("hips")), (Some(r), Some(l), Some(0)));
    v.send(Command::Clip(a, ClipEdit::RetargetOnto { target: b, keep_feet: true }));
    wait_for(&mut v, "the retarget", |v| v.session.scene.clips.len() == 3);
    assert_eq!(v.session.scene.clips[2].name, "walk.bvh on other.bvh, feet planted");
    let result = v.session.scene.clips[2].id();
    v.send(Command::Compare(CompareEdit::Other(result)));
    wait_for(&mut v, "the bone directions", |v| v.session.scene.compare.overlap.as_ref().is_some_and(|o| !o.directions.is_empty()));
    let directions = &v.session.scene.compare.overlap.as_ref().unwrap().directions;
    let of = |bone: &str| directions.iter().find(|d| d.0.bone == bone).unwrap().0.clone();
    // The result's own map names its joints as they are, so its left thigh (moved by the
    // source's right one) is measured against the source's left thigh; the spine is untouched.
    assert!(of("leftUpperLeg").max_deg > 10.0, "{:?}", of("leftUpperLeg"));
    assert!(of("spine").max_deg < 0.5 && of("leftUpperArm").max_deg < 0.5, "{directions:?}");
}

#[test]
fn a_bone_map_saved_from_the_viewer_loads_onto_another_clip_and_bad_maps_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("map.toml");
    let (mut v, a, b) = two_skeletons();
    let joint = |v: &Viewer, name: &str| v.session.scene.clips[0].motion.skeleton.find(name).unwrap();
    let (l, r) = (joint(&v, "LeftUpLeg"), joint(&v, "RightUpLeg"));
    let found = v.session.scene.clips[0].humanoid.clone();
    for (j, bone) in [(l, Some("rightUpperLeg")), (r, Some("leftUpperLeg")), (joint(&v, "Head"), None)] {
        v.send(Command::Clip(a, ClipEdit::HumanoidBone { joint: j, bone: bone.map(str::to_owned) }));
    }
    v.update(0.0);
    let changed = v.session.scene.clips[0].humanoid.clone();
    assert_eq!((changed.joint("leftUpperLeg"), changed.joint("rightUpperLeg"), changed.joint("head")), (Some(r), Some(l), None));
    // Saved as the active clip's map (the TOML `--map` reads) and read onto the other clip.
    v.send(Command::Clip(a, ClipEdit::Activate));
    v.send(Command::Job(JobCommand::Export(Export::BoneMap(path.clone()))));
    wait_for(&mut v, "the map file", |v| !v.jobs.exporting() && path.exists());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("leftUpperLeg = \"RightUpLeg\"") && !text.contains("head ="), "{text}");
    v.send(Command::Clip(b, ClipEdit::Activate));
    v.send(Command::Job(JobCommand::ReadBoneMap(path.clone())));
    wait_for(&mut v, "the map read", |v| !v.jobs.busy());
    let other = &v.session.scene.clips[1].humanoid;
    assert_eq!((other.joint("leftUpperLeg"), other.joint("rightUpperLeg")), (Some(r), Some(l)), "same skeleton, same joints");
    assert_eq!(other.joint("head"), found.joint("head"), "a bone the file leaves out stays as found");
    // Found again: the user's choices dropped.
    v.send(Command::Clip(a, ClipEdit::FindBonesAgain));
    v.update(0.0);
    assert_eq!(v.session.scene.clips[0].humanoid, found);
    // An MNM works too (by its extension); a map naming a joint the clip lacks says which.
    let mnm = dir.path().join("map.mnm");
    std::fs::write(&mnm, "Bip01 Pelvis Hips\n").unwrap();
    v.send(Command::Job(JobCommand::ReadBoneMap(mnm)));
    wait_for(&mut v, "the MNM read", |v| !v.jobs.busy());
    assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
    std::fs::write(&path, "[bones]\nhips = \"Pelvis\"\n").unwrap();
    v.send(Command::Job(JobCommand::ReadBoneMap(path)));
    wait_for(&mut v, "the error", |v| v.messages.error.is_some());
    assert_eq!(v.messages.error_title, "Could not use the bone map");
    assert!(v.messages.error.as_deref().is_some_and(|e| e.contains("map.toml") && e.contains("Pelvis")), "{:?}", v.messages.error);
}

#[test]
fn a_clip_put_on_a_file_opens_it_beside_and_retargets_once_it_is_in() {
    let dir = tempfile::tempdir().unwrap();
    let robot = dir.path().join("robot.bvh");
    std::fs::write(&robot, skelview_core::formats::SAMPLE_BVH).unwrap();
    let mut v = sample();
    let a = v.session.scene.clips[0].id();
    v.send(Command::Clip(a, ClipEdit::RetargetOntoFile { path: robot, keep_feet: true }));
    wait_for(&mut v, "the file and the retarget", |v| v.session.scene.clips.len() == 3);
    let names: Vec<&str> = v.session.scene.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["walk.bvh", "robot.bvh", "walk.bvh on robot.bvh, feet planted"]);
    // A file that does not load says so, and no retarget waits for the next one.
    v.send(Command::Clip(a, ClipEdit::RetargetOntoFile { path: dir.path().join("missing.bvh"), keep_feet: false }));
    wait_for(&mut v, "the error", |v| v.messages.error.is_some());
    assert!(v.view.on_load().is_empty(), "{:?}", v.view.on_load());
    v.open_paths(vec![dir.path().join("robot.bvh")], true);
    wait_for(&mut v, "the fourth clip", |v| v.session.scene.clips.len() == 4 && v.session.loads.is_empty());
    for _ in 0..20 {
        v.update(0.0);
    }
    assert_eq!(v.session.scene.clips.len(), 4, "nothing retargeted onto a file opened later");
}
