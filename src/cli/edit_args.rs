//! `skelview edit`'s grammar. Its own options (inputs, output, recipes) are declared here; the
//! operations' flags are made from their declarations ([`OPERATIONS`]): a flag per operation
//! (`--fill-gaps METHOD`, `--filter butterworth:CUTOFF_HZ[:ORDER]`, `--ground`), and a flag per
//! parameter the operations share (`--joints`, `--range`, `--max-gap`), which goes to every
//! operation on the line that takes it. Operations apply in the order they are given (clap
//! keeps each flag's values apart; their positions on the line put them in order).

use std::path::PathBuf;

use super::error::ArgError;
use skelview_core::edit::spec::{FreePart, Kind, OpSpec, Param};
use skelview_core::edit::{FrameRange, OPERATIONS, Op};

/// Fix what the checks find: apply operations, in the order given, and write the result.
#[derive(clap::Args, Debug)]
pub struct EditArgs {
    /// Input files or folders (an ASF with its AMC counts as one motion).
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where to write: a file, whose extension chooses the writer (`skelview formats` lists
    /// them); with several inputs or a folder, a folder (each file keeps its name; --ext
    /// chooses the format).
    #[arg(long, short, value_name = "OUTPUT")]
    pub out: Option<PathBuf>,
    /// With a folder as --out: the extension (format) of the files written (default: each
    /// input's own).
    #[arg(long, value_name = "EXT")]
    pub ext: Option<String>,
    /// The operations of a recipe file (TOML), in its place among the others.
    #[arg(long, value_name = "FILE.toml")]
    pub recipe: Vec<PathBuf>,
    /// Write the operations given as a recipe file (with or without --out).
    #[arg(long, value_name = "FILE.toml")]
    pub save_recipe: Option<PathBuf>,
    /// Rotation order of a written BVH, first listed outermost (default: the source's, when
    /// every joint shares one).
    #[arg(long, value_name = "ORDER")]
    pub order: Option<String>,
    /// One JSON object per file: what each step did and the capture checks' counts before
    /// and after.
    #[arg(long)]
    pub json: bool,
}

/// One step as given on the command line: an operation, or a recipe file's operations.
#[derive(Clone, Debug, PartialEq)]
pub enum EditStep {
    /// An operation.
    Op(Op),
    /// The steps of a recipe file.
    Recipe(PathBuf),
}

/// The parameters that have a flag of their own: those some operation does not carry in its
/// value, each once (the first declaration's help), with the operations that take it.
fn shared_params() -> Vec<(&'static Param, Vec<&'static OpSpec>)> {
    let mut out: Vec<(&'static Param, Vec<&'static OpSpec>)> = Vec::new();
    for spec in OPERATIONS.iter().copied() {
        for p in spec.params.iter().filter(|p| !spec.value.contains(&p.key)) {
            match out.iter_mut().find(|(q, _)| q.key == p.key) {
                Some((_, ops)) => ops.push(spec),
                None => out.push((p, vec![spec])),
            }
        }
    }
    out
}

/// The flags of every operation and shared parameter, added to the `edit` command.
pub fn operation_flags() -> Vec<clap::Arg> {
    let mut args = Vec::new();
    for spec in OPERATIONS.iter().copied() {
        let flag = spec.flag();
        let help = format!("{} (recipe: op = \"{}\")", spec.help, spec.name);
        let arg = clap::Arg::new(spec.name).long(flag).help(help).help_heading("Operations (applied in the order given)");
        args.push(if spec.value.is_empty() {
            // Appended, not counted, so that each occurrence keeps its place on the line.
            arg.action(clap::ArgAction::Append).num_args(0).default_missing_value("on")
        } else {
            arg.action(clap::ArgAction::Append).value_name(spec.value_name()).allow_hyphen_values(true)
        });
    }
    for (p, ops) in shared_params() {
        let flags: Vec<String> = ops.iter().map(|s| format!("--{}", s.flag())).collect();
        let default = p.kind.default_text().map(|d| format!("; default: {d}")).unwrap_or_default();
        // Joints and frames mean the same to every operation; the others say what they are.
        let what = match p.kind {
            Kind::Names if p.key == "joints" => "The joints or markers the operations touch (comma-separated names)".to_owned(),
            Kind::Range { .. } => "The frames the operations touch: A:B (from 0, negative from the end) or seconds, 1.5s:3s".to_owned(),
            _ => capitalised(p.help),
        };
        let help = format!("{what} (for {}, anywhere on the line{default})", flags.join(", "));
        let value_name = match p.kind {
            Kind::Number { unit, .. } if !unit.is_empty() => unit.to_uppercase(),
            _ => p.value_name(),
        };
        let arg = clap::Arg::new(p.key)
            .long(p.key.replace('_', "-"))
            .value_name(value_name)
            .help(help)
            .allow_hyphen_values(true)
            .help_heading("Operations' parameters");
        args.push(match p.kind {
            Kind::Names => arg.action(clap::ArgAction::Append).value_delimiter(','),
            _ => arg.action(clap::ArgAction::Set),
        });
    }
    args
}

/// `text` with a capital first letter (declarations' help lines start lower-case).
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The operations' flags, for a message: `--fill-gaps, --filter, …`.
pub fn operation_flag_list() -> String {
    OPERATIONS.iter().map(|s| format!("--{}", s.flag())).collect::<Vec<_>>().join(", ")
}

/// The values of the shared parameters' flags given on the line, as recipe values.
pub fn shared_values(matches: Option<&clap::ArgMatches>) -> Result<toml::Table, ArgError> {
    let mut out = toml::Table::new();
    let Some(m) = matches else { return Ok(out) };
    for (p, _) in shared_params() {
        let Some(given) = m.get_many::<String>(p.key) else { continue };
        let given: Vec<&String> = given.collect();
        let option = format!("--{}", p.key.replace('_', "-"));
        let value = match p.kind {
            Kind::Names => {
                let names = given.iter().map(|n| n.trim()).filter(|n| !n.is_empty());
                toml::Value::Array(names.map(|n| toml::Value::String(n.to_owned())).collect())
            }
            _ => value_of(&option, p, given[0])?,
        };
        // A shared number reaches steps of recipe files too: it is checked here, whole.
        let number = value.as_float().or(value.as_integer().map(|i| i as f64));
        if let (Kind::Number { min, max, .. }, Some(v)) = (&p.kind, number)
            && !(*min..=*max).contains(&v)
        {
            let expected = format!("{} from {min} to {max}", expected_of(p));
            return Err(ArgError::Operation { option, given: given[0].clone(), expected });
        }
        out.insert(p.key.into(), value);
    }
    Ok(out)
}

/// The steps in the order they were given; `Err` names the option and what it expects.
pub fn steps(a: &EditArgs, matches: Option<&clap::ArgMatches>) -> Result<Vec<EditStep>, ArgError> {
    let mut out: Vec<(usize, EditStep)> = Vec::new();
    let shared = shared_values(matches)?;
    if let Some(m) = matches {
        for spec in OPERATIONS.iter().copied() {
            let places: Vec<usize> = m.indices_of(spec.name).map(Iterator::collect).unwrap_or_default();
            let given: Vec<&String> = m.get_many::<String>(spec.name).map(Iterator::collect).unwrap_or_default();
            let values: Vec<Option<&String>> = given.into_iter().map(|v| (!spec.value.is_empty()).then_some(v)).collect();
            for (k, value) in values.into_iter().enumerate() {
                let op = operation(spec, value.map(String::as_str), &shared)?;
                out.push((places.get(k).copied().unwrap_or(usize::MAX), EditStep::Op(op)));
            }
        }
        let places: Vec<usize> = m.indices_of("recipe").map(Iterator::collect).unwrap_or_default();
        for (k, p) in a.recipe.iter().enumerate() {
            out.push((places.get(k).copied().unwrap_or(usize::MAX), EditStep::Recipe(p.clone())));
        }
    }
    out.sort_by_key(|s| s.0);
    Ok(out.into_iter().map(|s| s.1).collect())
}

/// The operation `spec` with the value given to its flag (`None` for a flag without one) and
/// the shared parameters it takes.
pub fn operation(spec: &'static OpSpec, value: Option<&str>, shared: &toml::Table) -> Result<Op, ArgError> {
    let option = format!("--{}", spec.flag());
    let given = value.unwrap_or_default();
    let expected = || spec.value_name();
    let bad = |why: String| ArgError::Operation { option: option.clone(), given: given.to_owned(), expected: why };
    let mut step = toml::Table::new();
    step.insert("op".into(), toml::Value::String(spec.name.into()));
    if let Some(value) = value {
        let rest = match spec.prefix {
            Some(prefix) => value.strip_prefix(prefix).and_then(|r| r.strip_prefix(spec.separator)).ok_or_else(|| bad(expected()))?,
            None => value,
        };
        // From the other end than the part that may hold the separator (an event's label).
        let parts: Vec<&str> = match spec.free_part {
            FreePart::First => {
                let mut parts: Vec<&str> = rest.rsplitn(spec.value.len(), spec.separator).collect();
                parts.reverse();
                parts
            }
            FreePart::Last => rest.splitn(spec.value.len(), spec.separator).collect(),
        };
        let required = spec.value.iter().filter(|k| spec.param(k).is_some_and(|p| p.kind.required())).count();
        if parts.len() < required || parts.iter().any(|p| p.is_empty()) {
            return Err(bad(expected()));
        }
        for (key, part) in spec.value.iter().zip(parts) {
            let Some(p) = spec.param(key) else { continue };
            // A part's refusal is told with the whole value's shape.
            let value = value_of(&option, p, part).map_err(|e| match e {
                ArgError::Operation { .. } => bad(format!("{} ({}: {})", expected(), p.value_name(), expected_of(p))),
                other => other,
            })?;
            step.insert((*key).into(), value);
        }
    }
    for p in spec.params.iter().filter(|p| !spec.value.contains(&p.key)) {
        if let Some(v) = shared.get(p.key) {
            step.insert(p.key.into(), v.clone());
        }
    }
    <Op as serde::Deserialize>::deserialize(toml::Value::Table(step)).map_err(|e| bad(e.message().to_owned()))
}

/// `text` as a recipe value of `p`, given to `option`, or why not: a number that is not one
/// (a negative one for a count), a choice not among `p`'s, a range that cannot be read.
/// Other limits are the operation's to check, with its own message.
fn value_of(option: &str, p: &Param, text: &str) -> Result<toml::Value, ArgError> {
    let refuse = || ArgError::Operation { option: option.to_owned(), given: text.to_owned(), expected: expected_of(p) };
    Ok(match &p.kind {
        Kind::Number { integer: true, min, .. } if *min >= 0.0 => {
            toml::Value::Integer(text.trim().parse::<u32>().map_err(|_| refuse())?.into())
        }
        Kind::Number { integer: true, .. } => toml::Value::Integer(text.trim().parse().map_err(|_| refuse())?),
        Kind::Number { .. } => toml::Value::Float(text.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(refuse)?),
        Kind::Choice { choices, .. } if !choices.contains(&text.trim()) => return Err(refuse()),
        Kind::Range { .. } => {
            let range = text.parse::<FrameRange>().map_err(|e| ArgError::Refused { option: option.to_owned(), reason: e.to_string() })?;
            toml::Value::String(range.to_string())
        }
        Kind::Names => toml::Value::Array(text.split(',').map(|n| toml::Value::String(n.trim().to_owned())).collect()),
        Kind::Choice { .. } => toml::Value::String(text.trim().to_owned()),
        Kind::Text { .. } => toml::Value::String(text.to_owned()),
    })
}

/// What `p` takes, for a message.
fn expected_of(p: &Param) -> String {
    match &p.kind {
        Kind::Number { integer: true, unit, .. } => format!("a whole number{}", unit_suffix(unit)),
        Kind::Number { unit, .. } => format!("a number{}", unit_suffix(unit)),
        Kind::Choice { choices, .. } => format!("one of {}", choices.join(", ")),
        _ => p.value_name(),
    }
}

fn unit_suffix(unit: &str) -> String {
    match unit {
        "" => String::new(),
        "s" => " of seconds".into(),
        unit => format!(" of {unit}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelview_core::edit::{AddEvent, Filter, RemoveEvent};

    fn one(name: &str, value: Option<&str>) -> Result<Op, ArgError> {
        let spec = OPERATIONS.iter().copied().find(|s| s.name == name).unwrap();
        operation(spec, value, &toml::Table::new())
    }

    #[test]
    fn values_read_by_the_declarations_or_say_what_they_expect() {
        assert!(matches!(one("filter", Some("butterworth:6")), Ok(Op::Filter(Filter { order: 4, .. }))));
        assert!(matches!(one("filter", Some("butterworth:6:2")), Ok(Op::Filter(Filter { order: 2, .. }))));
        assert!(one("filter", Some("bessel:6")).unwrap_err().to_string().contains("butterworth:CUTOFF_HZ[:ORDER]"));
        let event = one("add_event", Some("Foot Strike:Left:1.25")).unwrap();
        assert_eq!(event, Op::AddEvent(AddEvent { label: "Foot Strike".into(), context: "Left".into(), time_secs: 1.25 }));
        let colon = one("add_event", Some("A:B:Right:2")).unwrap();
        assert!(matches!(colon, Op::AddEvent(AddEvent { label, .. }) if label == "A:B"), "a label may hold the separator");
        assert!(one("add_event", Some("Foot Strike:1.25")).is_err());
        assert_eq!(
            one("remove_event", Some("Foot Strike:x")).unwrap_err().to_string(),
            "--remove-event 'Foot Strike:x': expected LABEL:TIME_SECS (TIME_SECS: a number of seconds)"
        );
        assert_eq!(one("remove_event", Some("Strike:2")).unwrap(), Op::RemoveEvent(RemoveEvent { label: "Strike".into(), time_secs: 2.0 }));
        assert_eq!(one("rename", Some("Head")).unwrap_err().to_string(), "--rename 'Head': expected FROM=TO");
    }
}
