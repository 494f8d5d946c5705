//! MSMs on encoded bytes, the curve chosen at run time: the common core of the
//! Python package, the C ABI and the sharded MSMs. The decoding of the bytes
//! is the input layer's ([`crate::input::bytes`], re-exported here), shared
//! with the out-of-core MSM.
//!
//! The curve and group come from the [`registry`](crate::registry) ([`Curve`]).
//! Inputs are the CLI's formats (see [`crate::input::io`]): points are concatenated
//! arkworks-canonical affine encodings of the group (compressed or uncompressed,
//! optionally preceded by arkworks' 8-byte `Vec` length), scalars are 32-byte
//! little-endian integers below r. Results are arkworks encodings of the
//! affine point: compressed, the bytes `zkmsm msm` prints in hex. Every error
//! says which input is wrong, and where: the record's index and byte offset.

use crate::backend::choice::BackendChoice;
use crate::builder::{EngineCurve, MsmBuilder};
use crate::engine::MsmEngine;
use crate::error::MsmError;
pub use crate::input::bytes::{
    decode_point_run, decode_scalar_run, decode_scalars, strip_scalars_prefix, ErrorKind, InputError,
};
use crate::input::io::{detect_layout, PointsLayout, SCALAR_BYTES};
use crate::input::load::Validation;
use crate::input::record::{BadRecord, Input, LayoutFault, RecordFault};
use crate::input::scalars::ScalarEndian;
use crate::input::InputCurve;
use crate::pipeline::digits::ScalarLimbs;
pub use crate::registry::{Curve, Group};
pub use zkmsm_curve::PointFormat;
use zkmsm_curve::{Affine, Xyzz};

fn from_msm_error(e: MsmError) -> InputError {
    match e {
        MsmError::LengthMismatch { .. } => InputError::plain(ErrorKind::LengthMismatch, e.to_string()),
        MsmError::Unsupported(_) => InputError::plain(ErrorKind::Unsupported, e.to_string()),
        other => InputError::plain(ErrorKind::Points, other.to_string()),
    }
}

/// Decode and validate the points laid out as `layout` in `bytes`; errors
/// name the point and its byte offset.
fn decode_points<C: InputCurve>(
    bytes: &[u8],
    layout: PointsLayout,
    validation: Validation,
) -> Result<Vec<Affine<C>>, InputError> {
    let header = if layout.prefixed { 8 } else { 0 };
    let size = layout.format.size::<C>();
    let body = &bytes[header..];
    let n = body.len() / size;
    if layout.prefixed {
        let declared = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        if declared != n as u64 {
            // the words C and Python callers have always had
            let message = format!("points: byte offset 0: length prefix says {declared} points, the bytes hold {n}");
            let fault = RecordFault::LengthPrefix { declared, expected: n as u64 };
            return Err(InputError::with_message(BadRecord::whole(Input::Points, 0, fault), message));
        }
    }
    decode_point_run(body, layout.format, validation, 0, header as u64).map_err(InputError::from)
}

/// The layout of `len` bytes of points in `format`: a whole number of
/// records, optionally after the 8-byte length prefix.
fn layout_for(curve: Curve, len: usize, format: PointFormat) -> Result<PointsLayout, InputError> {
    let size = curve.point_size(format);
    if len.is_multiple_of(size) {
        Ok(PointsLayout { format, prefixed: false })
    } else if len >= 8 && (len - 8).is_multiple_of(size) {
        Ok(PointsLayout { format, prefixed: true })
    } else {
        let fault = LayoutFault::NotWhole {
            len,
            curve: curve.label(),
            format: Some(format),
            compressed: curve.point_size(PointFormat::Compressed),
            uncompressed: curve.point_size(PointFormat::Uncompressed),
        };
        Err(BadRecord::whole(Input::Points, (len / size * size) as u64, fault).into())
    }
}

/// How [`EncodedContext::new`] reads and sets up its points.
#[derive(Debug, Clone, Copy)]
pub struct ContextOptions {
    /// Encoding of the points (default compressed).
    pub format: PointFormat,
    /// What to check of the points (default: curve and subgroup, as the CLI).
    pub validation: Validation,
    /// Bucket-accumulation backend (default auto).
    pub backend: BackendChoice,
    /// Fixed-base mode with this many shifted copies (`None` or `Some(1)`: plain).
    pub precompute: Option<u32>,
    /// Byte order of the scalars given to the context (default little-endian).
    pub scalar_endian: ScalarEndian,
}

impl Default for ContextOptions {
    fn default() -> Self {
        Self {
            format: PointFormat::Compressed,
            validation: Validation::Full,
            backend: BackendChoice::Auto,
            precompute: None,
            scalar_endian: ScalarEndian::Little,
        }
    }
}

/// An engine of any curve of the registry, behind one trait object: what
/// [`EncodedContext`] needs of it.
trait AnyEngine: Send + Sync {
    fn len(&self) -> usize;
    fn backend_name(&self) -> &'static str;
    /// The MSM, as the affine result's encoding in `out`.
    fn msm_bytes(&self, scalars: &[ScalarLimbs], out: PointFormat) -> Result<Vec<u8>, InputError>;
}

impl<C: EngineCurve> AnyEngine for Box<dyn MsmEngine<C>> {
    fn len(&self) -> usize {
        MsmEngine::len(self.as_ref())
    }

    fn backend_name(&self) -> &'static str {
        MsmEngine::backend_name(self.as_ref())
    }

    fn msm_bytes(&self, scalars: &[ScalarLimbs], out: PointFormat) -> Result<Vec<u8>, InputError> {
        let r = self.msm_report(scalars).map_err(|e| match e {
            MsmError::ScalarNotReduced { index } => InputError::from(BadRecord::at(
                Input::Scalars,
                index,
                (index * SCALAR_BYTES) as u64,
                RecordFault::ScalarNotReduced { curve: <C as zkmsm_curve::SwCurve>::NAME },
            )),
            other => from_msm_error(other),
        })?;
        Ok(r.result.to_affine().to_bytes(out))
    }
}

fn build_engine<C: EngineCurve>(
    points: Vec<Affine<C>>,
    options: &ContextOptions,
) -> Result<Box<dyn MsmEngine<C>>, InputError> {
    let copies = options.precompute.filter(|&m| m > 1);
    // The points were validated while decoding.
    MsmBuilder::new()
        .backend(options.backend)
        .validation(Validation::AlreadyValidated)
        .precompute(copies)
        .build(points)
        .map_err(from_msm_error)
}

/// Points decoded, validated and prepared once; MSMs on scalar bytes.
pub struct EncodedContext {
    curve: Curve,
    format: PointFormat,
    scalar_endian: ScalarEndian,
    engine: Box<dyn AnyEngine>,
}

impl EncodedContext {
    /// Decode, validate and prepare `points` (see [`ContextOptions`]).
    pub fn new(curve: Curve, points: &[u8], options: &ContextOptions) -> Result<Self, InputError> {
        curve.check_format(options.format)?;
        let layout = layout_for(curve, points.len(), options.format)?;
        if options.precompute == Some(0) {
            return Err(InputError::plain(ErrorKind::Unsupported, "precompute must be at least 1"));
        }
        let engine: Box<dyn AnyEngine> = with_curve!(curve, C => Box::new(build_engine::<C>(
            decode_points::<C>(points, layout, options.validation)?,
            options,
        )?));
        Ok(Self { curve, format: options.format, scalar_endian: options.scalar_endian, engine })
    }

    /// The byte order of the scalars [`Self::msm`] takes.
    pub fn scalar_endian(&self) -> ScalarEndian {
        self.scalar_endian
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.curve
    }

    /// The points' encoding.
    pub fn format(&self) -> PointFormat {
        self.format
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.engine.len()
    }

    /// No points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The backend in use, by name.
    pub fn backend_name(&self) -> &'static str {
        self.engine.backend_name()
    }

    /// Scalars for this context: 32 bytes each in its byte order, as many
    /// as the points, each below r, optionally after the 8-byte length
    /// prefix (its value must be their count: [`strip_scalars_prefix`], as
    /// every entry point reads scalars). Decoding is separate from [`Self::msm_limbs`] so that a caller
    /// can copy the scalars out of its buffers first (the Python package does
    /// it holding the GIL, then runs the MSM without it).
    pub fn decode_scalars(&self, bytes: &[u8]) -> Result<Vec<ScalarLimbs>, InputError> {
        let n = self.len();
        let bytes = strip_scalars_prefix(bytes)?;
        if bytes.len() != n * SCALAR_BYTES && bytes.len().is_multiple_of(SCALAR_BYTES) {
            return Err(InputError::plain(
                ErrorKind::LengthMismatch,
                format!("{n} points but {} scalars: the lengths must be equal", bytes.len() / SCALAR_BYTES),
            ));
        }
        with_curve!(self.curve, C => decode_scalars::<C>(bytes, self.scalar_endian))
    }

    /// The MSM of decoded scalars, as the affine point's encoding in `out`.
    pub fn msm_limbs(&self, scalars: &[ScalarLimbs], out: PointFormat) -> Result<Vec<u8>, InputError> {
        self.curve.check_format(out)?;
        self.engine.msm_bytes(scalars, out)
    }

    /// The MSM of 32-byte scalars (optionally length-prefixed, as
    /// [`Self::decode_scalars`] reads them), as the compressed encoding of the result
    /// (the bytes `zkmsm msm` prints in hex).
    pub fn msm(&self, scalars: &[u8]) -> Result<Vec<u8>, InputError> {
        self.msm_limbs(&self.decode_scalars(scalars)?, PointFormat::Compressed)
    }
}

/// One-shot MSM on encoded points and scalars, as `zkmsm msm` reads its
/// files: the number of points is the number of scalars, the points'
/// format (with or without the length prefix) is detected from their size
/// when `format` is `None`; scalars in `endian` order, optionally after the
/// length prefix ([`strip_scalars_prefix`]). Result: the compressed encoding.
pub fn msm(
    curve: Curve,
    points: &[u8],
    scalars: &[u8],
    format: Option<PointFormat>,
    endian: ScalarEndian,
) -> Result<Vec<u8>, InputError> {
    if let Some(f) = format {
        curve.check_format(f)?;
    }
    let scalars = strip_scalars_prefix(scalars)?;
    let limbs = with_curve!(curve, C => decode_scalars::<C>(scalars, endian))?;
    let n = limbs.len();
    let layout = with_curve!(curve, C => detect_layout::<C>(points.len(), n, format)).ok_or_else(|| {
        let (c, u) = (curve.point_size(PointFormat::Compressed), curve.point_size(PointFormat::Uncompressed));
        let allowed = match format {
            Some(f) => format!("{} bytes", n * curve.point_size(f)),
            None => format!("{} (compressed) or {} (uncompressed) bytes", n * c, n * u),
        };
        InputError::plain(
            ErrorKind::LengthMismatch,
            format!("points: {} bytes, but {n} scalars need {allowed} of points, optionally + 8", points.len()),
        )
    })?;
    let ctx = EncodedContext::new(curve, points, &ContextOptions { format: layout.format, ..Default::default() })?;
    ctx.msm_limbs(&limbs, PointFormat::Compressed)
}

/// The sum of encoded points (each compressed or uncompressed, told by its
/// length), as a compressed encoding: how partial MSMs over shards combine.
pub fn sum_points(curve: Curve, points: &[&[u8]]) -> Result<Vec<u8>, InputError> {
    fn sum<C: InputCurve>(curve: Curve, points: &[&[u8]]) -> Result<Vec<u8>, InputError> {
        let mut acc = Xyzz::<C>::identity();
        for (i, p) in points.iter().enumerate() {
            let format = if p.len() == curve.point_size(PointFormat::Uncompressed) {
                PointFormat::Uncompressed
            } else {
                PointFormat::Compressed
            };
            let partial = |e: &dyn std::fmt::Display| InputError {
                index: Some(i),
                ..InputError::plain(ErrorKind::Points, format!("partial {i}: {e}"))
            };
            let point = Affine::<C>::from_bytes(p, format).map_err(|e| partial(&e))?;
            point.validate().map_err(|e| partial(&e))?;
            acc = acc.add_affine(&point);
        }
        Ok(acc.to_affine().to_bytes(PointFormat::Compressed))
    }
    with_curve!(curve, C => sum::<C>(curve, points))
}

/// Whether `bytes` of memory could be had now (None: more than the address
/// space): what the C ABI and the Python package ask before the
/// allocations an input implies, which would abort on failure. An
/// anonymous mapping of that size is made and unmapped at once: the kernel
/// refuses it past the address-space limit (`ulimit -v`) or past what it
/// would ever commit. A `malloc` probe is not enough: glibc falls back to
/// `brk` when the mapping fails, and some kernels grant that past the limit.
pub fn can_allocate(bytes: Option<usize>) -> bool {
    let Some(bytes) = bytes else { return false };
    if bytes == 0 {
        return true;
    }
    #[cfg(unix)]
    {
        // SAFETY: a fresh private anonymous mapping, unmapped before return,
        // never read or written.
        unsafe {
            let prot = libc::PROT_READ | libc::PROT_WRITE;
            let p = libc::mmap(std::ptr::null_mut(), bytes, prot, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
            if p == libc::MAP_FAILED {
                return false;
            }
            libc::munmap(p, bytes);
        }
        true
    }
    #[cfg(not(unix))]
    {
        Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
    }
}

/// Lowercase hex, as the CLI prints results.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
