//! The browser build: `web/build.sh` builds the page (setting up its toolchain the first time),
//! a static server serves it, and `tests/web/page.test.mjs` drives it in headless Chromium
//! with playwright-core. Checked here: the sample is drawn on a WebGL2/WebGPU canvas and its
//! viewport matches `skelview render` of the same frame, camera and size; a BVH, an ASF + AMC
//! pair, an FBX and a glb load with the command line's joint counts; characters' skinned meshes
//! are drawn (a draw per mesh, and the viewport is `skelview render --mesh on`'s, not `--mesh
//! off`'s); scrubbing changes the picture; a truncated file shows the command line's
//! `file:line:col` message and the page keeps working; a 20 MB BVH loads while frames keep
//! being presented. The sample and the characters again on WebGPU (SwiftShader's Vulkan).
//!
//! Needs Debian's chromium, Node.js with npm and the web toolchain (`.ci/run` installs them);
//! without them it says what to install, and fails under `CI=true`.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Skips (or fails in CI) when `program` is missing.
fn have(program: &str, install: &str) -> bool {
    let found = Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !found {
        assert!(!ci(), "CI needs {program} for the browser tests: {install}");
        eprintln!("skipping the browser tests: {program} is missing ({install})");
    }
    found
}

fn run(cmd: &mut Command, what: &str) {
    let status = cmd.status().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(status.success(), "{what} failed ({status})");
}

/// The command line's joint count of `files` (one motion).
fn joints(files: &[&Path]) -> usize {
    let out = Command::new(env!("CARGO_BIN_EXE_skelview")).arg("info").arg("--json").args(files).output().unwrap();
    assert!(out.status.success(), "skelview info {files:?}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = if v.is_array() { v[0].clone() } else { v };
    first["joints"].as_u64().or_else(|| first["skeleton"]["joints"].as_u64()).unwrap_or_else(|| panic!("no joint count in {first}"))
        as usize
}

/// A BVH of at least `bytes`: `source`'s frames repeated, the frame count set to match.
fn big_bvh(source: &Path, bytes: usize, to: &Path) {
    let text = std::fs::read_to_string(source).unwrap();
    let motion = text.find("MOTION").unwrap();
    let lines: Vec<&str> = text[motion..].lines().collect();
    let frame_time = lines.iter().find(|l| l.starts_with("Frame Time")).unwrap();
    let data: Vec<&str> =
        lines.iter().skip_while(|l| !l.starts_with("Frame Time")).skip(1).filter(|l| !l.trim().is_empty()).copied().collect();
    let per_frame = data.iter().map(|l| l.len() + 1).sum::<usize>() / data.len();
    let frames = bytes / per_frame + 1;
    let mut out = String::with_capacity(bytes + motion + 1024);
    out.push_str(&text[..motion]);
    out.push_str(&format!("MOTION\nFrames: {frames}\n{frame_time}\n"));
    for line in data.iter().cycle().take(frames) {
        out.push_str(line);
        out.push('\n');
    }
    std::fs::write(to, out).unwrap();
}

/// Mean absolute difference per channel (0..255) and the share of pixels off by more than 48
/// in any channel, of two same-sized RGB pictures.
fn difference(a: &image::RgbImage, b: &image::RgbImage) -> (f64, f64) {
    assert_eq!(a.dimensions(), b.dimensions());
    let (mut sum, mut off) = (0u64, 0usize);
    for (p, q) in a.pixels().zip(b.pixels()) {
        let d: Vec<u64> = (0..3).map(|k| (p[k] as i64 - q[k] as i64).unsigned_abs()).collect();
        sum += d.iter().sum::<u64>();
        off += usize::from(d.iter().any(|&x| x > 48));
    }
    let n = (a.width() * a.height()) as f64;
    (sum as f64 / (3.0 * n), off as f64 / n)
}

/// The part of a viewport picture below its display toggles (which sit over its top rows).
fn below_toggles(p: &image::RgbImage) -> image::RgbImage {
    image::imageops::crop_imm(p, 0, 40, p.width(), p.height() - 40).to_image()
}

/// A page step's viewport screenshot, below the toggles.
fn viewport_shot(shot: &serde_json::Value) -> image::RgbImage {
    below_toggles(&image::open(shot["file"].as_str().unwrap()).unwrap().to_rgb8())
}

/// `skelview render` of `files` (the bundled sample when none) as a page step's viewport
/// screenshot shows them: the same frame, camera and size; the meshes drawn or not. Written to
/// `out`, returned below the toggles.
fn rendered_like(shot: &serde_json::Value, files: &[&Path], mesh: bool, out: &Path) -> image::RgbImage {
    let [_, _, w, h] = [0, 1, 2, 3].map(|k| shot["viewport"][k].as_u64().unwrap() as u32);
    // The page's camera, as `render --camera` takes it.
    let c = &shot["camera"];
    let t = |k: usize| c["target"][k].as_f64().unwrap();
    let camera = format!("{},{},{},{},{},{}", t(0), t(1), t(2), c["distance"], c["yaw_deg"], c["pitch_deg"]);
    run(
        Command::new(env!("CARGO_BIN_EXE_skelview"))
            .arg("render")
            .args(files)
            .args(["--frame", &shot["frame"].to_string(), "--size", &format!("{w}x{h}"), &format!("--camera={camera}")])
            .args(["--mesh", if mesh { "on" } else { "off" }, "--out"])
            .arg(out),
        "skelview render",
    );
    below_toggles(&image::open(out).unwrap().to_rgb8())
}

/// The page's viewport against `skelview render`'s picture of the same frame and camera.
fn assert_like_render(what: &str, web: &image::RgbImage, native: &image::RgbImage) {
    let (mean, off) = difference(web, native);
    eprintln!("{what}: the page's viewport against skelview render: mean {mean:.2}, {:.2}% of pixels off", off * 100.0);
    // WebGL2 / WebGPU on SwiftShader and Vulkan on lavapipe rasterise thin lines and MSAA
    // edges a little differently (measured on the sample: mean 1.8, 1.05% of pixels, all on
    // edges and grid lines); a wrong camera, frame, colour space or style is far outside these.
    assert!(
        mean < 3.0 && off < 0.025,
        "{what}: the page's viewport differs from skelview render: mean {mean:.2}, {:.2}% of pixels off",
        off * 100.0
    );
}

/// A character shown by the page (step `name`, the file `file`): a skinned-mesh draw per mesh,
/// and the viewport is `skelview render --mesh on`'s picture, far from `--mesh off`'s.
fn assert_character_drawn(name: &str, s: &serde_json::Value, file: &Path, work: &Path) {
    assert!(s["error"].is_null(), "{name}: {}", s["error"]);
    let meshes = s["clips"][0]["meshes"].as_u64().unwrap_or(0);
    assert!(meshes > 0, "{name}: the page reads no mesh in {}: {s}", file.display());
    assert_eq!(s["skins"].as_u64(), Some(meshes), "{name}: a skinned-mesh draw per mesh: {s}");
    let web = viewport_shot(s);
    let with_mesh = rendered_like(s, &[file], true, &work.join(format!("{name}_native.png")));
    let skeleton = rendered_like(s, &[file], false, &work.join(format!("{name}_native_skeleton.png")));
    // Where the mesh is, the picture is not the skeleton's alone.
    let (_, mesh_share) = difference(&with_mesh, &skeleton);
    let (_, off_skeleton) = difference(&web, &skeleton);
    eprintln!(
        "{name}: {:.2}% of pixels are the mesh's; the page's differ from the skeleton's in {:.2}%",
        mesh_share * 100.0,
        off_skeleton * 100.0
    );
    assert!(mesh_share > 0.01, "{name}: the mesh covers {:.2}% of the picture: frame it", mesh_share * 100.0);
    assert!(
        off_skeleton > 0.8 * mesh_share,
        "{name}: the page's mesh is missing: its viewport differs from the skeleton alone in {:.2}% of pixels, the mesh covers {:.2}%",
        off_skeleton * 100.0,
        mesh_share * 100.0
    );
    assert_like_render(name, &web, &with_mesh);
}

/// `chromium --headless --screenshot --virtual-time-budget=20000` of the page (how pages are
/// thumbnailed and archived) into `out`: the number of colours in it.
fn thumbnail(port: u16, out: &Path) -> usize {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into());
    let status = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"])
        .args(["--window-size=1280,800", "--virtual-time-budget=20000"])
        .arg(format!("--screenshot={}", out.display()))
        .arg(format!("http://127.0.0.1:{port}/"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success() && out.is_file(), "chromium --screenshot wrote no {}", out.display());
    let picture = image::open(out).unwrap().to_rgb8();
    picture.pixels().map(|p| p.0).collect::<std::collections::HashSet<_>>().len()
}

#[test]
fn the_page_draws_the_sample_opens_files_and_stays_responsive() {
    if !(have("node", "apt-get install nodejs npm")
        && have("chromium", "apt-get install chromium")
        && have("python3", "apt-get install python3"))
    {
        return;
    }
    let Some(corpus) = common::corpus() else { return };
    let root = common::workspace_root();
    let work = root.join("target/web-test");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let dist = root.join("target/web/dist");
    run(Command::new("bash").arg(root.join("web/build.sh")).arg(&dist), "web/build.sh");
    // The page names its version (as `skelview --version` does).
    let page = std::fs::read_to_string(dist.join("index.html")).unwrap();
    let version = String::from_utf8(Command::new(env!("CARGO_BIN_EXE_skelview")).arg("--version").output().unwrap().stdout).unwrap();
    let version = version.trim().strip_prefix("skelview ").unwrap();
    assert!(page.contains(&format!("content=\"{version}\"")) && !page.contains("@SKELVIEW_VERSION@"), "the version {version} in the page");
    let web_tests = root.join("tests/web");
    if !web_tests.join("node_modules/playwright-core").is_dir() {
        run(Command::new("npm").args(["install", "--no-audit", "--no-fund"]).current_dir(&web_tests), "npm install (tests/web)");
    }

    // The inputs.
    let bvh = corpus.join("bvh/bandai2_walk_normal_001.bvh");
    let (asf, amc) = (corpus.join("asfamc/cmu_backflip.asf"), corpus.join("asfamc/cmu_backflip.amc"));
    let fbx = corpus.join("fbx/ozz_robot.fbx");
    let glb = corpus.join("gltf/Fox.glb");
    let character = root.join("tests/data/avatars/RobotExpressive.glb");
    let truncated = work.join("truncated.bvh");
    let whole = std::fs::read(corpus.join("bvh/bvhtoolbox_walk01.bvh")).unwrap();
    // Cut inside the hierarchy: an error (a file cut in its motion section loads with a warning).
    let motion = whole.windows(6).position(|w| w == b"MOTION").unwrap();
    std::fs::write(&truncated, &whole[..motion / 2]).unwrap();
    let big = work.join("big20.bvh");
    big_bvh(&corpus.join("bvh/cmu_cgspeed_01_03.bvh"), 20 << 20, &big);
    // A take served beside the page, for ?file=.
    let served = "served-take.bvh";
    std::fs::copy(corpus.join("bvh/bvhtoolbox_walk01.bvh"), dist.join(served)).unwrap();
    let files = serde_json::json!({
        "bvh": bvh, "asf": asf, "amc": amc, "fbx": fbx, "glb": glb, "character": character, "truncated": truncated, "big": big, "served": served,
    });
    std::fs::write(work.join("files.json"), files.to_string()).unwrap();

    // Serve the page.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = Command::new("python3")
        .args(["-m", "http.server", &port.to_string(), "--bind", "127.0.0.1", "--directory"])
        .arg(&dist)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    common::until_true("the static server (python3 -m http.server) on its port", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() || server.try_wait().is_ok_and(|s| s.is_some())
    });
    assert!(server.try_wait().is_ok_and(|s| s.is_none()), "the static server (python3 -m http.server) stopped on port {port}");
    let status = Command::new("node")
        .arg(web_tests.join("page.test.mjs"))
        .arg(format!("http://127.0.0.1:{port}/"))
        .arg(&work)
        .arg(work.join("files.json"))
        .status();
    // A thumbnailer's picture: headless Chromium's own screenshot after a virtual time budget.
    let thumbnails: Vec<_> = (0..2).map(|k| thumbnail(port, &work.join(format!("thumbnail{k}.png")))).collect();
    let _ = server.kill();
    let _ = server.wait();
    assert!(status.unwrap().success(), "node page.test.mjs failed");
    for (k, colours) in thumbnails.iter().enumerate() {
        // The page still loading is its background and one line of text (under 200 colours);
        // the viewer drawn, its panels, the grid and the skeleton (over 1,000).
        assert!(*colours > 1000, "thumbnail {k}: {colours} colours in target/web-test/thumbnail{k}.png: the page was not drawn");
    }
    let results: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(work.join("results.json")).unwrap()).unwrap();
    let step = |name: &str| -> serde_json::Value {
        results["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("the page test did not reach '{name}': {}\nconsole: {}", results["failure"], results["console"]))
    };
    assert!(results["fatal"].is_null(), "the page stopped: {}", results["fatal"]);
    assert!(results["failure"].is_null(), "the page test failed: {}\nconsole: {}", results["failure"], results["console"]);

    // 1. The sample, on a WebGL2 or WebGPU context, against `skelview render`.
    let sample = step("sample");
    assert!(["webgl2", "webgpu"].contains(&sample["context"].as_str().unwrap()), "{sample}");
    assert_eq!(sample["clips"][0]["joints"].as_u64().unwrap() as usize, joints(&[&root.join("assets/walk01.bvh")]));
    let shot = step("sample_frame0");
    let [_, _, w, h] = [0, 1, 2, 3].map(|k| shot["viewport"][k].as_u64().unwrap() as u32);
    let web = viewport_shot(&shot);
    assert_like_render("the sample", &web, &rendered_like(&shot, &[], true, &work.join("native_frame0.png")));

    // View > Save screenshot: the viewport as shown, downloaded as a PNG.
    let download = step("screenshot_download");
    assert_eq!(download["suggested"], "skelview.png");
    let downloaded = image::open(download["file"].as_str().unwrap()).unwrap().to_rgb8();
    assert_eq!(downloaded.dimensions(), (w, h), "the download is the viewport");
    let (mean, _) = difference(&below_toggles(&downloaded), &web);
    assert!(mean < 3.0, "the downloaded screenshot is not the viewport as shown: mean difference {mean:.2}");

    // File > Export positions: the command line's positions of the sample, as a download.
    let csv_step = step("csv_download");
    assert_eq!(csv_step["suggested"], "positions.csv");
    let csv = std::fs::read_to_string(csv_step["file"].as_str().unwrap()).unwrap();
    assert_eq!(csv.lines().next(), Some("joint,frame,x,y,z"));
    let (joints_n, frames_n) = (sample["clips"][0]["joints"].as_u64().unwrap(), sample["clips"][0]["frames"].as_u64().unwrap());
    assert_eq!(csv.lines().count() as u64 - 1, joints_n * frames_n, "a row per joint and frame");

    // File > Export GIF: every frame of the range (the whole sample), at most 480 high.
    let gif_step = step("gif_download");
    assert_eq!(gif_step["suggested"], "skelview.gif");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(gif_step["file"].as_str().unwrap()).unwrap()).unwrap();
    let (gw, gh) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push(frame.buffer.to_vec());
    }
    eprintln!("GIF: {} frames, {gw}x{gh}, recorded in {} ms", frames.len(), gif_step["ms"]);
    assert_eq!(frames.len(), sample["clips"][0]["frames"].as_u64().unwrap() as usize, "one GIF frame per frame of the range");
    assert_eq!(u32::from(gh), h.min(480));
    assert!(frames[0] != frames[frames.len() / 2], "the GIF does not move");

    // Settings live in the browser's local storage and survive a reload.
    let settings = step("settings");
    assert!(settings["stored"].as_str().is_some_and(|t| t.contains("theme = \"light\"")), "{settings}");
    assert_eq!(settings["stored"], settings["after_reload"]);
    let light = image::open(work.join("light.png")).unwrap().to_rgb8();
    let luma = |p: &image::Rgb<u8>| p.0.iter().map(|&c| u32::from(c)).sum::<u32>() / 3;
    assert!(luma(light.get_pixel(150, 400)) > 150, "the reloaded page is not in the light theme");
    let dark = step("dark_again");
    assert!(dark["stored"].as_str().is_some_and(|t| t.contains("theme = \"dark\"")), "back to the dark theme for the rest: {dark}");

    // 2. Scrubbing changes the picture.
    let scrubbed = viewport_shot(&step("scrubbed"));
    let (moved, _) = difference(&web, &scrubbed);
    assert!(moved > 0.2, "frame 60 looks like frame 0 ({moved:.3})");

    // 3. Files through the page, with the command line's joint counts.
    for (name, inputs) in [("open_bvh", vec![&bvh]), ("open_asfamc", vec![&asf, &amc]), ("open_fbx", vec![&fbx]), ("open_glb", vec![&glb])]
    {
        let s = step(name);
        assert!(s["error"].is_null(), "{name}: {}", s["error"]);
        let paths: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
        assert_eq!(s["clips"][0]["joints"].as_u64().unwrap() as usize, joints(&paths), "{name}: {s}");
    }
    // Characters' meshes, skinned on the GPU (WebGL2: palettes and morph weights from float
    // textures), drawn as the command line draws them.
    assert_character_drawn("webgl2_glb", &step("webgl2_glb"), &glb, &work);
    assert_character_drawn("webgl2_character", &step("webgl2_character"), &character, &work);

    // 4. The truncated file: the command line's message (the page names the file as dropped).
    let cli = Command::new(env!("CARGO_BIN_EXE_skelview")).args(["info", "truncated.bvh"]).current_dir(&work).output().unwrap();
    let cli_message = String::from_utf8_lossy(&cli.stderr).lines().next().unwrap_or_default().trim_start_matches("skelview: ").to_owned();
    assert!(cli_message.starts_with("truncated.bvh:"), "{cli_message}");
    let shown = step("truncated")["error"].as_str().unwrap().to_owned();
    assert!(shown.contains(&cli_message), "the page says\n  {shown}\nthe command line\n  {cli_message}");
    step("after_error");

    // ?file=URL: the take fetched from the page's origin, with the command line's joint count;
    // a missing file says so.
    let url_file = step("url_file");
    assert!(url_file["error"].is_null(), "{url_file}");
    assert_eq!(url_file["clips"][0]["joints"].as_u64().unwrap() as usize, joints(&[&corpus.join("bvh/bvhtoolbox_walk01.bvh")]));
    let url_missing = step("url_missing");
    assert!(url_missing["error"].as_str().is_some_and(|e| e.contains("missing.bvh") && e.contains("404")), "{url_missing}");

    // 5. The big file loads and the page keeps presenting frames meanwhile. How long a pause
    // the page takes is a timing (benches/web.sh measures it); here, that frames came while
    // the load was under way and the page kept drawing after it.
    let big_step = step("big");
    assert!(big_step["error"].is_null(), "{big_step}");
    let longest = big_step["longest_gap_ms"].as_f64().unwrap();
    let frames = big_step["frames_while_loading"].as_u64().unwrap();
    eprintln!("20 MB BVH: {frames} frames presented while loading ({} ms), longest gap {longest:.0} ms", big_step["load_ms"]);
    assert!(frames >= 1, "no frame was presented while the big file loaded: {big_step}");
    assert!(big_step["presented_after"].as_u64() > big_step["presented_before"].as_u64(), "the page stopped drawing: {big_step}");

    // 6. WebGPU (storage buffers for the skinned meshes' rows): the sample and the characters.
    let webgpu = step("webgpu");
    if webgpu["context"] != "webgpu" {
        assert!(!ci(), "CI needs WebGPU in headless Chromium (SwiftShader's Vulkan): {webgpu}");
        eprintln!("skipping the WebGPU checks: Chromium gave no WebGPU adapter ({webgpu})");
        return;
    }
    eprintln!("WebGPU adapter: {}", webgpu["adapter"]);
    let shot = step("webgpu_sample_frame0");
    assert_like_render(
        "the sample on WebGPU",
        &viewport_shot(&shot),
        &rendered_like(&shot, &[], true, &work.join("webgpu_native_frame0.png")),
    );
    assert_character_drawn("webgpu_glb", &step("webgpu_glb"), &glb, &work);
    assert_character_drawn("webgpu_character", &step("webgpu_character"), &character, &work);
}
