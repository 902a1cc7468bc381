//! Acclaim Skeleton File (`.asf`): units, root, bone data and hierarchy.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use crate::core::pose::compose_rotation;
use crate::core::{ChannelKind, EulerConvention, Joint, PositionRule, Skeleton};
use crate::formats::error::{ParseError, RawWarning};
use crate::formats::text::{decode_name, describe, parse_number};

/// A token with its byte range and whether it starts a line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub s: usize,
    pub e: usize,
    pub first_on_line: bool,
}

/// Splits ASF text into tokens: whitespace, commas and parentheses separate; `#` starts a
/// comment that runs to the end of the line.
pub(crate) fn tokenize(b: &[u8]) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b',' | b'(' | b')' | 0x0b | 0x0c => i += 1,
            b'#' => i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p),
            _ => {
                let s = i;
                while i < b.len() && !matches!(b[i], b' ' | b'\t' | b'\r' | b'\n' | b',' | b'(' | b')' | 0x0b | 0x0c) {
                    i += 1;
                }
                toks.push(Tok { s, e: i, first_on_line: line_start });
                line_start = false;
            }
        }
    }
    toks
}

/// The parsed skeleton file.
#[derive(Debug)]
pub struct Asf {
    /// Root and bones; each bone joint sits at the bone's far end.
    pub skeleton: Skeleton,
    /// `:units` as written (e.g. `mass 1.0 length 0.45 angle deg`).
    pub units_text: Option<String>,
    /// The `length` multiplier (1 when absent).
    pub length_multiplier: f32,
    /// True when `angle rad` was declared.
    pub radians: bool,
    /// `:name`.
    pub name: Option<String>,
    /// Problems that did not stop the parse.
    pub warnings: Vec<RawWarning>,
}

struct Bone {
    name: String,
    offset: usize,
    direction: Vec3,
    length: f32,
    axis: Quat,
    dof: Vec<ChannelKind>,
    limits: Vec<(f32, f32)>,
}

struct P<'a> {
    b: &'a [u8],
    t: &'a [Tok],
    i: usize,
    warnings: Vec<RawWarning>,
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<Tok> {
        self.t.get(self.i).copied()
    }
    fn text(&self, t: Tok) -> &'a [u8] {
        &self.b[t.s..t.e]
    }
    fn lower(&self, t: Tok) -> Vec<u8> {
        self.text(t).to_ascii_lowercase()
    }
    fn end_offset(&self) -> u64 {
        self.b.len() as u64
    }
    fn next(&mut self, what: &str) -> Result<Tok, ParseError> {
        let t = self.peek().ok_or_else(|| ParseError::eof(self.end_offset(), what))?;
        self.i += 1;
        Ok(t)
    }
    fn number(&mut self, what: &str) -> Result<f32, ParseError> {
        let t = self.next(what)?;
        let text = self.text(t);
        match parse_number(text) {
            Some((v, n)) if n == text.len() && (v as f32).is_finite() => Ok(v as f32),
            _ => Err(ParseError::expected(t.s as u64, what, describe(text))),
        }
    }
    fn limit(&mut self) -> Result<f32, ParseError> {
        let t = self.next("a limit value")?;
        match self.lower(t).as_slice() {
            b"inf" | b"+inf" | b"infinity" => Ok(f32::INFINITY),
            b"-inf" | b"-infinity" => Ok(f32::NEG_INFINITY),
            _ => {
                self.i -= 1;
                self.number("a limit value or inf")
            }
        }
    }
    fn vec3(&mut self, what: &str) -> Result<Vec3, ParseError> {
        Ok(Vec3::new(self.number(what)?, self.number(what)?, self.number(what)?))
    }
    /// Skips to the next token that starts a line.
    fn skip_line(&mut self) {
        self.i += 1;
        while self.peek().is_some_and(|t| !t.first_on_line) {
            self.i += 1;
        }
    }
    /// Skips to the next `:keyword` that starts a line.
    fn skip_section(&mut self) {
        while let Some(t) = self.peek() {
            if t.first_on_line && self.text(t).first() == Some(&b':') {
                break;
            }
            self.i += 1;
        }
    }
    fn at_section(&self) -> bool {
        self.peek().is_some_and(|t| self.text(t).first() == Some(&b':'))
    }
}

fn dof_kind(token: &[u8]) -> Option<ChannelKind> {
    Some(match token.to_ascii_lowercase().as_slice() {
        b"tx" => ChannelKind::TranslateX,
        b"ty" => ChannelKind::TranslateY,
        b"tz" => ChannelKind::TranslateZ,
        b"rx" => ChannelKind::RotateX,
        b"ry" => ChannelKind::RotateY,
        b"rz" => ChannelKind::RotateZ,
        b"l" => ChannelKind::Length,
        _ => return None,
    })
}

/// `a b c ORDER` → the rotation evaluated in ORDER (listed first is applied first).
fn axis_rotation(p: &mut P, angles: Vec3, order_tok: Tok, radians: bool) -> Result<Quat, ParseError> {
    let order = p.lower(order_tok);
    let mut kinds = Vec::with_capacity(3);
    let mut values = Vec::with_capacity(3);
    for &c in &order {
        let (kind, v) = match c {
            b'x' => (ChannelKind::RotateX, angles.x),
            b'y' => (ChannelKind::RotateY, angles.y),
            b'z' => (ChannelKind::RotateZ, angles.z),
            _ => return Err(ParseError::expected(order_tok.s as u64, "a rotation order such as XYZ", describe(&order))),
        };
        kinds.push(kind);
        values.push(if radians { v } else { v.to_radians() });
    }
    if kinds.len() != 3 || kinds[0] == kinds[1] || kinds[1] == kinds[2] || kinds[0] == kinds[2] {
        return Err(ParseError::expected(order_tok.s as u64, "a rotation order such as XYZ", describe(&order)));
    }
    Ok(compose_rotation(&kinds, &values, EulerConvention::LastOutermost))
}

/// What the `:` sections declared, gathered before any joint is built.
struct Sections {
    units_text: Option<String>,
    length_multiplier: f32,
    radians: bool,
    name: Option<String>,
    root_order: Vec<ChannelKind>,
    root_axis_tok: Option<Tok>,
    root_position: Vec3,
    root_orientation: Vec3,
    bones: Vec<Bone>,
    hierarchy: Vec<(Tok, Vec<Tok>)>,
    saw_bonedata: bool,
    saw_hierarchy: bool,
}

/// Parses an ASF file held in memory.
pub fn parse_asf(b: &[u8]) -> Result<Asf, ParseError> {
    let toks = tokenize(b);
    let mut p = P { b, t: &toks, i: 0, warnings: Vec::new() };
    let mut s = read_sections(&mut p)?;
    if !s.saw_bonedata && !s.saw_hierarchy && s.root_order.is_empty() {
        return Err(ParseError::expected(0, "an ASF file with :root, :bonedata and :hierarchy", "none of them"));
    }
    let root = root_joint(&mut p, &mut s)?;
    let joints = place_bones(&mut p, &s.bones, &s.hierarchy, root)?;
    let skeleton = Skeleton::new(joints, PositionRule::Add).map_err(|e| ParseError::invalid(0, e.to_string()))?;
    Ok(Asf {
        skeleton,
        units_text: s.units_text,
        length_multiplier: s.length_multiplier,
        radians: s.radians,
        name: s.name,
        warnings: p.warnings,
    })
}

/// Reads every `:keyword` section in file order; later sections see the units declared earlier.
fn read_sections(p: &mut P) -> Result<Sections, ParseError> {
    let mut s = Sections {
        units_text: None,
        length_multiplier: 1.0,
        radians: false,
        name: None,
        root_order: Vec::new(),
        root_axis_tok: None,
        root_position: Vec3::ZERO,
        root_orientation: Vec3::ZERO,
        bones: Vec::new(),
        hierarchy: Vec::new(),
        saw_bonedata: false,
        saw_hierarchy: false,
    };
    while let Some(t) = p.peek() {
        let word = p.lower(t);
        if word.first() != Some(&b':') {
            return Err(ParseError::expected(t.s as u64, "a ':' keyword such as :bonedata", describe(p.text(t))));
        }
        p.i += 1;
        match word.as_slice() {
            b":version" => read_version(p, t)?,
            b":name" => s.name = Some(read_name(p)),
            b":units" => read_units(p, t, &mut s)?,
            b":documentation" | b":skin" => p.skip_section(),
            b":root" => read_root(p, &mut s)?,
            b":bonedata" => {
                s.saw_bonedata = true;
                while p.peek().is_some() && !p.at_section() {
                    let begin = p.next("begin")?;
                    if p.lower(begin) != b"begin" {
                        return Err(ParseError::expected(begin.s as u64, "begin (start of a bone)", describe(p.text(begin))));
                    }
                    s.bones.push(parse_bone(p, begin, s.radians)?);
                }
            }
            b":hierarchy" => {
                s.saw_hierarchy = true;
                read_hierarchy(p, &mut s.hierarchy)?;
            }
            _ => {
                p.warnings.push(RawWarning { offset: t.s as u64, message: format!("unknown section {}; skipped", describe(p.text(t))) });
                p.skip_section();
            }
        }
    }
    Ok(s)
}

/// Reads the optional number after `:version`; anything outside 1.x is read as 1.10 with a warning.
fn read_version(p: &mut P, t: Tok) -> Result<(), ParseError> {
    if p.peek().is_some_and(|n| !n.first_on_line) {
        let v = p.number("a version number")?;
        if !(1.0..2.0).contains(&v) {
            p.warnings.push(RawWarning { offset: t.s as u64, message: format!("ASF version {v}; reading as 1.10") });
        }
    }
    Ok(())
}

/// Reads the rest of the `:name` line; the words are joined by single spaces.
fn read_name(p: &mut P) -> String {
    let mut parts = Vec::new();
    while let Some(n) = p.peek().filter(|n| !n.first_on_line) {
        parts.push(decode_name(p.text(n)));
        p.i += 1;
    }
    parts.join(" ")
}

/// Reads `:units` (length multiplier, angle unit; mass is skipped) and keeps the section text.
fn read_units(p: &mut P, t: Tok, s: &mut Sections) -> Result<(), ParseError> {
    let start = p.peek().map_or(t.e, |n| n.s);
    while p.peek().is_some() && !p.at_section() {
        let key = p.next("a unit name")?;
        match p.lower(key).as_slice() {
            b"length" => {
                s.length_multiplier = p.number("the length multiplier")?;
                if !(s.length_multiplier > 0.0) {
                    return Err(ParseError::expected(key.s as u64, "a positive length multiplier", format!("{}", s.length_multiplier)));
                }
            }
            b"mass" => {
                p.number("the mass multiplier")?;
            }
            b"angle" => {
                let v = p.next("deg or rad")?;
                s.radians = match p.lower(v).as_slice() {
                    b"deg" | b"degree" | b"degrees" => false,
                    b"rad" | b"radian" | b"radians" => true,
                    other => return Err(ParseError::expected(v.s as u64, "deg or rad", describe(other))),
                };
            }
            _ => {
                p.warnings.push(RawWarning { offset: key.s as u64, message: format!("unknown unit {}; ignored", describe(p.text(key))) });
                p.i -= 1;
                p.skip_line();
            }
        }
    }
    let end = p.peek().map_or(p.b.len(), |n| n.s);
    s.units_text = Some(decode_name(&p.b[start.min(end)..end]).split_whitespace().collect::<Vec<_>>().join(" "));
    Ok(())
}

/// Reads `:root`: channel order, axis order, position and orientation.
fn read_root(p: &mut P, s: &mut Sections) -> Result<(), ParseError> {
    while p.peek().is_some() && !p.at_section() {
        let key = p.next("a root field")?;
        match p.lower(key).as_slice() {
            b"axis" => s.root_axis_tok = Some(p.next("the root axis order")?),
            b"order" => {
                s.root_order.clear();
                while let Some(kind) = p.peek().and_then(|n| dof_kind(p.text(n))) {
                    s.root_order.push(kind);
                    p.i += 1;
                }
            }
            b"position" => s.root_position = p.vec3("a root position value")?,
            b"orientation" => s.root_orientation = p.vec3("a root orientation value")?,
            _ => {
                p.warnings.push(RawWarning {
                    offset: key.s as u64,
                    message: format!("unknown root field {}; line ignored", describe(p.text(key))),
                });
                p.i -= 1;
                p.skip_line();
            }
        }
    }
    Ok(())
}

/// Reads `:hierarchy` up to its `end`: one `parent child child ...` line per parent.
fn read_hierarchy(p: &mut P, hierarchy: &mut Vec<(Tok, Vec<Tok>)>) -> Result<(), ParseError> {
    let begin = p.next("begin")?;
    if p.lower(begin) != b"begin" {
        return Err(ParseError::expected(begin.s as u64, "begin", describe(p.text(begin))));
    }
    // `end` may also close the last parent line instead of standing alone.
    let mut done = false;
    while !done {
        let first = p.next("a parent name or end")?;
        if p.lower(first) == b"end" {
            break;
        }
        let mut children = Vec::new();
        while let Some(n) = p.peek().filter(|n| !n.first_on_line) {
            p.i += 1;
            if p.lower(n) == b"end" {
                done = true;
                break;
            }
            children.push(n);
        }
        hierarchy.push((first, children));
    }
    Ok(())
}

/// Builds the root joint from `:root`; its channel order is moved out of `s`.
fn root_joint(p: &mut P, s: &mut Sections) -> Result<Joint, ParseError> {
    let mut root = Joint::new("root", None, s.root_position);
    let root_axis = match s.root_axis_tok {
        Some(tok) => axis_rotation(p, s.root_orientation, tok, s.radians)?,
        None => Quat::IDENTITY,
    };
    root.pre_rotation = root_axis;
    root.post_rotation = root_axis.inverse();
    root.channels = std::mem::take(&mut s.root_order);
    root.euler = EulerConvention::LastOutermost;
    Ok(root)
}

/// Resolves `:hierarchy` names to bones, keyed by lower-cased parent name, in listed order.
fn children_by_parent(p: &P, bones: &[Bone], hierarchy: &[(Tok, Vec<Tok>)]) -> Result<HashMap<String, Vec<(usize, Tok)>>, ParseError> {
    let by_name: HashMap<String, usize> = bones.iter().enumerate().map(|(i, b)| (b.name.to_ascii_lowercase(), i)).collect();
    let mut children_of: HashMap<String, Vec<(usize, Tok)>> = HashMap::new();
    for (parent, children) in hierarchy {
        let parent_name = decode_name(p.text(*parent)).to_ascii_lowercase();
        if parent_name != "root" && !by_name.contains_key(&parent_name) {
            return Err(ParseError::expected(parent.s as u64, "root or a bone defined in :bonedata", describe(p.text(*parent))));
        }
        for c in children {
            let child = decode_name(p.text(*c)).to_ascii_lowercase();
            let Some(&bone) = by_name.get(&child) else {
                return Err(ParseError::expected(c.s as u64, "a bone defined in :bonedata", describe(p.text(*c))));
            };
            children_of.entry(parent_name.clone()).or_default().push((bone, *c));
        }
    }
    Ok(children_of)
}

/// Places bones after `root` in depth-first order of the hierarchy, so parents come before
/// children; warns about second parents and bones left out of the hierarchy.
fn place_bones(p: &mut P, bones: &[Bone], hierarchy: &[(Tok, Vec<Tok>)], root: Joint) -> Result<Vec<Joint>, ParseError> {
    let children_of = children_by_parent(p, bones, hierarchy)?;
    let mut joints = vec![root];
    let mut placed = vec![false; bones.len()];
    let mut stack: Vec<(usize, String)> = vec![(0, "root".to_owned())];
    while let Some((parent_joint, parent_name)) = stack.pop() {
        let Some(kids) = children_of.get(&parent_name) else { continue };
        // Push in reverse so the first listed child is placed first.
        let mut to_visit = Vec::new();
        for &(bone, tok) in kids {
            if placed[bone] {
                p.warnings.push(RawWarning {
                    offset: tok.s as u64,
                    message: format!("bone '{}' has a second parent; ignored", bones[bone].name),
                });
                continue;
            }
            placed[bone] = true;
            joints.push(bone_joint(&bones[bone], parent_joint));
            to_visit.push((joints.len() - 1, bones[bone].name.to_ascii_lowercase()));
        }
        stack.extend(to_visit.into_iter().rev());
    }
    for (i, b) in bones.iter().enumerate() {
        if !placed[i] {
            p.warnings.push(RawWarning { offset: b.offset as u64, message: format!("bone '{}' is not in :hierarchy; not shown", b.name) });
        }
    }
    Ok(joints)
}

/// The joint at the far end of bone `b`; limits are kept only when there is one per dof.
fn bone_joint(b: &Bone, parent_joint: usize) -> Joint {
    let mut j = Joint::new(b.name.clone(), Some(parent_joint), Vec3::ZERO);
    j.tail = b.direction * b.length;
    j.pre_rotation = b.axis;
    j.post_rotation = b.axis.inverse();
    j.channels = b.dof.clone();
    j.limits = if b.limits.len() == b.dof.len() { b.limits.clone() } else { Vec::new() };
    j.euler = EulerConvention::LastOutermost;
    j
}

fn parse_bone(p: &mut P, begin: Tok, radians: bool) -> Result<Bone, ParseError> {
    let mut bone = Bone {
        name: String::new(),
        offset: begin.s,
        direction: Vec3::Y,
        length: 0.0,
        axis: Quat::IDENTITY,
        dof: Vec::new(),
        limits: Vec::new(),
    };
    let mut direction_at = None;
    loop {
        let key = p.next("a bone field or end")?;
        match p.lower(key).as_slice() {
            b"end" => break,
            b"id" => {
                p.number("a bone id")?;
            }
            b"name" => {
                let n = p.next("a bone name")?;
                bone.name = decode_name(p.text(n));
                bone.offset = n.s;
            }
            b"direction" => {
                direction_at = Some(key.s);
                bone.direction = p.vec3("a direction value")?;
            }
            b"length" => {
                bone.length = p.number("a bone length")?;
            }
            b"axis" => {
                let angles = p.vec3("an axis angle")?;
                let order = p.next("an axis order such as XYZ")?;
                bone.axis = axis_rotation(p, angles, order, radians)?;
            }
            b"dof" => {
                bone.dof.clear();
                while let Some(kind) = p.peek().and_then(|n| dof_kind(p.text(n))) {
                    bone.dof.push(kind);
                    p.i += 1;
                }
            }
            b"limits" => read_limits(p, &mut bone, radians)?,
            b"bodymass" | b"cofmass" => {
                p.number("a number")?;
            }
            b"begin" => return Err(ParseError::expected(key.s as u64, "end (closing the previous bone)", "begin")),
            w if w.first() == Some(&b':') => {
                return Err(ParseError::expected(key.s as u64, "end (closing the bone)", describe(p.text(key))));
            }
            _ => {
                p.warnings.push(RawWarning {
                    offset: key.s as u64,
                    message: format!("unknown bone field {}; line ignored", describe(p.text(key))),
                });
                p.i -= 1;
                p.skip_line();
            }
        }
    }
    finish_bone(p, bone, begin, direction_at)
}

/// Checks a bone read up to its `end`: it needs a name, and a non-zero direction unless its
/// length is zero; a direction that is not unit length is normalised with a warning.
fn finish_bone(p: &mut P, mut bone: Bone, begin: Tok, direction_at: Option<usize>) -> Result<Bone, ParseError> {
    if bone.name.is_empty() {
        return Err(ParseError::expected(begin.s as u64, "a bone with a name", "none"));
    }
    let len = bone.direction.length();
    if !(len > 0.0) && bone.length != 0.0 {
        return Err(ParseError::invalid(direction_at.unwrap_or(begin.s) as u64, format!("bone '{}' has a zero direction", bone.name)));
    }
    if len > 0.0 && (len - 1.0).abs() > 1e-3 {
        p.warnings.push(RawWarning {
            offset: direction_at.unwrap_or(begin.s) as u64,
            message: format!("direction of bone '{}' has length {len}; normalised", bone.name),
        });
        bone.direction /= len;
    }
    Ok(bone)
}

/// Reads one `(lo hi)` pair per dof already declared; rotation limits are stored in radians.
fn read_limits(p: &mut P, bone: &mut Bone, radians: bool) -> Result<(), ParseError> {
    bone.limits.clear();
    for kind in bone.dof.clone() {
        let (mut lo, mut hi) = (p.limit()?, p.limit()?);
        if kind.is_rotation() && !radians {
            lo = lo.to_radians();
            hi = hi.to_radians();
        }
        bone.limits.push((lo, hi));
    }
    Ok(())
}
