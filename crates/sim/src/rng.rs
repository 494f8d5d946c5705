//! Small, fast, deterministic pseudo-random numbers for the statistics mode.
//!
//! The model never needs cryptographic randomness: it needs digits that look
//! like those of uniform scalars, reproducibly, at a few nanoseconds each.

/// The SplitMix64 finaliser: a bijective 64-bit mixer with full avalanche.
#[inline(always)]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 generator (Steele, Lea, Flood 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.state)
    }

    /// Uniform in `0..bound` (bound > 0), by multiply-shift (bias below 2^-32
    /// for the bounds used here).
    #[inline(always)]
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_spread() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        let xs: Vec<u64> = (0..1000).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..1000).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // Each of 16 buckets of the top nibble gets roughly 1000/16 draws.
        let mut hist = [0u32; 16];
        for x in &xs {
            hist[(x >> 60) as usize] += 1;
        }
        assert!(hist.iter().all(|&h| (30..100).contains(&h)), "{hist:?}");
        let mut r = SplitMix64::new(1);
        assert!((0..1000).all(|_| r.below(10) < 10));
    }
}
