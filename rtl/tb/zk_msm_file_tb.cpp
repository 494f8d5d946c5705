// zk_msm_file_tb -- whole BLS12-377 MSMs from a file through a Verilated
// twisted Edwards configuration of zk_msm_top (zk_driver, kind ZK_SIM_TE):
// in rtl/test.sh the Yosys netlist of the core. The cases (points in the
// core's word format, window, digits, spreading) come from
// `zkmsm-vectors msm-cases`; the buckets read out go to a file that
// `zkmsm-vectors msm-check` aggregates on the host and checks against the
// CPU engine and the cycle model (crates/rtl/src/msm_file.rs has both
// formats).
//
//   zk_msm_file_tb CASES BUCKETS [CORES]   exit status 0 if every case ran
//
// CORES (default 1, at most the NCORES built): the cores the MSMs run on
// (window w on core w mod CORES, one shared point stream); written to the
// buckets file's info line (with the fan-out FIFO depth) so the check
// models the same arrangement.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "zk_driver.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: zk_msm_file_tb CASES BUCKETS [CORES]\n");
    return 2;
  }
  // Owned handles: every return below closes the files and frees the model.
  std::unique_ptr<FILE, int (*)(FILE*)> in_file(fopen(argv[1], "r"), fclose);
  if (!in_file) {
    fprintf(stderr, "zk_msm_file_tb: cannot open %s\n", argv[1]);
    return 2;
  }
  std::unique_ptr<FILE, int (*)(FILE*)> out_file(fopen(argv[2], "w"), fclose);
  if (!out_file) {
    fprintf(stderr, "zk_msm_file_tb: cannot open %s\n", argv[2]);
    return 2;
  }
  FILE* in = in_file.get();
  FILE* out = out_file.get();
  zk_sim_opts o;
  zk_sim_default_opts(&o);
  o.max_cycles = 1 << 22;
  o.cores = argc == 4 ? (uint32_t)strtoul(argv[3], nullptr, 10) : 1;
  std::unique_ptr<zk_sim, void (*)(zk_sim*)> sim(zk_sim_new(ZK_SIM_TE, &o), zk_sim_free);
  if (!sim) {
    fprintf(stderr, "zk_sim_new failed\n");
    return 2;
  }
  zk_sim* s = sim.get();
  zk_sim_info inf;
  zk_sim_get_info(s, &inf);
  printf(
      "core: datapath %u, CMAX %u, pending depth %u, bucket read latency %u, datapath latency %u, hazard window %u, "
      "%u of %u cores\n",
      inf.dp, inf.cmax, inf.pd, inf.brl, inf.lat_dp, inf.lat_hz, o.cores, inf.ncores);
  if (o.cores < 1 || o.cores > inf.ncores) {
    fprintf(stderr, "zk_msm_file_tb: CORES %u out of range 1..%u (NCORES)\n", o.cores, inf.ncores);
    return 2;
  }
  if (inf.dp != 1) {
    fprintf(stderr, "zk_msm_file_tb: not the twisted Edwards datapath\n");
    return 2;
  }
  fprintf(out, "info %u %u %u %u %u %u %u\n", inf.cmax, inf.pd, inf.brl, inf.lat_hz, o.mem_latency, o.cores,
          inf.fanout_depth);
  const size_t pw = (inf.point_bits + 63) / 64, vw = (inf.value_bits + 63) / 64;
  unsigned n, c, windows, top;
  int ncase = 0, failed = 0;
  uint64_t cycles = 0;
  double secs = 0;
  while (fscanf(in, " case %u %u %u %u", &n, &c, &windows, &top) == 4) {
    std::vector<uint64_t> pts(n * pw);
    for (auto& w : pts)
      if (fscanf(in, "%lx", (unsigned long*)&w) != 1) return fprintf(stderr, "cases file: short points\n"), 2;
    std::vector<int32_t> dg((size_t)n * windows);
    for (auto& d : dg)
      if (fscanf(in, "%d", &d) != 1) return fprintf(stderr, "cases file: short digits\n"), 2;
    if (n > 0) zk_sim_load_points(s, pts.data(), n);
    std::vector<uint64_t> got(((size_t)windows << (c - 1)) * vw);
    zk_sim_stats st = {};
    int rc = zk_sim_run(s, n, c, windows, top, dg.data(), got.data(), &st);
    if (rc != 0) {
      failed++;
      fprintf(stderr, "case %d (n %u c %u windows %u): rc %d: %s\n", ncase, n, c, windows, rc, zk_sim_error(s));
    }
    fprintf(out, "case %d %lu %lu %u\n", rc < 0 ? 2 : rc, (unsigned long)st.issued, (unsigned long)st.acc_cycles,
            st.status);
    for (size_t k = 0; k < got.size(); k++) fprintf(out, "%lx%c", (unsigned long)got[k], (k + 1) % vw ? ' ' : '\n');
    printf("case %d: n %u c %u windows %u: %lu additions, %lu accumulation cycles, %lu simulated in %.1f s\n", ncase, n,
           c, windows, (unsigned long)st.issued, (unsigned long)st.acc_cycles, (unsigned long)st.sim_cycles,
           st.sim_seconds);
    cycles += st.sim_cycles;
    secs += st.sim_seconds;
    ncase++;
  }
  if (!feof(in) && fscanf(in, " %*s") != EOF) {
    fprintf(stderr, "cases file: unreadable after case %d\n", ncase);
    failed++;
  }
  printf("%d cases, %d failed to run; %lu cycles simulated in %.1f s (%.0f cycles/s)\n", ncase, failed,
         (unsigned long)cycles, secs, secs > 0 ? cycles / secs : 0.0);
  return failed || ncase == 0 ? 1 : 0;
}
