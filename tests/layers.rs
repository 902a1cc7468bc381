//! The layering rule: every `crate::…` path in a file under `src/` names a module of the
//! same layer or a lower one. Layers, bottom to top:
//! core ← formats ← cache, compare, export, qa ← scene ← render ← app ← ui ← window, cli;
//! `main.rs` sits on top. Also: `cli` is imported only by `main.rs`, `app` names neither
//! egui nor winit, and no two modules import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Rank of each top-level module; a file may import ranks at or below its own.
const LAYERS: &[(&str, u32)] = &[
    ("core", 0),
    ("formats", 1),
    ("cache", 2),
    ("compare", 2),
    ("export", 2),
    ("qa", 2),
    ("scene", 3),
    ("render", 4),
    ("app", 5),
    ("ui", 6),
    ("window", 7),
    ("cli", 7),
];

fn rank(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`src/app/session.rs` → `app`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_owned()
}

/// Top-level modules named by `crate::x` paths in `text`, including inside `use crate::{a, b}`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // Comments may mention paths; only code counts.
    let code: String = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
        rest = after;
    }
    out
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "main" || module == "lib" {
            continue;
        }
        let Some(own) = rank(&module) else { panic!("{}: module '{module}' has no layer in tests/layers.rs", file.display()) };
        let text = std::fs::read_to_string(file).unwrap();
        for target in imports(&text) {
            if target == module {
                continue;
            }
            let Some(theirs) = rank(&target) else { continue };
            edges.entry(module.clone()).or_default().insert(target.clone());
            if theirs > own || (theirs == own && target != module) {
                upward.push(format!("{}: {module} (layer {own}) imports {target} (layer {theirs})", file.display()));
            }
        }
        if module == "app" {
            for banned in ["egui", "winit"] {
                let code: String = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
                assert!(
                    !code.contains(&format!("{banned}::")) && !code.contains(&format!("use {banned}")),
                    "{}: app must not use {banned}",
                    file.display()
                );
            }
        }
    }
    assert!(upward.is_empty(), "imports that run upward or sideways:\n{}", upward.join("\n"));
    for (from, targets) in &edges {
        for to in targets {
            assert!(!edges.get(to).is_some_and(|t| t.contains(from)), "import cycle: {from} ↔ {to}");
        }
    }
    assert!(edges.values().all(|t| !t.contains("cli")), "cli is imported only by main.rs: {edges:?}");
    assert!(!edges.get("compare").is_some_and(|t| t.contains("render")), "compare must not import render");
    // main.rs dispatches to the command line or the window and nothing else.
    let main = std::fs::read_to_string(src.join("main.rs")).unwrap();
    assert!(main.contains("cli::") && main.contains("window::run"));
}

#[test]
fn the_import_reader_sees_grouped_and_nested_paths() {
    let text =
        "use crate::core::{Clip, Motion};\nuse crate::{formats, scene::Style};\nfn f() { crate::render::x(); } // crate::ui in a comment";
    assert_eq!(imports(text).into_iter().collect::<Vec<_>>(), ["core", "formats", "render", "scene"]);
}
