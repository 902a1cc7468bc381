//! `skelview retarget SOURCE... --onto TARGET --out OUT`: the source's motion on the target's
//! skeleton through the two humanoid bone maps (found, or corrected by map files), written
//! through the writers' table (a BVH keeps the target's rotation order).

use std::path::PathBuf;

use super::info::humanoid_map;
use super::{Args, ExitCode, fail};
use skelview_core::export::BvhWriteOptions;
use skelview_core::export::files::{WriteOptions, writer_for};
use skelview_core::formats;
use skelview_core::retarget::{HipScale, RetargetOptions, bone_directions, retarget};

/// Put a motion on another character: bone by bone through the humanoid bone maps.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct RetargetArgs {
    /// The motion (an ASF with its AMC counts as one).
    #[arg(value_name = "SOURCE", required = true)]
    pub source: Vec<PathBuf>,
    /// The character: any file skelview reads (BVH, FBX, glTF, VRM…); its skeleton, rest pose
    /// and units are kept.
    #[arg(long, value_name = "TARGET")]
    pub onto: PathBuf,
    /// Where to write; the extension chooses the writer (.bvh, .glb, .gltf).
    #[arg(long, short, value_name = "OUT")]
    pub out: PathBuf,
    /// The source's humanoid bone map file (TOML, `[bones] hips = "Hips"`, or a Character
    /// Studio `.mnm` name map), over the one found.
    #[arg(long, value_name = "MAP.toml|MAP.mnm")]
    pub map: Option<PathBuf>,
    /// The target's humanoid bone map file (TOML or `.mnm`), over the one found.
    #[arg(long, value_name = "MAP.toml|MAP.mnm")]
    pub target_map: Option<PathBuf>,
    /// How the hips' travel is scaled: auto (by the ratio of the legs) or a factor.
    #[arg(long, value_name = "auto|FACTOR", default_value = "auto", allow_hyphen_values = true)]
    pub scale: String,
    /// Keep the feet planted while the source's feet stand (a two-bone leg IK).
    #[arg(long)]
    pub keep_feet: bool,
}

pub(super) fn run(args: &Args, a: &RetargetArgs) -> ExitCode {
    let scale = match a.scale.as_str() {
        "auto" => HipScale::Auto,
        k => match k.parse::<f32>() {
            Ok(k) if k.is_finite() && k > 0.0 => HipScale::Factor(k),
            _ => {
                eprintln!("skelview: --scale {k}: expected auto or a number above 0");
                return 2;
            }
        },
    };
    let Some(writer) = writer_for(&a.out) else {
        eprintln!("skelview: {}: no writer for this extension (skelview formats lists them)", a.out.display());
        return 2;
    };
    let source = match formats::open(&a.source, &args.options, &formats::Rayon) {
        Ok(mut m) if m.len() == 1 => m.remove(0),
        Ok(m) => {
            eprintln!("skelview: retarget takes one source motion, got {}", m.len());
            return 2;
        }
        Err(e) => return fail(&e),
    };
    let target = match formats::open_one(&a.onto, &args.options, &formats::Rayon) {
        Ok(m) => m,
        Err(e) => return fail(&e),
    };
    let maps = humanoid_map(&source, a.map.as_deref()).and_then(|s| Ok((s, humanoid_map(&target, a.target_map.as_deref())?)));
    let (source_map, target_map) = match maps {
        Ok(m) => m,
        Err(e) => {
            eprintln!("skelview: {e}");
            return 2;
        }
    };
    let out =
        match retarget(&source, &source_map, &target, &target_map, &RetargetOptions { hips: scale, keep_feet: a.keep_feet }, &|_| true) {
            Ok(Some(m)) => m,
            Ok(None) => return 1,
            Err(e) => {
                eprintln!("skelview: {e}");
                return 2;
            }
        };
    let options = WriteOptions { bvh: BvhWriteOptions::keeping(&target) };
    match writer.write(&out, &a.out, &options) {
        Ok(()) => {
            let both = source_map.entries.iter().filter(|e| target_map.joint(e.bone).is_some()).count();
            eprintln!("wrote {} ({}; {both} humanoid bones in both maps)", a.out.display(), writer.summary(&out, &options));
            let unmapped: Vec<&str> = source_map.entries.iter().map(|e| e.bone).filter(|b| target_map.joint(b).is_none()).collect();
            if !unmapped.is_empty() {
                eprintln!("not carried over (the target has no such bone): {}", unmapped.join(", "));
            }
            eprintln!("{}", agreement_line(&bone_directions(&source, &source_map, &out, &target_map)));
            0
        }
        Err(e) => {
            eprintln!("{}: {e}", a.out.display());
            2
        }
    }
}

/// One line on how closely the result's bones point where the source's do.
fn agreement_line(a: &[skelview_core::retarget::BoneAgreement]) -> String {
    let finite = || a.iter().filter(|b| b.median_deg.is_finite());
    let Some(worst) = finite().max_by(|x, y| x.max_deg.total_cmp(&y.max_deg)) else {
        return "bone directions: no bone to compare".to_owned();
    };
    let median = finite().map(|b| b.median_deg).fold(0f32, f32::max);
    format!(
        "bone directions against the source over {} bones: median error at most {median:.1}°, largest {:.1}° ({} at frame {})",
        finite().count(),
        worst.max_deg,
        worst.bone,
        worst.worst_frame
    )
}
