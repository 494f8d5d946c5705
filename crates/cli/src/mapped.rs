//! `msm --prepared` uses its files mapped, in place. zkmsm itself never
//! shrinks a file in use (`prepare` and `gen` rename a new file over the old
//! one, and the mapping keeps the old inode), but another program can
//! truncate one: the kernel then answers a read of a page past the new end
//! with SIGBUS, which would kill the command without a word. While the
//! files are mapped, that signal (and only that kind: an address the file
//! no longer backs) ends the command with the usual one-line error instead.

use crate::console::{one_line, shown};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

/// The message the handler writes (leaked: it lives as long as the process).
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);
/// Set by the first thread to fault: the others, faulting on the same
/// truncated pages at once, wait for it to exit instead of writing the line
/// again.
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Turn SIGBUS on a truncated mapping of one of `files` into a one-line
/// error naming them, for the rest of the process.
pub fn guard_truncation(files: &[&Path]) {
    #[cfg(target_os = "linux")]
    {
        let names: Vec<String> = files.iter().map(|p| shown(p)).collect();
        let line = one_line(&format!(
            "{}: a mapped file shrank while in use (truncated or rewritten in place by another program): the MSM was stopped",
            names.join(" or ")
        ));
        let message: &'static [u8] = Box::leak(format!("zkmsm: error: {line}\n").into_bytes().into_boxed_slice());
        MESSAGE_LEN.store(message.len(), Ordering::SeqCst);
        MESSAGE.store(message.as_ptr() as *mut u8, Ordering::SeqCst);
        // SAFETY: the handler only calls async-signal-safe functions (write,
        // signal, _exit) and reads the message published above.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = files;
}

#[cfg(target_os = "linux")]
extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo with SA_SIGINFO; write,
    // pause, _exit and lock-free atomics are async-signal-safe, and the
    // message is never freed.
    unsafe {
        if (*info).si_code != libc::BUS_ADRERR {
            // another cause: the default action (the fault recurs on return)
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
            return;
        }
        if REPORTING.swap(true, Ordering::SeqCst) {
            // another thread writes the line and exits the process
            loop {
                libc::pause();
            }
        }
        let (ptr, len) = (MESSAGE.load(Ordering::SeqCst), MESSAGE_LEN.load(Ordering::SeqCst));
        if !ptr.is_null() {
            libc::write(2, ptr as *const libc::c_void, len);
        }
        libc::_exit(1);
    }
}
