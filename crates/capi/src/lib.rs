//! C ABI for zkmsm (header: `include/zkmsm.h`, made by cbindgen).
//!
//! A context is made once from encoded points of BLS12-377, BLS12-381 or
//! BN254, G1 or G2 ([`ZKMSM_G2`] OR-ed into the curve; the CLI's points formats: arkworks-canonical affine encodings,
//! compressed or uncompressed, or the EVM's, optionally after the 8-byte
//! length prefix), then runs any number of MSMs on 32-byte scalars
//! (little-endian, or big-endian by a flag); results are the compressed encoding (the
//! bytes `zkmsm msm` prints in hex). Functions return [`ZKMSM_OK`] or an error
//! code; [`zkmsm_last_error`] then gives a one-line message naming the input,
//! the index and the byte offset (also as numbers: [`zkmsm_last_error_index`],
//! [`zkmsm_last_error_offset`]). No panic crosses the boundary: one is caught
//! and reported as [`ZKMSM_ERR_INTERNAL`]. Lengths are checked before they
//! size anything, and memory an input implies that cannot be allocated is
//! [`ZKMSM_ERR_MEMORY`], not an abort. Contexts may be shared between threads
//! for MSMs (never freed while one runs); each thread has its own last error,
//! cleared by every call that succeeds.
#![deny(missing_docs)]

mod sizes;

use sizes::{can_allocate, count_mismatch, point_work, points_fit, scalar_work, PREFIX_BYTES, SCALAR_BYTES};
use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use zkmsm::encoded::{
    self, strip_scalars_prefix, ContextOptions, Curve, EncodedContext, ErrorKind, InputError, PointFormat,
};
use zkmsm::{ScalarEndian, Validation};

/// Curve: BLS12-377 G1.
pub const ZKMSM_BLS12_377: u32 = 0;
/// Curve: BLS12-381 G1.
pub const ZKMSM_BLS12_381: u32 = 1;
/// Curve: BN254 (alt_bn128) G1.
pub const ZKMSM_BN254: u32 = 2;
/// Flag OR-ed into a curve: its G2 (points on the twist, coordinates in
/// Fq2, twice the bytes of a G1 point in every format), e.g.
/// `ZKMSM_BLS12_381 | ZKMSM_G2`. The curves' codes are the library's
/// registry (`zkmsm::Curve::code`).
pub const ZKMSM_G2: u32 = 0x10;

/// Point format: compressed (48 bytes a point on the BLS12 curves, 32 on BN254).
pub const ZKMSM_COMPRESSED: u32 = 0;
/// Point format: uncompressed (96 bytes a point on the BLS12 curves, 64 on BN254).
pub const ZKMSM_UNCOMPRESSED: u32 = 1;
/// Point format: big-endian x and y, all zeros the identity: Ethereum's
/// layouts, EIP-196/197 on BN254 (64 bytes a point), EIP-2537 on BLS12-381
/// (128 bytes); [`ZKMSM_ERR_UNSUPPORTED`] on BLS12-377. Never detected.
pub const ZKMSM_EVM: u32 = 3;
/// Point format for the one-shot MSM: detect from the sizes, as the CLI does.
pub const ZKMSM_DETECT: u32 = 2;
/// Flag OR-ed into a point format: the scalars are 32-byte big-endian
/// integers (the EVM's and Solidity's order) instead of little-endian.
pub const ZKMSM_SCALARS_BIG_ENDIAN: u32 = 0x100;

/// Bytes of the largest result (a compressed G2 point of a BLS12 curve): a
/// buffer this large fits every curve and group. A result takes
/// `zkmsm_point_size(curve, ZKMSM_COMPRESSED)` bytes, which is what the
/// output buffer must hold: 48 on the BLS12 curves' G1, 32 on BN254's, twice
/// that on G2.
pub const ZKMSM_RESULT_BYTES: usize = 96;

/// Success.
pub const ZKMSM_OK: i32 = 0;
/// The points are malformed or invalid (see the last error's index and offset).
pub const ZKMSM_ERR_POINTS: i32 = 1;
/// The scalars are malformed or not below r (see the last error's index and offset).
pub const ZKMSM_ERR_SCALARS: i32 = 2;
/// Points and scalars differ in number.
pub const ZKMSM_ERR_LENGTH: i32 = 3;
/// An unknown curve or format, or an option that does not apply.
pub const ZKMSM_ERR_UNSUPPORTED: i32 = 4;
/// A NULL pointer where one is required, or an output buffer too small.
pub const ZKMSM_ERR_ARGUMENT: i32 = 5;
/// A bug in zkmsm (a panic, caught at the boundary).
pub const ZKMSM_ERR_INTERNAL: i32 = 6;
/// The memory the inputs need cannot be allocated (nothing was computed).
pub const ZKMSM_ERR_MEMORY: i32 = 7;

/// An opaque MSM context: points decoded, validated and prepared once.
pub struct ZkmsmContext(EncodedContext);

struct LastError {
    message: CString,
    index: i64,
    offset: i64,
}

thread_local! {
    static LAST_ERROR: RefCell<Option<LastError>> = const { RefCell::new(None) };
}

// The last error is reached with `try_with`: a call made while the thread
// exits (a C++ thread_local freeing a context after Rust's thread-locals are
// gone) then goes without one instead of panicking outside `guard`, which
// would abort.
fn set_error(message: &str, index: Option<usize>, offset: Option<u64>) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    let index = index.map_or(-1, |i| i as i64);
    let offset = offset.map_or(-1, |o| o as i64);
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = Some(LastError { message, index, offset }));
}

fn clear_error() {
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = None);
}

fn report(e: InputError) -> i32 {
    set_error(&e.message, e.index, e.offset);
    match e.kind {
        ErrorKind::Points => ZKMSM_ERR_POINTS,
        ErrorKind::Scalars => ZKMSM_ERR_SCALARS,
        ErrorKind::LengthMismatch => ZKMSM_ERR_LENGTH,
        ErrorKind::Unsupported => ZKMSM_ERR_UNSUPPORTED,
    }
}

fn argument(what: &str) -> i32 {
    set_error(what, None, None);
    ZKMSM_ERR_ARGUMENT
}

/// [`ZKMSM_ERR_MEMORY`] unless `bytes` of work memory for `what` can be had.
fn reserve(bytes: Option<usize>, what: &str) -> Result<(), i32> {
    if can_allocate(bytes) {
        return Ok(());
    }
    let need = bytes.map_or_else(|| "more than the address space".to_string(), |b| format!("about {b} bytes"));
    set_error(&format!("{what} need {need} of memory, which cannot be allocated"), None, None);
    Err(ZKMSM_ERR_MEMORY)
}

/// The output buffer must hold a result of `curve` (its compressed point):
/// checked before any work.
fn check_out(curve: Curve, out: *mut u8, out_len: usize) -> Result<(), i32> {
    let need = curve.point_size(PointFormat::Compressed);
    if out.is_null() || out_len < need {
        return Err(argument(&format!(
            "the output buffer must hold {need} bytes (a compressed {} point)",
            curve.label()
        )));
    }
    Ok(())
}

/// Run `f`, turning a panic into [`ZKMSM_ERR_INTERNAL`] with its message.
fn guard(f: impl FnOnce() -> i32) -> i32 {
    clear_error();
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(code) => code,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            set_error(&format!("internal error (a bug in zkmsm, please report it): {what}"), None, None);
            ZKMSM_ERR_INTERNAL
        }
    }
}

fn curve_of(curve: u32) -> Result<Curve, i32> {
    Curve::from_code(curve).ok_or_else(|| {
        let codes: Vec<String> = Curve::ALL.iter().map(|c| format!("{:#x} ({})", c.code(), c.label())).collect();
        report(InputError::plain(
            ErrorKind::Unsupported,
            format!("unknown curve #{curve}: expected {}", codes.join(", ")),
        ))
    })
}

fn format_of(format: u32) -> Result<Option<PointFormat>, i32> {
    match format & !ZKMSM_SCALARS_BIG_ENDIAN {
        ZKMSM_COMPRESSED => Ok(Some(PointFormat::Compressed)),
        ZKMSM_UNCOMPRESSED => Ok(Some(PointFormat::Uncompressed)),
        ZKMSM_EVM => Ok(Some(PointFormat::Evm)),
        ZKMSM_DETECT => Ok(None),
        _ => {
            set_error(&format!("unknown point format {format}"), None, None);
            Err(ZKMSM_ERR_UNSUPPORTED)
        }
    }
}

/// `format` for `curve`'s points: [`ZKMSM_EVM`] is refused on BLS12-377.
fn check_format(curve: Curve, format: PointFormat) -> Result<(), i32> {
    curve.check_format(format).map_err(|e| report(InputError { message: format!("ZKMSM_EVM: {}", e.message), ..e }))
}

/// The scalars' byte order a format argument carries ([`ZKMSM_SCALARS_BIG_ENDIAN`]).
fn endian_of(format: u32) -> ScalarEndian {
    if format & ZKMSM_SCALARS_BIG_ENDIAN != 0 {
        ScalarEndian::Big
    } else {
        ScalarEndian::Little
    }
}

/// The `len` bytes at `ptr`; a NULL `ptr` is allowed when `len` is 0. A
/// length above `isize::MAX` is no buffer (and no slice may be that long).
///
/// # Safety
/// `ptr` must point to `len` readable bytes when `len > 0`.
unsafe fn bytes<'a>(ptr: *const u8, len: usize, name: &str) -> Result<&'a [u8], i32> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(argument(&format!("{name} is NULL but its length is {len}")));
    }
    if len > isize::MAX as usize {
        return Err(argument(&format!("{name}: length {len} is larger than any buffer (isize::MAX)")));
    }
    // SAFETY: the caller guarantees `len` readable bytes at `ptr`.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Write `result` to `out` (`out_len` bytes available).
///
/// # Safety
/// `out` must point to `out_len` writable bytes.
unsafe fn write_result(result: &[u8], out: *mut u8, out_len: usize) -> i32 {
    if out.is_null() || out_len < result.len() {
        return argument(&format!("the output buffer must hold {} bytes", result.len()));
    }
    // SAFETY: `out` has at least `result.len()` writable bytes (checked above, and by the caller's contract).
    unsafe { std::ptr::copy_nonoverlapping(result.as_ptr(), out, result.len()) };
    ZKMSM_OK
}

/// Make a context from `points_len` bytes of encoded points. `format` is
/// [`ZKMSM_COMPRESSED`], [`ZKMSM_UNCOMPRESSED`] or [`ZKMSM_EVM`], with
/// [`ZKMSM_SCALARS_BIG_ENDIAN`] set for big-endian scalars; `precompute` is the
/// fixed-base factor (0 or 1: plain mode; M > 1 keeps M shifted copies, at
/// most one per window of the plan chosen for the points: a larger M is
/// taken as that many);
/// `validate` nonzero checks every point is on the curve and in the subgroup
/// (as the CLI does), zero trusts them: for points that are not, the results
/// are unspecified (they may differ between backends and `precompute`). On success `*out` holds the context
/// (free it with [`zkmsm_context_free`]); on error `*out` is NULL.
///
/// # Safety
/// `points` must point to `points_len` readable bytes (or be NULL with
/// `points_len` 0); `out` must be a valid pointer to write to.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_context_new(
    curve: u32,
    points: *const u8,
    points_len: usize,
    format: u32,
    precompute: u32,
    validate: i32,
    out: *mut *mut ZkmsmContext,
) -> i32 {
    guard(|| {
        if out.is_null() {
            return argument("out is NULL");
        }
        // SAFETY: `out` is non-NULL and valid for writes (caller's contract).
        unsafe { *out = std::ptr::null_mut() };
        let run = || -> Result<*mut ZkmsmContext, i32> {
            let curve = curve_of(curve)?;
            let scalar_endian = endian_of(format);
            let Some(format) = format_of(format)? else {
                set_error(
                    "a context needs ZKMSM_COMPRESSED, ZKMSM_UNCOMPRESSED or ZKMSM_EVM, not ZKMSM_DETECT",
                    None,
                    None,
                );
                return Err(ZKMSM_ERR_UNSUPPORTED);
            };
            check_format(curve, format)?;
            // SAFETY: caller's contract on `points`.
            let points = unsafe { bytes(points, points_len, "points") }?;
            let n = points_len / curve.point_size(format);
            let copies = curve.precompute_copies(n, precompute);
            reserve(point_work(curve, n, copies), &format!("points: {n} points with {copies} copies"))?;
            let options = ContextOptions {
                format,
                validation: if validate != 0 { Validation::Full } else { Validation::AlreadyValidated },
                precompute: Some(precompute.max(1)),
                scalar_endian,
                ..Default::default()
            };
            let ctx = EncodedContext::new(curve, points, &options).map_err(report)?;
            Ok(Box::into_raw(Box::new(ZkmsmContext(ctx))))
        };
        match run() {
            Ok(ctx) => {
                // SAFETY: as above.
                unsafe { *out = ctx };
                ZKMSM_OK
            }
            Err(code) => code,
        }
    })
}

/// Free a context (NULL is allowed and does nothing).
///
/// # Safety
/// `ctx` must come from [`zkmsm_context_new`] and not be used after.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_context_free(ctx: *mut ZkmsmContext) {
    clear_error();
    if !ctx.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: `ctx` came from Box::into_raw in zkmsm_context_new (caller's contract).
            drop(unsafe { Box::from_raw(ctx) })
        }));
    }
}

/// Number of points of a context (0 for NULL).
///
/// # Safety
/// `ctx` must be NULL or a live context.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_context_len(ctx: *const ZkmsmContext) -> usize {
    clear_error();
    // SAFETY: caller's contract.
    unsafe { ctx.as_ref() }.map_or(0, |c| c.0.len())
}

/// The MSM of `scalars_len` bytes of scalars (32 bytes each, as many as the
/// context's points, each below r, optionally after the 8-byte length
/// prefix, whose value must be their count, as for [`zkmsm_msm_oneshot`])
/// against the context's points. The result's
/// compressed encoding (`zkmsm_point_size(curve, ZKMSM_COMPRESSED)` bytes) goes to
/// `out` ([`ZKMSM_RESULT_BYTES`] bytes), which is
/// checked (non-NULL, large enough) before any work.
///
/// # Safety
/// `ctx` must be a live context; `scalars` must point to `scalars_len`
/// readable bytes (or be NULL with `scalars_len` 0); `out` to `out_len`
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_msm(
    ctx: *const ZkmsmContext,
    scalars: *const u8,
    scalars_len: usize,
    out: *mut u8,
    out_len: usize,
) -> i32 {
    guard(|| {
        let run = || -> Result<Vec<u8>, i32> {
            // SAFETY: caller's contract.
            let Some(ctx) = (unsafe { ctx.as_ref() }) else { return Err(argument("ctx is NULL")) };
            check_out(ctx.0.curve(), out, out_len)?;
            // SAFETY: caller's contract.
            let scalars = unsafe { bytes(scalars, scalars_len, "scalars") }?;
            let n = ctx.0.len();
            // the work of an MSM on as many scalars as points, with or without the length prefix
            let whole = n.saturating_mul(SCALAR_BYTES);
            if scalars_len == whole || scalars_len == whole.saturating_add(PREFIX_BYTES) {
                reserve(scalar_work(n), &format!("scalars: an MSM on {n} scalars"))?;
            }
            ctx.0.msm(scalars).map_err(report)
        };
        match run() {
            // SAFETY: caller's contract on `out`.
            Ok(r) => unsafe { write_result(&r, out, out_len) },
            Err(code) => code,
        }
    })
}

/// One-shot MSM, as `zkmsm msm` on two files: the number of points is the
/// number of scalars; `format` may be [`ZKMSM_DETECT`] to tell compressed from
/// uncompressed (and the length prefix) by size. The scalars may start with
/// the 8-byte length prefix too (its value must be their count). The counts
/// are compared before anything is decoded. Points are validated.
///
/// # Safety
/// As [`zkmsm_context_new`] for `points` and [`zkmsm_msm`] for the rest.
#[no_mangle]
pub unsafe extern "C" fn zkmsm_msm_oneshot(
    curve: u32,
    points: *const u8,
    points_len: usize,
    format: u32,
    scalars: *const u8,
    scalars_len: usize,
    out: *mut u8,
    out_len: usize,
) -> i32 {
    guard(|| {
        let run = || -> Result<Vec<u8>, i32> {
            let curve = curve_of(curve)?;
            let scalar_endian = endian_of(format);
            let format = format_of(format)?;
            if let Some(f) = format {
                check_format(curve, f)?;
            }
            check_out(curve, out, out_len)?;
            // SAFETY: caller's contract.
            let points = unsafe { bytes(points, points_len, "points") }?;
            // SAFETY: caller's contract.
            let scalars = unsafe { bytes(scalars, scalars_len, "scalars") }?;
            let scalars = strip_scalars_prefix(scalars).map_err(report)?;
            // the counts first: nothing decoded or allocated for inputs that disagree
            let n = scalars.len() / SCALAR_BYTES;
            if scalars.len() % SCALAR_BYTES == 0 && !points_fit(curve, points_len, n, format) {
                return Err(report(count_mismatch(curve, points_len, n, format)));
            }
            let work = point_work(curve, n, 1).zip(scalar_work(n)).and_then(|(p, s)| p.checked_add(s));
            reserve(work, &format!("an MSM on {n} points"))?;
            encoded::msm(curve, points, scalars, format, scalar_endian).map_err(report)
        };
        match run() {
            // SAFETY: caller's contract on `out`.
            Ok(r) => unsafe { write_result(&r, out, out_len) },
            Err(code) => code,
        }
    })
}

/// Bytes of one point of `curve` in `format` (0 for an unknown curve or
/// format, or [`ZKMSM_DETECT`], with the last error set).
#[no_mangle]
pub extern "C" fn zkmsm_point_size(curve: u32, format: u32) -> usize {
    clear_error();
    match (curve_of(curve), format_of(format)) {
        (Ok(c), Ok(Some(f))) => check_format(c, f).map_or(0, |()| c.point_size(f)),
        (Ok(_), Ok(None)) => {
            set_error("ZKMSM_DETECT has no point size: name a format", None, None);
            0
        }
        _ => 0,
    }
}

/// The last error on this thread as a NUL-terminated line, or NULL if the
/// last call succeeded. Valid until the thread's next zkmsm call.
#[no_mangle]
pub extern "C" fn zkmsm_last_error() -> *const c_char {
    LAST_ERROR
        .try_with(|e| e.borrow().as_ref().map_or(std::ptr::null(), |e| e.message.as_ptr()))
        .unwrap_or(std::ptr::null())
}

/// Index of the point or scalar the last error is about, or -1.
#[no_mangle]
pub extern "C" fn zkmsm_last_error_index() -> i64 {
    LAST_ERROR.try_with(|e| e.borrow().as_ref().map_or(-1, |e| e.index)).unwrap_or(-1)
}

/// Byte offset in its input of what the last error is about, or -1.
#[no_mangle]
pub extern "C" fn zkmsm_last_error_offset() -> i64 {
    LAST_ERROR.try_with(|e| e.borrow().as_ref().map_or(-1, |e| e.offset)).unwrap_or(-1)
}

/// The library's version, e.g. "0.1.0" (static, never freed).
#[no_mangle]
pub extern "C" fn zkmsm_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
