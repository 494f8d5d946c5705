//! Shared helpers for the peer runners: argument parsing, timing, JSON output.

use std::collections::HashMap;
use std::time::Instant;

/// `--key value` pairs after a subcommand.
pub struct Args {
    pub sub: String,
    kv: HashMap<String, String>,
}

impl Args {
    /// `SUBCOMMAND --key value ...`
    pub fn parse() -> Self {
        let mut it = std::env::args().skip(1);
        let sub = it.next().unwrap_or_else(|| die("missing subcommand"));
        Self::pairs(sub, it)
    }

    /// `--key value ...` without a subcommand.
    pub fn parse_opt() -> Self {
        Self::pairs(String::new(), std::env::args().skip(1))
    }

    fn pairs(sub: String, mut it: impl Iterator<Item = String>) -> Self {
        let mut kv = HashMap::new();
        while let Some(k) = it.next() {
            let Some(key) = k.strip_prefix("--") else { die(&format!("unexpected argument {k}")) };
            let v = it.next().unwrap_or_else(|| die(&format!("--{key} needs a value")));
            kv.insert(key.to_string(), v);
        }
        Args { sub, kv }
    }
    pub fn get(&self, k: &str) -> String {
        self.kv.get(k).cloned().unwrap_or_else(|| die(&format!("missing --{k}")))
    }
    pub fn get_or(&self, k: &str, d: &str) -> String {
        self.kv.get(k).cloned().unwrap_or_else(|| d.to_string())
    }
    pub fn usize_or(&self, k: &str, d: usize) -> usize {
        self.get_or(k, &d.to_string()).parse().unwrap_or_else(|_| die(&format!("--{k}: not a number")))
    }
}

pub fn die(msg: &str) -> ! {
    eprintln!("{}: {msg}", std::env::args().next().unwrap_or_default());
    std::process::exit(1)
}

pub fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| die(&format!("{path}: {e}")))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One warm-up call, then `repeat` timed calls; (median ms, all runs in ms).
/// Returns the last call's output too.
pub fn time_runs<T>(repeat: usize, mut f: impl FnMut() -> T) -> (T, f64, Vec<f64>) {
    let mut out = f();
    let mut runs = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        let t0 = Instant::now();
        out = f();
        runs.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    let mut s = runs.clone();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let m = s.len() / 2;
    let med = if s.len() % 2 == 1 { s[m] } else { (s[m - 1] + s[m]) / 2.0 };
    (out, med, runs)
}

/// The JSON line the harness reads (last line of stdout).
pub fn report(imp: &str, curve: &str, n: usize, result: &str, med: f64, runs: &[f64]) {
    let runs: Vec<String> = runs.iter().map(|r| format!("{r:.3}")).collect();
    println!(
        "{{\"impl\":\"{imp}\",\"curve\":\"{curve}\",\"n\":{n},\"threads\":{},\"result\":\"{result}\",\"msm_ms\":{med:.3},\"runs_ms\":[{}]}}",
        rayon::current_num_threads(),
        runs.join(",")
    );
}

/// Splits a file of 32-byte little-endian scalars.
pub fn scalar_chunks(raw: &[u8]) -> Vec<[u8; 32]> {
    if raw.len() % 32 != 0 {
        die("scalar file length is not a multiple of 32");
    }
    raw.chunks_exact(32).map(|c| c.try_into().unwrap()).collect()
}
