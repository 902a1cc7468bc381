//! Files in: opening and adding files (on the loader thread), taking what arrives into the
//! session, and what the command line asked to do once a clip is in (`--select`,
//! `--measure`); per-file unit and up-axis choices are remembered here.

use std::path::PathBuf;

use super::{AppError, ClipEdit, Command, LoadEffect, Start, ViewEffect, Viewer};
use crate::tasks::{Shown, load_name, spawn_open};
use skelview_core::formats::{FormatOptions, LoadRequest};

/// A load that replaces what is shown is waited on; one that adds a clip is background work.
fn shown(replace: bool) -> Shown {
    if replace { Shown::Waited } else { Shown::Stoppable }
}

impl Viewer {
    /// Opens a request (the bundled sample, bytes in memory), replacing what is shown.
    pub fn open(&mut self, request: LoadRequest) {
        self.start_requests(request, true);
    }

    /// Adds a request beside the clips shown.
    pub fn add(&mut self, request: LoadRequest) {
        self.start_requests(request, false);
    }

    pub(super) fn start_requests(&mut self, request: LoadRequest, replace: bool) {
        let name = request.main_path().display().to_string();
        match crate::tasks::spawn_load(request, self.options.clone(), &self.tasks, shown(replace)) {
            Ok(task) => self.session.track(name, task, replace, None, None),
            Err(e) => self.messages.fail(AppError::thread("loader", e)),
        }
    }

    /// Opens files held in memory (dropped on a web page), grouped as paths are: the first
    /// replaces what is shown (unless `add`), the others are added. A file no format reads
    /// (or an AMC without its ASF) is reported as a failed open.
    pub fn open_memory(&mut self, files: Vec<(PathBuf, std::sync::Arc<[u8]>)>, add: bool) {
        // Kept for reloads (another take, a format option): there is no file to read again.
        self.opened_bytes.extend(files.iter().cloned());
        let mut requests = Vec::new();
        for request in LoadRequest::from_memory(files) {
            match request {
                Ok(r) => requests.push(r),
                Err(e) => self.messages.fail(e.into()),
            }
        }
        if requests.is_empty() {
            return;
        }
        let name = requests.iter().map(|r| r.main_path().display().to_string()).collect::<Vec<_>>().join(", ");
        let base = self.options.clone();
        match crate::tasks::spawn_requests(requests, Box::new(move |_| base.clone()), &self.tasks, shown(!add)) {
            Ok(task) => self.session.track(name, task, !add, None, None),
            Err(e) => self.messages.fail(AppError::thread("loader", e)),
        }
    }

    /// Opens paths as the command line groups them (an AMC finds its ASF, on the loader
    /// thread): the first replaces what is shown (unless `add`), the others are added.
    pub fn open_paths(&mut self, paths: Vec<PathBuf>, add: bool) {
        self.spawn_paths(paths, !add, None, FormatOptions::default(), None);
    }

    pub(super) fn spawn_paths(
        &mut self,
        paths: Vec<PathBuf>,
        replace: bool,
        reload: Option<(u64, [f32; 4])>,
        format: FormatOptions,
        take: Option<String>,
    ) {
        if paths.is_empty() {
            return;
        }
        let name = load_name(&paths);
        let (base, overrides, everywhere) = (self.options.clone(), self.settings.overrides.clone(), self.settings.format.clone());
        let options = move |key: Option<&std::path::Path>| {
            let mut o = base.clone();
            // The values for every file, then the command line's, then those saved for the
            // file, then this reload's.
            o.format = everywhere.overlaid(&o.format);
            if let Some(saved) = key.and_then(|k| overrides.get(&k.display().to_string())) {
                o.format = o.format.overlaid(&saved.format);
            }
            o.format = o.format.overlaid(&format);
            if take.is_some() {
                o.take.clone_from(&take);
            }
            o
        };
        // Files that came as bytes (dropped on a web page) reload from the bytes kept.
        let in_memory: Option<Vec<(PathBuf, std::sync::Arc<[u8]>)>> =
            paths.iter().map(|p| self.opened_bytes.get(p).map(|b| (p.clone(), b.clone()))).collect();
        let task = match in_memory {
            Some(files) => {
                let requests = LoadRequest::from_memory(files).into_iter().filter_map(Result::ok).collect();
                crate::tasks::spawn_requests(requests, Box::new(options), &self.tasks, shown(replace))
            }
            None => spawn_open(paths, Box::new(options), &self.tasks, shown(replace)),
        };
        match task {
            Ok(task) => self.session.track(name, task, replace, reload.map(|r| r.0), reload.map(|r| r.1)),
            Err(e) => self.messages.fail(AppError::thread("loader", e)),
        }
    }

    /// Applies what arrived from the loaders: per-file overrides, the recent list, framing.
    pub(super) fn poll_loads(&mut self) {
        let (arrived, errors) = self.session.poll_loads();
        if let Some(e) = errors.into_iter().last() {
            self.view.drop_pending_retargets();
            self.messages.fail(e.into());
        }
        for a in arrived {
            // Where the clip is now: a replacing arrival later in the same poll may have moved
            // it, or removed it.
            let Some(index) = self.session.scene.index_of(a.id) else { continue };
            if let Some(key) = &a.key {
                let saved = self.settings.overrides.get(&key.display().to_string()).cloned().unwrap_or_default();
                self.session.set_overrides(index, saved.unit, saved.up);
                self.session.set_link_edits(index, saved.links_added, saved.links_removed);
                self.settings.remember(key.clone());
                self.store.save(&self.settings);
            }
            if a.replaced {
                self.view.selected = None;
                self.messages.error = None;
            }
            let clip_name = self.session.scene.clips[index].name.clone();
            let active = index == self.session.active;
            for effect in self.view.take_on_load(active) {
                let skeleton = &self.session.scene.clips[index].motion.skeleton;
                match effect {
                    LoadEffect::Select(name) => match skeleton.joint_named(&name) {
                        Ok(j) if active => self.view.selected = Some(j),
                        Ok(_) => {}
                        Err(source) => self.messages.fail(AppError::StartOption { option: "select", clip: clip_name.clone(), source }),
                    },
                    LoadEffect::Measure(names) => match names.iter().map(|n| skeleton.joint_named(n)).collect::<Result<Vec<_>, _>>() {
                        Ok(joints) => {
                            self.view.measure.open = true;
                            self.view.measure.picks.clear();
                            joints.into_iter().for_each(|j| self.view.measure.pick(j));
                        }
                        Err(source) => self.messages.fail(AppError::StartOption { option: "measure", clip: clip_name.clone(), source }),
                    },
                    LoadEffect::RetargetOnto { source, keep_feet } => {
                        self.commands.push(Command::Clip(source, ClipEdit::RetargetOnto { target: a.id, keep_feet }));
                    }
                }
            }
            self.view.queue(ViewEffect::FramePose);
            self.view.queue(ViewEffect::ChooseFollow);
        }
    }

    /// Applies the command line's viewer options.
    pub fn start_with(&mut self, start: Start) {
        if let Some(name) = start.select {
            self.view.queue_on_load(LoadEffect::Select(name));
        }
        if !start.measure.is_empty() {
            self.view.queue_on_load(LoadEffect::Measure(start.measure));
        }
        self.view.show_curves = start.curves;
    }

    /// Remembers clip `i`'s unit/up choices (and the format option values in `format`) for
    /// its file.
    pub(super) fn remember_overrides(&mut self, i: usize, format: &FormatOptions) {
        let Some(c) = self.session.scene.clips.get(i) else { return };
        let Some(path) = c.motion.source.paths.last() else { return };
        // A clip opened in memory has no file.
        if !path.is_absolute() && !path.exists() {
            return;
        }
        // The loader's key for the same file (see file_key), so the next load finds it.
        let key = crate::tasks::file_key(path).display().to_string();
        let entry = self.settings.overrides.entry(key).or_default();
        (entry.unit, entry.up) = self.session.document.overrides(c.id());
        let source = self.session.document.source(c.id());
        (entry.links_added, entry.links_removed) = (source.links_added, source.links_removed);
        entry.format = entry.format.overlaid(format);
        self.store.save(&self.settings);
    }
}
