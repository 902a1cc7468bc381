//! `skelview formats` (the format table as text or JSON) and `skelview completions SHELL`.

use std::io::Write;

use serde::Serialize;

use super::ExitCode;
use super::args::{Shell, cli_command};
use skelview_core::formats::OptionValues;
use skelview_core::formats::table::{self, Entry};

/// One row of `skelview formats` (and of the book's formats page).
#[derive(Serialize)]
pub(super) struct FormatRow {
    pub name: &'static str,
    pub description: &'static str,
    pub extensions: Vec<String>,
    pub mime_types: Vec<&'static str>,
    /// What skelview reads from its files (`motion`, `name map`), or `-`.
    pub reads: &'static str,
    pub writes: bool,
    /// The extensions `convert` writes it as.
    pub written_as: Vec<String>,
    options: Vec<OptionRow>,
}

/// A read option a format declares (`--format-option KEY=VALUE`).
#[derive(Serialize)]
struct OptionRow {
    key: &'static str,
    help: &'static str,
    values: String,
    default: String,
}

fn dotted(extensions: &[&str]) -> Vec<String> {
    extensions.iter().map(|e| format!(".{e}")).collect()
}

/// The readers' rows, then the formats only written, then the name maps.
pub(super) fn rows() -> Vec<FormatRow> {
    let read = table::entries().map(|entry| {
        let f = entry.info();
        let options = match entry {
            Entry::Motion(m) => m.options().iter().map(option_row).collect(),
            Entry::NameMap(_) => Vec::new(),
        };
        let writer = matches!(entry, Entry::Motion(_)).then(|| table::writer_of(f)).flatten();
        FormatRow {
            name: f.name(),
            description: f.description(),
            extensions: dotted(f.extensions()),
            mime_types: f.mime_types().iter().map(|m| m.name).collect(),
            reads: entry.holds(),
            writes: writer.is_some(),
            written_as: writer.map(|w| dotted(w.extensions())).unwrap_or_default(),
            options,
        }
    });
    let written = table::write_only().map(|w| FormatRow {
        name: w.name(),
        description: w.description(),
        extensions: dotted(w.extensions()),
        mime_types: Vec::new(),
        reads: "-",
        writes: true,
        written_as: dotted(w.extensions()),
        options: Vec::new(),
    });
    let (mut motions, names): (Vec<_>, Vec<_>) = read.partition(|r| r.reads != "name map");
    motions.extend(written);
    motions.extend(names);
    motions
}

fn option_row(o: &'static skelview_core::formats::FormatOption) -> OptionRow {
    let (values, default) = match &o.values {
        OptionValues::Choice { choices, default } => (choices.iter().map(|c| c.value).collect::<Vec<_>>().join("|"), default.to_string()),
        OptionValues::Number { min, max, default, unit, .. } => (format!("{min}..{max} {unit}"), default.to_string()),
        OptionValues::Path { hint } => (hint.to_string(), "none".into()),
    };
    OptionRow { key: o.key, help: o.help, values, default }
}

pub(super) fn run(json: bool, out: &mut dyn Write) -> ExitCode {
    let rows = rows();
    let written = if json {
        serde_json::to_writer_pretty(&mut *out, &rows).map_err(std::io::Error::other).and_then(|()| writeln!(out))
    } else {
        (|| {
            writeln!(out, "{:<8} {:<20} {:<9} {:<6} MIME types", "format", "extensions", "reads", "writes")?;
            for r in &rows {
                let mime = if r.mime_types.is_empty() { "-".to_owned() } else { r.mime_types.join(", ") };
                let writes = if r.writes { "yes" } else { "no" };
                let writes =
                    if r.written_as.is_empty() || r.written_as == r.extensions { writes.to_owned() } else { r.written_as.join(" ") };
                writeln!(out, "{:<8} {:<20} {:<9} {:<6} {mime}", r.name, r.extensions.join(" "), r.reads, writes)?;
                writeln!(out, "{:<8} {}", "", r.description)?;
                for o in &r.options {
                    writeln!(out, "{:<8} --format-option {}={} (default {}): {}", "", o.key, o.values, o.default, o.help)?;
                }
            }
            Ok(())
        })()
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("skelview: {e}");
            2
        }
    }
}

/// Writes the completion script of `shell`.
pub(super) fn completions(shell: Shell, out: &mut dyn Write) {
    use clap_complete::Shell as S;
    let shell = match shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::Elvish => S::Elvish,
        Shell::Powershell => S::PowerShell,
    };
    clap_complete::generate(shell, &mut cli_command(), "skelview", out);
}
