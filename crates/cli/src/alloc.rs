//! Running out of memory is a one-line error with exit status 1, like any
//! other failure, not an abort (status 134) with the runtime's message: an
//! address-space limit (`ulimit -v`) or an input too large for the machine
//! ends the command cleanly. Allocation itself is the system allocator's.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, ending the process with a one-line error when an
/// allocation fails (except inside [`fallible`]).
pub struct OneLineOutOfMemory;

thread_local! {
    /// Inside [`fallible`]: a failed allocation returns null to its caller.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` with failed allocations returned to their caller (`try_reserve`
/// reports them) instead of ending the process.
pub fn fallible<T>(f: impl FnOnce() -> T) -> T {
    let before = FALLIBLE.with(|c| c.replace(true));
    let out = f();
    FALLIBLE.with(|c| c.set(before));
    out
}

fn failed(size: usize) -> ! {
    // no allocation here: the message is formatted into a stack buffer
    let mut buf = [0u8; 160];
    let mut w = Cursor { buf: &mut buf, len: 0 };
    let _ = std::fmt::Write::write_fmt(
        &mut w,
        format_args!(
            "zkmsm: error: out of memory: an allocation of {size} bytes failed (a memory limit, or an input too large for this machine)\n"
        ),
    );
    let len = w.len;
    // SAFETY: write and _exit are async-signal-safe and allocate nothing.
    unsafe {
        libc::write(2, buf.as_ptr() as *const libc::c_void, len);
        libc::_exit(1);
    }
}

struct Cursor<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl std::fmt::Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

fn check(p: *mut u8, size: usize) -> *mut u8 {
    if p.is_null() && !FALLIBLE.try_with(Cell::get).unwrap_or(false) {
        failed(size);
    }
    p
}

// SAFETY: every call is forwarded to the system allocator unchanged; a null
// result either ends the process or is returned as is.
unsafe impl GlobalAlloc for OneLineOutOfMemory {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check(System.alloc(layout), layout.size())
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check(System.alloc_zeroed(layout), layout.size())
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check(System.realloc(ptr, layout, new_size), new_size)
    }
}
