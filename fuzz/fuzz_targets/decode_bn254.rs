#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| zkmsm_checks::decode::decode_bn254(data));
