//! `skelview.Motion`: one loaded motion, its facts as properties and its poses as NumPy
//! arrays (float32, frames first). Poses are computed on every core with the GIL released.

use std::path::Path;
use std::sync::Arc;

use glam::{Mat3, Mat4, Quat, Vec3};
use numpy::ndarray::{Array2, Array3, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice, PySliceMethods};
use skelview_core::core::batch::{PositionSpace, RotationSpace, joint_positions, joint_rotations};
use skelview_core::core::capture::Capture;
use skelview_core::core::{Interpolation, Motion, PoseAt, Sampler};
use skelview_core::export::BvhWriteOptions;
use skelview_core::par::Rayon;

use crate::errors::{value_error, write_error};
use crate::mesh::PyMesh;

/// A loaded motion (any format): skeleton, clip, units and axes, warnings; a capture's
/// markers, analog channels, force platforms and events.
#[pyclass(name = "Motion", module = "skelview", frozen)]
pub struct PyMotion {
    pub inner: Arc<Motion>,
}

impl PyMotion {
    pub fn new(inner: Arc<Motion>) -> Self {
        Self { inner }
    }

    /// The frames a call asks for, checked: every frame (`None`), a slice, indices (a list,
    /// a tuple, a range or a NumPy integer array; negative ones count from the end), or a
    /// boolean mask with one value per frame (a NumPy bool array).
    pub fn frames(&self, frames: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<usize>> {
        let n = self.inner.clip.num_frames();
        let Some(frames) = frames else { return Ok((0..n).collect()) };
        if let Ok(slice) = frames.cast::<PySlice>() {
            let s = slice.indices(n as isize)?;
            return Ok((0..s.slicelength as isize).map(|k| (s.start + k * s.step) as usize).collect());
        }
        // A mask: a NumPy bool array, or a non-empty list of bools (which would otherwise
        // read as the indices 0 and 1).
        let mask = match frames.extract::<PyReadonlyArray1<'_, bool>>() {
            Ok(array) => Some(array.as_array().to_vec()),
            Err(_) => frames.extract::<Vec<bool>>().ok().filter(|m| !m.is_empty()),
        };
        if let Some(mask) = mask {
            if mask.len() != n {
                return Err(PyIndexError::new_err(format!("a frame mask needs {n} values (one per frame), not {}", mask.len())));
            }
            return Ok(mask.iter().enumerate().filter(|(_, keep)| **keep).map(|(f, _)| f).collect());
        }
        let list: Vec<i64> = frames.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "frames must be None, a slice, a sequence of frame indices or a bool mask of {n} frames, not {}",
                frames.get_type().name().map_or_else(|_| "that".to_owned(), |t| t.to_string())
            ))
        })?;
        skelview_core::core::frame_indices(&list, n).map_err(|e| PyIndexError::new_err(e.to_string()))
    }

    /// File space to the asked units and axes.
    fn space(&self, units: &str, y_up: bool) -> PyResult<Mat4> {
        let m = &self.inner;
        let metres = m.metres_per_raw_unit();
        Ok(match (units, y_up) {
            ("m", true) => m.display_from_file(),
            ("m", false) => Mat4::from_scale(Vec3::splat(metres)),
            ("file", false) => Mat4::IDENTITY,
            ("file", true) => Mat4::from_scale(Vec3::splat(1.0 / metres.max(1e-30))) * m.display_from_file(),
            (other, _) => return Err(PyValueError::new_err(format!("units must be 'm' or 'file', not {other:?}"))),
        })
    }
}

fn shaped3<'py>(py: Python<'py>, v: Vec<f32>, a: usize, b: usize, c: usize) -> PyResult<Bound<'py, PyArray3<f32>>> {
    Ok(Array3::from_shape_vec((a, b, c), v).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
}

#[pymethods]
impl PyMotion {
    /// The file read (the AMC of an ASF/AMC pair).
    #[getter]
    fn path(&self) -> String {
        self.inner.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default()
    }

    /// The format's name (`BVH`, `C3D`…).
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.source.format.name()
    }

    /// Joint names, parents first (a capture's markers are its joints).
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.inner.skeleton.joints().iter().map(|j| j.name.clone()).collect()
    }

    /// Each joint's parent index, −1 for roots (int32).
    #[getter]
    fn parents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.inner.skeleton.joints().iter().map(|j| j.parent.map_or(-1, |p| p as i32)).collect::<Vec<_>>().into_pyarray(py)
    }

    /// Frames per second.
    #[getter]
    fn fps(&self) -> f64 {
        self.inner.clip.fps()
    }

    /// Seconds between frames, as the file states it.
    #[getter]
    fn frame_time(&self) -> f64 {
        self.inner.clip.frame_time_secs
    }

    /// Number of frames (0 for a skeleton without motion).
    #[getter]
    fn frame_count(&self) -> usize {
        self.inner.clip.num_frames()
    }

    /// The animations the file holds, when it holds several.
    #[getter]
    fn takes(&self) -> Vec<String> {
        self.inner.source.takes.iter().map(|t| t.name.clone()).collect()
    }

    /// The take loaded.
    #[getter]
    fn take(&self) -> Option<String> {
        let s = &self.inner.source;
        s.take.and_then(|i| s.takes.get(i)).map(|t| t.name.clone())
    }

    /// Length unit of the file (`mm`, `cm`, `m`, `in`…), declared or detected.
    #[getter]
    fn units(&self) -> &'static str {
        self.inner.source.unit.symbol()
    }

    /// How the unit was settled: `declared` or `detected from the body's height`.
    #[getter]
    fn units_reason(&self) -> &'static str {
        if self.inner.source.unit_detected { "detected from the body's height" } else { "declared" }
    }

    /// Up axis of the file (`+Y`, `+Z`…), declared or detected.
    #[getter]
    fn up_axis(&self) -> String {
        self.inner.source.up_axis.signed_name()
    }

    /// How the up axis was settled: `declared`, or what decided it.
    #[getter]
    fn up_reason(&self) -> &'static str {
        if self.inner.source.up_detected { self.inner.source.up_reason } else { "declared" }
    }

    /// Problems that did not stop the load, as the command line prints them.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.iter().map(ToString::to_string).collect()
    }

    /// `joint.channel` for every column of `channels`.
    #[getter]
    fn channel_names(&self) -> Vec<String> {
        let f = self.inner.source.format;
        self.inner
            .skeleton
            .joints()
            .iter()
            .flat_map(|j| j.channels.iter().map(move |c| format!("{}.{}", j.name, f.channel_name(*c))))
            .collect()
    }

    /// Channel values, frames × channels (float32), in the file's own units (rotations in
    /// degrees where the file writes degrees); values the file left missing hold the last
    /// valid one (see `missing`).
    #[getter]
    fn channels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let m = &self.inner;
        let (n, c) = (m.clip.num_frames(), m.clip.channels_per_frame());
        let kinds: Vec<bool> = m.skeleton.joints().iter().flat_map(|j| j.channels.iter().map(|k| k.is_rotation())).collect();
        let degrees = m.source.angle_unit == "deg";
        let mut values = Vec::with_capacity(n * c);
        for f in 0..n {
            values.extend(m.clip.frame(f).iter().zip(&kinds).map(|(&v, &rot)| if rot && degrees { v.to_degrees() } else { v }));
        }
        Ok(Array2::from_shape_vec((n, c), values).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
    }

    /// True where the file held no value (NaN, Inf, a marker's gap), frames × channels.
    #[getter]
    fn missing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        runs_mask(py, &self.inner.clip, self.inner.clip.missing())
    }

    /// True where an edit filled a value in (gap filling), frames × channels.
    #[getter]
    fn filled<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        runs_mask(py, &self.inner.clip, self.inner.clip.filled())
    }

    /// A new motion with a recipe applied (this one is left as it is): TOML text, a dict or a
    /// list of steps, and/or operations as keyword arguments in the order given
    /// (`fill_gaps="spline"`, `filter=6.0` or `filter={"cutoff_hz": 6, "order": 2}`,
    /// `unroll=True`, `trim="10:80"`, `resample=60`…), as `skelview edit` applies them.
    #[pyo3(signature = (recipe=None, **operations))]
    fn edit(&self, py: Python<'_>, recipe: Option<&Bound<'_, PyAny>>, operations: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let recipe = crate::edit::recipe(py, recipe, operations)?;
        let m = self.inner.clone();
        let edited = py.detach(move || skelview_core::edit::apply(&m, &recipe, &|_| true)).map_err(|e| value_error(e.to_string()))?;
        Ok(Self::new(Arc::new(edited.motion)))
    }

    /// The humanoid bone map: VRM 1.0 bone → joint name, found from the file's own map, joint
    /// names or the tree's shape; `map` (TOML text, `[bones] hips = "Hips"`) over it.
    #[pyo3(signature = (map=None))]
    fn humanoid<'py>(&self, py: Python<'py>, map: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
        crate::retarget::humanoid(py, &self.inner, map)
    }

    /// This motion on `target`'s skeleton (its rest pose, offsets and units), bone by bone
    /// through the two humanoid bone maps (`map`, `target_map`: TOML text over the ones
    /// found); `scale` is "auto" (the hips' travel scaled by the legs) or a factor;
    /// `keep_feet` holds the feet still while the source's stand (leg IK).
    #[pyo3(signature = (target, *, map=None, target_map=None, scale=None, keep_feet=false))]
    fn retarget(
        &self,
        py: Python<'_>,
        target: &PyMotion,
        map: Option<&str>,
        target_map: Option<&str>,
        scale: Option<&Bound<'_, PyAny>>,
        keep_feet: bool,
    ) -> PyResult<Self> {
        crate::retarget::retarget_onto(py, &self.inner, &target.inner, map, target_map, scale, keep_feet).map(|m| Self::new(Arc::new(m)))
    }

    /// Writes the motion in the format `path`'s extension names (`skelview.formats()` lists the
    /// writers); a BVH keeps this motion's rotation order unless `order` is given.
    #[pyo3(signature = (path, *, order=None))]
    fn save(&self, py: Python<'_>, path: std::path::PathBuf, order: Option<&str>) -> PyResult<()> {
        let bvh = match order {
            Some(o) => BvhWriteOptions {
                order: BvhWriteOptions::parse_order(o)
                    .ok_or_else(|| value_error(format!("order must name X, Y and Z once each, such as \"ZXY\", not {o:?}")))?,
            },
            None => BvhWriteOptions::keeping(&self.inner),
        };
        write_with(py, &self.inner, &path, &bvh)
    }

    /// Joint positions, frames × joints × 3 (float32). `space="world"`: joint origins;
    /// `"local"`: each joint's offset from its parent in the parent's frame. `units="m"` or
    /// `"file"`; `y_up` turns the file's axes so +Y is up (world only). A joint whose position
    /// rests on a value the file left missing is NaN.
    #[pyo3(signature = (frames=None, *, space="world", units="m", y_up=true))]
    fn positions<'py>(
        &self,
        py: Python<'py>,
        frames: Option<Bound<'py, PyAny>>,
        space: &str,
        units: &str,
        y_up: bool,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let frames = self.frames(frames.as_ref())?;
        let local = match space {
            "world" => false,
            "local" => true,
            other => return Err(PyValueError::new_err(format!("space must be 'world' or 'local', not {other:?}"))),
        };
        let transform = if local { self.space(units, false)? } else { self.space(units, y_up)? };
        let space = if local { PositionSpace::Local } else { PositionSpace::World };
        let m = self.inner.clone();
        let values = py.detach(|| joint_positions(&m, &frames, space, transform, &Rayon));
        shaped3(py, values, frames.len(), m.skeleton.len(), 3)
    }

    /// Joint rotations: `kind="quat"` (x, y, z, w), frames × joints × 4, or `"matrix"`,
    /// frames × joints × 3 × 3; `space="local"` (relative to the parent, file axes) or
    /// `"world"` (display axes: metres, +Y up).
    #[pyo3(signature = (frames=None, *, kind="quat", space="local"))]
    fn rotations<'py>(&self, py: Python<'py>, frames: Option<Bound<'py, PyAny>>, kind: &str, space: &str) -> PyResult<Bound<'py, PyAny>> {
        let frames = self.frames(frames.as_ref())?;
        let world = match space {
            "world" => true,
            "local" => false,
            other => return Err(PyValueError::new_err(format!("space must be 'local' or 'world', not {other:?}"))),
        };
        let matrix = match kind {
            "quat" => false,
            "matrix" => true,
            other => return Err(PyValueError::new_err(format!("kind must be 'quat' or 'matrix', not {other:?}"))),
        };
        let m = self.inner.clone();
        let j = m.skeleton.len();
        let display = Quat::from_mat3(&Mat3::from_mat4(m.display_from_file()).mul_scalar(1.0 / m.metres_per_raw_unit().max(1e-30)));
        let space = if world { RotationSpace::World(display) } else { RotationSpace::Local };
        let values = py.detach(|| {
            let quats = joint_rotations(&m, &frames, space, &Rayon);
            // Row-major 3 × 3 from each quaternion.
            if matrix {
                quats.chunks(4).flat_map(|q| Mat3::from_quat(Quat::from_slice(q)).transpose().to_cols_array()).collect()
            } else {
                quats
            }
        });
        let n = frames.len();
        if matrix {
            Ok(Array4::from_shape_vec((n, j, 3, 3), values).map_err(|e| value_error(e.to_string()))?.into_pyarray(py).into_any())
        } else {
            Ok(shaped3(py, values, n, j, 4)?.into_any())
        }
    }

    /// The rest pose's joint positions, joints × 3 (float32).
    #[pyo3(signature = (*, units="m", y_up=true))]
    fn rest_positions<'py>(&self, py: Python<'py>, units: &str, y_up: bool) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let transform = self.space(units, y_up)?;
        let mut s = Sampler::default();
        let values: Vec<f32> =
            s.positions(&self.inner, PoseAt::Rest, Interpolation::Nearest, transform).iter().flat_map(|p| p.to_array()).collect();
        Ok(Array2::from_shape_vec((self.inner.skeleton.len(), 3), values).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
    }

    /// The meshes (glTF/VRM primitives), in the order `skelview info` lists them; empty
    /// for a file without meshes.
    #[getter]
    fn meshes(&self) -> Vec<PyMesh> {
        PyMesh::all(self.inner.meshes.as_ref())
    }

    /// Posed mesh vertices, frames × vertices × 3 (float32): every mesh's, one after another
    /// in `meshes` order, or mesh number `mesh`'s (negative from the end). `units` and `y_up`
    /// as `positions`, so vertices and joints share a space; morph targets and skins applied.
    #[pyo3(signature = (frames=None, *, mesh=None, units="m", y_up=true))]
    fn vertices<'py>(
        &self,
        py: Python<'py>,
        frames: Option<Bound<'py, PyAny>>,
        mesh: Option<isize>,
        units: &str,
        y_up: bool,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let m = self.inner.clone();
        let Some(set) = m.meshes.as_deref().filter(|s| !s.meshes.is_empty()) else {
            return Err(value_error(format!("{} has no meshes (Motion.meshes is empty)", self.path())));
        };
        let which = crate::mesh::chosen(set, mesh)?;
        let transform = self.space(units, y_up)?;
        let frames = self.frames(frames.as_ref())?;
        let count: usize = which.iter().map(|&k| set.meshes[k].positions.len()).sum();
        let values: Vec<f32> = py.detach(|| {
            let posed = skelview_core::core::mesh_frames::vertices(&m, &which, &frames, transform);
            posed.iter().flat_map(|v| v.to_array()).collect()
        });
        shaped3(py, values, frames.len(), count, 3)
    }

    /// True for a marker capture (C3D, TRC).
    #[getter]
    fn is_capture(&self) -> bool {
        self.inner.capture.is_some()
    }

    /// A capture's marker positions, frames × markers × 3 (float32), NaN in gaps; markers are
    /// the joints, in order.
    #[pyo3(signature = (*, units="m", y_up=true))]
    fn marker_positions<'py>(&self, py: Python<'py>, units: &str, y_up: bool) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let c = self.capture()?;
        let transform = self.space(units, y_up)?;
        let markers = c.marker_indices();
        let mut values = Vec::with_capacity(c.frames * markers.len() * 3);
        for f in 0..c.frames {
            for &p in &markers {
                values.extend(c.position(f, p).map_or(Vec3::NAN, |v| transform.transform_point3(v)).to_array());
            }
        }
        shaped3(py, values, c.frames, markers.len(), 3)
    }

    /// A capture's residuals, frames × markers (float32, the file's units), NaN in gaps.
    #[getter]
    fn residuals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let c = self.capture()?;
        let markers = c.marker_indices();
        let values: Vec<f32> = (0..c.frames).flat_map(|f| markers.iter().map(move |&p| c.residual(f, p).unwrap_or(f32::NAN))).collect();
        Ok(Array2::from_shape_vec((c.frames, markers.len()), values).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
    }

    /// A capture's analog channels: `{"names", "units", "rate", "values"}` (values: samples ×
    /// channels, float32, scale and offset applied).
    #[getter]
    fn analog<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = self.capture()?;
        let a = &c.analog;
        let d = PyDict::new(py);
        d.set_item("names", a.channels.iter().map(|ch| ch.label.clone()).collect::<Vec<_>>())?;
        d.set_item("units", a.channels.iter().map(|ch| ch.unit.clone()).collect::<Vec<_>>())?;
        d.set_item("rate", a.rate_hz)?;
        let values = Array2::from_shape_vec((a.samples(), a.channels.len()), a.values.clone()).map_err(|e| value_error(e.to_string()))?;
        d.set_item("values", values.into_pyarray(py))?;
        Ok(d)
    }

    /// A capture's events: `{"label", "context", "time"}` each, by time.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let c = self.capture()?;
        let list = PyList::empty(py);
        for e in &c.events {
            let d = PyDict::new(py);
            d.set_item("label", &e.label)?;
            d.set_item("context", &e.context)?;
            d.set_item("time", e.time_secs)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// A capture's force platforms: `{"type", "corners", "force", "moment", "cop",
    /// "free_moment"}` each (per analog sample, the lab's frame, float32), or `"error"`
    /// where the platform cannot be computed.
    fn force_plates<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let c = self.capture()?;
        let list = PyList::empty(py);
        for (plate, samples) in c.plates.iter().zip(skelview_core::core::force_plates::samples(c)) {
            let d = PyDict::new(py);
            d.set_item("type", plate.kind)?;
            let corners: Vec<f32> = plate.corners.iter().flat_map(|v| v.to_array()).collect();
            d.set_item("corners", Array2::from_shape_vec((4, 3), corners).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))?;
            match samples {
                Ok(s) => {
                    let n = s.len();
                    let column = |get: &dyn Fn(&skelview_core::core::capture::PlateSample) -> Vec3| -> PyResult<Bound<'py, PyArray2<f32>>> {
                        let v: Vec<f32> = s.iter().flat_map(|x| get(x).to_array()).collect();
                        Ok(Array2::from_shape_vec((n, 3), v).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
                    };
                    d.set_item("force", column(&|x| x.force)?)?;
                    d.set_item("moment", column(&|x| x.moment)?)?;
                    d.set_item("cop", column(&|x| x.cop)?)?;
                    d.set_item("free_moment", column(&|x| x.free_moment)?)?;
                }
                Err(e) => d.set_item("error", e.to_string())?,
            }
            list.append(d)?;
        }
        Ok(list)
    }

    /// Writes BVH to `path`, which must end in `.bvh` (rotations in `order`, any order of X,
    /// Y and Z, first listed outermost).
    #[pyo3(signature = (path, *, order="ZXY"))]
    fn to_bvh(&self, py: Python<'_>, path: std::path::PathBuf, order: &str) -> PyResult<()> {
        let order = BvhWriteOptions::parse_order(order)
            .ok_or_else(|| value_error(format!("order must name X, Y and Z once each, such as \"ZXY\", not {order:?}")))?;
        write_with(py, &self.inner, &with_extension(path, "bvh")?, &BvhWriteOptions { order })
    }

    /// Writes binary glTF (this take) to `path`, which must end in `.glb`.
    fn to_glb(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        write(py, &self.inner, &with_extension(path, "glb")?)
    }

    /// Writes TRC (a capture's markers, or the joints as virtual markers) to `path`, which
    /// must end in `.trc`.
    fn to_trc(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        write(py, &self.inner, &with_extension(path, "trc")?)
    }

    fn __repr__(&self) -> String {
        format!(
            "<skelview.Motion {} {}: {} joints, {} frames at {:.4} fps>",
            self.format(),
            self.path(),
            self.inner.skeleton.len(),
            self.frame_count(),
            self.fps()
        )
    }
}

impl PyMotion {
    fn capture(&self) -> PyResult<&Capture> {
        self.inner.capture.as_deref().ok_or_else(|| value_error(format!("{} is not a marker capture (C3D or TRC)", self.path())))
    }
}

/// A frames × channels mask, true in `runs`.
fn runs_mask<'py>(
    py: Python<'py>,
    clip: &skelview_core::core::Clip,
    runs: &[skelview_core::core::clip::MissingRun],
) -> PyResult<Bound<'py, PyArray2<bool>>> {
    let (n, c) = (clip.num_frames(), clip.channels_per_frame());
    let mut mask = vec![false; n * c];
    for r in runs {
        for f in r.first as usize..=r.last as usize {
            if let Some(slot) = mask.get_mut(f * c + r.channel as usize) {
                *slot = true;
            }
        }
    }
    Ok(Array2::from_shape_vec((n, c), mask).map_err(|e| value_error(e.to_string()))?.into_pyarray(py))
}

/// Writes `m` to `dst` in the format its extension names (the engine's one file writer).
pub fn write(py: Python<'_>, m: &Motion, dst: &Path) -> PyResult<()> {
    write_with(py, m, dst, &BvhWriteOptions::default())
}

/// [`write`], with a BVH's rotation order; what the file cannot keep is a `UserWarning`.
fn write_with(py: Python<'_>, m: &Motion, dst: &Path, bvh: &BvhWriteOptions) -> PyResult<()> {
    use skelview_core::export::files;
    let options = files::WriteOptions { bvh: *bvh };
    py.detach(|| files::write_file(m, dst, &options)).map_err(|e| write_error(dst, &e))?;
    for loss in files::writer_for(dst).map(|w| w.losses(m)).unwrap_or_default() {
        let message = std::ffi::CString::new(format!("{}: {loss}", dst.display())).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &message, 1)?;
    }
    Ok(())
}

/// `path` when it ends in `.ext` (any case): a writer named for one format does not write
/// another, nor quietly to a name the caller did not give.
fn with_extension(path: std::path::PathBuf, ext: &str) -> PyResult<std::path::PathBuf> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case(ext) => Ok(path),
        _ => Err(value_error(format!("{}: to_{ext} writes a .{ext} file (skelview.convert writes the other formats)", path.display()))),
    }
}
