//! VRM avatars (`.vrm`, VRM 0.x and 1.0) and VRM animations (`.vrma`): glTF binaries whose
//! extensions map nodes to humanoid bones (`hips`, `leftUpperArm`…) and describe the model
//! (title, authors, licence). The glTF reader loads the scene; this reads what VRM adds.

use std::collections::HashMap;

use serde_json::Value;

/// What a file's VRM extensions say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vrm {
    /// Which extension: `VRM 0.x`, `VRM 1.0` or `VRM animation 1.0`.
    pub kind: &'static str,
    /// Humanoid bone name by glTF node index.
    pub bones: HashMap<usize, String>,
    /// Title, authors, licence… as label/value pairs, for `info` and the inspector.
    pub meta: Vec<(String, String)>,
}

/// The JSON of a glTF file: the first chunk of a binary, or the whole text.
fn json_of(bytes: &[u8]) -> Option<&[u8]> {
    if !bytes.starts_with(b"glTF") {
        return Some(bytes);
    }
    let word = |at: usize| bytes.get(at..at + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize);
    let length = word(12)?;
    (bytes.get(16..20)? == b"JSON").then_some(())?;
    bytes.get(20..20usize.checked_add(length)?)
}

/// `{ "hips": { "node": 3 }, … }` (VRM 1.0 and VRM animations).
fn bones_by_name(map: &Value) -> HashMap<usize, String> {
    let Some(map) = map.as_object() else { return HashMap::new() };
    map.iter().filter_map(|(bone, v)| Some((usize::try_from(v.get("node")?.as_u64()?).ok()?, bone.clone()))).collect()
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Array(items) => {
            let names: Vec<&str> = items.iter().filter_map(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
}

/// The VRM extensions of a glTF file's bytes, when it has some (`None` for plain glTF and
/// for JSON that does not parse: the glTF reader reports that).
pub fn read(bytes: &[u8]) -> Option<Vrm> {
    let json: Value = serde_json::from_slice(json_of(bytes)?).ok()?;
    let extensions = json.get("extensions")?;
    let mut meta = Vec::new();
    let mut add = |label: &str, v: Option<&Value>| {
        if let Some(t) = text(v) {
            meta.push((label.to_owned(), t));
        }
    };
    if let Some(vrm) = extensions.get("VRMC_vrm") {
        let m = vrm.get("meta");
        add("Title", m.and_then(|m| m.get("name")));
        add("Version", m.and_then(|m| m.get("version")));
        add("Authors", m.and_then(|m| m.get("authors")));
        add("Licence", m.and_then(|m| m.get("licenseUrl")));
        let bones = vrm.get("humanoid").and_then(|h| h.get("humanBones")).map(bones_by_name).unwrap_or_default();
        return Some(Vrm { kind: "VRM 1.0", bones, meta });
    }
    if let Some(anim) = extensions.get("VRMC_vrm_animation") {
        let bones = anim.get("humanoid").and_then(|h| h.get("humanBones")).map(bones_by_name).unwrap_or_default();
        return Some(Vrm { kind: "VRM animation 1.0", bones, meta });
    }
    let vrm = extensions.get("VRM")?;
    let m = vrm.get("meta");
    add("Title", m.and_then(|m| m.get("title")));
    add("Version", m.and_then(|m| m.get("version")));
    add("Authors", m.and_then(|m| m.get("author")));
    add("Licence", m.and_then(|m| m.get("licenseName")));
    // VRM 0.x: `[{ "bone": "hips", "node": 3 }, …]`.
    let bones = vrm
        .get("humanoid")
        .and_then(|h| h.get("humanBones"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|b| Some((usize::try_from(b.get("node")?.as_u64()?).ok()?, b.get("bone")?.as_str()?.to_owned())))
                .collect()
        })
        .unwrap_or_default();
    Some(Vrm { kind: "VRM 0.x", bones, meta })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_versions_and_animations_map_nodes_to_bones() {
        let v0 = br#"{"asset":{"version":"2.0"},"extensions":{"VRM":{"meta":{"title":"Alicia","author":"Nitro","licenseName":"CC_BY"},"humanoid":{"humanBones":[{"bone":"hips","node":2},{"bone":"leftUpperArm","node":5}]}}}}"#;
        let r = read(v0).unwrap();
        assert_eq!((r.kind, r.bones[&2].as_str(), r.bones[&5].as_str()), ("VRM 0.x", "hips", "leftUpperArm"));
        assert_eq!(r.meta, [("Title".into(), "Alicia".into()), ("Authors".into(), "Nitro".into()), ("Licence".into(), "CC_BY".into())]);
        let v1 = br#"{"extensions":{"VRMC_vrm":{"meta":{"name":"Seed","authors":["A","B"],"licenseUrl":"https://vrm.dev/licenses/1.0/"},"humanoid":{"humanBones":{"head":{"node":7}}}}}}"#;
        let r = read(v1).unwrap();
        assert_eq!((r.kind, r.bones[&7].as_str()), ("VRM 1.0", "head"));
        assert!(r.meta.contains(&("Authors".into(), "A, B".into())));
        let a = br#"{"extensions":{"VRMC_vrm_animation":{"humanoid":{"humanBones":{"hips":{"node":0},"spine":{"node":"x"}}}}}}"#;
        let r = read(a).unwrap();
        assert_eq!((r.kind, r.bones.len()), ("VRM animation 1.0", 1), "a bad node index is skipped");
        assert_eq!(read(br#"{"asset":{"version":"2.0"}}"#), None);
        assert_eq!(read(b"glTF\x02\0\0\0\x10\0\0\0\xff\xff\xff\x7fJSON"), None, "a chunk longer than the file");
        assert_eq!(read(b"not json"), None);
    }
}
