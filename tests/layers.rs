//! The layering rule inside each crate of the workspace: every `crate::…` path in a file
//! names a module of a lower layer. Between crates Cargo enforces the direction, and Cargo's
//! own dependency graph (`cargo tree`) is checked for what each crate must not pull in: the
//! viewer state no egui, winit, wgpu or rfd, the renderer no skelview-core. Also: `cli` is
//! imported only by `main.rs`, skelview-core spawns no threads (parallelism only through its
//! `par` module), and no two modules import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each crate's source folder and the rank of each of its top-level modules; a file may
/// import ranks below its own. Between crates Cargo enforces the direction.
const CRATES: &[(&str, &[(&str, u32)])] = &[
    (
        "crates/skelview-core/src",
        &[
            ("big_pages", 0),
            ("par", 0),
            ("core", 1),
            ("retarget", 2),
            ("export", 3),
            ("formats", 4),
            ("compare", 5),
            ("qa", 5),
            ("edit", 6),
        ],
    ),
    ("crates/skelview-draw/src", &[("camera", 0), ("gpu_types", 0), ("skins", 0)]),
    (
        "crates/skelview-scene/src",
        &[("skins", 0), ("clips", 0), ("draw", 0), ("comparison", 1), ("markers", 1), ("overlays", 1), ("compose", 2)],
    ),
    ("crates/skelview-render/src", &[("depth", 0), ("gamma", 0), ("meshes", 0), ("skins", 0), ("renderer", 1), ("offscreen", 2)]),
    ("crates/skelview-video/src", &[("encode", 0), ("sequence", 1)]),
    ("crates/skelview-viewer/src", &[("browser", 0), ("platform", 1), ("tasks", 2), ("app", 3)]),
    // `app`, `tasks` and `browser` are the viewer crate's, re-exported: ranked here for the
    // paths that name them.
    ("src", &[("browser", 0), ("platform", 1), ("tasks", 2), ("app", 3), ("ui", 4), ("host", 4), ("window", 5), ("cli", 5)]),
];

fn rank(layers: &[(&str, u32)], module: &str) -> Option<u32> {
    layers.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut upward = Vec::new();
    for (dir, layers) in CRATES {
        let src = root.join(dir);
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let module = module_of(&src, file);
            if module == "main" || module == "lib" {
                continue;
            }
            let Some(own) = rank(layers, &module) else { panic!("{}: module '{module}' has no layer in tests/layers.rs", file.display()) };
            let text = std::fs::read_to_string(file).unwrap();
            let code = code_of(&text);
            for target in imports(&text) {
                if target == module {
                    continue;
                }
                let Some(theirs) = rank(layers, &target) else { continue };
                edges.entry(module.clone()).or_default().insert(target.clone());
                if theirs >= own {
                    upward.push(format!("{}: {module} (layer {own}) imports {target} (layer {theirs})", file.display()));
                }
            }
            if dir.starts_with("crates/skelview-core") {
                // The engine runs where threads may not exist (a browser): parallelism only through `par`.
                for banned in ["std::thread", "rayon"] {
                    assert!(module == "par" || !code.contains(banned), "{}: skelview-core uses {banned} outside par", file.display());
                }
            }
        }
        for (from, targets) in &edges {
            for to in targets {
                assert!(!edges.get(to).is_some_and(|t| t.contains(from)), "import cycle: {from} ↔ {to}");
            }
        }
        assert!(edges.values().all(|t| !t.contains("cli")), "cli is imported only by main.rs: {edges:?}");
    }
    assert!(upward.is_empty(), "imports that run upward or sideways:\n{}", upward.join("\n"));
    // main.rs dispatches to the command line or the window and nothing else.
    let main = std::fs::read_to_string(root.join("src/main.rs")).unwrap();
    assert!(main.contains("cli::") && main.contains("window::run"));
}

/// The text of `text` without its `//` comments.
fn code_of(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The packages in `krate`'s normal dependency graph as Cargo resolves it (`cargo tree`).
fn dependency_graph(krate: &str) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["tree", "-p", krate, "-e", "normal", "--prefix", "none", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree -p {krate}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect()
}

#[test]
fn each_crate_pulls_in_only_what_its_layer_allows() {
    const UI: &[&str] = &["winit", "egui", "egui-wgpu", "egui-winit", "rfd"];
    for (krate, banned) in [
        ("skelview-core", &["wgpu", "pollster", "naga", "skelview-draw"][..]),
        ("skelview-draw", &["wgpu", "skelview-core"][..]),
        ("skelview-scene", &["wgpu", "naga"][..]),
        ("skelview-render", &["skelview-core", "skelview-scene"][..]),
        ("skelview-video", &[][..]),
        ("skelview-viewer", &["wgpu", "skelview-render", "skelview-video", "naga"][..]),
    ] {
        let graph = dependency_graph(krate);
        assert!(graph.contains(krate), "cargo tree -p {krate} lists the crate itself: {graph:?}");
        for b in banned.iter().chain(UI) {
            assert!(!graph.contains(*b), "{krate} depends on {b} (cargo tree -p {krate} -i {b} shows the path)");
        }
    }
}

#[test]
fn the_graph_reader_sees_what_a_crate_pulls_in() {
    // The check above must be able to fail: the renderer really does pull in wgpu.
    let graph = dependency_graph("skelview-render");
    assert!(graph.contains("wgpu") && graph.contains("skelview-draw"), "{graph:?}");
}

#[test]
fn the_import_reader_sees_grouped_and_nested_paths() {
    let text =
        "use crate::core::{Clip, Motion};\nuse crate::{formats, scene::Style};\nfn f() { crate::render::x(); } // crate::ui in a comment";
    assert_eq!(imports(text).into_iter().collect::<Vec<_>>(), ["core", "formats", "render", "scene"]);
}

#[test]
fn the_panels_change_the_viewer_only_by_sending_commands() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut files = Vec::new();
    rust_files(&ui, &mut files);
    let mut writes = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_of(&text).lines().enumerate() {
            let l = line.replace(' ', "");
            let assigns = l.find("viewer.").is_some_and(|i| {
                let rest = &l[i..];
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).unwrap_or(rest.len());
                rest[end..].starts_with('=') && !rest[end..].starts_with("==")
            });
            let mutates = ["&mutviewer.", "viewer.commands", ".take()", ".retain(", ".get_or_insert("]
                .iter()
                .any(|p| l.contains(p) && (p.contains("viewer") || l.contains("viewer.")));
            if assigns || mutates {
                writes.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(writes.is_empty(), "ui/ writes the viewer's state instead of sending a command:\n{}", writes.join("\n"));
}

/// `Result<…, String>` in `text` outside its `#[cfg(test)]` part: errors that lost their type.
fn text_errors(text: &str) -> Vec<String> {
    let code = code_of(text.split("#[cfg(test)]").next().unwrap_or(""));
    let flat = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (i, _) in flat.match_indices("Result<") {
        // The generic arguments, up to the `>` that closes `Result<`.
        let mut depth = 0;
        let rest = &flat[i + "Result".len()..];
        let end = rest.char_indices().find_map(|(j, c)| {
            depth += match c {
                '<' => 1,
                '>' => -1,
                _ => 0,
            };
            (depth == 0).then_some(j)
        });
        if let Some(args) = end.map(|j| &rest[1..j])
            && args.trim_end().ends_with(", String")
        {
            found.push(format!("Result<{args}>"));
        }
    }
    found
}

#[test]
fn errors_keep_their_types() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "python/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !f.components().any(|c| c.as_os_str() == "tests") && !f.ends_with("tests.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        found.extend(text_errors(&text).into_iter().map(|r| format!("{}: {r}", file.display())));
    }
    assert!(found.is_empty(), "errors carried as text; give them a thiserror type:\n{}", found.join("\n"));
}

#[test]
fn the_text_error_reader_sees_nested_and_wrapped_results() {
    let text = "fn a() -> Result<Vec<Option<usize>>, String> {}\nfn b() -> std::io::Result<String> {}\nfn c() -> Result<Vec<String>,\n    E> {}\n#[cfg(test)]\nfn d() -> Result<(), String> {}";
    assert_eq!(text_errors(text), ["Result<Vec<Option<usize>>, String>"]);
}
