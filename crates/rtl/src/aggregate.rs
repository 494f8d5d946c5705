//! Bucket aggregation on the device (rtl/src/zk_core_agg.sv, register AGG):
//! the program the core runs on a window's buckets, which of them it then
//! sends, and the host's part of the window's sum.
//!
//! A window's buckets k = g m + i (G groups of m = 2^lm) are reduced in
//! place: a chain of running sums inside every group, then a tree over each
//! group's running sums but the first, so that B[g m] holds the group's
//! total S_g and B[g m + 1] holds X_g = sum_{i >= 1} R_{g,i}. Since
//! sum_k (k+1) B_k = sum_g (X_g + S_g) + m sum_g g S_g, the host needs those
//! 2G values, 3G additions and lm doublings instead of 2^(c-1) buckets and
//! 2^c additions. The spread last window (the core spreads a narrow window
//! over copies of 2^tb buckets) takes its copies as groups (m = 2^tb), and
//! the host drops the m g S_g term: each copy carries the weights 1..2^tb.

use zkmsm::{Bucket, MsmCurve};

/// One addition of the program: `B[dst] += B[src]`.
pub use zkmsm_sim::sched::core::AggOp as Op;

/// The program the core runs on a window of `buckets` buckets with groups
/// of 2^`log_m`, step by step in the core's order (the cycle model's
/// `agg_program`, which it times).
pub fn program(buckets: usize, log_m: u32) -> Vec<Vec<Op>> {
    zkmsm_sim::sched::core::agg_program(buckets, log_m)
}

/// Whether the core sends bucket `k` of a window aggregated with groups of
/// 2^`log_m` (0: every bucket).
pub fn sent(k: usize, log_m: u32) -> bool {
    log_m == 0 || k & ((1 << log_m) - 1) < 2
}

/// log2 of a window's group as the core takes it (the cycle model's
/// `agg_window_log_m`): the register's `log_m` (0: off) at most c - 1, or
/// the spread last window's tb.
pub fn window_log_m(log_m: u32, c: u32, spread: Option<u32>, last: bool) -> u32 {
    zkmsm_sim::sched::core::agg_window_log_m(log_m, c, spread, last)
}

/// The group the host asks for by default
/// (`zkmsm_sim::sched::core::CoreSched::default_agg_log_m`, the rule the
/// timeline projects with): the host's share falls as the MSM grows (2G =
/// 2^(c-lm) values a window).
pub fn default_log_m(n: usize, c: u32, windows_per_core: u32, hz: u32) -> u32 {
    zkmsm_sim::sched::core::CoreSched::default_agg_log_m(n, c, windows_per_core, hz)
}

/// Run the program on host values: what the core leaves in a window's
/// bucket bank (tests check the host's part against plain aggregation this
/// way, without a simulation).
pub fn emulate<C: MsmCurve, B: Bucket<C>>(buckets: &mut [B], log_m: u32) {
    for step in program(buckets.len(), log_m) {
        for (dst, src) in step {
            buckets[dst] = buckets[dst].add(&buckets[src]);
        }
    }
}

/// The window's sum sum_k (k+1) B_k from what the core sent: `window`
/// holds the window's 2^(c-1) places, of which only the sent ones
/// ([`sent`]) are read; `spread`: the spread last window (no g m S_g term).
pub fn window_sum<C: MsmCurve, B: Bucket<C>>(window: &[B], log_m: u32, spread: bool) -> B {
    let m = 1usize << log_m;
    let groups = window.len() >> log_m;
    let mut total = B::identity(); // sum X_g + S_g
    let mut running = B::identity(); // sum_{h >= g} S_h
    let mut weighted = B::identity(); // sum_g g S_g
    for g in (0..groups).rev() {
        let s = window[g * m];
        total = total.add(&s);
        if m >= 2 {
            total = total.add(&window[g * m + 1]);
        }
        if !spread && g > 0 {
            running = running.add(&s);
            weighted = weighted.add(&running);
        }
    }
    for _ in 0..log_m {
        weighted = weighted.double();
    }
    total.add(&weighted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm::bucket_aggregation::running_sum;
    use zkmsm_curve::{Bls12_381, SwCurve, Xyzz};

    fn window(n: usize, seed: u64) -> Vec<Xyzz<Bls12_381>> {
        let g = Bls12_381::generator();
        (0..n as u64)
            .map(|i| match (i * 7 + seed) % 5 {
                0 => Xyzz::identity(),          // empty buckets
                1 => g.mul_bigint(&[seed + 1]), // equal buckets (doublings in the program)
                _ => g.mul_bigint(&[i * i + seed * 13 + 3]),
            })
            .collect()
    }

    #[test]
    fn device_program_and_host_part_equal_the_running_sum() {
        for nb in [1usize, 2, 4, 8, 64, 512] {
            for lm in 0..=nb.trailing_zeros() {
                let b = window(nb, lm as u64);
                let want = running_sum::<Bls12_381, _>(&b);
                let mut dev = b.clone();
                emulate::<Bls12_381, _>(&mut dev, lm);
                // what the core does not send is not read
                for (k, v) in dev.iter_mut().enumerate() {
                    if !sent(k, lm) {
                        *v = Bls12_381::generator().mul_bigint(&[99]);
                    }
                }
                assert_eq!(window_sum::<Bls12_381, _>(&dev, lm, false), want, "{nb} buckets, m = 2^{lm}");
            }
        }
    }

    #[test]
    fn spread_window_groups_are_its_copies() {
        // copies of 2^tb buckets: the window's sum is sum_copy sum_i (i+1) B
        for (nb, tb) in [(64usize, 0u32), (64, 2), (512, 5), (8, 2)] {
            let b = window(nb, tb as u64 + 5);
            let k = 1usize << tb;
            let mut folded = vec![Xyzz::<Bls12_381>::identity(); k];
            for (i, v) in b.iter().enumerate() {
                folded[i % k] = folded[i % k].add(v);
            }
            let want = running_sum::<Bls12_381, _>(&folded);
            let mut dev = b.clone();
            emulate::<Bls12_381, _>(&mut dev, tb);
            assert_eq!(window_sum::<Bls12_381, _>(&dev, tb, true), want, "{nb} buckets, tb {tb}");
        }
    }

    #[test]
    fn program_steps_are_independent_and_cover_each_group() {
        for (nb, lm) in [(16usize, 4u32), (64, 3), (8, 1), (32, 5)] {
            let steps = program(nb, lm);
            let m = 1usize << lm;
            let groups = nb >> lm;
            let tree_levels = (1..).map(|l| 1usize << (l - 1)).take_while(|&d| d + 1 < m).count();
            assert_eq!(steps.len(), m - 1 + tree_levels);
            for step in &steps {
                // no operation reads or writes what another of its step writes
                let dsts: std::collections::HashSet<usize> = step.iter().map(|o| o.0).collect();
                assert_eq!(dsts.len(), step.len());
                assert!(step.iter().all(|o| !dsts.contains(&o.1) && o.0 / m == o.1 / m && o.0 < nb && o.1 < nb));
            }
            let ops: usize = steps.iter().map(|s| s.len()).sum();
            // m - 1 chain additions and m - 2 tree additions per group
            assert_eq!(ops, groups * (m - 1 + m.saturating_sub(2)));
        }
    }

    #[test]
    fn window_groups_follow_the_register() {
        assert_eq!(window_log_m(5, 4, None, false), 3);
        assert_eq!(window_log_m(5, 13, Some(6), true), 6);
        assert_eq!(window_log_m(5, 13, Some(6), false), 5);
        assert_eq!(window_log_m(0, 13, Some(6), true), 0);
    }
}
