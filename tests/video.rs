//! Videos and screenshots: `render --out x.gif|x.mp4` and the viewer's Export video, Copy
//! and Save screenshot. GIFs are decoded back and counted; MP4s are probed with ffprobe when
//! ffmpeg is installed, else the error must name it. Without a graphics adapter the tests
//! skip with a note, except under CI=true where they fail.

mod common;
use common::{have_gpu, wait};
use skelview::app::{Export, JobCommand};

use std::path::Path;
use std::sync::Arc;

use skelview::app::{Command, Viewer};
use skelview_core::core::PlaybackCommand;
use skelview_core::formats::{LoadOptions, LoadRequest, Source};

fn skelview(args: &[&str], path: Option<&str>) -> std::process::Output {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_skelview"));
    c.args(args);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().expect("run skelview")
}

/// Frames of a GIF and their delays (hundredths of a second).
fn gif_frames(path: &Path) -> (u16, u16, Vec<u16>) {
    let mut d = gif::DecodeOptions::new().read_info(std::fs::File::open(path).unwrap()).unwrap();
    let (w, h) = (d.width(), d.height());
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    (w, h, delays)
}

fn ffmpeg_installed() -> bool {
    std::process::Command::new("ffmpeg").arg("-version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn render_writes_a_gif_with_one_frame_per_frame_of_the_range() {
    if !have_gpu() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("walk.gif");
    let o = skelview(&["render", "assets/walk01.bvh", "--range", "10:40:3", "--size", "96x64", "--out", gif.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("wrote 11 frames at 8.000 fps"), "{}", String::from_utf8_lossy(&o.stdout));
    let (w, h, delays) = gif_frames(&gif);
    assert_eq!((w, h, delays.len()), (96, 64, 11), "frames 10, 13, ... 40");
    // 24 fps / 3 = 8 fps: 12 or 13 hundredths each, 1.375 s in all.
    assert!(delays.iter().all(|d| (12..=13).contains(d)), "{delays:?}");
    // The whole clip at 24 fps without a range; --fps overrides the rate.
    let o = skelview(&["render", "assets/walk01.bvh", "--size", "64x48", "--fps", "50", "--out", gif.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, _, delays) = gif_frames(&gif);
    assert_eq!(delays.len(), 101);
    assert!(delays.iter().all(|&d| d == 2));
    // A video is a range, not one frame.
    assert_eq!(skelview(&["render", "--frame", "3", "--out", gif.to_str().unwrap()], None).status.code(), Some(2));
    assert_eq!(skelview(&["render", "--fps", "0", "--out", "x.gif"], None).status.code(), Some(2));
}

#[test]
fn render_writes_an_mp4_through_ffmpeg_or_names_it_as_missing() {
    if !have_gpu() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mp4 = dir.path().join("walk.mp4");
    let args = ["render", "assets/walk01.bvh", "--range", "0:23", "--size", "97x64", "--out", mp4.to_str().unwrap()];
    // No ffmpeg on the PATH: a clear error, the GIF suggested, no file left behind.
    let o = skelview(&args, Some("/nonexistent"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ffmpeg") && err.contains(".gif"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "no partial file");
    if !ffmpeg_installed() {
        eprintln!("skipping the MP4 itself: ffmpeg is not installed (apt install ffmpeg)");
        return;
    }
    let o = skelview(&args, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let probe = std::process::Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=nb_read_frames,width,height,codec_name",
            "-of",
            "csv=p=0",
        ])
        .arg(&mp4)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&probe.stdout);
    assert_eq!(text.trim(), "h264,98,64,24", "odd widths are padded to even for yuv420p");
}

fn viewer_with_sample() -> Viewer {
    let mut v = Viewer::with_settings(LoadOptions::default(), Arc::new(|| {}), skelview::app::settings::Settings::default());
    v.set_host(Arc::new(skelview::host::Desktop));
    v.open(LoadRequest::single(
        &skelview_core::formats::bvh::Bvh,
        Source::Memory { name: "walk01.bvh".into(), bytes: Arc::from(skelview_core::formats::SAMPLE_BVH) },
    ));
    wait(&mut v, &|v| v.motion().is_some());
    v
}

#[test]
fn the_viewer_exports_its_range_as_a_gif_and_takes_screenshots() {
    if !have_gpu() {
        return;
    }
    let mut v = viewer_with_sample();
    for c in [PlaybackCommand::SeekFrame(3), PlaybackCommand::SetInHere, PlaybackCommand::SeekFrame(12), PlaybackCommand::SetOutHere] {
        v.commands.push(Command::Playback(c));
    }
    v.update(0.0);
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("range.gif");
    v.commands.push(Command::Job(JobCommand::Export(Export::Video(gif.clone()))));
    v.update(0.0);
    assert!(v.jobs.exporting(), "runs in the background");
    wait(&mut v, &|v| !v.jobs.exporting());
    assert!(v.messages.error.is_none(), "{:?}", v.messages.error);
    let (_, h, delays) = gif_frames(&gif);
    assert_eq!((h, delays.len()), (480, 10), "frames 3..=12 at the GIF height");
    // Save screenshot: a PNG of the viewport's size; Copy: a picture for the clipboard.
    v.view.viewport_px = (200, 120);
    let png = dir.path().join("shot.png");
    v.commands.push(Command::Job(JobCommand::Export(Export::Screenshot(Some(png.clone())))));
    v.update(0.0);
    wait(&mut v, &|v| !v.jobs.exporting());
    assert_eq!(image::image_dimensions(&png).unwrap(), (200, 120));
    v.commands.push(Command::Job(JobCommand::Export(Export::Screenshot(None))));
    wait(&mut v, &|v| !v.effects().is_empty());
    let Some(skelview::app::Effect::Clipboard(((w, h), pixels))) = v.take_effects().pop() else { panic!("a clipboard picture") };
    assert_eq!((w, h, pixels.len()), (200, 120, 200 * 120 * 4));
    assert!(v.messages.notice.as_deref().is_some_and(|n| n.contains("copied")));
}
