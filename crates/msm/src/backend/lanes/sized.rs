//! One lane arithmetic at two limb counts: the eight limbs the 381-bit BLS12
//! fields need, and fewer for a smaller field (BN254's 254 bits: five 52-bit
//! limbs on IFMA), chosen by the curve's base field when points are
//! prepared. The limb count is a type parameter of the arithmetic, so that
//! every limb loop has a constant bound; this enum is where the choice
//! becomes a value. Both forms store the same records (eight limbs, the
//! unused ones zero), so a prepared file does not depend on it.

use super::arith::LaneArith;
use super::engine::{self, LanePoint, LanePoints, LaneWindow};
use crate::pipeline::plan::Plan;
use crate::scheduler::{ScheduleStats, Scheduler};
use crate::store::Store;
use zkmsm_curve::{Affine, MsmCurve, Xyzz};

/// Points converted for `Wide` (eight limbs) or, where the field fits it,
/// `Narrow` (fewer limbs, fewer products per multiplication).
pub enum SizedPoints<C: MsmCurve, Wide: LaneArith<C::Base>, Narrow: LaneArith<C::Base, Elem = Wide::Elem>> {
    /// The wide arithmetic's points.
    Wide(LanePoints<C, Wide>),
    /// The narrow arithmetic's points.
    Narrow(LanePoints<C, Narrow>),
}

/// One window's buckets from either form.
pub enum SizedWindow<'a, C: MsmCurve, Wide: LaneArith<C::Base>, Narrow: LaneArith<C::Base, Elem = Wide::Elem>> {
    /// Filled by the wide arithmetic.
    Wide(LaneWindow<'a, C, Wide>),
    /// Filled by the narrow arithmetic.
    Narrow(LaneWindow<'a, C, Narrow>),
}

impl<C: MsmCurve, W: LaneArith<C::Base>, N: LaneArith<C::Base, Elem = W::Elem>> SizedPoints<C, W, N> {
    /// Whether either form takes C's base field.
    pub fn fits() -> bool {
        N::fits() || W::fits()
    }

    /// Whether the narrow form is the one for C.
    fn narrow() -> bool {
        N::fits()
    }

    /// Convert points once (callers check [`Self::fits`] and availability first).
    pub fn prepare(points: &[Affine<C>]) -> Self {
        if Self::narrow() {
            Self::Narrow(LanePoints::prepare(points))
        } else {
            Self::Wide(LanePoints::prepare(points))
        }
    }

    /// As [`Self::prepare`], freeing the affine points as they are converted.
    pub fn prepare_owned(points: Vec<Affine<C>>) -> Self {
        if Self::narrow() {
            Self::Narrow(LanePoints::prepare_owned(points))
        } else {
            Self::Wide(LanePoints::prepare_owned(points))
        }
    }

    /// Points from a prepared file ([`LanePoints::from_store`]); `None` also
    /// where neither form takes the field.
    pub fn from_store(points: Store<LanePoint<W::Elem>>, radix: u32) -> Option<Self> {
        if !Self::fits() {
            return None;
        }
        if Self::narrow() {
            LanePoints::from_store(points, radix).map(Self::Narrow)
        } else {
            LanePoints::from_store(points, radix).map(Self::Wide)
        }
    }

    /// The converted records, in input order.
    pub fn points(&self) -> &Store<LanePoint<W::Elem>> {
        match self {
            Self::Wide(p) => &p.points,
            Self::Narrow(p) => &p.points,
        }
    }

    /// One window's buckets ([`engine::accumulate`]).
    pub fn accumulate<'a>(
        &'a self,
        digits: &[i32],
        plan: &Plan,
        scheduler: &dyn Scheduler,
        batch: usize,
    ) -> (SizedWindow<'a, C, W, N>, ScheduleStats) {
        match self {
            Self::Wide(p) => {
                let (w, st) = engine::accumulate(p, digits, plan, scheduler, batch);
                (SizedWindow::Wide(w), st)
            }
            Self::Narrow(p) => {
                let (w, st) = engine::accumulate(p, digits, plan, scheduler, batch);
                (SizedWindow::Narrow(w), st)
            }
        }
    }
}

impl<C: MsmCurve, W: LaneArith<C::Base>, N: LaneArith<C::Base, Elem = W::Elem>> SizedWindow<'_, C, W, N> {
    /// The buckets as XYZZ points ([`LaneWindow::into_buckets`]).
    pub fn into_buckets(self) -> Vec<Xyzz<C>> {
        match self {
            Self::Wide(w) => w.into_buckets(),
            Self::Narrow(w) => w.into_buckets(),
        }
    }

    /// The window's sum, aggregated in lanes ([`LaneWindow::sum`]).
    pub fn sum(self) -> Xyzz<C> {
        match self {
            Self::Wide(w) => w.sum(),
            Self::Narrow(w) => w.sum(),
        }
    }
}
