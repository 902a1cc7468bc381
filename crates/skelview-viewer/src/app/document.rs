//! The document: what the user opened and chose about each clip, by the clip's stable id:
//! the read options it was loaded with and the unit and up axis the user picked instead of the
//! file's; and the joint-name map the comparison uses, with its file. Reloads, per-file
//! settings and the capture checks start from it; the scene draws what it describes and keeps
//! none of it but the name map's pairs. (Edits, as recipes, join it next.)

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use skelview_core::core::{LengthUnit, UpAxis};
use skelview_core::formats::FormatOptions;
use skelview_scene::{ClipId, Scene};

/// One clip's source and the user's choices about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipSource {
    /// The values of its format's read options it was loaded with (`bvh.positions`).
    pub read_with: FormatOptions,
    /// Length unit chosen by the user instead of the detected or declared one.
    pub unit: Option<LengthUnit>,
    /// Up axis chosen by the user instead of the detected or declared one.
    pub up: Option<UpAxis>,
}

/// Every open clip's [`ClipSource`], and the name map the comparison pairs joints with.
#[derive(Clone, Debug, Default)]
pub struct Document {
    clips: HashMap<ClipId, ClipSource>,
    /// The user's joint-name map (MNM) and its file.
    pub name_map: Option<(PathBuf, Arc<[(String, String)]>)>,
}

impl Document {
    /// Clip `id`'s source (the defaults for a clip the document does not know).
    pub fn source(&self, id: ClipId) -> ClipSource {
        self.clips.get(&id).cloned().unwrap_or_default()
    }

    /// The user's unit and up-axis choices for clip `id`.
    pub fn overrides(&self, id: ClipId) -> (Option<LengthUnit>, Option<UpAxis>) {
        self.clips.get(&id).map_or((None, None), |c| (c.unit, c.up))
    }

    /// Clip `id`'s source, to change (made when missing).
    pub fn edit(&mut self, id: ClipId) -> &mut ClipSource {
        self.clips.entry(id).or_default()
    }

    /// Forgets the clips the scene no longer shows.
    pub fn retain_open(&mut self, scene: &Scene) {
        self.clips.retain(|id, _| scene.index_of(*id).is_some());
    }

    /// How many clips it knows.
    pub fn len(&self) -> usize {
        self.clips.len()
    }

    /// True when it knows no clip.
    pub fn is_empty(&self) -> bool {
        self.clips.is_empty()
    }
}
