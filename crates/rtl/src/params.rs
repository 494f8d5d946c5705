//! The RTL's parameter file (`rtl/src/zk_params.svh`) and the C++ header
//! generated from it (`rtl/tb/zk_params.h`).
//!
//! The SystemVerilog sources take the modulus and the multiplier's
//! configuration from one file of `` `define ZK_<NAME> <value> `` lines; the
//! C++ test benches and the Verilated driver read the same values from a
//! header that [`cpp_header`] writes (`zkmsm-vectors params OUT`). A test
//! checks that the committed header is what the generator makes and that the
//! modulus is the host library's.

use std::fmt::Write as _;

/// One `` `define ZK_<NAME> <value> ``: a decimal integer, a `512'h`
/// constant, or a Verilog name (a module's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A Verilog identifier (not a number: the C++ header leaves it out).
    Name(String),
    /// A decimal integer.
    Int(u64),
    /// Hex digits of a wide constant, most significant first, without the
    /// `512'h` prefix.
    Hex {
        /// The constant's width in bits.
        bits: u32,
        /// The hex digits.
        digits: String,
    },
}

/// The parameters of `zk_params.svh`, in file order (names without `ZK_`).
pub fn parse_svh(text: &str) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::new();
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("`define ZK_") else { continue };
        let mut it = rest.split_whitespace();
        if it.clone().next() == Some("PARAMS_SVH") {
            continue; // the include guard
        }
        let (Some(name), Some(value)) = (it.next(), it.next()) else {
            return Err(format!("zk_params.svh line {}: expected `define ZK_<NAME> <value>", lineno + 1));
        };
        let v = if let Some((bits, hex)) = value.split_once("'h") {
            let bits: u32 = bits.parse().map_err(|_| format!("zk_params.svh line {}: bad width", lineno + 1))?;
            if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(format!("zk_params.svh line {}: bad hex constant", lineno + 1));
            }
            Value::Hex { bits, digits: hex.to_ascii_lowercase() }
        } else if value.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            Value::Name(value.to_string())
        } else {
            Value::Int(value.parse().map_err(|_| format!("zk_params.svh line {}: bad integer {value}", lineno + 1))?)
        };
        out.push((name.to_string(), v));
    }
    Ok(out)
}

/// Look a parameter up by name (without `ZK_`).
pub fn get<'a>(params: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    params.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// The C++ header with the same constants: integers as `constexpr int`, wide
/// constants as hex strings (most significant digit first).
pub fn cpp_header(params: &[(String, Value)]) -> String {
    let mut s = String::new();
    s.push_str("// GENERATED from rtl/src/zk_params.svh by `zkmsm-vectors params` -- do not edit.\n");
    s.push_str("// crates/rtl's test params_header_is_generated_from_svh fails if this file drifts.\n");
    s.push_str("#pragma once\n\n");
    for (name, v) in params {
        match v {
            Value::Int(i) => {
                let _ = writeln!(s, "constexpr int ZK_{name} = {i};");
            }
            Value::Hex { bits, digits } => {
                let _ = writeln!(s, "constexpr int ZK_{name}_BITS = {bits};");
                let _ = writeln!(s, "constexpr const char* ZK_{name}_HEX = \"{digits}\";");
            }
            Value::Name(_) => {}
        }
    }
    s
}

/// `rtl/src/zk_params.svh` of this repository.
pub fn svh_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rtl/src/zk_params.svh")
}

/// `rtl/tb/zk_params.h` of this repository.
pub fn header_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rtl/tb/zk_params.h")
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkmsm_field::{limbs, Bls12_377Fq, Bls12_381Fq};

    fn params() -> Vec<(String, Value)> {
        parse_svh(&std::fs::read_to_string(svh_path()).unwrap()).unwrap()
    }

    #[test]
    fn params_header_is_generated_from_svh() {
        let committed = std::fs::read_to_string(header_path()).unwrap();
        assert!(
            committed == cpp_header(&params()),
            "rtl/tb/zk_params.h is out of date: run `cargo run -p zkmsm-rtl --bin zkmsm-vectors -- params rtl/tb/zk_params.h`"
        );
    }

    #[test]
    fn svh_modulus_is_the_host_field() {
        let p = params();
        let Some(Value::Hex { bits: 512, digits }) = get(&p, "Q") else { panic!("ZK_Q missing") };
        let padded = format!("{:0>96}", digits.trim_start_matches('0'));
        assert_eq!(crate::parse_hex(&padded), Bls12_377Fq::MODULUS);
        assert_eq!(get(&p, "QBITS"), Some(&Value::Int(limbs::num_bits(&Bls12_377Fq::MODULUS) as u64)));
        assert_eq!(get(&p, "NB"), Some(&Value::Int(384)));
    }

    /// The twisted Edwards constant the aggregation's conversion multiplies
    /// by (zk_te_agg_in) is the host's k = 2d, in Montgomery form.
    #[test]
    fn svh_te_k_is_the_host_constant() {
        let p = params();
        let Some(Value::Hex { bits: 512, digits }) = get(&p, "TE_K") else { panic!("ZK_TE_K missing") };
        let padded = format!("{:0>96}", digits.trim_start_matches('0'));
        assert_eq!(&crate::parse_hex(&padded), zkmsm_curve::te::params().k.mont_limbs());
    }

    #[test]
    fn svh_bls12_381_modulus_is_the_host_field() {
        let p = params();
        let Some(Value::Hex { bits: 512, digits }) = get(&p, "Q_BLS12_381") else { panic!("ZK_Q_BLS12_381 missing") };
        let padded = format!("{:0>96}", digits.trim_start_matches('0'));
        assert_eq!(crate::parse_hex(&padded), Bls12_381Fq::MODULUS);
        assert_eq!(get(&p, "QBITS_BLS12_381"), Some(&Value::Int(limbs::num_bits(&Bls12_381Fq::MODULUS) as u64)));
    }

    #[test]
    fn svh_bn254_modulus_and_width_are_the_host_field() {
        use zkmsm_field::{Bn254Fq, PrimeField};
        let p = params();
        let Some(Value::Hex { bits: 512, digits }) = get(&p, "Q_BN254") else { panic!("ZK_Q_BN254 missing") };
        let padded = format!("{:0>96}", digits.trim_start_matches('0'));
        let q = crate::parse_hex(&padded);
        assert_eq!(q[..4], Bn254Fq::MODULUS[..]);
        assert_eq!(q[4..], [0, 0]);
        assert_eq!(get(&p, "QBITS_BN254"), Some(&Value::Int(limbs::num_bits(&Bn254Fq::MODULUS) as u64)));
        // the core's Montgomery radix 2^NB is the host's (crate::format)
        assert_eq!(get(&p, "NB_BN254"), Some(&Value::Int(8 * <Bn254Fq as PrimeField>::NUM_BYTES as u64)));
    }

    #[test]
    fn parser_rejects_malformed_lines() {
        assert!(parse_svh("`define ZK_X").is_err());
        assert!(parse_svh("`define ZK_X 12'hzz").is_err());
        assert!(parse_svh("`define ZK_X 1abc").is_err());
        assert!(parse_svh("`define ZK_X a-b").is_err());
        assert_eq!(parse_svh("`define ZK_X zk_m1").unwrap(), vec![("X".into(), Value::Name("zk_m1".into()))]);
        let p = parse_svh("`define ZK_A 3\n`define OTHER 4\n`define ZK_B 8'hFF").unwrap();
        assert_eq!(p, vec![("A".into(), Value::Int(3)), ("B".into(), Value::Hex { bits: 8, digits: "ff".into() })]);
    }
}
