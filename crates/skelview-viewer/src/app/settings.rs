//! Settings that survive a restart, as TOML in the platform's config folder
//! (`$XDG_CONFIG_HOME/skelview/settings.toml` on Linux): window size, theme, display
//! toggles, playback rate and sampling, panel layout, recent files and per-file overrides
//! (units, up axis, the formats' own read options such as the BVH position rule). Unknown or broken entries are skipped with a
//! warning; writes are atomic and happen on a background thread ([`super::settings_store`]). A `settings.txt` (and
//! `recent.txt`) of earlier versions is read once and migrated.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use skelview_core::core::Interpolation;
use skelview_core::core::units::{LengthUnit, UpAxis};
use skelview_core::formats::FormatOptions;
use skelview_scene::Style;

/// What the user chose for one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileOverride {
    /// Length unit instead of the detected one.
    pub unit: Option<LengthUnit>,
    /// Up axis instead of the detected one.
    pub up: Option<UpAxis>,
    /// Values of its format's read options (`bvh.positions = "add"`).
    pub format: FormatOptions,
    /// Sticks the user drew between a capture's markers (by name).
    pub links_added: Vec<(String, String)>,
    /// Sticks of the marker set the user took away (by name).
    pub links_removed: Vec<(String, String)>,
}

/// Which side panels are shown and how wide they are (logical pixels).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
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
    #[serde(skip)]
    pub generation: u32,
}

impl Default for PanelLayout {
    fn default() -> Self {
        Self { left_shown: true, left_width: 300.0, right_shown: true, right_width: 340.0, generation: 0 }
    }
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
    /// Values of the format options that hold for every file (the body model folder, chosen
    /// once: [`skelview_core::formats::OptionScope::User`]); the command line's and a file's
    /// own values come before them.
    pub format: FormatOptions,
    /// Per-file overrides, by the file's canonical path ([`crate::tasks::file_key`]).
    pub overrides: BTreeMap<String, FileOverride>,
    /// Side panels: shown or hidden, and their widths.
    pub panels: PanelLayout,
    /// Recently opened files, newest first (at most 10).
    pub recent: Vec<PathBuf>,
    /// Thresholds of the capture checks.
    pub qa: skelview_core::qa::Thresholds,
    /// Unit of the lengths shown (comparison, inspector, measurements, checks).
    pub lengths: skelview_core::core::LengthDisplay,
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
            format: FormatOptions::default(),
            overrides: BTreeMap::new(),
            panels: PanelLayout::default(),
            recent: Vec::new(),
            qa: skelview_core::qa::Thresholds::default(),
            lengths: skelview_core::core::LengthDisplay::Auto,
        }
    }
}

/// The display toggles as stored (colours are not user settings yet).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Display {
    bones: bool,
    joints: bool,
    axes: bool,
    grid: bool,
    shadow: bool,
    gizmo: bool,
    names: bool,
}

impl Default for Display {
    fn default() -> Self {
        let s = Style::default();
        Self { bones: s.bones, joints: s.joints, axes: s.axes, grid: s.grid, shadow: s.shadow, gizmo: s.gizmo, names: false }
    }
}

/// One file's overrides as stored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct StoredOverride {
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    up: Option<String>,
    /// Written by earlier versions: the BVH position rule (now `options."bvh.positions"`).
    #[serde(skip_serializing)]
    rule: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    options: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links_added: Vec<[String; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    links_removed: Vec<[String; 2]>,
}

/// The whole file as written.
#[derive(Serialize)]
struct Stored<'a> {
    window_size: [u32; 2],
    theme: &'static str,
    rate: f64,
    interpolation: &'static str,
    lengths: &'static str,
    recent: Vec<String>,
    display: Display,
    panels: PanelLayout,
    options: BTreeMap<&'a str, &'a str>,
    overrides: BTreeMap<&'a str, StoredOverride>,
    qa: skelview_core::qa::Thresholds,
}

/// Name of a unit in the settings file (`cmu` for the CMU ASF unit).
fn unit_name(u: LengthUnit) -> &'static str {
    match u {
        LengthUnit::CmuAsf => "cmu",
        other => other.symbol(),
    }
}

fn parse_unit(s: &str) -> Option<LengthUnit> {
    if s == "cmu" { Some(LengthUnit::CmuAsf) } else { LengthUnit::parse(s) }
}

fn parse_up(s: &str) -> Option<UpAxis> {
    UpAxis::parse(s)
}

/// The BVH position rule's key, for settings written before format options had keys.
const LEGACY_RULE_KEY: &str = "bvh.positions";

/// Name of the settings file in the config folder.
pub const FILE_NAME: &str = "settings.toml";

impl Settings {
    /// Reads `dir/settings.toml`, or migrates `dir/settings.txt` (and `recent.txt`) of
    /// earlier versions; defaults for anything missing. Returns the settings and a warning
    /// for every entry that was skipped.
    pub fn load(dir: &Path) -> (Self, Vec<String>) {
        if let Some(text) = crate::platform::stored_settings() {
            let (s, warnings) = Self::from_toml(&text);
            return (s, warnings.into_iter().map(|w| format!("{}: {w}", dir.display())).collect());
        }
        let path = dir.join(FILE_NAME);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let (s, mut warnings) = Self::from_toml(&text);
                if text.parse::<toml::Table>().is_err() {
                    // The next save rewrites the file: keep the user's text beside it.
                    let kept = dir.join(format!("{FILE_NAME}.broken"));
                    match std::fs::write(&kept, &text) {
                        Ok(()) => warnings.push(format!("kept as {}", kept.display())),
                        Err(e) => warnings.push(format!("could not keep a copy at {}: {e}", kept.display())),
                    }
                }
                (s, warnings.into_iter().map(|w| format!("{}: {w}", path.display())).collect())
            }
            Err(_) => match std::fs::read_to_string(dir.join("settings.txt")) {
                Ok(text) => {
                    let mut s = Self::from_legacy_text(&text);
                    if let Ok(recent) = std::fs::read_to_string(dir.join("recent.txt")) {
                        s.recent = recent.lines().filter(|l| !l.is_empty()).map(PathBuf::from).take(10).collect();
                    }
                    (s, Vec::new())
                }
                Err(_) => (Self::default(), Vec::new()),
            },
        }
    }

    /// Writes `dir/settings.toml` atomically (creating the folder); in a browser, into local
    /// storage.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        crate::platform::store_settings(dir, FILE_NAME, &self.to_toml())
    }

    /// The TOML text.
    pub fn to_toml(&self) -> String {
        let s = &self.style;
        let stored = Stored {
            window_size: [self.window_size.0, self.window_size.1],
            theme: if self.light_theme { "light" } else { "dark" },
            rate: self.rate,
            interpolation: if self.interpolation == Interpolation::Linear { "linear" } else { "nearest" },
            lengths: self.lengths.name(),
            recent: self.recent.iter().map(|p| p.display().to_string()).collect(),
            display: Display {
                bones: s.bones,
                joints: s.joints,
                axes: s.axes,
                grid: s.grid,
                shadow: s.shadow,
                gizmo: s.gizmo,
                names: self.show_names,
            },
            panels: self.panels,
            options: self.format.iter().collect(),
            overrides: self
                .overrides
                .iter()
                .filter(|(_, o)| **o != FileOverride::default())
                .map(|(path, o)| {
                    let stored = StoredOverride {
                        unit: o.unit.map(|u| unit_name(u).to_owned()),
                        up: o.up.map(|u| u.name().to_owned()),
                        rule: None,
                        options: o.format.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect(),
                        links_added: o.links_added.iter().map(|(a, b)| [a.clone(), b.clone()]).collect(),
                        links_removed: o.links_removed.iter().map(|(a, b)| [a.clone(), b.clone()]).collect(),
                    };
                    (path.as_str(), stored)
                })
                .collect(),
            qa: self.qa,
        };
        let body = toml::to_string(&stored).unwrap_or_default();
        format!("# skelview settings (written by skelview; unknown entries are ignored)\n{body}")
    }

    /// Parses the TOML text; entries that are unknown or do not parse are skipped, each with
    /// a warning.
    pub fn from_toml(text: &str) -> (Self, Vec<String>) {
        let mut s = Self::default();
        let mut warnings = Vec::new();
        let mut table: toml::Table = match text.parse() {
            Ok(t) => t,
            Err(e) => return (s, vec![format!("not valid TOML, defaults used: {}", e.message())]),
        };
        s.read_window_and_playback(&mut table, &mut warnings);
        s.read_display_and_panels(&mut table, &mut warnings);
        if let Some(t) = field::<skelview_core::qa::Thresholds>(table.remove("qa"), "qa", &mut warnings) {
            match t.check() {
                Ok(()) => s.qa = t,
                Err(e) => warnings.push(format!("qa: {e}: defaults used")),
            }
        }
        for (key, value) in field::<BTreeMap<String, String>>(table.remove("options"), "options", &mut warnings).unwrap_or_default() {
            if let Err(e) = s.format.set(&key, &value) {
                warnings.push(format!("options: {e}: ignored"));
            }
        }
        if let Some(o) = field::<BTreeMap<String, StoredOverride>>(table.remove("overrides"), "overrides", &mut warnings) {
            for (path, stored) in o {
                let parsed = parse_override(&path, &stored, &mut warnings);
                s.overrides.insert(path, parsed);
            }
        }
        for key in table.keys() {
            warnings.push(format!("unknown setting '{key}': ignored"));
        }
        (s, warnings)
    }

    /// The top-level scalars; each is taken out of `table` so what is left over can be
    /// reported as unknown.
    fn read_window_and_playback(&mut self, table: &mut toml::Table, warnings: &mut Vec<String>) {
        if let Some([w, h]) = field::<[u32; 2]>(table.remove("window_size"), "window_size", warnings) {
            self.window_size = (w.clamp(200, 16384), h.clamp(150, 16384));
        }
        match field::<String>(table.remove("theme"), "theme", warnings).as_deref() {
            Some("light") => self.light_theme = true,
            Some("dark") | None => {}
            Some(other) => warnings.push(format!("theme '{other}' is not light or dark: ignored")),
        }
        if let Some(r) = field::<f64>(table.remove("rate"), "rate", warnings)
            && r.is_finite()
        {
            self.rate = r.clamp(skelview_core::core::playback::RATE_RANGE.0, skelview_core::core::playback::RATE_RANGE.1);
        }
        match field::<String>(table.remove("interpolation"), "interpolation", warnings).as_deref() {
            Some("nearest") => self.interpolation = Interpolation::Nearest,
            Some("linear") | None => {}
            Some(other) => warnings.push(format!("interpolation '{other}' is not linear or nearest: ignored")),
        }
        if let Some(name) = field::<String>(table.remove("lengths"), "lengths", warnings) {
            match skelview_core::core::LengthDisplay::parse(&name) {
                Some(d) => self.lengths = d,
                None => warnings.push(format!("lengths '{name}' is not auto, m, cm or mm: ignored")),
            }
        }
        if let Some(recent) = field::<Vec<String>>(table.remove("recent"), "recent", warnings) {
            self.recent = recent.into_iter().map(PathBuf::from).take(10).collect();
        }
    }

    /// The `[display]` and `[panels]` tables; panel widths are clamped so a hand-edited file
    /// cannot hide a panel or push it off the window.
    fn read_display_and_panels(&mut self, table: &mut toml::Table, warnings: &mut Vec<String>) {
        if let Some(d) = field::<Display>(table.remove("display"), "display", warnings) {
            (self.style.bones, self.style.joints, self.style.axes, self.style.grid, self.style.shadow, self.style.gizmo) =
                (d.bones, d.joints, d.axes, d.grid, d.shadow, d.gizmo);
            self.show_names = d.names;
        }
        if let Some(p) = field::<PanelLayout>(table.remove("panels"), "panels", warnings) {
            let width = |w: f32, default: f32| if w.is_finite() { w.clamp(120.0, 2000.0) } else { default };
            let d = PanelLayout::default();
            self.panels =
                PanelLayout { left_width: width(p.left_width, d.left_width), right_width: width(p.right_width, d.right_width), ..p };
        }
    }

    /// Parses the `key = value` text of earlier versions; unknown keys and bad values are
    /// ignored.
    pub fn from_legacy_text(text: &str) -> Self {
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
                    if let Ok(r) = value.parse::<f64>()
                        && r.is_finite()
                    {
                        s.rate = r.clamp(skelview_core::core::playback::RATE_RANGE.0, skelview_core::core::playback::RATE_RANGE.1);
                    }
                }
                "left_panel" | "right_panel" => {
                    let parsed = value.split_once(' ').and_then(|(shown, w)| Some((shown == "true", w.trim().parse::<f32>().ok()?)));
                    if let Some((shown, width)) = parsed.filter(|(_, w)| w.is_finite()) {
                        let width = width.clamp(120.0, 2000.0);
                        if key == "left_panel" {
                            (s.panels.left_shown, s.panels.left_width) = (shown, width);
                        } else {
                            (s.panels.right_shown, s.panels.right_width) = (shown, width);
                        }
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
                            Some(("up", u)) => o.up = parse_up(u),
                            Some(("rule", r)) => {
                                let _ = o.format.set(LEGACY_RULE_KEY, r);
                            }
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

    /// Puts `path` first in the recent list (at most 10, no duplicates).
    pub fn remember(&mut self, path: PathBuf) {
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(10);
    }
}

/// One file's stored overrides; a value that does not parse is dropped with a warning naming
/// the file, so the rest of that file's choices still apply.
fn parse_override(path: &str, stored: &StoredOverride, warnings: &mut Vec<String>) -> FileOverride {
    let mut parsed = FileOverride::default();
    let mut bad = |what: &str, v: &str| warnings.push(format!("overrides for {path}: {what} '{v}' not understood"));
    if let Some(u) = &stored.unit {
        parsed.unit = parse_unit(u).or_else(|| {
            bad("unit", u);
            None
        });
    }
    if let Some(u) = &stored.up {
        parsed.up = parse_up(u).or_else(|| {
            bad("up axis", u);
            None
        });
    }
    let pairs = |v: &[[String; 2]]| v.iter().map(|[a, b]| (a.clone(), b.clone())).collect();
    (parsed.links_added, parsed.links_removed) = (pairs(&stored.links_added), pairs(&stored.links_removed));
    let legacy = stored.rule.as_deref().map(|r| (LEGACY_RULE_KEY, r));
    for (key, value) in legacy.into_iter().chain(stored.options.iter().map(|(k, v)| (k.as_str(), v.as_str()))) {
        if let Err(e) = parsed.format.set(key, value) {
            bad("option", &e.to_string());
        }
    }
    parsed
}

/// One entry of the table as `T`, or a warning naming it.
fn field<T: DeserializeOwned>(value: Option<toml::Value>, key: &str, warnings: &mut Vec<String>) -> Option<T> {
    let value = value?;
    match value.try_into() {
        Ok(v) => Some(v),
        Err(e) => {
            warnings.push(format!("setting '{key}' ignored: {}", e.message().trim()));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Settings {
        let mut s = Settings {
            window_size: (1600, 900),
            light_theme: true,
            show_names: true,
            rate: 0.5,
            interpolation: Interpolation::Nearest,
            panels: PanelLayout { left_shown: false, left_width: 250.0, right_shown: true, right_width: 420.0, generation: 0 },
            recent: vec!["/data/a b.bvh".into(), "/x/y.amc".into()],
            ..Settings::default()
        };
        s.style.axes = true;
        s.style.grid = false;
        s.format.set("npz.body_model", "/models/smpl family").unwrap();
        let mut format = FormatOptions::default();
        format.set("bvh.positions", "add").unwrap();
        s.overrides.insert(
            "/data/a b.bvh".into(),
            FileOverride { unit: Some(LengthUnit::CmuAsf), up: Some(UpAxis::Z), format, ..Default::default() },
        );
        let links = FileOverride {
            links_added: vec![("LKNE".into(), "LTHI".into())],
            links_removed: vec![("LASI".into(), "RASI".into())],
            ..Default::default()
        };
        s.overrides.insert("/data/walk.c3d".into(), links);
        s
    }

    #[test]
    fn round_trips_through_toml_and_disk() {
        let s = Settings { lengths: skelview_core::core::LengthDisplay::Millimetre, ..example() };
        let (back, warnings) = Settings::from_toml(&s.to_toml());
        assert_eq!(back, s);
        assert!(warnings.is_empty(), "{warnings:?}");
        let dir = tempfile::tempdir().unwrap();
        s.save(dir.path()).unwrap();
        assert_eq!(Settings::load(dir.path()).0, s);
        assert_eq!(Settings::load(&dir.path().join("none")).0, Settings::default(), "missing file: defaults");
    }

    #[test]
    fn broken_and_unknown_entries_are_skipped_with_warnings() {
        let (s, warnings) = Settings::from_toml(
            "window_size = [0, 99999999]\nrate = \"fast\"\nlengths = \"furlongs\"\nbogus = 1\ntheme = \"purple\"\n[panels]\nleft_width = 99999\nright_shown = false\n[display]\ngrid = \"no\"\n[overrides.\"/a.bvh\"]\nunit = \"furlong\"\nup = \"Z\"\noptions = { \"bvh.positions\" = \"sideways\", \"nope.x\" = \"1\" }\n",
        );
        assert_eq!(s.window_size, (200, 16384));
        assert_eq!(s.rate, 1.0);
        assert_eq!(s.panels.left_width, 2000.0);
        assert!(!s.panels.right_shown);
        assert!(s.style.grid, "a broken [display] keeps the defaults");
        assert_eq!(s.overrides["/a.bvh"], FileOverride { unit: None, up: Some(UpAxis::Z), ..Default::default() });
        for needle in ["'rate'", "'bogus'", "purple", "'display'", "furlong", "furlongs' is not auto", "'bvh.positions'", "nope.x"] {
            assert!(warnings.iter().any(|w| w.contains(needle)), "{needle} not in {warnings:?}");
        }
        let (s, warnings) = Settings::from_toml("this is [not toml");
        assert_eq!(s, Settings::default());
        assert_eq!(warnings.len(), 1);
        // A file that is not TOML at all is kept beside the one the next save writes.
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "this is [not toml").unwrap();
        let (s, warnings) = Settings::load(dir.path());
        assert_eq!(s, Settings::default());
        assert!(warnings.iter().any(|w| w.contains("kept as")), "{warnings:?}");
        assert_eq!(std::fs::read_to_string(dir.path().join("settings.toml.broken")).unwrap(), "this is [not toml");
    }

    #[test]
    fn a_rule_written_by_an_earlier_version_reads_as_the_bvh_option() {
        let (s, warnings) = Settings::from_toml("[overrides.\"/a.bvh\"]\nrule = \"add\"\n");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(s.overrides["/a.bvh"].format.get("bvh.positions"), Some("add"));
        assert!(s.to_toml().contains("[overrides.\"/a.bvh\".options]\n\"bvh.positions\" = \"add\""), "{}", s.to_toml());
    }

    #[test]
    fn earlier_text_settings_and_recent_files_are_migrated() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("settings.txt"),
            "window_size = 1600x900\ntheme = light\naxes = true\ngrid = false\nnames = true\nrate = 0.5\ninterpolation = nearest\nleft_panel = false 250\nright_panel = true 420\noverride = /data/a b.bvh\tunit=cmu\tup=Z\trule=add\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("recent.txt"), "/data/a b.bvh\n/x/y.amc\n").unwrap();
        let (s, _) = Settings::load(dir.path());
        let mut want = example();
        want.overrides.remove("/data/walk.c3d");
        want.format = FormatOptions::default();
        assert_eq!(s, want, "earlier versions kept no marker sticks, and no option for every file");
        let bad = Settings::from_legacy_text("window_size = 0x99999999\nrate = nan\nrate = 99\nleft_panel = true nan\n");
        assert_eq!((bad.window_size, bad.rate, bad.panels.left_width), ((200, 16384), 4.0, 300.0));
    }
}
