//! `zkmsm._zkmsm`: the Python extension over [`zkmsm::encoded`]. Inputs are the
//! CLI's bytes (from `bytes` without a copy, from any other C-contiguous
//! buffer such as a numpy array with one copy); the MSM runs without the GIL.
#![deny(missing_docs)]

use pyo3::buffer::PyUntypedBuffer;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::borrow::Cow;
use zkmsm::encoded::{self, ContextOptions, Curve, EncodedContext, ErrorKind, InputError, PointFormat};
use zkmsm::{BackendChoice, Validation};

create_exception!(_zkmsm, ZkmsmError, PyValueError, "A bad input; `index` and `offset` say where (or are None).");
create_exception!(_zkmsm, PointError, ZkmsmError, "The points are malformed, off the curve or outside the subgroup.");
create_exception!(_zkmsm, ScalarError, ZkmsmError, "The scalars are malformed or not below the group order r.");
create_exception!(_zkmsm, LengthError, ZkmsmError, "Points and scalars differ in number.");

/// The Python exception for an input error, with `index` and `offset` set.
fn py_err(py: Python<'_>, e: InputError) -> PyErr {
    let err = match e.kind {
        ErrorKind::Points => PointError::new_err(e.message.clone()),
        ErrorKind::Scalars => ScalarError::new_err(e.message.clone()),
        ErrorKind::LengthMismatch => LengthError::new_err(e.message.clone()),
        ErrorKind::Unsupported => ZkmsmError::new_err(e.message.clone()),
    };
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail in practice;
    // if it did, the exception would still carry its message.
    let _ = value.setattr("index", e.index);
    let _ = value.setattr("offset", e.offset);
    err
}

fn unsupported(py: Python<'_>, message: String) -> PyErr {
    py_err(py, InputError { kind: ErrorKind::Unsupported, index: None, offset: None, message })
}

/// The bytes of `obj`: borrowed from `bytes`, copied from any other
/// C-contiguous buffer (bytearray, memoryview, numpy arrays of any dtype).
fn input_bytes<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    let buf = PyUntypedBuffer::get(obj).map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be bytes or a buffer (bytearray, memoryview, numpy array), not {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })?;
    if !buf.is_c_contiguous() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what} must be C-contiguous (numpy: np.ascontiguousarray)"
        )));
    }
    // SAFETY: a C-contiguous buffer is `len_bytes` readable bytes at `buf_ptr`,
    // held alive by `buf` (and the GIL) for this copy.
    let bytes = unsafe { std::slice::from_raw_parts(buf.buf_ptr() as *const u8, buf.len_bytes()) };
    Ok(Cow::Owned(bytes.to_vec()))
}

fn curve_of(py: Python<'_>, name: &str) -> PyResult<Curve> {
    Curve::from_name(name).ok_or_else(|| py_err(py, InputError::unknown_curve(name)))
}

fn format_of(py: Python<'_>, name: &str) -> PyResult<PointFormat> {
    match name {
        "compressed" => Ok(PointFormat::Compressed),
        "uncompressed" => Ok(PointFormat::Uncompressed),
        _ => Err(unsupported(py, format!("unknown format {name:?}: expected \"compressed\" or \"uncompressed\""))),
    }
}

/// Points decoded, validated and prepared once; then MSMs on scalars.
#[pyclass(module = "zkmsm._zkmsm", frozen)]
struct Context {
    inner: EncodedContext,
}

#[pymethods]
impl Context {
    #[new]
    #[pyo3(signature = (curve, points, format = "compressed", precompute = 1, validate = true, backend = "auto"))]
    fn new(
        py: Python<'_>,
        curve: &str,
        points: &Bound<'_, PyAny>,
        format: &str,
        precompute: u32,
        validate: bool,
        backend: &str,
    ) -> PyResult<Self> {
        let curve = curve_of(py, curve)?;
        let format = format_of(py, format)?;
        let backend = BackendChoice::from_name(backend).ok_or_else(|| {
            let names: Vec<&str> = BackendChoice::ALL.iter().map(|b| b.name()).collect();
            unsupported(py, format!("unknown backend {backend:?}: expected one of {}", names.join(", ")))
        })?;
        if precompute == 0 {
            return Err(unsupported(py, "precompute must be at least 1".into()));
        }
        let options = ContextOptions {
            format,
            validation: if validate { Validation::Full } else { Validation::AlreadyValidated },
            backend,
            precompute: Some(precompute),
        };
        let bytes = input_bytes(points, "points")?;
        let bytes: &[u8] = &bytes;
        let inner = py.detach(|| EncodedContext::new(curve, bytes, &options)).map_err(|e| py_err(py, e))?;
        Ok(Self { inner })
    }

    /// sum_i scalars[i] * points[i]. `scalars`: 32-byte little-endian integers
    /// below r, as bytes or a numpy array ((n, 32) uint8 or (n, 4) uint64);
    /// result: the encoding (compressed by default) as bytes.
    #[pyo3(signature = (scalars, encoding = "compressed"))]
    fn msm<'py>(&self, py: Python<'py>, scalars: &Bound<'py, PyAny>, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
        let out = format_of(py, encoding)?;
        let bytes = input_bytes(scalars, "scalars")?;
        let bytes: &[u8] = &bytes;
        let inner = &self.inner;
        let r = py
            .detach(|| inner.decode_scalars(bytes).and_then(|s| inner.msm_limbs(&s, out)))
            .map_err(|e| py_err(py, e))?;
        Ok(PyBytes::new(py, &r))
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The curve's name.
    #[getter]
    fn curve(&self) -> &'static str {
        self.inner.curve().name()
    }

    /// The points' encoding.
    #[getter]
    fn format(&self) -> &'static str {
        match self.inner.format() {
            PointFormat::Compressed => "compressed",
            PointFormat::Uncompressed => "uncompressed",
        }
    }

    /// The bucket-accumulation backend in use.
    #[getter]
    fn backend(&self) -> &'static str {
        self.inner.backend_name()
    }

    fn __repr__(&self) -> String {
        format!("zkmsm.Context({:?}, {} points, {}, backend {})", self.curve(), self.inner.len(), self.format(), self.backend())
    }
}

/// One-shot MSM, as `zkmsm msm` reads two files: as many points as scalars,
/// the format detected from the sizes when `format` is None.
#[pyfunction]
#[pyo3(signature = (curve, points, scalars, format = None))]
fn msm<'py>(
    py: Python<'py>,
    curve: &str,
    points: &Bound<'py, PyAny>,
    scalars: &Bound<'py, PyAny>,
    format: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let curve = curve_of(py, curve)?;
    let format = format.map(|f| format_of(py, f)).transpose()?;
    let (p, s) = (input_bytes(points, "points")?, input_bytes(scalars, "scalars")?);
    let (p, s): (&[u8], &[u8]) = (&p, &s);
    let r = py.detach(|| encoded::msm(curve, p, s, format)).map_err(|e| py_err(py, e))?;
    Ok(PyBytes::new(py, &r))
}

/// The sum of encoded points (compressed or uncompressed each, validated), as
/// the compressed encoding: how partial MSMs over shards combine.
#[pyfunction]
fn sum_points<'py>(py: Python<'py>, curve: &str, points: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
    let curve = curve_of(py, curve)?;
    let refs: Vec<&[u8]> = points.iter().map(|p| &p[..]).collect();
    let r = encoded::sum_points(curve, &refs).map_err(|e| py_err(py, e))?;
    Ok(PyBytes::new(py, &r))
}

/// Bytes of one point of `curve` in `format`.
#[pyfunction]
#[pyo3(signature = (curve, format = "compressed"))]
fn point_size(py: Python<'_>, curve: &str, format: &str) -> PyResult<usize> {
    Ok(curve_of(py, curve)?.point_size(format_of(py, format)?))
}

/// The extension module.
#[pymodule]
fn _zkmsm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Context>()?;
    m.add_function(wrap_pyfunction!(msm, m)?)?;
    m.add_function(wrap_pyfunction!(sum_points, m)?)?;
    m.add_function(wrap_pyfunction!(point_size, m)?)?;
    m.add("ZkmsmError", py.get_type::<ZkmsmError>())?;
    m.add("PointError", py.get_type::<PointError>())?;
    m.add("ScalarError", py.get_type::<ScalarError>())?;
    m.add("LengthError", py.get_type::<LengthError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
