//! What travels through the modelled pipelines.
//!
//! The schedulers are generic over a [`Datapath`]: in statistics mode the
//! values are `()` and every operation compiles away, leaving only bucket
//! indices and timing; in functional mode the values are real curve points
//! and every addition the model issues is really computed, with the
//! read-at-issue / write-at-retire timing of the hardware, so a scheduler
//! that lets two additions to one bucket overlap produces a wrong MSM.

use std::borrow::Cow;

/// The group operations the model needs.
pub trait SimGroup: Sync {
    /// A group element as the model moves it.
    type P: Clone + PartialEq + core::fmt::Debug + Send + Sync;
    /// The identity.
    fn identity(&self) -> Self::P;
    /// a + b, any two elements.
    fn add(&self, a: &Self::P, b: &Self::P) -> Self::P;
    /// 2a.
    fn double(&self, a: &Self::P) -> Self::P {
        self.add(a, a)
    }
    /// -a.
    fn neg(&self, a: &Self::P) -> Self::P;
}

/// Values and operations of one simulation run.
pub trait Datapath: Sync {
    /// A bucket value (`()` in statistics mode).
    type V: Clone;
    /// False for the statistics mode: values are `()` and nothing is computed.
    const FUNCTIONAL: bool;
    /// The input point `i`, negated when `neg`.
    fn input(&self, i: u32, neg: bool) -> Self::V;
    /// a + b.
    fn add(&self, a: &Self::V, b: &Self::V) -> Self::V;
    /// 2a.
    fn double(&self, a: &Self::V) -> Self::V;
    /// The identity (an empty bucket).
    fn zero(&self) -> Self::V;
}

/// Statistics mode: bucket indices and timing only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats;

impl Datapath for Stats {
    type V = ();
    const FUNCTIONAL: bool = false;
    #[inline(always)]
    fn input(&self, _: u32, _: bool) {}
    #[inline(always)]
    fn add(&self, _: &(), _: &()) {}
    #[inline(always)]
    fn double(&self, _: &()) {}
    #[inline(always)]
    fn zero(&self) {}
}

/// Functional mode over any [`SimGroup`]: the input points and their
/// negations are precomputed (the hardware reads `-P` as cheaply as `P`).
pub struct Functional<'a, G: SimGroup> {
    /// The group the points belong to.
    pub group: &'a G,
    points: Cow<'a, [G::P]>,
    negated: Cow<'a, [G::P]>,
}

impl<'a, G: SimGroup> Functional<'a, G> {
    /// A datapath over `points`, their negations computed once.
    pub fn new(group: &'a G, points: &[G::P]) -> Self {
        Self {
            group,
            points: Cow::Owned(points.to_vec()),
            negated: Cow::Owned(points.iter().map(|p| group.neg(p)).collect()),
        }
    }

    /// Borrow points and their negations prepared once (MSM_INIT).
    pub fn borrowed(group: &'a G, points: &'a [G::P], negated: &'a [G::P]) -> Self {
        assert_eq!(points.len(), negated.len());
        Self { group, points: Cow::Borrowed(points), negated: Cow::Borrowed(negated) }
    }
}

impl<G: SimGroup> Datapath for Functional<'_, G> {
    type V = G::P;
    const FUNCTIONAL: bool = true;
    fn input(&self, i: u32, neg: bool) -> G::P {
        if neg {
            self.negated[i as usize].clone()
        } else {
            self.points[i as usize].clone()
        }
    }
    fn add(&self, a: &G::P, b: &G::P) -> G::P {
        self.group.add(a, b)
    }
    fn double(&self, a: &G::P) -> G::P {
        self.group.double(a)
    }
    fn zero(&self) -> G::P {
        self.group.identity()
    }
}

/// Bucket memory: `windows x buckets` slots. Bucket `m - 1` of a window holds
/// the points whose digit has magnitude `m`.
#[derive(Clone, Debug)]
pub struct Buckets<V> {
    /// Buckets per window.
    pub per_window: usize,
    /// Number of windows.
    pub windows: usize,
    /// Window-major slots (`None`: empty bucket); none at all in statistics mode.
    pub slots: Vec<Option<V>>,
}

impl<V: Clone> Buckets<V> {
    /// Empty bucket memory for `windows x per_window` buckets (slots only when `functional`).
    pub fn new(windows: usize, per_window: usize, functional: bool) -> Self {
        let n = if functional { windows * per_window } else { 0 };
        Self { per_window, windows, slots: vec![None; n] }
    }

    /// The bucket values of window `w` (functional mode).
    pub fn window(&self, w: usize) -> &[Option<V>] {
        &self.slots[w * self.per_window..(w + 1) * self.per_window]
    }
}
