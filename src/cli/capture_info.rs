//! The marker-capture part of `skelview info`: points and their kinds, rates, units, axes,
//! analog channels, force platforms, events and gaps per marker.

use std::io::Write;

use serde::Serialize;
use skelview_core::core::capture::{Capture, PointKind};

/// Text lines after the motion's own.
pub(super) fn write_text(c: &Capture, out: &mut dyn Write) -> std::io::Result<()> {
    let markers = c.marker_indices();
    let others: Vec<String> = [PointKind::Angle, PointKind::Force, PointKind::Moment, PointKind::Power, PointKind::Scalar]
        .iter()
        .filter_map(|k| {
            let n = c.points.iter().filter(|p| p.kind == *k).count();
            (n > 0).then(|| format!("{n} {}s", k.name()))
        })
        .collect();
    let others = if others.is_empty() { String::new() } else { format!(" (+ model outputs, not drawn: {})", others.join(", ")) };
    writeln!(out, "points:          {} markers at {} Hz, {}{others}", markers.len(), c.point_rate_hz, c.unit)?;
    let a = &c.analog;
    if a.channels.is_empty() {
        writeln!(out, "analog:          none")?;
    } else {
        writeln!(out, "analog:          {} channels at {} Hz ({} per frame)", a.channels.len(), a.rate_hz, a.samples_per_frame)?;
        for ch in &a.channels {
            let unit = if ch.unit.is_empty() { String::new() } else { format!(" [{}]", ch.unit) };
            writeln!(out, "  {}{unit}", ch.label)?;
        }
    }
    writeln!(out, "force plates:    {}", c.plates.len())?;
    for (i, (p, samples)) in c.plates.iter().zip(skelview_core::core::force_plates::samples(c)).enumerate() {
        let centre = (p.corners[0] + p.corners[1] + p.corners[2] + p.corners[3]) / 4.0;
        let peak = samples.as_ref().map_or_else(
            |e| format!("not computed: {e}"),
            |s| {
                let max = s.iter().map(|x| x.force.length()).fold(0.0f32, f32::max);
                format!("peak force {max:.1} N")
            },
        );
        writeln!(out, "  {}: type {}, centre ({:.1}, {:.1}, {:.1}), {peak}", i + 1, p.kind, centre.x, centre.y, centre.z)?;
    }
    writeln!(out, "events:          {}", c.events.len())?;
    for e in &c.events {
        let context = if e.context.is_empty() { String::new() } else { format!("{} ", e.context) };
        writeln!(out, "  {:.3} s  {context}{}", e.time_secs, e.label)?;
    }
    let stats = c.gap_stats();
    let gaps: Vec<(usize, usize, usize)> = markers.iter().map(|&p| (p, stats[p].missing, stats[p].longest)).filter(|g| g.1 > 0).collect();
    let total: usize = gaps.iter().map(|g| g.1).sum();
    writeln!(out, "gaps:            {total} marker frames missing, on {} of {} markers", gaps.len(), markers.len())?;
    for (p, n, longest) in gaps {
        writeln!(out, "  {}: {n} frames (longest {longest})", c.points[p].label)?;
    }
    Ok(())
}

/// `info --json`'s `capture` object.
#[derive(Serialize)]
pub(super) struct CaptureJson<'a> {
    point_rate_hz: f64,
    unit: &'a str,
    x_screen: Option<&'a str>,
    y_screen: Option<&'a str>,
    points: Vec<PointJson<'a>>,
    analog_rate_hz: f64,
    analog_channels: Vec<ChannelJson<'a>>,
    force_plates: Vec<PlateJson>,
    events: Vec<EventJson<'a>>,
}

#[derive(Serialize)]
struct PointJson<'a> {
    label: &'a str,
    kind: &'static str,
    gaps: usize,
}

#[derive(Serialize)]
struct ChannelJson<'a> {
    label: &'a str,
    unit: &'a str,
}

#[derive(Serialize)]
struct PlateJson {
    kind: u16,
    corners: [[f32; 3]; 4],
    channels: Vec<usize>,
}

#[derive(Serialize)]
struct EventJson<'a> {
    label: &'a str,
    context: &'a str,
    time_secs: f64,
}

pub(super) fn to_json(c: &Capture) -> CaptureJson<'_> {
    let stats = c.gap_stats();
    CaptureJson {
        point_rate_hz: c.point_rate_hz,
        unit: &c.unit,
        x_screen: c.axes.x_screen.as_deref(),
        y_screen: c.axes.y_screen.as_deref(),
        points: c
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| PointJson { label: &p.label, kind: p.kind.name(), gaps: stats[i].missing })
            .collect(),
        analog_rate_hz: c.analog.rate_hz,
        analog_channels: c.analog.channels.iter().map(|ch| ChannelJson { label: &ch.label, unit: &ch.unit }).collect(),
        force_plates: c
            .plates
            .iter()
            .map(|p| PlateJson {
                kind: p.kind,
                corners: p.corners.map(|v| v.to_array()),
                channels: p.channels.iter().map(|c| c + 1).collect(),
            })
            .collect(),
        events: c.events.iter().map(|e| EventJson { label: &e.label, context: &e.context, time_secs: e.time_secs }).collect(),
    }
}
