//! The lane engine: one window's batch-affine bucket accumulation, and its
//! bucket aggregation, on any [`LaneArith`] (a prime field's or, for G2,
//! its quadratic extension's).
//!
//! A batch's chord additions fill lane slots; pass A gathers each step's
//! point and bucket, forms the denominators and runs the prefix products of
//! Montgomery's trick as two chains (even and odd steps), so that every
//! product has an independent partner ([`LaneArith::mul2`]); the 2 x LANES
//! chain products are multiplied together across the lanes (a tree of
//! products with the lanes swapped, [`LaneArith::swap_lanes`]) and the one
//! result inverted in scalar code; pass B walks the
//! steps back in pairs, recovering each inverse and finishing the additions.
//!
//! Special cases: an empty bucket is a flag, settled before the batch. Equal
//! x (P + P or P - P into a bucket) cannot be told from lazily reduced limbs,
//! but makes that lane's product zero; such a batch is redone by exact scalar
//! code. Random inputs never hit it.
//!
//! Aliasing: an engine reads the points of a batch from a slice it is given
//! per call (`Engine::execute_from`), so aggregation can feed one engine
//! from another's buckets under the borrow rules; the lanes' addresses are
//! made inside the call from those borrows and die with it.

pub use super::arith::max_coordinate;
use super::arith::{LaneArith, LaneElem};
use super::simd::Kernel;
use super::Limbs;
use crate::backend::side_buckets::SideBuckets;
use crate::backend::{prefetch, PREFETCH_AHEAD};
use crate::pipeline::plan::Plan;
use crate::scheduler::{BatchSink, DistinctBatch, Op, ScheduleStats, Scheduler};
use crate::store::{bytes_of, Record, Store};
use rayon::prelude::*;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};
use zkmsm_field::Field;

/// A point in limbs: x, y (the arithmetic's Montgomery form, canonical),
/// each one [`Limbs`] per coefficient (G1: one; G2: two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct LanePoint<E: LaneElem = Limbs> {
    /// x, the arithmetic's limbs.
    pub x: E,
    /// y, the arithmetic's limbs.
    pub y: E,
}

/// Marks the point at infinity in the free top bit of x.
const INFINITY_FLAG: u64 = 1 << 63;

impl<E: LaneElem> LanePoint<E> {
    /// True for the point at infinity (a flag in the top limb of x's first coefficient).
    pub fn is_infinity(&self) -> bool {
        self.x.parts()[0][7] & INFINITY_FLAG != 0
    }

    /// The point at infinity as conversion writes it (the flag only).
    pub fn infinity() -> Self {
        let mut z = Self::default();
        z.x.parts_mut()[0][7] = INFINITY_FLAG;
        z
    }

    /// Whether this is a point the arithmetic can be given, read from a
    /// file: both coordinates limbs of `radix` bits holding a canonical
    /// value (at most `max`, the limbs of q - 1 from [`max_coordinate`]:
    /// `neg_limbs` and the bounds of every operation assume it), or the
    /// point at infinity exactly as conversion writes it (flag only).
    ///
    /// With every limb below 2^radix the limbs are the value's unique
    /// digits, so comparing them from the top decides the value (nearly
    /// always at the top limb); no conversion to words.
    pub fn canonical(&self, radix: u32, max: &Limbs) -> bool {
        if self.is_infinity() {
            return *self == Self::infinity();
        }
        let at_most_max = |l: &Limbs| {
            let wide = l.iter().fold(0, |acc, &limb| acc | limb >> radix);
            wide == 0 && l.iter().rev().cmp(max.iter().rev()).is_le()
        };
        self.x.parts().iter().chain(self.y.parts()).all(at_most_max)
    }
}

// SAFETY: u64 limbs only, no padding (two `LaneElem`s of 64-byte parts,
// align 64); any limbs are a value. Whether they suit an arithmetic is
// checked by the reader ([`LanePoints::from_store`]), which knows the radix.
unsafe impl<E: LaneElem> Record for LanePoint<E> {
    fn write_record(&self, out: &mut [u8]) {
        // SAFETY: no padding.
        out.copy_from_slice(unsafe { bytes_of(self) });
    }
}

/// Points converted once for an arithmetic, with what every window's engine
/// needs of them.
pub struct LanePoints<C: MsmCurve, L: LaneArith<C::Base>> {
    /// The points, in input order (owned, or mapped from a prepared file).
    pub points: Store<LanePoint<L::Elem>>,
    field: L,
    /// Padding lanes add `pad_point` (2G) into private buckets holding G.
    pad_start: LanePoint<L::Elem>,
    pad_point: LanePoint<L::Elem>,
    _curve: core::marker::PhantomData<C>,
}

fn convert<C: MsmCurve, L: LaneArith<C::Base>>(field: &L, p: &Affine<C>) -> LanePoint<L::Elem> {
    if p.infinity {
        LanePoint::infinity()
    } else {
        LanePoint { x: field.elem_of(&p.x), y: field.elem_of(&p.y) }
    }
}

fn field<C: MsmCurve, L: LaneArith<C::Base>>() -> L {
    assert!(L::available(), "the {} lane arithmetic does not run on this CPU", L::NAME);
    L::new().expect("a field the arithmetic fits (callers check)")
}

impl<C: MsmCurve, L: LaneArith<C::Base>> LanePoints<C, L> {
    fn with_points(field: L, points: Store<LanePoint<L::Elem>>) -> Self {
        let g = C::generator();
        let pad_start = convert(&field, &g);
        let pad_point = convert(&field, &g.to_xyzz().double().to_affine());
        Self { points, field, pad_start, pad_point, _curve: core::marker::PhantomData }
    }

    /// Convert points once (callers check `L::available()` first).
    pub fn prepare(points: &[Affine<C>]) -> Self {
        let field = field::<C, L>();
        let converted: Vec<LanePoint<L::Elem>> = points.par_iter().map(|p| convert(&field, p)).collect();
        Self::with_points(field, converted.into())
    }

    /// As [`Self::prepare`], freeing the affine points as they are converted
    /// (from the end, shrinking the source), so init never holds both sets.
    pub fn prepare_owned(mut points: Vec<Affine<C>>) -> Self {
        const CHUNK: usize = 1 << 16;
        let field = field::<C, L>();
        let n = points.len();
        let mut out: Vec<LanePoint<L::Elem>> = Vec::with_capacity(n);
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
        Self::with_points(field, out.into())
    }

    /// Points already in this arithmetic's limbs, from a prepared file;
    /// `None` unless every point is [`LanePoint::canonical`] for `radix`
    /// (callers check `L::available()` first).
    pub fn from_store(points: Store<LanePoint<L::Elem>>, radix: u32) -> Option<Self> {
        let max = L::max_coefficient(radix);
        if !points.par_iter().all(|p| p.canonical(radix, &max)) {
            return None;
        }
        Some(Self::with_points(field::<C, L>(), points))
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// What pass A keeps per step for pass B.
struct Step<F: Copy> {
    px: F,
    py: F,
    bx: F,
    by: F,
    den: F,
    prefix: F,
}

/// Where a lane's point comes from: the batch's source slice or the padding point.
const PAD_POINT: u32 = u32::MAX;

/// One window's buckets in limbs, and the scratch of the batches that fill them.
struct Engine<'f, C: MsmCurve, L: LaneArith<C::Base>> {
    field: &'f L,
    pad_start: LanePoint<L::Elem>,
    pad_point: LanePoint<L::Elem>,
    consts: L::Consts,
    /// The window's buckets, then 2 x LANES private padding buckets.
    buckets: Vec<LanePoint<L::Elem>>,
    nb: usize,
    occupied: Vec<bool>,
    side: SideBuckets<C>,
    /// Lane slots of the batch: its operations that reach the lanes, then
    /// the padding (point [`PAD_POINT`]). The kernel and the exact fallback
    /// both read it, so slot filling is one push per operation.
    slots: Vec<Op>,
    steps: Vec<Step<L::Fe>>,
}

/// Points of arithmetic L.
type Point<C, L> = LanePoint<<L as LaneArith<<C as zkmsm_curve::SwCurve>::Base>>::Elem>;

impl<'f, C: MsmCurve, L: LaneArith<C::Base>> Engine<'f, C, L> {
    /// An engine of `buckets` buckets for batches of up to `batch` operations.
    fn new(field: &'f L, (pad_start, pad_point): (Point<C, L>, Point<C, L>), buckets: usize, batch: usize) -> Self {
        let pad = 2 * L::LANES;
        Self {
            field,
            pad_start,
            pad_point,
            // SAFETY: the field comes from prepared points, which checked
            // `L::available()`.
            consts: unsafe { field.consts() },
            buckets: vec![LanePoint::default(); buckets + pad],
            nb: buckets,
            occupied: vec![false; buckets],
            side: SideBuckets::new(buckets),
            slots: Vec::with_capacity(batch + pad),
            steps: Vec::with_capacity(batch / L::LANES + 2),
        }
    }

    fn affine(&self, p: &Point<C, L>) -> Affine<C> {
        Affine::new_unchecked(self.field.value_of(&p.x), self.field.value_of(&p.y))
    }

    fn signed(&self, p: &Point<C, L>, negate: bool) -> Point<C, L> {
        if negate {
            LanePoint { x: p.x, y: self.field.neg_elem(&p.y) }
        } else {
            *p
        }
    }

    /// Run one conflict-free batch of operations whose points are `src[op.point]`.
    fn execute_from(&mut self, src: &[Point<C, L>], batch: &[Op]) {
        self.slots.clear();
        for (i, op) in batch.iter().enumerate() {
            if let Some(ahead) = batch.get(i + PREFETCH_AHEAD) {
                prefetch(&self.buckets[ahead.bucket as usize]);
            }
            let k = op.bucket as usize;
            let p = &src[op.point as usize];
            if !self.occupied[k] {
                self.buckets[k] = self.signed(p, op.negate);
                self.occupied[k] = true;
                continue;
            }
            self.slots.push(*op);
        }
        if self.slots.is_empty() {
            return;
        }
        // Pad to whole pairs of steps with additions into private buckets.
        let mut l = 0;
        while !self.slots.len().is_multiple_of(2 * L::LANES) {
            self.buckets[self.nb + l] = self.pad_start;
            self.slots.push(Op { point: PAD_POINT, bucket: (self.nb + l) as u32, negate: false });
            l += 1;
        }
        // SAFETY: the engine exists only where `L::available()` (see `new`).
        let exact = unsafe { L::run(Batch { engine: self, src }) };
        if exact {
            self.exact(src);
        }
    }

    /// The lanes' operations done exactly in scalar arithmetic, one at a time
    /// (rare: only batches where some bucket meets its own point or its negation).
    fn exact(&mut self, src: &[Point<C, L>]) {
        let ops = std::mem::take(&mut self.slots);
        for op in ops.iter().filter(|op| op.point != PAD_POINT) {
            let k = op.bucket as usize;
            let p = self.affine(&self.signed(&src[op.point as usize], op.negate));
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
                self.buckets[k] = convert(self.field, &sum);
            }
        }
        self.slots = ops;
    }

    /// Add the side buckets (overflowed operations) into the affine ones, so
    /// that aggregation sees one bucket set.
    fn fold_side(&mut self) {
        let Some(side) = self.side.take() else { return };
        let (idx, pts): (Vec<u32>, Vec<Xyzz<C>>) =
            side.iter().enumerate().filter(|(_, s)| !s.is_identity()).map(|(k, s)| (k as u32, *s)).unzip();
        let limbs: Vec<Point<C, L>> = Xyzz::batch_to_affine(&pts).iter().map(|p| convert(self.field, p)).collect();
        let ops: Vec<Op> =
            idx.iter().enumerate().map(|(j, &k)| Op { point: j as u32, bucket: k, negate: false }).collect();
        for chunk in ops.chunks(1024) {
            self.execute_from(&limbs, chunk);
        }
    }

    /// Merge each bucket's `spread` sub-buckets (bucket b's are
    /// `b x spread ..`, see [`spread_factor`]) into bucket b, in lanes: a
    /// tree of batches whose targets are distinct (sub-bucket j + s into j,
    /// j a multiple of 2s), the side buckets first.
    fn merge_spread(&mut self, used: usize, spread: usize) {
        self.fold_side();
        let mut ops = Vec::new();
        let mut src: Vec<Point<C, L>> = Vec::new();
        let mut s = 1;
        while s < spread {
            ops.clear();
            src.clear();
            for base in (0..used).map(|b| b * spread) {
                for j in (0..spread - s).step_by(2 * s) {
                    let from = base + j + s;
                    if self.occupied[from] {
                        self.occupied[from] = false;
                        ops.push(Op { point: src.len() as u32, bucket: (base + j) as u32, negate: false });
                        src.push(self.buckets[from]);
                    }
                }
            }
            for chunk in ops.chunks(1024) {
                self.execute_from(&src, chunk);
            }
            s *= 2;
        }
        // b <= b x spread: reading upward of every slot written so far
        for b in 0..used {
            self.buckets[b] = self.buckets[b * spread];
            self.occupied[b] = self.occupied[b * spread];
        }
        self.occupied[used..].fill(false);
    }

    /// acc + bucket k (a mixed addition; acc itself when the bucket is empty).
    fn add_to(&self, acc: Xyzz<C>, k: usize) -> Xyzz<C> {
        if self.occupied[k] {
            acc.add_affine(&self.affine(&self.buckets[k]))
        } else {
            acc
        }
    }

    /// Bucket k as XYZZ.
    fn xyzz(&self, k: usize) -> Xyzz<C> {
        if self.occupied[k] {
            Xyzz::from_affine(&self.affine(&self.buckets[k]))
        } else {
            Xyzz::identity()
        }
    }
}

/// A batch's passes, run with the arithmetic's target features; `true` when
/// some lane met equal x and the batch must be redone exactly.
struct Batch<'e, 'f, 's, C: MsmCurve, L: LaneArith<C::Base>> {
    engine: &'e mut Engine<'f, C, L>,
    src: &'s [Point<C, L>],
}

impl<C: MsmCurve, L: LaneArith<C::Base>> Kernel for Batch<'_, '_, '_, C, L> {
    type Output = bool;

    #[inline(always)]
    fn run(self) -> bool {
        // SAFETY: only run through `L::run` (see `execute_from`).
        unsafe { self.passes() }
    }
}

impl<C: MsmCurve, L: LaneArith<C::Base>> Batch<'_, '_, '_, C, L> {
    #[inline(always)]
    unsafe fn passes(self) -> bool {
        let e = self.engine;
        let k = e.consts;
        let lanes = L::LANES;
        let steps = e.slots.len() / lanes;
        let buckets = e.buckets.as_mut_ptr();
        let pad_point: *const Point<C, L> = &e.pad_point;
        // words from a point's x to its y
        let y_at = core::mem::size_of::<L::Elem>() / 8;
        let src = self.src.as_ptr();
        // Pass A: gather, denominators, prefix products in two chains.
        e.steps.clear();
        let one = e.field.one(&k);
        let mut acc = [one, one];
        let mut s = 0;
        while s < steps {
            let mut den = [one, one];
            for h in 0..2 {
                let base = (s + h) * lanes;
                let mut bp = [core::ptr::null::<u64>(); 16];
                let mut by = [core::ptr::null::<u64>(); 16];
                let mut pp = [core::ptr::null::<u64>(); 16];
                let mut py = [core::ptr::null::<u64>(); 16];
                let mut neg = 0u32;
                for l in 0..lanes {
                    let op = e.slots[base + l];
                    let b = buckets.add(op.bucket as usize) as *const u64;
                    bp[l] = b;
                    by[l] = b.add(y_at);
                    let i = op.point;
                    let p = if i == PAD_POINT { pad_point } else { src.add(i as usize) } as *const u64;
                    pp[l] = p;
                    py[l] = p.add(y_at);
                    neg |= (op.negate as u32) << l;
                }
                let px = L::load(&pp[..lanes]);
                let py = L::neg_where(&k, &L::load(&py[..lanes]), neg);
                let bx = L::load(&bp[..lanes]);
                let by = L::load(&by[..lanes]);
                den[h] = L::sub4(&k, &px, &bx);
                e.steps.push(Step { px, py, bx, by, den: den[h], prefix: acc[h] });
            }
            let (a0, a1) = L::mul2(&k, &acc[0], &den[0], &acc[1], &den[1]);
            acc = [a0, a1];
            s += 2;
        }
        // One scalar inversion for the 2 x LANES chain products: their
        // product, lane by lane, then across the lanes by a tree of
        // products with the lanes swapped (lane i times lane i ^ d, for d =
        // LANES / 2 down to 1), leaves the whole product in every lane; one
        // lane out, inverted, back in; down the tree, each level's inverse
        // is the one above times the partner it was made with. log2(LANES)
        // vector products each way instead of 3 x 2 x LANES scalar ones and
        // 2 x LANES conversions each way. (Products come in pairs in
        // `LaneArith`; where one is wanted the pair repeats it: a few
        // products a batch.)
        let (both, _) = L::mul2(&k, &acc[0], &acc[1], &acc[0], &acc[1]);
        // one partner per level: log2(LANES) <= 4 (LANES <= 16, as the
        // 16-entry arrays of `swap_lanes` and below assume)
        let mut partners = [both; 4];
        let mut level = both;
        let mut depth = 0;
        let mut d = lanes / 2;
        while d > 0 {
            partners[depth] = L::swap_lanes(&level, d);
            (level, _) = L::mul2(&k, &level, &partners[depth], &level, &partners[depth]);
            depth += 1;
            d /= 2;
        }
        let all = e.field.scaled_value_of(&L::lane(&level, 0));
        if all.is_zero() {
            return true;
        }
        // scaled values u = a rho: u^-1 rho^2 = a^-1 rho, which limbs_of_scaled takes
        let inv_all =
            e.field.elem_of_scaled(&(all.inverse().expect("non-zero product") * e.field.scaled_inverse_factor()));
        let mut inv_level = L::from_lanes(&[inv_all; 16][..lanes]);
        while depth > 0 {
            depth -= 1;
            (inv_level, _) = L::mul2(&k, &inv_level, &partners[depth], &inv_level, &partners[depth]);
        }
        let (i0, i1) = L::mul2(&k, &inv_level, &acc[1], &inv_level, &acc[0]);
        let inv = [i0, i1];
        // Pass B: from the last pair of steps back, each step's inverse and
        // additions. Each pair's products depend in a chain (l, then l^2,
        // then l (bx - x)); the inverse chain's two products for the next
        // pair do not. Pipelined (`L::PIPELINED`), those two go between the
        // chain's products, so that the reorder buffer, which holds less
        // than one pair of products, has independent work behind each
        // product's serial tail; otherwise they come after the pair.
        debug_assert!(steps >= 2 && steps.is_multiple_of(2), "execute_from pads a non-empty batch to whole pairs");
        let mut s = steps - 2;
        let (a, b) = (&e.steps[s], &e.steps[s + 1]);
        let (mut i0, mut i1) = L::mul2(&k, &inv[0], &a.prefix, &inv[1], &b.prefix);
        let (mut n0, mut n1) = L::mul2(&k, &inv[0], &a.den, &inv[1], &b.den);
        loop {
            let (a, b) = (&e.steps[s], &e.steps[s + 1]);
            let next = if s > 0 { Some((&e.steps[s - 2], &e.steps[s - 1])) } else { None };
            let dy0 = L::sub4(&k, &a.py, &a.by);
            let dy1 = L::sub4(&k, &b.py, &b.by);
            let (l0, l1) = L::mul2(&k, &dy0, &i0, &dy1, &i1);
            if let (true, Some((c, d))) = (L::PIPELINED, next) {
                (i0, i1) = L::mul2(&k, &n0, &c.prefix, &n1, &d.prefix);
            }
            let (q0, q1) = L::square2_uncarried(&k, &l0, &l1);
            if let (true, Some((c, d))) = (L::PIPELINED, next) {
                (n0, n1) = L::mul2(&k, &n0, &c.den, &n1, &d.den);
            }
            let x0 = L::sub8_reduce(&k, &q0, &a.bx, &a.px);
            let x1 = L::sub8_reduce(&k, &q1, &b.bx, &b.px);
            let t0 = L::sub4(&k, &a.bx, &x0);
            let t1 = L::sub4(&k, &b.bx, &x1);
            let (u0, u1) = L::mul2_uncarried(&k, &l0, &t0, &l1, &t1);
            let y0 = L::sub4_reduce(&k, &u0, &a.by);
            let y1 = L::sub4_reduce(&k, &u1, &b.by);
            for (h, (x, y)) in [(x0, y0), (x1, y1)].iter().enumerate() {
                let base = (s + h) * lanes;
                let mut bx = [core::ptr::null_mut::<u64>(); 16];
                let mut by = [core::ptr::null_mut::<u64>(); 16];
                for l in 0..lanes {
                    let b = buckets.add(e.slots[base + l].bucket as usize) as *mut u64;
                    bx[l] = b;
                    by[l] = b.add(y_at);
                }
                L::store(&bx[..lanes], x);
                L::store(&by[..lanes], y);
            }
            if let (false, Some((c, d))) = (L::PIPELINED, next) {
                (i0, i1) = L::mul2(&k, &n0, &c.prefix, &n1, &d.prefix);
                (n0, n1) = L::mul2(&k, &n0, &c.den, &n1, &d.den);
            }
            if s == 0 {
                break;
            }
            s -= 2;
        }
        false
    }
}

impl<C: MsmCurve, L: LaneArith<C::Base>> BatchSink for (&mut Engine<'_, C, L>, &[Point<C, L>]) {
    fn execute(&mut self, batch: DistinctBatch<'_>) {
        self.0.execute_from(self.1, batch.ops());
    }

    fn overflow(&mut self, op: Op) {
        let p = self.0.affine(&self.0.signed(&self.1[op.point as usize], op.negate));
        self.0.side.add(op.bucket, &p);
    }
}

/// One window's filled buckets, still in limbs.
pub struct LaneWindow<'f, C: MsmCurve, L: LaneArith<C::Base>>(Engine<'f, C, L>);

/// One window's buckets, scheduled by `scheduler` in batches of `batch`, with
/// what the scheduler did.
pub fn accumulate<'f, C: MsmCurve, L: LaneArith<C::Base>>(
    prepared: &'f LanePoints<C, L>,
    digits: &[i32],
    plan: &Plan,
    scheduler: &dyn Scheduler,
    batch: usize,
) -> (LaneWindow<'f, C, L>, ScheduleStats) {
    let batch = batch.max(1);
    let pads = (prepared.pad_start, prepared.pad_point);
    let mut engine = Engine::new(&prepared.field, pads, plan.buckets, batch);
    let points = &prepared.points;
    let used = digits.iter().map(|d| d.unsigned_abs() as usize).max().unwrap_or(0);
    let spread = spread_factor(used, plan.buckets, batch);
    // The points are read in order (each one's infinity flag here, its
    // coordinates when its batch runs): once they outgrow the caches every
    // point was a demand miss (4.6% of the time at 2^20 without IFMA).
    let mut ops = digits
        .iter()
        .enumerate()
        .filter(|&(i, &d)| {
            if let Some(ahead) = points.get(i + POINT_AHEAD) {
                prefetch(ahead);
            }
            d != 0 && !points[i].is_infinity()
        })
        .map(|(i, &d)| {
            let op = Op::from_digit(i, d);
            // no division per operation where nothing is spread (most windows)
            let sub = if spread > 1 { (i % spread) as u32 } else { 0 };
            Op { bucket: op.bucket * spread as u32 + sub, ..op }
        });
    let st = scheduler.schedule(&mut ops, plan.buckets, batch, &mut (&mut engine, &points[..]));
    if spread > 1 {
        engine.merge_spread(used, spread);
    }
    (LaneWindow(engine), st)
}

/// How many points ahead [`accumulate`] prefetches (16 and 32 measured the
/// same).
const POINT_AHEAD: usize = 16;

/// Sub-buckets per bucket for a window whose digits reach only `used` of its
/// `buckets` buckets: `buckets / used` where `used` is under 4 batches (1
/// otherwise: with 8 batches' worth of buckets, BLS12-381's top window under
/// GLV, nothing overflowed and the merge only cost). The top window
/// of a plan is sparse (GLV's 127-bit halves at c = 13 reach 277 of 4,096
/// buckets; 253-bit scalars at c = 13, 37): its n operations into so few
/// buckets conflict in almost every batch, and the scheduler sent up to all
/// of them to the scalar side buckets at about 4x a lane addition (callgrind,
/// docs/BENCHMARKS.md "`auto`: crossovers and thresholds"). Spread over `used x spread` sub-buckets
/// (operation i into sub-bucket i mod spread), they batch as a full window
/// does, for at most `used x (spread - 1)` lane additions to merge them.
fn spread_factor(used: usize, buckets: usize, batch: usize) -> usize {
    if used >= 4 * batch {
        return 1;
    }
    buckets.checked_div(used).unwrap_or(1).max(1)
}

impl<C: MsmCurve, L: LaneArith<C::Base>> LaneWindow<'_, C, L> {
    /// The buckets as XYZZ points (for the shared aggregation).
    pub fn into_buckets(self) -> Vec<Xyzz<C>> {
        let mut engine = self.0;
        let side = engine.side.take();
        (0..engine.nb)
            .map(|k| {
                let s = side.as_ref().map_or(Xyzz::identity(), |side| side[k]);
                if engine.occupied[k] {
                    s.add_affine(&engine.affine(&engine.buckets[k]))
                } else {
                    s
                }
            })
            .collect()
    }

    /// The window's sum sum_k (k+1) B_k, aggregated in lanes.
    pub fn sum(self) -> Xyzz<C> {
        let mut engine = self.0;
        engine.fold_side();
        aggregate(&engine)
    }
}

/// PriorMSM's partitioned aggregation with the groups as lanes: G groups of
/// consecutive buckets each keep a running sum R_g and a total T_g, buckets
/// g and G + g of one engine. Each step is one batch: the next bucket (from
/// the top) into every R_g and, beside it, every R_g as it was before the
/// step into T_g (read in pass A, before pass B writes R_g); a last batch adds
/// the final R_g, so that T_g sums R_g after every step, as a running sum
/// does. One batch per step instead of two: half the inversions. The window
/// sum is sum_g T_g + size * sum_g g R_g, the last by a short running sum
/// over groups (in XYZZ, adding the affine buckets as mixed additions).
fn aggregate<C: MsmCurve, L: LaneArith<C::Base>>(win: &Engine<'_, C, L>) -> Xyzz<C> {
    let nb = win.nb;
    let groups = aggregation_groups(nb);
    let size = nb.div_ceil(groups);
    let pads = (win.pad_start, win.pad_point);
    let mut sums = Engine::<C, L>::new(win.field, pads, 2 * groups, 2 * groups);
    let mut ops = Vec::with_capacity(2 * groups);
    let mut src: Vec<Point<C, L>> = Vec::with_capacity(2 * groups);
    for s in (0..size).rev() {
        ops.clear();
        src.clear();
        for g in 0..groups {
            let k = g * size + s;
            if k < nb && win.occupied[k] {
                ops.push(Op { point: src.len() as u32, bucket: g as u32, negate: false });
                src.push(win.buckets[k]);
            }
            if sums.occupied[g] {
                ops.push(Op { point: src.len() as u32, bucket: (groups + g) as u32, negate: false });
                src.push(sums.buckets[g]);
            }
        }
        sums.execute_from(&src, &ops);
    }
    ops.clear();
    src.clear();
    for g in (0..groups).filter(|&g| sums.occupied[g]) {
        ops.push(Op { point: src.len() as u32, bucket: (groups + g) as u32, negate: false });
        src.push(sums.buckets[g]);
    }
    sums.execute_from(&src, &ops);
    let mut sum = Xyzz::identity();
    let (mut run, mut acc) = (Xyzz::identity(), Xyzz::identity());
    for g in (0..groups).rev() {
        sum = sums.add_to(sum, groups + g);
        if g > 0 {
            run = sums.add_to(run, g);
            acc = acc.add(&run);
        }
    }
    sum.add(&acc.mul_bigint(&[size as u64]))
}

/// Groups of the lane aggregation for `nb` buckets: about sqrt(nb), which
/// balances the batches (one inversion per step, nb / G steps) against the
/// scalar tail (three XYZZ additions per group).
fn aggregation_groups(nb: usize) -> usize {
    ((nb as f64).sqrt().round() as usize).clamp(1, 256)
}

/// For benchmarks: `rounds` batches of `batch` additions of the first
/// `batch` points into as many distinct, occupied buckets (no scheduling, no
/// empty buckets, no conflicts): the bare cost of a batch.
#[doc(hidden)]
pub fn bare_batches<C: MsmCurve, L: LaneArith<C::Base>>(
    prepared: &LanePoints<C, L>,
    batch: usize,
    rounds: usize,
) -> Xyzz<C> {
    let pads = (prepared.pad_start, prepared.pad_point);
    let mut engine = Engine::new(&prepared.field, pads, batch, batch);
    let ops: Vec<Op> = (0..batch).map(|i| Op { point: i as u32, bucket: i as u32, negate: i % 3 == 0 }).collect();
    let seed: Vec<Op> = (0..batch).map(|i| Op { point: (i + 1) as u32, bucket: i as u32, negate: false }).collect();
    engine.execute_from(&prepared.points, &seed);
    for _ in 0..rounds {
        engine.execute_from(&prepared.points, &ops);
    }
    engine.xyzz(batch / 2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::simd::{Portable, Simd};
    use super::super::{Fma51, LaneField};
    use super::*;
    use crate::pipeline::bucket_aggregation::running_sum;
    use crate::scheduler::{DelayedScheduler, GreedyScheduler};
    use zkmsm_curve::{Bls12_377, Bls12_381, Bn254};
    use zkmsm_field::PrimeField;

    /// Lane aggregation equals the shared XYZZ running sum, and the buckets
    /// equal the scalar engine's, on random digits and on inputs that force
    /// equal x in the lanes (repeated points, P and -P, one bucket for
    /// everything), points at infinity, and overflow into side buckets.
    pub(crate) fn window_sum_equals_shared_aggregation<
        C: MsmCurve + crate::input::InputCurve,
        L: LaneArith<C::Base>,
    >() {
        if !L::available() {
            eprintln!("{} not available here: skipped", L::NAME);
            return;
        }
        let n = 1500;
        let base = crate::gen::random_points::<C>(n, 5).points;
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
            let mut with_infinity = base.clone();
            with_infinity[3] = Affine::identity();
            with_infinity[n - 1] = Affine::identity();
            let random = |next: &mut dyn FnMut() -> u64| -> Vec<i32> {
                (0..n).map(|_| (next() % (2 * nb + 1)) as i32 - nb as i32).collect()
            };
            let cases: Vec<(Vec<Affine<C>>, Vec<i32>)> = vec![
                (base.clone(), random(&mut next)),
                (vec![base[0]; n], random(&mut next)),
                (base.clone(), vec![1; n]),
                (
                    (0..n).map(|i| if i % 2 == 0 { base[i / 2] } else { base[i / 2].neg() }).collect(),
                    (0..n).map(|i| 1 + (i / 2 % nb as usize) as i32).collect(),
                ),
                (with_infinity, random(&mut next)),
                // a sparse window (the top one): digits reach a fifth of the
                // buckets (spread over sub-buckets, not a power of two) ...
                (base.clone(), (0..n).map(|_| (next() % (2 * nb / 5 + 1)) as i32 - (nb / 5) as i32).collect()),
                // ... or one bucket, with P and -P landing in sub-buckets
                // that the merge adds (equal x: the exact path)
                (
                    (0..n).map(|i| if i % 2 == 0 { base[i / 2] } else { base[i / 2].neg() }).collect(),
                    (0..n).map(|i| if i % 3 == 0 { 2 } else { -2 }).collect(),
                ),
                ((0..n).map(|i| base[i % 3]).collect(), (0..n).map(|i| (i % 3) as i32 - 1).collect()),
                // equal sub-buckets merged: a doubling (the exact path)
                (vec![base[0]; n], vec![1; n]),
            ];
            for (pts, digits) in &cases {
                let prepared = LanePoints::<C, L>::prepare(pts);
                let mut want_buckets = vec![Xyzz::<C>::identity(); plan.buckets];
                for (p, &d) in pts.iter().zip(digits) {
                    if d != 0 {
                        let b = &mut want_buckets[d.unsigned_abs() as usize - 1];
                        *b = b.add_affine(&if d < 0 { p.neg() } else { *p });
                    }
                }
                let want = running_sum::<C, _>(&want_buckets);
                for (sched, batch) in
                    [(&GreedyScheduler::default() as &dyn Scheduler, 64), (&DelayedScheduler::default(), 8)]
                {
                    let (window, _) = accumulate(&prepared, digits, &plan, sched, batch);
                    let buckets = window.into_buckets();
                    assert!(buckets.iter().zip(&want_buckets).all(|(a, b)| a == b), "buckets, c {c} batch {batch}");
                    let (window, _) = accumulate(&prepared, digits, &plan, sched, batch);
                    assert_eq!(window.sum(), want, "c {c} batch {batch}");
                }
            }
        }
    }

    /// [`LaneField::swap_lanes`] puts lane i ^ d in lane i, for every d the
    /// batch inversion's tree uses, and twice is the identity.
    pub(crate) fn swap_lanes_exchanges_lanes<F: PrimeField, L: LaneField<F>>() {
        struct Swaps<F, L>(core::marker::PhantomData<(F, L)>);
        impl<F: PrimeField, L: LaneField<F>> super::Kernel for Swaps<F, L> {
            type Output = ();
            fn run(self) {
                let field = L::new().expect("a field the arithmetic fits");
                let lanes: Vec<Limbs> =
                    (0..L::LANES).map(|i| field.limbs_of(&F::from_u64(1000 + 7 * i as u64))).collect();
                // SAFETY: run through `L::run` where `L::available()` (below).
                unsafe {
                    let v = L::from_lanes(&lanes);
                    let mut d = L::LANES / 2;
                    while d > 0 {
                        let w = L::swap_lanes(&v, d);
                        for (i, _) in lanes.iter().enumerate() {
                            assert_eq!(L::lane(&w, i), lanes[i ^ d], "{} lane {i}, d = {d}", L::NAME);
                        }
                        let back = L::swap_lanes(&w, d);
                        assert!((0..L::LANES).all(|i| L::lane(&back, i) == lanes[i]), "{} d = {d} twice", L::NAME);
                        d /= 2;
                    }
                }
            }
        }
        if !L::available() {
            eprintln!("{} not available here: skipped", L::NAME);
            return;
        }
        // SAFETY: available (checked above).
        unsafe { L::run(Swaps::<F, L>(core::marker::PhantomData)) }
    }

    #[test]
    fn portable_lanes_equal_reference() {
        window_sum_equals_shared_aggregation::<Bls12_381, Fma51<<Bls12_381 as zkmsm_curve::SwCurve>::Base, Portable>>();
        window_sum_equals_shared_aggregation::<Bn254, Fma51<<Bn254 as zkmsm_curve::SwCurve>::Base, Portable, 6>>();
    }

    #[test]
    fn lanes_swap_in_every_arithmetic() {
        type Fq381 = <Bls12_381 as zkmsm_curve::SwCurve>::Base;
        type Fq254 = <Bn254 as zkmsm_curve::SwCurve>::Base;
        swap_lanes_exchanges_lanes::<Fq381, Fma51<Fq381, Portable>>();
        swap_lanes_exchanges_lanes::<Fq254, Fma51<Fq254, Portable, 6>>();
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            type S = super::super::NativeSimd;
            swap_lanes_exchanges_lanes::<Fq381, Fma51<Fq381, S>>();
            swap_lanes_exchanges_lanes::<Fq254, Fma51<Fq254, S, 6>>();
        }
        #[cfg(target_arch = "x86_64")]
        {
            use super::super::ifma::ops::{Avx512, Avx512Ymm, Emulated};
            use super::super::ifma::Ifma52;
            swap_lanes_exchanges_lanes::<Fq381, Ifma52<Fq381, Emulated>>();
            swap_lanes_exchanges_lanes::<Fq254, Ifma52<Fq254, Emulated, 5>>();
            swap_lanes_exchanges_lanes::<Fq381, Ifma52<Fq381, Avx512>>();
            swap_lanes_exchanges_lanes::<Fq254, Ifma52<Fq254, Avx512, 5>>();
            swap_lanes_exchanges_lanes::<Fq381, Ifma52<Fq381, Avx512Ymm>>();
        }
    }

    /// G2: the lane engine over Fq2 (the FMA arithmetic's extension),
    /// portable and native, with the same adversarial cases.
    #[test]
    fn fp2_lanes_equal_reference() {
        use super::super::tower::Fp2Lanes;
        use zkmsm_curve::{Bls12_377G2, Bls12_381G2, Bn254G2};
        use zkmsm_field::{Bls12_377Fq2Config as P377, Bls12_381Fq2Config as P381, Bn254Fq2Config as P254};
        type On<P, S, const L: usize> = Fp2Lanes<P, Fma51<<P as zkmsm_field::Fp2Config>::Base, S, L>>;
        window_sum_equals_shared_aggregation::<Bls12_381G2, On<P381, Portable, 8>>();
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            type S = super::super::NativeSimd;
            window_sum_equals_shared_aggregation::<Bls12_381G2, On<P381, S, 8>>();
            window_sum_equals_shared_aggregation::<Bls12_377G2, On<P377, S, 8>>();
            window_sum_equals_shared_aggregation::<Bn254G2, On<P254, S, 6>>();
        }
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[test]
    fn native_fma_lanes_equal_reference() {
        type S = super::super::NativeSimd;
        window_sum_equals_shared_aggregation::<Bls12_381, Fma51<<Bls12_381 as zkmsm_curve::SwCurve>::Base, S>>();
        window_sum_equals_shared_aggregation::<Bls12_377, Fma51<<Bls12_377 as zkmsm_curve::SwCurve>::Base, S>>();
        window_sum_equals_shared_aggregation::<Bn254, Fma51<<Bn254 as zkmsm_curve::SwCurve>::Base, S, 6>>();
        let _ = S::NAME;
    }

    #[test]
    fn owned_conversion_equals_borrowed() {
        type L = Fma51<<Bls12_381 as zkmsm_curve::SwCurve>::Base, Portable>;
        let mut pts = crate::gen::random_points::<Bls12_381>(70_000, 3).points;
        pts[7] = Affine::identity();
        let a = LanePoints::<Bls12_381, L>::prepare(&pts).points;
        let b = LanePoints::<Bls12_381, L>::prepare_owned(pts).points;
        assert_eq!(a.len(), b.len());
        assert!(a == b);
        assert!(b[7].is_infinity() && !b[8].is_infinity());
    }

    /// `words` (384 bits) as limbs of `radix` bits.
    fn split(words: &[u64; 6], radix: u32) -> Limbs {
        max_coordinate(words, radix)
    }

    /// The 384-bit value of limbs of `radix` bits (least significant first);
    /// `None` when a limb has more than `radix` bits or the value does not fit
    /// 384 bits.
    fn value_words(l: &Limbs, radix: u32) -> Option<[u64; 6]> {
        let mut w = [0u64; 6];
        let mut put = |word: usize, bits: u64| match w.get_mut(word) {
            Some(v) => {
                *v |= bits;
                true
            }
            None => bits == 0,
        };
        for (i, &limb) in l.iter().enumerate() {
            if radix < 64 && limb >> radix != 0 {
                return None;
            }
            let (word, off) = (radix as usize * i / 64, radix as usize * i % 64);
            if !put(word, limb << off) || (off != 0 && !put(word + 1, limb >> (64 - off))) {
                return None;
            }
        }
        Some(w)
    }

    /// The definition [`LanePoint::canonical`] implements: the limbs' value
    /// (no limb beyond the radix, within 384 bits) at most q - 1.
    fn canonical_reference(p: &LanePoint, radix: u32, q_minus_1: &[u64; 6]) -> bool {
        if p.is_infinity() {
            let mut x = p.x;
            x[7] &= !INFINITY_FLAG;
            return x == [0; 8] && p.y == [0; 8];
        }
        let below_q = |l: &Limbs| match value_words(l, radix) {
            Some(w) => w.iter().rev().cmp(q_minus_1.iter().rev()).is_le(),
            None => false,
        };
        below_q(&p.x) && below_q(&p.y)
    }

    /// The limb comparison agrees with the value comparison on random limbs
    /// of every width and on limbs next to q - 1 (each limb of q - 1 moved
    /// by -1, +1, to 0, to the radix's largest digit, to 2^radix).
    #[test]
    fn canonical_agrees_with_the_value_comparison() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        for bytes in [(-zkmsm_field::Bls12_381Fq::ONE).to_bytes_le(), (-zkmsm_field::Bls12_377Fq::ONE).to_bytes_le()] {
            let qm1: [u64; 6] = zkmsm_field::limbs::from_le_bytes(&bytes);
            for radix in [51u32, 52] {
                let max = max_coordinate(&qm1, radix);
                let digit = (1u64 << radix) - 1;
                let mut near = Vec::new();
                for i in 0..8 {
                    for v in [max[i].wrapping_sub(1), max[i] + 1, 0, digit, digit + 1] {
                        let mut l = max;
                        l[i] = v;
                        near.push(l);
                    }
                }
                for _ in 0..2000 {
                    let width = rng.gen_range(0..=64u32);
                    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
                    let mut l: Limbs = core::array::from_fn(|_| rng.gen::<u64>() & mask);
                    // half of them in range limb by limb, the top limb small
                    if rng.gen_bool(0.5) {
                        l = core::array::from_fn(|i| l[i] & digit);
                        l[7] &= (1u64 << rng.gen_range(0..=radix)) - 1;
                    }
                    near.push(l);
                }
                for (i, x) in near.iter().enumerate() {
                    let y = near[(i * 7 + 3) % near.len()];
                    for p in [LanePoint { x: *x, y: max }, LanePoint { x: max, y: *x }, LanePoint { x: *x, y }] {
                        assert_eq!(
                            p.canonical(radix, &max),
                            canonical_reference(&p, radix, &qm1),
                            "radix {radix}, {p:?}"
                        );
                    }
                }
            }
        }
    }

    /// What a prepared file may hold: values below q in each radix, and
    /// infinity exactly as `convert` writes it; q itself, a limb beyond
    /// the radix, values beyond 384 bits and a dirty infinity are refused.
    #[test]
    fn canonical_means_below_q_and_clean_infinity() {
        let bytes = (-zkmsm_field::Bls12_381Fq::ONE).to_bytes_le();
        let qm1: [u64; 6] = zkmsm_field::limbs::from_le_bytes(&bytes);
        let mut q = qm1;
        q[0] += 1; // q is odd: no carry
        let max = [u64::MAX; 6];
        for radix in [51u32, 52] {
            let point = |x: Limbs, y: Limbs| LanePoint { x, y };
            let ok = |p: LanePoint| p.canonical(radix, &split(&qm1, radix));
            for w in [[0u64; 6], qm1, [1, 2, 3, 4, 5, 6], [u64::MAX, 0, u64::MAX, 0, 7, 1]] {
                assert_eq!(value_words(&split(&w, radix), radix), Some(w), "radix {radix}");
            }
            assert!(ok(point(split(&qm1, radix), split(&[0; 6], radix))));
            assert!(ok(point(split(&[5, 0, 0, 0, 0, 0], radix), split(&qm1, radix))));
            assert!(!ok(point(split(&q, radix), split(&[1; 6], radix))), "x = q");
            assert!(!ok(point(split(&[1; 6], radix), split(&q, radix))), "y = q");
            assert!(!ok(point(split(&max, radix), split(&[1; 6], radix))), "2^384 - 1");
            let mut wide = split(&[1; 6], radix);
            wide[2] |= 1 << radix;
            assert!(!ok(point(wide, split(&[1; 6], radix))), "a limb beyond the radix");
            let mut high = split(&[1; 6], radix);
            high[7] |= 1 << (384 - 7 * radix);
            assert!(!ok(point(split(&[1; 6], radix), high)), "bit 384");
            let mut inf: LanePoint = LanePoint::default();
            inf.x[7] = INFINITY_FLAG;
            assert!(inf.is_infinity() && ok(inf));
            let mut dirty = inf;
            dirty.y[0] = 1;
            assert!(!ok(dirty), "infinity with a y");
            let mut dirty = inf;
            dirty.x[3] = 1;
            assert!(!ok(dirty), "infinity with an x");
        }
    }
}
