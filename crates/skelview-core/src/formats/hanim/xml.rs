//! X3D XML encoding → [`Scene`], through `roxmltree`.

use std::borrow::Cow;

use roxmltree::{Document, Node as XNode, ParsingOptions};

use super::scene::{Field, Node, Route, Scene, Value, keeps_fields};
use crate::formats::error::{ParseError, RawWarning};

/// Deeper element nesting is junk (and would exhaust the stack).
const MAX_DEPTH: usize = 256;

/// Parses the XML text into a DOM (DTDs allowed: every X3D file declares one).
pub(crate) fn parse_document(text: &str) -> Result<Document<'_>, ParseError> {
    let opts = ParsingOptions { allow_dtd: true, nodes_limit: 50_000_000, ..ParsingOptions::default() };
    Document::parse_with_options(text, opts).map_err(|e| {
        let pos = e.pos();
        ParseError::invalid(byte_offset(text, pos.row, pos.col) as u64, format!("XML is not well-formed: {e}"))
    })
}

/// Byte offset of a 1-based row/column (columns counted in characters).
fn byte_offset(text: &str, row: u32, col: u32) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let col_bytes: usize = line.chars().take(col.saturating_sub(1) as usize).map(char::len_utf8).sum();
            return offset + col_bytes;
        }
        offset += line.len();
    }
    text.len()
}

/// Builds the scene from the `<Scene>` element (or the whole document when there is none).
pub(crate) fn scene_from_xml<'a>(doc: &'a Document<'a>) -> Scene<'a> {
    let mut scene = Scene::default();
    let root = doc.root_element();
    let head = root.children().find(|n| n.has_tag_name("head"));
    if let Some(head) = head {
        for unit in head.children().filter(|n| n.has_tag_name("unit")) {
            if unit.attribute("category") == Some("length") {
                let name = unit.attribute("name").unwrap_or("length").to_owned();
                match unit.attribute("conversionFactor").and_then(|f| f.trim().parse::<f64>().ok()) {
                    Some(f) if f.is_finite() && f > 0.0 => scene.length_unit = Some((name, f)),
                    _ => scene.warnings.push(RawWarning {
                        offset: unit.range().start as u64,
                        message: "UNIT length without a positive conversionFactor ignored".into(),
                    }),
                }
            }
        }
    }
    let body = root.children().find(|n| n.has_tag_name("Scene")).unwrap_or(root);
    let mut top = Vec::new();
    for child in body.children().filter(XNode::is_element) {
        if let Some((_, id, _)) = add(&mut scene, child, 0) {
            top.push(id);
        }
    }
    scene.top = top;
    scene
}

/// Adds `el` (and its subtree) and returns (containerField, node, is USE).
fn add<'a>(scene: &mut Scene<'a>, el: XNode<'a, 'a>, depth: usize) -> Option<(&'a str, usize, bool)> {
    let tag = el.tag_name().name();
    if tag == "ROUTE" {
        let a = |k| el.attribute(k).unwrap_or("");
        scene.routes.push(Route {
            from_node: a("fromNode"),
            from_field: a("fromField"),
            to_node: a("toNode"),
            to_field: a("toField"),
            offset: el.range().start,
        });
        return None;
    }
    if matches!(tag, "IS" | "connect" | "fieldValue" | "field" | "ProtoDeclare" | "ExternProtoDeclare") {
        return None;
    }
    let container = el.attribute("containerField").unwrap_or(match tag {
        t if t.starts_with("Metadata") => "metadata",
        "HAnimMotion" => "motions",
        _ => "children",
    });
    if let Some(name) = el.attribute("USE") {
        match scene.defs.get(name) {
            Some(&id) => return Some((container, id, true)),
            None if !keeps_fields(tag) && !matches!(tag, "Group" | "Shape") => return None,
            None => {
                scene
                    .warnings
                    .push(RawWarning { offset: el.range().start as u64, message: format!("USE of unknown DEF '{name}' ignored") });
                return None;
            }
        }
    }
    let def = el.attribute("DEF");
    let mut node = Node::new(tag, def, el.range().start);
    if keeps_fields(tag) {
        for a in el.attributes() {
            if matches!(a.name(), "DEF" | "USE" | "containerField" | "class" | "id" | "style") {
                continue;
            }
            node.fields.push(Field { name: a.name(), offset: a.range_value().start, value: Value::Text(Cow::Borrowed(a.value())) });
        }
    }
    let id = scene.nodes.len();
    scene.nodes.push(node);
    // Geometry never holds joints: skip it (most of a big file's elements).
    if !matches!(tag, "Shape" | "IndexedFaceSet" | "Coordinate" | "TextureCoordinate" | "Normal" | "Color" | "IndexedLineSet") {
        if depth >= MAX_DEPTH {
            scene.warnings.push(RawWarning {
                offset: el.range().start as u64,
                message: format!("elements nested deeper than {MAX_DEPTH} levels skipped"),
            });
        } else {
            for child in el.children().filter(XNode::is_element) {
                if let Some(c) = add(scene, child, depth + 1) {
                    scene.nodes[id].children.push(c);
                }
            }
        }
    }
    // Registered once complete, so a USE inside the node itself cannot make a cycle.
    if let Some(def) = def {
        scene.defs.insert(def, id);
    }
    Some((container, id, false))
}
