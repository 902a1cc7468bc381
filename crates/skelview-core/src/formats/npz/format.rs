//! NumPy motions in the format table.

use std::path::Path;

use super::{ReadOptions, lookup};
use crate::core::{Format, Motion, Warning};
use crate::formats::error::LoadError;
use crate::formats::file_format::{Declaration, Declares, FileFormat};
use crate::formats::finish;
use crate::formats::options::{Choice, FormatOption, OptionScope, OptionValues};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "NumPy",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (the root's translation is the rest pelvis plus trans)",
    assumed_rate_note: None,
    file_quaternions: false,
};

/// The format's options: the user's body model (a model `.npz`, or a folder laid out as the
/// `smplx` package expects), and which gender's model of a folder poses the motion.
pub static OPTIONS: [FormatOption; 2] = [
    FormatOption {
        key: "npz.body_model",
        alias: Some("body-model"),
        label: "Body model",
        help: "the SMPL, SMPL+H or SMPL-X body model (a model .npz, or a folder with smpl/, smplh/, smplx/) that gives the true skeleton; else SKELVIEW_BODY_MODELS, else an approximate skeleton",
        scope: OptionScope::User,
        values: OptionValues::Path { hint: "FILE|FOLDER" },
    },
    FormatOption {
        key: "npz.gender",
        alias: Some("gender"),
        label: "Body model gender",
        help: "which gender's model of a body model folder poses the motion: the one the file states (neutral when it states none), or neutral, female or male",
        scope: OptionScope::File,
        values: OptionValues::Choice {
            choices: &[
                Choice { value: "file", label: "as the file says (default)" },
                Choice { value: "neutral", label: "neutral" },
                Choice { value: "female", label: "female" },
                Choice { value: "male", label: "male" },
            ],
            default: "file",
        },
    },
];

/// The user's body model option.
pub static BODY_MODEL: &FormatOption = &OPTIONS[0];
/// The body model gender option.
pub static GENDER: &FormatOption = &OPTIONS[1];

/// SMPL-family motions and HumanML3D joints in NumPy files.
pub struct Npz;

impl Declares for Npz {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "NumPy arrays: SMPL, SMPL+H and SMPL-X poses (AMASS, BEAT2, Motion-X) and HumanML3D joints",
        extensions: &["npz", "npy"],
        // NumPy files are anyone's data: skelview does not make itself their desktop default.
        mime_types: &[],
        sniff: |_text, raw| raw.starts_with(b"\x93NUMPY"),
    };
}

impl FileFormat for Npz {
    fn options(&self) -> &'static [FormatOption] {
        &OPTIONS
    }

    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        let body_model = BODY_MODEL.path(&options.format).or_else(|| std::env::var_os(lookup::BODY_MODELS_ENV).map(Into::into));
        let gender = Some(GENDER.choice(&options.format)).filter(|g| *g != "file").map(str::to_owned);
        let read = ReadOptions { body_model, gender, fps: options.sample_fps, skip_mesh: options.skip_meshes };
        load_bytes(source.path(), &bytes, &read, observer)
    }
}

/// Loads a NumPy motion from `bytes` with explicit options (no environment read).
pub fn load_bytes(path: &Path, bytes: &[u8], options: &ReadOptions, observer: &mut dyn LoadObserver) -> Result<Motion, LoadError> {
    let path = path.to_owned();
    let total = bytes.len() as u64;
    if observer.progress(0, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let (parsed, messages) =
        super::parse(&path, bytes, options).map_err(|e| LoadError::Unsupported { path: path.clone(), message: e.to_string() })?;
    observer.skeleton_ready(&parsed.skeleton, &parsed.clip);
    if observer.progress(total, Some(total)).is_break() {
        return Err(LoadError::Cancelled { path });
    }
    let warnings = messages.into_iter().map(|message| Warning { path: path.clone(), line: 1, col: 1, message }).collect();
    Ok(finish::motion(FORMAT, vec![path], parsed, warnings))
}
