//! The document: what the user opened and chose about each clip, by the clip's stable id:
//! the read options it was loaded with and the unit and up axis the user picked instead of the
//! file's; and the joint-name map the comparison uses, with its file. Reloads, per-file
//! settings and the capture checks start from it; the scene draws what it describes and keeps
//! none of it but the name map's pairs. Each edited clip's recipe, with its history and its
//! source, is here too ([`ClipEdits`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::edits::ClipEdits;
use skelview_core::core::{LengthUnit, Motion, UpAxis};
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
    /// Sticks the user drew between a capture's markers, by name.
    pub links_added: Vec<(String, String)>,
    /// Sticks of the marker set the user took away, by name.
    pub links_removed: Vec<(String, String)>,
}

/// Every open clip's [`ClipSource`], and the name map the comparison pairs joints with.
#[derive(Clone, Debug, Default)]
pub struct Document {
    clips: HashMap<ClipId, ClipSource>,
    edits: HashMap<ClipId, ClipEdits>,
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
        self.edits.retain(|id, _| scene.index_of(*id).is_some());
    }

    /// Clip `id`'s edits, if it was ever edited.
    pub fn edits(&self, id: ClipId) -> Option<&ClipEdits> {
        self.edits.get(&id)
    }

    /// Clip `id`'s edits, to change; a clip edited for the first time starts from `source`.
    pub fn edits_or_new(&mut self, id: ClipId, source: impl FnOnce() -> Arc<Motion>) -> &mut ClipEdits {
        self.edits.entry(id).or_insert_with(|| ClipEdits::new(source()))
    }

    /// A clip reloaded in place (another take, a read option): its recipe now applies to
    /// the new source.
    pub fn reloaded(&mut self, id: ClipId, source: Arc<Motion>) {
        if let Some(e) = self.edits.get_mut(&id) {
            e.source = source;
        }
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
