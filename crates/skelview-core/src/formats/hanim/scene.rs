//! A format-neutral X3D scene graph that both encodings fill: nodes with the few fields the
//! H-Anim builder reads, their child nodes per field, DEF names and ROUTEs.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{describe, parse_number};

/// A field value as the encoding gave it.
#[derive(Debug)]
pub(crate) enum Value<'a> {
    /// XML attribute text (numbers still to split, SFString raw, MFString quoted).
    Text(Cow<'a, str>),
    /// ClassicVRML numbers.
    Nums(Vec<f64>),
    /// ClassicVRML strings.
    Strs(Vec<String>),
    /// ClassicVRML TRUE/FALSE.
    Bool(bool),
}

/// One field of a node, with the byte offset of its value.
#[derive(Debug)]
pub(crate) struct Field<'a> {
    pub name: &'a str,
    pub offset: usize,
    pub value: Value<'a>,
}

/// A node: its type, DEF name, fields the builder may read, and child nodes per field.
#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub type_name: &'a str,
    pub def: Option<&'a str>,
    pub offset: usize,
    pub fields: Vec<Field<'a>>,
    /// (field name, node index, written as USE).
    pub children: Vec<(&'a str, usize, bool)>,
}

/// A ROUTE statement.
#[derive(Debug)]
pub(crate) struct Route<'a> {
    pub from_node: &'a str,
    pub from_field: &'a str,
    pub to_node: &'a str,
    pub to_field: &'a str,
    pub offset: usize,
}

/// The whole file.
#[derive(Debug, Default)]
pub(crate) struct Scene<'a> {
    pub nodes: Vec<Node<'a>>,
    /// Top-level nodes in file order.
    pub top: Vec<usize>,
    pub routes: Vec<Route<'a>>,
    pub defs: HashMap<&'a str, usize>,
    /// Length unit from a UNIT statement: (name, metres per unit).
    pub length_unit: Option<(String, f64)>,
    pub warnings: Vec<RawWarning>,
}

/// Node types whose fields the builder reads; the front-ends store fields of these only.
pub(crate) fn keeps_fields(type_name: &str) -> bool {
    matches!(
        type_name,
        "HAnimHumanoid"
            | "HAnimJoint"
            | "HAnimSite"
            | "HAnimSegment"
            | "HAnimMotion"
            | "Humanoid"
            | "Joint"
            | "Segment"
            | "Site"
            | "Transform"
            | "TimeSensor"
            | "OrientationInterpolator"
            | "PositionInterpolator"
    )
}

impl<'a> Node<'a> {
    /// A node with no fields yet.
    pub fn new(type_name: &'a str, def: Option<&'a str>, offset: usize) -> Self {
        Self { type_name, def, offset, fields: Vec::new(), children: Vec::new() }
    }

    fn field(&self, name: &str) -> Option<&Field<'a>> {
        self.fields.iter().rev().find(|f| f.name == name)
    }

    /// Byte offset of a field's value (the node's own offset when absent).
    pub fn field_offset(&self, name: &str) -> usize {
        self.field(name).map_or(self.offset, |f| f.offset)
    }

    /// The numbers of a field, `None` when absent.
    pub fn nums(&self, name: &str) -> Result<Option<Cow<'_, [f64]>>, ParseError> {
        let Some(f) = self.field(name) else { return Ok(None) };
        match &f.value {
            Value::Nums(v) => {
                if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                    return Err(ParseError::invalid(f.offset as u64, format!("value {} of field '{name}' is out of range", i + 1)));
                }
                Ok(Some(Cow::Borrowed(v)))
            }
            Value::Text(t) => split_numbers(t.as_bytes(), f.offset, name).map(|v| Some(Cow::Owned(v))),
            Value::Strs(_) | Value::Bool(_) => {
                Err(ParseError::expected(f.offset as u64, format!("numbers for field '{name}'"), "a string or boolean"))
            }
        }
    }

    /// Exactly `N` numbers (or `default` when absent).
    pub fn vec<const N: usize>(&self, name: &str, default: [f64; N]) -> Result<[f64; N], ParseError> {
        let Some(v) = self.nums(name)? else { return Ok(default) };
        if v.len() != N {
            return Err(ParseError::invalid(
                self.field_offset(name) as u64,
                format!("field '{name}' of {} needs {N} numbers, found {}", self.type_name, v.len()),
            ));
        }
        let mut out = default;
        out.copy_from_slice(&v);
        Ok(out)
    }

    /// The first string of a field (XML SFString text as is, MFString's first quoted item).
    pub fn string(&self, name: &str) -> Option<String> {
        match &self.field(name)?.value {
            Value::Text(t) => {
                let t = t.trim();
                if let Some(rest) = t.strip_prefix('"') {
                    Some(rest.split('"').next().unwrap_or_default().to_owned())
                } else {
                    Some(t.to_owned())
                }
            }
            Value::Strs(s) => s.first().cloned(),
            Value::Nums(n) => n.first().map(|x| x.to_string()),
            Value::Bool(b) => Some(b.to_string()),
        }
    }

    /// A boolean field.
    pub fn boolean(&self, name: &str) -> Option<bool> {
        match &self.field(name)?.value {
            Value::Text(t) => Some(t.trim().eq_ignore_ascii_case("true")),
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// Splits XML attribute text into numbers (whitespace and commas separate them).
pub(crate) fn split_numbers(b: &[u8], offset: usize, name: &str) -> Result<Vec<f64>, ParseError> {
    let mut out = Vec::with_capacity((b.len() / 4).min(1 << 16));
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' {
            i += 1;
            continue;
        }
        match parse_number(&b[i..]) {
            Some((v, n)) if b.get(i + n).is_none_or(|&c| c.is_ascii_whitespace() || c == b',') => {
                if !v.is_finite() {
                    return Err(ParseError::invalid((offset + i) as u64, format!("number out of range in field '{name}'")));
                }
                out.push(v);
                i += n;
            }
            _ => {
                let end = b[i..].iter().position(|&c| c.is_ascii_whitespace() || c == b',').map_or(b.len(), |p| i + p);
                return Err(ParseError::expected((offset + i) as u64, format!("a number in field '{name}'"), describe(&b[i..end])));
            }
        }
    }
    Ok(out)
}
