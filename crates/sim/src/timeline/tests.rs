//! The anchors: each design's published parameters through the timeline,
//! against its measured time (within 15%), and the device profile against
//! the cycle model.

use super::anchors::{self, Anchor, PRIOR_TABLE6};
use super::project::{
    configs, project_all, ZkConfig, AFFINE_CLOCK_HIGH_MHZ, AFFINE_CLOCK_MHZ, TE_CLOCK_HIGH_MHZ, TE_CLOCK_MHZ,
};
use super::{simulate, System};
use crate::model::ScalarField;

const TOLERANCE: f64 = 0.15;

fn reproduced_ms(a: &Anchor) -> f64 {
    let prof = a.system.profile();
    let t = simulate(&a.system, &prof);
    print!("{}", super::describe(&a.system, &prof, &t));
    1e3 * if a.per_msm { t.per_msm_s } else { t.total_s }
}

fn check(a: &Anchor, assumed: &[&str]) -> f64 {
    let got = reproduced_ms(a);
    let err = got / a.published_ms - 1.0;
    println!("{}: published {} ms, timeline {got:.1} ms ({:+.1}%)", a.system.name, a.published_ms, 100.0 * err);
    assert!(
        err.abs() <= TOLERANCE,
        "{}: {got:.1} ms against {} ms ({:+.1}%)",
        a.system.name,
        a.published_ms,
        100.0 * err
    );
    assert_eq!(a.system.assumed(), assumed, "{}: the assumed parameters", a.system.name);
    got
}

fn anchor(name: &str) -> Anchor {
    anchors::all().into_iter().find(|a| a.system.name.starts_with(name)).unwrap()
}

#[test]
fn profile_line_matches_the_cycle_model_at_a_larger_size() {
    // The line fitted at 2^lo and 2^(lo+1) against the scheduler run at
    // 2^(lo+2).
    let zk = super::project::system(&ZkConfig { cores: 4, c: 15, ..configs()[0] });
    let aff = super::project::system(configs().iter().find(|z| z.affine.is_some()).unwrap());
    for sys in [
        anchors::cyclone(26),
        anchors::hardcaml(1),
        anchors::zprize_batched_affine(ScalarField::Bls12_377),
        anchors::zprize_batched_affine(ScalarField::Bls12_381),
        anchors::superscalar(16),
        anchors::prior(26),
        zk,
        aff,
    ] {
        let p = sys.profile();
        let log_n = p.fitted_at.1 + 1;
        let mut m = sys.model.clone();
        m.n = 1 << log_n;
        let direct = m.run_stats();
        let predicted = p.acc_cycles(1 << log_n);
        let err = predicted / direct.acc.cycles as f64 - 1.0;
        assert!(
            err.abs() < 0.01,
            "{}: line {predicted:.0}, model {} ({:+.3}%)",
            sys.name,
            direct.acc.cycles,
            100.0 * err
        );
        assert_eq!(p.agg_cycles_per_window, direct.agg_cycles_per_window, "{}", sys.name);
        assert_eq!(p.windows, direct.windows);
    }
}

#[test]
fn cyclone_2_26() {
    // Assumed: the F1 host's digit rate (zkmsm's as a proxy), the read-back
    // latency, the DDR efficiency.
    check(&anchor("CycloneMSM 2^26"), &["host_digit_rate", "pcie_latency_s", "ddr_efficiency"]);
}

#[test]
fn hardcaml_one_round_and_masked() {
    let one = check(&anchor("Hardcaml MSM 2^26 x 1"), &["pcie_latency_s", "ddr_efficiency"]);
    let masked = check(&anchor("Hardcaml MSM 2^26 x 4"), &["pcie_latency_s", "ddr_efficiency"]);
    // Rounds over the same points hide the copy, the transfer and the host's
    // bucket sums under the next round's accumulation.
    assert!(masked < one, "masked {masked} one {one}");
}

#[test]
fn zprize_batched_affine_both_curves() {
    let assumed = ["pcie_bps", "pcie_latency_s", "ddr_bps", "ddr_efficiency", "host_bucket_s", "host_agg_threads"];
    check(&anchor("ZPrize 2023 batched affine, BLS12-377"), &assumed);
    check(&anchor("ZPrize 2023 batched affine, BLS12-381"), &assumed);
}

#[test]
fn superscalar_three_cores() {
    // Window size and aggregation split not published: c = 16 assumed
    // (the System's c), with host aggregation on 8 threads.
    check(
        &anchor("SuperScalar"),
        &[
            "input_bytes",
            "pcie_bps",
            "pcie_latency_s",
            "ddr_bps",
            "ddr_efficiency",
            "ddr_bytes_per_point",
            "bucket_bytes",
            "result_bytes",
            "host_bucket_s",
            "host_agg_threads",
        ],
    );
}

#[test]
fn prior_table6_2_16_to_2_26() {
    // The device profile does not depend on N: fit once, run every size.
    let prof = anchors::prior(16).profile();
    for (log_n, published) in PRIOR_TABLE6 {
        let sys: System = anchors::prior(log_n);
        assert!(sys.assumed().is_empty(), "{:?}", sys.assumed());
        let got = 1e3 * simulate(&sys, &prof).total_s;
        let err = got / published - 1.0;
        println!("PriorMSM 2^{log_n}: published {published} ms, timeline {got:.3} ms ({:+.1}%)", 100.0 * err);
        assert!(err.abs() <= TOLERANCE, "2^{log_n}: {got} against {published}");
    }
}

#[test]
fn zkmsm_projections_order_as_expected() {
    let cfgs = configs();
    let rows: Vec<(ZkConfig, f64)> = cfgs.iter().zip(project_all(&cfgs)).map(|(z, t)| (*z, t.total_s)).collect();
    for (z, t) in &rows {
        assert!(t.is_finite() && *t > 0.0, "{z:?}: {t}");
    }
    let find = |f: &dyn Fn(&ZkConfig) -> bool| rows.iter().find(|(z, _)| f(z)).unwrap().1;
    for (log_n, msms) in [(26, 1), (24, 4)] {
        let at = |z: &ZkConfig| z.log_n == log_n && z.msms == msms && z.affine.is_none();
        let host1 = find(&|z| at(z) && z.cores == 4 && z.agg_threads == 1);
        let host4 = find(&|z| at(z) && z.cores == 4 && z.agg_threads == 4 && z.clock_mhz == 250.0);
        assert!(host4 <= host1, "2^{log_n}: {host4} {host1}");
        // a slower clock, a longer MSM: 250 MHz, the calibrated clock's upper end, the calibrated clock
        let high = find(&|z| at(z) && z.cores == 4 && z.agg_threads == 4 && z.clock_mhz == TE_CLOCK_HIGH_MHZ);
        let cal = find(&|z| at(z) && z.cores == 4 && z.agg_threads == 4 && z.clock_mhz == TE_CLOCK_MHZ);
        assert!(host4 < high && high < cal, "2^{log_n}: {host4} {high} {cal}");
    }
    for field in [ScalarField::Bls12_381, ScalarField::Bls12_377] {
        let four = |z: &ZkConfig| z.affine.is_some_and(|a| a.field == field && a.share == 3) && z.cores == 4;
        let at = |z: &ZkConfig| four(z) && z.log_n == 24 && z.msms == 4;
        let host = find(&|z| at(z) && !z.device_agg);
        let dev = find(&|z| at(z) && z.device_agg && z.clock_mhz == 250.0);
        let high = find(&|z| at(z) && z.device_agg && z.clock_mhz == AFFINE_CLOCK_HIGH_MHZ);
        let cal = find(&|z| at(z) && z.device_agg && z.clock_mhz == AFFINE_CLOCK_MHZ);
        assert!(
            dev < host && dev < high && high < cal,
            "{field:?}: host {host} device {dev} at 250 MHz, {high} at {AFFINE_CLOCK_HIGH_MHZ} MHz, {cal} at {AFFINE_CLOCK_MHZ} MHz"
        );
    }
}

/// With the core's device aggregation the host's part of an MSM is a small
/// share of the device's time (the partial sums, not the buckets).
#[test]
fn device_aggregation_leaves_the_host_little() {
    for z in configs().iter().filter(|z| z.device_agg) {
        let t = super::project::project(z);
        let dev = t.busy("device accumulation") + t.busy("device aggregation");
        let host = t.busy("host aggregation");
        println!(
            "{}: host {:.2} ms, device {:.1} ms ({:.2}%)",
            super::project::system(z).name,
            1e3 * host,
            1e3 * dev,
            100.0 * host / dev
        );
        assert!(host <= 0.1 * dev, "{z:?}: host {host} s against device {dev} s");
    }
}

#[test]
fn assumed_parameters_move_the_anchors_as_stated() {
    // The sensitivities docs/MODEL.md quotes for the assumptions.
    let ms = |sys: &System| 1e3 * simulate(sys, &sys.profile()).total_s;
    let cyclone = anchors::cyclone(26);
    let mut full_ddr = cyclone.clone();
    full_ddr.ddr_efficiency.value = 1.0;
    let (a, b) = (ms(&cyclone), ms(&full_ddr));
    println!("CycloneMSM 2^26: DDR efficiency 0.7 {a:.1} ms, 1.0 {b:.1} ms");
    assert!(b < a);
    let ss = anchors::superscalar(16);
    let mut one_thread = ss.clone();
    one_thread.host_agg_threads.value = 1.0;
    let (c16, c16_1, c13) = (ms(&ss), ms(&one_thread), ms(&anchors::superscalar(13)));
    println!("SuperScalar: c = 16 {c16:.1} ms (1 host thread {c16_1:.1} ms), c = 13 {c13:.1} ms");
    // One thread cannot keep up with 3 x 2^15 buckets per 60 ms pass.
    assert!(c16_1 > 1.3 * c16);
    // 20 windows on 3 cores: 7 passes instead of 6.
    assert!(c13 > c16);
    let zp = anchors::zprize_batched_affine(ScalarField::Bls12_377);
    let mut zp1 = zp.clone();
    zp1.host_agg_threads.value = 1.0;
    let (z8, z1) = (ms(&zp), ms(&zp1));
    println!("ZPrize batched affine BLS12-377: 8 host threads {z8:.1} ms, 1 thread {z1:.1} ms");
    assert!(z1 > z8);
}

#[test]
fn affine_latency_is_the_rtls() {
    // `zk_dp_aff_lat` as the RTL's LATENCY register reports it: one inverter
    // unit per chain in the Verilated builds (their test compares the
    // register with AFFINE_381_HZ / AFFINE_377_HZ), three and four per unit
    // in the builds with -DZK_AFF_SHARE=3 and 4 (docs/RTL.md).
    use super::project::{affine_hz, affine_lat, AFFINE_377_HZ, AFFINE_381_HZ};
    assert_eq!(affine_lat(ScalarField::Bls12_381, 1), 2671);
    assert_eq!(affine_lat(ScalarField::Bls12_377, 1), 2692);
    assert_eq!(affine_lat(ScalarField::Bls12_381, 3), 7319);
    assert_eq!(affine_lat(ScalarField::Bls12_377, 3), 7328);
    assert_eq!(affine_lat(ScalarField::Bls12_381, 4), 9643);
    assert_eq!((AFFINE_381_HZ, AFFINE_377_HZ), (2673, 2694));
    assert_eq!(affine_hz(ScalarField::Bls12_381, 3), 7321);
}
