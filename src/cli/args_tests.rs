//! The command line's grammar: what each line parses to, and the usage errors.

use super::*;

fn args(s: &str) -> Result<Args, clap::Error> {
    parse_args(std::iter::once("skelview").chain(s.split_whitespace()).map(String::from).collect())
}

#[test]
fn parses_commands_and_options() {
    cli_command().debug_assert();
    let a = args("positions a.bvh --frames 0,1,-1 --raw --bvh-positions add").unwrap();
    assert_eq!(a.command, Command::Positions { files: vec!["a.bvh".into()], frames: FrameList::Some(vec![0, 1, -1]), raw: true });
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
