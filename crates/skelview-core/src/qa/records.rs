//! A report as JSON records: one object per finding, then a `summary` object (what
//! `skelview qa --json` prints, line by line, and what the Python package returns).

use serde_json::{Value, json};

use super::{Report, joint_name};
use crate::core::Motion;

/// The records of `r`, found in `m` read from `file`.
pub fn json_records(file: &str, m: &Motion, r: &Report) -> Vec<Value> {
    let take = m.source.take.and_then(|i| m.source.takes.get(i)).map(|t| t.name.as_str());
    let mut out: Vec<Value> = r
        .findings
        .iter()
        .map(|f| {
            json!({
                "file": file,
                "take": take,
                "kind": f.kind.name(),
                "joint": f.joint.map(|_| joint_name(m, f.joint)),
                "start_frame": f.start_frame,
                "end_frame": f.end_frame,
                "start_secs": r.secs(f.start_frame),
                "end_secs": r.secs(f.end_frame),
                "value": f.value,
                "unit": f.unit,
                "threshold": f.threshold,
                "message": f.message,
            })
        })
        .collect();
    let counts: serde_json::Map<String, Value> = r.counts().into_iter().map(|(k, n)| (k.name().to_owned(), json!(n))).collect();
    let neutral: Vec<Value> = r
        .neutral
        .iter()
        .map(|v| {
            json!({
                "pose": v.pose,
                "up": v.up.signed_name(),
                "facing": v.facing.map(|f| f.signed_name()),
                "biped_convention": v.biped,
                "shape": v.shape,
                "arm_angle_deg": v.arm_angle_deg,
                "ideal": v.ideal,
                "worst_limb": v.worst().map(|w| w.limb),
                "worst_joint": v.worst().map(|w| m.skeleton.joints()[w.joint].name.as_str()),
                "worst_deg": v.worst().map(|w| w.deg),
            })
        })
        .collect();
    out.push(json!({
        "file": file,
        "take": take,
        "kind": "summary",
        "counts": counts,
        "frames": r.frames,
        "duration_secs": r.duration_secs(),
        "neutral_pose": neutral,
    }));
    out
}
