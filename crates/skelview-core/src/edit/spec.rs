//! What an edit operation declares about itself, once, beside its code: its name, what it
//! does, each parameter (type, default, unit, range, help) and where the viewer's form takes
//! it from. The command line's flags, recipe keys, Python's keyword arguments, the viewer's
//! form and the book's table are all made from these declarations ([`super::OPERATIONS`]).

/// One operation, as its file declares it.
#[derive(Debug)]
pub struct OpSpec {
    /// The recipe's `op` and, with `-` for `_`, the command line's flag (`fill_gaps`,
    /// `--fill-gaps`).
    pub name: &'static str,
    /// The viewer's name for it (`Fill gaps`).
    pub label: &'static str,
    /// What it does, in a sentence or two (the command line's help, the book's table).
    pub help: &'static str,
    /// What it does with gaps, rotations and captures, for the book (may be empty).
    pub notes: &'static str,
    /// Its parameters, in the order a recipe writes them.
    pub params: &'static [Param],
    /// How the command line writes its value: the keys of the parameters it carries, in
    /// order; none: a flag without a value. Parameters not listed come from flags of their
    /// own, shared by every operation that has them (`--joints`, `--range`, `--max-gap`).
    pub value: &'static [&'static str],
    /// Between the value's parts (`:` in `butterworth:6:2`, `=` in `OLD=NEW`).
    pub separator: char,
    /// Which part may hold the separator itself: the value is split from the other end
    /// (an event's label, `Foot:Strike:Left:1.25`; a joint renamed to `a=b`).
    pub free_part: FreePart,
    /// Written before the value's parts (`butterworth` in `butterworth:6`).
    pub prefix: Option<&'static str>,
    /// The viewer's Edits window offers it (removing an event is done from the event list).
    pub in_form: bool,
}

/// Which part of a command-line value may hold the separator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreePart {
    /// The first (the value is split from its end).
    First,
    /// The last (the value is split from its start).
    Last,
}

/// One parameter of an operation.
#[derive(Debug)]
pub struct Param {
    /// Its key in a recipe (`cutoff_hz`); on the command line, as a flag of its own, with `-`.
    pub key: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// One line on what it means.
    pub help: &'static str,
    /// Where the viewer's form takes it from.
    pub from: Taken,
}

/// The values a parameter takes.
#[derive(Debug)]
pub enum Kind {
    /// A number.
    Number {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// A whole number.
        integer: bool,
        /// Its unit, for labels and help (`Hz`, `frames`; may be empty).
        unit: &'static str,
        /// What happens when it is not given.
        default: Absent,
    },
    /// One of a list.
    Choice {
        /// The values.
        choices: &'static [&'static str],
        /// What happens when it is not given.
        default: Absent,
    },
    /// Text (a name, a label).
    Text {
        /// What happens when it is not given.
        default: Absent,
    },
    /// Joint or marker names (all when none are given).
    Names,
    /// A range of frames, `A:B` or `1.5s:3s` (all frames when not given, unless required).
    Range {
        /// It must be given.
        required: bool,
    },
}

/// What a parameter is when not given.
#[derive(Debug)]
pub enum Absent {
    /// It must be given; the viewer's form starts at this value.
    Required(&'static str),
    /// This value.
    Value(&'static str),
    /// Worked out from the clip, as this says (`half a second of frames`).
    Auto(&'static str),
}

/// Where the viewer's Edits window takes a parameter from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// The form shows a field for it.
    Form,
    /// The selected joint's name, when the user narrows the step to it (optional) or always.
    Selection {
        /// Only when the "only the selected joint" box is on.
        optional: bool,
    },
    /// The timeline's in/out range, when the user narrows the step to it (optional) or always.
    InOut {
        /// Only when the "only the in/out range" box is on.
        optional: bool,
    },
    /// The frame shown.
    FrameShown,
    /// The capture's clock now, in seconds.
    TimeShown,
    /// Not offered by the form (recipes, the command line and Python set it).
    Nowhere,
}

impl OpSpec {
    /// The command line's flag, without its dashes (`fill-gaps`).
    pub fn flag(&self) -> String {
        self.name.replace('_', "-")
    }

    /// The parameter with this key.
    pub fn param(&self, key: &str) -> Option<&'static Param>
    where
        Self: 'static,
    {
        self.params.iter().find(|p| p.key == key)
    }

    /// The command line's value as its help shows it (`butterworth:CUTOFF_HZ[:ORDER]`); empty
    /// for a flag without a value.
    pub fn value_name(&'static self) -> String {
        let mut parts: Vec<String> = self.prefix.map(str::to_owned).into_iter().collect();
        for key in self.value {
            let Some(p) = self.param(key) else { continue };
            let name = p.value_name();
            parts.push(if p.kind.required() { name } else { format!("[{name}]") });
        }
        let mut out = String::new();
        for (k, part) in parts.iter().enumerate() {
            // An optional part carries its separator inside its brackets: `6[:ORDER]`.
            if k > 0 {
                if let Some(inner) = part.strip_prefix('[') {
                    out.push('[');
                    out.push(self.separator);
                    out.push_str(inner);
                    continue;
                }
                out.push(self.separator);
            }
            out.push_str(part);
        }
        out
    }

    /// The parameter the command line's value and Python's plain keyword value set
    /// (`filter=6.0` is `cutoff_hz = 6.0`); `None` for an operation that takes none.
    pub fn main_param(&'static self) -> Option<&'static Param> {
        self.value.first().and_then(|k| self.param(k))
    }

    /// True when the viewer can narrow it to the selected joint or the in/out range.
    pub fn scoped(&self) -> bool {
        self.params.iter().any(|p| matches!(p.from, Taken::Selection { optional: true } | Taken::InOut { optional: true }))
    }
}

impl Param {
    /// Its name in a value's syntax (`CUTOFF_HZ`, `A:B`, `NAME,...`).
    pub fn value_name(&self) -> String {
        match self.kind {
            Kind::Range { .. } => "A:B".into(),
            Kind::Names => "NAME,...".into(),
            _ => self.key.to_uppercase(),
        }
    }
}

impl Kind {
    /// True when it must be given.
    pub fn required(&self) -> bool {
        match self {
            Self::Number { default, .. } | Self::Choice { default, .. } | Self::Text { default } => {
                matches!(default, Absent::Required(_))
            }
            Self::Names => false,
            Self::Range { required } => *required,
        }
    }

    /// What it is when not given, for help texts (`4`, `half a second of frames`); `None`
    /// when it must be given.
    pub fn default_text(&self) -> Option<String> {
        match self {
            Self::Number { default, .. } | Self::Choice { default, .. } | Self::Text { default } => match default {
                Absent::Required(_) => None,
                Absent::Value(v) => Some((*v).to_owned()),
                Absent::Auto(how) => Some((*how).to_owned()),
            },
            Self::Names => Some("all".into()),
            Self::Range { required: false } => Some("all frames".into()),
            Self::Range { required: true } => None,
        }
    }

    /// The value a form starts at (the default, or a typical value for a required one).
    pub fn form_start(&self) -> &'static str {
        match self {
            Self::Number { default, .. } | Self::Choice { default, .. } | Self::Text { default } => match default {
                Absent::Required(v) | Absent::Value(v) => v,
                Absent::Auto(_) => "",
            },
            Self::Names | Self::Range { .. } => "",
        }
    }
}
