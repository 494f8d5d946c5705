//! `zkmsm._zkmsm`: the Python extension over [`zkmsm::encoded`]. Inputs are the
//! CLI's bytes (from `bytes` without a copy, from any other C-contiguous
//! buffer of bytes, or of native little-endian uint64 for scalars, with one
//! copy); the MSM runs without the GIL. Allocations sized by the input are
//! tried first, so that memory the process cannot get is a `MemoryError`, not
//! an abort.
#![deny(missing_docs)]

mod inputs;

use inputs::{input_bytes, point_work, scalar_work, Element};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::types::{PyBool, PyBytes, PyInt};
use zkmsm::encoded::{self, ContextOptions, Curve, EncodedContext, ErrorKind, InputError, PointFormat};
use zkmsm::{BackendChoice, Group, ScalarEndian, Validation};

/// Bytes of the arkworks length prefix the CLI accepts before points and scalars.
const PREFIX_BYTES: usize = 8;
/// Bytes of one scalar.
const SCALAR_BYTES: usize = 32;

/// The Python exception for an input error: a class of `zkmsm._errors`
/// (picklable), with `index` and `offset` set.
fn py_err(py: Python<'_>, e: InputError) -> PyErr {
    let class = match e.kind {
        ErrorKind::Points => "PointError",
        ErrorKind::Scalars => "ScalarError",
        ErrorKind::LengthMismatch => "LengthError",
        ErrorKind::Unsupported => "ZkmsmError",
    };
    let made = py
        .import("zkmsm._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1((e.message.clone(), e.index, e.offset)));
    match made {
        Ok(value) => PyErr::from_value(value),
        // zkmsm._errors ships with the extension; without it, still the message
        Err(_) => PyValueError::new_err(e.message),
    }
}

fn unsupported(py: Python<'_>, message: String) -> PyErr {
    py_err(py, InputError::plain(ErrorKind::Unsupported, message))
}

/// The registry's entry for curve `name` in group `group` ("g1" or "g2").
fn curve_of(py: Python<'_>, name: &str, group: &str) -> PyResult<Curve> {
    let g = Group::from_name(group)
        .ok_or_else(|| unsupported(py, format!("unknown group {group:?}: expected \"g1\" or \"g2\"")))?;
    Curve::find(name, g).ok_or_else(|| py_err(py, Curve::unknown(name)))
}

fn format_of(py: Python<'_>, name: &str) -> PyResult<PointFormat> {
    match name {
        "compressed" => Ok(PointFormat::Compressed),
        "uncompressed" => Ok(PointFormat::Uncompressed),
        "evm" => Ok(PointFormat::Evm),
        _ => Err(unsupported(
            py,
            format!("unknown format {name:?}: expected \"compressed\", \"uncompressed\" or \"evm\""),
        )),
    }
}

/// The format `name` for `curve`'s points (`what`: the parameter, for the
/// error): "evm" is BN254's layout only.
fn format_for(py: Python<'_>, curve: Curve, name: &str, what: &str) -> PyResult<PointFormat> {
    let format = format_of(py, name)?;
    curve
        .check_format(format)
        .map_err(|e| py_err(py, InputError { message: format!("{what}={name:?}: {}", e.message), ..e }))?;
    Ok(format)
}

/// `scalar_endian`: "little" (default) or "big" (the EVM's order).
fn endian_of(py: Python<'_>, name: &str) -> PyResult<ScalarEndian> {
    match name {
        "little" => Ok(ScalarEndian::Little),
        "big" => Ok(ScalarEndian::Big),
        _ => Err(unsupported(py, format!("unknown scalar_endian {name:?}: expected \"little\" or \"big\""))),
    }
}

/// `precompute`: a Python int (not a bool) in 1..=2^32-1; errors name it.
fn precompute_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<u32> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        let ty = value.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(PyTypeError::new_err(format!("precompute must be an int, not {ty}")));
    }
    match value.extract::<i64>() {
        Ok(m) if (1..=u32::MAX as i64).contains(&m) => Ok(m as u32),
        _ => Err(unsupported(py, format!("precompute must be between 1 and {}, not {value}", u32::MAX))),
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
    #[pyo3(signature = (curve, points, format = "compressed", precompute = None, validate = true, backend = "auto", scalar_endian = "little", group = "g1"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        curve: &str,
        points: &Bound<'_, PyAny>,
        format: &str,
        precompute: Option<&Bound<'_, PyAny>>,
        validate: bool,
        backend: &str,
        scalar_endian: &str,
        group: &str,
    ) -> PyResult<Self> {
        let curve = curve_of(py, curve, group)?;
        let format = format_for(py, curve, format, "format")?;
        let scalar_endian = endian_of(py, scalar_endian)?;
        let backend = BackendChoice::from_name(backend).ok_or_else(|| {
            let names: Vec<&str> = BackendChoice::ALL.iter().map(|b| b.name()).collect();
            unsupported(py, format!("unknown backend {backend:?}: expected one of {}", names.join(", ")))
        })?;
        let precompute = precompute.map(|p| precompute_of(py, p)).transpose()?.unwrap_or(1);
        let options = ContextOptions {
            format,
            validation: if validate { Validation::Full } else { Validation::AlreadyValidated },
            backend,
            precompute: Some(precompute),
            scalar_endian,
        };
        let bytes = input_bytes(points, "points", Element::Bytes, |len| {
            let n = len / curve.point_size(format);
            point_work(curve, n, curve.precompute_copies(n, precompute))
        })?;
        let bytes: &[u8] = &bytes;
        let inner = py.detach(|| EncodedContext::new(curve, bytes, &options)).map_err(|e| py_err(py, e))?;
        Ok(Self { inner })
    }

    /// sum_i scalars[i] * points[i]. `scalars`: 32-byte little-endian integers
    /// below r, as bytes (optionally after the 8-byte length prefix, as
    /// `zkmsm.msm` and the CLI read them) or a numpy array ((n, 32) uint8 or (n, 4) uint64);
    /// result: the encoding (compressed by default) as bytes.
    #[pyo3(signature = (scalars, encoding = "compressed"))]
    fn msm<'py>(&self, py: Python<'py>, scalars: &Bound<'py, PyAny>, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
        let out = format_for(py, self.inner.curve(), encoding, "encoding")?;
        let n = self.inner.len();
        // the count first: no copy or allocation for scalars of the wrong
        // length (with or without the length prefix)
        let bytes = input_bytes(scalars, "scalars", Element::scalars(self.inner.scalar_endian()), |len| {
            if len == n * SCALAR_BYTES || len == n * SCALAR_BYTES + PREFIX_BYTES {
                scalar_work(n)
            } else {
                Some(0)
            }
        })?;
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

    /// The group: "g1" or "g2".
    #[getter]
    fn group(&self) -> &'static str {
        self.inner.curve().group().name()
    }

    /// The points' encoding.
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format().name()
    }

    /// The bucket-accumulation backend in use.
    #[getter]
    fn backend(&self) -> &'static str {
        self.inner.backend_name()
    }

    fn __repr__(&self) -> String {
        format!(
            "zkmsm.Context({:?}, {} {} points, {}, backend {})",
            self.curve(),
            self.group(),
            self.inner.len(),
            self.format(),
            self.backend()
        )
    }
}

/// Whether `points_len` bytes can hold `n` points of `curve` in `format` (or
/// either format when None), optionally after the length prefix: the check
/// made before any point or scalar is decoded.
fn points_fit(curve: Curve, points_len: usize, n: usize, format: Option<PointFormat>) -> bool {
    let formats = match format {
        Some(f) => vec![f],
        None => vec![PointFormat::Compressed, PointFormat::Uncompressed],
    };
    formats.into_iter().any(|f| {
        n.checked_mul(curve.point_size(f))
            .is_some_and(|body| points_len == body || points_len.checked_sub(PREFIX_BYTES) == Some(body))
    })
}

/// One-shot MSM, as `zkmsm msm` reads two files: as many points as scalars,
/// the format detected from the sizes when `format` is None; either input
/// may start with the 8-byte length prefix.
#[pyfunction]
#[pyo3(signature = (curve, points, scalars, format = None, scalar_endian = "little", group = "g1"))]
fn msm<'py>(
    py: Python<'py>,
    curve: &str,
    points: &Bound<'py, PyAny>,
    scalars: &Bound<'py, PyAny>,
    format: Option<&str>,
    scalar_endian: &str,
    group: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let curve = curve_of(py, curve, group)?;
    let format = format.map(|f| format_for(py, curve, f, "format")).transpose()?;
    let scalar_endian = endian_of(py, scalar_endian)?;
    let s = input_bytes(scalars, "scalars", Element::scalars(scalar_endian), |len| scalar_work(len / SCALAR_BYTES))?;
    let s: &[u8] = encoded::strip_scalars_prefix(&s).map_err(|e| py_err(py, e))?;
    let n = s.len() / SCALAR_BYTES;
    // the points' work for as many points as scalars, when the sizes agree
    let p = input_bytes(points, "points", Element::Bytes, |len| {
        if points_fit(curve, len, n, format) {
            point_work(curve, n, 1)
        } else {
            Some(0)
        }
    })?;
    let p: &[u8] = &p;
    let r = py.detach(|| encoded::msm(curve, p, s, format, scalar_endian)).map_err(|e| py_err(py, e))?;
    Ok(PyBytes::new(py, &r))
}

/// The sum of encoded points (compressed or uncompressed each, validated), as
/// the compressed encoding: how partial MSMs over shards combine. The GIL is
/// released while they are decoded and added.
#[pyfunction]
#[pyo3(signature = (curve, points, group = "g1"))]
fn sum_points<'py>(py: Python<'py>, curve: &str, points: Vec<Vec<u8>>, group: &str) -> PyResult<Bound<'py, PyBytes>> {
    let curve = curve_of(py, curve, group)?;
    let refs: Vec<&[u8]> = points.iter().map(|p| &p[..]).collect();
    let r = py.detach(|| encoded::sum_points(curve, &refs)).map_err(|e| py_err(py, e))?;
    Ok(PyBytes::new(py, &r))
}

/// Bytes of one point of `curve` in `format`.
#[pyfunction]
#[pyo3(signature = (curve, format = "compressed", group = "g1"))]
fn point_size(py: Python<'_>, curve: &str, format: &str, group: &str) -> PyResult<usize> {
    let curve = curve_of(py, curve, group)?;
    Ok(curve.point_size(format_for(py, curve, format, "format")?))
}

/// The extension module. The exceptions live in `zkmsm._errors` (so that
/// they pickle); they are re-exported here for code that imported them from
/// the extension.
#[pymodule]
fn _zkmsm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Context>()?;
    m.add_function(wrap_pyfunction!(msm, m)?)?;
    m.add_function(wrap_pyfunction!(sum_points, m)?)?;
    m.add_function(wrap_pyfunction!(point_size, m)?)?;
    let errors = py.import("zkmsm._errors")?;
    for name in ["ZkmsmError", "PointError", "ScalarError", "LengthError"] {
        m.add(name, errors.getattr(name)?)?;
    }
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // the registry's names: the curves and groups every function takes
    m.add("CURVES", PyTuple::new(py, Curve::names())?)?;
    m.add("GROUPS", PyTuple::new(py, zkmsm::Group::ALL.map(|g| g.name()))?)?;
    Ok(())
}
