//! The picture of a character is its posed vertices: `render --mesh on --skeleton off
//! --grid off --camera-json` draws the mesh's pixels where the vertices of `positions
//! --vertices` (the same frame), projected with the camera it reports, cover the image, as a
//! rasteriser written here fills them: the GPU's skinning, morphs and the camera all agree
//! with the CPU's. Needs an adapter (lavapipe on CI).

mod common;

use std::path::Path;
use std::process::Command;

fn skelview(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_skelview")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    assert!(o.status.success(), "skelview {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Row-major 4×4 from the camera JSON.
fn matrix(v: &serde_json::Value) -> glam::Mat4 {
    let rows: Vec<Vec<f32>> =
        v.as_array().unwrap().iter().map(|r| r.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()).collect();
    glam::Mat4::from_cols_array_2d(&std::array::from_fn(|c| std::array::from_fn(|r| rows[r][c])))
}

/// Pixels whose centres lie in a projected triangle (clip space as wgpu's: y up, z 0..1).
fn rasterise(triangles: &[[glam::Vec4; 3]], w: usize, h: usize) -> Vec<bool> {
    let mut mask = vec![false; w * h];
    for t in triangles {
        if t.iter().any(|p| p.w <= 0.0) {
            continue;
        }
        let s: Vec<glam::Vec2> =
            t.iter().map(|p| glam::Vec2::new((p.x / p.w + 1.0) * 0.5 * w as f32, (1.0 - p.y / p.w) * 0.5 * h as f32)).collect();
        let area = (s[1] - s[0]).perp_dot(s[2] - s[0]);
        if area.abs() < 1e-12 {
            continue;
        }
        let (lo, hi) = (s[0].min(s[1]).min(s[2]), s[0].max(s[1]).max(s[2]));
        for y in (lo.y.floor().max(0.0) as usize)..(hi.y.ceil().min(h as f32) as usize) {
            for x in (lo.x.floor().max(0.0) as usize)..(hi.x.ceil().min(w as f32) as usize) {
                let p = glam::Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let e = [(s[1] - s[0]).perp_dot(p - s[0]), (s[2] - s[1]).perp_dot(p - s[1]), (s[0] - s[2]).perp_dot(p - s[2])];
                if e.iter().all(|&v| v * area >= 0.0) {
                    mask[y * w + x] = true;
                }
            }
        }
    }
    mask
}

/// Renders `file` at `frame` and compares its mesh pixels with the projected vertices.
fn picture_is_the_vertices(file: &str, frame: usize) {
    if common::gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (png, cam) = (dir.path().join("mesh.png"), dir.path().join("cam.json"));
    let (w, h) = (320usize, 240usize);
    let f = frame.to_string();
    let size = format!("{w}x{h}");
    let args = ["render", file, "--frame", &f, "--size", &size, "--mesh", "on", "--skeleton", "off", "--grid", "off"];
    skelview(&[&args[..], &["--out", png.to_str().unwrap(), "--camera-json", cam.to_str().unwrap()]].concat());
    let camera: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cam).unwrap()).unwrap();
    assert_eq!((camera["width"].as_u64(), camera["height"].as_u64()), (Some(w as u64), Some(h as u64)));
    let clip_from_world = matrix(&camera["projection"]) * matrix(&camera["view"]);
    // Vertices of each mesh (display space), and its triangles from Python-free info: faces
    // come from the file through `positions --vertices` order and `info --json` counts.
    let info: serde_json::Value = serde_json::from_str(&skelview(&["info", "--json", file])).unwrap();
    let csv = skelview(&["positions", "--vertices", "--frames", &f, file]);
    let mut meshes: Vec<Vec<glam::Vec3>> = vec![Vec::new(); info["meshes"].as_array().unwrap().len()];
    for line in csv.lines().skip(1) {
        let v: Vec<&str> = line.split(',').collect();
        meshes[v[0].parse::<usize>().unwrap()].push(glam::Vec3::new(v[3].parse().unwrap(), v[4].parse().unwrap(), v[5].parse().unwrap()));
    }
    let motion = skelview_core::formats::load_paths(&[Path::new(env!("CARGO_MANIFEST_DIR")).join(file)]).unwrap().remove(0);
    let set = motion.meshes.as_deref().unwrap();
    let mut triangles = Vec::new();
    for (mesh, vertices) in set.meshes.iter().zip(&meshes) {
        for t in mesh.indices.chunks_exact(3) {
            triangles.push([0, 1, 2].map(|k| clip_from_world * vertices[t[k] as usize].extend(1.0)));
        }
    }
    let expected = rasterise(&triangles, w, h);
    let image = image::open(&png).unwrap().to_rgba8();
    let background = image.get_pixel(0, 0).0;
    let drawn: Vec<bool> = image.pixels().map(|p| p.0.iter().zip(background).take(3).any(|(a, b)| a.abs_diff(b) > 6)).collect();
    // Edges may go either way (antialiasing, the rasterisers' rules): pixels next to the
    // silhouette are not counted.
    let edge = |k: usize| {
        let (x, y) = ((k % w) as i64, (k / w) as i64);
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (x + dx, y + dy)))
            .any(|(x, y)| x >= 0 && y >= 0 && x < w as i64 && y < h as i64 && expected[(y as usize) * w + x as usize] != expected[k])
    };
    let inside = expected.iter().filter(|&&e| e).count();
    let wrong: Vec<usize> = (0..w * h).filter(|&k| expected[k] != drawn[k] && !edge(k)).collect();
    assert!(inside > 500, "{file}: the mesh covers {inside} pixels: too small to test");
    assert!(
        wrong.len() * 200 <= inside,
        "{file}: {} of {inside} pixels disagree, first at {:?}",
        wrong.len(),
        wrong.first().map(|k| (k % w, k / w))
    );
}

#[test]
fn a_skinned_textured_fox_is_drawn_where_its_vertices_project() {
    let Some(corpus) = skelview_test_support::corpus::corpus() else { return };
    picture_is_the_vertices(corpus.join("gltf/Fox.glb").to_str().unwrap(), 10);
}

#[test]
fn a_robot_of_rigid_parts_with_morph_targets_is_drawn_where_its_vertices_project() {
    picture_is_the_vertices("tests/data/avatars/RobotExpressive.glb", 20);
}
