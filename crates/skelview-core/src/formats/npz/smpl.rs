//! A body model of the SMPL family, read from the user's `.npz`, and posing exactly as the
//! models define it: joints regressed from the shaped template, Rodrigues rotations, forward
//! kinematics down `kintree_table`, pose blend shapes, then linear blend skinning.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{DMat3, DVec3};

use super::NpzError;
use super::container::{self, Arrays};
use super::joints::Family;
use super::npy::Data;

/// SMPL-X's shape space: the `smplx` package's `SHAPE_SPACE_DIM`.
const SMPLX_SHAPES: usize = 300;
/// SMPL-X's expression space: `EXPRESSION_SPACE_DIM`.
const SMPLX_EXPRESSIONS: usize = 100;

/// The arrays posing joints needs (the mesh needs the rest of [`MESH_ARRAYS`]).
const JOINT_ARRAYS: [&str; 4] = ["v_template", "shapedirs", "J_regressor", "kintree_table"];
/// Every array posing vertices needs.
const MESH_ARRAYS: [&str; 7] = ["v_template", "shapedirs", "J_regressor", "kintree_table", "posedirs", "weights", "f"];

/// A body model: template, shape directions, joint regressor and tree (and, when read with
/// its mesh, pose blend shapes, skinning weights and faces).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyModel {
    /// The file it was read from.
    pub path: PathBuf,
    /// V template vertices.
    pub v_template: Vec<DVec3>,
    /// V×3×B shape directions, row-major (only the rows of [`BodyModel::shaped_rows`] when
    /// that is set).
    pub shapedirs: Vec<f64>,
    /// Read for its joints alone: the vertices the joint regressor weighs, whose rows
    /// `shapedirs` holds in this order; the other vertices keep their template place in
    /// [`Shaped::vertices`] (no joint depends on them).
    pub shaped_rows: Option<Vec<usize>>,
    /// B: shape coefficients it has.
    pub num_shapes: usize,
    /// J×V joint regressor, row-major.
    pub j_regressor: Vec<f64>,
    /// Each joint's parent (the root has none).
    pub parents: Vec<Option<usize>>,
    /// Pose blend shapes, skinning weights and faces, when read.
    pub mesh: Option<ModelMesh>,
}

/// What a model needs beyond its joints to pose its vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelMesh {
    /// V×3×P pose blend shapes (P = 9·(J−1)), row-major.
    pub posedirs: Vec<f64>,
    /// V×J skinning weights, row-major.
    pub weights: Vec<f64>,
    /// Triangles.
    pub faces: Vec<[u32; 3]>,
}

/// A model shaped by a body's `betas`: its vertices and rest joints.
#[derive(Clone, Debug, PartialEq)]
pub struct Shaped {
    /// The template with the shape blend shapes added.
    pub vertices: Vec<DVec3>,
    /// Rest joint positions (`J_regressor` applied to `vertices`).
    pub joints: Vec<DVec3>,
}

/// Models read, kept for the next motion: a folder of motions reads its model once. Read for
/// joints alone, about 15 MB each for SMPL-X, a few are kept (one per gender and family); read
/// with its mesh (the viewer, Python's default), the last ones read within a memory budget.
static KEPT: std::sync::Mutex<Vec<Kept>> = std::sync::Mutex::new(Vec::new());
/// How many models read for joints alone are kept.
const KEPT_MODELS: usize = 4;
/// The most memory the models kept with their mesh hold together: three SMPL-X models (about
/// 232 MB each), so that a folder of male, female and neutral motions reads each once; nine
/// SMPL+H. The last one read is kept whatever its size.
const KEPT_MESH_BYTES: usize = 768 << 20;

/// Which of the models kept stay, given each one's (read with its mesh, bytes), the newest
/// first: the newest [`KEPT_MODELS`] read for joints; read with their mesh, the newest ones
/// while together they hold at most `mesh_budget` bytes, and the newest one whatever its size.
fn stays(kept: impl Iterator<Item = (bool, usize)>, mesh_budget: usize) -> Vec<bool> {
    let (mut joints, mut meshes, mut mesh_bytes) = (0, 0, 0usize);
    kept.map(|(with_mesh, bytes)| {
        if with_mesh {
            meshes += 1;
            mesh_bytes = mesh_bytes.saturating_add(bytes);
            meshes == 1 || mesh_bytes <= mesh_budget
        } else {
            joints += 1;
            joints <= KEPT_MODELS
        }
    })
    .collect()
}

/// A model kept: the file it was read from, whether with its mesh, the model.
struct Kept {
    file: ModelFile,
    with_mesh: bool,
    model: Arc<BodyModel>,
}

/// A model file as it is on disk: a file rewritten since is read again.
#[derive(Clone, Debug, PartialEq)]
struct ModelFile {
    path: PathBuf,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl ModelFile {
    fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        Some(ModelFile { path: std::fs::canonicalize(path).ok()?, len: meta.len(), modified: meta.modified().ok() })
    }
}

impl BodyModel {
    /// The model at `path` (with its mesh when `with_mesh`): one read the same way before from
    /// the same file, unchanged, is taken again ([`BodyModel::read`] otherwise).
    pub fn read_kept(path: &Path, with_mesh: bool) -> Result<Arc<Self>, NpzError> {
        let Some(file) = ModelFile::of(path) else { return Self::read(path, with_mesh).map(Arc::new) };
        // Held while reading: motions loaded in parallel wait for the one read, not each read
        // (the read starts no parallel work, so no thread holding it waits on another).
        let mut kept = KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(at) = kept.iter().position(|k| k.file == file && k.with_mesh == with_mesh) {
            let entry = kept.remove(at);
            let model = entry.model.clone();
            kept.insert(0, entry);
            // The path as this motion named it, for its messages.
            return Ok(if model.path == path { model } else { Arc::new(Self { path: path.to_owned(), ..(*model).clone() }) });
        }
        let model = Arc::new(Self::read(path, with_mesh)?);
        kept.insert(0, Kept { file, with_mesh, model: model.clone() });
        let mut stays = stays(kept.iter().map(|k| (k.with_mesh, k.model.heap_bytes())), KEPT_MESH_BYTES).into_iter();
        kept.retain(|_| stays.next().unwrap_or(false));
        Ok(model)
    }

    /// The bytes its arrays hold.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val;
        let mesh = self.mesh.as_ref().map_or(0, |m| size_of_val(&m.posedirs[..]) + size_of_val(&m.weights[..]) + size_of_val(&m.faces[..]));
        let rows = self.shaped_rows.as_ref().map_or(0, |r| size_of_val(&r[..]));
        size_of_val(&self.v_template[..]) + size_of_val(&self.shapedirs[..]) + rows + size_of_val(&self.j_regressor[..]) + mesh
    }

    /// Reads the model at `path` (with its mesh arrays when `with_mesh`).
    pub fn read(path: &Path, with_mesh: bool) -> Result<Self, NpzError> {
        if !with_mesh && let Some(model) = Self::read_for_joints(path)? {
            return Ok(model);
        }
        let wanted: &[&str] = if with_mesh { &MESH_ARRAYS } else { &JOINT_ARRAYS };
        let arrays = container::read_file(path, "model", Some(wanted)).map_err(|e| in_file(path, e))?;
        Self::from_arrays(path, arrays, with_mesh)
    }

    /// Reads a model from `bytes` (`path` names it in errors).
    pub fn from_bytes(path: &Path, bytes: &[u8], with_mesh: bool) -> Result<Self, NpzError> {
        let wanted: &[&str] = if with_mesh { &MESH_ARRAYS } else { &JOINT_ARRAYS };
        let arrays = container::read(bytes, "model", Some(wanted)).map_err(|e| in_file(path, e))?;
        Self::from_arrays(path, arrays, with_mesh)
    }

    /// The model for posing joints alone, reading of the shape directions only the rows of
    /// the vertices the joint regressor weighs (a few per joint: a tenth of the file or less);
    /// `None` when they cannot be sought (a deflated member), or when the arrays disagree
    /// (the whole read then names what is wrong).
    fn read_for_joints(path: &Path) -> Result<Option<Self>, NpzError> {
        let arrays =
            container::read_file(path, "model", Some(&["v_template", "J_regressor", "kintree_table"])).map_err(|e| in_file(path, e))?;
        let mut model = Checked { path, arrays };
        let Ok((v_template, _)) = model.array("v_template", &[None, Some(3)]) else { return Ok(None) };
        let v_template: Vec<DVec3> = v_template.chunks_exact(3).map(DVec3::from_slice).collect();
        let v = v_template.len();
        let Ok((parents, j)) = model.parents() else { return Ok(None) };
        if model.array("J_regressor", &[Some(j), Some(v)]).is_err() {
            return Ok(None);
        }
        let j_regressor = model.take("J_regressor");
        let rows: Vec<usize> = (0..v).filter(|&i| (0..j).any(|k| j_regressor[k * v + i] != 0.0)).collect();
        let Some((shapedirs, shape)) = container::read_rows(path, "shapedirs", &rows).map_err(|e| in_file(path, e))? else {
            return Ok(None);
        };
        if shape.len() != 3 || shape[0] != v || shape[1] != 3 {
            return Ok(None);
        }
        let num_shapes = shape[2];
        Ok(Some(Self {
            path: path.to_owned(),
            v_template,
            shapedirs,
            shaped_rows: Some(rows),
            num_shapes,
            j_regressor,
            parents,
            mesh: None,
        }))
    }

    fn from_arrays(path: &Path, arrays: Arrays, with_mesh: bool) -> Result<Self, NpzError> {
        let mut model = Checked { path, arrays };
        let v_template: Vec<DVec3> = model.array("v_template", &[None, Some(3)])?.0.chunks_exact(3).map(DVec3::from_slice).collect();
        let v = v_template.len();
        let num_shapes = model.array("shapedirs", &[Some(v), Some(3), None])?.1[2];
        let (parents, j) = model.parents()?;
        model.array("J_regressor", &[Some(j), Some(v)])?;
        let mesh = if with_mesh { Some(model.mesh(v, j)?) } else { None };
        let (shapedirs, j_regressor) = (model.take("shapedirs"), model.take("J_regressor"));
        Ok(Self { path: path.to_owned(), v_template, shapedirs, shaped_rows: None, num_shapes, j_regressor, parents, mesh })
    }

    /// Number of joints.
    pub fn joints(&self) -> usize {
        self.parents.len()
    }

    /// The family its joint count is, if any.
    pub fn family(&self) -> Option<Family> {
        Family::with_joints(self.joints())
    }

    /// How many of `shapedirs`' first columns are shape directions, and which columns are
    /// expression directions, as the `smplx` package splits them: an SMPL-X model with 400
    /// columns has 300 of shape then 100 of expression, one with fewer (v1.1: 20) 10 and 10;
    /// SMPL and SMPL+H models have no expressions (all columns are shape: AMASS's SMPL+H has 16).
    pub fn columns(&self) -> (usize, Range<usize>) {
        let b = self.num_shapes;
        match self.family() {
            Some(Family::SmplX) if b >= SMPLX_SHAPES + SMPLX_EXPRESSIONS => (SMPLX_SHAPES, SMPLX_SHAPES..SMPLX_SHAPES + SMPLX_EXPRESSIONS),
            Some(Family::SmplX) => (b.min(10), b.min(10)..b.min(20)),
            _ => (b, b..b),
        }
    }

    /// The model shaped by `betas` (the first of them, as many as it has shape directions).
    pub fn shape(&self, betas: &[f64]) -> Shaped {
        self.shape_expressed(betas, &[])
    }

    /// The model shaped by `betas` and, for SMPL-X, an expression's coefficients (the first
    /// of them, as many as it has expression directions).
    pub fn shape_expressed(&self, betas: &[f64], expression: &[f64]) -> Shaped {
        let b = self.num_shapes;
        let (shapes, expressions) = self.columns();
        let n = betas.len().min(shapes);
        let e = expression.len().min(expressions.len());
        let coefficients: Vec<(usize, f64)> =
            (0..n).map(|c| (c, betas[c])).chain((0..e).map(|c| (expressions.start + c, expression[c]))).collect();
        // Row `row` of `shapedirs` times the coefficients.
        let offset = |row: usize| {
            let d = |k: usize| coefficients.iter().map(|&(c, x)| self.shapedirs[(row * 3 + k) * b + c] * x).sum::<f64>();
            DVec3::new(d(0), d(1), d(2))
        };
        let mut vertices = self.v_template.clone();
        match &self.shaped_rows {
            None => vertices.iter_mut().enumerate().for_each(|(i, p)| *p += offset(i)),
            Some(rows) => rows.iter().enumerate().for_each(|(row, &i)| vertices[i] += offset(row)),
        }
        let v = vertices.len();
        let joints = (0..self.joints())
            .map(|j| self.j_regressor[j * v..(j + 1) * v].iter().zip(&vertices).fold(DVec3::ZERO, |acc, (w, p)| acc + *w * *p))
            .collect();
        Shaped { vertices, joints }
    }

    /// How each rest joint moves per unit of each expression coefficient: J × E, row-major
    /// (`J_regressor` applied to the expression directions; E from [`BodyModel::columns`]).
    pub fn expression_joints(&self) -> Vec<DVec3> {
        let (b, v) = (self.num_shapes, self.v_template.len());
        let (_, expressions) = self.columns();
        let rows: Vec<(usize, usize)> = match &self.shaped_rows {
            None => (0..v).map(|i| (i, i)).collect(),
            Some(rows) => rows.iter().enumerate().map(|(row, &i)| (row, i)).collect(),
        };
        let mut out = Vec::with_capacity(self.joints() * expressions.len());
        for j in 0..self.joints() {
            let regressor = &self.j_regressor[j * v..(j + 1) * v];
            for c in expressions.clone() {
                let dir = |row: usize| {
                    let d = |k: usize| self.shapedirs[(row * 3 + k) * b + c];
                    DVec3::new(d(0), d(1), d(2))
                };
                out.push(
                    rows.iter().filter(|(_, i)| regressor[*i] != 0.0).fold(DVec3::ZERO, |acc, &(row, i)| acc + regressor[i] * dir(row)),
                );
            }
        }
        out
    }

    /// Each joint's world rotation and position for `pose` (J×3 axis-angle), before `trans`.
    pub fn world(&self, shaped: &Shaped, pose: &[f64]) -> Vec<(DMat3, DVec3)> {
        let mut out: Vec<(DMat3, DVec3)> = Vec::with_capacity(self.joints());
        for (j, parent) in self.parents.iter().enumerate() {
            let r = rodrigues(axis_angle(pose, j));
            out.push(match parent {
                None => (r, shaped.joints[j]),
                Some(p) => {
                    let (pr, pt) = out[*p];
                    (pr * r, pr * (shaped.joints[j] - shaped.joints[*p]) + pt)
                }
            });
        }
        out
    }

    /// Posed joint positions: forward kinematics, then `trans` added.
    pub fn posed_joints(&self, shaped: &Shaped, pose: &[f64], trans: DVec3) -> Vec<DVec3> {
        self.world(shaped, pose).into_iter().map(|(_, t)| t + trans).collect()
    }

    /// Posed vertices: pose blend shapes (`posedirs` times every non-root joint's R − I,
    /// row-major), linear blend skinning with `weights`, then `trans` added. Needs the model
    /// read with its mesh.
    pub fn posed_vertices(&self, shaped: &Shaped, pose: &[f64], trans: DVec3) -> Result<Vec<DVec3>, NpzError> {
        let mesh = self.mesh.as_ref().ok_or_else(|| NpzError::ModelFile {
            file: self.path.clone(),
            message: "read without its mesh arrays (posedirs, weights, f)".into(),
        })?;
        let j = self.joints();
        let mut feature = Vec::with_capacity(9 * j.saturating_sub(1));
        for k in 1..j {
            let m = rodrigues(axis_angle(pose, k)) - DMat3::IDENTITY;
            feature.extend((0..3).flat_map(|r| (0..3).map(move |c| m.col(c)[r])));
        }
        let world = self.world(shaped, pose);
        // Each joint's skinning transform moves the rest joint to its posed place.
        let skin: Vec<(DMat3, DVec3)> = world.iter().zip(&shaped.joints).map(|((r, t), rest)| (*r, *t - *r * *rest)).collect();
        let p = feature.len();
        let out = shaped
            .vertices
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let blend =
                    |k: usize| mesh.posedirs[(i * 3 + k) * p..(i * 3 + k + 1) * p].iter().zip(&feature).map(|(a, b)| a * b).sum::<f64>();
                let posed = *v + DVec3::new(blend(0), blend(1), blend(2));
                let weights = &mesh.weights[i * j..(i + 1) * j];
                let moved = weights
                    .iter()
                    .zip(&skin)
                    .filter(|(w, _)| **w != 0.0)
                    .fold(DVec3::ZERO, |acc, (w, (r, t))| acc + *w * (*r * posed + *t));
                moved + trans
            })
            .collect();
        Ok(out)
    }
}

/// A container error as the model file's.
fn in_file(path: &Path, e: NpzError) -> NpzError {
    match e {
        NpzError::Array { array, message } => NpzError::Model { file: path.to_owned(), array, message },
        NpzError::TooLarge { array, shape } => NpzError::Model { file: path.to_owned(), array, message: format!("too large ({shape})") },
        other => NpzError::ModelFile { file: path.to_owned(), message: other.to_string() },
    }
}

/// Joint `j`'s axis-angle in a J×3 pose (zero past its end).
fn axis_angle(pose: &[f64], j: usize) -> DVec3 {
    pose.get(j * 3..j * 3 + 3).map_or(DVec3::ZERO, DVec3::from_slice)
}

/// The rotation of an axis-angle vector (any length: real files hold some longer than π).
pub fn rodrigues(r: DVec3) -> DMat3 {
    let angle = r.length();
    if angle < 1e-12 {
        return DMat3::IDENTITY;
    }
    let k = r / angle;
    let kx = DMat3::from_cols(DVec3::new(0.0, k.z, -k.y), DVec3::new(-k.z, 0.0, k.x), DVec3::new(k.y, -k.x, 0.0));
    DMat3::IDENTITY + kx * angle.sin() + kx * kx * (1.0 - angle.cos())
}

/// A model's arrays, checked, then taken out without a copy.
struct Checked<'a> {
    path: &'a Path,
    arrays: Arrays,
}

impl Checked<'_> {
    fn bad(&self, array: &str, message: impl Into<String>) -> NpzError {
        NpzError::Model { file: self.path.to_owned(), array: array.to_owned(), message: message.into() }
    }

    /// The numbers of `name`, whose shape must match `dims` (`None`: any size).
    fn array(&self, name: &str, dims: &[Option<usize>]) -> Result<(&[f64], &[usize]), NpzError> {
        let Some(a) = self.arrays.get(name) else {
            return Err(self.bad(name, format!("missing (the model holds {})", self.arrays.describe())));
        };
        let values = a.numbers().ok_or_else(|| {
            self.bad(name, format!("is {}, not numbers (a pickled or sparse array: save the model with dense arrays)", a.descr))
        })?;
        let fits = a.shape.len() == dims.len() && a.shape.iter().zip(dims).all(|(s, d)| d.is_none_or(|d| d == *s));
        if !fits {
            let want: Vec<String> = dims.iter().map(|d| d.map_or("any".into(), |d| d.to_string())).collect();
            return Err(self
                .bad(name, format!("has shape {:?} where ({}) is needed: the model's arrays disagree in size", a.shape, want.join(", "))));
        }
        Ok((values, &a.shape))
    }

    /// The numbers of `name` (already checked by [`Checked::array`]), moved out.
    fn take(&mut self, name: &str) -> Vec<f64> {
        match self.arrays.arrays.iter_mut().find(|a| a.name == name).map(|a| std::mem::replace(&mut a.data, Data::Skipped)) {
            Some(Data::Numbers(v)) => v,
            _ => Vec::new(),
        }
    }

    /// Parents from `kintree_table`'s first row (the root's is -1 or a huge number).
    fn parents(&self) -> Result<(Vec<Option<usize>>, usize), NpzError> {
        let (k, shape) = self.array("kintree_table", &[Some(2), None])?;
        let j = shape[1];
        let parents: Vec<Option<usize>> = k[..j].iter().map(|&p| if p < 0.0 || p >= j as f64 { None } else { Some(p as usize) }).collect();
        if j == 0 || parents[0].is_some() || parents.iter().enumerate().skip(1).any(|(i, p)| p.is_none_or(|p| p >= i)) {
            return Err(self.bad("kintree_table", "is not a tree of joints listed parents first, with one root first"));
        }
        Ok((parents, j))
    }

    /// Pose blend shapes, weights and faces for V vertices and J joints.
    fn mesh(&mut self, v: usize, j: usize) -> Result<ModelMesh, NpzError> {
        self.array("posedirs", &[Some(v), Some(3), Some(9 * (j - 1))])?;
        self.array("weights", &[Some(v), Some(j)])?;
        let (f, _) = self.array("f", &[None, Some(3)])?;
        if f.iter().any(|&i| !(0.0..v as f64).contains(&i)) {
            return Err(self.bad("f", format!("has a vertex index outside 0..{v}")));
        }
        let faces = f.chunks_exact(3).map(|t| [t[0] as u32, t[1] as u32, t[2] as u32]).collect();
        Ok(ModelMesh { posedirs: self.take("posedirs"), weights: self.take("weights"), faces })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rodrigues_handles_long_and_tiny_vectors() {
        let r = rodrigues(DVec3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2));
        assert!((r * DVec3::X - DVec3::Y).length() < 1e-12);
        // Longer than π: the same rotation as the short way round.
        let long = rodrigues(DVec3::new(0.0, 0.0, 1.5 * std::f64::consts::PI));
        assert!((long * DVec3::X + DVec3::Y).length() < 1e-12);
        assert_eq!(rodrigues(DVec3::ZERO), DMat3::IDENTITY);
        let q = glam::DQuat::from_scaled_axis(DVec3::new(0.3, -1.2, 2.5));
        assert!((rodrigues(DVec3::new(0.3, -1.2, 2.5)) - DMat3::from_quat(q)).to_cols_array().iter().all(|d| d.abs() < 1e-12));
    }

    /// Three SMPL-X models with their mesh stay (male, female, neutral in turn); a fourth puts
    /// the oldest out; a model bigger than the budget still stays while it is the newest;
    /// models read for joints are counted apart.
    #[test]
    fn mesh_models_stay_within_the_memory_budget_the_newest_always() {
        let smplx = 232 << 20;
        let mesh = |n: usize| std::iter::repeat_n((true, smplx), n);
        assert_eq!(stays(mesh(3), KEPT_MESH_BYTES), [true; 3]);
        assert_eq!(stays(mesh(4), KEPT_MESH_BYTES), [true, true, true, false]);
        assert_eq!(stays([(true, 2 * KEPT_MESH_BYTES), (true, 1)].into_iter(), KEPT_MESH_BYTES), [true, false]);
        let joints = std::iter::repeat_n((false, 15 << 20), KEPT_MODELS + 1);
        let mixed: Vec<bool> = stays(joints.chain(mesh(3)), KEPT_MESH_BYTES);
        assert_eq!(mixed, [[true; KEPT_MODELS].as_slice(), &[false], &[true; 3]].concat());
    }
}
