//! Synthetic SMPL-family models and motions in the real files' layouts (no model or AMASS
//! file may be in the repository), and the models' equations written out again in f64, for
//! the body tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

use glam::{DVec3, Mat4};
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::formats::Quiet;
use skelview_core::formats::npz::{self, Family, ReadOptions};

// ---- npy and npz bytes -------------------------------------------------------------------

/// A `.npy` of `descr` and `shape` holding `data` (raw bytes), with a version 1.0 header.
pub fn npy(descr: &str, shape: &[usize], data: Vec<u8>) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((dict.len() as u16).to_le_bytes());
    out.extend(dict.as_bytes());
    out.extend(data);
    out
}

pub fn f8(shape: &[usize], v: &[f64]) -> Vec<u8> {
    assert_eq!(shape.iter().product::<usize>(), v.len());
    npy("<f8", shape, v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

pub fn f4(shape: &[usize], v: &[f64]) -> Vec<u8> {
    npy("<f4", shape, v.iter().flat_map(|x| (*x as f32).to_le_bytes()).collect())
}

pub fn f4_big(shape: &[usize], v: &[f64]) -> Vec<u8> {
    npy(">f4", shape, v.iter().flat_map(|x| (*x as f32).to_be_bytes()).collect())
}

/// A 0-d unicode string, as numpy saves `gender`.
pub fn unicode(s: &str) -> Vec<u8> {
    npy(&format!("<U{}", s.len()), &[], s.chars().flat_map(|c| (c as u32).to_le_bytes()).collect())
}

/// A pickled object array (never to be read).
pub fn object() -> Vec<u8> {
    npy("|O", &[], b"\x80\x04\x95cos\nsystem\n(S'echo never run'\ntR.".to_vec())
}

/// A 0-d object array holding `word`, as NumPy 2.4 pickles `np.array(word, dtype=object)`.
pub fn pickled(word: &str) -> Vec<u8> {
    let mut p = b"\x80\x04\x95\x8d\x00\x00\x00\x00\x00\x00\x00\x8c\x16numpy._core.multiarray\x94\x8c\x0c_reconstruct\x94\x93\x94\x8c\x05numpy\x94\x8c\x07ndarray\x94\x93\x94K\x00\x85\x94C\x01b\x94\x87\x94R\x94(K\x01)h\x03\x8c\x05dtype\x94\x93\x94\x8c\x02O8\x94\x89\x88\x87\x94R\x94(K\x03\x8c\x01|\x94NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK?t\x94b\x89]\x94\x8c".to_vec();
    p.push(word.len() as u8);
    p.extend(word.as_bytes());
    p.extend(b"\x94at\x94b.");
    npy("|O", &[], p)
}

/// An `.npz`: members deflated when `deflate`, as `np.savez_compressed` writes them.
pub fn npz(members: Vec<(&str, Vec<u8>)>, deflate: bool) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let method = if deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
    for (name, bytes) in members {
        w.start_file(format!("{name}.npy"), zip::write::SimpleFileOptions::default().compression_method(method)).unwrap();
        w.write_all(&bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Deterministic numbers in [-1, 1).
pub struct Random(pub u64);

impl Random {
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
    pub fn many(&mut self, n: usize, scale: f64) -> Vec<f64> {
        (0..n).map(|_| self.next() * scale).collect()
    }
}

// ---- synthetic body models ---------------------------------------------------------------

/// A synthetic model's arrays (four vertices per joint).
pub struct Model {
    pub parents: Vec<Option<usize>>,
    pub v_template: Vec<f64>,
    pub shapedirs: Vec<f64>,
    pub shapes: usize,
    pub posedirs: Vec<f64>,
    pub j_regressor: Vec<f64>,
    pub weights: Vec<f64>,
}

impl Model {
    pub fn new(family: Family, seed: u64) -> Self {
        let mut r = Random(seed);
        let parents = family.parents();
        let j = parents.len();
        let v = 4 * j;
        let shapes = 10;
        let v_template = r.many(v * 3, 0.8);
        let shapedirs = r.many(v * 3 * shapes, 0.02);
        let posedirs = r.many(v * 3 * 9 * (j - 1), 0.01);
        let mut j_regressor = vec![0.0; j * v];
        let mut weights = vec![0.0; v * j];
        for k in 0..j {
            for (n, w) in [0.4, 0.3, 0.2, 0.1].into_iter().enumerate() {
                j_regressor[k * v + 4 * k + n] = w;
                let vertex = 4 * k + n;
                match parents[k] {
                    Some(p) => {
                        weights[vertex * j + k] = 0.7;
                        weights[vertex * j + p] = 0.3;
                    }
                    None => weights[vertex * j + k] = 1.0,
                }
            }
        }
        Self { parents, v_template, shapedirs, shapes, posedirs, j_regressor, weights }
    }

    /// A model whose `shapedirs` has `shapes` columns, the expression directions among them
    /// (SMPL-X's) moving only the vertices of the joints `face`.
    pub fn with_expressions(family: Family, seed: u64, shapes: usize, face: &[usize]) -> Self {
        let mut model = Self::new(family, seed);
        let v = model.vertices();
        let mut r = Random(seed + 1000);
        model.shapes = shapes;
        model.shapedirs = r.many(v * 3 * shapes, 0.02);
        let (_, expressions) = model.split();
        for i in 0..v {
            if !face.contains(&(i / 4)) {
                for k in 0..3 {
                    expressions.clone().for_each(|c| model.shapedirs[(i * 3 + k) * shapes + c] = 0.0);
                }
            }
        }
        model
    }

    /// The `smplx` package's split of `shapedirs`' columns: how many are shape, which are
    /// expression (SMPL-X only: 300 and 300..400 for a model of 400 or more, else 10 and 10..20).
    pub fn split(&self) -> (usize, std::ops::Range<usize>) {
        let b = self.shapes;
        match self.parents.len() {
            55 if b >= 400 => (300, 300..400),
            55 => (b.min(10), b.min(10)..b.min(20)),
            _ => (b, b..b),
        }
    }

    pub fn vertices(&self) -> usize {
        self.v_template.len() / 3
    }

    /// The model as an `.npz`, with a pickled member as real model files have.
    pub fn bytes(&self) -> Vec<u8> {
        npz(self.members(), true)
    }

    /// The model's members.
    pub fn members(&self) -> Vec<(&'static str, Vec<u8>)> {
        let (j, v) = (self.parents.len(), self.vertices());
        let mut kintree: Vec<u8> = self.parents.iter().flat_map(|p| p.map_or(u32::MAX, |p| p as u32).to_le_bytes()).collect();
        kintree.extend((0..j as u32).flat_map(u32::to_le_bytes));
        let faces: Vec<u8> =
            (0..j as u32).flat_map(|k| [4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 1, 4 * k + 2, 4 * k + 3]).flat_map(u32::to_le_bytes).collect();
        vec![
            ("v_template", f8(&[v, 3], &self.v_template)),
            ("shapedirs", f8(&[v, 3, self.shapes], &self.shapedirs)),
            ("posedirs", f8(&[v, 3, 9 * (j - 1)], &self.posedirs)),
            ("J_regressor", f8(&[j, v], &self.j_regressor)),
            ("weights", f8(&[v, j], &self.weights)),
            ("kintree_table", npy("<u4", &[2, j], kintree)),
            ("f", npy("<u4", &[2 * j, 3], faces)),
            ("joint2num", object()),
        ]
    }

    /// The template shaped by `betas`, and its joints: the models' equations, again.
    pub fn shaped(&self, betas: &[f64]) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
        self.shaped_with(betas, &[])
    }

    /// The template shaped by `betas` and `expression`, and its joints.
    pub fn shaped_with(&self, betas: &[f64], expression: &[f64]) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
        let (j, v, b) = (self.parents.len(), self.vertices(), self.shapes);
        let (shapes, expressions) = self.split();
        let n = betas.len().min(shapes);
        let e = expression.len().min(expressions.len());
        let verts: Vec<[f64; 3]> = (0..v)
            .map(|i| {
                std::array::from_fn(|k| {
                    let dir = |c: usize| self.shapedirs[(i * 3 + k) * b + c];
                    self.v_template[i * 3 + k]
                        + (0..n).map(|c| dir(c) * betas[c]).sum::<f64>()
                        + (0..e).map(|c| dir(expressions.start + c) * expression[c]).sum::<f64>()
                })
            })
            .collect();
        let joints = (0..j).map(|r| std::array::from_fn(|k| (0..v).map(|i| self.j_regressor[r * v + i] * verts[i][k]).sum())).collect();
        (verts, joints)
    }

    /// World 4×4 transforms of each joint for `pose` (before `trans`).
    pub fn world(&self, joints: &[[f64; 3]], pose: &[f64]) -> Vec<[[f64; 4]; 4]> {
        let mut out: Vec<[[f64; 4]; 4]> = Vec::new();
        for (k, parent) in self.parents.iter().enumerate() {
            let r = rotation(&pose[k * 3..k * 3 + 3]);
            let t = match parent {
                None => joints[k],
                Some(p) => std::array::from_fn(|c| joints[k][c] - joints[*p][c]),
            };
            let local = [
                [r[0][0], r[0][1], r[0][2], t[0]],
                [r[1][0], r[1][1], r[1][2], t[1]],
                [r[2][0], r[2][1], r[2][2], t[2]],
                [0.0, 0.0, 0.0, 1.0],
            ];
            out.push(match parent {
                None => local,
                Some(p) => mul(&out[*p], &local),
            });
        }
        out
    }

    /// Posed joints (plus `trans`).
    pub fn posed_joints(&self, betas: &[f64], pose: &[f64], trans: &[f64]) -> Vec<[f64; 3]> {
        self.posed_joints_with(betas, &[], pose, trans)
    }

    /// Posed joints of the body shaped by `betas` and `expression`.
    pub fn posed_joints_with(&self, betas: &[f64], expression: &[f64], pose: &[f64], trans: &[f64]) -> Vec<[f64; 3]> {
        let (_, joints) = self.shaped_with(betas, expression);
        self.world(&joints, pose).iter().map(|m| [m[0][3] + trans[0], m[1][3] + trans[1], m[2][3] + trans[2]]).collect()
    }

    /// Posed vertices: pose blend shapes, then linear blend skinning, then `trans`.
    pub fn posed_vertices(&self, betas: &[f64], pose: &[f64], trans: &[f64]) -> Vec<[f64; 3]> {
        self.posed_vertices_with(betas, &[], pose, trans)
    }

    /// Posed vertices of the body shaped by `betas` and `expression`.
    pub fn posed_vertices_with(&self, betas: &[f64], expression: &[f64], pose: &[f64], trans: &[f64]) -> Vec<[f64; 3]> {
        let (verts, joints) = self.shaped_with(betas, expression);
        let j = self.parents.len();
        let p = 9 * (j - 1);
        let feature: Vec<f64> = (1..j)
            .flat_map(|k| {
                let r = rotation(&pose[k * 3..k * 3 + 3]);
                (0..9).map(move |e| r[e / 3][e % 3] - if e / 3 == e % 3 { 1.0 } else { 0.0 })
            })
            .collect();
        let world = self.world(&joints, pose);
        verts
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let posed: [f64; 3] =
                    std::array::from_fn(|k| v[k] + (0..p).map(|e| self.posedirs[(i * 3 + k) * p + e] * feature[e]).sum::<f64>());
                std::array::from_fn(|row| {
                    (0..j)
                        .map(|k| {
                            let m = &world[k];
                            let moved = (0..3).map(|c| m[row][c] * (posed[c] - joints[k][c])).sum::<f64>() + m[row][3];
                            self.weights[i * j + k] * moved
                        })
                        .sum::<f64>()
                        + trans[row]
                })
            })
            .collect()
    }
}

/// An axis-angle as a matrix, through a unit quaternion (not the reader's Rodrigues).
pub fn rotation(aa: &[f64]) -> [[f64; 3]; 3] {
    let angle = (aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2]).sqrt();
    let (w, x, y, z) = if angle == 0.0 {
        (1.0, 0.0, 0.0, 0.0)
    } else {
        let s = (angle / 2.0).sin() / angle;
        ((angle / 2.0).cos(), aa[0] * s, aa[1] * s, aa[2] * s)
    };
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

pub fn mul(a: &[[f64; 4]; 4], b: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    std::array::from_fn(|r| std::array::from_fn(|c| (0..4).map(|k| a[r][k] * b[k][c]).sum()))
}

// ---- helpers -----------------------------------------------------------------------------

pub fn load(name: &str, bytes: &[u8], options: &ReadOptions) -> Result<Motion, String> {
    npz::load_bytes(Path::new(name), bytes, options, &mut Quiet).map_err(|e| e.to_string())
}

pub fn with_model(path: &Path) -> ReadOptions {
    ReadOptions { body_model: Some(path.to_owned()), ..ReadOptions::default() }
}

/// Every frame's joints from the sampler, in the file's space, against `expected`.
pub fn assert_joints(m: &Motion, expected: impl Fn(usize) -> Vec<[f64; 3]>, tolerance: f64) {
    let mut s = Sampler::default();
    for f in 0..m.clip.num_frames() {
        let got = s.positions(m, PoseAt::Frame(f), Interpolation::Linear, Mat4::IDENTITY).to_vec();
        let want = expected(f);
        assert_eq!(got.len(), want.len());
        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
            let d = (g.as_dvec3() - DVec3::from_array(*w)).length();
            assert!(d < tolerance, "frame {f} joint {j} ({}): {g} vs {w:?} ({d:e} m)", m.skeleton.joints()[j].name);
        }
    }
}

/// Poses with a few rotation vectors longer than π, as real files have.
pub fn poses(r: &mut Random, frames: usize, width: usize) -> Vec<f64> {
    let mut p = r.many(frames * width, 0.6);
    for f in 0..frames {
        for k in [0, 7] {
            let v = &mut p[f * width + k * 3..f * width + k * 3 + 3];
            let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt().max(1e-3);
            v.iter_mut().for_each(|x| *x *= 4.0 / len);
        }
    }
    p
}

pub fn models_folder() -> (tempfile::TempDir, Model, Model, Model, Model) {
    let dir = tempfile::tempdir().unwrap();
    let (h_male, h_female) = (Model::new(Family::SmplH, 1), Model::new(Family::SmplH, 2));
    let (x_female, smpl) = (Model::new(Family::SmplX, 3), Model::new(Family::Smpl, 4));
    for (file, model) in [
        ("smplh/male/model.npz", &h_male),
        ("smplh/SMPLH_FEMALE.npz", &h_female),
        ("smplx/SMPLX_FEMALE.npz", &x_female),
        ("smpl/SMPL_NEUTRAL.npz", &smpl),
    ] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, model.bytes()).unwrap();
    }
    (dir, h_male, h_female, x_female, smpl)
}

/// `m` written as a GLB and read back, checked to pose the same vertices (both in the display
/// space: metres, Y up; AMASS is Z-up, the GLB Y-up) on every frame.
pub fn glb_round_trip(m: &Motion) -> Motion {
    use skelview_core::core::mesh_frames::vertices;
    use skelview_core::export::gltf_writer::{Animation, document, write_glb};
    let (doc, bin) = document(&[Animation { name: "take".into(), motion: m }]).unwrap();
    let mut glb = Vec::new();
    write_glb(&doc, &bin, &mut glb).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("body.glb");
    std::fs::write(&path, glb).unwrap();
    let back = skelview_core::formats::load_paths(&[path]).unwrap().remove(0);
    for f in 0..m.clip.num_frames() {
        let ours = vertices(m, &[0], &[f], m.display_from_file());
        let theirs = vertices(&back, &[0], &[f], back.display_from_file());
        assert_eq!(ours.len(), theirs.len());
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!((*a - *b).length() < 1e-5, "written as GLB and read back: frame {f}, vertex {i}: {a} vs {b}");
        }
    }
    back
}
