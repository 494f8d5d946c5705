//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "zkmsm",
    version,
    about = "Multi-scalar multiplication on G1 and G2 of BLS12-377, BLS12-381 and BN254 (CPU engine, accelerator model)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run an MSM on built-in deterministic inputs and check it against an independent reference.
    Demo(DemoArgs),
    /// Write random subgroup points and uniform scalars to files.
    Gen(GenArgs),
    /// Compute the MSM of a points file (or a prepared file) and a scalars file.
    Msm(MsmArgs),
    /// Validate and convert points once, and write them in the backend's own layout to a prepared file for `msm --prepared`.
    Prepare(PrepareArgs),
    /// Time the MSM phases on generated inputs at several sizes.
    Bench(BenchArgs),
    /// Cycle-level model of the accelerator (schedulers, pipelines, aggregation).
    Sim(Box<zkmsm_sim::cli::SimArgs>),
}

/// A curve by its name, one of the library's registry ([`zkmsm::Curve`]):
/// `--curve` takes the names the registry has, so a curve added there is a
/// name here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurveName(pub zkmsm::Curve);

impl CurveName {
    /// The registry's entry for this curve in `group`.
    pub fn in_group(self, group: GroupName) -> zkmsm::Curve {
        self.0.with_group(group.group())
    }

    /// `--curve`'s parser: the registry's names, listed in `--help`.
    fn parser() -> impl clap::builder::TypedValueParser<Value = CurveName> {
        use clap::builder::TypedValueParser;
        clap::builder::PossibleValuesParser::new(zkmsm::Curve::names())
            .map(|name| CurveName(zkmsm::Curve::from_name(&name).expect("a name of the registry")))
    }
}

/// The group of the curve: G1, or G2 over the quadratic extension (no
/// RTL core, no twisted Edwards form).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupName {
    G1,
    G2,
}

impl GroupName {
    /// The library's group.
    pub fn group(self) -> zkmsm::Group {
        match self {
            GroupName::G1 => zkmsm::Group::G1,
            GroupName::G2 => zkmsm::Group::G2,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatName {
    /// arkworks' compressed encoding
    Compressed,
    /// arkworks' uncompressed encoding
    Uncompressed,
    /// big-endian x and y, (0, 0) the identity: Ethereum's layout: EIP-196/197 on BN254, EIP-2537 on BLS12-381 (none on BLS12-377)
    Evm,
}

impl From<FormatName> for zkmsm_curve::PointFormat {
    fn from(f: FormatName) -> Self {
        match f {
            FormatName::Compressed => zkmsm_curve::PointFormat::Compressed,
            FormatName::Uncompressed => zkmsm_curve::PointFormat::Uncompressed,
            FormatName::Evm => zkmsm_curve::PointFormat::Evm,
        }
    }
}

/// Byte order of the 32-byte scalars.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndianName {
    /// least significant byte first (arkworks, zkmsm's files)
    Little,
    /// most significant byte first (the EVM's precompiles, Solidity's uint256)
    Big,
}

impl From<EndianName> for zkmsm::ScalarEndian {
    fn from(e: EndianName) -> Self {
        match e {
            EndianName::Little => zkmsm::ScalarEndian::Little,
            EndianName::Big => zkmsm::ScalarEndian::Big,
        }
    }
}

/// Bucket-accumulation backends (see docs/ARCHITECTURE.md).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendName {
    /// The fastest measured for the curve and size.
    Auto,
    /// XYZZ buckets, one mixed addition per point (arkworks/blst style).
    Xyzz,
    /// Affine buckets, one inversion per batch, greedy scheduler.
    BatchAffine,
    /// Affine buckets, CycloneMSM's delayed scheduler.
    BatchAffineDelayed,
    /// Twisted Edwards extended buckets, 7-multiplication additions (BLS12-377 only).
    TwistedEdwards,
    /// The RTL core, simulated by Verilator (BLS12-381, BLS12-377 and BN254, `--rtl-adder`; zkmsm-cli built with `--features rtl`).
    Rtl,
}

/// The adder of the simulated RTL core (`--backend rtl`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtlAdder {
    /// The twisted Edwards core (BLS12-377 only: the curve needs a twisted Edwards form).
    Edwards,
    /// The batched-affine core (any short-Weierstrass curve built: BLS12-381, BLS12-377, BN254).
    Affine,
}

/// Where the simulated core's windows are aggregated (`--backend rtl`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RtlAggregation {
    /// The core sends every bucket; the host sums them.
    #[default]
    Host,
    /// The core reduces each window through its own adder and sends two partial sums per group of buckets (either core; the twisted Edwards one through a conversion of two multipliers).
    Device,
}

/// The simulated core's options (`--backend rtl` only).
#[derive(Args, Debug, Clone, Copy)]
pub struct RtlArgs {
    /// `--backend rtl`: cores on the point stream (window w on core w mod K), at most the simulated accelerator's NCORES.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub rtl_cores: u32,
    /// `--backend rtl`: the core's adder (default: edwards on BLS12-377, affine on BLS12-381 and BN254).
    #[arg(long, value_enum)]
    pub rtl_adder: Option<RtlAdder>,
    /// `--backend rtl`: where each window's buckets are summed.
    #[arg(long, value_enum, default_value = "host")]
    pub rtl_aggregation: RtlAggregation,
    /// `--rtl-aggregation device`: groups of 2^M buckets (default: from the MSM's size; larger groups send fewer sums and take longer on the device).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=15))]
    pub rtl_agg_log_m: Option<u32>,
}

impl RtlArgs {
    /// Whether any option was given other than its default.
    pub fn any(&self) -> bool {
        self.rtl_cores != 1
            || self.rtl_adder.is_some()
            || self.rtl_aggregation != RtlAggregation::Host
            || self.rtl_agg_log_m.is_some()
    }
}

/// The GLV endomorphism (2n points, half-size scalars).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlvName {
    /// Where it measured faster (backend, size, CPU).
    Auto,
    /// Always (not with --precompute M > 1 or --backend rtl; --prepared: a file prepared with GLV; --memory-budget: per chunk).
    On,
    /// Never.
    Off,
}

impl GlvName {
    pub fn mode(self) -> zkmsm::GlvMode {
        match self {
            GlvName::Auto => zkmsm::GlvMode::Auto,
            GlvName::On => zkmsm::GlvMode::On,
            GlvName::Off => zkmsm::GlvMode::Off,
        }
    }
}

#[derive(Args, Debug)]
pub struct DemoArgs {
    #[arg(long, value_parser = CurveName::parser(), default_value = "bls12-377")]
    pub curve: CurveName,
    /// g1, or g2 (coordinates in Fq2)
    #[arg(long, value_enum, default_value = "g1")]
    pub group: GroupName,
    /// log2 of the number of points.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub log_n: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Window size c (default: the cost model's choice).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub window: Option<u32>,
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendName,
    /// Fixed-base mode: keep M shifted copies of the points (M times the point memory; 1: plain mode).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub precompute: Option<u32>,
    #[command(flatten)]
    pub rtl: RtlArgs,
    /// Print a last line of JSON instead of the hex result.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    #[arg(long, value_parser = CurveName::parser())]
    pub curve: CurveName,
    /// g1, or g2 (coordinates in Fq2)
    #[arg(long, value_enum, default_value = "g1")]
    pub group: GroupName,
    /// 2^K points (streamed to the files: memory does not grow with K; the disk must hold them).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=32))]
    pub log_n: u32,
    /// Output file for the points (`-`: standard output).
    #[arg(long)]
    pub points: PathBuf,
    /// Output file for the scalars (`-`: standard output).
    #[arg(long)]
    pub scalars: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Point encoding (uncompressed loads faster: no square roots).
    #[arg(long, value_enum, default_value = "compressed")]
    pub point_format: FormatName,
    /// Byte order of the scalars written.
    #[arg(long, value_enum, default_value = "little")]
    pub scalar_endian: EndianName,
    /// Also write the expected MSM result (hex, as `msm` prints it), computed from the points' discrete logs.
    #[arg(long, value_name = "FILE")]
    pub expected: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct MsmArgs {
    #[arg(long, value_parser = CurveName::parser())]
    pub curve: CurveName,
    /// g1, or g2 (coordinates in Fq2)
    #[arg(long, value_enum, default_value = "g1")]
    pub group: GroupName,
    /// Points: concatenated arkworks-canonical G1 affine encodings (optionally with an 8-byte length prefix); `-`: standard input.
    #[arg(long, required_unless_present = "prepared")]
    pub points: Option<PathBuf>,
    /// Points already validated and converted by `zkmsm prepare` (mapped, not read; with --memory-budget read a chunk at a time); the file fixes the backend and precomputation.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["points", "point_format", "backend", "precompute", "check", "rtl_cores", "rtl_adder", "rtl_aggregation", "rtl_agg_log_m"])]
    pub prepared: Option<PathBuf>,
    /// Scalars: 32-byte integers below r, little-endian unless `--scalar-endian big` (optionally with an 8-byte length prefix); `-`: standard input.
    #[arg(long)]
    pub scalars: PathBuf,
    /// Point encoding; detected from the file size when omitted.
    #[arg(long, value_enum)]
    pub point_format: Option<FormatName>,
    /// Byte order of the scalars (`big`: the EVM's, with `--point-format evm`).
    #[arg(long, value_enum, default_value = "little")]
    pub scalar_endian: EndianName,
    /// Window size c (default: the cost model's choice).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub window: Option<u32>,
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendName,
    /// Fixed-base mode: keep M shifted copies of the points (M times the point memory; 1: plain mode).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub precompute: Option<u32>,
    /// The GLV endomorphism: MSM over P_i and phi(P_i) with half-size scalars (twice the point memory).
    #[arg(long, value_enum, default_value = "auto")]
    pub glv: GlvName,
    #[command(flatten)]
    pub rtl: RtlArgs,
    /// Timed runs after one warm-up; msm_ms is their median.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Also compute a slow bucket-free reference and fail if it differs.
    #[arg(long)]
    pub check: bool,
    /// Print a last line of JSON instead of the hex result.
    #[arg(long)]
    pub json: bool,
    /// Refuse inputs of more points than this: bounds what a stream of unknown length can make zkmsm read.
    #[arg(long, value_name = "N", default_value_t = zkmsm::io::DEFAULT_MAX_POINTS)]
    pub max_points: usize,
    /// Out-of-core: stream points and scalars from their files in chunks so the MSM's memory stays within BYTES
    /// (e.g. 16M, 1.5G; see docs/SCALE.md).
    #[arg(long, value_name = "BYTES", value_parser = budget_bytes)]
    pub memory_budget: Option<usize>,
}

/// `--memory-budget`: a byte count as `zkmsm::out_of_core::parse_bytes`
/// reads it, refused when it does not fit in 64 bits (the parse saturates).
pub fn budget_bytes(s: &str) -> Result<usize, String> {
    let bytes = zkmsm::out_of_core::parse_bytes(s)?;
    if bytes == usize::MAX {
        return Err(format!("{s:?}: more bytes than a 64-bit count holds"));
    }
    Ok(bytes)
}

#[derive(Args, Debug)]
pub struct PrepareArgs {
    #[arg(long, value_parser = CurveName::parser())]
    pub curve: CurveName,
    /// g1, or g2 (coordinates in Fq2)
    #[arg(long, value_enum, default_value = "g1")]
    pub group: GroupName,
    /// Points: concatenated arkworks-canonical G1 affine encodings (optionally with an 8-byte length prefix); `-`: standard input.
    #[arg(long)]
    pub points: PathBuf,
    /// The prepared file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Point encoding; detected from the file when omitted and unambiguous.
    #[arg(long, value_enum)]
    pub point_format: Option<FormatName>,
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendName,
    /// Fixed-base mode: store M shifted copies of the points (M times the point memory and file size; 1: plain mode).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub precompute: Option<u32>,
    /// Window size c for fixed-base mode (default: the cost model's choice).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=20), requires = "precompute")]
    pub window: Option<u32>,
    /// Store the GLV images phi(P_i) too (twice the file), so `msm --prepared` runs GLV; auto: where `msm` would.
    #[arg(long, value_enum, default_value = "auto")]
    pub glv: GlvName,
    /// Refuse inputs of more points than this.
    #[arg(long, value_name = "N", default_value_t = zkmsm::io::DEFAULT_MAX_POINTS)]
    pub max_points: usize,
    /// Out-of-core: read, validate and convert the points a chunk at a time within BYTES (plain records: no --precompute, no --glv on).
    #[arg(long, value_name = "BYTES", value_parser = budget_bytes)]
    pub memory_budget: Option<usize>,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[arg(long, value_parser = CurveName::parser(), default_value = "bls12-377")]
    pub curve: CurveName,
    /// g1, or g2 (coordinates in Fq2)
    #[arg(long, value_enum, default_value = "g1")]
    pub group: GroupName,
    /// Sizes as log2, e.g. 12,14,16.
    #[arg(long, value_delimiter = ',', default_values_t = vec![12u32, 14, 16],
          value_parser = clap::value_parser!(u32).range(0..=26))]
    pub log_n: Vec<u32>,
    /// Backends to compare (default: all the curve has).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub backend: Vec<BackendName>,
    /// Fixed-base mode with these precompute factors too (e.g. 2,4).
    #[arg(long, value_name = "M", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=64))]
    pub precompute: Vec<u32>,
    /// Timed runs per size (median reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also draw MSM time against N, one line per backend, as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}
