//! Every input kept in fuzz/corpus, replayed through the property its fuzz
//! target checks: what fuzzing found (and kept as coverage) stays covered in
//! CI without libFuzzer or nightly. Fuzzing itself: fuzz/README.md.

use std::path::PathBuf;

/// The kept corpus (minimized, so it may lose any one input) and the inputs
/// that once failed (fuzz/regressions, kept for good).
fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let corpus = fuzz.join("corpus").join(target);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("{}: {e}", corpus.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!inputs.is_empty(), "{}: no corpus", corpus.display());
    if let Ok(found) = std::fs::read_dir(fuzz.join("regressions").join(target)) {
        inputs.extend(found.map(|e| e.unwrap().path()));
    }
    inputs.sort();
    for path in &inputs {
        let data = std::fs::read(path).unwrap();
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("{target}: {} fails: {}", path.display(), msg.unwrap_or_default());
        }
    }
    eprintln!("{target}: {} inputs replayed", inputs.len());
}

#[test]
fn decode_bls12_377_corpus() {
    replay("decode_bls12_377", zkmsm_checks::decode::decode_bls12_377);
}

#[test]
fn decode_bls12_381_corpus() {
    replay("decode_bls12_381", zkmsm_checks::decode::decode_bls12_381);
}

#[test]
fn decode_bn254_corpus() {
    replay("decode_bn254", zkmsm_checks::decode::decode_bn254);
}

#[test]
fn read_scalars_corpus() {
    replay("read_scalars", zkmsm_checks::readers::read_scalars);
}

#[test]
fn read_inputs_corpus() {
    replay("read_inputs", zkmsm_checks::readers::read_inputs);
}

#[test]
fn msm_differential_corpus() {
    replay("msm_differential", zkmsm_checks::msm::msm_differential);
}
