//! Settings that survive a restart, as `key = value` lines in `~/.config/skelview/settings.txt`
//! (XDG_CONFIG_HOME honoured): window size, theme, display toggles, playback rate and
//! sampling, and per-file overrides (units, up axis, BVH position rule).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::core::units::{LengthUnit, UpAxis};
use crate::core::{Interpolation, PositionRule};
use crate::render::Style;

/// What the user chose for one file.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FileOverride {
    /// Length unit instead of the detected one.
    pub unit: Option<LengthUnit>,
    /// Up axis instead of the detected one.
    pub up: Option<UpAxis>,
    /// BVH position-channel rule instead of the default.
    pub rule: Option<PositionRule>,
}

/// Everything persisted.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Inner window size in logical pixels.
    pub window_size: (u32, u32),
    /// Light theme instead of dark.
    pub light_theme: bool,
    /// Display toggles.
    pub style: Style,
    /// Joint names in the viewport.
    pub show_names: bool,
    /// Playback rate.
    pub rate: f64,
    /// Sampling between frames.
    pub interpolation: Interpolation,
    /// Per-file overrides, by absolute path.
    pub overrides: BTreeMap<String, FileOverride>,
    /// Side panels: shown or hidden, and their widths.
    pub panels: PanelLayout,
}

/// Which side panels are shown and how wide they are (logical pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelLayout {
    /// The clip list and joint tree on the left.
    pub left_shown: bool,
    /// Width of the left panel.
    pub left_width: f32,
    /// The inspector (and comparison) on the right.
    pub right_shown: bool,
    /// Width of the right panel.
    pub right_width: f32,
    /// Bumped when the layout is reset, so egui forgets the sizes it remembered (not saved).
    pub generation: u32,
}

impl Default for PanelLayout {
    fn default() -> Self {
        Self { left_shown: true, left_width: 300.0, right_shown: true, right_width: 340.0, generation: 0 }
    }
}

impl PanelLayout {
    /// `left = true 300`-style text: shown flag then width.
    fn side_text(shown: bool, width: f32) -> String {
        format!("{} {}", if shown { "true" } else { "false" }, width.round())
    }

    fn parse_side(value: &str) -> Option<(bool, f32)> {
        let (shown, width) = value.split_once(' ')?;
        let width: f32 = width.trim().parse().ok()?;
        (width.is_finite()).then_some((shown == "true", width.clamp(120.0, 2000.0)))
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            window_size: (1280, 800),
            light_theme: false,
            style: Style::default(),
            show_names: false,
            rate: 1.0,
            interpolation: Interpolation::Linear,
            overrides: BTreeMap::new(),
            panels: PanelLayout::default(),
        }
    }
}

/// `$XDG_CONFIG_HOME/skelview` or `~/.config/skelview`.
pub fn config_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("skelview"))
}

fn unit_name(u: LengthUnit) -> &'static str {
    match u {
        LengthUnit::CmuAsf => "cmu",
        other => other.symbol(),
    }
}

fn parse_unit(s: &str) -> Option<LengthUnit> {
    if s == "cmu" { Some(LengthUnit::CmuAsf) } else { LengthUnit::parse(s) }
}

impl Settings {
    /// Reads `dir/settings.txt`; defaults for anything missing or unreadable.
    pub fn load(dir: &Path) -> Self {
        std::fs::read_to_string(dir.join("settings.txt")).map(|t| Self::from_text(&t)).unwrap_or_default()
    }

    /// Writes `dir/settings.txt` (creating the folder).
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join("settings.txt.tmp");
        std::fs::write(&tmp, self.to_text())?;
        std::fs::rename(tmp, dir.join("settings.txt"))
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        let s = &self.style;
        let b = |v: bool| if v { "true" } else { "false" };
        let mut t = format!(
            "# skelview settings\nwindow_size = {}x{}\ntheme = {}\nbones = {}\njoints = {}\naxes = {}\ngrid = {}\nshadow = {}\ngizmo = {}\nnames = {}\nrate = {}\ninterpolation = {}\n",
            self.window_size.0,
            self.window_size.1,
            if self.light_theme { "light" } else { "dark" },
            b(s.bones),
            b(s.joints),
            b(s.axes),
            b(s.grid),
            b(s.shadow),
            b(s.gizmo),
            b(self.show_names),
            self.rate,
            if self.interpolation == Interpolation::Linear { "linear" } else { "nearest" },
        );
        t.push_str(&format!("left_panel = {}\n", PanelLayout::side_text(self.panels.left_shown, self.panels.left_width)));
        t.push_str(&format!("right_panel = {}\n", PanelLayout::side_text(self.panels.right_shown, self.panels.right_width)));
        for (path, o) in &self.overrides {
            let mut parts = Vec::new();
            if let Some(u) = o.unit {
                parts.push(format!("unit={}", unit_name(u)));
            }
            if let Some(up) = o.up {
                parts.push(format!("up={}", up.name()));
            }
            if let Some(r) = o.rule {
                parts.push(format!("rule={}", r.name()));
            }
            if !parts.is_empty() && !path.contains(['\n', '\t']) {
                t.push_str(&format!("override = {}\t{}\n", path, parts.join("\t")));
            }
        }
        t
    }

    /// Parses the text form; unknown keys and bad values are ignored.
    pub fn from_text(text: &str) -> Self {
        let mut s = Self::default();
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else { continue };
            let (key, value) = (key.trim(), value.trim());
            let flag = value == "true";
            match key {
                "window_size" => {
                    if let Some((w, h)) = value.split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?))) {
                        s.window_size = (u32::clamp(w, 200, 16384), u32::clamp(h, 150, 16384));
                    }
                }
                "theme" => s.light_theme = value == "light",
                "bones" => s.style.bones = flag,
                "joints" => s.style.joints = flag,
                "axes" => s.style.axes = flag,
                "grid" => s.style.grid = flag,
                "shadow" => s.style.shadow = flag,
                "gizmo" => s.style.gizmo = flag,
                "names" => s.show_names = flag,
                "rate" => {
                    if let Ok(r) = value.parse::<f64>() {
                        if r.is_finite() {
                            s.rate = r.clamp(crate::core::playback::RATE_RANGE.0, crate::core::playback::RATE_RANGE.1);
                        }
                    }
                }
                "left_panel" => {
                    if let Some((shown, width)) = PanelLayout::parse_side(value) {
                        (s.panels.left_shown, s.panels.left_width) = (shown, width);
                    }
                }
                "right_panel" => {
                    if let Some((shown, width)) = PanelLayout::parse_side(value) {
                        (s.panels.right_shown, s.panels.right_width) = (shown, width);
                    }
                }
                "interpolation" => s.interpolation = if value == "nearest" { Interpolation::Nearest } else { Interpolation::Linear },
                "override" => {
                    let mut fields = value.split('\t');
                    let Some(path) = fields.next() else { continue };
                    let mut o = FileOverride::default();
                    for f in fields {
                        match f.split_once('=') {
                            Some(("unit", u)) => o.unit = parse_unit(u),
                            Some(("up", "Y")) => o.up = Some(UpAxis::Y),
                            Some(("up", "Z")) => o.up = Some(UpAxis::Z),
                            Some(("rule", "add")) => o.rule = Some(PositionRule::Add),
                            Some(("rule", "replace")) => o.rule = Some(PositionRule::Replace),
                            _ => {}
                        }
                    }
                    s.overrides.insert(path.to_owned(), o);
                }
                _ => {}
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_text_and_disk() {
        let mut s = Settings {
            window_size: (1600, 900),
            light_theme: true,
            show_names: true,
            rate: 0.5,
            interpolation: Interpolation::Nearest,
            panels: PanelLayout { left_shown: false, left_width: 250.0, right_shown: true, right_width: 420.0, generation: 0 },
            ..Settings::default()
        };
        s.style.axes = true;
        s.style.grid = false;
        s.overrides.insert(
            "/data/a b.bvh".into(),
            FileOverride { unit: Some(LengthUnit::CmuAsf), up: Some(UpAxis::Z), rule: Some(PositionRule::Add) },
        );
        assert_eq!(Settings::from_text(&s.to_text()), s);
        let dir = std::env::temp_dir().join(format!("skelview-settings-{}", std::process::id()));
        s.save(&dir).unwrap();
        assert_eq!(Settings::load(&dir), s);
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(Settings::load(&dir), Settings::default(), "missing file: defaults");
    }

    #[test]
    fn bad_values_are_ignored() {
        let s = Settings::from_text(
            "window_size = 0x99999999\nrate = nan\nrate = 99\nbogus = 1\nno equals sign\nleft_panel = true nan\nright_panel = false 99999\n",
        );
        assert_eq!(s.window_size, (200, 16384));
        assert_eq!(s.rate, 4.0);
        assert_eq!(s.panels.left_width, PanelLayout::default().left_width);
        assert!(!s.panels.right_shown);
        assert_eq!(s.panels.right_width, 2000.0);
    }
}
