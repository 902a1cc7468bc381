//! ClassicVRML encoding (`#X3D V3.x` / `#VRML V2.0`) → [`Scene`]: our own byte-based
//! tokenizer and a generic node parser that needs no field-type table (a field's value is
//! numbers, strings, booleans or nodes, told apart by their first byte).

use super::scene::{Field, Node, Route, Scene, Value, keeps_fields};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe, parse_number_at};

/// Deeper nesting than this is junk (and would exhaust the stack).
const MAX_DEPTH: usize = 256;

/// Parses a whole ClassicVRML file.
pub(crate) fn scene_from_vrml(bytes: &[u8]) -> Result<Scene<'_>, ParseError> {
    let start = if bytes.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let head = &bytes[start..];
    if head.starts_with(b"#VRML V1.0") {
        return Err(ParseError::invalid(start as u64, "VRML 1.0 files hold no H-Anim nodes (need '#VRML V2.0' or '#X3D')"));
    }
    if !(head.starts_with(b"#VRML V2.0") || head.starts_with(b"#X3D V")) {
        let end = head.iter().position(|&c| c == b'\n').unwrap_or(head.len()).min(24);
        return Err(ParseError::expected(start as u64, "a '#VRML V2.0 utf8' or '#X3D V3.x utf8' header", describe(&head[..end])));
    }
    let mut p = Parser { b: bytes, i: start, scene: Scene::default(), depth: 0 };
    while p.skip_ws().is_some() {
        if let Some(id) = p.statement()? {
            p.scene.top.push(id);
        }
    }
    Ok(p.scene)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    scene: Scene<'a>,
    depth: usize,
}

#[inline]
fn is_delim(c: u8) -> bool {
    c <= b' ' || matches!(c, b'"' | b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'\'' | b'\\' | 0x7f)
}

#[inline]
fn starts_number(c: u8) -> bool {
    c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.')
}

impl<'a> Parser<'a> {
    /// Skips whitespace, commas and comments; returns the next byte.
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(&c) = self.b.get(self.i) {
            if c <= b' ' || c == b',' {
                self.i += 1;
            } else if c == b'#' {
                self.i = memchr::memchr(b'\n', &self.b[self.i..]).map_or(self.b.len(), |p| self.i + p);
            } else {
                return Some(c);
            }
        }
        None
    }

    fn found(&self) -> String {
        let end = self.token_end(self.i);
        describe(&self.b[self.i..end.max(self.i + 1).min(self.b.len())])
    }

    fn token_end(&self, mut i: usize) -> usize {
        while i < self.b.len() && !is_delim(self.b[i]) && self.b[i] != b'.' {
            i += 1;
        }
        i
    }

    fn err(&self, expected: &str) -> ParseError {
        if self.i >= self.b.len() {
            ParseError::eof(self.i as u64, expected)
        } else {
            ParseError::expected(self.i as u64, expected, self.found())
        }
    }

    /// An identifier (`.` ends it so that `A.field` splits).
    fn ident(&mut self, expected: &str) -> Result<&'a str, ParseError> {
        match self.skip_ws() {
            Some(c) if !is_delim(c) && !starts_number(c) => {}
            _ => return Err(self.err(expected)),
        }
        let s = self.i;
        let e = self.token_end(s);
        let text = std::str::from_utf8(&self.b[s..e]).map_err(|_| self.err(expected))?;
        self.i = e;
        Ok(text)
    }

    fn expect(&mut self, c: u8, expected: &str) -> Result<(), ParseError> {
        if self.skip_ws() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(expected))
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.i;
        self.i += 1; // opening quote
        let mut out = Vec::new();
        while let Some(&c) = self.b.get(self.i) {
            self.i += 1;
            match c {
                b'"' => return Ok(decode_name(&out)),
                b'\\' => {
                    if let Some(&n) = self.b.get(self.i) {
                        out.push(n);
                        self.i += 1;
                    }
                }
                _ => out.push(c),
            }
        }
        Err(ParseError::eof(start as u64, "a closing '\"' for the string started here"))
    }

    /// One number; `store` false skips its digits without converting.
    fn number(&mut self, out: Option<&mut Vec<f64>>) -> Result<(), ParseError> {
        let s = self.i;
        let b = self.b;
        if b[s..].starts_with(b"0x") || b[s..].starts_with(b"0X") {
            self.i = self.token_end(s + 2);
            return Ok(()); // SFImage pixels / SFInt32 in hex: never a field we read
        }
        match parse_number_at(b, s) {
            Some((v, e)) if b.get(e).is_none_or(|&c| is_delim(c)) => {
                if let Some(out) = out {
                    if !v.is_finite() {
                        return Err(ParseError::invalid(s as u64, "number out of range"));
                    }
                    out.push(v);
                }
                self.i = e;
                Ok(())
            }
            _ => Err(self.err("a number")),
        }
    }

    /// A top-level or children-list statement; returns the node it made, if any.
    fn statement(&mut self) -> Result<Option<usize>, ParseError> {
        let at = self.i;
        let word = self.ident("a node, PROTO, ROUTE or header statement")?;
        match word {
            "PROFILE" | "COMPONENT" => {
                self.ident("a name")?;
            }
            "META" => {
                for _ in 0..2 {
                    if self.skip_ws() != Some(b'"') {
                        return Err(self.err("a META string"));
                    }
                    self.string()?;
                }
            }
            "UNIT" => {
                let category = self.ident("a UNIT category")?;
                let name = self.ident("a UNIT name")?;
                self.skip_ws();
                let mut v = Vec::new();
                let num_at = self.i;
                self.number(Some(&mut v))?;
                if category == "length" {
                    match v.first() {
                        Some(&f) if f > 0.0 => self.scene.length_unit = Some((name.to_owned(), f)),
                        _ => return Err(ParseError::invalid(num_at as u64, "UNIT conversion factor must be positive")),
                    }
                }
            }
            "ROUTE" => self.route(at)?,
            "IMPORT" => {
                self.ident("an Inline name")?;
                self.expect(b'.', "'.'")?;
                self.ident("an exported name")?;
                self.optional_as()?;
            }
            "EXPORT" => {
                self.ident("a DEF name")?;
                self.optional_as()?;
            }
            "PROTO" => {
                self.ident("a PROTO name")?;
                self.skip_balanced(b'[', b']')?;
                self.skip_balanced(b'{', b'}')?;
            }
            "EXTERNPROTO" => {
                self.ident("an EXTERNPROTO name")?;
                self.skip_balanced(b'[', b']')?;
                match self.skip_ws() {
                    Some(b'"') => {
                        self.string()?;
                    }
                    Some(b'[') => self.skip_balanced(b'[', b']')?,
                    _ => return Err(self.err("the EXTERNPROTO url")),
                }
            }
            _ => return Ok(self.node_after(word, at)?.map(|(id, _)| id)),
        }
        Ok(None)
    }

    fn optional_as(&mut self) -> Result<(), ParseError> {
        let save = self.i;
        if self.skip_ws().is_some() && self.b[self.i..].starts_with(b"AS") && self.b.get(self.i + 2).is_none_or(|&c| is_delim(c)) {
            self.i += 2;
            self.ident("a name after AS")?;
        } else {
            self.i = save;
        }
        Ok(())
    }

    fn route(&mut self, at: usize) -> Result<(), ParseError> {
        let from_node = self.ident("the ROUTE source node")?;
        self.expect(b'.', "'.' after the ROUTE source node")?;
        let from_field = self.ident("the ROUTE source field")?;
        if self.ident("TO")? != "TO" {
            return Err(ParseError::expected(self.i as u64, "TO", "another word"));
        }
        let to_node = self.ident("the ROUTE target node")?;
        self.expect(b'.', "'.' after the ROUTE target node")?;
        let to_field = self.ident("the ROUTE target field")?;
        self.scene.routes.push(Route { from_node, from_field, to_node, to_field, offset: at });
        Ok(())
    }

    /// Skips a bracketed block, honouring strings and comments.
    fn skip_balanced(&mut self, open: u8, close: u8) -> Result<(), ParseError> {
        let start = self.i;
        if self.skip_ws() != Some(open) {
            return Err(self.err(if open == b'[' { "'['" } else { "'{'" }));
        }
        let mut depth = 0usize;
        while let Some(c) = self.skip_ws() {
            match c {
                b'"' => {
                    self.string()?;
                    continue;
                }
                c if c == open => depth += 1,
                c if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Ok(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        Err(ParseError::eof(start as u64, format!("a closing '{}' for the block opened here", close as char)))
    }

    /// A node value after its first word (`DEF`, `USE`, `NULL` or the type): (node, was USE).
    fn node_after(&mut self, word: &'a str, at: usize) -> Result<Option<(usize, bool)>, ParseError> {
        match word {
            "NULL" => Ok(None),
            "USE" => {
                let name = self.ident("a DEF name after USE")?;
                match self.scene.defs.get(name) {
                    Some(&id) => Ok(Some((id, true))),
                    None => {
                        self.scene.warnings.push(RawWarning { offset: at as u64, message: format!("USE of unknown DEF '{name}' ignored") });
                        Ok(None)
                    }
                }
            }
            "DEF" => {
                let name = self.ident("a name after DEF")?;
                let type_at = self.i;
                let type_name = self.ident("a node type after the DEF name")?;
                self.node_body(type_name, Some(name), type_at).map(|id| Some((id, false)))
            }
            _ => self.node_body(word, None, at).map(|id| Some((id, false))),
        }
    }

    fn node_body(&mut self, type_name: &'a str, def: Option<&'a str>, at: usize) -> Result<usize, ParseError> {
        if matches!(type_name, "TRUE" | "FALSE" | "ROUTE" | "PROTO" | "IS") {
            return Err(ParseError::expected(at as u64, "a node type", describe(type_name.as_bytes())));
        }
        self.expect(b'{', &format!("'{{' after node type '{type_name}'"))?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseError::invalid(at as u64, format!("nodes nested deeper than {MAX_DEPTH} levels")));
        }
        let id = self.scene.nodes.len();
        self.scene.nodes.push(Node::new(type_name, def, at));
        let store = keeps_fields(type_name);
        loop {
            match self.skip_ws() {
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                None => return Err(ParseError::eof(at as u64, format!("'}}' closing the {type_name} node started here"))),
                _ => {}
            }
            let field_at = self.i;
            let name = self.ident(&format!("a field name or '}}' in {type_name}"))?;
            match name {
                "ROUTE" => self.route(field_at)?,
                "field" | "exposedField" | "eventIn" | "eventOut" | "initializeOnly" | "inputOutput" | "inputOnly" | "outputOnly" => {
                    self.ident("a field type")?;
                    self.ident("a field name")?;
                    if matches!(name, "field" | "exposedField" | "initializeOnly" | "inputOutput") {
                        self.value(id, "", false)?;
                    }
                }
                _ => self.value(id, name, store)?,
            }
        }
        self.depth -= 1;
        // Registered once complete, so a USE inside the node itself cannot make a cycle.
        if let Some(def) = def {
            self.scene.defs.insert(def, id);
        }
        Ok(id)
    }

    /// A field value: numbers, strings, booleans, nodes, or a bracketed list of them.
    fn value(&mut self, id: usize, name: &'a str, store: bool) -> Result<(), ParseError> {
        let offset = match self.skip_ws() {
            Some(_) => self.i,
            None => return Err(self.err(&format!("a value for field '{name}'"))),
        };
        let mut nums = Vec::new();
        let mut strs = Vec::new();
        let mut boolean = None;
        let c = self.b[self.i];
        if c == b'[' {
            self.i += 1;
            loop {
                match self.skip_ws() {
                    Some(b']') => {
                        self.i += 1;
                        break;
                    }
                    None => return Err(ParseError::eof(offset as u64, format!("']' closing the list of field '{name}'"))),
                    Some(c) => self.item(c, id, name, store, &mut nums, &mut strs, &mut boolean)?,
                }
            }
        } else if starts_number(c) {
            while let Some(c) = self.skip_ws() {
                if !starts_number(c) {
                    // `nan`/`inf` would otherwise read as the next field's name.
                    let word = &self.b[self.i..self.token_end(self.i)];
                    if [&b"nan"[..], b"inf", b"infinity"].iter().any(|w| word.eq_ignore_ascii_case(w)) {
                        return Err(self.err(&format!("a number in field '{name}'")));
                    }
                    break;
                }
                self.number(store.then_some(&mut nums))?;
            }
        } else {
            self.item(c, id, name, store, &mut nums, &mut strs, &mut boolean)?;
        }
        if store {
            let value = if let Some(b) = boolean {
                Value::Bool(b)
            } else if !strs.is_empty() {
                Value::Strs(strs)
            } else {
                Value::Nums(nums)
            };
            self.scene.nodes[id].fields.push(Field { name, offset, value });
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn item(
        &mut self,
        c: u8,
        id: usize,
        name: &'a str,
        store: bool,
        nums: &mut Vec<f64>,
        strs: &mut Vec<String>,
        boolean: &mut Option<bool>,
    ) -> Result<(), ParseError> {
        if c == b'"' {
            let s = self.string()?;
            if store {
                strs.push(s);
            }
            return Ok(());
        }
        if starts_number(c) {
            return self.number(store.then_some(nums));
        }
        let at = self.i;
        let word = self.ident(&format!("a value for field '{name}'"))?;
        match word {
            "TRUE" | "FALSE" => *boolean = Some(word == "TRUE"),
            "IS" => {
                self.ident("a PROTO field name after IS")?;
            }
            "ROUTE" => self.route(at)?,
            _ => {
                if let Some((child, is_use)) = self.node_after(word, at)? {
                    self.scene.nodes[id].children.push((name, child, is_use));
                }
            }
        }
        Ok(())
    }
}
