//! Joint names compared across exporters' habits.

/// `mixamorig:Left_Up-Leg.001` → `leftupleg001`: no namespace, case or separators.
pub fn fold(name: &str) -> String {
    let base = name.rsplit(':').next().unwrap_or(name);
    let base = base.strip_prefix("Bip01 ").or_else(|| base.strip_prefix("Bip001 ")).unwrap_or(base);
    base.chars().filter(|c| !matches!(c, '_' | '-' | ' ' | '.')).flat_map(char::to_lowercase).collect()
}
