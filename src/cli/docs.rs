//! The book's reference pages, made from the code they describe: the format table (readers,
//! writers, name maps), every format's read options, the command line (clap's own help for
//! each subcommand) and the keyboard shortcuts (the viewer's action table). `tests/docs.rs`
//! fails when a page in `docs/src/reference/` differs from what this makes, and writes them
//! when asked (`SKELVIEW_UPDATE_DOCS=1`).

use std::fmt::Write;

use skelview_core::formats::{OptionValues, table};
use skelview_viewer::app::actions::{ACTIONS, GESTURES};

use super::args::cli_command;
use super::formats_cmd::rows;

/// The first line of every generated page.
pub const GENERATED: &str = "<!-- generated: do not edit; the docs test writes this page -->";

/// `(file name under docs/src/reference/, text)` of every generated page.
pub fn reference_pages() -> Vec<(&'static str, String)> {
    vec![("formats.md", formats()), ("format-options.md", format_options()), ("cli.md", cli()), ("shortcuts.md", shortcuts())]
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
    page.push_str("`options={\"KEY\": \"VALUE\"}` in Python, and the View menu per file in the viewer.\n");
    for f in table::FORMATS.iter().filter(|f| !f.options().is_empty()) {
        let _ = write!(page, "\n## {}\n\n| Key | Values | Default | What it does |\n|---|---|---|---|\n", f.name());
        for o in f.options() {
            let (values, default) = match &o.values {
                OptionValues::Choice { choices, default } => {
                    (choices.iter().map(|c| format!("`{}`", c.value)).collect::<Vec<_>>().join(", "), format!("`{default}`"))
                }
                OptionValues::Number { min, max, default, unit, .. } => (format!("{min} to {max} {unit}"), format!("`{default}`")),
            };
            let _ = writeln!(page, "| `{}` | {} | {} | {} |", o.key, values, default, cell(o.help));
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
