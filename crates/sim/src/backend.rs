//! The model as a `zkmsm` backend: the host pipeline of the `zkmsm` crate
//! (plan, signed digits, aggregation, result aggregation) drives bucket
//! accumulation through the modelled hardware, window by window, with real
//! points. Same host code, same answer as the CPU engine, plus cycle counts.
//!
//! The seam hands over one window at a time, so the round-robin schedulers
//! (Hardcaml, ZPrize) see a single window here: still correct, but their
//! cycle counts are those of a one-window machine. Use the model's own
//! functional mode ([`crate::model::ModelConfig::run_functional`]) for
//! their multi-window timing.

use crate::curves::XyzzGroup;
use crate::datapath::{Buckets, Functional, SimGroup};
use crate::digits::SliceDigits;
use crate::model::ModelConfig;
use crate::sched::AccStats;
use std::sync::{Arc, Mutex};
use zkmsm::{Backend, Plan};
use zkmsm_curve::{Affine, Xyzz};

/// A `zkmsm::Backend` running bucket accumulation on the cycle model.
pub struct SimBackend {
    /// The machine and scheduler the accumulation is modelled on.
    pub cfg: ModelConfig,
    stats: Arc<Mutex<Vec<AccStats>>>,
}

impl SimBackend {
    /// A backend modelling `cfg`.
    pub fn new(cfg: ModelConfig) -> Self {
        Self { cfg, stats: Arc::default() }
    }

    /// Where the statistics of every accumulated window land, in call order
    /// (keep it before handing the backend to an `MsmContext`).
    pub fn stats(&self) -> Arc<Mutex<Vec<AccStats>>> {
        self.stats.clone()
    }
}

/// Points and their negations, prepared once.
pub struct Prepared<C: zkmsm::InputCurve> {
    points: Vec<Xyzz<C>>,
    negated: Vec<Xyzz<C>>,
}

impl<C: zkmsm::InputCurve> Backend<C> for SimBackend {
    type Prepared = Prepared<C>;
    type Bucket = Xyzz<C>;
    type Window<'a> = Vec<Xyzz<C>>;

    fn name(&self) -> &'static str {
        "sim"
    }

    fn prepare(&self, points: &[Affine<C>]) -> Prepared<C> {
        let points: Vec<Xyzz<C>> = points.iter().map(Xyzz::from_affine).collect();
        let negated = points.iter().map(|p| p.neg()).collect();
        Prepared { points, negated }
    }

    fn accumulate(&self, prepared: &Prepared<C>, digits: &[i32], plan: &Plan) -> Vec<Xyzz<C>> {
        let group = XyzzGroup::<C>::default();
        let dp = Functional::borrowed(&group, &prepared.points, &prepared.negated);
        let src = SliceDigits { digits, c: plan.c };
        let mut cfg = self.cfg.clone();
        cfg.c = plan.c;
        let mut buckets = Buckets::new(1, plan.buckets, true);
        let st = cfg.accumulate(&src, &dp, &mut buckets);
        self.stats.lock().unwrap().push(st);
        buckets.slots.into_iter().map(|b| b.unwrap_or_else(|| group.identity())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves::{points, scalars, ScalarSet};
    use crate::model::SchedKind;
    use zkmsm::{MsmBuilder, Validation};
    use zkmsm_curve::{Bls12_377, Bls12_381};

    fn same_as_cpu_engine<C: zkmsm::InputCurve>(n: usize, set: ScalarSet, c: u32) {
        let pts = points::<C>(n, 21);
        let sc = scalars::<C>(n, set, 22);
        let cpu = zkmsm::msm_bigint(&pts, &sc).unwrap();
        for s in SchedKind::ALL {
            let mut cfg = s.preset();
            if s == SchedKind::Zprize {
                cfg.machine.depth = 300;
            }
            let backend = SimBackend::new(cfg);
            let stats = backend.stats();
            let builder = MsmBuilder::new().validation(Validation::OnCurveOnly).window(Some(c));
            let ctx = builder.build_context(backend, &pts).unwrap();
            let got = ctx.msm_bigint(&sc).unwrap();
            assert_eq!(got, cpu, "{} n={n} {set:?}", s.name());
            let stats = stats.lock().unwrap();
            let windows = ctx.plan().windows as usize;
            assert_eq!(stats.len(), if n == 0 { 0 } else { windows }, "{}", s.name());
        }
    }

    #[test]
    fn backend_matches_cpu_engine_bls12_377() {
        same_as_cpu_engine::<Bls12_377>(1 << 9, ScalarSet::Uniform, 7);
        same_as_cpu_engine::<Bls12_377>(100, ScalarSet::AllEqual, 7);
    }

    #[test]
    fn backend_matches_cpu_engine_bls12_381() {
        same_as_cpu_engine::<Bls12_381>(1 << 9, ScalarSet::Uniform, 8);
        same_as_cpu_engine::<Bls12_381>(33, ScalarSet::Zero, 5);
    }
}
