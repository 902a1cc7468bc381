//! `import skelview`: the engine as a Python extension module. Every loader, the capture
//! checks and the writers, with NumPy arrays out; loading releases the GIL, and `load_many`
//! parses files in parallel on rayon's pool.

mod edit;
mod errors;
mod mesh;
mod motion;
mod retarget;

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use skelview_core::core::Motion;
use skelview_core::formats::{self as engine, LoadOptions, LoadRequest, Quiet, Rayon};

use errors::{LoadError, load_error, value_error};
use motion::PyMotion;

/// Big buffers on 2 MB pages where Linux allows it (see `BigPages`): a big capture's load
/// waits on far fewer page faults.
#[global_allocator]
static ALLOCATOR: skelview_core::big_pages::BigPages = skelview_core::big_pages::BigPages;

/// The load options the keyword arguments ask for: `options` sets any format option by key
/// (`{"fbx.joints": "bones"}`), and `aliases` the options that have a keyword of their own in
/// the format table (`bvh_positions=`, `amc_fps=`).
fn options(
    take: Option<String>,
    fps: Option<f64>,
    meshes: bool,
    options: Option<&Bound<'_, PyDict>>,
    aliases: Option<&Bound<'_, PyDict>>,
) -> PyResult<LoadOptions> {
    if let Some(r) = fps.filter(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(value_error(format!("fps must be a number of frames per second above 0, not {r}")));
    }
    let mut o = LoadOptions { take, sample_fps: fps, skip_meshes: !meshes, ..LoadOptions::default() };
    // A value as the table takes it: text, or a number or True/False written out.
    let text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
        match v.extract::<String>() {
            Ok(t) => Ok(t),
            Err(_) => Ok(v.str()?.to_cow()?.into_owned()),
        }
    };
    for (key, value) in aliases.into_iter().flat_map(|a| a.iter()) {
        let name: String = key.extract()?;
        let Some(option) = engine::table::option_by_alias(&name) else {
            let known: Vec<String> = engine::table::all_options().filter_map(|o| o.alias).map(|a| a.replace('-', "_")).collect();
            return Err(PyTypeError::new_err(format!(
                "unexpected keyword argument '{name}' (format options by keyword: {}; any by key: options={{\"KEY\": VALUE}})",
                known.join(", ")
            )));
        };
        if value.is_none() {
            continue;
        }
        o.format.set(option.key, &text(&value)?).map_err(|e| value_error(format!("{name}: {e}")))?;
    }
    for (key, value) in options.into_iter().flat_map(|a| a.iter()) {
        let key: String = key.extract()?;
        o.format.set(&key, &text(&value)?).map_err(|e| value_error(e.to_string()))?;
    }
    Ok(o)
}

/// Loads one path (an `.amc` finds its `.asf` beside it) on the calling thread's pool.
fn load_path(path: &std::path::Path, options: &LoadOptions) -> Result<Motion, engine::LoadError> {
    engine::open_one(path, options, &Rayon)
}

/// Reads a motion file: BVH, ASF/AMC, HTR/GTR, ACL, H-Anim, FBX, glTF/VRM, C3D or TRC;
/// `meshes=False` reads no meshes (a character's, or a body model's: joints only, faster).
#[pyfunction]
#[pyo3(signature = (path, *, take=None, fps=None, meshes=true, options=None, **aliases))]
fn load(
    py: Python<'_>,
    path: PathBuf,
    take: Option<String>,
    fps: Option<f64>,
    meshes: bool,
    options: Option<&Bound<'_, PyDict>>,
    aliases: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyMotion> {
    let o = self::options(take, fps, meshes, options, aliases)?;
    wrap(py, py.detach(|| load_path(&path, &o)))
}

/// A load's result as Python sees it.
fn wrap(py: Python<'_>, loaded: Result<Motion, engine::LoadError>) -> PyResult<PyMotion> {
    loaded.map(|m| PyMotion::new(Arc::new(m))).map_err(|e| load_error(py, &e))
}

/// Reads a motion from bytes in memory; `name` (a file name) chooses the format and names it
/// in messages.
#[pyfunction]
#[pyo3(signature = (data, name, *, take=None, fps=None, meshes=true, options=None, **aliases))]
fn load_bytes(
    py: Python<'_>,
    data: Vec<u8>,
    name: String,
    take: Option<String>,
    fps: Option<f64>,
    meshes: bool,
    options: Option<&Bound<'_, PyDict>>,
    aliases: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyMotion> {
    let o = self::options(take, fps, meshes, options, aliases)?;
    wrap(
        py,
        py.detach(|| {
            let request = LoadRequest::memory(name, data)?;
            engine::load(&request, &o, &Rayon, &mut Quiet)
        }),
    )
}

/// Reads many files in parallel (all cores, or `workers` threads) with the GIL released;
/// the first file that fails raises its `LoadError`.
#[pyfunction]
#[pyo3(signature = (paths, workers=None, *, take=None, fps=None, meshes=true, options=None, **aliases))]
fn load_many(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    workers: Option<usize>,
    take: Option<String>,
    fps: Option<f64>,
    meshes: bool,
    options: Option<&Bound<'_, PyDict>>,
    aliases: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<PyMotion>> {
    let o = self::options(take, fps, meshes, options, aliases)?;
    if workers == Some(0) {
        return Err(value_error("workers must be at least 1 (None: every core)"));
    }
    // More threads than files would only start idle ones.
    let threads = workers.map_or(0, |w| w.min(paths.len().max(1)));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| value_error(e.to_string()))?;
    let loaded: Vec<Result<Motion, engine::LoadError>> =
        py.detach(|| pool.install(|| paths.par_iter().map(|p| load_path(p, &o)).collect()));
    loaded.into_iter().map(|r| wrap(py, r)).collect()
}

/// Every format skelview reads: name, description, extensions, whether `convert` writes it,
/// and its read options.
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for f in engine::FORMATS.iter() {
        let d = PyDict::new(py);
        d.set_item("name", f.name())?;
        d.set_item("description", f.description())?;
        d.set_item("extensions", f.extensions().to_vec())?;
        d.set_item("writes", engine::table::writer_of(*f).is_some())?;
        let options = PyList::empty(py);
        for o in f.options() {
            options.append(option_dict(py, o)?)?;
        }
        d.set_item("options", options)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Every edit operation `Motion.edit` takes, from the engine's declarations: `name` (the
/// keyword), `label`, `help`, `keyword_value` (the parameter a plain keyword value sets, or
/// None) and `params` (each: `key`, `kind`, `help`, `required`, `default`, `start`, and `min`,
/// `max`, `unit`, `integer` or `choices` by kind).
#[pyfunction]
fn operations(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    use skelview_core::edit::spec::Kind;
    let list = PyList::empty(py);
    for spec in skelview_core::edit::OPERATIONS.iter().copied() {
        let d = PyDict::new(py);
        d.set_item("name", spec.name)?;
        d.set_item("label", spec.label)?;
        d.set_item("help", spec.help)?;
        d.set_item("keyword_value", spec.main_param().map(|p| p.key))?;
        let params = PyList::empty(py);
        for p in spec.params {
            let q = PyDict::new(py);
            q.set_item("key", p.key)?;
            q.set_item("help", p.help)?;
            q.set_item("required", p.kind.required())?;
            q.set_item("default", p.kind.default_text())?;
            q.set_item("start", p.kind.form_start())?;
            let kind = match &p.kind {
                Kind::Number { min, max, integer, unit, .. } => {
                    q.set_item("min", *min)?;
                    q.set_item("max", *max)?;
                    q.set_item("integer", *integer)?;
                    q.set_item("unit", *unit)?;
                    "number"
                }
                Kind::Choice { choices, .. } => {
                    q.set_item("choices", choices.to_vec())?;
                    "choice"
                }
                Kind::Text { .. } => "text",
                Kind::Names => "names",
                Kind::Range { .. } => "range",
            };
            q.set_item("kind", kind)?;
            params.append(q)?;
        }
        d.set_item("params", params)?;
        list.append(d)?;
    }
    Ok(list)
}

/// A format option as `formats()` lists it: key, keyword (when it has one), label, help, and
/// its values (`choices`, or `min`, `max` and `unit`) with the `default`.
fn option_dict<'py>(py: Python<'py>, o: &engine::FormatOption) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("key", o.key)?;
    d.set_item("keyword", o.alias.map(|a| a.replace('-', "_")))?;
    d.set_item("label", o.label)?;
    d.set_item("help", o.help)?;
    match &o.values {
        engine::OptionValues::Choice { choices, default } => {
            d.set_item("choices", choices.iter().map(|c| c.value).collect::<Vec<_>>())?;
            d.set_item("default", *default)?;
        }
        engine::OptionValues::Number { min, max, default, unit, .. } => {
            d.set_item("min", *min)?;
            d.set_item("max", *max)?;
            d.set_item("unit", *unit)?;
            d.set_item("default", *default)?;
        }
        engine::OptionValues::Path { hint } => {
            d.set_item("path", *hint)?;
            d.set_item("default", py.None())?;
        }
    }
    Ok(d)
}

/// The capture checks of a motion (or of the file at a path): the records `skelview qa
/// --json` prints, one dict per finding, then a `summary` dict.
#[pyfunction]
#[pyo3(signature = (path_or_motion, *, kinds=None, thresholds=None))]
fn qa(
    py: Python<'_>,
    path_or_motion: &Bound<'_, PyAny>,
    kinds: Option<&Bound<'_, PyAny>>,
    thresholds: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    use skelview_core::qa::{self, Kind, Thresholds};
    let (motion, file) = match path_or_motion.extract::<PyRef<'_, PyMotion>>() {
        Ok(m) => (m.inner.clone(), m.inner.source.paths.last().map(|p| p.display().to_string()).unwrap_or_default()),
        Err(_) => {
            let path: PathBuf = path_or_motion.extract()?;
            let m = py.detach(|| load_path(&path, &LoadOptions::default())).map_err(|e| load_error(py, &e))?;
            (Arc::new(m), path.display().to_string())
        }
    };
    // One kind's name, a comma-separated list as the command line takes, or a list of names.
    let kinds = match kinds {
        None => Kind::ALL.to_vec(),
        Some(k) => {
            let names = match k.extract::<String>() {
                Ok(one) => one,
                Err(_) => k
                    .extract::<Vec<String>>()
                    .map_err(|_| PyTypeError::new_err("kinds must be a kind's name or a list of names"))?
                    .join(","),
            };
            Kind::parse_list(&names).map_err(|e| value_error(e.to_string()))?
        }
    };
    // TOML text (the command line's `--thresholds` file) or a dict of the same tables.
    let thresholds = match thresholds {
        None => Thresholds::default(),
        Some(t) => match t.extract::<String>() {
            Ok(text) => Thresholds::from_toml(&text).map_err(|e| value_error(e.to_string()))?,
            Err(_) if t.is_instance_of::<PyDict>() => {
                let json: String = py.import("json")?.call_method1("dumps", (t,))?.extract()?;
                let parsed: Thresholds = serde_json::from_str(&json).map_err(|e| value_error(format!("thresholds: {e}")))?;
                parsed.check().map_err(|e| value_error(e.to_string()))?;
                parsed
            }
            Err(_) => return Err(PyTypeError::new_err("thresholds must be TOML text or a dict such as {\"pop\": {\"factor\": 10.0}}")),
        },
    };
    let records = py.detach(|| {
        let report = qa::analyse(&motion, &thresholds, &kinds, &|_| {});
        qa::json_records(&file, &motion, &report)
    });
    let text = serde_json::to_string(&records).map_err(|e| value_error(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// Measures over time (the command line's `measure`): `distance=[(a, b)]`,
/// `angle=[(a, b, c)]` (at b), `speed=[j]`, `accel=[j]`, by joint name, at `frames` (all by
/// default). Returns `{"frame", "time"}` arrays and one float64 array per measure, keyed by its
/// label (`distance LeftHand RightHand [m]`); NaN where a value rests on missing data.
#[pyfunction]
#[pyo3(signature = (motion, *, distance=None, angle=None, speed=None, accel=None, frames=None))]
fn measure<'py>(
    py: Python<'py>,
    motion: PyRef<'py, PyMotion>,
    distance: Option<Vec<(String, String)>>,
    angle: Option<Vec<(String, String, String)>>,
    speed: Option<Vec<String>>,
    accel: Option<Vec<String>>,
    frames: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    use numpy::IntoPyArray;
    use skelview_core::core::measure::{Measure, series};
    let m = motion.inner.clone();
    let joint = |name: &str| {
        m.skeleton
            .joint_named(name)
            .map_err(|e| value_error(if e.like.is_empty() { format!("{e} (Motion.joint_names lists them)") } else { e.to_string() }))
    };
    let mut measures = Vec::new();
    for (a, b) in distance.unwrap_or_default() {
        measures.push(Measure::Distance(joint(&a)?, joint(&b)?));
    }
    for (a, b, c) in angle.unwrap_or_default() {
        measures.push(Measure::Angle(joint(&a)?, joint(&b)?, joint(&c)?));
    }
    for j in speed.unwrap_or_default() {
        measures.push(Measure::Speed(joint(&j)?));
    }
    for j in accel.unwrap_or_default() {
        measures.push(Measure::Acceleration(joint(&j)?));
    }
    let list = motion.frames(frames.as_ref())?;
    let columns = py.detach(|| series(&m, &measures, &list, m.display_from_file(), &|_| true)).unwrap_or_default();
    let d = PyDict::new(py);
    d.set_item("frame", list.iter().map(|&f| f as i64).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("time", list.iter().map(|&f| f as f64 * m.clip.frame_time_secs).collect::<Vec<_>>().into_pyarray(py))?;
    let names = |j: usize| m.skeleton.joints()[j].name.clone();
    for (measure, column) in measures.iter().zip(columns) {
        d.set_item(measure.label(&names), column.into_pyarray(py))?;
    }
    Ok(d)
}

/// Converts a motion file: the output's extension chooses BVH, glTF (`.glb`/`.gltf`), TRC or
/// (for a C3D's force platforms) OpenSim MOT.
#[pyfunction]
#[pyo3(signature = (src, dst, *, take=None))]
fn convert(py: Python<'_>, src: PathBuf, dst: PathBuf, take: Option<String>) -> PyResult<()> {
    let o = self::options(take, None, true, None, None)?;
    let m = py.detach(|| load_path(&src, &o)).map_err(|e| load_error(py, &e))?;
    motion::write(py, &m, &dst)
}

/// The threads rayon starts when not told: `RAYON_NUM_THREADS` when set above 0, else one
/// per core.
fn rayon_default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The extension module.
#[pymodule]
fn _skelview(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The importing thread (usually Python's main thread) joins the pool: its calls then take
    // a share of their own parallel work at once, and jobs no helper has started yet run on it,
    // instead of the call waiting for a sleeping worker to wake (after a busy stretch of
    // Python, that wait cost more than the parallelism gained). Fails harmlessly when the
    // pool was already set up.
    // With one thread the importing thread would be the pool's only worker, and it runs
    // jobs only while it waits in a call of its own: a call from another Python thread would
    // wait for ever. So it joins only a pool of two threads or more.
    let builder = rayon::ThreadPoolBuilder::new();
    let _ = if rayon_default_threads() >= 2 { builder.use_current_thread() } else { builder }.build_global();
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(load_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(load_many, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(qa, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(measure, m)?)?;
    m.add_class::<PyMotion>()?;
    m.add_class::<mesh::PyMesh>()?;
    m.add("LoadError", m.py().get_type::<LoadError>())?;
    Ok(())
}
