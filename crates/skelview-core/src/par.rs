//! Parallelism that can be switched off. Data parallelism: with the `parallel` feature these
//! are rayon's iterators and `join`; without it, the same method names on std's sequential
//! iterators, so callers are written once and give the same results either way. Task
//! parallelism: the [`Parallel`] runners that loaders are handed.

#[cfg(feature = "parallel")]
pub use rayon::join;
#[cfg(feature = "parallel")]
pub use rayon::prelude::{
    IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator, ParallelExtend, ParallelIterator, ParallelSlice,
    ParallelSliceMut,
};

#[cfg(not(feature = "parallel"))]
pub use sequential::*;

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs independent jobs, possibly at the same time. The core never spawns threads itself;
/// callers that may (the loader, the CLI) pass a runner that does.
pub trait Parallel: Sync {
    /// How many parts are worth splitting work into.
    fn width(&self) -> usize;
    /// Runs every job to completion before returning.
    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>);
}

/// Runs jobs one after the other on the calling thread.
pub struct Sequential;

impl Parallel for Sequential {
    fn width(&self) -> usize {
        1
    }
    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        jobs.into_iter().for_each(|job| job());
    }
}

/// Runs jobs on rayon's current pool (one thread per core unless the caller installed a
/// smaller one), the calling thread helping.
#[cfg(feature = "parallel")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Rayon;

#[cfg(feature = "parallel")]
impl Parallel for Rayon {
    fn width(&self) -> usize {
        rayon::current_num_threads()
    }

    fn run<'a>(&self, jobs: Vec<Box<dyn FnOnce() + Send + 'a>>) {
        rayon::scope(|s| {
            for job in jobs {
                s.spawn(move |_| job());
            }
        });
    }
}

/// Runs `f` in a rayon pool of its own with `threads` threads: tests that need real threads
/// on any machine, without naming rayon outside this module.
#[cfg(all(test, feature = "parallel"))]
pub(crate) fn in_test_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a test thread pool").install(f)
}

/// A job of [`extend_in_pieces`]: given its piece of the buffer, zeroed.
pub type PieceJob<'a, T = f32> = Box<dyn FnOnce(&mut [T]) + Send + 'a>;

/// Grows `out` by the pieces' lengths and runs each piece's job on `parallel` (after `first`,
/// which starts at once), each given its own piece, in order. Each job clears its piece itself:
/// zeroing megabytes up front on the calling thread kept the other cores waiting (an eighth of
/// the time of a whole-clip pose on two cores).
pub fn extend_in_pieces<'a, T: Copy + Default + Send>(
    parallel: &dyn Parallel,
    out: &mut Vec<T>,
    first: Option<Box<dyn FnOnce() + Send + 'a>>,
    pieces: Vec<(usize, PieceJob<'a, T>)>,
) {
    let total: usize = pieces.iter().map(|(len, _)| len).sum();
    out.reserve(total);
    let start = out.len();
    let cleared = AtomicUsize::new(0);
    let cleared_ref = &cleared;
    let mut room = &mut out.spare_capacity_mut()[..total];
    let mut jobs: Vec<Box<dyn FnOnce() + Send + '_>> = Vec::with_capacity(pieces.len() + 1);
    jobs.extend(first);
    for (len, job) in pieces {
        let (piece, rest) = std::mem::take(&mut room).split_at_mut(len);
        room = rest;
        jobs.push(Box::new(move || {
            piece.fill(MaybeUninit::new(T::default()));
            cleared_ref.fetch_add(len, Ordering::Relaxed);
            // SAFETY: every element was initialised just above, and `MaybeUninit<T>` has the
            // layout of `T`.
            job(unsafe { &mut *(std::ptr::from_mut(piece) as *mut [T]) });
        }));
    }
    if jobs.len() == 1 {
        jobs.into_iter().for_each(|job| job());
    } else {
        parallel.run(jobs);
    }
    assert_eq!(cleared.load(Ordering::Relaxed), total, "the runner ran every job");
    // SAFETY: the pieces cover the `total` elements after `start`, each job zeroed its whole
    // piece first, and the count shows that every job ran.
    unsafe { out.set_len(start + total) };
}

/// Runs each piece's job on its own piece of `room` (already initialised), in order, on
/// `parallel` after `first`: [`extend_in_pieces`] for room that needs no clearing.
pub fn run_in_pieces<'a, T: Send>(
    parallel: &dyn Parallel,
    mut room: &mut [T],
    first: Option<Box<dyn FnOnce() + Send + 'a>>,
    pieces: Vec<(usize, PieceJob<'a, T>)>,
) {
    let mut jobs: Vec<Box<dyn FnOnce() + Send + '_>> = Vec::with_capacity(pieces.len() + 1);
    jobs.extend(first);
    for (len, job) in pieces {
        let (piece, rest) = std::mem::take(&mut room).split_at_mut(len);
        room = rest;
        jobs.push(Box::new(move || job(piece)));
    }
    if jobs.len() == 1 {
        jobs.into_iter().for_each(|job| job());
    } else {
        parallel.run(jobs);
    }
}

#[cfg(not(feature = "parallel"))]
mod sequential {
    /// Runs `a` then `b` on the calling thread.
    pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB,
    {
        (a(), b())
    }

    /// `into_par_iter` as a plain `into_iter`.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        /// The sequential iterator.
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }
    impl<T: IntoIterator> IntoParallelIterator for T {}

    /// `par_iter` as a plain `iter`.
    pub trait IntoParallelRefIterator<'a> {
        /// The sequential iterator over references.
        type Iter: Iterator;
        /// Iterates by reference.
        fn par_iter(&'a self) -> Self::Iter;
    }
    impl<'a, T: 'a + ?Sized> IntoParallelRefIterator<'a> for T
    where
        &'a T: IntoIterator,
    {
        type Iter = <&'a T as IntoIterator>::IntoIter;
        fn par_iter(&'a self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// rayon's iterator adaptors that std names differently.
    pub trait ParallelIterator: Iterator + Sized {
        /// `flat_map` whose inner iterators are sequential anyway.
        fn flat_map_iter<U: IntoIterator, F: FnMut(Self::Item) -> U>(self, f: F) -> std::iter::FlatMap<Self, U, F> {
            self.flat_map(f)
        }
    }
    impl<I: Iterator> ParallelIterator for I {}

    /// `par_chunks` as `chunks`.
    pub trait ParallelSlice<T> {
        /// Pieces of `size` items (the last may be shorter).
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
    }
    impl<T> ParallelSlice<T> for [T] {
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }
    }

    /// `par_chunks_mut` as `chunks_mut`.
    pub trait ParallelSliceMut<T> {
        /// Pieces of `size` items (the last may be shorter), to change.
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
    }
    impl<T> ParallelSliceMut<T> for [T] {
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
    }

    /// Marker so that `use par::IndexedParallelIterator` compiles without the feature.
    pub trait IndexedParallelIterator {}

    /// `par_extend` as `extend`.
    pub trait ParallelExtend<T> {
        /// Appends every item.
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I);
    }
    impl<T> ParallelExtend<T> for Vec<T> {
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
            self.extend(items);
        }
    }
}
