//! The overlap engine: units of work flow through stages in order, each
//! stage on one resource (a host thread pool, a PCIe direction, the device).
//!
//! A stage either streams (it works on a unit chunk by chunk as the previous
//! stage hands chunks over, as digits flow from the host through PCIe into
//! the adder) or is a block (it starts when the previous stage has finished
//! the whole unit, as bucket aggregation waits for the last addition). A
//! resource serves units in order, one at a time; distinct resources work in
//! parallel. An optional gate holds a stage of unit j until a stage of unit
//! j - 1 has ended (CycloneMSM's host loop sends window j + 1 only after it
//! has read window j's result).

/// One stage of the flow.
#[derive(Clone, Copy, Debug)]
pub struct StageDef {
    /// Name in reports.
    pub name: &'static str,
    /// Resource index: stages with the same index serialize.
    pub resource: usize,
    /// Works chunk by chunk behind the previous stage (else a block).
    pub streamed: bool,
}

/// Unit j's stage `to` starts after unit j-1's stage `from` has ended.
#[derive(Clone, Copy, Debug)]
pub struct Gate {
    /// The stage of the previous unit that must end.
    pub from: usize,
    /// The stage it holds.
    pub to: usize,
}

/// What a run of the engine gives.
#[derive(Clone, Debug)]
pub struct Flow {
    /// End of the last stage of the last unit, seconds.
    pub total_s: f64,
    /// Busy time of each stage summed over units, seconds.
    pub busy_s: Vec<f64>,
    /// End of each unit's last stage, seconds.
    pub unit_end_s: Vec<f64>,
}

/// Chunks a streamed unit is cut into: the fill and drain of a stream cost
/// one chunk per stage, so 1,024 keeps that below 0.2% of a unit.
pub const CHUNKS: usize = 1024;

/// Run `units` (each a time per stage, seconds) through `stages`.
pub fn run(stages: &[StageDef], units: &[Vec<f64>], gate: Option<Gate>) -> Flow {
    let nres = stages.iter().map(|s| s.resource + 1).max().unwrap_or(0);
    let mut free = vec![0.0f64; nres];
    let mut last_end = vec![0.0f64; stages.len()];
    let mut busy = vec![0.0f64; stages.len()];
    let mut unit_end = Vec::with_capacity(units.len());
    let mut total = 0.0f64;
    let mut prev = vec![0.0f64; CHUNKS];
    let mut ends = vec![0.0f64; CHUNKS];
    for (j, times) in units.iter().enumerate() {
        assert_eq!(times.len(), stages.len(), "unit {j}: one time per stage");
        prev.fill(0.0);
        for (s, st) in stages.iter().enumerate() {
            let t = times[s];
            let mut earliest = 0.0f64;
            if let Some(g) = gate {
                if g.to == s && j > 0 {
                    earliest = last_end[g.from];
                }
            }
            if t <= 0.0 {
                // Nothing to do: the chunks pass through (held by the gate).
                for (e, p) in ends.iter_mut().zip(&prev) {
                    *e = p.max(earliest);
                }
            } else if st.streamed {
                let dt = t / CHUNKS as f64;
                let mut r = free[st.resource].max(earliest);
                for (e, p) in ends.iter_mut().zip(&prev) {
                    r = r.max(*p) + dt;
                    *e = r;
                }
                free[st.resource] = r;
            } else {
                let start = free[st.resource].max(earliest).max(prev[CHUNKS - 1]);
                ends.fill(start + t);
                free[st.resource] = start + t;
            }
            busy[s] += t.max(0.0);
            last_end[s] = ends[CHUNKS - 1];
            std::mem::swap(&mut prev, &mut ends);
        }
        unit_end.push(prev[CHUNKS - 1]);
        total = total.max(prev[CHUNKS - 1]);
    }
    Flow { total_s: total, busy_s: busy, unit_end_s: unit_end }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(name: &'static str, resource: usize, streamed: bool) -> StageDef {
        StageDef { name, resource, streamed }
    }

    #[test]
    fn streamed_stages_overlap_and_the_slowest_sets_the_pace() {
        let stages = [st("a", 0, true), st("b", 1, true)];
        // One unit: a 1 s stream into a 2 s stream takes 2 s plus one chunk of a.
        let f = run(&stages, &[vec![1.0, 2.0]], None);
        let chunk = 1.0 / CHUNKS as f64;
        assert!((f.total_s - (2.0 + chunk)).abs() < 1e-9, "{}", f.total_s);
        // Blocks do not overlap within a unit: 1 + 2.
        let blocks = [st("a", 0, false), st("b", 1, false)];
        assert!((run(&blocks, &[vec![1.0, 2.0]], None).total_s - 3.0).abs() < 1e-12);
    }

    #[test]
    fn units_pipeline_across_resources_and_serialize_on_one() {
        let stages = [st("dev", 0, false), st("host", 1, false)];
        let units = vec![vec![1.0, 0.5]; 4];
        // Host work of unit j hides under the device's unit j + 1.
        assert!((run(&stages, &units, None).total_s - 4.5).abs() < 1e-12);
        // On one resource nothing hides.
        let shared = [st("dev", 0, false), st("host", 0, false)];
        assert!((run(&shared, &units, None).total_s - 6.0).abs() < 1e-12);
        // A gate from the host stage to the device stage serializes too.
        let g = Some(Gate { from: 1, to: 0 });
        assert!((run(&stages, &units, g).total_s - 6.0).abs() < 1e-12);
    }

    #[test]
    fn zero_stages_pass_chunks_through() {
        let stages = [st("a", 0, true), st("skip", 1, false), st("b", 2, true)];
        let f = run(&stages, &[vec![1.0, 0.0, 1.0]], None);
        assert!(f.total_s < 1.01, "{}", f.total_s);
    }
}
