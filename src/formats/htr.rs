//! Motion Analysis HTR and GTR.
