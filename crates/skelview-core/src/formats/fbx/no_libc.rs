//! The C library functions ufbx calls, for the browser build: `wasm32-unknown-unknown` has no
//! libc, so ufbx is compiled with `UFBX_NO_LIBC` (web/env.sh) and links these instead. ufbx
//! passes the old size to `realloc` and `free`, so Rust's allocator needs no size header.
//! Files are always given as bytes (`UFBX_NO_STDIO`).
#![allow(unsafe_code, clippy::missing_safety_doc)]

use std::alloc::{Layout, alloc, dealloc, realloc};
use std::ffi::{c_char, c_int, c_void};

/// malloc's alignment on wasm32 (`max_align_t`).
const ALIGN: usize = 16;

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size.max(1), ALIGN).ok()
}

#[unsafe(no_mangle)]
extern "C" fn ufbx_malloc(size: usize) -> *mut c_void {
    // SAFETY: the layout has a non-zero size.
    layout(size).map_or(std::ptr::null_mut(), |l| unsafe { alloc(l) }.cast())
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_realloc(ptr: *mut c_void, old_size: usize, new_size: usize) -> *mut c_void {
    if ptr.is_null() {
        return ufbx_malloc(new_size);
    }
    match (layout(old_size), layout(new_size)) {
        // SAFETY: ufbx allocated `ptr` with ufbx_malloc(old_size) (or a realloc to it), and the
        // new size is a valid layout's (no overflow when rounded up to the alignment).
        (Some(l), Some(_)) => unsafe { realloc(ptr.cast(), l, new_size.max(1)) }.cast(),
        _ => std::ptr::null_mut(),
    }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_free(ptr: *mut c_void, old_size: usize) {
    if let (false, Some(l)) = (ptr.is_null(), layout(old_size)) {
        // SAFETY: as in ufbx_realloc.
        unsafe { dealloc(ptr.cast(), l) }
    }
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strlen(s: *const c_char) -> usize {
    // SAFETY: ufbx passes NUL-terminated strings.
    unsafe { std::ffi::CStr::from_ptr(s) }.to_bytes().len()
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: as memcpy: both valid for n bytes, not overlapping.
    unsafe { std::ptr::copy_nonoverlapping(src.cast::<u8>(), dst.cast::<u8>(), n) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memmove(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: as memmove: both valid for n bytes.
    unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), n) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memset(dst: *mut c_void, ch: c_int, n: usize) -> *mut c_void {
    // SAFETY: as memset: dst valid for n bytes.
    unsafe { std::ptr::write_bytes(dst.cast::<u8>(), ch as u8, n) };
    dst
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memchr(ptr: *const c_void, value: c_int, n: usize) -> *const c_void {
    // SAFETY: as memchr: ptr valid for n bytes.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), n) };
    bytes.iter().position(|&b| b == value as u8).map_or(std::ptr::null(), |k| bytes[k..].as_ptr().cast())
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
    // SAFETY: as memcmp: both valid for n bytes.
    let (a, b) = unsafe { (std::slice::from_raw_parts(a.cast::<u8>(), n), std::slice::from_raw_parts(b.cast::<u8>(), n)) };
    a.cmp(b) as c_int
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strcmp(a: *const c_char, b: *const c_char) -> c_int {
    // SAFETY: NUL-terminated strings.
    let (a, b) = unsafe { (std::ffi::CStr::from_ptr(a), std::ffi::CStr::from_ptr(b)) };
    a.to_bytes().cmp(b.to_bytes()) as c_int
}

#[unsafe(no_mangle)]
unsafe extern "C" fn ufbx_strncmp(a: *const c_char, b: *const c_char, n: usize) -> c_int {
    for k in 0..n {
        // SAFETY: strings valid up to their NUL or n bytes.
        let (x, y) = unsafe { (*a.add(k) as u8, *b.add(k) as u8) };
        if x != y || x == 0 {
            return x as c_int - y as c_int;
        }
    }
    0
}

macro_rules! math1 {
    ($($name:ident => $f:ident),* $(,)?) => {$(
        #[unsafe(no_mangle)]
        extern "C" fn $name(x: f64) -> f64 { x.$f() }
    )*};
}
math1!(ufbx_sqrt => sqrt, ufbx_sin => sin, ufbx_cos => cos, ufbx_tan => tan, ufbx_asin => asin, ufbx_acos => acos,
    ufbx_atan => atan, ufbx_fabs => abs, ufbx_floor => floor, ufbx_ceil => ceil, ufbx_rint => round_ties_even);

macro_rules! math2 {
    ($($name:ident($a:ident, $b:ident) => $e:expr),* $(,)?) => {$(
        #[unsafe(no_mangle)]
        extern "C" fn $name($a: f64, $b: f64) -> f64 { $e }
    )*};
}
math2!(ufbx_atan2(y, x) => y.atan2(x), ufbx_pow(x, y) => x.powf(y), ufbx_fmin(a, b) => a.min(b), ufbx_fmax(a, b) => a.max(b),
    ufbx_copysign(x, y) => x.copysign(y));

#[unsafe(no_mangle)]
extern "C" fn ufbx_isnan(x: f64) -> c_int {
    x.is_nan() as c_int
}
#[unsafe(no_mangle)]
extern "C" fn ufbx_nextafter(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f64::from_bits(1).copysign(y);
    }
    let bits = x.to_bits();
    let up = (y > x) == (x > 0.0);
    f64::from_bits(if up { bits + 1 } else { bits - 1 })
}
