//! The command line's grammar: what each line parses to, and the usage errors.

use super::*;
use crate::cli::render_cmd::At;
use crate::cli::values::{parse_range, parse_size};
use skelview_scene::Layout;

fn args(s: &str) -> Result<Args, clap::Error> {
    parse_args(std::iter::once("skelview").chain(s.split_whitespace()).map(String::from).collect())
}

#[test]
fn parses_commands_and_options() {
    cli_command().debug_assert();
    let a = args("positions a.bvh --frames 0,1,-1 --raw --bvh-positions add").unwrap();
    assert_eq!(
        a.command,
        Command::Positions {
            files: vec!["a.bvh".into()],
            frames: FrameList::Some(vec![0, 1, -1]),
            raw: true,
            vertices: false,
            output: None
        }
    );
    assert_eq!(a.options.format.get("bvh.positions"), Some("add"));
    assert_eq!(args("--bvh-positions add x.bvh").unwrap().options.format.get("bvh.positions"), Some("add"));
    let o = args("--format-option bvh.positions=add --format-option amc.fps=60 x.amc").unwrap().options;
    assert_eq!((o.format.get("bvh.positions"), o.format.get("amc.fps")), (Some("add"), Some("60")));
    assert_eq!(args("--amc-fps 30 x.amc").unwrap().options.format.get("amc.fps"), Some("30"));
    for bad in ["--format-option bvh.positions=both x.bvh", "--format-option nope=1 x.bvh", "--format-option amc.fps x.amc"] {
        let e = args(bad).unwrap_err().to_string();
        assert!(e.contains("invalid value"), "{bad}: {e}");
    }
    assert_eq!(args("").unwrap().command, Command::View { files: vec![], select: None, curves: false, measure: vec![] });
    assert_eq!(
        args("x.bvh y.amc").unwrap().command,
        Command::View { files: vec!["x.bvh".into(), "y.amc".into()], select: None, curves: false, measure: vec![] }
    );
    assert_eq!(
        args("x.bvh --select LeftKnee --curves").unwrap().command,
        Command::View { files: vec!["x.bvh".into()], select: Some("LeftKnee".into()), curves: true, measure: vec![] }
    );
    assert_eq!(
        args("x.bvh --measure A B C").unwrap().command,
        Command::View { files: vec!["x.bvh".into()], select: None, curves: false, measure: vec!["A".into(), "B".into(), "C".into()] }
    );
    assert!(args("x.bvh --measure").is_err(), "at least one joint");
    let m = args("measure a.bvh --speed Hips --distance L R --angle A B C --accel Head --frames 0,-1").unwrap();
    let kinds: Vec<MeasureKind> = match m.command {
        Command::Measure { measures, frames, .. } => {
            assert_eq!(frames, FrameList::Some(vec![0, -1]));
            assert_eq!(measures[1].joints, ["L", "R"]);
            measures.iter().map(|x| x.kind).collect()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(kinds, [MeasureKind::Speed, MeasureKind::Distance, MeasureKind::Angle, MeasureKind::Acceleration]);
    let plain = Command::Info { files: vec![], json: false, mnm: None, humanoid: false, map: None, save_map: None, gpu: false };
    assert_eq!(args("info").unwrap().command, plain);
    let r = args("render a.bvh b.bvh --layout side-by-side --heat-map --frame -1 --size 64 -o x.png").unwrap();
    let Command::Render { options, .. } = r.command else { panic!() };
    assert_eq!((options.layout, options.heat_map, options.at, options.size), (Layout::SideBySide, true, At::Frame(-1), (64, 64)));
    for bad in ["check", "info --bogus", "--amc-fps 0 x.bvh", "positions x.bvh --frames x", "render --out x.jpg", "convert a.bvh b.txt"] {
        let e = args(bad).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{bad}: {e}");
    }
    assert_eq!(args("--help").unwrap_err().exit_code(), 0);
    assert_eq!(parse_frames("all").ok(), Some(FrameList::All));
    assert_eq!(parse_frames("1,x").unwrap_err().to_string(), "expected frame numbers like 0,1,50,-1 or 'all', not 'x'");
    assert_eq!(parse_range("-10:-1:2").ok(), Some((-10, -1, 2)));
    assert_eq!(parse_size("9000").unwrap_err().to_string(), "the size must be between 1x1 and 8192x8192, not '9000'");
    assert!(parse_size("0x5").is_err());
}

#[test]
fn every_format_option_is_set_by_key_and_by_its_flag_before_or_after_the_command() {
    use skelview_core::formats::{OptionValues, table::all_options};
    let mut walked = 0;
    for o in all_options() {
        let values: Vec<String> = match &o.values {
            OptionValues::Choice { choices, .. } => choices.iter().map(|c| c.value.to_owned()).collect(),
            OptionValues::Number { min, max, default, .. } => [*min, *default, *max].map(|v| v.to_string()).to_vec(),
            OptionValues::Path { .. } => vec!["models/smplx".to_owned()],
        };
        for value in &values {
            let stored = o.check(value).unwrap();
            let by_key = args(&format!("info x.bvh --format-option {}={value}", o.key)).unwrap();
            assert_eq!(by_key.options.format.get(o.key), Some(stored.as_str()), "{}={value}", o.key);
            if let Some(alias) = o.alias {
                for line in [format!("--{alias} {value} info x.bvh"), format!("info x.bvh --{alias} {value}")] {
                    assert_eq!(args(&line).unwrap().options.format.get(o.key), Some(stored.as_str()), "{line}");
                }
            }
        }
        let wrong = match o.values {
            OptionValues::Choice { .. } => "no-such-value".to_owned(),
            OptionValues::Number { .. } => "-1".to_owned(),
            OptionValues::Path { .. } => String::new(),
        };
        assert!(args(&format!("info x.bvh --format-option {}={wrong}", o.key)).is_err(), "{} refuses {wrong}", o.key);
        if let Some(alias) = o.alias {
            assert!(args(&format!("info x.bvh --{alias}={wrong}")).is_err(), "--{alias} refuses {wrong}");
        }
        walked += 1;
    }
    assert!(walked >= 5, "every format's options: {walked}");
}

#[test]
fn every_edit_operation_has_its_flag_and_its_shared_parameters_reach_it() {
    use skelview_core::edit::OPERATIONS;
    use skelview_core::edit::spec::Kind;
    let command = cli_command();
    let edit = command.find_subcommand("edit").unwrap();
    for spec in OPERATIONS.iter().copied() {
        let flag = spec.flag();
        let arg = edit.get_arguments().find(|a| a.get_long() == Some(flag.as_str())).unwrap_or_else(|| panic!("no --{flag}"));
        assert!(arg.get_help().unwrap().to_string().contains(spec.help), "--{flag}'s help is the declaration's");
        // A value made from the declaration, as a user would type it.
        let parts: Vec<String> = spec
            .value
            .iter()
            .map(|k| match &spec.param(k).unwrap().kind {
                Kind::Range { .. } => "2:20".to_owned(),
                Kind::Text { .. } => "Head".to_owned(),
                kind => kind.form_start().to_owned(),
            })
            .collect();
        let sep = spec.separator.to_string();
        let value = spec.prefix.into_iter().map(str::to_owned).chain(parts).collect::<Vec<_>>().join(&sep);
        let mut line = format!("edit a.bvh -o b.bvh --joints Head,Neck --range 1:9 --max-gap 7 --{flag}");
        if !value.is_empty() {
            line += &format!(" {value}");
        }
        let Command::Edit(e) = args(&line).unwrap_or_else(|e| panic!("{line}: {e}")).command else { panic!("{line}") };
        let [crate::cli::edit_args::EditStep::Op(op)] = e.steps.as_slice() else { panic!("{line}: {:?}", e.steps) };
        assert_eq!(op.name(), spec.name, "{line}");
        let toml::Value::Table(t) = toml::Value::try_from(op).unwrap() else { panic!() };
        for p in spec.params {
            match p.key {
                "joints" => assert_eq!(t.get("joints").and_then(|v| v.as_array()).map(Vec::len), Some(2), "{line}"),
                "range" if !spec.value.contains(&"range") => assert_eq!(t["range"].as_str(), Some("1:9"), "{line}"),
                "max_gap" => assert_eq!(t["max_gap"].as_integer(), Some(7), "{line}"),
                key if spec.value.contains(&key) => assert!(t.contains_key(key), "{line}: {key}"),
                _ => {}
            }
        }
    }
    let message = args("edit a.bvh -o b.bvh").unwrap_err().to_string();
    for spec in OPERATIONS.iter() {
        assert!(message.contains(&format!("--{}", spec.flag())), "{message}");
    }
}

#[test]
fn edit_flags_keep_their_order_and_refuse_bad_values_by_name() {
    use crate::cli::edit_args::EditStep;
    let names = |line: &str| -> Vec<String> {
        let Command::Edit(e) = args(line).unwrap().command else { panic!("{line}") };
        e.steps.iter().map(|s| if let EditStep::Op(op) = s { op.name().to_owned() } else { "recipe".into() }).collect()
    };
    assert_eq!(
        names("edit a.bvh -o b.bvh --despike --filter butterworth:6 --despike --ground --unroll --ground"),
        ["despike", "filter", "despike", "ground", "unroll", "ground"],
        "a flag without a value keeps each place it was given"
    );
    let refused = |line: &str| args(line).unwrap_err().to_string();
    for (line, says) in [
        ("edit a.bvh -o b.bvh --fill-gaps auto --max-gap 0", "--max-gap '0': expected a whole number of frames from 1"),
        ("edit a.bvh -o b.bvh --recipe r.toml --max-gap -5", "--max-gap '-5': expected a whole number of frames"),
        ("edit a.bvh -o b.bvh --despike --range x", "--range 'x': expected FIRST:LAST"),
        ("edit a.bvh -o b.bvh --trim x", "--trim 'x': expected FIRST:LAST"),
        (
            "edit a.bvh -o b.bvh --fill-gaps bogus",
            "--fill-gaps 'bogus': expected METHOD (METHOD: one of linear, spline, rigid, pattern, auto)",
        ),
        ("edit a.bvh -o b.bvh --loop -3", "--loop '-3': expected FRAMES (FRAMES: a whole number of frames)"),
    ] {
        let e = refused(line);
        assert!(e.contains(says), "{line}: {e}");
        assert!(!e.contains("expected 'x': expected"), "{line}: {e}");
    }
    let Command::Edit(e) = args("edit a.bvh -o b.bvh --rename A=B=C").unwrap().command else { panic!() };
    let [EditStep::Op(skelview_core::edit::Op::Rename(r))] = e.steps.as_slice() else { panic!("{:?}", e.steps) };
    assert_eq!((r.from.as_str(), r.to.as_str()), ("A", "B=C"), "the new name may hold '='");
}
