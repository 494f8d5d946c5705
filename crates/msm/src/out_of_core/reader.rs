//! Reading ahead: a thread reads chunk k+1 from the files while the cores
//! compute chunk k, so that neither waits for the other longer than the
//! slower of the two makes it (the disk idles only while the chunk read
//! ahead waits for the cores, the cores only for the first chunk or a disk
//! slower than they are). Two chunks' buffers are alive at a time, the one
//! in use and the one read ahead; they are handed back and reused.

use crate::error::MsmError;
use crate::prepared::FileKind;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// An input file read by offset.
pub(crate) struct Input<'a> {
    pub file: File,
    pub path: &'a Path,
    pub len: usize,
}

impl<'a> Input<'a> {
    /// The file and its length. Inputs are read by offset, a chunk at a
    /// time, and their counts come from their lengths: a pipe, FIFO or
    /// device (length 0, or no offsets) is refused, by the path's type
    /// before opening (a FIFO with no writer would block the open) and by
    /// the open file's.
    pub fn open(path: &'a Path) -> Result<Self, MsmError> {
        let io = |source| MsmError::Io { path: path.to_path_buf(), source };
        let regular = |t: std::fs::FileType| match FileKind::of(t) {
            None => Ok(()),
            Some(kind) => Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{kind}: the out-of-core MSM reads its inputs by offset, so each must be a regular file"),
            ))),
        };
        regular(std::fs::metadata(path).map_err(io)?.file_type())?;
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        regular(meta.file_type())?;
        // read front to back: the kernel may read further ahead
        advise(&file, 0, 0, libc::POSIX_FADV_SEQUENTIAL);
        Ok(Self { file, path, len: meta.len() as usize })
    }

    /// `buf.len()` bytes at `offset`; then the kernel is told it may drop
    /// those pages from its cache (each byte is read once: the inputs are
    /// larger than memory, and keeping them would push out everything else).
    pub fn read_at(&self, buf: &mut [u8], offset: usize) -> Result<(), MsmError> {
        self.file
            .read_exact_at(buf, offset as u64)
            .map_err(|source| MsmError::Io { path: self.path.to_path_buf(), source })?;
        advise(&self.file, offset, buf.len(), libc::POSIX_FADV_DONTNEED);
        Ok(())
    }
}

/// A hint to the kernel's page cache; a refusal changes nothing but speed.
fn advise(file: &File, offset: usize, len: usize, advice: libc::c_int) {
    // SAFETY: posix_fadvise reads no memory; a bad range is an error code.
    unsafe { libc::posix_fadvise(file.as_raw_fd(), offset as libc::off_t, len as libc::off_t, advice) };
}

/// Where the time went between the reader and the cores.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ReadStats {
    /// Bytes read from the inputs.
    pub bytes: u64,
    /// The reader reading (the files' share of the wall time).
    pub reading: Duration,
    /// The cores waiting for a chunk to be read (the first chunk, and any
    /// chunk the disk was slower to give than the cores to use).
    pub cores_waited: Duration,
    /// The reader waiting with a chunk read ahead, or for a buffer to read
    /// into: the disk idle because the cores were busy.
    pub reader_waited: Duration,
}

/// Chunks `(first, len)` read by `read` on a thread of their own, one chunk
/// ahead of `compute`, which gets each in order and, once done with it,
/// hands its buffer back for the reader to reuse (or `None`: the reader
/// makes a new one). `read` starts its third chunk only then, so two chunks
/// are alive at a time. The first error, of either side, ends both.
pub(crate) fn pipelined<T: Send>(
    chunks: &[(usize, usize)],
    read: impl Fn(usize, usize, Option<T>) -> Result<(T, u64), MsmError> + Send,
    mut compute: impl FnMut(T) -> Result<Option<T>, MsmError>,
) -> Result<ReadStats, MsmError> {
    let mut stats = ReadStats::default();
    std::thread::scope(|s| {
        let (full_tx, full_rx) = mpsc::sync_channel::<Result<(T, u64), MsmError>>(0);
        let (empty_tx, empty_rx) = mpsc::channel::<Option<T>>();
        let reader = s.spawn(move || {
            let (mut reading, mut waited) = (Duration::ZERO, Duration::ZERO);
            for (k, &(first, len)) in chunks.iter().enumerate() {
                let t = Instant::now();
                // two chunks alive: from the third on, wait for one to be done
                let reuse = if k >= 2 {
                    match empty_rx.recv() {
                        Ok(b) => b,
                        Err(_) => break, // the cores stopped
                    }
                } else {
                    None
                };
                waited += t.elapsed();
                let t = Instant::now();
                let r = read(first, len, reuse);
                reading += t.elapsed();
                let failed = r.is_err();
                let t = Instant::now();
                if full_tx.send(r).is_err() || failed {
                    break;
                }
                waited += t.elapsed();
            }
            (reading, waited)
        });
        let mut result = Ok(());
        for _ in chunks {
            let t = Instant::now();
            let got = full_rx.recv();
            stats.cores_waited += t.elapsed();
            match got {
                Ok(Ok((chunk, bytes))) => {
                    stats.bytes += bytes;
                    match compute(chunk) {
                        Ok(buffer) => {
                            let _ = empty_tx.send(buffer);
                        }
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                Ok(Err(e)) => {
                    result = Err(e);
                    break;
                }
                Err(_) => break, // the reader ended early: only after an error it sent
            }
        }
        drop((full_rx, empty_tx));
        let (reading, waited) = reader.join().expect("the reader thread does not panic");
        stats.reading = reading;
        stats.reader_waited = waited;
        result
    })?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_arrive_in_order_and_buffers_are_reused() {
        let chunks: Vec<(usize, usize)> = (0..7).map(|k| (k * 10, 10)).collect();
        let fresh = std::sync::atomic::AtomicUsize::new(0);
        let mut seen = Vec::new();
        let stats = pipelined(
            &chunks,
            |first, len, reuse: Option<Vec<usize>>| {
                let mut b = reuse.unwrap_or_else(|| {
                    fresh.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    Vec::new()
                });
                b.clear();
                b.extend(first..first + len);
                Ok((b, len as u64))
            },
            |b| {
                seen.push(b[0]);
                Ok(Some(b))
            },
        )
        .unwrap();
        assert_eq!(seen, (0..7).map(|k| k * 10).collect::<Vec<_>>());
        assert_eq!(fresh.into_inner(), 2, "two buffers in flight");
        assert_eq!(stats.bytes, 70);
    }

    #[test]
    fn an_error_on_either_side_ends_both() {
        let chunks: Vec<(usize, usize)> = (0..100).map(|k| (k, 1)).collect();
        let bad = |at| MsmError::Unsupported(format!("chunk {at}"));
        let e = pipelined(&chunks, |first, _, _| if first == 3 { Err(bad(3)) } else { Ok(((), 1)) }, |_| Ok(None));
        assert_eq!(e.unwrap_err().to_string(), "unsupported: chunk 3");
        let mut n = 0;
        let e = pipelined(
            &chunks,
            |_, _, _| Ok(((), 1)),
            |_| {
                n += 1;
                if n == 5 {
                    Err(bad(4))
                } else {
                    Ok(None)
                }
            },
        );
        assert_eq!(e.unwrap_err().to_string(), "unsupported: chunk 4");
    }
}
