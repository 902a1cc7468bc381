//! Lengths as a person reads them: metres, centimetres or millimetres, picked by magnitude
//! or fixed by the user. Values are metres inside; a file's own unit is shown only beside its
//! raw channels.

use glam::Vec3;

/// The user's choice of unit for lengths shown in the viewer and reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LengthDisplay {
    /// Metres from 1 m up, centimetres from 1 cm, millimetres below.
    #[default]
    Auto,
    /// Always metres.
    Metre,
    /// Always centimetres.
    Centimetre,
    /// Always millimetres.
    Millimetre,
}

/// A unit lengths are shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShownUnit {
    /// Metres, 3 decimals (to the millimetre).
    M,
    /// Centimetres, 2 decimals.
    Cm,
    /// Millimetres, 1 decimal.
    Mm,
}

impl ShownUnit {
    /// Units per metre.
    pub fn per_metre(self) -> f32 {
        match self {
            Self::M => 1.0,
            Self::Cm => 100.0,
            Self::Mm => 1000.0,
        }
    }

    /// `m`, `cm` or `mm`.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::M => "m",
            Self::Cm => "cm",
            Self::Mm => "mm",
        }
    }

    /// Decimals that keep a tenth of a millimetre or better without noise.
    pub fn decimals(self) -> usize {
        match self {
            Self::M => 3,
            Self::Cm => 2,
            Self::Mm => 1,
        }
    }

    /// `metres` in this unit, without the symbol.
    pub fn number(self, metres: f32) -> String {
        if !metres.is_finite() {
            return "-".to_owned();
        }
        format!("{:.*}", self.decimals(), metres * self.per_metre())
    }

    /// `metres` in this unit with its symbol (`3.71 cm`).
    pub fn show(self, metres: f32) -> String {
        format!("{} {}", self.number(metres), self.symbol())
    }

    /// A vector in this unit, fixed-width columns, with the symbol once at the end.
    pub fn show_vec3(self, metres: Vec3) -> String {
        let w = self.decimals() + 5;
        let d = self.decimals();
        let s = self.per_metre();
        format!("{:>w$.d$} {:>w$.d$} {:>w$.d$} {}", metres.x * s, metres.y * s, metres.z * s, self.symbol())
    }
}

impl LengthDisplay {
    /// Every choice, for menus.
    pub const ALL: [Self; 4] = [Self::Auto, Self::Metre, Self::Centimetre, Self::Millimetre];

    /// The unit for values of about `scale_m` metres: what a list or a plot axis whose
    /// largest value is `scale_m` uses, so that its rows line up.
    pub fn unit_for(self, scale_m: f32) -> ShownUnit {
        match self {
            Self::Metre => ShownUnit::M,
            Self::Centimetre => ShownUnit::Cm,
            Self::Millimetre => ShownUnit::Mm,
            Self::Auto => match scale_m.abs() {
                s if !s.is_finite() || s >= 1.0 => ShownUnit::M,
                s if s >= 0.01 => ShownUnit::Cm,
                _ => ShownUnit::Mm,
            },
        }
    }

    /// One length, in the unit its own magnitude picks.
    pub fn show(self, metres: f32) -> String {
        self.unit_for(metres).show(metres)
    }

    /// The name stored in the settings and shown in menus.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Metre => "m",
            Self::Centimetre => "cm",
            Self::Millimetre => "mm",
        }
    }

    /// Parses [`Self::name`].
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_picks_by_magnitude() {
        let d = LengthDisplay::Auto;
        assert_eq!(d.show(1.7532), "1.753 m");
        assert_eq!(d.show(0.3714), "37.14 cm");
        assert_eq!(d.show(0.01), "1.00 cm");
        assert_eq!(d.show(0.0042), "4.2 mm");
        assert_eq!(d.show(-0.25), "-25.00 cm");
        assert_eq!(d.show(f32::NAN), "- m");
    }

    #[test]
    fn a_fixed_choice_is_kept_whatever_the_size() {
        assert_eq!(LengthDisplay::Millimetre.show(1.5), "1500.0 mm");
        assert_eq!(LengthDisplay::Metre.show(0.0042), "0.004 m");
        assert_eq!(LengthDisplay::Centimetre.unit_for(100.0), ShownUnit::Cm);
    }

    #[test]
    fn names_round_trip() {
        for d in LengthDisplay::ALL {
            assert_eq!(LengthDisplay::parse(d.name()), Some(d));
        }
        assert_eq!(LengthDisplay::parse("cmu"), None);
    }

    #[test]
    fn vectors_share_one_symbol() {
        assert_eq!(ShownUnit::Cm.show_vec3(Vec3::new(0.1, -1.0, 0.0)), "  10.00 -100.00    0.00 cm");
    }
}
