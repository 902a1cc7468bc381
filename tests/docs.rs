//! The book (docs/, mdBook): its generated reference pages equal what the code makes of the
//! format table, the edit operations' declarations, clap and the action table (`SKELVIEW_UPDATE_DOCS=1` writes them), every page
//! SUMMARY.md lists exists, and the README stays short.

use std::path::Path;

use skelview::cli::docs::{GENERATED, reference_pages};

fn docs() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src"))
}

#[test]
fn the_generated_reference_pages_match_the_code() {
    let update = std::env::var("SKELVIEW_UPDATE_DOCS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, text) in reference_pages() {
        assert!(text.starts_with(GENERATED), "{name}: no generated mark");
        let path = docs().join("reference").join(name);
        if update {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        if on_disk != text {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated pages differ from the code (SKELVIEW_UPDATE_DOCS=1 cargo test --test docs rewrites them): {stale:?}"
    );
}

#[test]
fn the_pages_hold_what_the_tables_hold() {
    let pages: std::collections::HashMap<_, _> = reference_pages().into_iter().collect();
    assert!(pages["formats.md"].contains("| BVH | .bvh | motion | .bvh |"), "{}", pages["formats.md"]);
    assert!(pages["formats.md"].contains("| MOT | .mot .sto | motion | .mot |"), "read and written");
    assert!(pages["format-options.md"].contains("| `amc.fps` (`--amc-fps`, Python `amc_fps=`) |"));
    assert!(pages["format-options.md"].contains("| `fbx.joints` |"), "an option without a flag");
    let edits = &pages["edit-operations.md"];
    assert!(edits.contains("| `--filter butterworth:CUTOFF_HZ[:ORDER]` | `filter` (`cutoff_hz`, `order`, `joints`, `range`) |"), "{edits}");
    assert!(edits.contains("### fill_gaps (Fill gaps)") && edits.contains("| `max_gap` | a whole number 1 to"), "{edits}");
    assert!(pages["cli.md"].contains("## skelview convert") && pages["cli.md"].contains("Usage: skelview convert"));
    assert!(pages["shortcuts.md"].contains("| Space | play / pause |"));
}

#[test]
fn every_page_in_the_summary_exists_and_the_readme_is_short() {
    let summary = std::fs::read_to_string(docs().join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let mut listed = 0;
    for link in summary.split("](").skip(1) {
        let target = link.split(')').next().unwrap();
        assert!(docs().join(target).is_file(), "SUMMARY.md lists {target}, which is missing");
        listed += 1;
    }
    assert!(listed >= 10, "{listed} pages");
    for (name, _) in reference_pages() {
        assert!(summary.contains(&format!("reference/{name}")), "SUMMARY.md does not list reference/{name}");
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.lines().count() <= 200, "README.md has {} lines (at most 200: the rest belongs in the book)", readme.lines().count());
}
