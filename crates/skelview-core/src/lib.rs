//! skelview's engine: everything between a file's bytes and a posed skeleton, with no GPU,
//! window, UI or threads of its own, so that the desktop viewer, the command line, a Python
//! package and a browser build all share it.
//!
//! Data flows one way: file bytes → [`formats`] → [`core::Motion`] (skeleton + clip) →
//! [`core::Sampler`] (local → global pose at a time). Beside the sampler sit the capture
//! checks ([`qa`]), the comparison of two clips ([`compare`]), the writers ([`export`]) and
//! the edits that fix what the checks find ([`edit`]).
//!
//! Layers, bottom to top; a module imports only from layers below it (a test enforces it):
//! `par`, `core` ← `retarget` ← `export` ← `formats` ← `compare`, `qa` ← `edit`.
//!
//! Feature `parallel` (default) spreads work over rayon's pool; without it every function
//! runs on the calling thread and gives the same results.
#![warn(missing_docs)]

pub mod big_pages;
pub mod compare;
pub mod core;
pub mod edit;
pub mod export;
pub mod formats;
pub mod par;
pub mod qa;
pub mod retarget;
