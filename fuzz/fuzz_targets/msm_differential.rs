#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| zkmsm_checks::msm::msm_differential(data));
