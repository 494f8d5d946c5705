//! Groth16 proofs whose MSMs are zkmsm's (cargo feature `groth16`,
//! ark-groth16 0.5 keys and proofs): [`Prover::new`] sets the proving key's
//! five point sets up once (the papers' MSM_INIT: the bases of every proof
//! are the same), [`Prover::prove`] synthesizes a circuit, takes the witness
//! map from ark-groth16 (`LibsnarkReduction`, the same domain and `h_query`
//! length handling) and runs the four G1 MSMs and the G2 MSM on zkmsm.
//!
//! The proof is the one ark-groth16 makes: the same formulas, the same
//! random r and s drawn from the same generator in the same order, so
//! `Groth16::prove` and [`Prover::prove`] given equal generators return
//! equal proofs, and `Groth16::verify` accepts them.
//!
//! ```
//! use ark_bn254::{Bn254, Fr};
//! use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystemRef, SynthesisError};
//! use ark_relations::lc;
//!
//! /// x * x = y, y public.
//! struct Square(Fr);
//! impl ConstraintSynthesizer<Fr> for Square {
//!     fn generate_constraints(self, cs: ConstraintSystemRef<Fr>) -> Result<(), SynthesisError> {
//!         let y = cs.new_input_variable(|| Ok(self.0 * self.0))?;
//!         let x = cs.new_witness_variable(|| Ok(self.0))?;
//!         cs.enforce_constraint(lc!() + x, lc!() + x, lc!() + y)
//!     }
//! }
//!
//! let mut rng = ark_std::test_rng();
//! let x = Fr::from(7u64);
//! let pk = ark_groth16::Groth16::<Bn254>::generate_random_parameters_with_reduction(Square(x), &mut rng).unwrap();
//! let prover = zkmsm::groth16::Prover::new(&pk).unwrap();
//! let proof = prover.prove(Square(x), &mut rng).unwrap();
//! let pvk = ark_groth16::prepare_verifying_key(&pk.vk);
//! assert!(ark_groth16::Groth16::<Bn254>::verify_proof(&pvk, &proof, &[x * x]).unwrap());
//! ```

use crate::ark::{ArkAffine, ArkMsm};
use crate::error::MsmError;
use ark_ec::pairing::Pairing;
use ark_ec::CurveGroup;
use ark_ff::{BigInt, UniformRand};
use ark_groth16::r1cs_to_qap::{LibsnarkReduction, R1CSToQAP};
use ark_groth16::{Proof, ProvingKey};
use ark_poly::GeneralEvaluationDomain;
use ark_relations::r1cs::{ConstraintSynthesizer, ConstraintSystem, OptimizationGoal, SynthesisError};
use ark_std::rand::RngCore;
use std::time::{Duration, Instant};

/// Why no proof was made.
#[derive(Debug)]
pub enum ProveError {
    /// The circuit's synthesis, or the witness map, failed.
    Synthesis(SynthesisError),
    /// The witness does not satisfy the circuit: the first constraint that
    /// fails, by its name where the circuit named it.
    Unsatisfied {
        /// `ConstraintSystem::which_is_unsatisfied`'s answer.
        constraint: Option<String>,
    },
    /// The circuit does not fit the key: one of its vectors differs in
    /// length from the key's query for it.
    KeyMismatch {
        /// The proving key's field (`a_query`, `l_query`, `h_query`, ...).
        query: &'static str,
        /// The key's length.
        key: usize,
        /// The circuit's.
        circuit: usize,
    },
    /// An MSM failed (a point the engine refused while setting up).
    Msm(MsmError),
}

impl std::fmt::Display for ProveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProveError::Synthesis(e) => write!(f, "circuit synthesis failed: {e}"),
            ProveError::Unsatisfied { constraint: Some(c) } => {
                write!(f, "the witness does not satisfy the circuit: constraint {c} fails")
            }
            ProveError::Unsatisfied { constraint: None } => write!(f, "the witness does not satisfy the circuit"),
            ProveError::KeyMismatch { query, key, circuit } => write!(
                f,
                "the circuit does not fit the proving key: its {query} has {key} entries, the circuit needs {circuit}"
            ),
            ProveError::Msm(e) => write!(f, "MSM: {e}"),
        }
    }
}

impl std::error::Error for ProveError {}

impl From<SynthesisError> for ProveError {
    fn from(e: SynthesisError) -> Self {
        ProveError::Synthesis(e)
    }
}

impl From<MsmError> for ProveError {
    fn from(e: MsmError) -> Self {
        ProveError::Msm(e)
    }
}

/// Where a proof's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProveTimings {
    /// Circuit synthesis, the satisfaction check and inlining.
    pub synthesis: Duration,
    /// The QAP witness map (FFTs).
    pub witness_map: Duration,
    /// The MSM over `a_query`.
    pub msm_a: Duration,
    /// The MSM over `b_g1_query`.
    pub msm_b_g1: Duration,
    /// The G2 MSM over `b_g2_query`.
    pub msm_b_g2: Duration,
    /// The MSM over `h_query`.
    pub msm_h: Duration,
    /// The MSM over `l_query`.
    pub msm_l: Duration,
}

impl ProveTimings {
    /// The five MSMs together.
    pub fn msms(&self) -> Duration {
        self.msm_a + self.msm_b_g1 + self.msm_b_g2 + self.msm_h + self.msm_l
    }

    /// The whole proof.
    pub fn total(&self) -> Duration {
        self.synthesis + self.witness_map + self.msms()
    }
}

/// A proving key's point sets set up once for zkmsm's engines; proofs of
/// any circuit the key was made for.
pub struct Prover<E: Pairing>
where
    E::G1Affine: ArkAffine,
    E::G2Affine: ArkAffine,
{
    a: ArkMsm<E::G1Affine>,
    b_g1: ArkMsm<E::G1Affine>,
    b_g2: ArkMsm<E::G2Affine>,
    h: ArkMsm<E::G1Affine>,
    l: ArkMsm<E::G1Affine>,
    /// The queries' first entries (the constant 1 of the assignment).
    a0: E::G1Affine,
    b_g1_0: E::G1Affine,
    b_g2_0: E::G2Affine,
    alpha_g1: E::G1Affine,
    beta_g1: E::G1Affine,
    delta_g1: E::G1Affine,
    beta_g2: E::G2Affine,
    delta_g2: E::G2Affine,
}

/// The query without its first entry, which the constant 1 multiplies.
fn tail<'a, A>(query: &'a [A], name: &'static str) -> Result<(&'a A, &'a [A]), ProveError> {
    query.split_first().ok_or(ProveError::KeyMismatch { query: name, key: 0, circuit: 1 })
}

fn fits(query: &'static str, key: usize, circuit: usize) -> Result<(), ProveError> {
    if key == circuit {
        Ok(())
    } else {
        Err(ProveError::KeyMismatch { query, key, circuit })
    }
}

fn timed<T>(time: &mut Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    *time = t.elapsed();
    out
}

impl<E: Pairing> Prover<E>
where
    E::G1Affine: ArkAffine,
    E::G2Affine: ArkAffine,
    E::ScalarField: ark_ff::PrimeField<BigInt = BigInt<4>>,
{
    /// Sets `pk`'s five point sets up (conversion, the backend and GLV as
    /// `auto` decides for each size). The key's points are trusted, as
    /// ark-groth16 trusts them (arkworks validates points when it
    /// deserializes a key with validation).
    pub fn new(pk: &ProvingKey<E>) -> Result<Self, ProveError> {
        let (a0, a) = tail(&pk.a_query, "a_query")?;
        let (b_g1_0, b_g1) = tail(&pk.b_g1_query, "b_g1_query")?;
        let (b_g2_0, b_g2) = tail(&pk.b_g2_query, "b_g2_query")?;
        fits("b_g1_query", b_g1.len(), a.len())?;
        fits("b_g2_query", b_g2.len(), a.len())?;
        Ok(Self {
            a: ArkMsm::new(a)?,
            b_g1: ArkMsm::new(b_g1)?,
            b_g2: ArkMsm::new(b_g2)?,
            h: ArkMsm::new(&pk.h_query)?,
            l: ArkMsm::new(&pk.l_query)?,
            a0: *a0,
            b_g1_0: *b_g1_0,
            b_g2_0: *b_g2_0,
            alpha_g1: pk.vk.alpha_g1,
            beta_g1: pk.beta_g1,
            delta_g1: pk.delta_g1,
            beta_g2: pk.vk.beta_g2,
            delta_g2: pk.vk.delta_g2,
        })
    }

    /// A zero-knowledge proof of `circuit`: r and s drawn from `rng` as
    /// ark-groth16 draws them (r first).
    pub fn prove<C, R>(&self, circuit: C, rng: &mut R) -> Result<Proof<E>, ProveError>
    where
        C: ConstraintSynthesizer<E::ScalarField>,
        R: RngCore,
    {
        let r = E::ScalarField::rand(rng);
        let s = E::ScalarField::rand(rng);
        self.prove_deterministic(circuit, r, s)
    }

    /// The proof with the given r and s (tests; r = s = 0 is not
    /// zero-knowledge).
    pub fn prove_deterministic<C>(
        &self,
        circuit: C,
        r: E::ScalarField,
        s: E::ScalarField,
    ) -> Result<Proof<E>, ProveError>
    where
        C: ConstraintSynthesizer<E::ScalarField>,
    {
        self.prove_timed(circuit, r, s).map(|(proof, _)| proof)
    }

    /// [`Self::prove_deterministic`] with where its time went.
    pub fn prove_timed<C>(
        &self,
        circuit: C,
        r: E::ScalarField,
        s: E::ScalarField,
    ) -> Result<(Proof<E>, ProveTimings), ProveError>
    where
        C: ConstraintSynthesizer<E::ScalarField>,
    {
        let mut t = ProveTimings::default();
        let cs = timed(&mut t.synthesis, || -> Result<_, ProveError> {
            let cs = ConstraintSystem::<E::ScalarField>::new_ref();
            cs.set_optimization_goal(OptimizationGoal::Constraints);
            circuit.generate_constraints(cs.clone())?;
            if !cs.is_satisfied()? {
                return Err(ProveError::Unsatisfied { constraint: cs.which_is_unsatisfied()? });
            }
            cs.finalize();
            Ok(cs)
        })?;
        let h = timed(&mut t.witness_map, || {
            LibsnarkReduction::witness_map::<E::ScalarField, GeneralEvaluationDomain<E::ScalarField>>(cs.clone())
        })?;
        let system = cs.borrow().ok_or(ProveError::Synthesis(SynthesisError::MissingCS))?;
        let input = &system.instance_assignment[1..];
        let aux = &system.witness_assignment;
        let assignment = [input, &aux[..]].concat();
        fits("a_query", self.a.len() + 1, assignment.len() + 1)?;
        fits("l_query", self.l.len(), aux.len())?;
        // the witness map's domain has one coefficient more than h_query
        // (the top one, which t(x) * x^i / delta does not reach): as
        // ark-groth16, the MSM takes h_query's length
        if h.len() != self.h.len() && h.len() != self.h.len() + 1 {
            return Err(ProveError::KeyMismatch { query: "h_query", key: self.h.len(), circuit: h.len() });
        }
        let h = &h[..self.h.len()];

        let msm_a = timed(&mut t.msm_a, || self.a.msm(&assignment))?;
        let msm_b_g1 = timed(&mut t.msm_b_g1, || self.b_g1.msm(&assignment))?;
        let msm_b_g2 = timed(&mut t.msm_b_g2, || self.b_g2.msm(&assignment))?;
        let msm_h = timed(&mut t.msm_h, || self.h.msm(h))?;
        let msm_l = timed(&mut t.msm_l, || self.l.msm(aux))?;

        let g_a = self.delta_g1 * r + self.a0 + msm_a + self.alpha_g1;
        let g1_b = self.delta_g1 * s + self.b_g1_0 + msm_b_g1 + self.beta_g1;
        let g2_b = self.delta_g2 * s + self.b_g2_0 + msm_b_g2 + self.beta_g2;
        let g_c = g_a * s + g1_b * r - self.delta_g1 * (r * s) + msm_l + msm_h;
        let proof = Proof { a: g_a.into_affine(), b: g2_b.into_affine(), c: g_c.into_affine() };
        Ok((proof, t))
    }

    /// The number of variables the key's circuit has beside the constant 1
    /// (public inputs and witnesses).
    pub fn num_variables(&self) -> usize {
        self.a.len()
    }
}

/// A synthetic circuit of `steps` constraints, the tests' and the prover
/// benchmark's (a MiMC-style chain of squarings): x_0 = `start` (a
/// witness), x_{i+1} = x_i (x_i + i + 3), one constraint a step, every x a
/// full-size field element; the last `public` values are public inputs.
/// `break_at`: that step's value is off by one, a witness that does not
/// satisfy its constraint.
#[derive(Clone, Debug)]
pub struct SquareChain<F> {
    /// x_0.
    pub start: F,
    /// Constraints.
    pub steps: usize,
    /// Public inputs: the last values of the chain (at most `steps`).
    pub public: usize,
    /// The step whose value is wrong, if any.
    pub break_at: Option<usize>,
}

impl<F: ark_ff::PrimeField> SquareChain<F> {
    /// `steps` constraints, the last `public` values public, x_0 = 5.
    pub fn new(steps: usize, public: usize) -> Self {
        SquareChain { start: F::from(5u64), steps, public: public.min(steps), break_at: None }
    }

    /// x_1 .. x_steps, as the circuit computes them.
    pub fn values(&self) -> Vec<F> {
        let mut x = self.start;
        (0..self.steps)
            .map(|i| {
                x *= x + F::from(i as u64 + 3);
                if self.break_at == Some(i) {
                    x += F::ONE;
                }
                x
            })
            .collect()
    }

    /// The public inputs, in the verifier's order.
    pub fn public_inputs(&self) -> Vec<F> {
        let v = self.values();
        v[self.steps - self.public..].to_vec()
    }
}

impl<F: ark_ff::PrimeField> ConstraintSynthesizer<F> for SquareChain<F> {
    fn generate_constraints(self, cs: ark_relations::r1cs::ConstraintSystemRef<F>) -> Result<(), SynthesisError> {
        use ark_relations::{lc, r1cs::Variable};
        let values = self.values();
        let mut x = cs.new_witness_variable(|| Ok(self.start))?;
        for (i, &value) in values.iter().enumerate() {
            let next = if i >= self.steps - self.public {
                cs.new_input_variable(|| Ok(value))?
            } else {
                cs.new_witness_variable(|| Ok(value))?
            };
            let c = F::from(i as u64 + 3);
            cs.enforce_constraint(lc!() + x, lc!() + x + (c, Variable::One), lc!() + next)?;
            x = next;
        }
        Ok(())
    }
}
