// Test bench for zk_dp_aff (through zk_dp_aff_tb, RTL or its Yosys netlist).
//
//   zk_aff_tb stream VECTORS   independent operations "sub tag binf bx by px py oinf ox oy":
//                              the first half back to back, the rest with random
//                              bubbles; every output compared bit for bit (value,
//                              tag) and out_valid checked on every cycle against
//                              in_valid LAT cycles earlier
//   zk_aff_tb acc VECTORS      bucket accumulation with the adder's results fed back:
//                              "op b sub px py" lines (in order per bucket) and
//                              "fin b inf x y" (the host's final bucket values);
//                              an operation is issued only when its bucket has no
//                              operation in flight (the core's rule), buckets chosen
//                              at random, random bubbles; the final buckets compared
//                              bit for bit, out_valid checked as above
// Values: 96 hex digits (Montgomery form, canonical, most significant first).
// Exit status 0 only if everything matched.
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vzk_dp_aff_tb.h"
#include "zk_params.h"

static const int NW = ZK_NB / 32;  // 32-bit words per coordinate
struct Fe {
  uint32_t w[NW];
  bool operator==(const Fe& o) const { return memcmp(w, o.w, sizeof w) == 0; }
};
struct Pt {  // affine point or infinity (inf: x = y = 0)
  bool inf = true;
  Fe x{}, y{};
  bool operator==(const Pt& o) const { return inf == o.inf && x == o.x && y == o.y; }
};

static bool parse_fe(const std::string& s, Fe& v) {
  if (s.size() != (size_t)NW * 8) return false;
  for (int i = 0; i < NW; i++) v.w[i] = (uint32_t)strtoul(s.substr(8 * (NW - 1 - i), 8).c_str(), nullptr, 16);
  return true;
}
static std::string hex(const Fe& v) {
  char buf[8 * NW + 1];
  for (int i = 0; i < NW; i++) snprintf(buf + 8 * i, 9, "%08x", v.w[NW - 1 - i]);
  return std::string(buf, 8 * NW);
}
static std::string show(const Pt& p) { return p.inf ? std::string("inf") : "(" + hex(p.x) + ", " + hex(p.y) + ")"; }

template <class T>
static void put_pt(T& port, const Pt& p, bool with_inf) {
  for (int i = 0; i < NW; i++) port[i] = p.x.w[i], port[NW + i] = p.y.w[i];
  if (with_inf) port[2 * NW] = p.inf ? 1 : 0;
}
template <class T>
static Pt get_pt(const T& port) {
  Pt p;
  for (int i = 0; i < NW; i++) p.x.w[i] = port[i], p.y.w[i] = port[NW + i];
  p.inf = port[2 * NW] & 1;
  return p;
}

static void fail_line(const char* file, size_t lineno, const char* what) {
  fprintf(stderr, "%s line %zu: %s\n", file, lineno, what);
  exit(2);
}

struct Op {
  uint32_t sub = 0, tag = 0;
  Pt bucket, point, out;
  int b = -1;  // acc: bucket index
};

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s stream|acc VECTORS\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  if (mode != "stream" && mode != "acc") {
    fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  std::vector<Op> ops;
  std::vector<std::pair<int, Pt>> fins;
  int nb = 0;
  {
    std::ifstream f(argv[2]);
    if (!f) fail_line(argv[2], 0, "cannot open");
    std::string line;
    size_t lineno = 0;
    while (std::getline(f, line)) {
      lineno++;
      if (line.empty()) continue;
      std::istringstream ss(line);
      std::string t[10];
      int n = 0;
      while (n < 10 && (ss >> t[n])) n++;
      Op o;
      if (mode == "stream") {
        if (n != 10) fail_line(argv[2], lineno, "expected 10 fields");
        o.sub = (uint32_t)std::stoul(t[0]);
        o.tag = (uint32_t)std::stoul(t[1], nullptr, 16);
        o.bucket.inf = t[2] == "1";
        o.point.inf = false;
        o.out.inf = t[7] == "1";
        if (!parse_fe(t[3], o.bucket.x) || !parse_fe(t[4], o.bucket.y) || !parse_fe(t[5], o.point.x) ||
            !parse_fe(t[6], o.point.y) || !parse_fe(t[8], o.out.x) || !parse_fe(t[9], o.out.y))
          fail_line(argv[2], lineno, "bad hex value");
        ops.push_back(o);
      } else if (n == 5 && t[0] == "op") {
        o.b = std::stoi(t[1]);
        o.sub = (uint32_t)std::stoul(t[2]);
        o.point.inf = false;
        if (!parse_fe(t[3], o.point.x) || !parse_fe(t[4], o.point.y)) fail_line(argv[2], lineno, "bad hex value");
        if (o.b < 0 || o.b > 1000000) fail_line(argv[2], lineno, "bad bucket index");
        nb = std::max(nb, o.b + 1);
        ops.push_back(o);
      } else if (n == 5 && t[0] == "fin") {
        Pt p;
        p.inf = t[2] == "1";
        if (!parse_fe(t[3], p.x) || !parse_fe(t[4], p.y)) fail_line(argv[2], lineno, "bad hex value");
        fins.push_back({std::stoi(t[1]), p});
      } else {
        fail_line(argv[2], lineno, "expected an op or fin line");
      }
    }
  }
  if (ops.empty()) {
    fprintf(stderr, "no operations in %s\n", argv[2]);
    return 2;
  }

  Verilated::commandArgs(argc, argv);
  Vzk_dp_aff_tb* top = new Vzk_dp_aff_tb;
  auto tick = [&]() {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
  };
  top->clk = 0;
  top->rst = 1;
  top->in_valid = 0;
  top->eval();
  const int L = top->lat;
  if (L < 1) {
    fprintf(stderr, "bad latency %d\n", L);
    return 2;
  }
  for (int i = 0; i < 5; i++) tick();
  top->rst = 0;

  std::mt19937_64 rng(12345);
  std::vector<int64_t> hist;  // per cycle: index of the op issued, or -1
  uint64_t errors = 0, valid_errors = 0, outputs = 0, cycles = 0;
  size_t done = 0;
  // stream
  size_t next = 0;
  // acc
  std::vector<std::deque<size_t>> pending(nb);
  std::vector<Pt> state(nb);
  std::vector<char> busy(nb, 0);
  std::vector<int> ready;
  if (mode == "acc") {
    for (size_t i = 0; i < ops.size(); i++) pending[ops[i].b].push_back(i);
    for (int b = 0; b < nb; b++)
      if (!pending[b].empty()) ready.push_back(b);
  }
  // ZK_AFF_TRACE=FILE (acc): every operation as issued and its result, for debugging
  FILE* trace = getenv("ZK_AFF_TRACE") ? fopen(getenv("ZK_AFF_TRACE"), "w") : nullptr;
  const uint64_t max_cycles = (uint64_t)ops.size() * (L + 10) + 10 * (uint64_t)L + 1000;
  while (done < ops.size() && cycles < max_cycles) {
    int64_t issue = -1;
    if (mode == "stream") {
      if (next < ops.size() && (next < ops.size() / 2 || rng() % 10 >= 3)) issue = (int64_t)next++;
    } else if (!ready.empty() && rng() % 10 != 0) {
      size_t k = rng() % ready.size();
      int b = ready[k];
      ready[k] = ready.back();
      ready.pop_back();
      issue = (int64_t)pending[b].front();
      pending[b].pop_front();
      busy[b] = 1;
      ops[issue].bucket = state[b];
    }
    top->in_valid = issue >= 0;
    if (issue >= 0) {
      Op& o = ops[issue];
      if (mode == "acc") o.tag = (uint32_t)issue;
      top->in_sub = o.sub;
      top->in_tag = o.tag;
      put_pt(top->bucket, o.bucket, true);
      put_pt(top->point, o.point, false);
    } else {
      // garbage on the inputs of a bubble must not matter
      top->in_sub = rng() & 1;
      top->in_tag = (uint32_t)rng();
      for (int i = 0; i < 2 * NW; i++) top->bucket[i] = (uint32_t)rng(), top->point[i] = (uint32_t)rng();
    }
    hist.push_back(issue);
    tick();
    cycles++;
    int64_t c = (int64_t)hist.size() - 1 - (L - 1);
    int64_t want = c >= 0 ? hist[c] : -1;
    if (top->out_valid != (want >= 0)) {
      if (valid_errors++ < 5)
        fprintf(stderr, "cycle %lu: out_valid=%d, expected %d\n", (unsigned long)cycles, (int)top->out_valid,
                (int)(want >= 0));
      continue;
    }
    if (want < 0) continue;
    outputs++;
    done++;
    Op& o = ops[want];
    Pt got = get_pt(top->out_value);
    if (top->out_tag != o.tag) {
      if (errors++ < 10) fprintf(stderr, "op %ld: tag %08x, expected %08x\n", (long)want, top->out_tag, o.tag);
    }
    if (mode == "stream") {
      if (!(got == o.out) && errors++ < 10)
        fprintf(stderr, "op %ld (sub %u, bucket %s, point %s):\n  got      %s\n  expected %s\n", (long)want, o.sub,
                show(o.bucket).c_str(), show(o.point).c_str(), show(got).c_str(), show(o.out).c_str());
    } else {
      if (trace) fprintf(trace, "%d %u %d %s %s %s %s %d %s %s\n", o.b, o.sub, (int)o.bucket.inf, hex(o.bucket.x).c_str(),
                         hex(o.bucket.y).c_str(), hex(o.point.x).c_str(), hex(o.point.y).c_str(), (int)got.inf,
                         hex(got.x).c_str(), hex(got.y).c_str());
      state[o.b] = got;
      busy[o.b] = 0;
      if (!pending[o.b].empty()) ready.push_back(o.b);
    }
  }
  if (done < ops.size()) {
    fprintf(stderr, "only %zu of %zu operations came out in %lu cycles\n", done, ops.size(), (unsigned long)cycles);
    errors++;
  }
  // a few more cycles: nothing else may come out
  for (int i = 0; i < L + 5; i++) {
    top->in_valid = 0;
    tick();
    if (top->out_valid && valid_errors++ < 5) fprintf(stderr, "spurious output after the last operation\n");
  }
  size_t fin_ok = 0;
  if (mode == "acc") {
    for (auto& [b, p] : fins) {
      if (b < 0 || b >= nb || !(state[b] == p)) {
        if (errors++ < 10)
          fprintf(stderr, "bucket %d: got %s\n  expected %s\n", b, b >= 0 && b < nb ? show(state[b]).c_str() : "-",
                  show(p).c_str());
      } else {
        fin_ok++;
      }
    }
    if (fins.empty()) {
      fprintf(stderr, "no final buckets in %s\n", argv[2]);
      errors++;
    }
  }
  printf("zk_aff_tb %s: %zu ops, %lu outputs, %lu cycles, latency %d, %zu final buckets matched, %lu value errors, %lu "
         "valid errors\n",
         mode.c_str(), ops.size(), (unsigned long)outputs, (unsigned long)cycles, L, fin_ok, (unsigned long)errors,
         (unsigned long)valid_errors);
  if (trace) fclose(trace);
  delete top;
  return (errors == 0 && valid_errors == 0) ? 0 : 1;
}
