//! Where a backend's prepared points live: in memory, or mapped from a
//! prepared file ([`crate::prepared`]), so that a context starts without
//! converting, or even reading, the points first.

use std::ops::Deref;
use std::sync::Arc;

/// A value that can be written to a file as its in-memory image and used
/// in place when the file is mapped back.
///
/// # Safety
///
/// Every `size_of::<Self>()` bytes that [`Record::valid`] accepts are a
/// valid `Self` (types made of integers accept everything; a type with a
/// `bool` checks that byte), and [`Record::write_record`] writes exactly the
/// image that reads back as `self`.
pub unsafe trait Record: Copy + Send + Sync + 'static {
    /// `self`'s in-memory image (padding as zeros) into `out`
    /// (`size_of::<Self>()` bytes).
    fn write_record(&self, out: &mut [u8]);
    /// Whether these `size_of::<Self>()` bytes hold a valid value.
    fn valid(_bytes: &[u8]) -> bool {
        true
    }
}

/// The bytes of a value of a type without padding.
///
/// # Safety
///
/// `T` has no padding bytes (every byte of a value is initialized).
pub unsafe fn bytes_of<T>(v: &T) -> &[u8] {
    core::slice::from_raw_parts(v as *const T as *const u8, core::mem::size_of::<T>())
}

/// The bytes of a mapped file, shared by the stores that view it.
pub type Mapping = Arc<memmap2::Mmap>;

/// Records of type `T`: a vector, or a range of a mapped file.
pub struct Store<T> {
    repr: Repr<T>,
}

enum Repr<T> {
    Owned(Vec<T>),
    Mapped { map: Mapping, offset: usize, len: usize },
}

impl<T: Record> Store<T> {
    /// Feed the records' images to `sink`, a few thousand at a time.
    pub fn write_records(&self, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        let size = core::mem::size_of::<T>();
        let mut buf = vec![0u8; 4096 * size];
        for chunk in self.chunks(4096) {
            let out = &mut buf[..core::mem::size_of_val(chunk)];
            for (r, o) in chunk.iter().zip(out.chunks_exact_mut(size)) {
                r.write_record(o);
            }
            sink(out)?;
        }
        Ok(())
    }

    /// `len` records at byte `offset` of `map`; `None` unless the range is
    /// inside the mapping, aligned for `T`, and every record valid.
    pub fn mapped(map: Mapping, offset: usize, len: usize) -> Option<Self> {
        let size = core::mem::size_of::<T>();
        let end = len.checked_mul(size)?.checked_add(offset)?;
        if end > map.len() || !(map.as_ptr() as usize + offset).is_multiple_of(core::mem::align_of::<T>()) {
            return None;
        }
        let bytes = &map[offset..end];
        if !bytes.chunks_exact(size.max(1)).all(T::valid) {
            return None;
        }
        Some(Self { repr: Repr::Mapped { map, offset, len } })
    }
}

impl<T> Store<T> {
    /// Whether the records are mapped from a file rather than owned.
    pub fn is_mapped(&self) -> bool {
        matches!(self.repr, Repr::Mapped { .. })
    }
}

impl<T> Deref for Store<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.repr {
            Repr::Owned(v) => v,
            // SAFETY: `mapped` checked bounds, alignment and validity; the
            // mapping is read-only and lives as long as `self` holds the Arc.
            Repr::Mapped { map, offset, len } => unsafe {
                core::slice::from_raw_parts(map.as_ptr().add(*offset) as *const T, *len)
            },
        }
    }
}

impl<T> From<Vec<T>> for Store<T> {
    fn from(v: Vec<T>) -> Self {
        Self { repr: Repr::Owned(v) }
    }
}

impl<T> FromIterator<T> for Store<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<T: PartialEq> PartialEq for Store<T> {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}

impl<T> core::fmt::Debug for Store<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Store").field("len", &self.len()).field("mapped", &self.is_mapped()).finish()
    }
}

// SAFETY: four u64 words, no padding; any bytes are a value. The image is
// the words in this machine's byte order, which is the scalar files' little-
// endian encoding only on a little-endian machine: `io::map_scalars` maps
// them there alone.
unsafe impl Record for [u64; 4] {
    fn write_record(&self, out: &mut [u8]) {
        for (w, o) in self.iter().zip(out.chunks_exact_mut(8)) {
            o.copy_from_slice(&w.to_ne_bytes());
        }
    }
}
