// zk_driver.cpp -- the Verilated zk_msm_top in its environment (see
// zk_driver.h). Every cycle: drive the inputs from the environment's state,
// settle, note which stream handshakes happen at this edge, clock, update.
//
// Point memory model: a read command {count, byte address} is taken when
// fewer than 4 are queued; the memory then issues point reads in order at
// mem_rate_pct points per 100 cycles (at most one per cycle), each read's
// data appearing mem_latency cycles later, with at most mem_latency + 8
// reads outstanding, and stops issuing while the core holds its data back.
// At 100% the points of consecutive windows follow each other without a gap.
#include "zk_driver.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

#ifdef ZK_WITH_INT
#include "Vzk_int.h"
#endif
#ifdef ZK_WITH_TE
#include "Vzk_te.h"
#endif
#ifdef ZK_WITH_INT_LOCK
#include "Vzk_lk.h"
#endif
#ifdef ZK_WITH_AFF381
#include "Vzk_aff381.h"
#endif
#ifdef ZK_WITH_AFF377
#include "Vzk_aff377.h"
#endif
#ifdef ZK_WITH_AFFBN254
#include "Vzk_affbn254.h"
#endif

namespace {

template <class T>
void put(T& port, const uint32_t* w, int nw) {
  if constexpr (std::is_integral<T>::value) {
    uint64_t v = w[0];
    if (nw > 1 && sizeof(T) > 4) v |= (uint64_t)w[1] << 32;
    port = (T)v;
  } else {
    for (int i = 0; i < nw; i++) port[i] = w[i];
  }
}

// bits [lo, lo + width) of a port (width <= 32)
template <class T>
uint32_t bits(const T& port, int lo, int width) {
  uint32_t w[(sizeof(T) + 3) / 4 + 1] = {};
  if constexpr (std::is_integral<T>::value) {
    uint64_t v = (uint64_t)port;
    w[0] = (uint32_t)v;
    if (sizeof(T) > 4) w[1] = (uint32_t)(v >> 32);
  } else {
    for (size_t i = 0; i < sizeof(T) / 4; i++) w[i] = port[i];
  }
  uint64_t v = w[lo / 32] | ((uint64_t)w[lo / 32 + 1] << 32);
  v >>= lo % 32;
  return (uint32_t)(width >= 32 ? v : v & ((1ull << width) - 1));
}

template <class T>
void get(const T& port, uint32_t* w, int nw) {
  if constexpr (std::is_integral<T>::value) {
    uint64_t v = (uint64_t)port;
    w[0] = (uint32_t)v;
    if (nw > 1) w[1] = (uint32_t)(v >> 32);
  } else {
    for (int i = 0; i < nw; i++) w[i] = port[i];
  }
}

struct Base {
  virtual ~Base() = default;
  virtual void info(zk_sim_info* out) = 0;
  virtual int load(const uint64_t* words, size_t n) = 0;
  virtual int run(uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, zk_digit_source next, void* ctx,
                  uint64_t* buckets, zk_sim_stats* st) = 0;
  zk_sim_opts o{};
  std::string err;
};

template <class V>
struct Sim final : Base {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<V> top;
  uint64_t ticks = 0;
  std::mt19937_64 rng;
  int pw, vw;            // bits of a point, of a bucket value
  int pw32, vw32;        // 32-bit words
  uint32_t point_bytes;  // stride of point memory
  uint32_t cmax = 0;
  uint32_t ncores = 1;   // cores built (NCORES)
  uint32_t vwp = 0;      // bits of one core's bucket field in m_bk_tdata
  uint32_t uwp = 0;      // bits of one core's field in m_bk_tuser
  std::vector<uint32_t> mem;
  size_t npoints = 0;

  struct Cmd {
    uint64_t first;
    uint32_t count, fetched;
  };
  std::deque<Cmd> cmds;
  struct Read {
    uint64_t ready_at;
    uint64_t index;
    bool last;
  };
  std::deque<Read> reads;
  uint32_t tokens = 0;

#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> vcd;
#endif

  Sim(const zk_sim_opts* opts) : ctx(new VerilatedContext), top(new V(ctx.get())) {
    o = *opts;
    rng.seed(o.seed);
#if VM_TRACE
    if (const char* path = getenv("ZK_VCD")) {  // debugging builds (--trace)
      ctx->traceEverOn(true);
      vcd.reset(new VerilatedVcdC);
      top->trace(vcd.get(), 99);
      vcd->open(path);
    }
#endif
    pw = (int)sizeof(top->s_pt_tdata) * 8;  // rounded up to the port's storage
    vw = (int)sizeof(top->m_bk_tdata) * 8;  // (all cores' fields)
    idle_inputs();
    top->rst = 1;
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
    zk_sim_info inf;
    info(&inf);
    pw = (int)inf.point_bits;
    vw = (int)inf.value_bits;
    pw32 = (pw + 31) / 32;
    vw32 = (vw + 31) / 32;
    point_bytes = (uint32_t)((pw + 7) / 8);
    cmax = inf.cmax;
    ncores = inf.ncores ? inf.ncores : 1;
    vwp = inf.value_bits;
    uwp = 8 + cmax - 1;  // WW (8) + CMAX - 1
    // the bucket memory clears itself after reset (CLEAR = 1)
    for (uint64_t i = 0; (axil_read(0x10) & 1) == 0; i++) {
      if (i > (1u << 20)) {
        err = "the core never became ready after reset";
        break;
      }
    }
  }

  void idle_inputs() {
    top->s_axil_awvalid = 0;
    top->s_axil_wvalid = 0;
    top->s_axil_bready = 0;
    top->s_axil_arvalid = 0;
    top->s_axil_rready = 0;
    top->s_dg_tvalid = 0;
    top->m_cmd_tready = 0;
    top->s_pt_tvalid = 0;
    top->m_bk_tready = 0;
  }

  void dump() {
#if VM_TRACE
    if (vcd) vcd->dump(2 * ticks + top->clk);
#endif
  }

  void tick() {
    top->clk = 0;
    top->eval();
    dump();
    top->clk = 1;
    top->eval();
    dump();
    ticks++;
  }

  // back to a known state after a failed run: reset, wait for ready
  void reset() {
    idle_inputs();
    top->rst = 1;
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
    for (uint64_t i = 0; (axil_read(0x10) & 1) == 0 && i < (1u << 20); i++) {
    }
    cmds.clear();
    reads.clear();
  }

  void axil_write(uint32_t addr, uint32_t data) {
    top->s_axil_awvalid = 1;
    top->s_axil_awaddr = addr;
    top->s_axil_wvalid = 1;
    top->s_axil_wdata = data;
    top->s_axil_wstrb = 0xf;
    top->s_axil_bready = 1;
    bool aw = false, w = false;
    for (int i = 0; i < 64; i++) {
      top->clk = 0;
      top->eval();
      bool aw_fire = top->s_axil_awvalid && top->s_axil_awready;
      bool w_fire = top->s_axil_wvalid && top->s_axil_wready;
      bool b_fire = top->s_axil_bvalid && top->s_axil_bready;
      tick();
      aw |= aw_fire;
      w |= w_fire;
      if (aw) top->s_axil_awvalid = 0;
      if (w) top->s_axil_wvalid = 0;
      if (b_fire) break;
    }
    top->s_axil_bready = 0;
  }

  uint32_t axil_read(uint32_t addr) {
    top->s_axil_arvalid = 1;
    top->s_axil_araddr = addr;
    top->s_axil_rready = 1;
    uint32_t v = 0;
    for (int i = 0; i < 64; i++) {
      top->clk = 0;
      top->eval();
      bool ar_fire = top->s_axil_arvalid && top->s_axil_arready;
      bool r_fire = top->s_axil_rvalid && top->s_axil_rready;
      if (r_fire) v = top->s_axil_rdata;
      tick();
      if (ar_fire) top->s_axil_arvalid = 0;
      if (r_fire) break;
    }
    top->s_axil_rready = 0;
    return v;
  }

  uint64_t read64(uint32_t addr) { return axil_read(addr) | ((uint64_t)axil_read(addr + 4) << 32); }

  void info(zk_sim_info* out) override {
    uint32_t cfg = axil_read(0x04), lat = axil_read(0x08);
    out->dp = cfg >> 24;
    out->pd = 1u << ((cfg >> 16) & 0x3f);  // (log2: queues of thousands)
    out->lock = (cfg >> 22) & 1;
    out->requeue = (cfg >> 23) & 1;
    out->brl = (cfg >> 8) & 0xff;
    out->cmax = cfg & 0xff;
    out->lat_dp = lat & 0xffff;
    out->lat_hz = lat >> 16;
    uint32_t widths = axil_read(0x70);
    out->point_bits = widths & 0xffff;
    out->value_bits = widths >> 16;
    uint32_t multi = axil_read(0x78);
    out->ncores = multi & 0xffff;
    out->fanout_depth = multi >> 16;
    out->lat_agg = axil_read(0x88) & 0xffff;
  }

  int load(const uint64_t* words, size_t n) override {
    int w64 = (pw + 63) / 64;
    mem.assign(n * pw32, 0);
    for (size_t i = 0; i < n; i++)
      for (int k = 0; k < pw32; k++) {
        uint64_t word = words[i * w64 + k / 2];
        uint32_t v = (uint32_t)(k % 2 ? word >> 32 : word);
        int bits = pw - 32 * k;  // Verilator's ports must not carry bits above the width
        if (bits < 32) v &= (1u << bits) - 1;
        mem[i * pw32 + k] = v;
      }
    npoints = n;
    return 0;
  }

  bool chance(uint32_t pct) { return pct >= 100 || (uint32_t)(rng() % 100) < pct; }

  int run(uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, zk_digit_source next, void* ctx,
          uint64_t* buckets, zk_sim_stats* st) override {
    int rc = run1(n, c, windows, top_bits, next, ctx, buckets, st);
    if (rc < 0) reset();
    return rc;
  }

  int run1(uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, zk_digit_source next, void* ctx,
           uint64_t* buckets, zk_sim_stats* st) {
    auto t0 = std::chrono::steady_clock::now();
    if (n > npoints) {
      err = "more digits per window than points loaded";
      return -1;
    }
    uint64_t start_ticks = ticks;
    cmds.clear();
    reads.clear();
    tokens = 0;
    axil_write(0x14, n);
    axil_write(0x18, c);
    axil_write(0x1C, windows);
    axil_write(0x20, 0);
    axil_write(0x24, 0);
    axil_write(0x6C, top_bits);
    const uint32_t cores = o.cores ? o.cores : 1;
    if (cores > ncores) {
      err = "the simulated accelerator has " + std::to_string(ncores) + " cores, asked for " + std::to_string(cores);
      return -1;
    }
    if (ncores > 1) axil_write(0x74, cores);
    axil_write(0x84, o.agg_log_m);
    if (o.agg_log_m && axil_read(0x84) != o.agg_log_m) {
      err = "this build has no device aggregation (AGG register)";
      return -1;
    }
    zk_sim_info core;  // read before START: reads tick the clock
    info(&core);
    axil_write(0x0C, 1);  // START

    // one beat per point per pass, field k the digit of window pK + k
    const uint32_t passes = (windows + cores - 1) / cores;
    const uint64_t total_digits = (uint64_t)n * passes;
    std::vector<uint32_t> beat(ncores + 1, 0);
    std::vector<uint64_t> core_bk(ncores, 0);  // buckets out of each core
    const uint64_t nb = c >= 1 && c <= 31 ? (1ull << (c - 1)) : 0;
    // No legitimate phase of an MSM goes this long without a digit taken,
    // a point asked for or a bucket out: the quietest is a window's device
    // aggregation, at most two additions per bucket, each at worst waiting
    // out the hazard window and the aggregation's conversion; 2^20 more
    // covers gaps in the streams and long datapath latencies. A core that
    // lost an operation (a write-back that never comes) stops with an
    // error instead of running to max_cycles.
    const uint64_t quiet_limit = (1ull << 20) + 2 * nb * ((uint64_t)core.lat_hz + core.lat_agg + 2);
    // the buckets each window sends, in order (zk_core_readout): all, or
    // with device aggregation k mod m < 2, m = 2^lm (the spread last
    // window's m is 2^top_bits: zk_core_addr.svh agg_lm)
    std::vector<std::vector<uint32_t>> sent(windows);
    uint64_t total_buckets = 0;
    for (uint32_t w = 0; w < windows; w++) {
      uint32_t lm = 0;
      if (o.agg_log_m) {
        lm = std::min<uint32_t>(o.agg_log_m, c - 1);
        if (w + 1 == windows && top_bits + 1 < c) lm = top_bits;
      }
      const uint64_t m = 1ull << lm;
      for (uint64_t kk = 0; kk < nb; kk++)
        if (lm == 0 || (kk & (m - 1)) < 2) sent[w].push_back((uint32_t)kk);
      total_buckets += sent[w].size();
    }
    std::vector<uint64_t> core_w(ncores, 0), core_i(ncores, 0);  // window (of the core), place in it
    const int v64 = (vw + 63) / 64;
    uint64_t dg = 0, bk = 0;
    // the window-major digits received from the producer so far; a beat of
    // pass p needs window p*cores + k's digit i for every core k in use,
    // so chunks are fetched (blocking) up to the highest window it needs
    std::vector<int32_t> got;
    const uint64_t stream_len = (uint64_t)n * windows;
    auto need = [&](uint64_t off) {
      while (got.size() <= off) {
        const int32_t* chunk = nullptr;
        size_t len = next(ctx, &chunk);
        if (len == 0) return false;
        got.insert(got.end(), chunk, chunk + len);
      }
      return true;
    };
    std::vector<uint32_t> val(vw32 + 1);
    const uint64_t limit = ticks + o.max_cycles;
    uint64_t last_progress = ticks;
    while (bk < total_buckets || (axil_read(0x10) & 4) == 0) {
      if (ticks > limit || ticks - last_progress > quiet_limit) {
        err = (ticks > limit ? "timeout: " + std::to_string(o.max_cycles) + " cycles, "
                             : "stalled: nothing in or out for " + std::to_string(ticks - last_progress) + " cycles, ") +
              std::to_string(dg) + " of " + std::to_string(total_digits) + " digits taken, " + std::to_string(bk) +
              " of " + std::to_string(total_buckets) + " buckets out";
        return -1;
      }
      if (bk >= total_buckets) continue;  // (the status read above ticks)
      // ---- point memory: issue a read, present the oldest arrived one
      tokens = std::min<uint32_t>(tokens + o.mem_rate_pct, 100);
      if (!cmds.empty() && tokens >= 100 && reads.size() < o.mem_latency + 8) {
        Cmd& cm = cmds.front();
        reads.push_back({ticks + o.mem_latency, cm.first + cm.fetched, cm.fetched + 1 == cm.count});
        tokens -= 100;
        if (++cm.fetched == cm.count) cmds.pop_front();
      }
      bool pt_valid = !reads.empty() && reads.front().ready_at <= ticks;
      top->s_pt_tvalid = pt_valid;
      if (pt_valid) {
        uint64_t i = reads.front().index;
        if (i >= npoints) {
          err = "point read beyond the loaded points";
          return -1;
        }
        put(top->s_pt_tdata, &mem[i * pw32], pw32);
        top->s_pt_tlast = reads.front().last;
      }
      top->m_cmd_tready = cmds.size() < 4;
      // ---- digits from the host
      bool dg_valid = dg < total_digits && chance(o.dg_rate_pct);
      top->s_dg_tvalid = dg_valid;
      if (dg_valid) {
        uint64_t p = dg / n, i = dg % n;
        uint64_t last_w = std::min<uint64_t>(p * cores + cores, windows) - 1;
        if (!need(std::min<uint64_t>(last_w * n + i, stream_len - 1))) {
          err = "the digit stream ended after " + std::to_string(got.size()) + " of " + std::to_string(stream_len) +
                " digits";
          return -1;
        }
        for (uint32_t k = 0; k < ncores; k++) {
          uint64_t w = p * cores + k;
          beat[k] = k < cores && w < windows ? (uint32_t)got[w * n + i] : 0;
        }
        put(top->s_dg_tdata, beat.data(), (int)ncores);
        top->s_dg_tlast = (dg % n) == n - 1;
      }
      // ---- buckets to the host
      uint32_t bk_ready = 0;
      for (uint32_t k = 0; k < ncores; k++) bk_ready |= (uint32_t)chance(o.out_ready_pct) << k;
      top->m_bk_tready = bk_ready;
      // ---- settle, see which handshakes happen at this edge
      top->clk = 0;
      top->eval();
      bool cmd_fire = top->m_cmd_tvalid && top->m_cmd_tready;
      bool pt_fire = top->s_pt_tvalid && top->s_pt_tready;
      bool dg_fire = top->s_dg_tvalid && top->s_dg_tready;
      uint32_t bk_fires = (uint32_t)top->m_bk_tvalid & (uint32_t)top->m_bk_tready;
      if (cmd_fire) {
        uint32_t w[3];
        get(top->m_cmd_tdata, w, 3);
        uint64_t addr = w[0] | ((uint64_t)w[1] << 32);
        if (addr % point_bytes) {
          err = "unaligned point read";
          return -1;
        }
        cmds.push_back({addr / point_bytes, w[2], 0});
      }
      for (uint32_t k = 0; k < ncores; k++) {
        if (!((bk_fires >> k) & 1)) continue;
        // core k sends its windows k, k + K, ... in order, each bucket in order
        uint32_t user = bits(top->m_bk_tuser, (int)(k * uwp), (int)uwp);
        uint64_t cb = core_bk[k]++;
        uint32_t want_w = (uint32_t)(k + cores * core_w[k]);
        if (want_w >= windows) {
          err = "core " + std::to_string(k) + " sent more buckets than its windows have";
          return -1;
        }
        uint32_t want_k = sent[want_w][core_i[k]];
        bool want_last = ++core_i[k] == sent[want_w].size();
        if (want_last) {
          core_w[k]++;
          core_i[k] = 0;
        }
        bool last = (top->m_bk_tlast >> k) & 1;
        uint32_t kbits = cmax - 1;
        if (want_w >= windows || (user >> kbits) != want_w || (user & ((1u << kbits) - 1)) != want_k ||
            last != want_last) {
          err = "bucket stream of core " + std::to_string(k) + " out of order at its bucket " + std::to_string(cb) +
                " (tuser " + std::to_string(user) + ", tlast " + std::to_string(last) + ")";
          return -1;
        }
        uint64_t at = (uint64_t)want_w * nb + want_k;
        for (int j = 0; j < vw32; j++) val[j] = bits(top->m_bk_tdata, (int)(k * vwp + 32 * j), std::min(32, (int)vwp - 32 * j));
        for (int j = 0; j < v64; j++) {
          uint64_t lo = val[2 * j], hi = 2 * j + 1 < vw32 ? val[2 * j + 1] : 0;
          buckets[at * v64 + j] = lo | (hi << 32);
        }
      }
      dump();
      top->clk = 1;
      top->eval();
      dump();
      ticks++;
      if (pt_fire) reads.pop_front();
      if (dg_fire) dg++;
      bk += (uint64_t)__builtin_popcount(bk_fires);
      if (dg_fire || bk_fires || cmd_fire) last_progress = ticks;
    }
    idle_inputs();
    st->status = axil_read(0x10);
    st->cycles = read64(0x28);
    st->acc_cycles = read64(0x30);
    st->issued = read64(0x38);
    st->conflicts = read64(0x40);
    st->stalls = read64(0x48);
    st->bubbles = read64(0x50);
    st->zero_digits = read64(0x58);
    st->ro_stalls = read64(0x60);
    st->pending_hwm = axil_read(0x68);
    st->fanout_stalls = read64(0x7C);
    st->sim_cycles = ticks - start_ticks;
    st->sim_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dg != total_digits) {
      err = "the MSM finished before every digit was taken";
      return -1;
    }
    if (st->status & 0xf0) {
      char buf[64];
      snprintf(buf, sizeof buf, "error flags in STATUS: 0x%x", st->status);
      err = buf;
      return 1;
    }
    return 0;
  }

};

}  // namespace

struct zk_sim {
  std::unique_ptr<Base> impl;
};

extern "C" {

void zk_sim_default_opts(zk_sim_opts* o) {
  o->mem_latency = 40;
  o->mem_rate_pct = 100;
  o->dg_rate_pct = 100;
  o->out_ready_pct = 100;
  o->seed = 1;
  o->max_cycles = 1ull << 32;
  o->cores = 1;
  o->agg_log_m = 0;
}

zk_sim* zk_sim_new(int kind, const zk_sim_opts* o) {
  zk_sim_opts d;
  zk_sim_default_opts(&d);
  if (!o) o = &d;
  auto s = new zk_sim;
#ifdef ZK_WITH_INT
  if (kind == ZK_SIM_INT) s->impl.reset(new Sim<Vzk_int>(o));
#endif
#ifdef ZK_WITH_TE
  if (kind == ZK_SIM_TE) s->impl.reset(new Sim<Vzk_te>(o));
#endif
#ifdef ZK_WITH_INT_LOCK
  if (kind == ZK_SIM_INT_LOCK) s->impl.reset(new Sim<Vzk_lk>(o));
#endif
#ifdef ZK_WITH_AFF381
  if (kind == ZK_SIM_AFF381) s->impl.reset(new Sim<Vzk_aff381>(o));
#endif
#ifdef ZK_WITH_AFF377
  if (kind == ZK_SIM_AFF377) s->impl.reset(new Sim<Vzk_aff377>(o));
#endif
#ifdef ZK_WITH_AFFBN254
  if (kind == ZK_SIM_AFFBN254) s->impl.reset(new Sim<Vzk_affbn254>(o));
#endif
  if (!s->impl || !s->impl->err.empty()) {
    delete s;
    return nullptr;
  }
  return s;
}

void zk_sim_free(zk_sim* s) { delete s; }
void zk_sim_get_info(zk_sim* s, zk_sim_info* out) { s->impl->info(out); }
void zk_sim_set_opts(zk_sim* s, const zk_sim_opts* o) { s->impl->o = *o; }
int zk_sim_load_points(zk_sim* s, const uint64_t* words, size_t n) { return s->impl->load(words, n); }
namespace {
struct Whole {
  const int32_t* digits;
  size_t len;
  bool given;
};
size_t whole_source(void* ctx, const int32_t** chunk) {  // the whole array as one chunk
  auto* w = static_cast<Whole*>(ctx);
  if (w->given) return 0;
  w->given = true;
  *chunk = w->digits;
  return w->len;
}
}  // namespace

int zk_sim_run(zk_sim* s, uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, const int32_t* digits,
               uint64_t* buckets, zk_sim_stats* stats) {
  Whole w{digits, (size_t)n * windows, false};
  return zk_sim_run_stream(s, n, c, windows, top_bits, whole_source, &w, buckets, stats);
}
int zk_sim_run_stream(zk_sim* s, uint32_t n, uint32_t c, uint32_t windows, uint32_t top_bits, zk_digit_source next,
                      void* ctx, uint64_t* buckets, zk_sim_stats* stats) {
  s->impl->err.clear();
  return s->impl->run(n, c, windows, top_bits, next, ctx, buckets, stats);
}
const char* zk_sim_error(zk_sim* s) { return s->impl->err.c_str(); }
}
