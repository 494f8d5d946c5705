#!/usr/bin/env python3
"""Liberty helpers for rtl/synth/sta.sh (plain .lib files, already unzipped).

  sta_lib.py merge OUT.lib A.lib [B.lib ...]  one library for Yosys (it reads one
      file): A's header, then every table template and cell of all files,
      each name once
  sta_lib.py info A.lib [B.lib ...]     shell assignments: time unit, the FO4
      inverter, a buffer, tie cells, the flip-flop used as the input driver
  sta_lib.py fo4 INV IN OUT N           a chain of N inverters, each loaded
      by four (the next stage and three side loads), as a Verilog netlist
  sta_lib.py regs NETLIST.v A.lib ...   flip-flops and latches in a netlist
"""
import re
import sys

GROUP = re.compile(r'^\s*(\w+)\s*\(\s*"?([^")]*)"?\s*\)\s*\{')


def groups(path):
    """Top-level groups of the library in PATH: (kind, name, lines), and the
    lines before the first group (the header)."""
    out, header, cur, depth = [], [], None, 0
    with open(path, encoding="latin-1") as f:
        for line in f:
            opens, closes = line.count("{"), line.count("}")
            if depth == 1 and cur is None and opens:
                m = GROUP.match(line)
                cur = [m.group(1), m.group(2), []] if m else ["?", "", []]
            if cur is not None:
                cur[2].append(line)
            elif depth <= 1 and not out and not (depth == 1 and closes):
                header.append(line)
            depth += opens - closes
            if cur is not None and depth == 1:
                out.append(tuple(cur))
                cur = None
    return header, out


def merge(dst, files):
    seen = set()
    with open(dst, "w") as o:
        for i, path in enumerate(files):
            header, gs = groups(path)
            if i == 0:
                o.writelines(header)
            for kind, name, lines in gs:
                if kind in ("operating_conditions", "?") and i > 0:
                    continue
                if (kind, name) in seen:
                    continue
                seen.add((kind, name))
                o.writelines(lines)
        o.write("}\n")


def cells(files):
    """name -> {area, seq, pins: {pin: (direction, function, cap)}}"""
    res, unit = {}, None
    for path in files:
        header, gs = groups(path)
        for line in header:
            m = re.search(r'time_unit\s*:\s*"1(\w+)"', line)
            if m and unit is None:
                unit = m.group(1)
        for kind, name, lines in gs:
            if kind != "cell":
                continue
            c = {"area": 0.0, "seq": False, "ff": False, "pins": {}}
            pin = None
            for ln in lines:
                m = re.match(r'\s*pin\s*\(\s*"?(\w+)"?\s*\)', ln)
                if m:
                    pin = m.group(1)
                    c["pins"][pin] = ["", "", 0.0]
                    continue
                m = re.match(r'\s*(ff|latch)\s*\(', ln)
                if m:
                    c["seq"] = True
                    c["ff"] = m.group(1) == "ff"
                m = re.match(r'\s*area\s*:\s*([\d.eE+-]+)', ln)
                if m and pin is None:
                    c["area"] = float(m.group(1))
                if pin is not None:
                    m = re.match(r'\s*direction\s*:\s*"?(\w+)', ln)
                    if m:
                        c["pins"][pin][0] = m.group(1)
                    m = re.match(r'\s*function\s*:\s*"([^"]*)"', ln)
                    if m:
                        c["pins"][pin][1] = m.group(1).replace(" ", "")
                    m = re.match(r'\s*capacitance\s*:\s*([\d.eE+-]+)', ln)
                    if m:
                        c["pins"][pin][2] = float(m.group(1))
            res[name] = c
    return res, unit


def smallest(cs, pred):
    best = [n for n, c in cs.items() if pred(n, c)]
    best.sort(key=lambda n: (cs[n]["area"], n))
    return best[0] if best else None


def single(c, fn):
    """the (input, output) of a one-input cell whose output is fn(input)"""
    ins = [p for p, v in c["pins"].items() if v[0] == "input"]
    outs = [p for p, v in c["pins"].items() if v[0] == "output"]
    if len(ins) == 1 and len(outs) == 1:
        f = c["pins"][outs[0]][1].strip("()")
        if f == fn(ins[0]):
            return ins[0], outs[0]
    return None


def info(files):
    cs, unit = cells(files)
    scale = {"ps": 1.0, "ns": 1000.0}[unit]
    ok = lambda n: not re.search(r"lpflow|probe|clkinv|clkbuf", n)
    inv = smallest(cs, lambda n, c: ok(n) and single(c, lambda a: "!" + a))
    buf = smallest(cs, lambda n, c: ok(n) and single(c, lambda a: a))
    hi = smallest(cs, lambda n, c: any(v[1] == "1" for v in c["pins"].values()))
    lo = smallest(cs, lambda n, c: any(v[1] == "0" for v in c["pins"].values()))
    ff = smallest(cs, lambda n, c: ok(n) and c["ff"] and len(
        [p for p, v in c["pins"].items() if v[0] == "input"]) == 2 and "next_state" not in n)
    i_in, i_out = single(cs[inv], lambda a: "!" + a)
    b_in, b_out = single(cs[buf], lambda a: a)
    hpin = [p for p, v in cs[hi]["pins"].items() if v[1] == "1"][0]
    lpin = [p for p, v in cs[lo]["pins"].items() if v[1] == "0"][0]
    qpin = [p for p, v in cs[ff]["pins"].items() if v[0] == "output"][0]
    print(f"TSCALE={scale}")  # ps per library time unit
    print(f"INV={inv} INV_IN={i_in} INV_OUT={i_out} INV_CAP={cs[inv]['pins'][i_in][2]}")
    print(f"BUF={buf} BUF_IN={b_in} BUF_OUT={b_out}")
    print(f"TIEHI={hi} TIEHI_PIN={hpin} TIELO={lo} TIELO_PIN={lpin}")
    print(f"DFF={ff} DFF_Q={qpin}")


def fo4(inv, pin_in, pin_out, n):
    print("module fo4_chain (input a, output y);")
    print("  wire [%d:0] s;" % n)
    print(f"  {inv} d0 (.{pin_in}(a), .{pin_out}(s[0]));")
    for i in range(n):
        print(f"  {inv} g{i} (.{pin_in}(s[{i}]), .{pin_out}(s[{i + 1}]));")
        for k in range(3):  # side loads: fan-out four in all
            print(f"  {inv} l{i}_{k} (.{pin_in}(s[{i}]), .{pin_out}());")
    print(f"  {inv} d1 (.{pin_in}(s[{n}]), .{pin_out}(y));")
    print("endmodule")


def regs(netlist, files):
    cs, _ = cells(files)
    seq = {n for n, c in cs.items() if c["seq"]}
    count = 0
    with open(netlist) as f:
        for line in f:
            m = re.match(r"\s*\\?(\S+)\s+\S+\s*\(", line)
            if m and m.group(1) in seq:
                count += 1
    print(count)


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "merge" and len(argv) >= 4:
        merge(argv[2], argv[3:])
    elif cmd == "info" and len(argv) >= 3:
        info(argv[2:])
    elif cmd == "fo4" and len(argv) == 6:
        fo4(argv[2], argv[3], argv[4], int(argv[5]))
    elif cmd == "regs" and len(argv) >= 4:
        regs(argv[2], argv[3:])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
