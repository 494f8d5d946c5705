//! The plan: window size c and window count W for n points.

/// How one MSM is cut into windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Window size in bits.
    pub c: u32,
    /// Number of windows; c * windows >= scalar_bits + 1 so the signed digit
    /// of the top window cannot overflow.
    pub windows: u32,
    /// Buckets per window: 2^(c-1), thanks to signed digits.
    pub buckets: usize,
}

/// Largest window a caller may ask for (bucket memory grows as 2^(c-1)).
pub const MAX_C: u32 = 20;

/// Largest window the planner chooses by itself. Past c = 16 a thread's
/// buckets (2^(c-1) of 128 bytes in the lane engines, 192 in XYZZ) outgrow
/// L2 and, with two threads at c = 19, the whole L3: every bucket access
/// becomes a miss, which the additions model below does not see. It would
/// pick c = 19 from 2^22 points on (14 windows instead of 16, 9% fewer
/// additions), the jump that made 2^22 cost 6x 2^20. gnark-crypto
/// stops at 16 too.
pub const MAX_PLANNED_C: u32 = 16;

impl Plan {
    /// The plan for window size c over `scalar_bits`-bit scalars (with the signed digits' carry
    /// window). Panics outside `1..=MAX_C`.
    pub fn with_window(c: u32, scalar_bits: u32) -> Self {
        assert!((1..=MAX_C).contains(&c), "window size {c} out of range 1..={MAX_C}");
        let windows = (scalar_bits + 1).div_ceil(c);
        Self { c, windows, buckets: 1usize << (c - 1) }
    }

    /// Cost model: each window costs n bucket additions plus ~2 additions per
    /// bucket to aggregate; result aggregation adds c doublings per window.
    /// Windows run `threads` at a time, so a last round that leaves threads
    /// idle costs as much as a full one (17 windows on 2 cores take 9 rounds).
    pub fn cost(n: usize, c: u32, scalar_bits: u32, threads: usize) -> f64 {
        let p = Self::with_window(c, scalar_bits);
        let rounds = (p.windows as usize).div_ceil(threads.max(1)) * threads.max(1);
        rounds as f64 * (n as f64 + 2.0 * p.buckets as f64 + c as f64)
    }

    /// The window size up to [`MAX_PLANNED_C`] minimizing [`Plan::cost`] on
    /// the current thread pool.
    pub fn for_size(n: usize, scalar_bits: u32) -> Self {
        Self::for_size_on(n, scalar_bits, rayon::current_num_threads())
    }

    /// As [`Plan::for_size`] for a given thread count.
    pub fn for_size_on(n: usize, scalar_bits: u32, threads: usize) -> Self {
        let best = (1..=MAX_PLANNED_C)
            .min_by(|&a, &b| Self::cost(n, a, scalar_bits, threads).total_cmp(&Self::cost(n, b, scalar_bits, threads)))
            .unwrap();
        Self::with_window(best, scalar_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_scalar_plus_carry() {
        for bits in [253, 255] {
            for c in 1..=MAX_C {
                let p = Plan::with_window(c, bits);
                assert!(p.c * p.windows > bits);
                assert!(p.c * (p.windows - 1) <= bits);
            }
        }
    }

    #[test]
    fn window_grows_with_n() {
        let cs: Vec<u32> =
            [1usize, 1 << 8, 1 << 12, 1 << 16, 1 << 20].iter().map(|&n| Plan::for_size_on(n, 253, 1).c).collect();
        assert!(cs.windows(2).all(|w| w[0] <= w[1]), "{cs:?}");
        assert!(cs[4] >= 13 && cs[4] <= 18, "{cs:?}");
    }

    #[test]
    fn idle_threads_in_the_last_round_are_paid_for() {
        let n = 1usize << 18;
        // c = 15: 17 windows; on 2 threads that is 9 rounds, costed as 18 windows
        assert_eq!(Plan::cost(n, 15, 253, 1), 17.0 * (n as f64 + 32768.0 + 15.0));
        assert_eq!(Plan::cost(n, 15, 253, 2), 18.0 * (n as f64 + 32768.0 + 15.0));
        // c = 16: 16 windows, no idle round
        assert_eq!(Plan::cost(n, 16, 253, 2), 16.0 * (n as f64 + 65536.0 + 16.0));
        let chosen: Vec<u32> = (12..=22).map(|l| Plan::for_size_on(1 << l, 253, 2).c).collect();
        assert!(chosen.windows(2).all(|w| w[0] <= w[1]), "{chosen:?}");
        println!("2 threads, 2^12..2^22: c = {chosen:?}");
    }

    /// Large MSMs keep their buckets cache-sized: the additions model alone
    /// would take c = 19 at 2^22 and 2^24 on two threads (2 x 32 MiB of lane
    /// buckets); the planner stops at 16 (4 MiB a thread), as explicit
    /// windows may not.
    #[test]
    fn large_sizes_stop_at_the_cache_sized_window() {
        let unbounded =
            |n: usize| (1..=MAX_C).min_by(|&a, &b| Plan::cost(n, a, 253, 2).total_cmp(&Plan::cost(n, b, 253, 2)));
        assert_eq!(unbounded(1 << 22), Some(19));
        for log_n in [20, 22, 24, 26] {
            for threads in [1, 2, 16] {
                assert_eq!(
                    Plan::for_size_on(1 << log_n, 253, threads).c,
                    MAX_PLANNED_C,
                    "2^{log_n}, {threads} threads"
                );
            }
        }
        assert_eq!(Plan::with_window(MAX_C, 253).c, MAX_C);
    }
}
