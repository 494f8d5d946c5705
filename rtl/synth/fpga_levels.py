#!/usr/bin/env python3
"""Longest register-to-register path of a flattened Yosys synth_xilinx netlist
(write_json), weighted by an assumed delay per UltraScale+ primitive, with
the primitives on it counted.

  fpga_levels.py NETLIST.json TOP [LUT_NS CARRY4_NS MUXF_NS DSP_NS FF_NS]

Cells are nodes (any input to any output): LUT1..6/INV one logic level,
CARRY4 one carry hop, MUXF7/8 a mux, DSP48E2 with no internal register a
combinational multiplier; flip-flops, SRLs, RAMs and DSP48E2 with any
register enabled are path ends. Module ports count as registers. Prints the
path's counts and its delay: FF_NS (clock-to-Q plus setup) + the sum of the
cell weights. Pre-placement: the per-level weight stands for the LUT and
its net together; real nets depend on placement.
"""
import json
import sys

SEQ = ("FD", "SRL", "RAM", "URAM", "LDCE", "LDPE")
DSP_REGS = ("AREG", "BREG", "CREG", "DREG", "ADREG", "MREG", "PREG",
            "ACASCREG", "BCASCREG")


def kind(cell):
    t = cell["type"]
    if t.startswith(SEQ):
        return "seq"
    if t == "DSP48E2":
        p = cell.get("parameters", {})
        regs = any(int(str(p.get(r, "0")), 2 if set(str(p.get(r, "0"))) <= {"0", "1"} else 10) != 0
                   for r in DSP_REGS if r in p)
        return "seq" if regs else "dsp"
    if t.startswith("LUT") or t == "INV":
        return "lut"
    if t.startswith("CARRY"):
        return "carry"
    if t.startswith("MUXF"):
        return "muxf"
    if t in ("BUFG", "IBUF", "OBUF", "VCC", "GND"):
        return "none"
    return "other"


def main(argv):
    if len(argv) not in (3, 8):
        sys.stderr.write(__doc__)
        return 2
    w = dict(lut=0.45, carry=0.05, muxf=0.10, dsp=1.60, other=0.45, none=0.0)
    ff = 0.25
    if len(argv) == 8:
        w["lut"], w["carry"], w["muxf"], w["dsp"], ff = map(float, argv[3:8])
        w["other"] = w["lut"]
    mod = json.load(open(argv[1]))["modules"][argv[2]]
    cells = mod["cells"]
    driver = {}  # net bit -> cell name
    ins = {}  # cell -> input bits
    kinds = {}
    for name, c in cells.items():
        k = kind(c)
        kinds[name] = k
        dirs = c.get("port_directions", {})
        ins[name] = []
        for port, bits in c["connections"].items():
            d = dirs.get(port, "input")
            for b in bits:
                if isinstance(b, str):
                    continue
                if d == "output":
                    driver[b] = name
                else:
                    ins[name].append(b)
    # arrival at each combinational cell's output, iterative DFS
    arr, pred = {}, {}
    for start in cells:
        if kinds[start] == "seq" or start in arr:
            continue
        stack = [(start, False)]
        onstack = set()
        while stack:
            n, done = stack.pop()
            if n in arr:
                continue
            if not done:
                onstack.add(n)
                stack.append((n, True))
                for b in ins[n]:
                    d = driver.get(b)
                    if d and kinds[d] != "seq" and d not in arr and d not in onstack:
                        stack.append((d, False))
                continue
            best, bp = 0.0, None
            for b in ins[n]:
                d = driver.get(b)
                if d and kinds[d] != "seq" and d in arr and arr[d] > best:
                    best, bp = arr[d], d
            arr[n] = best + w[kinds[n]]
            pred[n] = bp
            onstack.discard(n)
    if not arr:
        print("no combinational cells")
        return 0
    end = max(arr, key=lambda n: arr[n])
    path = []
    n = end
    while n:
        path.append(n)
        n = pred[n]
    path.reverse()
    counts = {}
    for n in path:
        counts[kinds[n]] = counts.get(kinds[n], 0) + 1
    levels = counts.get("lut", 0) + counts.get("muxf", 0) + counts.get("dsp", 0) + counts.get("other", 0)
    ns = ff + arr[end]
    print("path: %s" % " ".join(
        "%s:%d" % (k, counts[k]) for k in ("lut", "muxf", "carry", "dsp", "other") if k in counts))
    print("from %s (%s) to %s (%s)" % (path[0], cells[path[0]]["type"], end, cells[end]["type"]))
    print("weights (ns): lut %.2f carry4 %.2f muxf %.2f dsp %.2f ff %.2f" %
          (w["lut"], w["carry"], w["muxf"], w["dsp"], ff))
    print("%s: %d logic levels + %d CARRY4, estimate %.2f ns = %.0f MHz" %
          (argv[2], levels, counts.get("carry", 0), ns, 1000.0 / ns))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
