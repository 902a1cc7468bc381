//! The book's reference pages, made from the code they describe: the format table (readers,
//! writers, name maps), every format's read options, the edit operations' declarations, the
//! command line (clap's own help for
//! each subcommand) and the keyboard shortcuts (the viewer's action table). `tests/docs.rs`
//! fails when a page in `docs/src/reference/` differs from what this makes, and writes them
//! when asked (`SKELVIEW_UPDATE_DOCS=1`).

use std::fmt::Write;

use skelview_core::formats::{OptionScope, OptionValues, table};
use skelview_viewer::app::actions::{ACTIONS, GESTURES};

use super::args::cli_command;
use super::formats_cmd::rows;

/// The first line of every generated page.
pub const GENERATED: &str = "<!-- generated: do not edit; the docs test writes this page -->";

/// `(file name under docs/src/reference/, text)` of every generated page.
pub fn reference_pages() -> Vec<(&'static str, String)> {
    vec![
        ("formats.md", formats()),
        ("format-options.md", format_options()),
        ("edit-operations.md", edit_operations()),
        ("cli.md", cli()),
        ("shortcuts.md", shortcuts()),
    ]
}

/// A Markdown table cell: no pipes or line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn formats() -> String {
    let mut page = format!("{GENERATED}\n\n# Formats\n\n");
    page.push_str("Every format skelview reads or writes, as `skelview formats` lists it (`--json` for the same as data).\n");
    page.push_str("A file is recognised by its extension first, then by its content.\n\n");
    page.push_str("| Format | Extensions | Reads | Writes | MIME types | What it is |\n|---|---|---|---|---|---|\n");
    for r in rows() {
        let writes = if r.written_as.is_empty() { "no".to_owned() } else { r.written_as.join(" ") };
        let mime = if r.mime_types.is_empty() { "-".to_owned() } else { r.mime_types.join(", ") };
        let _ = writeln!(
            page,
            "| {} | {} | {} | {} | {} | {} |",
            cell(r.name),
            r.extensions.join(" "),
            r.reads,
            writes,
            cell(&mime),
            cell(r.description)
        );
    }
    page
}

fn format_options() -> String {
    let mut page = format!("{GENERATED}\n\n# Format options\n\n");
    page.push_str("How a format's files are read, set by key: `--format-option KEY=VALUE` on the command line, ");
    page.push_str("`options={\"KEY\": \"VALUE\"}` in Python, and the View menu per file in the viewer. An option with a flag of its own ");
    page.push_str("takes it too, on the command line and as a Python keyword. A value chosen in the viewer is remembered for ");
    page.push_str("the file it was chosen for, or, for the user's own resources (a body model folder), for every file.\n");
    for f in table::FORMATS.iter().filter(|f| !f.options().is_empty()) {
        let _ = write!(
            page,
            "\n## {}\n\n| Key | Values | Default | What it does | Viewer remembers it for |\n|---|---|---|---|---|\n",
            f.name()
        );
        for o in f.options() {
            let (values, default) = match &o.values {
                OptionValues::Choice { choices, default } => {
                    (choices.iter().map(|c| format!("`{}`", c.value)).collect::<Vec<_>>().join(", "), format!("`{default}`"))
                }
                OptionValues::Number { min, max, default, unit, .. } => (format!("{min} to {max} {unit}"), format!("`{default}`")),
                OptionValues::Path { hint } => (format!("a path: `{}`", hint.replace('|', "\\|")), "none".into()),
            };
            let key = match o.alias {
                Some(alias) => format!("`{}` (`--{alias}`, Python `{}=`)", o.key, alias.replace('-', "_")),
                None => format!("`{}`", o.key),
            };
            let scope = match o.scope {
                OptionScope::File => "the file",
                OptionScope::User => "every file",
            };
            let _ = writeln!(page, "| {key} | {} | {} | {} | {scope} |", values, default, cell(o.help));
        }
    }
    page
}

fn edit_operations() -> String {
    use skelview_core::edit::OPERATIONS;
    use skelview_core::edit::spec::{Kind, Taken};
    let mut page = format!("{GENERATED}\n\n# Edit operations\n\n");
    page.push_str("Every operation of a recipe, as the engine declares it: the command line's flag (`skelview edit`), the recipe's ");
    page.push_str("`op` and keys, Python's keyword (`Motion.edit(NAME=...)`, a plain value setting the first parameter the flag ");
    page.push_str("carries, or a dict of parameters) and the viewer's Edits window are all made from these declarations.\n\n");
    page.push_str("| Command line | Recipe `op` (keys) | What it does | Gaps, rotations, captures |\n|---|---|---|---|\n");
    for spec in OPERATIONS.iter().copied() {
        let value = spec.value_name();
        let flag = if value.is_empty() { format!("`--{}`", spec.flag()) } else { format!("`--{} {value}`", spec.flag()) };
        let keys: Vec<String> = spec.params.iter().map(|p| format!("`{}`", p.key)).collect();
        let recipe = if keys.is_empty() { format!("`{}`", spec.name) } else { format!("`{}` ({})", spec.name, keys.join(", ")) };
        let _ = writeln!(page, "| {} | {} | {} | {} |", cell(&flag), cell(&recipe), cell(spec.help), cell(spec.notes));
    }
    page.push_str("\n## Parameters\n");
    for spec in OPERATIONS.iter().copied().filter(|s| !s.params.is_empty()) {
        let _ = write!(
            page,
            "\n### {} ({})\n\n| Key | Values | When not given | What it is | In the viewer |\n|---|---|---|---|---|\n",
            spec.name, spec.label
        );
        for p in spec.params {
            let values = match &p.kind {
                Kind::Number { min, max, integer, unit, .. } => {
                    format!(
                        "{} {min} to {max}{}",
                        if *integer { "a whole number" } else { "a number" },
                        if unit.is_empty() { String::new() } else { format!(" {unit}") }
                    )
                }
                Kind::Choice { choices, .. } => choices.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", "),
                Kind::Text { .. } => "text".into(),
                Kind::Names => "joint or marker names".into(),
                Kind::Range { .. } => "frames `A:B` (from 0, negative from the end) or seconds `1.5s:3s`".into(),
            };
            let absent = p.kind.default_text().unwrap_or_else(|| "required".into());
            let viewer = match p.from {
                Taken::Form => "a field of the form",
                Taken::Selection { optional: true } => "the selected joint, when asked",
                Taken::Selection { optional: false } => "the selected joint",
                Taken::InOut { optional: true } => "the in/out range, when asked",
                Taken::InOut { optional: false } => "the in/out range",
                Taken::FrameShown => "the frame shown",
                Taken::TimeShown => "the time shown",
                Taken::Nowhere => "-",
            };
            let _ = writeln!(page, "| `{}` | {} | {} | {} | {} |", p.key, cell(&values), cell(&absent), cell(p.help), viewer);
        }
    }
    page
}

fn cli() -> String {
    let mut page = format!("{GENERATED}\n\n# Command line\n\n");
    page.push_str("`skelview --help` and `skelview COMMAND --help` print these pages.\n");
    let mut command = cli_command().term_width(100);
    command.build();
    let _ = write!(page, "\n## skelview\n\n```text\n{}```\n", command.render_long_help());
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name().to_owned();
        let help = sub.clone().render_long_help();
        let _ = write!(page, "\n## skelview {name}\n\n```text\n{help}```\n");
    }
    page
}

fn shortcuts() -> String {
    let mut page = format!("{GENERATED}\n\n# Keyboard shortcuts\n\n");
    page.push_str("The viewer's menus, its keys and its F1 list are made from one action table; this page is made from it too.\n\n");
    page.push_str("| Keys | Action |\n|---|---|\n");
    for a in ACTIONS {
        let keys = if a.keys.is_empty() { "(menu only)" } else { a.keys };
        let _ = writeln!(page, "| {} | {} |", cell(keys), cell(a.help));
    }
    page.push_str("\n## Mouse and drops\n\n| Gesture | Action |\n|---|---|\n");
    for (gesture, what) in GESTURES {
        let _ = writeln!(page, "| {} | {} |", cell(gesture), cell(what));
    }
    page
}
