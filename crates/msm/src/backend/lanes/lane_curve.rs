//! Which lane arithmetics a curve's points take. A curve names its points'
//! form for each arithmetic ([`LaneCurve`]): G1 the engines' sized points
//! over Fq, G2 those over Fq2 ([`super::tower`]) where the arithmetic has
//! an extension, else [`NoLanes`], so that the batch-affine backend runs it
//! on its portable arithmetic without a run-time check that could be
//! forgotten.

use super::arith::LaneArith;
use super::engine::LanePoint;
use super::sized::{SizedPoints, SizedWindow};
use crate::pipeline::plan::Plan;
use crate::scheduler::{ScheduleStats, Scheduler};
use crate::store::{Record, Store};
use zkmsm_curve::{Affine, MsmCurve, Xyzz};

/// Points converted for one lane arithmetic.
pub trait LaneSet<C: MsmCurve>: Sized + Send + Sync {
    /// One converted point (a prepared file's record).
    type Point: Record;
    /// One window's buckets, filled in lanes.
    type Window<'a>: LaneBuckets<C>
    where
        Self: 'a;
    /// Whether the arithmetic takes C's base field at all.
    fn fits() -> bool;
    /// Convert points once (callers check [`Self::fits`] and availability first).
    fn prepare(points: &[Affine<C>]) -> Self;
    /// As [`Self::prepare`], freeing the affine points as they are converted.
    fn prepare_owned(points: Vec<Affine<C>>) -> Self;
    /// Points from a prepared file; `None` where the arithmetic does not take the field.
    fn from_store(points: Store<Self::Point>, radix: u32) -> Option<Self>;
    /// The converted records, in input order.
    fn points(&self) -> &Store<Self::Point>;
    /// One window's buckets.
    fn accumulate<'a>(
        &'a self,
        digits: &[i32],
        plan: &Plan,
        scheduler: &dyn Scheduler,
        batch: usize,
    ) -> (Self::Window<'a>, ScheduleStats);
}

/// A window's buckets, filled in lanes.
pub trait LaneBuckets<C: MsmCurve> {
    /// The window's sum, aggregated in lanes.
    fn sum(self) -> Xyzz<C>;
    /// The buckets as XYZZ points.
    fn into_buckets(self) -> Vec<Xyzz<C>>;
}

impl<C: MsmCurve, W: LaneArith<C::Base>, N: LaneArith<C::Base, Elem = W::Elem>> LaneSet<C> for SizedPoints<C, W, N> {
    type Point = LanePoint<W::Elem>;
    type Window<'a>
        = SizedWindow<'a, C, W, N>
    where
        Self: 'a;
    fn fits() -> bool {
        SizedPoints::<C, W, N>::fits()
    }
    fn prepare(points: &[Affine<C>]) -> Self {
        SizedPoints::prepare(points)
    }
    fn prepare_owned(points: Vec<Affine<C>>) -> Self {
        SizedPoints::prepare_owned(points)
    }
    fn from_store(points: Store<LanePoint<W::Elem>>, radix: u32) -> Option<Self> {
        SizedPoints::from_store(points, radix)
    }
    fn points(&self) -> &Store<LanePoint<W::Elem>> {
        SizedPoints::points(self)
    }
    fn accumulate<'a>(
        &'a self,
        digits: &[i32],
        plan: &Plan,
        scheduler: &dyn Scheduler,
        batch: usize,
    ) -> (Self::Window<'a>, ScheduleStats) {
        SizedPoints::accumulate(self, digits, plan, scheduler, batch)
    }
}

impl<C: MsmCurve, W: LaneArith<C::Base>, N: LaneArith<C::Base, Elem = W::Elem>> LaneBuckets<C>
    for SizedWindow<'_, C, W, N>
{
    fn sum(self) -> Xyzz<C> {
        SizedWindow::sum(self)
    }
    fn into_buckets(self) -> Vec<Xyzz<C>> {
        SizedWindow::into_buckets(self)
    }
}

/// No lane form: the points of a curve over an extension field. It has no
/// values, so no code path can hold one.
pub enum NoLanes {}

impl<C: MsmCurve> LaneSet<C> for NoLanes {
    type Point = LanePoint;
    type Window<'a> = NoLanes;
    fn fits() -> bool {
        false
    }
    fn prepare(_: &[Affine<C>]) -> Self {
        unreachable!("callers check fits() first; no lane arithmetic takes {}", C::LABEL)
    }
    fn prepare_owned(_: Vec<Affine<C>>) -> Self {
        unreachable!("callers check fits() first; no lane arithmetic takes {}", C::LABEL)
    }
    fn from_store(_: Store<LanePoint>, _: u32) -> Option<Self> {
        None
    }
    fn points(&self) -> &Store<LanePoint> {
        match *self {}
    }
    fn accumulate(&self, _: &[i32], _: &Plan, _: &dyn Scheduler, _: usize) -> (NoLanes, ScheduleStats) {
        match *self {}
    }
}

impl<C: MsmCurve> LaneBuckets<C> for NoLanes {
    fn sum(self) -> Xyzz<C> {
        match self {}
    }
    fn into_buckets(self) -> Vec<Xyzz<C>> {
        match self {}
    }
}

/// A curve the backends take: its coordinates can be stored, and it names
/// its points' form for each lane arithmetic.
pub trait LaneCurve: MsmCurve<Base: Record> {
    /// The eight-lane AVX-512 IFMA form.
    #[cfg(target_arch = "x86_64")]
    type Ifma: LaneSet<Self>;
    /// The four-lane FMA form (AVX2 or NEON).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    type Fma: LaneSet<Self>;
}
