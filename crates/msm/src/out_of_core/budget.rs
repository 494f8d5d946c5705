//! How many points a chunk holds under a memory budget: the budget, less
//! the buckets every thread keeps for one window, over a cost per point.
//! The window is the chunk's own (`--window`, or the plan for the chunk's
//! size), so a wide window leaves fewer points a chunk, and a window too
//! wide for the budget is refused with the least budget that would do.

use crate::error::MsmError;
use crate::pipeline::plan::Plan;

/// Bytes one point costs while its chunk is processed: the encoded point
/// and scalar read from the files and the next chunk's read ahead beside
/// them, the decoded point, the backend's prepared copy (twisted Edwards and
/// the IFMA engine keep a converted form beside it), the scalar limbs and
/// the per-window digits. Measured: docs/SCALE.md.
pub const BYTES_PER_POINT: usize = 768;

/// As [`BYTES_PER_POINT`] with GLV: twice it (the images double the
/// decoded and the prepared points and the digits; the encoded inputs and
/// the scalars do not, so this is an upper bound). Measured: docs/SCALE.md.
pub const BYTES_PER_POINT_GLV: usize = 2 * BYTES_PER_POINT;

/// A prepared file's point, besides its records (two chunks' records are
/// alive, the one in use and the one read ahead): the scalars read and read
/// ahead, their limbs, the digits, GLV's split halves.
pub const PREPARED_BYTES_PER_POINT: usize = 384;

/// Smallest chunk worth an MSM of its own.
pub const MIN_CHUNK_POINTS: usize = 1 << 10;

/// Bytes of one bucket, the most any engine keeps (four 48-byte
/// coordinates: XYZZ on the BLS12 curves; the lanes' affine buckets and
/// BN254's take less).
pub const BUCKET_BYTES: usize = 4 * 48;

/// Memory for the buckets of one window of c bits on each of `threads`
/// threads: 2^(c-1) buckets a thread.
pub fn bucket_reserve_for(c: u32, threads: usize) -> usize {
    threads.saturating_mul(1usize << (c.max(1) - 1)).saturating_mul(BUCKET_BYTES)
}

/// What a chunk costs and how its window is chosen.
#[derive(Debug, Clone, Copy)]
pub struct ChunkCost {
    /// Bytes a point.
    pub per_point: usize,
    /// The window asked for (`None`: the plan's for the chunk's size).
    pub window: Option<u32>,
    /// Scalar bits of the MSM (GLV: its halves).
    pub scalar_bits: u32,
    /// Points of the MSM a chunk point makes (2 with GLV images).
    pub msm_points_per_point: usize,
    /// Threads that each keep a window's buckets.
    pub threads: usize,
}

/// A chunk's size under a budget and the window its reserve was counted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkPlan {
    /// Points a chunk.
    pub points: usize,
    /// The window the bucket reserve counts.
    pub window: u32,
    /// The bucket reserve, bytes.
    pub reserve: usize,
}

impl ChunkCost {
    fn window_for(&self, points: usize) -> u32 {
        self.window.unwrap_or_else(|| {
            Plan::for_size_on(points.saturating_mul(self.msm_points_per_point), self.scalar_bits, self.threads).c
        })
    }

    fn reserve(&self, c: u32) -> usize {
        bucket_reserve_for(c, self.threads)
    }

    /// The least budget that works: a chunk of [`MIN_CHUNK_POINTS`] with
    /// its window's buckets.
    pub fn least(&self) -> usize {
        self.reserve(self.window_for(MIN_CHUNK_POINTS)) + MIN_CHUNK_POINTS * self.per_point
    }

    /// The budget whose chunk holds exactly `points` (their bytes and their
    /// window's buckets).
    pub fn budget_for(&self, points: usize) -> usize {
        self.reserve(self.window_for(points)) + points * self.per_point
    }

    /// The largest chunk whose points and window's buckets fit `budget`
    /// (the planned window shrinks with the chunk, so the two are found
    /// together: the largest chunk whose own window's reserve still fits),
    /// or an error saying the least budget that works.
    pub fn plan(&self, budget: usize, what: &str) -> Result<ChunkPlan, MsmError> {
        let least = self.least();
        if budget < least {
            let window = match self.window {
                Some(c) => format!(" with --window {c} on {} threads", self.threads),
                None => String::new(),
            };
            return Err(MsmError::Unsupported(format!(
                "memory budget {budget} bytes is below the least that works{what}{window}: {least} bytes ({} MiB)",
                // rounded up to hundredths: the figure shown is always enough
                (least as f64 / (1u64 << 20) as f64 * 100.0).ceil() / 100.0
            )));
        }
        let fits = |m: usize| self.reserve(self.window_for(m)) + m * self.per_point <= budget;
        // the window grows with the chunk, so `fits` holds up to some m and
        // not past it: bisect between the least chunk and the budget's bound
        let (mut lo, mut hi) = (MIN_CHUNK_POINTS, budget / self.per_point + 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let window = self.window_for(lo);
        Ok(ChunkPlan { points: lo, window, reserve: self.reserve(window) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(window: Option<u32>, threads: usize) -> ChunkCost {
        ChunkCost { per_point: BYTES_PER_POINT, window, scalar_bits: 255, msm_points_per_point: 1, threads }
    }

    #[test]
    fn chunk_and_buckets_fit_the_budget() {
        for threads in [1, 2, 16] {
            for window in [None, Some(8), Some(16), Some(18), Some(20)] {
                let c = cost(window, threads);
                for budget in [16usize << 20, 64 << 20, 1 << 30, 4 << 30] {
                    match c.plan(budget, "") {
                        Ok(p) => {
                            assert!(p.reserve + p.points * c.per_point <= budget, "{window:?} {threads} {budget}");
                            let c_next = c.window_for(p.points + 1);
                            assert!(c.reserve(c_next) + (p.points + 1) * c.per_point > budget, "not the largest");
                        }
                        Err(e) => assert!(budget < c.least(), "{e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn a_wide_window_is_refused_with_the_least_budget() {
        // 2^19 buckets of 192 bytes on 16 threads: 1.5 GiB
        let e = cost(Some(20), 16).plan(16 << 20, "").unwrap_err().to_string();
        assert!(e.contains("--window 20 on 16 threads"), "{e}");
        let least = bucket_reserve_for(20, 16) + MIN_CHUNK_POINTS * BYTES_PER_POINT;
        assert!(e.contains(&format!(": {least} bytes")), "{e}");
    }
}
