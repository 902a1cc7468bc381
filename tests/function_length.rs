//! The house rule "a function past ~80 lines is split": no function outside tests is longer
//! than 80 lines, from its `fn` line to its closing brace, in any crate of the workspace.

use std::path::{Path, PathBuf};

const LIMIT: usize = 80;

/// Braces of `line` outside strings, characters and comments, as +1 / −1; `block` carries an
/// open `/* */` comment from line to line.
fn brace_steps(line: &str, block: &mut bool) -> Vec<i32> {
    let chars: Vec<char> = line.chars().collect();
    let (mut steps, mut k, mut in_string) = (Vec::new(), 0, false);
    while k < chars.len() {
        let c = chars[k];
        let next = chars.get(k + 1).copied();
        if *block {
            if c == '*' && next == Some('/') {
                *block = false;
                k += 1;
            }
        } else if in_string {
            if c == '\\' {
                k += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '/' && next == Some('/') {
            break;
        } else if c == '/' && next == Some('*') {
            *block = true;
            k += 1;
        } else if c == '"' {
            in_string = true;
        } else if c == '\'' && (next == Some('\\') || chars.get(k + 2) == Some(&'\'')) {
            // A character literal ('{', '\n'), not a lifetime.
            k += if next == Some('\\') { 3 } else { 2 };
        } else if c == '{' {
            steps.push(1);
        } else if c == '}' {
            steps.push(-1);
        }
        k += 1;
    }
    steps
}

/// True for a line that starts a function (`pub(crate) fn name`, `async fn`…).
fn starts_fn(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    for prefix in ["pub(crate) ", "pub(super) ", "pub(in crate::edit) ", "pub ", "const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    Some(name.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or_default().to_owned())
}

/// `(name, lines)` of every function in `text` longer than [`LIMIT`], outside `#[cfg(test)]`
/// modules.
fn long_functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut block = false;
    let mut k = 0;
    while k < lines.len() {
        let test_module = lines[k].trim() == "#[cfg(test)]" && lines.get(k + 1).is_some_and(|l| l.trim_start().starts_with("mod "));
        let name = starts_fn(lines[k]);
        if !test_module && name.is_none() {
            brace_steps(lines[k], &mut block);
            k += 1;
            continue;
        }
        // Walk to the end of the item: the brace that closes its first `{`, or a `;` first
        // (a declaration without a body).
        let start = k;
        let mut depth = 0;
        let mut opened = false;
        k += usize::from(test_module);
        while let Some(line) = lines.get(k) {
            for step in brace_steps(line, &mut block) {
                depth += step;
                opened = true;
            }
            if !opened && line.trim_end().ends_with(';') {
                break;
            }
            if opened && depth <= 0 {
                break;
            }
            k += 1;
        }
        if let Some(name) = name.filter(|_| !test_module) {
            let length = k - start + 1;
            if opened && length > LIMIT {
                out.push((name, length));
            }
        }
        k += 1;
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_function_outside_tests_is_over_80_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        rust_files(&krate.path().join("src"), &mut files);
    }
    rust_files(&root.join("python/src"), &mut files);
    let mut long = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (function, lines) in long_functions(&text) {
            long.push(format!("{} {function}: {lines} lines", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(long.is_empty(), "functions over {LIMIT} lines (split them by what each part does):\n{}", long.join("\n"));
}

#[test]
fn the_count_sees_strings_comments_and_test_modules() {
    let body = |n: usize| "    let x = \"}\"; // }\n".repeat(n);
    let long = format!("fn long() {{\n{}}}\n", body(80));
    let short = format!("fn short() {{\n{}}}\n", body(78));
    assert_eq!(long_functions(&long), [("long".to_owned(), 82)]);
    assert!(long_functions(&short).is_empty());
    let in_tests = format!("#[cfg(test)]\nmod tests {{\n{long}}}\n");
    assert!(long_functions(&in_tests).is_empty(), "test modules do not count");
    let declared = "pub fn f(x: u8) -> u8;\nfn g() {\n    let c = '{';\n}\n";
    assert!(long_functions(declared).is_empty());
}
