// Test bench for zk_tb_top (RTL or the Yosys-elaborated netlist of it).
//
//   tb MODE VECTORS      MODE = mul | addsub | padd
//
// Streams every vector through the DUT, one issue per cycle (no bubbles) for
// the first part and with random bubbles for the rest, and checks:
//   - every output against the Rust library's reference value (mul, padd:
//     equal mod q and < 2q, i.e. out == ref or out == ref + q; addsub: exact),
//   - the tag travelling with each point addition,
//   - the valid pattern: out_valid at cycle c == in_valid at cycle c-LAT+1,
//     for every cycle, and the output count.
// Exit status 0 only if everything matched.
#include <verilated.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "Vzk_tb_top.h"
#include "zk_params.h"

static const int NW = ZK_NB / 32;  // 32-bit words per field value
struct U384 {
  uint32_t w[NW];
};

static U384 parse_hex(const std::string& s) {
  U384 v{};
  if (s.size() != (size_t)NW * 8) {
    fprintf(stderr, "bad hex length %zu\n", s.size());
    exit(2);
  }
  for (int i = 0; i < NW; i++) {
    std::string part = s.substr(8 * (NW - 1 - i), 8);
    v.w[i] = (uint32_t)strtoul(part.c_str(), nullptr, 16);
  }
  return v;
}

static std::string to_hex(const U384& v) {
  char buf[100];
  for (int i = 0; i < NW; i++) snprintf(buf + 8 * i, 9, "%08x", v.w[NW - 1 - i]);
  return std::string(buf, 8 * NW);
}

static const U384 QV = parse_hex(ZK_Q_HEX);

static bool eq(const U384& a, const U384& b) { return memcmp(a.w, b.w, sizeof a.w) == 0; }

// out == ref (mod q) with out < 2q, given ref < q: out == ref or out == ref + q
static bool eq_mod_q(const U384& out, const U384& ref) {
  if (eq(out, ref)) return true;
  U384 s{};
  uint64_t c = 0;
  for (int i = 0; i < NW; i++) {
    c += (uint64_t)ref.w[i] + QV.w[i];
    s.w[i] = (uint32_t)c;
    c >>= 32;
  }
  return eq(out, s);
}

template <class T>
static void put(T& port, const U384& v) {
  for (int i = 0; i < NW; i++) port[i] = v.w[i];
}
template <class T>
static U384 get(const T& port) {
  U384 v{};
  for (int i = 0; i < NW; i++) v.w[i] = port[i];
  return v;
}

struct Vec {
  std::vector<U384> in;
  std::vector<U384> out;
  uint32_t sub = 0, tag = 0;
};

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s mul|addsub|padd VECTORS\n", argv[0]);
    return 2;
  }
  std::string mode = argv[1];
  int nin, nout;
  if (mode == "mul") {
    nin = 2, nout = 1;
  } else if (mode == "addsub") {
    nin = 2, nout = 2;
  } else if (mode == "padd") {
    nin = 7, nout = 4;
  } else {
    fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  std::vector<Vec> vecs;
  {
    std::ifstream f(argv[2]);
    std::string line;
    while (std::getline(f, line)) {
      if (line.empty()) continue;
      std::istringstream ss(line);
      Vec v;
      std::string tok;
      if (mode == "padd") {
        ss >> tok;
        v.sub = (uint32_t)std::stoul(tok);
        ss >> tok;
        v.tag = (uint32_t)std::stoul(tok, nullptr, 16);
      }
      for (int i = 0; i < nin; i++) {
        ss >> tok;
        v.in.push_back(parse_hex(tok));
      }
      for (int i = 0; i < nout; i++) {
        ss >> tok;
        v.out.push_back(parse_hex(tok));
      }
      vecs.push_back(v);
    }
  }
  if (vecs.empty()) {
    fprintf(stderr, "no vectors in %s\n", argv[2]);
    return 2;
  }

  Verilated::commandArgs(argc, argv);
  Vzk_tb_top* top = new Vzk_tb_top;
  auto tick = [&]() {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
  };

  // the latency ports are constants computed in the RTL from its parameters;
  // evaluate once so they are settled
  top->clk = 0;
  top->rst = 1;
  top->eval();
  const int L = mode == "mul" ? top->lat_mul : mode == "addsub" ? top->lat_as : top->lat_pa;
  if (L < 1) {
    fprintf(stderr, "bad latency %d\n", L);
    return 2;
  }
  for (int i = 0; i < L + 3; i++) tick();
  top->rst = 0;

  // streaming: the first 3/4 of the vectors back to back, the rest with bubbles
  const size_t n = vecs.size();
  const size_t n_stream = n - n / 4;
  std::mt19937_64 rng(12345);
  std::vector<int64_t> hist;  // per cycle: vector index issued, or -1
  size_t next = 0, done = 0;
  uint64_t errors = 0, valid_errors = 0, outputs = 0, cycles = 0;
  auto t0 = std::chrono::steady_clock::now();
  while (done < n) {
    bool issue = false;
    if (next < n) issue = next < n_stream || (rng() % 10) >= 3;
    const Vec* v = issue ? &vecs[next] : nullptr;
    if (mode == "mul") {
      top->mul_in_valid = issue;
      if (issue) put(top->mul_a, v->in[0]), put(top->mul_b, v->in[1]);
    } else if (mode == "addsub") {
      top->as_in_valid = issue;
      if (issue) put(top->as_a, v->in[0]), put(top->as_b, v->in[1]);
    } else {
      top->pa_in_valid = issue;
      if (issue) {
        top->pa_in_sub = v->sub;
        top->pa_in_tag = v->tag;
        put(top->pa_x1, v->in[0]);
        put(top->pa_y1, v->in[1]);
        put(top->pa_z1, v->in[2]);
        put(top->pa_t1, v->in[3]);
        put(top->pa_ymx, v->in[4]);
        put(top->pa_ypx, v->in[5]);
        put(top->pa_kxy, v->in[6]);
      }
    }
    hist.push_back(issue ? (int64_t)next : -1);
    if (issue) next++;
    tick();
    cycles++;
    // output visible now belongs to the input issued L-1 ticks ago
    int64_t c = (int64_t)hist.size() - 1 - (L - 1);
    int64_t want = c >= 0 ? hist[c] : -1;
    bool ov = mode == "mul" ? top->mul_out_valid : mode == "addsub" ? top->as_out_valid : top->pa_out_valid;
    if (ov != (want >= 0)) {
      if (valid_errors < 5)
        fprintf(stderr, "[%s] cycle %lu: out_valid=%d, expected %d\n", mode.c_str(),
                (unsigned long)cycles, (int)ov, (int)(want >= 0));
      valid_errors++;
    }
    if (want >= 0) {
      const Vec& e = vecs[want];
      std::vector<U384> got;
      bool ok = true;
      if (mode == "mul") {
        got.push_back(get(top->mul_c));
        ok = eq_mod_q(got[0], e.out[0]);
      } else if (mode == "addsub") {
        got.push_back(get(top->as_sum));
        got.push_back(get(top->as_diff));
        ok = eq(got[0], e.out[0]) && eq(got[1], e.out[1]);
      } else {
        got.push_back(get(top->pa_x3));
        got.push_back(get(top->pa_y3));
        got.push_back(get(top->pa_z3));
        got.push_back(get(top->pa_t3));
        for (int i = 0; i < 4; i++) ok = ok && eq_mod_q(got[i], e.out[i]);
        ok = ok && top->pa_out_tag == e.tag;
      }
      if (ov) outputs++;
      if (!ok) {
        if (errors < 5) {
          fprintf(stderr, "[%s] vector %ld mismatch\n", mode.c_str(), (long)want);
          for (size_t i = 0; i < e.in.size(); i++)
            fprintf(stderr, "  in%zu  %s\n", i, to_hex(e.in[i]).c_str());
          for (size_t i = 0; i < got.size(); i++)
            fprintf(stderr, "  got%zu %s\n  ref%zu %s\n", i, to_hex(got[i]).c_str(), i,
                    to_hex(e.out[i]).c_str());
        }
        errors++;
      }
      done++;
    }
  }
  // drain: nothing more may come out
  for (int i = 0; i < L + 2; i++) {
    top->mul_in_valid = 0;
    top->as_in_valid = 0;
    top->pa_in_valid = 0;
    tick();
    cycles++;
    bool ov = mode == "mul" ? top->mul_out_valid : mode == "addsub" ? top->as_out_valid : top->pa_out_valid;
    if (ov) valid_errors++;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  top->final();
  delete top;
  bool pass = errors == 0 && valid_errors == 0 && outputs == n;
  printf("[%s] %s: %zu ops (%zu back-to-back, %zu with bubbles), latency %d, %lu outputs, "
         "%lu value errors, %lu valid-pattern errors, %lu cycles in %.2f s (%.0f cycles/s)\n",
         mode.c_str(), pass ? "PASS" : "FAIL", n, n_stream, n - n_stream, L, (unsigned long)outputs,
         (unsigned long)errors, (unsigned long)valid_errors, (unsigned long)cycles, secs,
         cycles / secs);
  return pass ? 0 : 1;
}
