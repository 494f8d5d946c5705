//! The digits the model schedules: exactly those the host streams.
//!
//! Every digit comes from `zkmsm::digits::signed_digit` (Booth recoding: the
//! carry into window w is bit cw - 1 of the scalar) under a `zkmsm::Plan`, so
//! the model counts conflicts on the digits the `zkmsm` backends and the RTL
//! core receive, and uniform scalars come from the host's one generator,
//! `zkmsm::gen::random_scalars`.

use std::cell::RefCell;
use std::marker::PhantomData;
use zkmsm::digits::{signed_digit, SignedDigits};
use zkmsm::gen::{random_scalars_chunk, CHUNK};
use zkmsm::{Plan, ScalarLimbs};

/// A source of signed digits `d(i, j)` for scalar `i`, window `j`.
pub trait DigitSource: Sync {
    /// Number of scalars.
    fn len(&self) -> usize;
    /// True when there are no scalars.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of windows.
    fn windows(&self) -> usize;
    /// Window size c in bits.
    fn window_bits(&self) -> u32;
    /// The signed digit of scalar `i` in window `j`.
    fn digit(&self, i: usize, j: usize) -> i32;
}

/// The digits of explicit scalars under a plan, computed once by the host's
/// digit code (window-major, W x n x 4 bytes).
#[derive(Clone, Debug)]
pub struct HostDigits {
    n: usize,
    digits: SignedDigits,
}

impl HostDigits {
    /// The digits of `scalars` under `plan`.
    pub fn new(scalars: &[ScalarLimbs], plan: &Plan) -> Self {
        Self { n: scalars.len(), digits: SignedDigits::compute(scalars, plan) }
    }

    /// The digits of window `w`, one per scalar.
    pub fn window(&self, w: usize) -> &[i32] {
        &self.digits.windows[w]
    }
}

impl DigitSource for HostDigits {
    fn len(&self) -> usize {
        self.n
    }
    fn windows(&self) -> usize {
        self.digits.plan.windows as usize
    }
    fn window_bits(&self) -> u32 {
        self.digits.plan.c
    }
    #[inline(always)]
    fn digit(&self, i: usize, j: usize) -> i32 {
        self.digits.windows[j][i]
    }
}

/// One window's digits given as a slice (the host's digit stream for one
/// window, as the `zkmsm` backend seam hands it over).
#[derive(Clone, Copy, Debug)]
pub struct SliceDigits<'a> {
    /// The window's digits, one per scalar.
    pub digits: &'a [i32],
    /// Window size c in bits.
    pub c: u32,
}

impl DigitSource for SliceDigits<'_> {
    fn len(&self) -> usize {
        self.digits.len()
    }
    fn windows(&self) -> usize {
        1
    }
    fn window_bits(&self) -> u32 {
        self.c
    }
    #[inline(always)]
    fn digit(&self, i: usize, _j: usize) -> i32 {
        self.digits[i]
    }
}

/// Generator chunks of [`CHUNK`] scalars, cached per thread: the schedulers
/// walk the digits window by window (or point by point), so consecutive
/// calls stay in one chunk (two with full-width windows, which read a second
/// seed for the top window).
// (curve, seed, chunk, length): sources of different n share a seed, and
// the last chunk's length depends on n
type ChunkKey = (&'static str, u64, usize, usize);

const CACHED_CHUNKS: usize = 4;

thread_local! {
    static CACHE: RefCell<Vec<(ChunkKey, Vec<ScalarLimbs>)>> = const { RefCell::new(Vec::new()) };
}

/// The digits of `n` uniform scalars `zkmsm::gen::random_scalars::<C>(n,
/// seed)` under `plan`, without storing them: scalars are regenerated a
/// chunk at a time (about 40 ns each), so statistics runs at N = 2^26 need
/// no N-sized memory.
///
/// `full_width`: the papers' modelling assumption that every window is a
/// full c-bit window (real scalars leave a narrow top window). Window j then
/// takes window `j mod (W - 1)` of the scalars of seed `seed + j / (W - 1)`,
/// a full window of another uniform scalar under the same digit rule.
pub struct UniformDigits<C: zkmsm::InputCurve> {
    n: usize,
    plan: Plan,
    seed: u64,
    full_width: bool,
    _curve: PhantomData<fn() -> C>,
}

impl<C: zkmsm::InputCurve> UniformDigits<C> {
    /// The digits of `random_scalars::<C>(n, seed)` under `plan`, every window a full one when
    /// `full_width` (needs at least two windows).
    pub fn new(n: usize, plan: Plan, seed: u64, full_width: bool) -> Self {
        assert!(!full_width || plan.windows >= 2, "full-width windows need at least two windows");
        Self { n, plan, seed, full_width, _curve: PhantomData }
    }

    fn with_scalar<R>(&self, seed: u64, i: usize, f: impl FnOnce(&ScalarLimbs) -> R) -> R {
        let chunk = i / CHUNK;
        let len = CHUNK.min(self.n - chunk * CHUNK);
        let key = (C::NAME, seed, chunk, len);
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            let hit = match c.iter().position(|e| e.0 == key) {
                Some(k) => k,
                None => {
                    if c.len() == CACHED_CHUNKS {
                        c.remove(0); // the oldest
                    }
                    c.push((key, random_scalars_chunk::<C>(seed, chunk, len)));
                    c.len() - 1
                }
            };
            f(&c[hit].1[i % CHUNK])
        })
    }
}

impl<C: zkmsm::InputCurve> DigitSource for UniformDigits<C> {
    fn len(&self) -> usize {
        self.n
    }
    fn windows(&self) -> usize {
        self.plan.windows as usize
    }
    fn window_bits(&self) -> u32 {
        self.plan.c
    }
    #[inline]
    fn digit(&self, i: usize, j: usize) -> i32 {
        let (seed, w) = if self.full_width {
            let full = self.plan.windows as usize - 1;
            (self.seed.wrapping_add((j / full) as u64), j % full)
        } else {
            (self.seed, j)
        };
        self.with_scalar(seed, i, |s| signed_digit(s, w as u32, &self.plan))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two sources of one seed and different sizes on one thread: the
    /// smaller one's short last chunk is not served to the larger one.
    #[test]
    fn sources_of_different_sizes_share_a_seed() {
        let plan = Plan::with_window(11, 253);
        let small = UniformDigits::<Bls12_377>::new(100, plan, 9, false);
        let big = UniformDigits::<Bls12_377>::new(CHUNK + 7, plan, 9, false);
        let want = random_scalars::<Bls12_377>(CHUNK + 7, 9);
        for i in [0, 99, 100, CHUNK - 1, CHUNK + 6] {
            if i < 100 {
                assert_eq!(small.digit(i, 3), signed_digit(&want[i], 3, &plan));
            }
            assert_eq!(big.digit(i, 3), signed_digit(&want[i], 3, &plan), "scalar {i}");
        }
        assert_eq!(small.digit(99, 0), signed_digit(&want[99], 0, &plan));
    }
    use zkmsm::gen::random_scalars;
    use zkmsm_curve::{Bls12_377, Bls12_381};

    #[test]
    fn uniform_digits_are_the_host_digits_of_the_host_scalars() {
        let n = CHUNK + 333;
        let plan = Plan::with_window(13, 253);
        let scalars = random_scalars::<Bls12_377>(n, 5);
        let host = HostDigits::new(&scalars, &plan);
        let streamed = UniformDigits::<Bls12_377>::new(n, plan, 5, false);
        // window-major and point-major walks both see the same digits
        for j in 0..host.windows() {
            for i in (0..n).step_by(7) {
                assert_eq!(streamed.digit(i, j), host.digit(i, j));
            }
        }
        for i in (0..n).step_by(101) {
            for j in 0..host.windows() {
                assert_eq!(streamed.digit(i, j), zkmsm::digits::signed_digit(&scalars[i], j as u32, &plan));
            }
        }
    }

    #[test]
    fn full_width_windows_are_full_windows_of_other_scalars() {
        let n = 500;
        let plan = Plan::with_window(16, 255);
        let d = UniformDigits::<Bls12_381>::new(n, plan, 3, true);
        let full = plan.windows as usize - 1;
        let a = random_scalars::<Bls12_381>(n, 3);
        let b = random_scalars::<Bls12_381>(n, 4);
        for i in 0..n {
            assert_eq!(d.digit(i, 2), signed_digit(&a[i], 2, &plan));
            assert_eq!(d.digit(i, full), signed_digit(&b[i], 0, &plan));
        }
        // every window then spans the whole signed range, the top one too
        let top = (0..n).map(|i| d.digit(i, full).unsigned_abs()).max().unwrap();
        assert!(top > 1 << 14, "{top}");
    }

    #[test]
    fn digits_are_spread_over_the_buckets() {
        let c = 6;
        let plan = Plan::with_window(c, 253);
        let u = UniformDigits::<Bls12_377>::new(20000, plan, 1, false);
        let mut hist = vec![0u32; plan.buckets + 1];
        for i in 0..u.len() {
            hist[u.digit(i, 3).unsigned_abs() as usize] += 1;
        }
        // Magnitudes 1..31 each get two signed values (~625 each); 0 and 32 one.
        for (m, &h) in hist.iter().enumerate() {
            let expect = if m == 0 || m == 32 { 312.5 } else { 625.0 };
            assert!((h as f64 - expect).abs() < 0.25 * expect, "m={m} h={h}");
        }
    }
}
