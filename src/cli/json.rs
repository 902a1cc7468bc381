//! A tiny JSON writer for `info --json` (a few flat objects: no need for serde).

use std::fmt::Write;

/// Builds one JSON object, field by field.
pub struct Obj {
    buf: String,
    first: bool,
}

impl Obj {
    /// `{`
    pub fn new() -> Self {
        Self { buf: String::from("{"), first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.buf.push(',');
        }
        self.first = false;
        string(&mut self.buf, k);
        self.buf.push(':');
    }

    /// A string field.
    pub fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        string(&mut self.buf, v);
        self
    }

    /// A number field (`null` when not finite).
    pub fn num(&mut self, k: &str, v: f64) -> &mut Self {
        self.key(k);
        if v.is_finite() {
            let _ = write!(self.buf, "{v}");
        } else {
            self.buf.push_str("null");
        }
        self
    }

    /// A boolean field.
    pub fn bool(&mut self, k: &str, v: bool) -> &mut Self {
        self.key(k);
        self.buf.push_str(if v { "true" } else { "false" });
        self
    }

    /// A field holding already-encoded JSON.
    pub fn raw(&mut self, k: &str, json: &str) -> &mut Self {
        self.key(k);
        self.buf.push_str(json);
        self
    }

    /// `}`
    pub fn finish(&mut self) -> String {
        self.buf.push('}');
        std::mem::take(&mut self.buf)
    }
}

/// A JSON array of already-encoded items.
pub fn array(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join(","))
}

/// A JSON string literal.
pub fn quoted(s: &str) -> String {
    let mut b = String::new();
    string(&mut b, s);
    b
}

fn string(buf: &mut String, s: &str) {
    buf.push('"');
    for c in s.chars() {
        match c {
            '"' => buf.push_str("\\\""),
            '\\' => buf.push_str("\\\\"),
            '\n' => buf.push_str("\\n"),
            '\r' => buf.push_str("\\r"),
            '\t' => buf.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(buf, "\\u{:04x}", c as u32);
            }
            c => buf.push(c),
        }
    }
    buf.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_nests() {
        let inner = array(vec![quoted("a\"b"), quoted("\u{1}")]);
        let s = Obj::new().str("k", "x\\y").num("n", 1.5).num("bad", f64::NAN).bool("b", true).raw("a", &inner).finish();
        assert_eq!(s, r#"{"k":"x\\y","n":1.5,"bad":null,"b":true,"a":["a\"b","\u0001"]}"#);
    }
}
