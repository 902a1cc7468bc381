//! NumPy motions (`.npz`, `.npy`): SMPL-family poses (AMASS SMPL+H and SMPL-X, plain SMPL,
//! BEAT2/EMAGE, Motion-X) and HumanML3D joints, told apart by their arrays' names and
//! widths. Nothing is ever unpickled: of an object array only the strings its pickle holds are
//! read ([`pickle`]).
//!
//! Body models are the user's (their licences forbid redistribution): `--body-model FILE|FOLDER`
//! or `SKELVIEW_BODY_MODELS`. With one, the skeleton is the model's own (joints regressed from
//! the template shaped by `betas`), [`smpl::BodyModel::posed_vertices`] poses its mesh on the
//! CPU and [`body_mesh::body_mesh`] makes it a skinned mesh with its pose blend shapes;
//! without one, an approximate skeleton from anthropometric proportions ([`approx`]).

pub mod approx;
pub mod body_mesh;
pub mod build;
pub mod container;
pub mod expressions;
mod format;
pub mod humanml3d;
pub mod joints;
pub mod layouts;
pub mod lookup;
pub mod npy;
pub mod pickle;
pub mod smpl;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use body_mesh::body_mesh;
pub use format::{BODY_MODEL, FORMAT, GENDER, Npz, load_bytes};
pub use joints::Family;
pub use smpl::{BodyModel, Shaped};

use crate::core::units::{LengthUnit, UpAxis};
use crate::formats::finish::Parsed;
use layouts::{BodyMotion, Content, JointMotion};

/// Why a NumPy file, or a body model, cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum NpzError {
    /// Neither a `.npy` nor a zip.
    #[error("not a NumPy file (.npy or .npz)")]
    NotNumpy,
    /// The file cannot be opened or read.
    #[error("cannot be read: {0}")]
    Read(String),
    /// The archive is unreadable (truncated, not a zip).
    #[error("not a readable .npz (zip) archive: {0}")]
    Zip(String),
    /// One array cannot be read.
    #[error("array '{array}': {message}")]
    Array {
        /// Its name.
        array: String,
        /// What is wrong.
        message: String,
    },
    /// An array whose shape asks for more than any motion or model holds.
    #[error("array '{array}' is too large ({shape}): refused before reading it")]
    TooLarge {
        /// Its name.
        array: String,
        /// Its shape or size.
        shape: String,
    },
    /// The arrays fit no layout.
    #[error("{0}")]
    Layout(String),
    /// A body model's array is missing or does not fit the others.
    #[error("body model {}: array '{array}' {message}", file.display())]
    Model {
        /// The model file.
        file: PathBuf,
        /// The array.
        array: String,
        /// What is wrong.
        message: String,
    },
    /// A body model file that cannot be found or read.
    #[error("body model {}: {message}", file.display())]
    ModelFile {
        /// The file or folder.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Poses of one family with a model of another.
    #[error("{} holds {motion_family} poses ({motion_joints} joints) but the body model {} has {model_joints} joints: give a {motion_family} model", motion.display(), model.display())]
    Mismatch {
        /// The motion file.
        motion: PathBuf,
        /// Its family's name.
        motion_family: &'static str,
        /// Its joint count.
        motion_joints: usize,
        /// The model file.
        model: PathBuf,
        /// The model's joint count.
        model_joints: usize,
    },
}

/// How to read a file: the body model (file or folder) and the frame rate for files without one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadOptions {
    /// A model file, or a folder of them (`--body-model`, else `SKELVIEW_BODY_MODELS`).
    pub body_model: Option<PathBuf>,
    /// The gender whose model poses the motion instead of the file's (`--gender`).
    pub gender: Option<String>,
    /// Frames per second where the file states none (`--fps`).
    pub fps: Option<f64>,
    /// No body mesh: the model is read for its joints alone.
    pub skip_mesh: bool,
}

/// HumanML3D's frame rate.
pub const HUMANML3D_FPS: f64 = 20.0;
/// The rate assumed for a body motion that states none.
pub const DEFAULT_FPS: f64 = 30.0;

/// A file's motion, before units are settled: the parse result and warnings (as text).
pub fn parse(path: &Path, bytes: &[u8], options: &ReadOptions) -> Result<(Parsed, Vec<String>), NpzError> {
    let stem = path.file_stem().map_or_else(|| "array".into(), |s| s.to_string_lossy().into_owned());
    let mut arrays = container::read(bytes, &stem, None)?;
    match layouts::classify(&mut arrays)? {
        Content::Joints(m) => Ok(joint_motion(&m, options)),
        Content::Body(m) => body_motion(path, &m, options),
    }
}

/// HumanML3D joints: 22 joints on its kinematic chain, Y-up metres.
fn joint_motion(m: &JointMotion, options: &ReadOptions) -> (Parsed, Vec<String>) {
    let names: Vec<String> = joints::BODY.iter().map(|s| (*s).to_owned()).collect();
    let fps = options.fps.unwrap_or(HUMANML3D_FPS);
    let (skeleton, clip) = build::joints_skeleton_clip(m, &names, &joints::t2m_parents(), fps);
    let mut parsed = Parsed::new(skeleton, clip, "rad");
    parsed.unit = Some(LengthUnit::Metre);
    parsed.up = Some(UpAxis::Y);
    parsed.declared_frames = Some(m.frames as u64);
    parsed.details = vec![("layout".into(), m.kind.into()), ("frame rate".into(), format!("{fps} fps (HumanML3D's)"))];
    (parsed, Vec::new())
}

/// A body model's poses on the model's skeleton, or on an approximate one without a model.
fn body_motion(path: &Path, m: &BodyMotion, options: &ReadOptions) -> Result<(Parsed, Vec<String>), NpzError> {
    let mut warnings = Vec::new();
    let fps = m.fps.or(options.fps).unwrap_or_else(|| {
        warnings.push(format!("the file states no frame rate: read at {DEFAULT_FPS} fps (--fps sets another)"));
        DEFAULT_FPS
    });
    let family = m.family;
    let mut details = vec![
        ("layout".into(), m.kind.to_owned()),
        ("family".into(), format!("{} ({} joints)", family.name(), family.joints())),
        ("gender".into(), gender_detail(m.gender.as_deref(), options.gender.as_deref())),
        ("betas".into(), m.betas.len().to_string()),
    ];
    let (mut mesh, mut moving) = (None, None);
    let (rest, parents) = match model_for(m, options, &mut warnings)? {
        Some(model) => {
            if model.joints() != family.joints() {
                return Err(NpzError::Mismatch {
                    motion: path.to_owned(),
                    motion_family: family.name(),
                    motion_joints: family.joints(),
                    model_joints: model.joints(),
                    model: model.path.clone(),
                });
            }
            details.push(("body model".into(), model.path.display().to_string()));
            let shaped = model.shape(&m.betas);
            let expressed = expressions::expressed(&model, m, &mut warnings, &mut details);
            // The body drawn and posed like any character's (pose blend shapes included).
            let name = format!("{} body", family.name());
            mesh = body_mesh(&model, &shaped, &name, expressed.as_ref(), 1.0 / fps, &mut warnings);
            moving = expressed.map(|e| e.rest);
            (shaped.joints, model.parents.clone())
        }
        None => {
            details.push(("body model".into(), "none: approximate skeleton".into()));
            if m.expression_width > 0 {
                warnings
                    .push(format!("the file's {} expression coefficients per frame need a body model: not applied", m.expression_width));
            }
            (approx::rest_joints(family), family.parents())
        }
    };
    let skeleton = build::body_skeleton(&family.names(), &parents, &rest, moving.as_ref());
    let clip = build::body_clip(m, &parents, &rest, moving.as_ref(), fps);
    let mut parsed = Parsed::new(skeleton, clip, "quaternion");
    parsed.meshes = mesh.map(|mesh| crate::core::mesh::MeshSet { meshes: vec![mesh], ..Default::default() });
    parsed.unit = Some(LengthUnit::Metre);
    // AMASS's world is Z-up; elsewhere the body's frames tell.
    parsed.up = m.z_up.then_some(UpAxis::Z);
    parsed.declared_frames = Some(m.frames as u64);
    parsed.details = details;
    Ok((parsed, warnings))
}

/// The gender the file states, and the one chosen instead (`--gender`).
fn gender_detail(stated: Option<&str>, chosen: Option<&str>) -> String {
    let stated = stated.unwrap_or("not stated");
    match chosen {
        Some(chosen) => format!("{chosen} (chosen; the file: {stated})"),
        None => stated.to_owned(),
    }
}

/// The body model for `m`, read for its joints; `None` (with a warning) when none is set or
/// the folder holds none for the motion's family.
fn model_for(m: &BodyMotion, options: &ReadOptions, warnings: &mut Vec<String>) -> Result<Option<Arc<BodyModel>>, NpzError> {
    let how = format!("a {} body model gives the true skeleton: --body-model FILE|FOLDER or {}", m.family.name(), lookup::BODY_MODELS_ENV);
    let Some(given) = &options.body_model else {
        warnings.push(format!("approximate skeleton (proportions of a 1.7 m body): {how}"));
        return Ok(None);
    };
    match lookup::find(given, m.family, options.gender.as_deref().or(m.gender.as_deref())) {
        Ok((file, note)) => {
            warnings.extend(note);
            BodyModel::read_kept(&file, !options.skip_mesh).map(Some)
        }
        Err(e) => {
            warnings.push(format!("approximate skeleton: {e}; {how}"));
            Ok(None)
        }
    }
}
