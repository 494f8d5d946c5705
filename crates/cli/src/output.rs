//! Files the command writes appear whole or not at all. A file is written to
//! a temporary file beside it (created when the output is opened, so a bad
//! path fails before any work), flushed to disk and renamed over the old
//! one: a reader that has the old file open or mapped keeps the old bytes,
//! and an interrupted command leaves the old file. Standard output, pipes,
//! FIFOs and devices cannot be renamed over: they are written in place once
//! everything is ready. An output that is a symbolic link is written
//! through: the temporary file goes beside the link's target (a dangling
//! link creates its target), and the link stays. Temporary files are removed
//! on every error and on SIGINT, SIGTERM and SIGHUP ([`crate::cleanup`]).

use crate::error::CliError;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where an output goes.
enum Target {
    /// `-`: standard output.
    Stdout,
    /// An existing pipe, FIFO, device or /dev, /proc alias: written in place.
    Stream(PathBuf),
    /// A regular file (existing or new): the temporary file beside it.
    File { path: PathBuf, tmp: PathBuf },
}

/// An output opened before the work that fills it.
pub struct Output {
    /// The path as given (for messages).
    given: PathBuf,
    target: Target,
    /// The temporary file to write: beside the file, or for a stream a
    /// staging file in the temporary directory (made on demand).
    staging: Option<Staging>,
}

/// A temporary file created by this command, removed on a signal until it
/// is renamed or removed (the guard is dropped after that).
struct Staging {
    path: PathBuf,
    _guard: crate::cleanup::Staged,
}

impl Staging {
    /// Create `path` (it must not exist) and register it for removal on a signal.
    fn create(path: PathBuf) -> std::io::Result<Self> {
        let guard = crate::cleanup::register(&path);
        create_new(&path)?;
        Ok(Self { path, _guard: guard })
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> CliError + '_ {
    move |source| CliError::Output { path: path.to_path_buf(), what: source.to_string() }
}

/// A path whose bytes are written in place even when it names a regular
/// file: the kernel's aliases of open descriptors (`/dev/stdout`,
/// `/dev/fd/1`, `/proc/self/fd/1`), which must not be replaced by a rename.
/// Other files under /dev (a tmpfs at /dev/shm) are files like any other.
fn is_alias(path: &Path) -> bool {
    path.starts_with("/proc")
        || path.starts_with("/dev/fd")
        || ["/dev/stdin", "/dev/stdout", "/dev/stderr"].iter().any(|a| path == Path::new(a))
}

/// Where the symbolic links of `path` (its last component, link after link)
/// lead, each step checked: whether one is a descriptor alias, and the last
/// path, which is not a link (it may not exist).
fn follow_links(path: &Path) -> std::io::Result<(bool, PathBuf)> {
    let mut p = path.to_path_buf();
    let mut alias = is_alias(&p);
    // as many links as the kernel follows
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
                alias |= is_alias(&p);
            }
            Ok(_) => return Ok((alias, p)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((alias, p)),
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::from_raw_os_error(libc::ELOOP))
}

/// A missing path under /dev names no device (a typo), except on the tmpfs
/// at /dev/shm: refused rather than created as a file there.
fn is_missing_device(path: &Path) -> bool {
    path.starts_with("/dev") && !path.starts_with("/dev/shm")
}

/// A temporary name beside `path` that no other process uses.
fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let k = COUNT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.zkmsm-{}-{k}.tmp", std::process::id()))
}

fn create_new(path: &Path) -> std::io::Result<File> {
    File::options().write(true).create_new(true).open(path)
}

impl Output {
    /// Check `path` and, for a file, create its temporary file now: a missing
    /// directory, a directory named as the output or a read-only directory
    /// is an error before any work is done.
    pub fn open(path: &Path) -> Result<Self, CliError> {
        let given = path.to_path_buf();
        if path.as_os_str() == "-" {
            return Ok(Self { given, target: Target::Stdout, staging: None });
        }
        let refuse = |what: &str| Err(CliError::Output { path: given.clone(), what: what.into() });
        let (alias, linked) = follow_links(path).map_err(io(path))?;
        let target = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return refuse("is a directory"),
            Ok(m) if !m.is_file() => Target::Stream(given.clone()),
            Ok(_) => {
                // rename over the file a symbolic link names, not over the link
                let real = std::fs::canonicalize(path).map_err(io(path))?;
                if alias || is_alias(&real) {
                    Target::Stream(given.clone())
                } else {
                    Target::File { tmp: temp_beside(&real), path: real }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if path.file_name().is_none() || path.as_os_str().to_string_lossy().ends_with('/') {
                    return refuse("names a directory, not a file");
                }
                if alias || is_missing_device(path) || is_missing_device(&linked) {
                    return refuse("no such device");
                }
                // a dangling symbolic link: its target is created
                Target::File { tmp: temp_beside(&linked), path: linked.clone() }
            }
            Err(e) => return Err(io(path)(e)),
        };
        let staging = match &target {
            Target::File { tmp, path: file } => Some(Staging::create(tmp.clone()).map_err(|e| {
                let what = if file == path {
                    e.to_string()
                } else {
                    format!("a symbolic link to {}: {e}", crate::escape::shown(file))
                };
                CliError::Output { path: given.clone(), what }
            })?),
            _ => None,
        };
        Ok(Self { given, target, staging })
    }

    /// The path as given, for messages.
    pub fn name(&self) -> &Path {
        &self.given
    }

    /// Whether the output is standard output (`-`).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout)
    }

    /// A regular file to write the bytes to, then [`Self::commit`]: the
    /// temporary file beside a file, or a staging file in the temporary
    /// directory for standard output and streams (copied to them at commit).
    pub fn staging_path(&mut self) -> Result<PathBuf, CliError> {
        if let Some(s) = &self.staging {
            return Ok(s.path.clone());
        }
        let p = temp_beside(&std::env::temp_dir().join("out"));
        self.staging = Some(Staging::create(p.clone()).map_err(io(&p))?);
        Ok(p)
    }

    /// Write `bytes` as the whole output and commit it.
    pub fn write_whole(mut self, bytes: &[u8]) -> Result<(), CliError> {
        match &self.target {
            Target::Stdout => write_stream(Box::new(std::io::stdout().lock()), "<stdout>".as_ref(), bytes),
            Target::Stream(p) => {
                let p = p.clone();
                write_stream(Box::new(open_stream(&p)?), &p, bytes)
            }
            Target::File { .. } => {
                let tmp = self.staging_path()?;
                let mut f = File::options().write(true).truncate(true).open(&tmp).map_err(io(&self.given))?;
                f.write_all(bytes).and_then(|()| f.sync_all()).map_err(io(&self.given))?;
                self.commit()
            }
        }
    }

    /// The staging file's bytes become the output: synced and renamed over a
    /// file, copied to a stream.
    pub fn commit(mut self) -> Result<(), CliError> {
        let Some(staging) = self.staging.take() else {
            return Err(CliError::Output { path: self.given.clone(), what: "nothing was written".into() });
        };
        let path = &staging.path;
        let result = match &self.target {
            Target::File { path: file, .. } => File::open(path)
                .and_then(|f| f.sync_all())
                .and_then(|()| std::fs::rename(path, file))
                .map_err(io(&self.given))
                .map(|()| sync_dir(file)),
            Target::Stdout => copy_to(path, Box::new(std::io::stdout().lock()), "<stdout>".as_ref()),
            Target::Stream(p) => open_stream(p).and_then(|s| copy_to(path, Box::new(s), p)),
        };
        let _ = std::fs::remove_file(path);
        result
    }

    /// For outputs written as a pair: remove the existing file now, so that
    /// until the new one is renamed in, its old partner sits beside nothing
    /// rather than beside it.
    pub fn remove_old(&self) -> Result<(), CliError> {
        if let Target::File { path, .. } = &self.target {
            match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(&self.given)(e)),
            }
        }
        Ok(())
    }

    /// Whether the bytes go to standard output (`-`, or a path naming what
    /// standard output is, such as /dev/stdout).
    pub fn writes_stdout(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if let Some(m) = stdout_metadata() {
                return self.is_stdout() || self.identity() == Identity::Inode(m.dev(), m.ino());
            }
        }
        self.is_stdout()
    }

    /// Whether this is a regular file (replaced whole by a rename).
    pub fn is_file(&self) -> bool {
        matches!(self.target, Target::File { .. })
    }

    /// The device and inode of what this output writes to, when it exists
    /// (standard output: the descriptor's), else the path it will have: two
    /// outputs with equal identities overwrite each other.
    pub fn identity(&self) -> Identity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = match &self.target {
                Target::Stdout => stdout_metadata(),
                Target::Stream(p) | Target::File { path: p, .. } => std::fs::metadata(p).ok(),
            };
            if let Some(m) = meta {
                return Identity::Inode(m.dev(), m.ino());
            }
        }
        match &self.target {
            Target::Stdout => Identity::Path(PathBuf::from("-")),
            Target::Stream(p) | Target::File { path: p, .. } => Identity::Path(resolved(p)),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(s) = self.staging.take() {
            let _ = std::fs::remove_file(&s.path);
        }
    }
}

/// What an output writes to (see [`Output::identity`]).
#[derive(PartialEq, Eq, Debug)]
pub enum Identity {
    Inode(u64, u64),
    Path(PathBuf),
}

/// Where a file not yet created will be: its directory resolved.
fn resolved(p: &Path) -> PathBuf {
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(parent), p.file_name()) {
        (Ok(d), Some(n)) => d.join(n),
        _ => p.to_path_buf(),
    }
}

/// The metadata of the file, pipe or terminal standard output is.
#[cfg(unix)]
pub fn stdout_metadata() -> Option<std::fs::Metadata> {
    use std::os::fd::AsFd;
    let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

/// The identity of an input path (`-`: standard input), to compare with outputs.
pub fn input_identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let meta = if path.as_os_str() == "-" {
            let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
            File::from(fd).metadata().ok()?
        } else {
            std::fs::metadata(path).ok()?
        };
        return Some((meta.dev(), meta.ino()));
    }
    #[allow(unreachable_code)]
    None
}

fn open_stream(p: &Path) -> Result<File, CliError> {
    File::options().write(true).truncate(true).open(p).map_err(io(p))
}

fn write_stream(mut w: Box<dyn Write + '_>, name: &Path, bytes: &[u8]) -> Result<(), CliError> {
    w.write_all(bytes).and_then(|()| w.flush()).map_err(|source| stream_error(name, source))
}

fn copy_to(staging: &Path, mut w: Box<dyn Write + '_>, name: &Path) -> Result<(), CliError> {
    let mut f = File::open(staging).map_err(io(staging))?;
    std::io::copy(&mut f, &mut w).and_then(|_| w.flush()).map(|_| ()).map_err(|source| stream_error(name, source))
}

/// A closed pipe stays a broken pipe (the command then ends quietly).
fn stream_error(name: &Path, source: std::io::Error) -> CliError {
    if source.kind() == std::io::ErrorKind::BrokenPipe {
        CliError::Write { stream: "standard output", source }
    } else {
        CliError::Output { path: name.to_path_buf(), what: source.to_string() }
    }
}

/// The rename itself reaches the disk with the directory (best effort: some
/// file systems refuse to sync a directory).
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
