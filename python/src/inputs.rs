//! Reading Python inputs as bytes: which buffers are accepted (their element
//! type, not only their size), and the memory for the work an input implies,
//! tried before it is spent.

use pyo3::buffer::{ElementType, PyUntypedBuffer};
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;
use zkmsm::Curve;

/// Which element types an input may have.
#[derive(Clone, Copy)]
pub enum Element {
    /// Bytes: `bytes`, `bytearray`, a memoryview or array of unsigned bytes.
    Bytes,
    /// As `Bytes`, or native little-endian uint64 (four limbs a scalar).
    BytesOrU64,
    /// Big-endian scalars: bytes only (uint64 limbs are little-endian
    /// words; read as big-endian bytes they would be other integers).
    BigEndianBytes,
}

impl Element {
    /// What scalars in this byte order may be.
    pub fn scalars(endian: zkmsm::ScalarEndian) -> Self {
        match endian {
            zkmsm::ScalarEndian::Little => Element::BytesOrU64,
            zkmsm::ScalarEndian::Big => Element::BigEndianBytes,
        }
    }
}

/// The work bytes for `n` points of `curve` with `copies` prepared copies
/// (None: more than the address space): the registry's
/// [`Curve::context_work`], as the C ABI reserves it.
pub fn point_work(curve: Curve, n: usize, copies: u32) -> Option<usize> {
    curve.context_work(n, copies)
}

/// The work bytes for an MSM on `n` scalars ([`Curve::msm_work`]).
pub fn scalar_work(n: usize) -> Option<usize> {
    Curve::msm_work(n)
}

/// Fail with MemoryError unless `bytes` could be allocated now. The probe is
/// freed at once: it only tells an input far beyond the process's memory
/// (its address-space limit, or what the kernel would ever grant) from one
/// that fits, before the allocations that would abort on failure.
fn probe(what: &str, len: usize, bytes: Option<usize>) -> PyResult<()> {
    if zkmsm::encoded::can_allocate(bytes) {
        return Ok(());
    }
    let need = bytes.map_or_else(|| "more than the address space".to_string(), |b| format!("about {b} bytes"));
    Err(PyMemoryError::new_err(format!(
        "{what}: {len} bytes of input need {need} of memory, which cannot be allocated"
    )))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    // numpy arrays by their dtype, anything else by its type
    if let Ok(dtype) = obj.getattr("dtype") {
        return format!("an array of dtype {dtype}");
    }
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
}

/// Whether a buffer's element type is accepted: unsigned bytes, or (when
/// `element` allows it) unsigned 64-bit integers in little-endian order.
fn accepted(buf: &PyUntypedBuffer, element: Element) -> bool {
    let format = buf.format().to_bytes();
    match ElementType::from_format(buf.format()) {
        ElementType::UnsignedInteger { bytes: 1 } => true,
        ElementType::UnsignedInteger { bytes: 8 } if matches!(element, Element::BytesOrU64) => {
            let little = match format.first() {
                Some(b'<') => true,
                Some(b'>' | b'!') => false,
                _ => cfg!(target_endian = "little"),
            };
            little && buf.item_size() == 8
        }
        _ => false,
    }
}

/// The bytes of `obj`: borrowed from `bytes`, copied from any other
/// C-contiguous buffer of an accepted element type. `work(len)` is the memory
/// the caller will need for an input of `len` bytes (None: too much to
/// count); it and the copy are tried first.
pub fn input_bytes<'a>(
    obj: &'a Bound<'_, PyAny>,
    what: &str,
    element: Element,
    work: impl FnOnce(usize) -> Option<usize>,
) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        probe(what, bytes.len(), work(bytes.len()))?;
        return Ok(Cow::Borrowed(bytes));
    }
    let expected = match element {
        Element::Bytes => "bytes or a buffer of bytes (bytearray, memoryview, numpy uint8 array)",
        Element::BigEndianBytes => {
            "bytes or a buffer of bytes (bytearray, memoryview, numpy uint8 array): big-endian scalars are 32-byte \
             integers, uint64 limbs are only taken little-endian"
        }
        Element::BytesOrU64 => {
            "bytes or a buffer of bytes or native little-endian uint64 (bytearray, memoryview, numpy uint8 or \
             uint64 array)"
        }
    };
    let buf = PyUntypedBuffer::get(obj)
        .map_err(|_| PyTypeError::new_err(format!("{what} must be {expected}, not {}", type_name(obj))))?;
    if !accepted(&buf, element) {
        return Err(PyTypeError::new_err(format!(
            "{what} must be {expected}, not {} (buffer format {:?})",
            type_name(obj),
            buf.format().to_string_lossy()
        )));
    }
    if !buf.is_c_contiguous() {
        return Err(PyTypeError::new_err(format!("{what} must be C-contiguous (numpy: np.ascontiguousarray)")));
    }
    let len = buf.len_bytes();
    probe(what, len, work(len).and_then(|w| w.checked_add(len)))?;
    let mut copy = Vec::new();
    copy.try_reserve_exact(len)
        .map_err(|_| PyMemoryError::new_err(format!("{what}: the copy of {len} bytes of input cannot be allocated")))?;
    // SAFETY: a C-contiguous buffer is `len_bytes` readable bytes at `buf_ptr`,
    // held alive by `buf` (and the GIL) for this copy.
    copy.extend_from_slice(unsafe { std::slice::from_raw_parts(buf.buf_ptr() as *const u8, len) });
    Ok(Cow::Owned(copy))
}
