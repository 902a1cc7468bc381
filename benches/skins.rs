//! Characters: the CPU's work per frame does not grow with the mesh (the GPU skins it), and
//! what 100 skinned Foxes cost against 100 skeletons, on whatever adapter is here (the software
//! one on this project's machines), the CPU's part of a frame of 1,000 and 10,000 Foxes, and
//! of an SMPL-X body.
//! Run: `cargo bench --bench skins`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{Mat4, Vec3};
use skelview_core::core::Motion;
use skelview_core::core::mesh::{Bone, MAX_INFLUENCES, Mesh, MeshSet};
use skelview_scene::{Body, DrawData, FrameSpec, Layout, Scene, Style, ViewPreset, framing};

/// The bundled walk with a skinned mesh of `n` vertices spread over its joints (four
/// influences a vertex), as a character file would give it.
fn character(n: usize) -> Motion {
    let mut m = skelview_core::formats::load_sample().unwrap();
    let joints = m.skeleton.len();
    let bones: Vec<Bone> = (0..joints).map(|j| Bone { joint: Some(j), joint_from_mesh: Mat4::IDENTITY }).collect();
    let positions: Vec<Vec3> = (0..n).map(|k| Vec3::new((k % 97) as f32, (k / 97 % 89) as f32, (k % 13) as f32)).collect();
    let indices: Vec<u32> = (0..n as u32 / 3 * 3).collect();
    let mut mesh = Mesh::rigid("body", positions, indices, bones[0]);
    mesh.bones = bones;
    mesh.skinned = true;
    for (k, (j, w)) in mesh.joints.iter_mut().zip(&mut mesh.weights).enumerate() {
        let mut js = [0u16; MAX_INFLUENCES];
        let mut ws = [0f32; MAX_INFLUENCES];
        for i in 0..4 {
            js[i] = ((k + i * 7) % joints) as u16;
            ws[i] = 0.25;
        }
        (*j, *w) = (js, ws);
    }
    m.meshes = Some(Arc::new(MeshSet { meshes: vec![mesh], images: Vec::new(), extensions: None }));
    m
}

/// `Scene::compose` of one character (its palette and morph weights, the bones): the same for
/// a mesh of 1,000 vertices and one of 100,000.
fn cpu_per_frame(c: &mut Criterion) {
    for n in [1_000usize, 100_000] {
        let mut scene = Scene::from_motions([Arc::new(character(n))]);
        let mut draw = DrawData::default();
        let mut t = 0.0;
        c.bench_function(&format!("compose_character_{n}_vertices"), |b| {
            b.iter(|| {
                t = (t + 0.0123) % 2.0;
                draw.clear();
                scene.compose(&FrameSpec::at(t, Style::default()), &mut draw);
                black_box(&draw);
            })
        });
    }
}

/// 100 Foxes, each on its own clock (offsets), drawn offscreen: as meshes (bones over them)
/// and as skeletons only. Skipped without the corpus or an adapter.
fn hundred_foxes(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/gltf/Fox.glb");
    let Ok(mut fox) = skelview_core::formats::load_paths(&[path]) else { return };
    let Ok(gpu) = skelview_render::offscreen::headless() else { return };
    let fox = Arc::new(fox.remove(0));
    for body in [Body::Both, Body::Skeleton] {
        let mut scene = Scene::arranged((0..100).map(|_| fox.clone()), Layout::SideBySide, ViewPreset::Perspective, false);
        for (k, clip) in scene.clips.iter_mut().enumerate() {
            clip.body = body;
            clip.offset_secs = k as f64 * 0.037;
        }
        let frame = FrameSpec::at(0.0, Style::default());
        let camera = framing(scene.bounds_over_times(&frame, [0.0]), ViewPreset::Perspective, 16.0 / 9.0, false);
        let mut target = skelview_video::Offscreen::new(&gpu, (640, 360), 1);
        let mut t = 0.0;
        let name = if body == Body::Both { "frame_100_foxes_meshes" } else { "frame_100_foxes_skeletons" };
        let mut group = c.benchmark_group("foxes");
        group.sample_size(10);
        group.bench_function(name, |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                black_box(target.picture(&gpu, &mut scene, &FrameSpec::at(t, Style::default()), &camera).unwrap());
            })
        });
        group.finish();
    }
}

/// The CPU's part of a frame of a crowd: `Scene::compose` of 1,000 and 10,000 Foxes, each on
/// its own clock (posing on every core, then each Fox's palette and bones): what a real GPU
/// would wait for. Skipped without the corpus.
fn crowd_cpu(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/gltf/Fox.glb");
    let Ok(mut fox) = skelview_core::formats::load_paths(&[path]) else { return };
    let fox = Arc::new(fox.remove(0));
    let mut group = c.benchmark_group("crowd");
    group.sample_size(10);
    for n in [1_000usize, 10_000] {
        let mut scene = Scene::arranged((0..n).map(|_| fox.clone()), Layout::SideBySide, ViewPreset::Perspective, false);
        for (k, clip) in scene.clips.iter_mut().enumerate() {
            clip.offset_secs = k as f64 * 0.037;
        }
        let mut draw = DrawData::default();
        let mut t = 0.0;
        group.bench_function(format!("compose_{n}_foxes"), |b| {
            b.iter(|| {
                t += 1.0 / 60.0;
                draw.clear();
                scene.compose(&FrameSpec::at(t, Style::default()), &mut draw);
                black_box(&draw);
            })
        });
    }
    group.finish();
}

/// A 10,001-frame SMPL-X motion posed by a body model the size of the real one, the body drawn:
/// the CPU's work per frame (palette, the pose blend weights that drive its 486 morph targets,
/// bones). Its inputs are `benches/bodies.sh`'s: skipped until that has run.
fn body_cpu(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/bodies");
    let motion = dir.join("motion_10001.npz");
    if !motion.is_file() {
        eprintln!("skipping the body: run benches/bodies.sh first (it makes {})", motion.display());
        return;
    }
    let mut options = skelview_core::formats::LoadOptions::default();
    let Ok(()) = options.format.set("npz.body_model", &dir.join("models").display().to_string()) else { return };
    let Ok(mut body) = skelview_core::formats::open(&[motion], &options, &skelview_core::formats::Rayon) else { return };
    let body = Arc::new(body.remove(0));
    assert!(body.meshes.is_some(), "the body model gives a mesh");
    let mut scene = Scene::from_motions([body]);
    let mut draw = DrawData::default();
    let mut t = 0.0;
    c.bench_function("compose_smplx_body", |b| {
        b.iter(|| {
            t = (t + 1.0 / 60.0) % 80.0;
            draw.clear();
            scene.compose(&FrameSpec::at(t, Style::default()), &mut draw);
            black_box(&draw);
        })
    });
}

criterion_group!(benches, cpu_per_frame, body_cpu, crowd_cpu, hundred_foxes);
criterion_main!(benches);
