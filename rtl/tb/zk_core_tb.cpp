// zk_core_tb -- random MSMs through the stand-in configuration of
// zk_msm_top (integer datapath, zk_driver), checked exactly: every bucket
// of every window is the signed sum of its points mod 2^SW, every non-zero
// digit is one issued addition, the streams keep their order. Random digit
// patterns (uniform, one bucket, few buckets, zeros), sizes (N = 0..400,
// c = 1..CMAX, 0..5 windows), memory latency and bandwidth, digit-stream
// gaps and bucket-stream backpressure. Built with NCORES > 1: each case
// on a random number of cores in use (1..NCORES), each core's bucket
// stream held back at random on its own.
//
// ZK_TB_EQUAL=1 (environment): every case is all scalars equal, N = 400,
// 1..5 windows, no narrow last window (every addition of a window into one
// bucket: the pending queue fills and the input waits on backpressure).
//
//   zk_core_tb CASES SEED [ONLY]   exit status 0 if every case passed
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "zk_driver.h"

int main(int argc, char** argv) {
  int cases = argc > 1 ? atoi(argv[1]) : 200;
  uint64_t seed = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
  int only = argc > 3 ? atoi(argv[3]) : -1;  // run just this case (debugging)
  std::mt19937_64 rng(seed);
  zk_sim_opts o;
  zk_sim_default_opts(&o);
  o.max_cycles = 1 << 24;
  zk_sim* s = zk_sim_new(ZK_SIM_INT, &o);
  if (!s) {
    fprintf(stderr, "zk_sim_new failed\n");
    return 2;
  }
  zk_sim_info inf;
  zk_sim_get_info(s, &inf);
  const uint64_t mask = inf.value_bits >= 64 ? ~0ull : (1ull << inf.value_bits) - 1;
  printf("stand-in core: CMAX %u, pending depth %u, bucket read latency %u, datapath latency %u, hazard window %u, "
         "%u cores (fan-out FIFOs of %u)\n",
         inf.cmax, inf.pd, inf.brl, inf.lat_dp, inf.lat_hz, inf.ncores, inf.fanout_depth);
  const uint32_t maxn = 400;
  const char* eq_env = getenv("ZK_TB_EQUAL");
  const bool all_equal = eq_env && eq_env[0] == '1';
  std::vector<uint64_t> pts(maxn);
  for (auto& p : pts) p = rng() & mask;
  zk_sim_load_points(s, pts.data(), maxn);
  int failed = 0;
  uint64_t total_ops = 0, total_cycles = 0;
  for (int t = 0; t < cases; t++) {
    uint32_t n = (uint32_t)(rng() % (maxn + 1));
    if (t % 10 == 0) n = (uint32_t)(rng() % 3);  // 0, 1, 2
    uint32_t c = 1 + (uint32_t)(rng() % inf.cmax);
    uint32_t windows = (uint32_t)(rng() % (inf.ncores > 1 ? 8 : 6));
    int pattern = (int)(rng() % 5);
    if (all_equal) {
      n = maxn;
      pattern = 1;
      if (windows == 0) windows = 1;
    }
    int32_t half = 1 << (c - 1);
    // the last window narrow and spread, as the host's Booth digits make it
    uint32_t top = 31;
    if (c >= 2 && windows > 0 && rng() % 2 && !all_equal) top = (uint32_t)(rng() % (c - 1));
    std::vector<int32_t> dg((size_t)n * windows);
    int32_t fixed = (int32_t)(rng() % (2 * half + 1)) - half;
    if (all_equal && fixed == 0) fixed = half;
    for (size_t j = 0; j < dg.size(); j++) {
      int32_t& d = dg[j];
      bool last = j / (n ? n : 1) + 1 == windows;
      if (last && top < 31) {
        int32_t lim = 1 << top;
        d = pattern == 1 ? lim : (int32_t)(rng() % (2 * lim + 1)) - lim;
        continue;
      }
      switch (pattern) {
        case 0:  d = (int32_t)(rng() % (2 * half + 1)) - half; break;   // uniform
        case 1:  d = fixed; break;                                      // all equal
        case 2:  d = (int32_t)(rng() % 3) - 1; break;                   // buckets 0 only, +-
        case 3:  d = rng() % 4 ? 0 : (int32_t)(rng() % (2 * half + 1)) - half; break;  // mostly zero
        default: d = rng() % 2 ? half : -half; break;                   // the extreme digits
      }
    }
    o.mem_latency = 1 + (uint32_t)(rng() % 60);
    o.mem_rate_pct = t % 3 == 0 ? 100 : 30 + (uint32_t)(rng() % 71);
    o.dg_rate_pct = t % 4 == 0 ? 100 : 50 + (uint32_t)(rng() % 51);
    o.out_ready_pct = t % 2 == 0 ? 100 : 20 + (uint32_t)(rng() % 81);
    o.seed = rng();
    o.cores = inf.ncores > 1 ? 1 + (uint32_t)(rng() % inf.ncores) : 1;
    if (inf.ncores > 1 && t % 3 == 0) o.cores = inf.ncores;
    if (only >= 0 && t != only) continue;
    zk_sim_set_opts(s, &o);
    std::vector<uint64_t> got((size_t)half * windows + 1);
    zk_sim_stats st;
    int rc = zk_sim_run(s, n, c, windows, top, dg.data(), got.data(), &st);
    if (rc == 0 && top < 31) {  // add up the last window's copies
      uint64_t* lw = &got[(size_t)half * (windows - 1)];
      std::vector<uint64_t> folded(half, 0);
      for (int32_t k = 0; k < half; k++) folded[k % (1 << top)] = (folded[k % (1 << top)] + lw[k]) & mask;
      for (int32_t k = 0; k < half; k++) lw[k] = folded[k];
    }
    bool ok = rc == 0;
    uint64_t nz = 0, zero = 0;
    std::vector<uint64_t> want((size_t)half * windows, 0);
    for (uint32_t w = 0; w < windows; w++)
      for (uint32_t i = 0; i < n; i++) {
        int32_t d = dg[(size_t)w * n + i];
        if (d == 0) {
          zero++;
          continue;
        }
        nz++;
        uint64_t& b = want[(size_t)w * half + (uint32_t)(abs(d) - 1)];
        b = (d > 0 ? b + pts[i] : b - pts[i]) & mask;
      }
    int bad_bucket = -1;
    if (ok)
      for (size_t k = 0; k < want.size(); k++)
        if ((got[k] & mask) != want[k]) {
          bad_bucket = (int)k;
          ok = false;
          break;
        }
    if (ok && (st.issued != nz || st.zero_digits != zero || st.acc_cycles > st.cycles)) ok = false;
    total_ops += nz;
    total_cycles += st.acc_cycles;
    if (!ok) {
      failed++;
      if (failed <= 5)
        fprintf(stderr,
                "case %d FAILED: n %u c %u windows %u top %u cores %u pattern %d mem %u/%u%% dg %u%% out %u%%: rc %d %s; "
                "bad bucket %d; issued %lu (want %lu), zero %lu (want %lu)\n",
                t, n, c, windows, top, o.cores, pattern, o.mem_latency, o.mem_rate_pct, o.dg_rate_pct, o.out_ready_pct, rc,
                zk_sim_error(s), bad_bucket, (unsigned long)st.issued, (unsigned long)nz,
                (unsigned long)st.zero_digits, (unsigned long)zero);
    }
  }
  printf("%d cases, %d failed; %lu additions in %lu accumulation cycles\n", cases, failed,
         (unsigned long)total_ops, (unsigned long)total_cycles);
  zk_sim_free(s);
  return failed ? 1 : 0;
}
