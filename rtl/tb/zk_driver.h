// zk_driver.h -- C interface of the Verilated MSM accelerator (zk_msm_top)
// and its test-bench environment: the host side of the AXI4-Lite registers,
// the digit stream, a point memory with a stated latency and bandwidth, and
// the bucket stream. Used by crates/rtl (the `rtl` backend, through FFI) and
// by the stand-alone tools in rtl/tb.
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Which Verilated configuration (all are zk_msm_top):
//   ZK_SIM_TE:  the twisted Edwards adder (DP = 1), the core as synthesized
//   ZK_SIM_INT: the integer stand-in datapath (DP = 0), small and fast
//   ZK_SIM_INT_LOCK: the stand-in with the lock table (LOCK = 1) at a
//               datapath latency of thousands of cycles
//   ZK_SIM_AFF381, ZK_SIM_AFF377, ZK_SIM_AFFBN254: the batched-affine core
//               (DP = 2, LOCK = 1, RQ = 1) on BLS12-381, on BLS12-377 and
//               on BN254 (NB = 256)
enum { ZK_SIM_INT = 0, ZK_SIM_TE = 1, ZK_SIM_INT_LOCK = 2, ZK_SIM_AFF381 = 3, ZK_SIM_AFF377 = 4, ZK_SIM_AFFBN254 = 5 };

typedef struct zk_sim zk_sim;

typedef struct {
  uint32_t mem_latency;    // point memory: cycles from a read to its data (default 40)
  uint32_t mem_rate_pct;   // point memory: points per 100 cycles, <= 100 (default 100)
  uint32_t dg_rate_pct;    // digit stream: beats offered per 100 cycles (default 100)
  uint32_t out_ready_pct;  // bucket stream: cycles the host is ready, per 100 (default 100)
  uint64_t seed;           // for the random patterns above
  uint64_t max_cycles;     // give up (error) after this many cycles per MSM; a run with
                           // nothing in or out for longer than any phase takes fails
                           // sooner ("stalled", see zk_driver.cpp)
  uint32_t cores;          // cores to use, 1..ncores (register CORES; default 1)
  uint32_t agg_log_m;      // register AGG: 0 every bucket to the host (default); else
                           // the device aggregates in groups of 2^agg_log_m buckets
} zk_sim_opts;

typedef struct {
  uint32_t dp, cmax, pd, brl;  // parameters (CONFIG register)
  uint32_t lat_dp, lat_hz;     // datapath latency, hazard window (LATENCY register)
  uint32_t point_bits, value_bits;
  uint32_t ncores;             // cores built (NCORES)
  uint32_t fanout_depth;       // their fan-out FIFOs' depth (0: one core, no fan-out)
  uint32_t lock, requeue;      // hazards by the lock table (LOCK), blocked heads requeued (RQ)
  uint32_t lat_agg;            // the device aggregation's extra cycles to the adder (AGG_LAT register)
} zk_sim_info;

typedef struct {
  // the core's counters (zk_msm_core), read through the registers
  uint64_t cycles, acc_cycles, issued, conflicts, stalls, bubbles, zero_digits, ro_stalls;
  uint64_t pending_hwm;
  uint32_t status;      // STATUS register at the end
  uint64_t sim_cycles;  // cycles simulated for this MSM, register accesses included
  double sim_seconds;   // wall time of the simulation
  uint64_t fanout_stalls;  // cycles a point beat waited for a full fan-out FIFO (FANOUT_STALLS)
} zk_sim_stats;

void zk_sim_default_opts(zk_sim_opts* o);
// NULL on failure. Resets the design (and waits until STATUS.ready).
zk_sim* zk_sim_new(int kind, const zk_sim_opts* o);
void zk_sim_free(zk_sim* s);
void zk_sim_get_info(zk_sim* s, zk_sim_info* out);
void zk_sim_set_opts(zk_sim* s, const zk_sim_opts* o);
// MSM_INIT: n points into point memory, each ceil(point_bits / 64) 64-bit
// words, little-endian.
int zk_sim_load_points(zk_sim* s, const uint64_t* words, size_t n);
// One MSM over the loaded points: digits window-major (windows x n, signed),
// buckets out window-major (windows x 2^(c-1) buckets, each ceil(value_bits /
// 64) words; with agg_log_m only the partial sums the core sends, bucket k
// with k mod m < 2 (zk_core_agg), are written, the rest left as they were). top_bits: the TOP register (the last window's digits lie in
// [-2^top_bits, 2^top_bits] and are spread over its buckets, which then hold
// copies for the caller to add up: zk_msm_core); 31 for none. Returns 0; 1 if the MSM ran but STATUS flags an input error
// (bad digit, misplaced tlast, bad window size: stats->status says which);
// -1 if it did not run to the end. zk_sim_error() says why.
int zk_sim_run(zk_sim* s, uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, const int32_t* digits,
               uint64_t* buckets, zk_sim_stats* stats);
// The digit stream from a producer instead of one array: zk_sim_run_stream
// calls next(ctx, &chunk) whenever it has used up the previous chunk; next
// returns the chunk's length (digits in the window-major order above, chunks
// of any length, a window may span chunks) or 0 when it has none, which
// fails the run if digits are still owed. The chunk must stay valid until
// the next call. This is how a host streams windows while the core runs
// (crates/rtl's backend computes window w+1's digits meanwhile).
typedef size_t (*zk_digit_source)(void* ctx, const int32_t** chunk);
int zk_sim_run_stream(zk_sim* s, uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, zk_digit_source next,
                      void* ctx, uint64_t* buckets, zk_sim_stats* stats);
const char* zk_sim_error(zk_sim* s);

#ifdef __cplusplus
}
#endif
