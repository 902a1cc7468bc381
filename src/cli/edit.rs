//! `skelview edit INPUT... --out OUTPUT [operations]`: the engine's edits from the command
//! line. The operations (and recipe files) become one recipe, applied to each input on its
//! own core, and each result goes through the writers' table; with `--json` the capture
//! checks are counted before and after. The source files are never written.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::json;

use super::edit_args::{EditArgs, EditStep, steps};
use super::error::{ArgError, EditFailure};
use super::inputs::{Input, inputs};
use super::{Args, Command, ExitCode};
use skelview_core::core::Motion;
use skelview_core::edit::{self, Op, Recipe};
use skelview_core::export::BvhWriteOptions;
use skelview_core::export::files::{WriteError, WriteOptions, writer_for};
use skelview_core::formats::{self, Quiet, Sequential};
use skelview_core::qa::{self, Kind, Thresholds};

/// `edit` as parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct EditCommand {
    /// Files or folders.
    pub inputs: Vec<PathBuf>,
    /// A file, or a folder for several inputs.
    pub out: Option<PathBuf>,
    /// The format of files written into a folder.
    pub ext: Option<String>,
    /// Operations and recipe files, in order.
    pub steps: Vec<EditStep>,
    /// The shared parameters' flags given (`--max-gap`, `--joints`…), as recipe values: the
    /// numbers also reach the steps of recipe files that leave them out.
    pub shared: toml::Table,
    /// Where to write the recipe.
    pub save_recipe: Option<PathBuf>,
    /// A written BVH's rotation order.
    pub order: Option<[char; 3]>,
    /// JSON lines.
    pub json: bool,
}

/// The command from its arguments.
pub(super) fn command(a: &EditArgs, matches: Option<&clap::ArgMatches>) -> Result<Command, ArgError> {
    let steps = steps(a, matches)?;
    if steps.is_empty() {
        return Err(ArgError::NoOperation { operations: super::edit_args::operation_flag_list() });
    }
    if a.out.is_none() && a.save_recipe.is_none() {
        return Err(ArgError::NoOutput);
    }
    let order = match &a.order {
        Some(o) => Some(BvhWriteOptions::parse_order(o).ok_or_else(|| ArgError::Option {
            option: "--order",
            given: o.clone(),
            expected: "three axes in order (ZXY, XYZ)",
        })?),
        None => None,
    };
    Ok(Command::Edit(EditCommand {
        inputs: a.inputs.clone(),
        out: a.out.clone(),
        ext: a.ext.as_ref().map(|e| e.trim_start_matches('.').to_owned()),
        steps,
        shared: super::edit_args::shared_values(matches)?,
        save_recipe: a.save_recipe.clone(),
        order,
        json: a.json,
    }))
}

/// The recipe of the steps, recipe files read in place; a number given to a shared
/// parameter's flag (`--max-gap`) also goes to every recipe file's step that takes it and
/// names none (the line's own steps got it when they were read).
fn recipe(c: &EditCommand) -> Result<Recipe, EditFailure<'static>> {
    let mut out = Recipe::default();
    for step in &c.steps {
        match step {
            EditStep::Op(op) => out.steps.push(edit::Step { op: op.clone(), enabled: true }),
            EditStep::Recipe(path) => {
                let text = std::fs::read_to_string(path).map_err(|source| EditFailure::RecipeFile { path: path.clone(), source })?;
                let bad = |source| EditFailure::Recipe { path: path.clone(), source };
                for mut step in Recipe::from_toml(&text).map_err(bad)?.steps {
                    step.op = with_shared_numbers(&step.op, &c.shared).map_err(bad)?;
                    out.steps.push(step);
                }
            }
        }
    }
    Ok(out)
}

/// `op` with the numbers of `shared` it takes and leaves unset (checked when they were read).
fn with_shared_numbers(op: &Op, shared: &toml::Table) -> Result<Op, edit::RecipeError> {
    let Ok(toml::Value::Table(mut step)) = toml::Value::try_from(op) else { return Ok(op.clone()) };
    let spec = op.spec();
    for (key, value) in shared.iter().filter(|(_, v)| v.is_integer() || v.is_float()) {
        if spec.param(key).is_some() && !step.contains_key(key) {
            step.insert(key.clone(), value.clone());
        }
    }
    <Op as serde::Deserialize>::deserialize(toml::Value::Table(step)).map_err(|e| edit::RecipeError::Toml(e.message().to_owned()))
}

/// What became of one input.
struct Done {
    input: PathBuf,
    output: PathBuf,
    notes: Vec<String>,
    before: Vec<(Kind, usize)>,
    after: Vec<(Kind, usize)>,
}

/// Runs `edit`: 0 when every input was written, 2 otherwise.
pub(super) fn run(args: &Args, c: &EditCommand, out: &mut dyn Write) -> ExitCode {
    let recipe = match recipe(c) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skelview: {e}");
            return 2;
        }
    };
    if let Some(path) = &c.save_recipe {
        let text = recipe.to_toml();
        if let Err(e) = skelview_core::export::write_atomically(path, |w| w.write_all(text.as_bytes())) {
            eprintln!("skelview: {}: {e}", path.display());
            return 2;
        }
        eprintln!("wrote {} ({} steps)", path.display(), recipe.steps.len());
    }
    let Some(dest) = &c.out else { return 0 };
    let files = inputs(&c.inputs, &super::qa::keep_in_folder);
    let into_folder = files.len() > 1 || c.inputs.iter().any(|p| p.is_dir()) || dest.is_dir();
    if into_folder && let Err(e) = std::fs::create_dir_all(dest) {
        eprintln!("skelview: {}: {e}", dest.display());
        return 2;
    }
    let progress = super::progress::bar(files.len() as u64, "editing");
    let single = files.len() == 1;
    let results: Vec<Result<Done, EditFailure>> = files
        .par_iter()
        .map(|input| {
            let output = if into_folder { in_folder(dest, input, c.ext.as_deref()) } else { dest.clone() };
            let r = edit_one(args, c, &recipe, input, &output, single);
            progress.inc(1);
            r
        })
        .collect();
    progress.finish_and_clear();
    let mut failed = 0;
    for r in results {
        match r {
            Ok(d) => report(&d, c.json, out),
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    if failed > 0 { 2 } else { 0 }
}

/// `dest/<input's name>.<ext>`.
fn in_folder(dest: &Path, input: &Input, ext: Option<&str>) -> PathBuf {
    let name = input.path.file_stem().map_or_else(|| "edited".into(), |s| s.to_string_lossy().into_owned());
    let ext = ext.map(str::to_owned).or_else(|| input.path.extension().map(|e| e.to_string_lossy().into_owned())).unwrap_or_default();
    dest.join(format!("{name}.{ext}"))
}

/// The capture checks' counts by kind.
fn counts(m: &Motion) -> Vec<(Kind, usize)> {
    let r = qa::analyse(m, &Thresholds::default(), &Kind::ALL, &|_| {});
    let wanted = Kind::ALL.iter().filter(|k| k.is_marker_check() == m.capture.is_some());
    wanted.map(|&k| (k, r.findings.iter().filter(|f| f.kind == k).count())).collect()
}

fn edit_one<'a>(
    args: &Args,
    c: &EditCommand,
    recipe: &Recipe,
    input: &'a Input,
    output: &Path,
    single: bool,
) -> Result<Done, EditFailure<'a>> {
    let name = input.path.display().to_string();
    let request = input.request.as_ref().map_err(EditFailure::Request)?;
    let writer = writer_for(output).ok_or_else(|| EditFailure::NoWriter {
        input: name.clone(),
        output: output.to_owned(),
        source: WriteError::Extension(output.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()),
    })?;
    let same = |a: &Path, b: &Path| std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b);
    if request.sources.iter().any(|s| same(s.path(), output)) {
        return Err(EditFailure::Overwrite { input: name });
    }
    let motion = if single {
        formats::load(request, &args.options, &formats::Rayon, &mut Quiet)
    } else {
        formats::load(request, &args.options, &Sequential, &mut Quiet)
    }
    .map_err(EditFailure::Load)?;
    // The checks cost as much as the edits on a big capture: counted for --json only.
    let before = if c.json { counts(&motion) } else { Vec::new() };
    let options = WriteOptions { bvh: c.order.map_or_else(|| BvhWriteOptions::keeping(&motion), |order| BvhWriteOptions { order }) };
    let edited = edit::apply_owned(motion, recipe, &|_| true).map_err(|source| EditFailure::Edit { input: name.clone(), source })?;
    writer.write(&edited.motion, output, &options).map_err(|source| EditFailure::Write { output: output.to_owned(), source })?;
    let mut notes = edited.notes;
    notes.extend(writer.losses(&edited.motion));
    // What the report says is what the file holds: the written file is read back and
    // checked, not the motion in memory (a writer may not keep all of it).
    let after = if c.json { written_counts(args, output, &edited.motion, &mut notes) } else { Vec::new() };
    Ok(Done { input: input.path.clone(), output: output.to_owned(), notes, before, after })
}

/// The checks' counts on the file written at `output`, read back with the same options; on
/// `edited` in memory, with a note saying so, when it cannot be read back.
fn written_counts(args: &Args, output: &Path, edited: &Motion, notes: &mut Vec<String>) -> Vec<(Kind, usize)> {
    match formats::open_one(output, &args.options, &Sequential) {
        Ok(written) => counts(&written),
        Err(e) => {
            notes.push(format!("checks after: on the edited motion (the written file cannot be read back: {e})"));
            counts(edited)
        }
    }
}

fn report(d: &Done, json: bool, out: &mut dyn Write) {
    if json {
        let counts = |c: &[(Kind, usize)]| c.iter().map(|(k, n)| (k.name().to_owned(), json!(n))).collect::<serde_json::Map<_, _>>();
        let line = json!({
            "file": d.input.display().to_string(),
            "output": d.output.display().to_string(),
            "steps": d.notes,
            "before": counts(&d.before),
            "after": counts(&d.after),
        });
        let _ = writeln!(out, "{line}");
    } else {
        let _ = writeln!(out, "{} → {}", d.input.display(), d.output.display());
        for n in &d.notes {
            let _ = writeln!(out, "  {n}");
        }
    }
}
