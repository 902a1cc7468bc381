//! VRM avatars (`.vrm`, VRM 0.x and 1.0) and VRM animations (`.vrma`): glTF binaries whose
//! extensions map nodes to humanoid bones (`hips`, `leftUpperArm`…) and describe the model
//! (title, authors, licence). The glTF reader loads the scene; this reads what VRM adds.

use std::collections::HashMap;

use serde_json::{Map, Value};

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

/// The kind of a VRM animation (no avatar).
pub const ANIMATION: &str = "VRM animation 1.0";

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

/// What the VRM extensions among a glTF document's root `extensions` say (`None` for plain
/// glTF). The glTF reader has parsed them already: nothing is read twice.
pub fn read(extensions: &Map<String, Value>) -> Option<Vrm> {
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
        return Some(Vrm { kind: ANIMATION, bones, meta });
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

    /// The root `extensions` of a document's JSON.
    fn read_json(json: &[u8]) -> Option<Vrm> {
        let doc: Value = serde_json::from_slice(json).ok()?;
        read(doc.get("extensions")?.as_object()?)
    }

    #[test]
    fn both_versions_and_animations_map_nodes_to_bones() {
        let v0 = br#"{"asset":{"version":"2.0"},"extensions":{"VRM":{"meta":{"title":"Alicia","author":"Nitro","licenseName":"CC_BY"},"humanoid":{"humanBones":[{"bone":"hips","node":2},{"bone":"leftUpperArm","node":5}]}}}}"#;
        let r = read_json(v0).unwrap();
        assert_eq!((r.kind, r.bones[&2].as_str(), r.bones[&5].as_str()), ("VRM 0.x", "hips", "leftUpperArm"));
        assert_eq!(r.meta, [("Title".into(), "Alicia".into()), ("Authors".into(), "Nitro".into()), ("Licence".into(), "CC_BY".into())]);
        let v1 = br#"{"extensions":{"VRMC_vrm":{"meta":{"name":"Seed","authors":["A","B"],"licenseUrl":"https://vrm.dev/licenses/1.0/"},"humanoid":{"humanBones":{"head":{"node":7}}}}}}"#;
        let r = read_json(v1).unwrap();
        assert_eq!((r.kind, r.bones[&7].as_str()), ("VRM 1.0", "head"));
        assert!(r.meta.contains(&("Authors".into(), "A, B".into())));
        let a = br#"{"extensions":{"VRMC_vrm_animation":{"humanoid":{"humanBones":{"hips":{"node":0},"spine":{"node":"x"}}}}}}"#;
        let r = read_json(a).unwrap();
        assert_eq!((r.kind, r.bones.len()), ("VRM animation 1.0", 1), "a bad node index is skipped");
        assert_eq!(read_json(br#"{"asset":{"version":"2.0"},"extensions":{"KHR_x":{}}}"#), None);
    }
}
