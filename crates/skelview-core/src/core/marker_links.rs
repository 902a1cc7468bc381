//! Sticks between the markers of well-known marker sets, so that a capture reads as a body
//! (as Mokka and Nexus draw it) rather than as loose dots. A marker's name says its side
//! (`L`/`R`, `Left`, `l_`, `r.`, `_L`) and its place on the body (`FHD`, `ASI`, `KNE`,
//! `shoulder`, `5meta`…): Plug-in Gait / Helen Hayes, CMU's 41 markers, the OpenSim and OpenCap
//! sets, and OpenPose's keypoints. Places are linked along the limbs (shoulder, elbow, wrist,
//! finger; hip, knee, ankle, heel, toe), across the pelvis and the head, and from the neck
//! or C7 to the shoulders. A marker this does not know is left without a link; the user adds
//! and removes links on top (kept with the file's settings).

/// Which side of the body a marker is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Side {
    Left,
    Right,
    Centre,
}

/// A place on the body and the names marker sets give it (lower case, letters and digits).
const PLACES: &[(&str, &[&str])] = &[
    ("fhd", &["fhd", "headfront", "fronthead"]),
    ("bhd", &["bhd", "headback", "backhead"]),
    ("c7", &["c7"]),
    ("t10", &["t10"]),
    ("clav", &["clav", "jugularnotch"]),
    ("strn", &["strn", "sternum", "xyphoid"]),
    ("neck", &["neck"]),
    ("nose", &["nose"]),
    ("eye", &["eye"]),
    ("ear", &["ear"]),
    ("sho", &["sho", "shoulder", "acr", "acromion"]),
    ("elb", &["elb", "elbow", "lelbow", "latelbow"]),
    ("melb", &["melb", "melbow", "medelbow"]),
    ("wra", &["wra", "wrist", "lwrist", "latwrist", "rsp"]),
    ("wrb", &["wrb", "mwrist", "medwrist", "usp"]),
    ("fin", &["fin", "hand", "mcp2", "finger"]),
    ("asi", &["asi", "asis"]),
    ("psi", &["psi", "psis"]),
    ("fwt", &["fwt"]),
    ("bwt", &["bwt"]),
    ("hip", &["hip", "hjc"]),
    ("midhip", &["midhip", "sacr", "sacrum", "vsacral"]),
    ("kne", &["kne", "knee", "latknee", "kjc"]),
    ("mkne", &["mkne", "mknee", "medknee"]),
    ("ank", &["ank", "ankle", "latankle", "ajc"]),
    ("mank", &["mank", "mankle", "mmal", "medankle"]),
    ("hee", &["hee", "heel", "calc", "cal"]),
    ("toe", &["toe", "bigtoe", "mt2", "toetip"]),
    ("mt5", &["mt5", "5meta", "smalltoe", "meta5", "mt5head"]),
];

/// Places linked on each side, in order along each chain (a place a set lacks is skipped:
/// shoulder to wrist where there is no elbow marker).
const CHAINS: &[&[&str]] = &[
    &["fhd", "bhd"],
    &["eye", "ear"],
    &["sho", "elb", "wra", "fin"],
    &["elb", "melb"],
    &["wra", "wrb"],
    &["wrb", "fin"],
    &["asi", "psi"],
    &["fwt", "bwt"],
    &["asi", "kne"],
    &["fwt", "kne"],
    &["hip", "kne"],
    &["kne", "ank", "hee"],
    &["ank", "toe"],
    &["hee", "toe"],
    &["toe", "mt5"],
    &["kne", "mkne"],
    &["ank", "mank"],
];

/// Places linked from left to right.
const ACROSS: &[&str] = &["fhd", "bhd", "asi", "psi", "fwt", "bwt", "hip"];

/// Links of the spine and from it to both sides: (centre place, centre or side place).
const CENTRE: &[(&str, &str)] = &[
    ("c7", "t10"),
    ("c7", "clav"),
    ("clav", "strn"),
    ("neck", "nose"),
    ("neck", "midhip"),
    ("c7", "sho"),
    ("clav", "sho"),
    ("neck", "sho"),
    ("midhip", "hip"),
];

/// `label`'s side and the rest of its name, lower case, letters and digits only.
fn side_of(label: &str) -> (Side, String) {
    let raw = label.rsplit(':').next().unwrap_or(label);
    let raw = raw.strip_suffix("_study").unwrap_or(raw);
    let clean = |s: &str| s.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    let lower = raw.to_ascii_lowercase();
    for (prefix, side) in [("left", Side::Left), ("right", Side::Right)] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            return (side, clean(rest));
        }
    }
    for (side, l) in [(Side::Left, 'l'), (Side::Right, 'r')] {
        for sep in ['_', '.', '-', ' '] {
            if let Some(rest) = lower.strip_prefix(&format!("{l}{sep}")) {
                return (side, clean(rest));
            }
            if let Some(rest) = lower.strip_suffix(&format!("{sep}{l}")) {
                return (side, clean(rest));
            }
        }
    }
    // `LFHD`, `RShoulder`: a side letter before a capital or a digit.
    let mut chars = raw.chars();
    if let (Some(first @ ('L' | 'R' | 'l' | 'r')), Some(second)) = (chars.next(), chars.next())
        && (second.is_ascii_uppercase() || second.is_ascii_digit())
    {
        let side = if first.eq_ignore_ascii_case(&'l') { Side::Left } else { Side::Right };
        return (side, clean(&raw[1..]));
    }
    (Side::Centre, clean(raw))
}

/// The place a marker's name says, if any.
fn place_of(rest: &str) -> Option<&'static str> {
    PLACES.iter().find(|(_, names)| names.contains(&rest)).map(|(place, _)| *place)
}

/// Pairs of markers (indices into `labels`) to draw a stick between, each pair once, the
/// smaller index first.
pub fn marker_links<S: AsRef<str>>(labels: &[S]) -> Vec<(usize, usize)> {
    let mut at: std::collections::HashMap<(Side, &str), usize> = std::collections::HashMap::new();
    for (i, label) in labels.iter().enumerate() {
        let (side, rest) = side_of(label.as_ref());
        if let Some(place) = place_of(&rest) {
            at.entry((side, place)).or_insert(i);
        }
    }
    let mut links = Vec::new();
    let mut link = |a: Option<&usize>, b: Option<&usize>| {
        if let (Some(&a), Some(&b)) = (a, b)
            && a != b
        {
            links.push((a.min(b), a.max(b)));
        }
    };
    for side in [Side::Left, Side::Right] {
        for chain in CHAINS {
            let present: Vec<&usize> = chain.iter().filter_map(|p| at.get(&(side, *p))).collect();
            for w in present.windows(2) {
                link(Some(w[0]), Some(w[1]));
            }
        }
    }
    for place in ACROSS {
        link(at.get(&(Side::Left, *place)), at.get(&(Side::Right, *place)));
    }
    for (centre, other) in CENTRE {
        let from = at.get(&(Side::Centre, *centre));
        link(from, at.get(&(Side::Centre, *other)));
        for side in [Side::Left, Side::Right] {
            link(from, at.get(&(side, *other)));
        }
    }
    links.sort_unstable();
    links.dedup();
    links
}

/// `auto` with the user's choices on top: `added` pairs linked, `removed` pairs not, by
/// marker name (names not in `labels` are ignored).
pub fn edited_links<S: AsRef<str>>(
    labels: &[S],
    auto: &[(usize, usize)],
    added: &[(String, String)],
    removed: &[(String, String)],
) -> Vec<(usize, usize)> {
    let index = |name: &str| labels.iter().position(|l| l.as_ref() == name);
    let pair = |(a, b): &(String, String)| Some((index(a)?, index(b)?)).filter(|(a, b)| a != b).map(|(a, b)| (a.min(b), a.max(b)));
    let removed: Vec<(usize, usize)> = removed.iter().filter_map(pair).collect();
    let mut out: Vec<(usize, usize)> = auto.iter().copied().chain(added.iter().filter_map(pair)).filter(|p| !removed.contains(p)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named<'a>(labels: &'a [&'a str], links: &[(usize, usize)]) -> Vec<(&'a str, &'a str)> {
        links.iter().map(|&(a, b)| (labels[a], labels[b])).collect()
    }

    #[test]
    fn plug_in_gait_lower_body_links_along_the_legs_and_across_the_pelvis() {
        let labels = ["LASI", "RASI", "LPSI", "RPSI", "LTHI", "LKNE", "LTIB", "LANK", "LHEE", "LTOE", "RKNE", "RANK", "RHEE", "RTOE"];
        let links = named(&labels, &marker_links(&labels));
        for pair in [
            ("LASI", "RASI"),
            ("LPSI", "RPSI"),
            ("LASI", "LPSI"),
            ("LASI", "LKNE"),
            ("LKNE", "LANK"),
            ("LANK", "LHEE"),
            ("LANK", "LTOE"),
            ("LHEE", "LTOE"),
            ("RKNE", "RANK"),
        ] {
            assert!(links.contains(&pair), "{pair:?} in {links:?}");
        }
        assert!(
            !links.iter().any(|(a, b)| a.starts_with('L') && b.starts_with('R') && !a.ends_with("SI")),
            "only the pelvis crosses: {links:?}"
        );
    }

    #[test]
    fn cmu_opencap_openpose_and_subject_prefixes_are_read() {
        let cmu =
            ["Subject:LFHD", "Subject:RFHD", "Subject:C7", "Subject:CLAV", "Subject:LSHO", "Subject:LELB", "Subject:LWRA", "Subject:LFIN"];
        let links = named(&cmu, &marker_links(&cmu));
        for pair in [
            ("Subject:LFHD", "Subject:RFHD"),
            ("Subject:C7", "Subject:CLAV"),
            ("Subject:C7", "Subject:LSHO"),
            ("Subject:LSHO", "Subject:LELB"),
            ("Subject:LELB", "Subject:LWRA"),
            ("Subject:LWRA", "Subject:LFIN"),
        ] {
            assert!(links.contains(&pair), "{pair:?} in {links:?}");
        }
        let opencap = [
            "r.ASIS_study",
            "L.ASIS_study",
            "r_knee_study",
            "r_mknee_study",
            "r_ankle_study",
            "r_calc_study",
            "r_toe_study",
            "r_5meta_study",
        ];
        let links = named(&opencap, &marker_links(&opencap));
        for pair in [
            ("r.ASIS_study", "L.ASIS_study"),
            ("r.ASIS_study", "r_knee_study"),
            ("r_knee_study", "r_mknee_study"),
            ("r_knee_study", "r_ankle_study"),
            ("r_toe_study", "r_5meta_study"),
        ] {
            assert!(links.contains(&pair) || links.contains(&(pair.1, pair.0)), "{pair:?} in {links:?}");
        }
        let openpose =
            ["Neck", "RShoulder", "RElbow", "RWrist", "MidHip", "RHip", "RKnee", "RAnkle", "RHeel", "RBigToe", "RSmallToe", "Nose"];
        let links = named(&openpose, &marker_links(&openpose));
        for pair in [
            ("Neck", "RShoulder"),
            ("RShoulder", "RElbow"),
            ("RElbow", "RWrist"),
            ("MidHip", "RHip"),
            ("RHip", "RKnee"),
            ("RKnee", "RAnkle"),
            ("Neck", "Nose"),
        ] {
            assert!(links.contains(&pair) || links.contains(&(pair.1, pair.0)), "{pair:?} in {links:?}");
        }
    }

    #[test]
    fn unknown_names_get_no_link_and_the_users_choices_apply_on_top() {
        let labels = ["M1", "M2", "LKNE", "LANK", "lt_thighMag"];
        let auto = marker_links(&labels);
        assert_eq!(named(&labels, &auto), [("LKNE", "LANK")]);
        let edited =
            edited_links(&labels, &auto, &[("M1".into(), "M2".into()), ("M1".into(), "gone".into())], &[("LANK".into(), "LKNE".into())]);
        assert_eq!(named(&labels, &edited), [("M1", "M2")]);
    }
}
