//! Shared by the benches: this thread's CPU time, which other processes on a
//! shared machine disturb less than the wall clock (they still share caches
//! and the core's other hyperthread), and the core clock measured with it
//! (no hardware counters needed).

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// Seconds of CPU time this thread has used (CLOCK_THREAD_CPUTIME_ID).
#[allow(dead_code)]
pub fn thread_time() -> f64 {
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec.
    unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Iterations of [`add_chain`]'s loop; each runs 100 chained adds.
#[allow(dead_code)]
pub const CHAIN_ITERS: u64 = 2_000_000;

/// Seconds of this thread's CPU time for `CHAIN_ITERS` x 100 dependent
/// `add r64, r64` (1 cycle latency each; register operands, so no immediate
/// folding can shorten the chain). The loop counter runs beside the chain,
/// off its critical path.
#[cfg(target_arch = "x86_64")]
#[allow(dead_code)]
pub fn add_chain() -> f64 {
    let t = thread_time();
    // SAFETY: plain register arithmetic on the registers named.
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 100",
            "add {acc}, {one}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            acc = inout(reg) 0u64 => _,
            one = in(reg) 1u64,
            n = inout(reg) CHAIN_ITERS => _,
            options(nomem, nostack),
        );
    }
    thread_time() - t
}

/// The core clock while running, GHz: the median of 3 [`add_chain`]s
/// (a preempted thread accrues no CPU time, so preemption does not drag it
/// down; heat and the other core's load do move it, so measure it around
/// what it converts).
#[cfg(target_arch = "x86_64")]
#[allow(dead_code)]
pub fn clock_ghz() -> f64 {
    let mut v = [add_chain(), add_chain(), add_chain()];
    v.sort_by(f64::total_cmp);
    (CHAIN_ITERS * 100) as f64 / v[1] / 1e9
}
