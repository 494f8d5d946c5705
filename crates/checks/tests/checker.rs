//! The checkers themselves: their references agree with each other and with
//! zkmsm's bucket-free reference, and a wrong answer makes them fail (a
//! checker that cannot fail would prove nothing).

use rand::SeedableRng;
use zkmsm::{Bls12_377, Bls12_381};
use zkmsm_checks::curves::TestCurve;
use zkmsm_checks::msm::{check_case, Case, Class, Tally};

fn references_agree<C: TestCurve>() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    for class in Class::ALL {
        for _ in 0..2 {
            let mut case = Case::<C>::random(class, &mut rng);
            if case.points.len() > 300 || case.points.len() != case.scalars.len() {
                continue;
            }
            case.window = None;
            let e = case.expected().unwrap();
            assert!(zkmsm::reference::naive_msm(&case.points, &case.limbs()) == e, "{class:?}");
            assert_eq!(C::arkworks_msm(&case.points, &case.limbs()), e.to_bytes(zkmsm_curve::PointFormat::Compressed));
            if class == Class::IdentityResult {
                assert!(e.is_identity());
            }
        }
    }
}

#[test]
fn the_references_agree_bls12_377() {
    references_agree::<Bls12_377>();
}

#[test]
fn the_references_agree_bls12_381() {
    references_agree::<Bls12_381>();
}

#[test]
fn every_engine_runs_and_a_wrong_reference_is_caught() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    let case = Case::<Bls12_381>::random(Class::Random, &mut rng);
    let mut tally = Tally::new();
    check_case(&case, None, &mut tally);
    assert_eq!(tally.len(), 8, "every engine but twisted Edwards on BLS12-381: {tally:?}");
    let wrong = vec![0u8; 48];
    let r = std::panic::catch_unwind(|| check_case(&case, Some(&wrong), &mut Tally::new()));
    assert!(r.is_err(), "a disagreeing reference must fail the check");
}

#[test]
fn reader_and_model_agree_on_a_short_and_a_whole_points_file() {
    // a points file one byte short, as a file and as a stream: both refused
    let s = zkmsm::io::encode_scalars(&[[1, 0, 0, 0]]);
    for mode in [0u8, 8, 16, 24] {
        let mut data = vec![mode];
        data.extend((s.len() as u16).to_le_bytes());
        data.extend(&s);
        let p = Bls12_377::generator().to_bytes(zkmsm_curve::PointFormat::Compressed);
        data.extend(&p[..47]);
        zkmsm_checks::readers::read_inputs(&data);
        data.push(p[47]);
        zkmsm_checks::readers::read_inputs(&data);
    }
}

use zkmsm::SwCurve;
