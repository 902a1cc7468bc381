//! A glTF image's pixels: from a buffer view (GLB), a `data:` URI or a file beside the
//! document, decoded as PNG or JPEG (what glTF's core allows) into sRGB RGBA.

use crate::core::mesh::MeshError;
use base64::Engine;

use crate::core::mesh::Image;

/// Largest image side decoded (a damaged header can claim any size).
const MAX_SIDE: u32 = 16_384;

/// Decodes `image`; the error says what could not be read.
pub fn decode(image: &::gltf::Image, base: Option<&std::path::Path>, buffers: &[::gltf::buffer::Data]) -> Result<Image, MeshError> {
    let (bytes, name): (std::borrow::Cow<[u8]>, String) = match image.source() {
        ::gltf::image::Source::View { view, .. } => {
            let data = buffers.get(view.buffer().index()).map_or(&[][..], |b| &b.0[..]);
            let range = view.offset()..view.offset().saturating_add(view.length());
            let bytes = data.get(range).ok_or_else(|| format!("buffer view {} runs past its buffer", view.index()))?;
            (bytes.into(), image.name().map_or_else(|| format!("image {}", image.index()), str::to_owned))
        }
        ::gltf::image::Source::Uri { uri, .. } => (read_uri(uri, base)?.into(), uri.chars().take(80).collect()),
    };
    decode_bytes(&bytes, name)
}

/// Decodes PNG or JPEG `bytes` (an image named `name`) into sRGB RGBA; other formats and
/// images past [`MAX_SIDE`] a side are refused with the reason. FBX's embedded textures too.
pub fn decode_bytes(bytes: &[u8], name: String) -> Result<Image, MeshError> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    let Some(format) = reader.format().filter(|f| matches!(f, image::ImageFormat::Png | image::ImageFormat::Jpeg)) else {
        return Err(MeshError::from("not PNG or JPEG (KTX2, Basis, WebP and others are not decoded)"));
    };
    let (w, h) = reader.into_dimensions().map_err(|e| format!("{format:?}: {e}"))?;
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(MeshError::from(format!("{w} × {h} pixels, more than {MAX_SIDE} a side")));
    }
    let decoded = image::load_from_memory_with_format(bytes, format).map_err(|e| format!("{format:?}: {e}"))?.to_rgba8();
    Ok(Image { name, width: decoded.width(), height: decoded.height(), rgba8: decoded.into_raw() })
}

/// The bytes of a `data:` URI, or of a file named relative to the document's folder.
fn read_uri(uri: &str, base: Option<&std::path::Path>) -> Result<Vec<u8>, MeshError> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest.split_once(";base64,").ok_or("a data URI that is not base64")?;
        return base64::engine::general_purpose::STANDARD.decode(data.trim()).map_err(|e| MeshError::from(format!("its data URI: {e}")));
    }
    let base = base.ok_or("an external image of a file read from memory")?;
    let path = base.join(percent_decoded(uri));
    std::fs::read(&path).map_err(|e| MeshError::from(format!("{}: {e}", path.display())))
}

/// `%20` and friends decoded (URIs in glTF are percent-encoded).
fn percent_decoded(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = bytes.get(k + 1..k + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[k], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                k += 3;
            }
            (b, _) => {
                out.push(b);
                k += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
