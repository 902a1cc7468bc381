//! Autodesk FBX (`.fbx`, ASCII and binary, 6.1 to 7.7), read with the `ufbx` library: bones
//! (and the nulls that carry them) as the skeleton, every animation stack a take, each frame
//! the pose the file evaluates to. See [`nodes`] for the skeleton, [`sample`] for the takes and
//! [`meshes`] for the meshes bound to the skeleton.

mod mesh_context;
pub mod meshes;
#[cfg(target_arch = "wasm32")]
mod no_libc;
pub mod nodes;
pub mod sample;
mod skin;

use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{Format, Motion};
use crate::formats::error::{LoadError, ParseError, RawWarning};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, contains};
use crate::formats::finish;
use crate::formats::options::{Choice, FormatOption, OptionScope, OptionValues};
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "FBX",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (each frame holds the node's evaluated local transform)",
    assumed_rate_note: None,
    file_quaternions: true,
};

/// Memory ufbx may use for any file, and per byte of the file on top.
const MEMORY_LIMIT_BASE: usize = 256 << 20;
const MEMORY_LIMIT_PER_BYTE: usize = 64;

/// Autodesk FBX scenes with skeletons and animation stacks.
pub struct Fbx;

/// A declared axis as a direction (`None` when ufbx could not read one).
fn axis_of(axis: ::ufbx::CoordinateAxis) -> Option<UpAxis> {
    use ::ufbx::CoordinateAxis::*;
    Some(match axis {
        PositiveX => UpAxis::X,
        NegativeX => UpAxis::NegX,
        PositiveY => UpAxis::Y,
        NegativeY => UpAxis::NegY,
        PositiveZ => UpAxis::Z,
        NegativeZ => UpAxis::NegZ,
        Unknown => return None,
    })
}

/// ufbx's own words for why a file did not load.
fn describe(e: &::ufbx::Error) -> String {
    let info = e.info().trim();
    let what = e.description.trim();
    let what = if what.is_empty() { format!("{:?}", e.type_) } else { what.to_owned() };
    if info.is_empty() { format!("not a readable FBX file: {what}") } else { format!("not a readable FBX file: {what} ({info})") }
}

/// Which nodes are joints: the guess that a skin's bones are (3ds Max and Rokoko bodies of
/// helpers), or only the nodes FBX calls skeleton nodes.
pub static SKIN_JOINTS: FormatOption = FormatOption {
    key: "fbx.joints",
    alias: None,
    label: "FBX joints",
    help: "whether every node a skin binds to is a joint (helpers and nulls of 3ds Max and Rokoko bodies) or only skeleton nodes (LimbNode, Limb, Root)",
    scope: OptionScope::File,
    values: OptionValues::Choice {
        choices: &[
            Choice { value: "skin", label: "bones and what the skin binds to (default)" },
            Choice { value: "bones", label: "skeleton nodes only (LimbNode, Limb, Root)" },
        ],
        default: "skin",
    },
};

/// Reads the scene and builds the motion of the take `take` (a name or an index; by the
/// take list's rule when `None`), sampled at `fps` when given, else at the file's rate.
pub fn parse(
    bytes: &[u8],
    take: Option<&str>,
    fps: Option<f64>,
    parallel: &dyn Parallel,
    skin_joints: bool,
) -> Result<(finish::Parsed, Vec<RawWarning>), ParseError> {
    let scene = load_scene(bytes)?;
    let mut warnings = ufbx_warnings(&scene);
    let nodes = nodes::choose(&scene, skin_joints)?;
    warnings.extend(nodes.warnings.iter().map(|m| RawWarning { offset: 0, message: m.clone() }));
    let (mut parsed, more) = sample::build(&scene, &nodes, take, fps, parallel)?;
    warnings.extend(more);
    let chosen = parsed.takes.1;
    let (begin, end, _) = chosen.and_then(|c| scene.anim_stacks.get(c)).map_or((0.0, 0.0, false), |s| sample::span(s));
    let (fps, frames) = (parsed.clip.fps(), parsed.clip.num_frames());
    let sampling = meshes::Sampling { take: chosen, begin, end, fps, frames };
    parsed.meshes = Some(meshes::read(&scene, &nodes, &sampling, &mut warnings));

    let s = &scene.settings;
    let mut details = file_details(&scene, &mut warnings);
    details.extend(std::mem::take(&mut parsed.details));
    parsed.details = details;
    let declared = LengthUnit::of_metres(s.unit_meters);
    parsed.unit = declared.map(|(u, _)| u);
    parsed.length_divisor = declared.map_or(1.0, |(_, d)| d);
    parsed.declared_units = declared.map(|(u, d)| {
        if d == 1.0 {
            format!("{} (UnitScaleFactor {})", u.symbol(), s.unit_meters * 100.0)
        } else {
            format!("UnitScaleFactor {}", s.unit_meters * 100.0)
        }
    });
    parsed.up = axis_of(s.axes.up);
    Ok((parsed, warnings))
}

/// Loads the scene with ufbx, within a memory limit that grows with the file's size.
fn load_scene(bytes: &[u8]) -> Result<::ufbx::SceneRoot, ParseError> {
    // Array lengths in a binary file are claims: without a limit a damaged one asks for
    // gigabytes. Compressed arrays may legitimately expand, hence the room per byte of file.
    let limit = MEMORY_LIMIT_BASE.saturating_add(bytes.len().saturating_mul(MEMORY_LIMIT_PER_BYTE));
    let allocator = || ::ufbx::AllocatorOpts { memory_limit: limit, ..Default::default() };
    let opts = ::ufbx::LoadOpts {
        temp_allocator: allocator(),
        result_allocator: allocator(),
        file_format: ::ufbx::FileFormat::Fbx,
        no_format_from_content: true,
        // Geometry for the meshes; embedded content for their textures (PNG and JPEG decoded).
        // Scale helper nodes keep every inherit mode exact with plain parent × child products;
        // the helpers become joints only where a skin follows a scale a take changes (`nodes`).
        inherit_mode_handling: ::ufbx::InheritModeHandling::HelperNodes,
        ..Default::default()
    };
    ::ufbx::load_memory(bytes, opts).map_err(|e| ParseError::invalid(0, describe(&e)))
}

/// ufbx's warnings, one line per kind with its count: ufbx reports each kind once per place.
fn ufbx_warnings(scene: &::ufbx::Scene) -> Vec<RawWarning> {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for w in scene.metadata.warnings.iter() {
        let text = w.description.trim().to_owned();
        match kinds.iter_mut().find(|(t, _)| *t == text) {
            Some((_, n)) => *n += w.count.max(1),
            None => kinds.push((text, w.count.max(1))),
        }
    }
    kinds
        .into_iter()
        .map(|(text, n)| {
            let times = if n > 1 { format!(" ({n} times)") } else { String::new() };
            RawWarning { offset: 0, message: format!("{text}{times} (ufbx)") }
        })
        .collect()
}

/// The file's facts for the inspector: version, creator, application, unit and axes; a
/// left-handed axis system is also warned about (it is shown mirrored).
fn file_details(scene: &::ufbx::Scene, warnings: &mut Vec<RawWarning>) -> Vec<(String, String)> {
    let m = &scene.metadata;
    let s = &scene.settings;
    let version = format!("{}.{}", m.version / 1000, (m.version % 1000) / 100);
    let mut details = vec![("FBX version".to_owned(), format!("{version} {}", if m.ascii { "ASCII" } else { "binary" }))];
    if !m.creator.is_empty() {
        details.push(("Creator".into(), m.creator.to_string()));
    }
    let app = &m.original_application;
    if !app.name.is_empty() {
        details.push(("Application".into(), format!("{} {} {}", app.vendor, app.name, app.version).trim().to_owned()));
    }
    details.push(("UnitScaleFactor".into(), format!("{} (1 unit = {} m)", s.unit_meters * 100.0, s.unit_meters)));
    if let [Some(right), Some(up), Some(front)] = [s.axes.right, s.axes.up, s.axes.front].map(axis_of) {
        let right_handed = right.vector().cross(up.vector()).dot(front.vector()) > 0.5;
        let hand = if right_handed { "right-handed" } else { "left-handed" };
        let [r, u, f] = [right, up, front].map(UpAxis::signed_name);
        details.push(("Axes".into(), format!("up {u}, front {f}, right {r} ({hand})")));
        if !right_handed {
            warnings.push(RawWarning {
                offset: 0,
                message: format!(
                    "left-handed axis system (up {u}, front {f}, right {r}): shown as if right-handed, so the figure is mirrored"
                ),
            });
        }
    }
    details
}

impl Declares for Fbx {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "Autodesk FBX scene with a skeleton and animation stacks (ASCII or binary, 6.1 to 7.7)",
        extensions: &["fbx"],
        mime_types: &[MimeType {
            name: "application/vnd.autodesk.fbx",
            comment: "Autodesk FBX scene",
            globs: &["*.fbx"],
            parent: "application/octet-stream",
            glob_weight: 50,
            magic: &[("Kaydara FBX Binary", "0:0"), ("; FBX ", "0:0")],
        }],
        sniff: |text, raw| raw.starts_with(b"Kaydara FBX Binary") || text.starts_with(b"; fbx") || contains(text, b"fbxheaderextension:"),
    };
}

impl FileFormat for Fbx {
    fn options(&self) -> &'static [FormatOption] {
        std::slice::from_ref(&SKIN_JOINTS)
    }
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        let path = source.path().to_owned();
        let take = options.take.as_deref();
        let skin_joints = SKIN_JOINTS.choice(&options.format) == "skin";
        finish::single(FORMAT, &path, &bytes, observer, |b| parse(b, take, options.sample_fps, parallel, skin_joints))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_is_an_error_not_a_panic() {
        for bytes in [&b""[..], b"Kaydara FBX Binary  \0\x1a\0", b"; FBX 7.4.0 project file\nFBXHeaderExtension:  {", b"\xff\xfe junk"] {
            let e = parse(bytes, None, None, &crate::formats::Sequential, true).err().expect("junk must not load");
            let text = e.to_string();
            assert!(text.contains("not a readable FBX file") || text.contains("nothing to show"), "{text}");
        }
    }
}
