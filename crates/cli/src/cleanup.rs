//! Temporary files removed when the command is interrupted: SIGINT (Ctrl-C),
//! SIGTERM and SIGHUP remove every staging file still registered, then end
//! the process by the same signal (its exit status says which). A signal the
//! parent set to be ignored (`nohup`, a background job) stays ignored.
//! SIGKILL cannot be caught: its leftovers are named `.NAME.zkmsm-PID-K.tmp`.

use std::ffi::CString;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Once;

/// At most this many temporary files at once (`gen` has two, plus each
/// one's staging file for a stream).
const SLOTS: usize = 8;

/// The registered paths, NUL-terminated; null: a free slot. The handler
/// takes a path by swapping its slot to null, so it and [`Staged::drop`]
/// never both own one.
static PATHS: [AtomicPtr<libc::c_char>; SLOTS] = [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A registered temporary file: removed by the handler if a signal comes
/// before this is dropped. Dropping it only forgets the path (the owner
/// renames or removes the file itself).
pub struct Staged {
    slot: Option<usize>,
}

/// Register `path` to be removed if the command is interrupted.
pub fn register(path: &Path) -> Staged {
    use std::os::unix::ffi::OsStrExt;
    static INSTALL: Once = Once::new();
    INSTALL.call_once(install);
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else { return Staged { slot: None } };
    let raw = c.into_raw();
    for (k, slot) in PATHS.iter().enumerate() {
        if slot.compare_exchange(std::ptr::null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return Staged { slot: Some(k) };
        }
    }
    // every slot taken: the file is still removed on every error path, only
    // not on a signal
    // SAFETY: `raw` came from CString::into_raw just above and was not stored.
    drop(unsafe { CString::from_raw(raw) });
    Staged { slot: None }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(k) = self.slot {
            let raw = PATHS[k].swap(std::ptr::null_mut(), Ordering::SeqCst);
            if !raw.is_null() {
                // SAFETY: a non-null slot holds a pointer from CString::into_raw,
                // and the swap made this the only owner.
                drop(unsafe { CString::from_raw(raw) });
            }
        }
    }
}

fn install() {
    for sig in SIGNALS {
        // SAFETY: sigaction with a zeroed struct queries the disposition; the
        // handler installed only calls async-signal-safe functions (unlink,
        // signal, raise) and atomics.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as *const () as usize;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    for slot in &PATHS {
        let raw = slot.swap(std::ptr::null_mut(), Ordering::SeqCst);
        if !raw.is_null() {
            // SAFETY: the pointer is a NUL-terminated path that is never freed
            // once taken here; unlink is async-signal-safe.
            unsafe {
                libc::unlink(raw);
            }
        }
    }
    // SAFETY: restoring the default action and raising the signal again ends
    // the process as the signal would have.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}
