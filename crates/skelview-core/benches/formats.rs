//! Load throughput of the formats besides BVH and ASF/AMC (and C3D against BVH per value), on their largest corpus files,
//! through the same `formats::load` the viewer and CLI use (parse, skeleton, clip, units).
//!
//! Run: `cargo bench -p skelview-core --bench formats`. Results: see benches/RESULTS.md and the README.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skelview_core::formats::{self, LoadOptions, LoadRequest, Quiet, Sequential, Source};

fn corpus(rel: &str) -> (String, Arc<[u8]>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus").join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("the corpus (../shared/corpus) is needed: {}: {e}", path.display()));
    (rel.to_owned(), Arc::from(bytes))
}

fn bench(c: &mut Criterion) {
    type Make = fn(Source) -> LoadRequest;
    let cases: [(&str, Make); 10] = [
        ("htr/MACFileLib_ExampleFile_89seg.htr", (|s| LoadRequest::single(&skelview_core::formats::htr::Htr, s))),
        ("acl/27_06.acl.sjson", (|s| LoadRequest::single(&skelview_core::formats::acl::Acl, s))),
        ("acl/104_30.acl.sjson", (|s| LoadRequest::single(&skelview_core::formats::acl::Acl, s))),
        ("acl/09_02.acl.zip", (|s| LoadRequest::single(&skelview_core::formats::acl::Acl, s))),
        ("hanim/JinLOA4.x3d", (|s| LoadRequest::single(&skelview_core::formats::hanim::HAnim, s))),
        ("hanim/JinLOA4_new_graal.wrl", (|s| LoadRequest::single(&skelview_core::formats::hanim::HAnim, s))),
        ("hanim/JoeHAnimKick1a.x3dv", (|s| LoadRequest::single(&skelview_core::formats::hanim::HAnim, s))),
        ("fbx/ozz_pab_atlas.fbx", (|s| LoadRequest::single(&skelview_core::formats::fbx::Fbx, s))),
        ("fbx/ozz_pab_locomotions.fbx", (|s| LoadRequest::single(&skelview_core::formats::fbx::Fbx, s))),
        ("gltf/Fox.glb", (|s| LoadRequest::single(&skelview_core::formats::gltf::Gltf, s))),
    ];
    let mut g = c.benchmark_group("load_formats");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(4));
    for (rel, make) in cases {
        let (name, bytes) = corpus(rel);
        let request = make(Source::Memory { name: name.clone().into(), bytes: bytes.clone() });
        // Fail loudly rather than time an error path.
        formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap_or_else(|e| panic!("{e}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function(name.rsplit('/').next().unwrap_or(&name), |b| {
            b.iter(|| formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).expect("loads"))
        });
    }
    g.finish();
    // C3D against the BVH parser per value of frame data: the markers of CMU take 01_01 and
    // the skeleton solved from them, as values (channels × frames) per second.
    let mut g = c.benchmark_group("c3d_vs_bvh_per_value");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(4));
    for rel in ["c3d/cmu_01_01_float.c3d", "bvh/cmu_cgspeed_01_01.bvh"] {
        let (name, bytes) = corpus(rel);
        let request = LoadRequest::memory(name.clone(), bytes).unwrap_or_else(|e| panic!("{e}"));
        let m = formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).unwrap_or_else(|e| panic!("{e}"));
        g.throughput(Throughput::Elements((m.clip.channels_per_frame() * m.clip.num_frames()) as u64));
        g.bench_function(name.rsplit('/').next().unwrap_or(&name), |b| {
            b.iter(|| formats::load(&request, &LoadOptions::default(), &Sequential, &mut Quiet).expect("loads"))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
