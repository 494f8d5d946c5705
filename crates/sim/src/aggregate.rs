//! Bucket aggregation `sum_k k * S_k` as small dataflow programs run on a
//! modelled adder pipeline, in cycles, and (functional mode) on real points.
//!
//! * [`serial`]: CycloneMSM Algorithm 3 (running sum): `R += T; T += S_k`
//!   for k from the top bucket down.
//! * [`partitioned`]: PriorMSM Section 3.2 / Appendix A with H groups of M
//!   buckets (equation 14): per group a running sum of the group's own
//!   weights, the H chains interleaved in the pipeline; then
//!   `M * sum_h (h-1) G_h` by a running sum over the group totals and
//!   log2(M) doublings; then a tree over the H partial results.
//!
//! A program is run by an in-order issue model: operation i issues at the
//! first cycle >= (previous issue + issue interval) at which its operands
//! are ready, and its result is ready `latency` cycles later. With
//! `blocking`, an operation also waits for the previous one's result (a
//! controller with one addition in flight, as CycloneMSM's latency estimate
//! assumes).

use crate::datapath::Datapath;

/// An operand of an aggregation operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// The identity.
    Zero,
    /// Bucket with weight `k + 1` (index k).
    Bucket(usize),
    /// The result of operation `i` of the program.
    Op(usize),
}

/// What an operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// a + b.
    Add,
    /// 2a (b unused).
    Double,
}

/// One operation of a [`Program`].
#[derive(Clone, Copy, Debug)]
pub struct Op {
    /// Addition or doubling.
    pub kind: Kind,
    /// The first operand.
    pub a: Src,
    /// The second operand.
    pub b: Src,
}

/// A straight-line program over buckets.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The operations, in issue order.
    pub ops: Vec<Op>,
    /// Where the aggregate ends up (`None` for an empty program).
    pub result: Option<Src>,
}

impl Program {
    fn push(&mut self, kind: Kind, a: Src, b: Src) -> Src {
        self.ops.push(Op { kind, a, b });
        Src::Op(self.ops.len() - 1)
    }
    fn add(&mut self, a: Src, b: Src) -> Src {
        match (a, b) {
            (Src::Zero, x) | (x, Src::Zero) => x,
            _ => self.push(Kind::Add, a, b),
        }
    }
    fn double(&mut self, a: Src) -> Src {
        if a == Src::Zero {
            a
        } else {
            self.push(Kind::Double, a, Src::Zero)
        }
    }

    /// Cycles to run the program on a pipeline with the given result
    /// latency and issue interval (cycles an operation occupies the input).
    pub fn cycles(&self, latency: u64, issue_interval: u64, blocking: bool) -> u64 {
        let mut ready = vec![0u64; self.ops.len()];
        let mut next_issue = 0u64;
        let mut end = 0u64;
        let at = |s: Src, ready: &[u64]| match s {
            Src::Op(i) => ready[i],
            _ => 0,
        };
        for (i, op) in self.ops.iter().enumerate() {
            let t = next_issue.max(at(op.a, &ready)).max(at(op.b, &ready));
            ready[i] = t + latency;
            end = end.max(ready[i]);
            next_issue = if blocking { t + latency } else { t + issue_interval };
        }
        end
    }

    /// Number of additions.
    pub fn adds(&self) -> usize {
        self.ops.iter().filter(|o| o.kind == Kind::Add).count()
    }

    /// Number of doublings.
    pub fn doubles(&self) -> usize {
        self.ops.iter().filter(|o| o.kind == Kind::Double).count()
    }

    /// Run the program on real values.
    pub fn eval<D: Datapath>(&self, dp: &D, buckets: &[Option<D::V>]) -> D::V {
        let mut vals: Vec<D::V> = Vec::with_capacity(self.ops.len());
        let get = |s: Src, vals: &[D::V]| -> D::V {
            match s {
                Src::Zero => dp.zero(),
                Src::Bucket(k) => buckets[k].clone().unwrap_or_else(|| dp.zero()),
                Src::Op(i) => vals[i].clone(),
            }
        };
        for op in &self.ops {
            let a = get(op.a, &vals);
            let v = match op.kind {
                Kind::Add => dp.add(&a, &get(op.b, &vals)),
                Kind::Double => dp.double(&a),
            };
            vals.push(v);
        }
        match self.result {
            Some(r) => get(r, &vals),
            None => dp.zero(),
        }
    }
}

/// CycloneMSM Algorithm 3 over `nb` buckets (weights 1..=nb).
pub fn serial(nb: usize) -> Program {
    let mut p = Program::default();
    if nb == 0 {
        return p;
    }
    let mut r = Src::Zero;
    let mut t = Src::Bucket(nb - 1);
    for k in (0..nb - 1).rev() {
        // The hardware adds even when an operand is the identity: use
        // explicit operations so the cycle count is data-independent. The
        // chain runs through T, so T's update is issued first.
        let old = t;
        t = p.push(Kind::Add, t, Src::Bucket(k));
        r = p.push(Kind::Add, r, old);
    }
    r = p.push(Kind::Add, r, t);
    p.result = Some(r);
    p
}

/// PriorMSM partitioned aggregation with `h` groups (a power of two
/// dividing `nb`, or 1).
pub fn partitioned(nb: usize, h: usize) -> Program {
    assert!(h >= 1 && h.is_power_of_two(), "groups must be a power of two");
    if h == 1 || nb < 2 * h || !nb.is_multiple_of(h) {
        return serial(nb);
    }
    let m = nb / h;
    let mut p = Program::default();
    // Step 1: H running sums interleaved, bucket by bucket from the top of
    // each group. Group g (0-based) holds buckets g*m .. g*m + m.
    let mut r = vec![Src::Zero; h];
    let mut t: Vec<Src> = (0..h).map(|g| Src::Bucket(g * m + m - 1)).collect();
    for j in (0..m - 1).rev() {
        let old = t.clone();
        for (g, tg) in t.iter_mut().enumerate() {
            *tg = p.push(Kind::Add, *tg, Src::Bucket(g * m + j));
        }
        for (rg, og) in r.iter_mut().zip(&old) {
            *rg = p.push(Kind::Add, *rg, *og);
        }
    }
    for (rg, tg) in r.iter_mut().zip(&t) {
        *rg = p.push(Kind::Add, *rg, *tg);
    }
    // Now r[g] = sum_j (j+1) S_{g*m+j} and t[g] = G_g = sum_j S_{g*m+j}.
    // Step 2: sum_g g * G_g by a running sum over groups, then times m.
    let mut r2 = Src::Zero;
    let mut t2 = t[h - 1];
    for g in (1..h - 1).rev() {
        let old = t2;
        t2 = p.push(Kind::Add, t2, t[g]);
        r2 = p.push(Kind::Add, r2, old);
    }
    r2 = p.push(Kind::Add, r2, t2);
    // Times m by double-and-add over the bits of m (log2(m) doublings when
    // m is a power of two).
    let mut second = r2;
    let top = usize::BITS - 1 - m.leading_zeros();
    for bit in (0..top).rev() {
        second = p.double(second);
        if (m >> bit) & 1 == 1 {
            second = p.add(second, r2);
        }
    }
    // Step 3: tree over the H first terms, then the second term.
    let mut level = r;
    while level.len() > 1 {
        let mut nextl = Vec::with_capacity(level.len() / 2);
        for pair in level.chunks(2) {
            nextl.push(if pair.len() == 2 { p.push(Kind::Add, pair[0], pair[1]) } else { pair[0] });
        }
        level = nextl;
    }
    let res = p.push(Kind::Add, level[0], second);
    p.result = Some(res);
    p
}

/// PriorMSM equation (20): optimized aggregation cycles per reduced MSM.
pub fn prior_eq20(c: u32, h: u64, d: u64) -> f64 {
    let m = (1u64 << c) as f64 / h as f64;
    ((c as f64 + m - 1.0) + 2.0 * (h as f64).log2()) * d as f64 + 2.0 * h as f64
}

/// PriorMSM equation (21): naive aggregation cycles per reduced MSM.
pub fn prior_eq21(c: u32, d: u64) -> f64 {
    (((1u64 << c) - 1) * d) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datapath::Datapath;

    /// Integers under addition: checks the programs compute sum_k k S_k.
    struct Ints;
    impl Datapath for Ints {
        type V = i64;
        const FUNCTIONAL: bool = true;
        fn input(&self, i: u32, neg: bool) -> i64 {
            if neg {
                -(i as i64)
            } else {
                i as i64
            }
        }
        fn add(&self, a: &i64, b: &i64) -> i64 {
            a + b
        }
        fn double(&self, a: &i64) -> i64 {
            2 * a
        }
        fn zero(&self) -> i64 {
            0
        }
    }

    fn expect(b: &[Option<i64>]) -> i64 {
        b.iter().enumerate().map(|(k, v)| (k as i64 + 1) * v.unwrap_or(0)).sum()
    }

    #[test]
    fn programs_compute_weighted_sum() {
        for nb in [1usize, 2, 3, 8, 16, 64, 96, 2048] {
            let b: Vec<Option<i64>> =
                (0..nb).map(|k| if k % 5 == 3 { None } else { Some((k as i64 * 7919) % 1013 - 500) }).collect();
            assert_eq!(serial(nb).eval(&Ints, &b), expect(&b), "serial nb={nb}");
            for h in [1usize, 2, 4, 16] {
                let p = partitioned(nb, h);
                assert_eq!(p.eval(&Ints, &b), expect(&b), "partitioned nb={nb} h={h}");
            }
        }
    }

    #[test]
    fn serial_cycle_counts() {
        let p = serial(1024);
        assert_eq!(p.adds(), 2 * 1023 + 1);
        // Blocking: every addition waits for the previous one.
        assert_eq!(p.cycles(100, 2, true), p.adds() as u64 * 100);
        // In-order, non-blocking: the two additions of a step overlap, the
        // chain through T costs one latency per bucket.
        let c = p.cycles(100, 2, false);
        assert!(c > 1023 * 100 && c < 1023 * 103 + 200, "{c}");
    }

    #[test]
    fn partitioned_tracks_equation_20() {
        // c = 16, H = 16, D = 87: equation (20) gives 6.29% of equation (21).
        let nb = (1usize << 16) - 1;
        let p = partitioned(nb + 1, 16); // 2^c slots, as the paper counts
        let ours = p.cycles(87, 1, false) as f64;
        let eq20 = prior_eq20(16, 16, 87);
        assert!((ours / eq20 - 1.0).abs() < 0.02, "ours {ours} eq20 {eq20}");
        let rate = eq20 / prior_eq21(16, 87);
        assert!((rate - 0.0629).abs() < 0.001, "{rate}");
    }
}
