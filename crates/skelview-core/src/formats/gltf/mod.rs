//! glTF 2.0 (`.gltf` with external or embedded buffers, `.glb`), read with the `gltf` crate:
//! skins' joints (or animated nodes) as the skeleton, every animation a take. See
//! [`build`] for the mapping and [`sample`] for the samplers.

mod accessor;
pub mod build;
pub(crate) mod images;
mod invalid;
pub mod meshes;
pub mod sample;
pub mod vrm;

use crate::core::{Format, Motion};
use crate::formats::error::{LoadError, ParseError};
use crate::formats::file_format::{Declaration, Declares, FileFormat, MimeType, contains};
use crate::formats::finish;
use crate::formats::{LoadObserver, LoadOptions, Parallel, Source};

/// What the rest of the program needs to know of this format.
pub const FORMAT: Format = Format {
    name: "glTF",
    channel_names: crate::core::ChannelNames::Short,
    joints_at_far_end: false,
    position_note: "replace (a translation channel replaces the node's translation)",
    assumed_rate_note: None,
    file_quaternions: true,
};

/// glTF 2.0 scenes with skins and animations.
pub struct Gltf;

/// The byte offset of a 1-based line and column (for JSON errors, which give those).
fn offset_of(bytes: &[u8], line: usize, column: usize) -> u64 {
    let mut at = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &bytes[at..]) {
            Some(k) => at += k + 1,
            None => return bytes.len() as u64,
        }
    }
    (at + column.saturating_sub(1)).min(bytes.len()) as u64
}

/// Refuses what the crate's validation lets through and its accessors then panic on: unknown
/// enumeration values (a channel `path` of `"botation"`) and channels aimed at nodes that do
/// not exist (animation channels' targets are not validated).
fn check_unvalidated(json: &::gltf::json::Root) -> Result<(), ParseError> {
    use ::gltf::json::validation::Checked;
    let bad = |what: String| Err(ParseError::invalid(0, format!("not a valid glTF file: {what} has an unknown value")));
    for (a, anim) in json.animations.iter().enumerate() {
        for (c, channel) in anim.channels.iter().enumerate() {
            if let Checked::Invalid = channel.target.path {
                return bad(format!("animation {a} channel {c}'s target path"));
            }
            if channel.target.node.value() >= json.nodes.len() {
                return Err(ParseError::invalid(
                    0,
                    format!("animation {a} channel {c} targets node {} of {}", channel.target.node.value(), json.nodes.len()),
                ));
            }
        }
        for (k, sampler) in anim.samplers.iter().enumerate() {
            if let Checked::Invalid = sampler.interpolation {
                return bad(format!("animation {a} sampler {k}'s interpolation"));
            }
        }
    }
    for (k, accessor) in json.accessors.iter().enumerate() {
        let sparse = accessor.sparse.as_ref().is_some_and(|s| matches!(s.indices.component_type, Checked::Invalid));
        if matches!(accessor.component_type, Checked::Invalid) || matches!(accessor.type_, Checked::Invalid) || sparse {
            return bad(format!("accessor {k}'s type or component type"));
        }
    }
    Ok(())
}

/// Extensions without which meshes or their textures cannot be read here (compressed or
/// quantized geometry, instancing, texture formats other than PNG and JPEG): a file that
/// requires one still holds its skins and animations, which are read without its meshes.
/// (Meshopt is not here: it may compress the animation's buffer views too, and is refused.)
const UNREADABLE_MESHES: [&str; 7] = [
    "KHR_draco_mesh_compression",
    "KHR_mesh_quantization",
    "KHR_texture_basisu",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "MSFT_texture_dds",
    "EXT_mesh_gpu_instancing",
];

/// Extensions that refine how a material looks: the meshes are drawn with their base colour
/// without them.
const LOOKS_ONLY: [&str; 2] = ["KHR_materials_", "KHR_texture_transform"];

/// The longest error message kept from the glTF crate (its validation lists every path).
const MESSAGE_CHARS: usize = 400;

/// `message` cut to [`MESSAGE_CHARS`] characters, saying how much was left out.
fn capped(message: String) -> String {
    let n = message.chars().count();
    if n <= MESSAGE_CHARS {
        return message;
    }
    let kept: String = message.chars().take(MESSAGE_CHARS).collect();
    format!("{kept}… ({} more characters)", n - MESSAGE_CHARS)
}

/// Takes out what skelview does not draw and cannot decode (meshes compressed with Draco,
/// quantized or instanced; materials and textures in formats the crate does not know) when
/// the file requires an extension for it, so that the skin and animations still load; one
/// warning says what went.
fn skip_undrawn(json: &mut ::gltf::json::Root) -> Option<crate::formats::error::RawWarning> {
    let named = |list: &[&str], e: &str| list.iter().any(|d| e == *d || (d.ends_with('_') && e.starts_with(d)));
    let supported = |e: &str| ::gltf::json::extensions::ENABLED_EXTENSIONS.contains(&e);
    json.extensions_required.retain(|e| supported(e) || !named(&LOOKS_ONLY, e));
    let skipped: Vec<String> = json.extensions_required.iter().filter(|e| !supported(e) && named(&UNREADABLE_MESHES, e)).cloned().collect();
    if skipped.is_empty() {
        return None;
    }
    json.extensions_required.retain(|e| !skipped.contains(e));
    json.extensions_used.retain(|e| !skipped.contains(e));
    let meshes = json.meshes.len();
    // Nothing of these is drawn: all go, and with them every reference to them.
    json.meshes.clear();
    json.materials.clear();
    json.textures.clear();
    json.images.clear();
    json.samplers.clear();
    for node in &mut json.nodes {
        node.mesh = None;
        node.extensions = None;
    }
    keep_used_accessors(json);
    let message = format!(
        "the file requires {} for its {meshes} mesh(es) or their textures, which skelview cannot decode: the meshes are skipped; the skeleton and animations are read",
        skipped.join(", ")
    );
    Some(crate::formats::error::RawWarning { offset: 0, message })
}

/// Keeps only the accessors skins and animations read (a compressed mesh's accessors have no
/// data of their own to check), numbered anew.
fn keep_used_accessors(json: &mut ::gltf::json::Root) {
    use ::gltf::json::Index;
    let mut used = vec![false; json.accessors.len()];
    let mut mark = |i: usize| {
        if let Some(u) = used.get_mut(i) {
            *u = true;
        }
    };
    json.skins.iter().filter_map(|s| s.inverse_bind_matrices).for_each(|a| mark(a.value()));
    json.animations.iter().flat_map(|a| &a.samplers).for_each(|s| {
        mark(s.input.value());
        mark(s.output.value());
    });
    let mut next = 0u32;
    let new: Vec<Option<u32>> = used
        .iter()
        .map(|&u| {
            u.then(|| {
                next += 1;
                next - 1
            })
        })
        .collect();
    let renumber = |a: Index<::gltf::json::Accessor>| new.get(a.value()).copied().flatten().map(Index::new);
    for s in &mut json.skins {
        s.inverse_bind_matrices = s.inverse_bind_matrices.and_then(renumber);
    }
    for s in json.animations.iter_mut().flat_map(|a| &mut a.samplers) {
        (s.input, s.output) = (renumber(s.input).unwrap_or(s.input), renumber(s.output).unwrap_or(s.output));
    }
    let mut k = 0;
    json.accessors.retain(|_| {
        k += 1;
        used[k - 1]
    });
}

/// Reads the document and its buffers; `base` is the folder external buffers are relative to;
/// `fps` samples the take at that rate instead of its keys' own.
pub fn parse(
    bytes: &[u8],
    base: Option<&std::path::Path>,
    take: Option<&str>,
    fps: Option<f64>,
) -> Result<(finish::Parsed, Vec<crate::formats::error::RawWarning>), ParseError> {
    let invalid = |e: ::gltf::Error| match &e {
        ::gltf::Error::Deserialize(j) => ParseError::invalid(offset_of(bytes, j.line(), j.column()), format!("not valid glTF JSON: {j}")),
        _ => ParseError::invalid(0, capped(format!("not a valid glTF file: {e}"))),
    };
    // The crate subtracts the 12-byte header from a GLB's declared length unchecked (an
    // overflow on a damaged file): that length is checked here first.
    if bytes.starts_with(b"glTF") {
        let declared = bytes.get(8..12).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        if declared.is_none_or(|n| n < 12) {
            let found = declared.map_or_else(|| "end of file".to_owned(), |n| format!("{n}"));
            return Err(ParseError::expected(8, "a GLB length of at least its 12-byte header", found));
        }
    }
    let ::gltf::Gltf { document, blob } = ::gltf::Gltf::from_slice_without_validation(bytes).map_err(invalid)?;
    // The crate's validation indexes a primitive's POSITION accessor before checking that it
    // exists (a panic on a damaged file): that index is checked here first.
    let mut json = document.into_json();
    let skipped = skip_undrawn(&mut json);
    let accessors = json.accessors.len();
    for (m, mesh) in json.meshes.iter().enumerate() {
        for p in &mesh.primitives {
            if let Some(a) = p.attributes.values().find(|a| a.value() >= accessors) {
                return Err(ParseError::invalid(0, format!("mesh {m} names accessor {} of {accessors}", a.value())));
            }
        }
    }
    check_unvalidated(&json)?;
    let document = ::gltf::Document::from_json(json).map_err(invalid)?;
    let buffers = ::gltf::import_buffers(&document, base, blob)
        .map_err(|e| ParseError::invalid(0, capped(format!("cannot read the buffers: {e}"))))?;
    let vrm = document.as_json().extensions.as_ref().and_then(|e| vrm::read(&e.others));
    let bones = vrm.as_ref().map(|v| v.bones.clone()).unwrap_or_default();
    // An avatar's extensions go with its meshes, for the VRM writer (an animation's do not).
    let keep = vrm.as_ref().filter(|v| v.kind != vrm::ANIMATION).and_then(|_| document.as_json().extensions.as_ref());
    let keep = keep.and_then(|e| serde_json::to_string(&e.others).ok());
    let (mut parsed, mut warnings) = build::build(&document, &buffers, take, fps, &bones, base, keep)?;
    warnings.splice(0..0, skipped);
    let asset = document.as_json().asset.clone();
    parsed.details.insert(0, ("glTF version".into(), asset.version));
    if let Some(g) = asset.generator {
        parsed.details.insert(1, ("Generator".into(), g));
    }
    if let Some(c) = asset.copyright {
        parsed.details.push(("Copyright".into(), c));
    }
    if let Some(v) = vrm {
        parsed.details.push(("VRM".into(), format!("{} ({} humanoid bones)", v.kind, v.bones.len())));
        parsed.details.extend(v.meta);
    }
    Ok((parsed, warnings))
}

impl Declares for Gltf {
    const DECLARATION: Declaration = Declaration {
        name: FORMAT.name,
        description: "glTF 2.0 scene with skins and animations (JSON with buffers, or binary .glb); VRM avatars (.vrm) and animations (.vrma)",
        extensions: &["gltf", "glb", "vrm", "vrma"],
        mime_types: &[
            MimeType {
                name: "model/gltf+json",
                comment: "glTF 2.0 scene",
                globs: &["*.gltf"],
                parent: "application/json",
                glob_weight: 50,
                magic: &[],
            },
            MimeType {
                name: "model/gltf-binary",
                comment: "glTF 2.0 binary scene",
                globs: &["*.glb"],
                parent: "application/octet-stream",
                glob_weight: 50,
                magic: &[("glTF", "0:0")],
            },
            MimeType {
                name: "model/vrm",
                comment: "VRM avatar",
                globs: &["*.vrm"],
                parent: "model/gltf-binary",
                glob_weight: 50,
                magic: &[],
            },
            MimeType {
                name: "model/vrma",
                comment: "VRM animation",
                globs: &["*.vrma"],
                parent: "model/gltf-binary",
                glob_weight: 50,
                magic: &[],
            },
        ],
        sniff: |text, raw| raw.starts_with(b"glTF") || (text.starts_with(b"{") && contains(text, b"\"asset\"")),
    };
}

impl FileFormat for Gltf {
    fn load(
        &self,
        sources: &[Source],
        options: &LoadOptions,
        _parallel: &dyn Parallel,
        observer: &mut dyn LoadObserver,
    ) -> Result<Motion, LoadError> {
        let [source] = sources else { return Err(crate::formats::wrong_sources(self, sources)) };
        let bytes = source.read_all()?;
        let path = source.path().to_owned();
        // External buffers are relative to the file's folder; a file in memory has none.
        let base = path.parent().filter(|d| !d.as_os_str().is_empty() && d.is_dir()).map(|d| d.to_owned());
        let take = options.take.as_deref();
        finish::single(FORMAT, &path, &bytes, observer, |b| parse(b, base.as_deref(), take, options.sample_fps))
    }
}
