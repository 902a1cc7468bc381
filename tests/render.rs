//! Offscreen rendering on whatever adapter exists (lavapipe on CI): bone and joint pixels
//! appear where the camera projects the joints of a known pose, background elsewhere.
//! Without an adapter the tests skip with a note, except under CI=true where they fail.

use skelview::app::{CameraEdit, Export, JobCommand, SceneEdit};
use std::sync::Arc;

use glam::Vec3;
use skelview_core::core::Motion;
use skelview_core::core::pose::{self, GlobalPose, LocalPose};
use skelview_core::formats::{LoadOptions, LoadRequest, Source};
use skelview_render::offscreen;
use skelview_scene::{BACKGROUND, FrameSpec, Layout, Scene, Style, ViewPreset, framing};
use skelview_video::Offscreen;

fn load(name: &str, text: &[u8]) -> Motion {
    skelview_core::formats::open_bytes(name, text, &LoadOptions::default()).unwrap()
}

/// An upright two-bone chain 1.7 units tall in metres-sized units: 0 → 0.85 → 1.7.
const POLE: &[u8] = b"HIERARCHY\nROOT base\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n JOINT mid\n {\n  OFFSET 0 0.85 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 0.85 0\n  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.1\n0 0 0 0 0 0\n0.5 0 0 -90 0 0\n";

fn background_u8() -> [u8; 3] {
    // sRGB encoding of the linear clear colour.
    let enc = |c: f64| ((if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }) * 255.0).round() as u8;
    [enc(BACKGROUND[0]), enc(BACKGROUND[1]), enc(BACKGROUND[2])]
}

fn pixel(rgba: &[u8], w: u32, x: f32, y: f32) -> [u8; 3] {
    let i = ((y.round() as u32) * w + x.round() as u32) as usize * 4;
    [rgba[i], rgba[i + 1], rgba[i + 2]]
}

fn differs(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).any(|(x, y)| x.abs_diff(y) > 24)
}

/// True when some pixel within 3 px of (x, y) differs from the background: thin end-site
/// spheres are a pixel or two wide without MSAA and may miss the pixel centres near theirs.
fn drawn_near(rgba: &[u8], w: u32, h: u32, x: f32, y: f32, bg: [u8; 3]) -> bool {
    (-3..=3).any(|dy| {
        (-3..=3).any(|dx| {
            let (px, py) = (x + dx as f32, y + dy as f32);
            px >= 0.0 && py >= 0.0 && px < w as f32 - 0.5 && py < h as f32 - 0.5 && differs(pixel(rgba, w, px, py), bg)
        })
    })
}

#[test]
fn joints_appear_where_they_project_and_background_elsewhere() {
    // Large enough that end sites (a pole's are 7 mm) cover pixel centres without MSAA.
    const W: u32 = 960;
    const H: u32 = 720;
    let Some(gpu) = gpu() else { return };
    let motion = load("pole.bvh", POLE);
    for (frame, view) in [(0i64, ViewPreset::Front), (1, ViewPreset::Perspective), (0, ViewPreset::Side)] {
        let mut scene = Scene::arranged([Arc::new(motion.clone())], Layout::Overlay, view, false);
        let spec = FrameSpec::at(frame as f64 * motion.clip.frame_time_secs, Style::default());
        let camera = framing(scene.bounds_over_times(&spec, [spec.time_secs]), view, W as f32 / H as f32, false);
        let rgba = Offscreen::new(&gpu, (W, H), 1).picture(&gpu, &mut scene, &spec, &camera).unwrap();
        let (mut local, mut global) = (LocalPose::default(), GlobalPose::default());
        pose::frame_pose(&motion.skeleton, &motion.clip, frame as usize, &mut local);
        pose::global_pose(&motion.skeleton, &local, &mut global);
        let display = motion.display_from_file();
        let bg = background_u8();
        for i in 0..motion.skeleton.len() {
            let p = display.transform_point3(global.position(i));
            let (px, _) = camera.project(p, W as f32, H as f32).unwrap();
            assert!(drawn_near(&rgba, W, H, px.x, px.y, bg), "frame {frame} {view:?}: joint {i} at {px:?} not drawn");
        }
        // Midway along the first bone, a bone is drawn.
        let mid = display.transform_point3((global.position(0) + global.position(1)) * 0.5);
        let (px, _) = camera.project(mid, W as f32, H as f32).unwrap();
        assert!(drawn_near(&rgba, W, H, px.x, px.y, bg), "bone at {px:?}");
        // The top corners are sky: background only.
        for (x, y) in [(2.0, 2.0), (W as f32 - 3.0, 2.0)] {
            assert_eq!(pixel(&rgba, W, x, y), bg, "frame {frame} {view:?}: ({x},{y})");
        }
        // A point well to the side of the pole, above the ground grid's horizon, is empty.
        let side = camera
            .project(Vec3::new(0.0, 1.6, 0.0) + camera.view_from_world().inverse().transform_vector3(Vec3::X) * 0.6, W as f32, H as f32)
            .unwrap()
            .0;
        assert_eq!(pixel(&rgba, W, side.x, side.y), bg, "{view:?}: empty space at {side:?}");
    }
}

#[test]
fn render_command_writes_a_png_and_refuses_bad_files() {
    let Some(_gpu) = gpu() else { return };
    let dir = std::env::temp_dir().join(format!("skelview-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("sample.png");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["render", "--size", "200x150", "--frame", "-1", "--axes", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(0), "{}", String::from_utf8_lossy(&status.stderr));
    let img = image::open(&out).unwrap();
    assert_eq!((img.width(), img.height()), (200, 150));
    let bad = dir.join("bad.bvh");
    std::fs::write(&bad, "HIERARCHY\nROOT\n").unwrap();
    let out2 = dir.join("bad.png");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["render", bad.to_str().unwrap(), "--out", out2.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!out2.exists(), "no partial PNG for a broken file");
    std::fs::remove_dir_all(&dir).ok();
}

mod common;
use common::{gpu, wait};

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn thumbnails_for_each_corpus_format_and_none_for_broken_files() {
    let Some(_gpu) = gpu() else { return };
    let Some(corpus) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("skelview-thumbs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = [corpus.join("bvh/cmu_cgspeed_01_01.bvh"), corpus.join("asfamc/cmu_backflip.amc"), corpus.join("asfamc/cmu_backflip.asf")];
    for input in &inputs {
        let out = dir.join(format!("{}.png", input.file_name().unwrap().to_string_lossy()));
        let started = std::time::Instant::now();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
            .args(["thumbnail"])
            .arg(input)
            .arg(&out)
            .args(["--size", "128"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}: {}", input.display(), String::from_utf8_lossy(&o.stderr));
        eprintln!("{}: {:?}", input.display(), started.elapsed());
        let img = image::open(&out).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (128, 128));
        let bg = background_u8();
        let drawn = img.pixels().filter(|p| differs(p.0, bg)).count();
        assert!(drawn > 300, "{}: only {drawn} pixels differ from the background", input.display());
    }
    let broken = dir.join("broken.bvh");
    std::fs::write(&broken, b"HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 2 Xposition\n").unwrap();
    let out = dir.join("broken.png");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview")).args(["thumbnail"]).arg(&broken).arg(&out).output().unwrap();
    assert_ne!(o.status.code(), Some(0));
    assert!(!out.exists(), "no partial PNG");
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().contains("tmp")), "no temporary files left");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn range_renders_a_numbered_sequence() {
    let Some(_gpu) = gpu() else { return };
    let dir = std::env::temp_dir().join(format!("skelview-seq-{}", std::process::id()));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["render", "--range", "10:20:5", "--size", "96x64", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["frame_000010.png", "frame_000015.png", "frame_000020.png"]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .args(["render", "--range", "10:5000", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn viewer_exports_the_in_out_range_as_frames_in_the_background() {
    let Some(_gpu) = gpu() else { return };
    use skelview::app::{Command, Viewer};
    use skelview_core::core::PlaybackCommand;
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.set_host(Arc::new(skelview::host::Desktop));
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk01.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.motion().is_some());
    for c in [PlaybackCommand::SeekFrame(3), PlaybackCommand::SetInHere, PlaybackCommand::SeekFrame(6), PlaybackCommand::SetOutHere] {
        v.commands.push(Command::Playback(c));
    }
    v.update(0.0);
    let dir = std::env::temp_dir().join(format!("skelview-viewer-frames-{}", std::process::id()));
    v.commands.push(Command::Job(JobCommand::Export(Export::Frames(dir.clone(), (64, 48)))));
    v.update(0.0);
    wait(&mut v, &|v| !v.jobs.exporting());
    assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
    let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["frame_000003.png", "frame_000004.png", "frame_000005.png", "frame_000006.png"]);
    std::fs::remove_dir_all(&dir).ok();

    // With a second clip side by side, every exported frame shows both, each in its colour.
    use skelview_scene::PALETTE;
    v.add(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "b.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.session.scene.clips.len() == 2);
    v.commands.push(Command::Camera(CameraEdit::Preset(ViewPreset::Front)));
    v.commands.push(Command::Scene(SceneEdit::Layout(Layout::SideBySide)));
    v.session.scene.compare.heat = false;
    v.update(0.0);
    v.commands.push(Command::Job(JobCommand::Export(Export::Frames(dir.clone(), (320, 240)))));
    v.update(0.0);
    wait(&mut v, &|v| !v.jobs.exporting());
    assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
    let img = image::open(dir.join("frame_000003.png")).unwrap().to_rgb8();
    let reddish = img.pixels().filter(|p| i32::from(p.0[0]) > i32::from(p.0[1]) + 25 && i32::from(p.0[0]) > i32::from(p.0[2]) + 25).count();
    let greyish = img
        .pixels()
        .filter(|p| p.0[0] > 70 && p.0[0].abs_diff(p.0[1]) < 20 && (0..50).contains(&(i32::from(p.0[2]) - i32::from(p.0[0]))))
        .count();
    assert!(PALETTE[1][0] > PALETTE[1][1] + 0.4);
    assert!(reddish > 20 && greyish > 20, "both clips exported: red {reddish} grey {greyish}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_viewer_clips_appear_in_their_colours() {
    let Some(gpu) = gpu() else { return };
    use skelview::app::{Command, Viewer};
    use skelview_core::core::PlaybackCommand;
    use skelview_render::renderer::{RenderTarget, SkeletonRenderer};
    use skelview_scene::{Layout, PALETTE};
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.set_host(Arc::new(skelview::host::Desktop));
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "a.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    v.add(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "b.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.session.scene.clips.len() == 2 && v.session.loads.is_empty());
    assert_eq!(v.session.scene.clips.len(), 2, "{:?}", v.messages.error);
    v.settings.style.joints = false;
    v.settings.style.grid = false;
    v.settings.style.shadow = false;
    v.settings.style.gizmo = false;
    v.session.scene.compare.heat = false;
    v.view.aspect = 320.0 / 240.0;
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    // Front view first: side by side spreads along the screen's X as it is when chosen.
    v.commands.push(Command::Camera(CameraEdit::Preset(skelview_scene::ViewPreset::Front)));
    v.commands.push(Command::Scene(SceneEdit::Layout(Layout::SideBySide)));
    // The first frames only, so that framing fits the two bodies rather than the walk.
    v.commands.push(Command::Scene(SceneEdit::PoseMode(skelview_scene::PoseMode::FirstFrame)));
    v.update(0.0);
    v.update(0.0);
    let mut renderer = SkeletonRenderer::new(&gpu.device, wgpu::TextureFormat::Rgba8UnormSrgb, 1);
    let target = RenderTarget::new(&gpu.device, &renderer, (320, 240));
    let globals = offscreen::globals(&v.view.camera, v.view.aspect);
    let rgba = offscreen::render_rgba(&gpu, &mut renderer, &target, &globals, &v.frame.draw, BACKGROUND).unwrap();
    // Bones are lit and shaded, so pixels are classified by hue: red for PALETTE[1], grey
    // (channels close, blue slightly higher) for PALETTE[0]; each group must sit over its clip.
    assert!(PALETTE[1][0] > PALETTE[1][1] + 0.4 && (PALETTE[0][0] - PALETTE[0][1]).abs() < 0.05);
    let (mut red, mut grey) = (Vec::new(), Vec::new());
    for y in 0..240 {
        for x in 0..320 {
            let [r, g, b] = pixel(&rgba, 320, x as f32, y as f32).map(i32::from);
            if r > g + 50 && r > b + 50 {
                red.push(x as f32);
            } else if r > 70 && (r - g).abs() < 20 && (0..50).contains(&(b - r)) {
                grey.push(x as f32);
            }
        }
    }
    assert!(red.len() > 50 && grey.len() > 50, "red {} grey {}", red.len(), grey.len());
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
    let root_x = |c: usize| {
        let root = v.session.scene.clips[c].motion.skeleton.roots().next().unwrap();
        v.view.camera.project(v.session.scene.clips[c].positions()[root], 320.0, 240.0).unwrap().0.x
    };
    let (x0, x1) = (root_x(0), root_x(1));
    assert!((x0 - x1).abs() > 30.0, "side by side: {x0} {x1}");
    assert!((mean(&red) - x1).abs() < (mean(&red) - x0).abs(), "red over clip 1: {} vs {x0} {x1}", mean(&red));
    assert!((mean(&grey) - x0).abs() < (mean(&grey) - x1).abs(), "grey over clip 0: {} vs {x0} {x1}", mean(&grey));
}

#[test]
fn the_viewer_and_the_command_line_compose_the_same_scene() {
    // No adapter needed: this compares draw data, not pixels.
    use skelview::app::{Command, Viewer};
    use skelview_core::core::PlaybackCommand;
    use skelview_scene::DrawData;
    let a = Arc::new(load("a.bvh", skelview_core::formats::SAMPLE_BVH));
    // A second take: the same skeleton with its root moved and a few frames later.
    let mut b = (*a).clone();
    let cpf = b.clip.channels_per_frame();
    let values: Vec<f32> = (0..b.clip.num_frames()).flat_map(|f| b.clip.frame((f + 7).min(b.clip.num_frames() - 1)).to_vec()).collect();
    b.clip = skelview_core::core::Clip::new(b.clip.frame_time_secs, cpf, b.clip.num_frames(), values);
    b.source.paths = vec!["b.bvh".into()];
    let b = Arc::new(b);
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.set_host(Arc::new(skelview::host::Desktop));
    for (m, add) in [(&a, false), (&b, true)] {
        let mut text = Vec::new();
        skelview_core::export::write_bvh(m, &skelview_core::export::BvhWriteOptions::default(), &mut text).unwrap();
        let request = LoadRequest::single(
            &skelview_core::formats::bvh::Bvh,
            Source::Memory { name: m.source.paths[0].clone(), bytes: Arc::from(text.as_slice()) },
        );
        if add {
            v.add(request)
        } else {
            v.open(request)
        }
        wait(&mut v, &|v| v.session.loads.is_empty());
    }
    assert_eq!(v.session.scene.clips.len(), 2, "{:?}", v.messages.error);
    for c in [
        Command::Playback(PlaybackCommand::Pause),
        Command::Playback(PlaybackCommand::SeekFrame(40)),
        Command::Camera(CameraEdit::Preset(ViewPreset::Front)),
        Command::Scene(SceneEdit::Layout(Layout::SideBySide)),
    ] {
        v.commands.push(c);
    }
    v.update(0.0);
    // The heat map's scale comes from the comparison over the whole overlap, computed in the
    // background: compare once it is in (the command line computes it before drawing).
    wait(&mut v, &|v| !v.working() && v.whole.overlap.result().is_some());
    v.update(0.0);
    let motions: Vec<Arc<Motion>> = v.session.scene.clips.iter().map(|c| c.motion.clone()).collect();
    let mut cli = Scene::arranged(motions, Layout::SideBySide, ViewPreset::Front, true);
    let spec = v.frame_spec();
    // As `render` does: the comparison over the overlap, on this thread.
    cli.settle(&spec);
    let mut viewer_draw = DrawData::default();
    v.session.scene.compose(&spec, &mut viewer_draw);
    let mut cli_draw = DrawData::default();
    cli.compose(&spec, &mut cli_draw);
    assert!(!cli_draw.bones.is_empty());
    assert!(cli.compare.bone_colors.len() == b.skeleton.len(), "heat map on");
    assert_eq!(viewer_draw, cli_draw, "the same clips, layout and instant draw the same");
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn render_draws_two_clips_side_by_side_with_the_heat_map() {
    let Some(_gpu) = gpu() else { return };
    let Some(corpus) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("skelview-heat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("pair.png");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .arg("render")
        .arg(corpus.join("bvh/cmu_cgspeed_01_01.bvh"))
        .arg(corpus.join("asfamc/cmu_backflip.amc"))
        .args(["--layout", "side-by-side", "--heat-map", "--view", "front", "--frame", "100", "--size", "480x270", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&out).unwrap().to_rgb8();
    // The reference keeps its grey; the compared clip's bones take heat colours (green,
    // yellow or red, all with little blue), on the other side of the picture.
    let (mut heat_x, mut grey_x) = (Vec::new(), Vec::new());
    for (x, _, p) in img.enumerate_pixels() {
        let [r, g, b] = p.0.map(i32::from);
        if (r > 120 || g > 120) && b < 90 && (r - b > 60 || g - b > 60) {
            heat_x.push(x as f32);
        } else if r > 90 && (r - g).abs() < 20 && (0..50).contains(&(b - r)) {
            grey_x.push(x as f32);
        }
    }
    assert!(heat_x.len() > 30 && grey_x.len() > 30, "heat {} grey {}", heat_x.len(), grey_x.len());
    let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len() as f32;
    // The world-axes gizmo's red and green lines near the middle count as heat too.
    assert!((mean(&heat_x) - mean(&grey_x)).abs() > 25.0, "side by side: heat at {} grey at {}", mean(&heat_x), mean(&grey_x));
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg_attr(no_corpus, ignore = "no test corpus at ../shared/corpus")]
#[test]
fn a_prop_without_a_body_shows_its_path_and_headless_commands_keep_stderr_clean() {
    let Some(_gpu) = gpu() else { return };
    let Some(corpus) = common::corpus() else { return };
    let dir = std::env::temp_dir().join(format!("skelview-prop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cup = corpus.join("bvh/manipnet_cup1_rootonly.bvh");
    let bg = background_u8();
    for (args, out) in [
        (vec!["render".to_owned(), cup.display().to_string(), "--size".into(), "320x180".into(), "--out".into()], dir.join("cup.png")),
        (vec!["thumbnail".to_owned(), cup.display().to_string()], dir.join("thumb.png")),
    ] {
        // Without XDG_RUNTIME_DIR, as in a thumbnailer's environment.
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
            .args(&args)
            .arg(&out)
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stderr.is_empty(), "nothing on stderr but errors: {}", String::from_utf8_lossy(&o.stderr));
        let img = image::open(&out).unwrap().to_rgb8();
        let drawn = img.pixels().filter(|p| differs(p.0, bg)).count();
        let total = (img.width() * img.height()) as usize;
        // One joint and its path: a few hundred pixels, not a blank view nor a filled one.
        assert!(drawn > 100 && drawn < total / 2, "{}: {drawn} of {total} pixels drawn", out.display());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_edited_clip_is_drawn_over_its_source_as_a_faint_ghost() {
    let Some(gpu) = gpu() else { return };
    use skelview::app::{Command, EditCommand, EditState, Viewer};
    use skelview_core::core::PlaybackCommand;
    use skelview_render::renderer::{RenderTarget, SkeletonRenderer};
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "a.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    let done = |v: &Viewer| v.session.active_clip().is_some_and(|c| matches!(v.edit_runs.state(c.serial), Some(EditState::Done(_))));
    wait(&mut v, &|v| v.motion().is_some());
    let id = v.session.active_clip().unwrap().id();
    v.commands.push(Command::Playback(PlaybackCommand::Pause));
    v.commands.push(Command::Edit(id, EditCommand::Add(skelview_core::edit::Op::Scale(skelview_core::edit::Scale { factor: 0.5 }))));
    wait(&mut v, &done);
    assert!(done(&v), "{:?}", v.messages.error);
    (v.settings.style.joints, v.settings.style.grid, v.settings.style.shadow, v.settings.style.gizmo) = (false, false, false, false);
    v.view.aspect = 320.0 / 240.0;
    // Front view, framed: the clip and its ghost (framing keeps both in view).
    v.commands.push(Command::Camera(CameraEdit::Preset(skelview_scene::ViewPreset::Front)));
    v.update(0.0);
    v.update(0.0);
    let render = |v: &Viewer| {
        let mut renderer = SkeletonRenderer::new(&gpu.device, wgpu::TextureFormat::Rgba8UnormSrgb, 1);
        let target = RenderTarget::new(&gpu.device, &renderer, (320, 240));
        let globals = offscreen::globals(&v.view.camera, v.view.aspect);
        offscreen::render_rgba(&gpu, &mut renderer, &target, &globals, &v.frame.draw, BACKGROUND).unwrap()
    };
    let rgba = render(&v);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ghost");
    std::fs::create_dir_all(&dir).unwrap();
    image::save_buffer(dir.join("edited_with_ghost.png"), &rgba, 320, 240, image::ColorType::Rgba8).unwrap();
    let c = v.session.active_clip().unwrap();
    let ghost = c.ghost.as_ref().unwrap();
    let head = c.motion.skeleton.find("Head").unwrap();
    let project = |p: Vec3| v.view.camera.project(p, 320.0, 240.0).unwrap().0;
    let (source_head, edited_head) = (project(ghost.clip.positions()[head]), project(c.positions()[head]));
    assert!((source_head - edited_head).length() > 20.0, "half the size: the heads apart on screen");
    let bg = background_u8();
    assert!(drawn_near(&rgba, 320, 240, source_head.x, source_head.y, bg), "the source's head is drawn (the ghost)");
    assert!(drawn_near(&rgba, 320, 240, edited_head.x, edited_head.y, bg), "the edited head is drawn");
    // Faint: the ghost's pixels are closer to the background than the clip's.
    let strength = |p: glam::Vec2| {
        let mut best = 0;
        for dy in -3..=3 {
            for dx in -3..=3 {
                let q = pixel(&rgba, 320, p.x + dx as f32, p.y + dy as f32);
                best = best.max(q.iter().zip(bg).map(|(a, b)| (i32::from(*a) - i32::from(b)).abs()).sum::<i32>());
            }
        }
        best
    };
    assert!(strength(source_head) * 4 < strength(edited_head) * 3, "{} {}", strength(source_head), strength(edited_head));
    // Turned off, the ghost is gone.
    let mut o = v.session.scene.overlays;
    o.ghost = false;
    v.commands.push(Command::Scene(SceneEdit::Overlays(o)));
    v.update(0.0);
    let rgba = render(&v);
    assert!(!drawn_near(&rgba, 320, 240, source_head.x, source_head.y, bg));
}

#[test]
fn a_backend_that_gives_no_device_falls_back_to_the_next_and_says_so() {
    let Some(first) = gpu() else { return };
    // The backend in use refuses (as DX12 does under Wine); the next one draws the picture.
    let backend = first.adapter.rsplit('(').next().unwrap_or("").trim_end_matches(')').to_owned();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fallback.png");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .env("SKELVIEW_REFUSE_BACKEND", &backend)
        .args(["render", "--size", "160x120", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    if run.status.code() != Some(0) && stderr.contains("no adapter gave a device") && !std::env::var("CI").is_ok_and(|v| v == "true") {
        eprintln!("skipping: only one backend here ({stderr})");
        return;
    }
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(!stdout.contains(&format!("({backend})")), "drawn with another backend: {stdout}");
    assert!(stderr.contains("note: no device from") && stderr.contains(&format!("({backend}): refused")), "{stderr}");
    let img = image::open(&out).unwrap().to_rgb8();
    let bg = background_u8();
    assert!(img.pixels().filter(|p| differs(p.0, bg)).count() > 50, "the picture is drawn");
    // info --gpu says which adapter draws and which was tried first.
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"))
        .env("SKELVIEW_REFUSE_BACKEND", &backend)
        .args(["info", "--gpu"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.starts_with("gpu:") && text.contains("tried first:") && text.contains("refused"), "{text}");
}
