//! Fixed-base precomputation (the papers' setting: the points are fixed across
//! many MSMs). With a precompute factor m, init stores m shifted copies
//! P_i^(j) = 2^(j g c) P_i, g = ceil(W / m); window w = j g + t then adds into
//! bucket set t using copy j. Only g bucket sets are aggregated and only g - 1
//! rounds of c doublings remain; with m = W, one bucket set and no doublings.
//! Memory: m times the points. The window size is fixed at init.

use crate::pipeline::digits::{extend_window_digits, ScalarLimbs};
use crate::pipeline::plan::{Plan, MAX_PLANNED_C};
use rayon::prelude::*;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};

/// The shape of a precomputation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Precompute {
    /// Copies of the points (memory factor).
    pub copies: u32,
    /// Windows served by one bucket set: ceil(W / copies).
    pub sets: u32,
    /// The window plan, fixed at init.
    pub plan: Plan,
}

impl Precompute {
    /// `copies` copies for `plan` (clamped to 1..=W: more than one copy per window buys nothing).
    pub fn new(plan: Plan, copies: u32) -> Self {
        let copies = copies.clamp(1, plan.windows);
        let sets = plan.windows.div_ceil(copies);
        // no more copies than needed to cover the windows
        let copies = plan.windows.div_ceil(sets);
        Self { copies, sets, plan }
    }

    /// The window minimizing the work for n points with `copies` copies:
    /// n W additions, plus 2 per bucket of each of the `sets` bucket sets.
    /// (Up to [`MAX_PLANNED_C`]: larger bucket sets miss the caches.)
    pub fn for_size(n: usize, copies: u32, scalar_bits: u32) -> Self {
        (1..=MAX_PLANNED_C)
            .map(|c| Self::new(Plan::with_window(c, scalar_bits), copies))
            .min_by(|a, b| a.cost(n).total_cmp(&b.cost(n)))
            .unwrap()
    }

    /// Estimated additions for n points: one per point and window, plus each bucket set's
    /// aggregation (2 additions a bucket) and its c doublings.
    pub fn cost(&self, n: usize) -> f64 {
        let p = &self.plan;
        (n as f64) * p.windows as f64 + self.sets as f64 * (2.0 * p.buckets as f64 + p.c as f64)
    }

    /// Shifted copies, copy-major: [P^(0) | P^(1) | ...].
    pub fn shifted_copies<C: MsmCurve>(&self, points: &[Affine<C>]) -> Vec<Affine<C>> {
        self.shifted_copies_owned(points.to_vec())
    }

    /// As [`Self::shifted_copies`], growing the given vector (its points become
    /// copy 0) instead of copying it.
    pub fn shifted_copies_owned<C: MsmCurve>(&self, points: Vec<Affine<C>>) -> Vec<Affine<C>> {
        let shift = self.sets * self.plan.c;
        let n = points.len();
        let mut all = points;
        all.reserve_exact(n * (self.copies as usize - 1));
        for j in 1..self.copies as usize {
            let previous = &all[(j - 1) * n..j * n];
            let current: Vec<Affine<C>> = previous
                .par_chunks(1024)
                .flat_map_iter(|chunk| {
                    let shifted: Vec<Xyzz<C>> = chunk
                        .iter()
                        .map(|p| {
                            let mut q = p.to_xyzz();
                            for _ in 0..shift {
                                q = q.double();
                            }
                            q
                        })
                        .collect();
                    Xyzz::batch_to_affine(&shifted)
                })
                .collect();
            all.extend_from_slice(&current);
        }
        all
    }

    /// The digit stream of bucket set `t`, `copies * n` long, matching
    /// [`Self::shifted_copies`]: for copy j, the digits of window j g + t
    /// (zeros past the last window). The MSM makes each set's stream in that
    /// set's task, so only the sets being accumulated hold digits.
    pub fn stream(&self, t: u32, scalars: &[ScalarLimbs]) -> Vec<i32> {
        let mut out = Vec::with_capacity(self.copies as usize * scalars.len());
        for j in 0..self.copies {
            extend_window_digits(&mut out, scalars, j * self.sets + t, &self.plan);
        }
        out
    }

    /// Regroup window digits (window-major, n per window) into the digit
    /// streams of all the bucket sets at once, each `copies * n` long, matching
    /// [`Self::shifted_copies`]; the all-at-once form of [`Self::stream`], kept
    /// as its reference in tests.
    pub fn regroup(&self, windows: &[Vec<i32>], n: usize) -> Vec<Vec<i32>> {
        (0..self.sets)
            .into_par_iter()
            .map(|t| {
                let mut out = Vec::with_capacity(self.copies as usize * n);
                for j in 0..self.copies {
                    match windows.get((j * self.sets + t) as usize) {
                        Some(w) => out.extend_from_slice(w),
                        None => out.resize(out.len() + n, 0),
                    }
                }
                out
            })
            .collect()
    }
}
