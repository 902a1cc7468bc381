//! Choices a format offers about how its files are read (BVH's position rule, the AMC frame
//! rate): each format declares its own ([`super::FileFormat::options`]); the command line,
//! the viewer's menus and the per-file settings carry the user's values by key without
//! knowing what they mean, and only the format reads them.

use std::collections::BTreeMap;

use thiserror::Error;

/// One choice of a format, as the format declares it.
#[derive(Debug)]
pub struct FormatOption {
    /// Stable key, prefixed by the format (`bvh.positions`): on the command line
    /// (`--format-option KEY=VALUE`) and in the settings file.
    pub key: &'static str,
    /// A flag of its own besides `--format-option KEY=VALUE` (`bvh-positions`: the command
    /// line's `--bvh-positions`, Python's `bvh_positions=`), for options used often.
    pub alias: Option<&'static str>,
    /// What a menu calls it.
    pub label: &'static str,
    /// One line on what it changes.
    pub help: &'static str,
    /// The values it takes.
    pub values: OptionValues,
    /// What a value chosen in the viewer is remembered for.
    pub scope: OptionScope,
}

/// What a value chosen in the viewer is remembered for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    /// The file it was chosen for (how that file was written: BVH's position rule).
    File,
    /// Every file of the format, now and later (the user's own resource: a body model folder,
    /// chosen once).
    User,
}

/// The values an option takes.
#[derive(Debug)]
pub enum OptionValues {
    /// One of a list.
    Choice {
        /// Each value with its menu label.
        choices: &'static [Choice],
        /// The value when the user chose none.
        default: &'static str,
    },
    /// A number in a range.
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// The value when the user chose none.
        default: f64,
        /// Its unit, for labels (`fps`).
        unit: &'static str,
        /// Common values a menu offers (any value in range may be given by key).
        presets: &'static [f64],
    },
    /// A file or folder on the user's disk (a body model); none by default.
    Path {
        /// What it names, for labels (`FILE|FOLDER`).
        hint: &'static str,
    },
}

/// One value of a [`OptionValues::Choice`].
#[derive(Debug)]
pub struct Choice {
    /// The value as written (`add`).
    pub value: &'static str,
    /// Its menu label.
    pub label: &'static str,
}

/// Why an option value was refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum OptionError {
    /// No format declares this key.
    #[error("no format has an option '{key}' (known: {known})")]
    Unknown {
        /// The key given.
        key: String,
        /// Every key, for the message.
        known: String,
    },
    /// The value is not one the option takes.
    #[error("option '{key}': expected {expected}, found '{value}'")]
    Value {
        /// The option.
        key: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: String,
    },
}

impl FormatOption {
    /// `value` as this option stores it (a number in its canonical form), or what it expected.
    pub fn check(&'static self, value: &str) -> Result<String, OptionError> {
        let refuse = |expected: String| OptionError::Value { key: self.key, value: value.to_owned(), expected };
        match &self.values {
            OptionValues::Choice { choices, .. } => match choices.iter().find(|c| c.value.eq_ignore_ascii_case(value.trim())) {
                Some(c) => Ok(c.value.to_owned()),
                None => Err(refuse(choices.iter().map(|c| c.value).collect::<Vec<_>>().join(" or "))),
            },
            OptionValues::Number { min, max, unit, .. } => match value.trim().parse::<f64>() {
                Ok(v) if v.is_finite() && (*min..=*max).contains(&v) => Ok(v.to_string()),
                _ => Err(refuse(format!("a number of {unit} from {min} to {max}"))),
            },
            OptionValues::Path { hint } => match value.trim() {
                "" => Err(refuse(format!("a path ({hint})"))),
                v => Ok(v.to_owned()),
            },
        }
    }

    /// The chosen value of a choice option in `options`, else its default.
    pub fn choice(&'static self, options: &FormatOptions) -> &'static str {
        match &self.values {
            OptionValues::Choice { choices, default } => {
                options.get(self.key).and_then(|v| choices.iter().find(|c| c.value == v)).map_or(default, |c| c.value)
            }
            OptionValues::Number { .. } | OptionValues::Path { .. } => "",
        }
    }

    /// The chosen value of a number option in `options`, else its default.
    pub fn number(&'static self, options: &FormatOptions) -> f64 {
        match &self.values {
            OptionValues::Number { min, max, default, .. } => options
                .get(self.key)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && (*min..=*max).contains(v))
                .unwrap_or(*default),
            OptionValues::Choice { .. } | OptionValues::Path { .. } => f64::NAN,
        }
    }

    /// The path set for a path option in `options` (`None`: none set, or not a path option).
    pub fn path(&'static self, options: &FormatOptions) -> Option<std::path::PathBuf> {
        match &self.values {
            OptionValues::Path { .. } => options.get(self.key).map(std::path::PathBuf::from),
            _ => None,
        }
    }

    /// The value in force in `options` as text (the default when none is set).
    pub fn value_in(&'static self, options: &FormatOptions) -> String {
        match &self.values {
            OptionValues::Choice { .. } => self.choice(options).to_owned(),
            OptionValues::Number { .. } => self.number(options).to_string(),
            OptionValues::Path { .. } => options.get(self.key).unwrap_or_default().to_owned(),
        }
    }
}

/// The user's values for format options, by key. Only values an option accepts get in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FormatOptions(BTreeMap<&'static str, String>);

impl FormatOptions {
    /// Sets `option` to `value` once the option has checked it (`set`, by key, is in the
    /// format table, which knows every option).
    pub fn set_checked(&mut self, option: &'static FormatOption, value: &str) -> Result<(), OptionError> {
        self.0.insert(option.key, option.check(value)?);
        Ok(())
    }

    /// Forgets `key` (its default applies again).
    pub fn unset(&mut self, key: &str) {
        self.0.remove(key);
    }

    /// The value set for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Every value set, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.0.iter().map(|(k, v)| (*k, v.as_str()))
    }

    /// True when nothing is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These values with `other`'s on top.
    pub fn overlaid(&self, other: &FormatOptions) -> FormatOptions {
        let mut out = self.clone();
        out.0.extend(other.0.iter().map(|(k, v)| (*k, v.clone())));
        out
    }
}
