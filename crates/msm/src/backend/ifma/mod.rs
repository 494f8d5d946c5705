//! Batch-affine accumulation eight additions at a time (AVX-512 IFMA): the
//! arithmetic [`super::BatchAffineBackend`] runs on CPUs that have it.
//!
//! The same algorithm and the same scheduler seam as the scalar path, with
//! the arithmetic moved to [`field52`]: a batch's chord additions
//! are dealt to eight lanes; the prefix products of Montgomery's trick run as
//! eight independent chains; one scalar inversion serves all eight lanes.
//! Points are converted once at init to radix-2^52 limbs (128 bytes each).
//!
//! Special cases: an empty bucket is a flag, settled before the batch. Equal
//! x (P + P or P - P into a bucket) cannot be told from lazily reduced limbs,
//! but makes that lane's product zero; such a batch is redone by the scalar
//! code, which handles both cases exactly. Random inputs never hit it.

pub mod field52;

use super::{prefetch, PREFETCH_AHEAD};
use crate::scheduler::{BatchSink, Op, ScheduleStats, Scheduler};
use crate::Plan;
use core::arch::x86_64::*;
use field52::{gather, lane, scatter, Fe8, Field52, Limbs52, VConsts, LIMBS};
use rayon::prelude::*;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};
use zkmsm_field::PrimeField;

/// A point in limbs: x, y (Montgomery form for 2^416, canonical).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Point52 {
    pub x: Limbs52,
    pub y: Limbs52,
}

/// Marks the point at infinity in the free top bit of x.
const INFINITY_FLAG: u64 = 1 << 63;

impl Point52 {
    fn is_infinity(&self) -> bool {
        self.x.0[LIMBS - 1] & INFINITY_FLAG != 0
    }
}

pub struct IfmaPoints<C: MsmCurve> {
    pub points: Vec<Point52>,
    field: Field52<C::Base>,
}

/// Whether batch-affine runs here: AVX-512 F, DQ and IFMA present, and not
/// turned off with `ZKMSM_NO_IFMA=1` (to compare with the scalar path).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| field52::available() && std::env::var_os("ZKMSM_NO_IFMA").is_none_or(|v| v != "1"))
}

/// Batches of multiples of 8; not smaller than 256, or the one scalar
/// inversion per batch would dominate.
pub fn batch_size_for(buckets: usize) -> usize {
    (buckets / 16).clamp(256, 1024)
}

/// Lane slots of one batch: addresses of buckets and points, negation mask.
struct Slots {
    bucket_addr: Vec<u64>,
    point_addr: Vec<u64>,
    negate: Vec<u8>,
}

/// What pass A keeps per 8-lane step for pass B.
#[derive(Clone, Copy)]
struct Step {
    px: Fe8,
    py: Fe8,
    bx: Fe8,
    by: Fe8,
    den: Fe8,
    prefix: Fe8,
}

struct IfmaBuckets<'a, C: MsmCurve> {
    /// The operations' source points. A raw pointer so that aggregation can
    /// point one engine at another's buckets between batches.
    points: *const Point52,
    points_len: usize,
    field: &'a Field52<C::Base>,
    consts: VConsts,
    buckets: Vec<Point52>,
    occupied: Vec<bool>,
    side: Option<Vec<Xyzz<C>>>,
    /// Padding lanes: private buckets reset before each batch, and one point.
    pad_buckets: [Point52; 8],
    pad_start: Point52,
    pad_point: Point52,
    slots: Slots,
    steps: Vec<Step>,
    /// The batch's operations that reached the lanes, for the exact fallback.
    lane_ops: Vec<Op>,
}

impl<'a, C: MsmCurve> IfmaBuckets<'a, C> {
    fn affine(&self, p: &Point52) -> Affine<C> {
        Affine::new_unchecked(self.field.from_limbs52(&p.x), self.field.from_limbs52(&p.y))
    }

    fn limbs(&self, p: &Affine<C>) -> Point52 {
        convert(self.field, p)
    }

    fn new(field: &'a Field52<C::Base>, points: &[Point52], buckets: usize, batch: usize) -> Self {
        let g = C::generator();
        Self {
            points: points.as_ptr(),
            points_len: points.len(),
            field,
            // SAFETY: engines are only built after `prepare` checked the CPU.
            consts: unsafe { field.vconsts() },
            buckets: vec![Point52::default(); buckets],
            occupied: vec![false; buckets],
            side: None,
            pad_buckets: [Point52::default(); 8],
            pad_start: convert(field, &g),
            pad_point: convert(field, &g.to_xyzz().double().to_affine()),
            slots: Slots {
                bucket_addr: Vec::with_capacity(batch + 8),
                point_addr: Vec::with_capacity(batch + 8),
                negate: Vec::with_capacity(batch + 8),
            },
            steps: Vec::with_capacity(batch / 8 + 1),
            lane_ops: Vec::with_capacity(batch),
        }
    }

    #[inline]
    fn point_ref(&self, i: u32) -> &Point52 {
        assert!((i as usize) < self.points_len);
        // SAFETY: in bounds; the source outlives the engine and is not
        // written while a batch runs (see `aggregate`).
        unsafe { &*self.points.add(i as usize) }
    }

    fn signed_point(&self, op: &Op) -> Point52 {
        let p = *self.point_ref(op.point);
        if op.negate {
            Point52 { x: p.x, y: self.field.neg_limbs52(&p.y) }
        } else {
            p
        }
    }

    fn side_add(&mut self, bucket: u32, p: &Affine<C>) {
        let n = self.buckets.len();
        let side = self.side.get_or_insert_with(|| vec![Xyzz::identity(); n]);
        let o = &mut side[bucket as usize];
        *o = o.add_affine(p);
    }

    /// The lanes' operations done exactly in scalar arithmetic, one at a time
    /// (rare: only batches where some bucket meets its own point or its negation).
    fn exact(&mut self) {
        let ops = std::mem::take(&mut self.lane_ops);
        for op in &ops {
            let k = op.bucket as usize;
            let p = self.affine(&self.signed_point(op));
            let b = if self.occupied[k] { self.affine(&self.buckets[k]) } else { Affine::identity() };
            let sum = if b.infinity {
                p
            } else if b.x != p.x {
                b.add_reference(&p)
            } else if b.y == p.y {
                Xyzz::from_affine(&b).double().to_affine()
            } else {
                Affine::identity()
            };
            self.occupied[k] = !sum.infinity;
            if !sum.infinity {
                self.buckets[k] = self.limbs(&sum);
            }
        }
        self.lane_ops = ops;
    }

    /// Pass A, the inversion and pass B over the lane slots.
    #[target_feature(enable = "avx512f,avx512ifma,avx512dq")]
    unsafe fn run_lanes(&mut self) {
        let k = self.consts;
        let steps = self.slots.bucket_addr.len() / 8;
        self.steps.clear();
        let one = self.field.to_limbs52(&C::Base::ONE);
        let mut acc = field52::from_lanes(&[one; 8]);
        for s in 0..steps {
            let baddr = _mm512_loadu_si512(self.slots.bucket_addr[8 * s..].as_ptr() as *const _);
            let paddr = _mm512_loadu_si512(self.slots.point_addr[8 * s..].as_ptr() as *const _);
            let mut neg = 0u8;
            for l in 0..8 {
                neg |= self.slots.negate[8 * s + l] << l;
            }
            let px = gather(paddr);
            let py = k.neg_where(&gather(_mm512_add_epi64(paddr, _mm512_set1_epi64(64))), neg);
            let bx = gather(baddr);
            let by = gather(_mm512_add_epi64(baddr, _mm512_set1_epi64(64)));
            let den = k.sub(&px, &bx, &k.q4);
            self.steps.push(Step { px, py, bx, by, den, prefix: acc });
            acc = k.mul(&acc, &den);
        }
        // One scalar inversion for the eight lane products.
        let prods: [C::Base; 8] = core::array::from_fn(|l| self.field.from_limbs52(&lane(&acc, l)));
        if prods.iter().any(|p| p.is_zero()) {
            self.exact();
            return;
        }
        let mut all = C::Base::ONE;
        let mut prefix = [C::Base::ONE; 8];
        for l in 0..8 {
            prefix[l] = all;
            all *= prods[l];
        }
        let mut inv_all = all.inverse().expect("non-zero product");
        let mut invs = [Limbs52::default(); 8];
        for l in (0..8).rev() {
            invs[l] = self.field.to_limbs52(&(inv_all * prefix[l]));
            inv_all *= prods[l];
        }
        let mut inv = field52::from_lanes(&invs);
        for s in (0..steps).rev() {
            let st = &self.steps[s];
            let inv_s = k.mul(&inv, &st.prefix);
            inv = k.mul(&inv, &st.den);
            let dy = k.sub(&st.py, &st.by, &k.q4);
            let lambda = k.mul(&dy, &inv_s);
            let x3 = k.reduce(&k.sub2(&k.square(&lambda), &st.bx, &st.px, &k.q8));
            let t = k.sub(&st.bx, &x3, &k.q4);
            let y3 = k.reduce(&k.sub(&k.mul(&lambda, &t), &st.by, &k.q4));
            let baddr = _mm512_loadu_si512(self.slots.bucket_addr[8 * s..].as_ptr() as *const _);
            scatter(baddr, &x3);
            scatter(_mm512_add_epi64(baddr, _mm512_set1_epi64(64)), &y3);
        }
    }
}

impl<C: MsmCurve> BatchSink for IfmaBuckets<'_, C> {
    fn execute(&mut self, batch: &[Op]) {
        self.slots.bucket_addr.clear();
        self.slots.point_addr.clear();
        self.slots.negate.clear();
        self.lane_ops.clear();
        for (i, op) in batch.iter().enumerate() {
            if let Some(ahead) = batch.get(i + PREFETCH_AHEAD) {
                prefetch(&self.buckets[ahead.bucket as usize]);
            }
            let k = op.bucket as usize;
            if !self.occupied[k] {
                self.buckets[k] = self.signed_point(op);
                self.occupied[k] = true;
                continue;
            }
            self.slots.bucket_addr.push(&self.buckets[k] as *const Point52 as u64);
            self.slots.point_addr.push(self.point_ref(op.point) as *const Point52 as u64);
            self.slots.negate.push(op.negate as u8);
            self.lane_ops.push(*op);
        }
        if self.lane_ops.is_empty() {
            return;
        }
        // Pad to whole steps with additions into private buckets.
        self.pad_buckets = [self.pad_start; 8];
        let mut l = 0;
        while !self.slots.bucket_addr.len().is_multiple_of(8) {
            self.slots.bucket_addr.push(&self.pad_buckets[l] as *const Point52 as u64);
            self.slots.point_addr.push(&self.pad_point as *const Point52 as u64);
            self.slots.negate.push(0);
            l += 1;
        }
        // SAFETY: the backend is only built where `field52::available()`;
        // every address in the slots points at a live Point52.
        unsafe { self.run_lanes() }
    }

    fn overflow(&mut self, op: Op) {
        let p = self.affine(&self.signed_point(&op));
        self.side_add(op.bucket, &p);
    }
}

fn convert<C: MsmCurve>(field: &Field52<C::Base>, p: &Affine<C>) -> Point52 {
    if p.infinity {
        let mut z = Point52::default();
        z.x.0[LIMBS - 1] = INFINITY_FLAG;
        z
    } else {
        Point52 { x: field.to_limbs52(&p.x), y: field.to_limbs52(&p.y) }
    }
}

fn field<C: MsmCurve>() -> Field52<C::Base> {
    assert!(field52::available(), "the IFMA path needs AVX-512 IFMA");
    Field52::<C::Base>::new().expect("a BLS12 base field (48 bytes, q < 2^382)")
}

/// Convert points once (callers check [`enabled`] first).
pub fn prepare<C: MsmCurve>(points: &[Affine<C>]) -> IfmaPoints<C> {
    let field = field::<C>();
    let points = points.par_iter().map(|p| convert(&field, p)).collect();
    IfmaPoints { points, field }
}

/// As [`prepare`], freeing the affine points as they are converted (from the
/// end, shrinking the source), so init never holds both sets in full.
pub fn prepare_owned<C: MsmCurve>(mut points: Vec<Affine<C>>) -> IfmaPoints<C> {
    const CHUNK: usize = 1 << 16;
    let field = field::<C>();
    let n = points.len();
    let mut out: Vec<Point52> = Vec::with_capacity(n);
    let spare = out.spare_capacity_mut();
    while !points.is_empty() {
        let lo = points.len().saturating_sub(CHUNK);
        spare[lo..points.len()].par_iter_mut().zip(&points[lo..]).for_each(|(o, p)| {
            o.write(convert(&field, p));
        });
        points.truncate(lo);
        points.shrink_to_fit();
    }
    // SAFETY: the loop wrote every slot 0..n exactly once.
    unsafe { out.set_len(n) };
    IfmaPoints { points: out, field }
}

/// One window's buckets, scheduled by `scheduler` in batches of `batch`,
/// with what the scheduler did.
pub fn accumulate<'a, C: MsmCurve>(
    prepared: &'a IfmaPoints<C>,
    digits: &[i32],
    plan: &Plan,
    scheduler: &dyn Scheduler,
    batch: usize,
) -> (IfmaWindow<'a, C>, ScheduleStats) {
    let batch = batch.max(1);
    let mut engine = IfmaBuckets::<C>::new(&prepared.field, &prepared.points, plan.buckets, batch);
    let points = &prepared.points;
    let mut ops = digits
        .iter()
        .enumerate()
        .filter(|&(i, &d)| d != 0 && !points[i].is_infinity())
        .map(|(i, &d)| Op::from_digit(i, d));
    let st = scheduler.schedule(&mut ops, plan.buckets, batch, &mut engine);
    (IfmaWindow(engine), st)
}

/// One window's filled buckets, still in limbs.
pub struct IfmaWindow<'a, C: MsmCurve>(IfmaBuckets<'a, C>);

impl<C: MsmCurve> IfmaWindow<'_, C> {
    /// The buckets as XYZZ points (for the shared aggregation).
    pub fn into_buckets(self) -> Vec<Xyzz<C>> {
        let mut engine = self.0;
        let side = engine.side.take();
        let affine = engine.buckets.iter().zip(&engine.occupied).map(|(b, &occ)| {
            if occ {
                Xyzz::from_affine(&engine.affine(b))
            } else {
                Xyzz::identity()
            }
        });
        match side {
            None => affine.collect(),
            Some(side) => affine.zip(side).map(|(a, s)| s.add(&a)).collect(),
        }
    }

    /// The window's sum sum_k (k+1) B_k, aggregated in lanes.
    pub fn sum(self) -> Xyzz<C> {
        let mut engine = self.0;
        engine.fold_side();
        aggregate(&engine)
    }
}

impl<C: MsmCurve> IfmaBuckets<'_, C> {
    /// Add the projective side buckets (overflowed operations) into the
    /// affine ones, so that aggregation sees one bucket set.
    fn fold_side(&mut self) {
        let Some(side) = self.side.take() else { return };
        let (idx, pts): (Vec<u32>, Vec<Xyzz<C>>) =
            side.iter().enumerate().filter(|(_, s)| !s.is_identity()).map(|(k, s)| (k as u32, *s)).unzip();
        let limbs: Vec<Point52> = Xyzz::batch_to_affine(&pts).iter().map(|p| self.limbs(p)).collect();
        let (saved, saved_len) = (self.points, self.points_len);
        self.points = limbs.as_ptr();
        self.points_len = limbs.len();
        let ops: Vec<Op> =
            idx.iter().enumerate().map(|(j, &k)| Op { point: j as u32, bucket: k, negate: false }).collect();
        for chunk in ops.chunks(1024) {
            self.execute(chunk);
        }
        (self.points, self.points_len) = (saved, saved_len);
    }
}

/// PriorMSM's partitioned aggregation with the groups as lanes: G groups of
/// consecutive buckets each keep a running sum R_g and a total T_g; one step
/// adds the next bucket (from the top) into every R_g as one batch, then
/// every R_g into its T_g as another. The window sum is
/// sum_g T_g + size * sum_g g R_g, the last by a short running sum over groups.
fn aggregate<C: MsmCurve>(win: &IfmaBuckets<'_, C>) -> Xyzz<C> {
    let nb = win.buckets.len();
    let groups = (nb / 16).clamp(1, 256);
    let size = nb.div_ceil(groups);
    let mut running = IfmaBuckets::<C>::new(win.field, &win.buckets, groups, groups);
    let mut total = IfmaBuckets::<C>::new(win.field, &running.buckets, groups, groups);
    let mut ops = Vec::with_capacity(groups);
    for s in (0..size).rev() {
        ops.clear();
        for g in 0..groups {
            let k = g * size + s;
            if k < nb && win.occupied[k] {
                ops.push(Op { point: k as u32, bucket: g as u32, negate: false });
            }
        }
        running.execute(&ops);
        ops.clear();
        ops.extend((0..groups).filter(|&g| running.occupied[g]).map(|g| Op {
            point: g as u32,
            bucket: g as u32,
            negate: false,
        }));
        // `total` reads `running.buckets` (fixed allocation), not written now.
        total.execute(&ops);
    }
    let xyzz = |e: &IfmaBuckets<'_, C>, g: usize| {
        if e.occupied[g] {
            Xyzz::from_affine(&e.affine(&e.buckets[g]))
        } else {
            Xyzz::identity()
        }
    };
    let mut sum = Xyzz::identity();
    let (mut run, mut acc) = (Xyzz::identity(), Xyzz::identity());
    for g in (0..groups).rev() {
        sum = sum.add(&xyzz(&total, g));
        if g > 0 {
            run = run.add(&xyzz(&running, g));
            acc = acc.add(&run);
        }
    }
    sum.add(&acc.mul_bigint(&[size as u64]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_curve::Bls12_381;

    /// Lane aggregation equals the shared XYZZ running sum, on random digits
    /// and on inputs that force equal x in the lanes (repeated points, P and
    /// -P, one bucket for everything) and overflow into side buckets.
    #[test]
    fn window_sum_equals_shared_aggregation() {
        use crate::bucket_aggregation::running_sum;
        use crate::scheduler::{DelayedScheduler, GreedyScheduler};
        if !field52::available() {
            return;
        }
        let base = crate::gen::random_points::<Bls12_381>(3000, 5).points;
        let mut state = 99u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for c in [3u32, 6, 11] {
            let plan = Plan::with_window(c, 255);
            let nb = plan.buckets as u64;
            let cases: Vec<(Vec<Affine<Bls12_381>>, Vec<i32>)> = vec![
                (base.clone(), (0..3000).map(|_| (next() % (2 * nb + 1)) as i32 - nb as i32).collect()),
                (vec![base[0]; 3000], (0..3000).map(|_| (next() % (2 * nb + 1)) as i32 - nb as i32).collect()),
                (base.clone(), vec![1; 3000]),
                (
                    (0..3000).map(|i| if i % 2 == 0 { base[i / 2] } else { base[i / 2].neg() }).collect(),
                    (0..3000).map(|i| 1 + (i / 2 % nb as usize) as i32).collect(),
                ),
            ];
            for (pts, digits) in &cases {
                let prepared = prepare(pts);
                for (sched, batch) in
                    [(&GreedyScheduler::default() as &dyn Scheduler, 64), (&DelayedScheduler::default(), 8)]
                {
                    let buckets = accumulate(&prepared, digits, &plan, sched, batch).0.into_buckets();
                    let want = running_sum::<Bls12_381, _>(&buckets);
                    let got = accumulate(&prepared, digits, &plan, sched, batch).0.sum();
                    assert_eq!(got, want, "c {c} batch {batch}");
                }
            }
        }
    }

    #[test]
    fn owned_conversion_equals_borrowed() {
        if !field52::available() {
            return;
        }
        let mut pts = crate::gen::random_points::<Bls12_381>(200_000, 3).points;
        pts[7] = Affine::identity();
        let a = prepare(&pts).points;
        let b = prepare_owned(pts).points;
        assert_eq!(a.len(), b.len());
        assert!(a == b);
        assert!(b[7].is_infinity() && !b[8].is_infinity());
    }
}
