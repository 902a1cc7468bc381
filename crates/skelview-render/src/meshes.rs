//! Unit meshes drawn instanced: a bone octahedron, a joint sphere, a shadow disc.

use glam::Vec3;

use skelview_draw::MeshVertex;

fn flat(triangles: &[[Vec3; 3]]) -> Vec<MeshVertex> {
    let mut v = Vec::with_capacity(triangles.len() * 3);
    for t in triangles {
        let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
        for p in t {
            v.push(MeshVertex { position: p.to_array(), normal: n.to_array() });
        }
    }
    v
}

/// A tapered octahedron from (0,0,0) to (0,1,0), widest (±0.5) at y = 0.2, flat-shaded.
pub fn bone() -> Vec<MeshVertex> {
    let (base, tip) = (Vec3::ZERO, Vec3::Y);
    let w = [Vec3::new(0.5, 0.2, 0.0), Vec3::new(0.0, 0.2, -0.5), Vec3::new(-0.5, 0.2, 0.0), Vec3::new(0.0, 0.2, 0.5)];
    let mut tris = Vec::new();
    for k in 0..4 {
        let (a, b) = (w[k], w[(k + 1) % 4]);
        tris.push([base, b, a]);
        tris.push([tip, a, b]);
    }
    flat(&tris)
}

/// A unit icosphere subdivided once (80 triangles, smooth normals), as a triangle list:
/// joints are small on screen, and software rasterisers pay for every triangle.
pub fn sphere() -> Vec<MeshVertex> {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    let p = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .map(|(x, y, z)| Vec3::new(x, y, z).normalize());
    let faces: [[usize; 3]; 20] = [
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    let mut tris: Vec<[Vec3; 3]> = faces.iter().map(|f| [p[f[0]], p[f[1]], p[f[2]]]).collect();
    for _ in 0..1 {
        tris = tris
            .iter()
            .flat_map(|[a, b, c]| {
                let (ab, bc, ca) = ((*a + *b).normalize(), (*b + *c).normalize(), (*c + *a).normalize());
                [[*a, ab, ca], [*b, bc, ab], [*c, ca, bc], [ab, bc, ca]]
            })
            .collect();
    }
    tris.iter().flat_map(|t| t.iter().map(|p| MeshVertex { position: p.to_array(), normal: p.to_array() })).collect()
}

/// A unit disc in the XZ plane facing +Y (shadow): a fan of 32 triangles.
pub fn disc() -> Vec<MeshVertex> {
    let n = 32;
    let up = [0.0, 1.0, 0.0];
    (0..n)
        .flat_map(|k| {
            let a0 = k as f32 / n as f32 * std::f32::consts::TAU;
            let a1 = (k + 1) as f32 / n as f32 * std::f32::consts::TAU;
            [
                MeshVertex { position: [0.0, 0.0, 0.0], normal: up },
                MeshVertex { position: [a1.cos(), 0.0, a1.sin()], normal: up },
                MeshVertex { position: [a0.cos(), 0.0, a0.sin()], normal: up },
            ]
        })
        .collect()
}
