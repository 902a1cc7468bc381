//! A global allocator for the programs over the engine: the system's, except that buffers of
//! 4 MB and more are backed by 2 MB pages where Linux allows it (`MADV_HUGEPAGE`).
//!
//! Why: a big capture's buffers are written once, front to back, right after they are
//! allocated, and with 4 KB pages the kernel stops the program at every page. A 350 MB C3D
//! edited spent about 0.9 s of its 3.3 s in 274,000 such faults; with 2 MB pages 24,000
//! (benches/RESULTS.md). Linux distributions ship transparent huge pages as "madvise": only
//! memory that asks gets them. Elsewhere (Windows, macOS, the browser) this is the system
//! allocator unchanged.
//!
//! The program declares it once: `#[global_allocator] static A: BigPages = BigPages;`.

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, asking for 2 MB pages under buffers of [`BIG_BYTES`] and more.
pub struct BigPages;

/// The size from which a buffer asks for 2 MB pages: smaller ones would mostly waste them.
pub const BIG_BYTES: usize = 4 << 20;

// SAFETY: every call is the system allocator's; `advise` only changes how the kernel backs
// pages inside the block just returned, never their contents or the block's bounds.
unsafe impl GlobalAlloc for BigPages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        advise(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        advise(p, new_size);
        p
    }
}

/// Asks for 2 MB pages under the whole 2 MB-aligned stretches of a big block.
#[cfg(target_os = "linux")]
fn advise(p: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    if p.is_null() || len < BIG_BYTES {
        return;
    }
    let start = (p as usize).next_multiple_of(HUGE);
    let end = (p as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: [start, end) lies inside the block just allocated; the advice changes no
        // contents. A refusal (a kernel without transparent huge pages) changes nothing.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *mut u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Big and small blocks, zeroed, grown and shrunk, keep their contents.
    #[test]
    fn blocks_keep_their_contents() {
        let a = BigPages;
        for size in [64, BIG_BYTES - 1, BIG_BYTES, BIG_BYTES * 2 + 12_345] {
            let layout = Layout::from_size_align(size, 64).unwrap();
            // SAFETY: a layout of non-zero size; the block is freed with the same layout.
            unsafe {
                let z = a.alloc_zeroed(layout);
                assert!(!z.is_null());
                assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                a.dealloc(z, layout);
                let p = a.alloc(layout);
                assert!(!p.is_null());
                p.write_bytes(7, size);
                let grown = a.realloc(p, layout, size * 2);
                assert!(!grown.is_null());
                assert!(std::slice::from_raw_parts(grown, size).iter().all(|&b| b == 7));
                let shrunk = a.realloc(grown, Layout::from_size_align(size * 2, 64).unwrap(), size / 2 + 1);
                assert!(std::slice::from_raw_parts(shrunk, size / 2 + 1).iter().all(|&b| b == 7));
                a.dealloc(shrunk, Layout::from_size_align(size / 2 + 1, 64).unwrap());
            }
        }
    }
}
