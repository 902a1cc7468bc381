//! The page around the browser build: what the desktop gets from threads, files and dialogs,
//! the web gets here. Work runs between frames (`later`), settings live in local storage,
//! files come in from the page (its file input, a drop, `?file=URL`) through an inbox that
//! the window takes from once a frame, and exports leave as downloads. Imports nothing of
//! the crate: every layer may use it.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// What the page handed in since the last frame.
#[derive(Debug)]
pub enum Inbound {
    /// Files picked or dropped together (an ASF with its AMC pairs), replacing what is shown
    /// unless `add`.
    Files {
        /// Names and contents.
        files: Vec<(PathBuf, Arc<[u8]>)>,
        /// Beside the clips shown.
        add: bool,
    },
    /// The page could not get a file (a `?file=` fetch that failed): the browser's reason.
    Failed(String),
    /// The page asked for an action of the viewer's table by name (`skelview.action`).
    Action(String),
}

/// What the page or the browser refused (a JavaScript exception, a missing element), as the
/// browser describes it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PageError(pub String);

impl PageError {
    /// A refusal described by `message`.
    pub fn new(message: &str) -> Self {
        Self(message.to_owned())
    }
}

thread_local! {
    static INBOX: RefCell<Vec<Inbound>> = const { RefCell::new(Vec::new()) };
    static STAGED: RefCell<Vec<(PathBuf, Arc<[u8]>)>> = const { RefCell::new(Vec::new()) };
    static WAKE: RefCell<Option<Box<dyn Fn()>>> = const { RefCell::new(None) };
    static STATE: RefCell<String> = const { RefCell::new(String::new()) };
    static TASKS: RefCell<VecDeque<Box<dyn FnOnce()>>> = const { RefCell::new(VecDeque::new()) };
    /// A call to run the queued tasks is on its way.
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
    /// Tasks are running (one of them may be suspended).
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// Inside a task's work, on the stack that may suspend.
    static IN_TASK: Cell<bool> = const { Cell::new(false) };
    /// The page runs tasks through `WebAssembly.promising` (JSPI): work may suspend.
    static SUSPENDABLE: Cell<bool> = const { Cell::new(false) };
    static LAST_YIELD: Cell<Option<web_time::Instant>> = const { Cell::new(None) };
}

// The page's side of the task runner (web/jspi.js, beside the generated JS): `schedule`
// calls [`run_tasks`] soon; `suspend` (a `WebAssembly.Suspending` where the browser has
// JSPI) suspends the running task's stack until the browser has had a turn.
#[link(wasm_import_module = "./jspi.js")]
unsafe extern "C" {
    fn skelview_schedule();
    fn skelview_suspend();
}

/// Queues a task's work; the page runs the queue soon, one task after another.
pub fn spawn_task(work: impl FnOnce() + 'static) {
    TASKS.with(|t| t.borrow_mut().push_back(Box::new(work)));
    if !RUNNING.get() && !SCHEDULED.replace(true) {
        // SAFETY: a JS function without arguments (web/jspi.js).
        unsafe { skelview_schedule() };
    }
}

/// Tells whether the page runs tasks suspendably (JSPI); set once, by the page.
pub fn set_suspendable(on: bool) {
    SUSPENDABLE.set(on);
}

/// Runs the queued tasks, one after another. With JSPI the page calls this through
/// `WebAssembly.promising`, so that a task's work can suspend in [`yield_now`] and frames are
/// drawn meanwhile; tasks queued meanwhile run after it (one suspended stack at a time).
pub fn run_tasks() {
    SCHEDULED.set(false);
    if RUNNING.replace(true) {
        return;
    }
    while let Some(work) = TASKS.with(|t| t.borrow_mut().pop_front()) {
        IN_TASK.set(true);
        LAST_YIELD.set(Some(web_time::Instant::now()));
        work();
        IN_TASK.set(false);
    }
    RUNNING.set(false);
}

/// Lets the browser draw a frame and handle input when a task's work has run for 40 ms
/// (JSPI); elsewhere, and outside a task, returns at once.
pub fn yield_now() {
    if !(SUSPENDABLE.get() && IN_TASK.get()) {
        return;
    }
    let now = web_time::Instant::now();
    // Slices of ~40 ms: a frame every slice keeps the page live, and the work keeps most of
    // the time on a software renderer, whose frames take far longer than 16 ms.
    if LAST_YIELD.get().is_some_and(|t| now.duration_since(t).as_millis() < 40) {
        return;
    }
    // Calls into the viewer while this stack is suspended (frames, input) are not inside a task.
    IN_TASK.set(false);
    // SAFETY: a JS function without arguments; with JSPI it suspends this stack, which the
    // page entered through WebAssembly.promising (SUSPENDABLE).
    unsafe { skelview_suspend() };
    IN_TASK.set(true);
    LAST_YIELD.set(Some(web_time::Instant::now()));
}

/// Keeps the viewer's state as of the last frame (JSON) for the page to read.
pub fn publish_state(json: String) {
    STATE.with(|s| *s.borrow_mut() = json);
}

/// The viewer's state as of the last frame (JSON; empty before the first frame).
pub fn state() -> String {
    STATE.with(|s| s.borrow().clone())
}

/// Sets what wakes the window when something arrives.
pub fn set_waker(wake: impl Fn() + 'static) {
    WAKE.with(|w| *w.borrow_mut() = Some(Box::new(wake)));
}

fn wake() {
    WAKE.with(|w| {
        if let Some(wake) = &*w.borrow() {
            wake();
        }
    });
}

/// Stages one file of a batch (the page calls this per file, then [`deliver_staged`]).
pub fn stage_file(name: String, bytes: Vec<u8>) {
    STAGED.with(|s| s.borrow_mut().push((PathBuf::from(name), Arc::from(bytes))));
}

/// Hands the staged files to the viewer as one batch.
pub fn deliver_staged(add: bool) {
    let files = STAGED.with(|s| std::mem::take(&mut *s.borrow_mut()));
    if !files.is_empty() {
        push(Inbound::Files { files, add });
    }
}

/// Queues something for the viewer and wakes it.
pub fn push(item: Inbound) {
    INBOX.with(|i| i.borrow_mut().push(item));
    wake();
}

/// What arrived since the last call.
pub fn take_inbox() -> Vec<Inbound> {
    INBOX.with(|i| std::mem::take(&mut *i.borrow_mut()))
}

/// Runs `f` after the browser has had its turn (a `setTimeout(0)`): the page presents a frame
/// and handles input before the work starts.
pub fn later(f: impl FnOnce() + 'static) {
    let callback = Closure::once_into_js(f);
    if let Some(window) = web_sys::window() {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0);
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// A value kept in the browser's local storage.
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

/// Keeps a value in the browser's local storage; why not, when it cannot.
pub fn store(key: &str, value: &str) -> Result<(), PageError> {
    let storage = storage().ok_or_else(|| PageError::new("the browser offers no local storage"))?;
    storage.set_item(key, value).map_err(|e| PageError(format!("local storage refused the write: {e:?}")))
}

/// Offers `bytes` to the user as a download named `name`.
pub fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), PageError> {
    let fail = |e: wasm_bindgen::JsValue| PageError(format!("cannot offer {name} for download: {e:?}"));
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    download_url(&url, name)?;
    // The download has its own reference to the blob once started.
    later(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    Ok(())
}

/// Offers what `url` names (a blob or data URL) as a download named `name`.
pub fn download_url(url: &str, name: &str) -> Result<(), PageError> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| PageError::new("no document"))?;
    let a: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|e| PageError(format!("cannot offer {name} for download: {e:?}")))?.unchecked_into();
    a.set_href(url);
    a.set_download(name);
    a.click();
    Ok(())
}

/// Opens the page's file picker (its `<input type=file id=skelview-files>`); the page hands
/// the picked files in with `add` as it was asked.
pub fn pick_files(add: bool) -> Result<(), PageError> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| PageError::new("no document"))?;
    let input = document.get_element_by_id("skelview-files").ok_or_else(|| PageError::new("the page has no #skelview-files input"))?;
    let _ = input.set_attribute("data-add", if add { "1" } else { "0" });
    input.unchecked_into::<web_sys::HtmlElement>().click();
    Ok(())
}
