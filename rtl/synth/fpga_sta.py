#!/usr/bin/env python3
"""Static timing of a flattened Yosys synth_xilinx netlist (write_json) with
UltraScale+ delays taken from Vivado (rtl/synth/xcup_delays.txt,
rtl/synth/xcup_carry8.txt; the sources are named there; the method and its
calibration: rtl/synth/CALIBRATION.md).

  fpga_sta.py NETLIST.json TOP [--delays FILE] [--route-scale K] [--paths N]
              [--no-compare-fold] [--json OUT] [--tag CORE] [--groups N]
  fpga_sta.py --fit-nets [DELAYS]            # the routed-net fit
  fpga_sta.py --calibration-table DIR        # calibrate.sh's summary
  fpga_sta.py --clock-table DIR              # fpga_clock.sh's summary

The longest register-to-register paths (one per carry-chain structure), their
elements and delays:

  period = clock->Q + sum(cell arcs) + sum(net delays) + setup + clock uncertainty

Cells:
  - LUT1..6 and INV: one arc (`lut`); MUXF7/8/9: data or select arc;
  - CARRY4: Yosys maps carries to CARRY4 for every family; Vivado packs two
    chained CARRY4 into one CARRY8 on UltraScale+. Chains are rebuilt, paired
    and timed with the CARRY8 SINGLE_CY8 pin-to-pin arcs (xcup_carry8.txt),
    CO7 -> next CIN as `carry_cascade`. Carries known to be 0 (carry-in 0
    through positions whose generate is 0 or equals their propagate: Yosys's
    $macc chains over one-operand bits) are constants, as after Vivado's
    constant propagation. A chain whose sums are all unused (a comparison) is
    folded to two bit pairs per carry position, as Vivado maps comparators
    (--no-compare-fold: one);
  - DSP48E2: its sub-blocks per AREG/BREG/MREG/PREG (A/B in, pre-adder,
    multiplier, M, ALU, P/PCOUT out); a register inside is a path end;
  - FD*: path ends (clock->Q, setup on D, or on CE/R/S); SRL, LUTRAM (clock
    -> O; address -> O combinational), RAMB*, URAM288 (clock -> DOUT per port
    and output register): path ends; module ports and any other cell (black
    boxes: stand-ins of modules timed alone) are registers.
Nets:
  - dedicated and intra-slice connections (LUT -> CARRY S/DI, LUT -> MUXF,
    MUXF -> MUXF, the carry cascade, PCOUT -> PCIN, a fan-out-1 LUT/CARRY/
    MUXF output into a flip-flop, which Vivado packs into its slice): fixed;
  - every other net: (net_base + net_log2fo * log2(fanout)) * route_scale,
    the line fitted to Vivado's routed nets (--fit-nets) times the scale
    calibrated on the anchors (the delays file's route_scale unless given).

Before placement: no placement, routing, clock tree or register
replication. The last line is
  TOP: <ps> ps = <MHz> MHz (<n> LUT, <m> MUXF, <k> CARRY8, <d> DSP, route <r>%)
"""
import argparse
import json
import math
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

FF_TYPES = ("FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1", "LDCE", "LDPE")
DSP_REG_PARAMS = ("AREG", "BREG", "MREG", "PREG", "CREG", "ADREG", "DREG")
PASS_TYPES = ("BUFG", "IBUF", "OBUF", "IBUFG", "BUFGCE", "$scopeinfo")


def load_delays(path):
    d = {}
    for line in open(path):
        s = line.split("#")[0].split()
        if len(s) >= 2 and s[0] != "netdata":
            d[s[0]] = float(s[1])
    return d


def fit_nets(path):
    """Least squares of net delay on log2(fan-out) over the netdata lines."""
    pts = []
    for line in open(path):
        s = line.split("#")[0].split()
        if len(s) >= 3 and s[0] == "netdata":
            pts.append((math.log2(float(s[1])), float(s[2])))
    n = len(pts)
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    b = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
    a = my - b * mx
    rms = (sum((y - a - b * x) ** 2 for x, y in pts) / (n - 2)) ** 0.5
    print("%d nets: net_base %.0f ps, net_log2fo %.0f ps, residual %.0f ps rms" % (n, a, b, rms))
    return 0


def load_carry8(path):
    arcs = {}
    for line in open(path):
        s = line.split("#")[0].split()
        if len(s) == 3:
            arcs[(s[0], s[1])] = float(s[2])
    return arcs


def pint(v):
    """Yosys JSON parameter: binary string, decimal string or int."""
    if isinstance(v, int):
        return v
    s = str(v)
    if s and set(s) <= {"0", "1"}:
        return int(s, 2)
    try:
        return int(s)
    except ValueError:
        return 0


class Netlist:
    def __init__(self, mod):
        self.cells = mod["cells"]
        self.ports = mod["ports"]
        self.netnames = mod.get("netnames", {})
        self.driver = {}  # bit -> (cell, port, index)
        self.sinks = defaultdict(list)  # bit -> [(cell, port, index)]
        for name, c in self.cells.items():
            dirs = c.get("port_directions", {})
            for port, bits in c["connections"].items():
                d = dirs.get(port)
                if d is None:
                    d = "output" if port in ("O", "O5", "O6", "Q", "CO", "P", "PCOUT") else "input"
                for i, b in enumerate(bits):
                    if isinstance(b, str):
                        continue
                    if d == "output":
                        self.driver[b] = (name, port, i)
                    else:
                        self.sinks[b].append((name, port, i))
        for pname, p in self.ports.items():
            for i, b in enumerate(p["bits"]):
                if isinstance(b, str):
                    continue
                if p["direction"] == "input":
                    self.driver[b] = ("$port", pname, i)
                else:
                    self.sinks[b].append(("$port", pname, i))
        self.names = {}
        for n, nn in self.netnames.items():
            if nn.get("hide_name"):
                continue
            for i, b in enumerate(nn["bits"]):
                if isinstance(b, int) and b not in self.names:
                    self.names[b] = "%s[%d]" % (n, i) if len(nn["bits"]) > 1 else n

    def typ(self, cell):
        return "$port" if cell == "$port" else self.cells[cell]["type"]

    def conn(self, cell, port):
        return self.cells[cell]["connections"].get(port, [])

    def bitname(self, b):
        return self.names.get(b, "n%d" % b)


class Sta:
    def __init__(self, nl, dl, c8, route_scale=1.0, fold=True):
        self.nl, self.d, self.c8 = nl, dl, c8
        self.rs = route_scale
        self.fold = fold
        self.carry_pos = {}  # CARRY4 cell -> (chain id, position, group size)
        self.zero_co = set()  # CARRY4 CO bits known to be 0
        self.chains = []
        self._chains()
        self.kind = {}
        for n, c in nl.cells.items():
            self.kind[n] = self._kind(n, c)

    # ---- classification -------------------------------------------------
    def _kind(self, n, c):
        t = c["type"]
        if t.startswith(FF_TYPES):
            return "ff"
        if t.startswith("LUT") or t == "INV":
            return "lut"
        if t == "CARRY4" or t == "CARRY8":
            return "carry"
        if t.startswith("MUXF"):
            return "muxf"
        if t == "DSP48E2":
            return "dsp"
        if t.startswith("SRL"):
            return "srl"
        if t.startswith("RAM32") or t.startswith("RAM64") or t.startswith("RAM128") or t.startswith("RAM256"):
            return "lutram"
        if t.startswith("RAMB"):
            return "bram"
        if t.startswith("URAM"):
            return "uram"
        if t in PASS_TYPES:
            return "pass"
        if t in ("VCC", "GND"):
            return "const"
        return "bb"

    def _chains(self):
        nl = self.nl
        prev = {}
        nxt = {}
        for n, c in nl.cells.items():
            if c["type"] != "CARRY4":
                continue
            ci = c["connections"].get("CI", ["0"])[0]
            if isinstance(ci, int) and ci in nl.driver:
                dc, dp, di = nl.driver[ci]
                if dc != "$port" and nl.cells[dc]["type"] == "CARRY4" and dp == "CO" and di == 3:
                    prev[n] = dc
                    nxt[dc] = n
        for n, c in nl.cells.items():
            if c["type"] != "CARRY4" or n in prev:
                continue
            chain = [n]
            while chain[-1] in nxt:
                chain.append(nxt[chain[-1]])
            self._known_zero(chain)
            fold = self.fold and self._is_compare(chain)
            g = 4 if fold else 2
            cid = len(self.chains)
            self.chains.append((chain, fold))
            for p, m in enumerate(chain):
                self.carry_pos[m] = (cid, p, g)

    def _known_zero(self, chain):
        """Carries that are constant 0: from a carry-in of 0, through positions whose
        generate (DI) is 0 or equal to their propagate (S): CO = S ? 0 : DI = 0. Yosys's
        $macc adders run their chain over bits where one operand alone is present;
        Vivado's constant propagation removes those positions."""
        nl = self.nl
        c = nl.conn(chain[0], "CI")[0]
        y = nl.conn(chain[0], "CYINIT")[0]
        zero = c == "0" and y == "0"
        for m in chain:
            co = nl.conn(m, "CO")
            s = nl.conn(m, "S")
            di = nl.conn(m, "DI")
            for i in range(4):
                if zero and i < len(s) and (di[i] == "0" or di[i] == s[i]):
                    if i < len(co) and isinstance(co[i], int):
                        self.zero_co.add(co[i])
                else:
                    zero = False
            if not zero:
                break

    def _is_compare(self, chain):
        """Sum outputs all unused: a comparison (or a carry-out only) chain."""
        nl = self.nl
        for m in chain:
            for b in nl.conn(m, "O"):
                if isinstance(b, int) and nl.sinks.get(b):
                    return False
        return True

    # ---- nets ---------------------------------------------------------------
    def fanout(self, b):
        return max(1, len(self.nl.sinks.get(b, ())))

    def general_net(self, fo):
        d = self.d
        return (d["net_base"] + d["net_log2fo"] * math.log2(max(1, fo))) * self.rs

    def net_delay(self, b, sink):
        """Delay from the driver of bit b to sink (cell, port, index)."""
        nl, d = self.nl, self.d
        drv = nl.driver.get(b)
        if drv is None:
            return 0.0, "const"
        dc, dp, di = drv
        sc, sp, si = sink
        fo = self.fanout(b)
        dk = "port" if dc == "$port" else self.kind[dc]
        sk = "port" if sc == "$port" else self.kind[sc]
        if dk == "pass" or sk == "pass":
            return 0.0, "buf"
        if dk == "carry" and sk == "carry" and dp == "CO" and sp == "CI":
            # CARRY4 -> CARRY4: inside a CARRY8, or CARRY8 -> CARRY8
            _, p, g = self.carry_pos[sc]
            if p % g:
                return 0.0, "carry8"
            return self._cascade(sc), "cascade"
        if dk == "dsp" and sk == "dsp" and dp == "PCOUT" and sp == "PCIN":
            return d["net_dsp_cascade"], "pcin"
        if fo == 1:
            if dk == "lut" and sk == "carry" and sp in ("S", "DI"):
                return d["net_lut_carry"], "slice"
            if dk == "lut" and sk == "muxf" and sp in ("I0", "I1"):
                return d["net_lut_muxf"], "slice"
            if dk == "muxf" and sk == "muxf" and sp in ("I0", "I1"):
                return d["net_muxf_muxf"], "slice"
            if sk == "ff" and sp == "D":
                if dk == "lut":
                    return d["net_lut_ff"], "slice"
                if dk == "carry":
                    return d["net_carry_ff"], "slice"
                if dk == "muxf":
                    return d["net_muxf_ff"], "slice"
        if dk == "lut" and sk == "carry" and sp in ("S", "DI"):
            # a LUT feeding its carry and others: the carry input still sits in the slice
            return d["net_lut_carry"], "slice"
        return self.general_net(fo), "route"

    def _cascade(self, cell):
        d = self.d
        extra = 0.0
        if d.get("carry8_per_region"):
            extra = d["carry_rclk_extra"] / d["carry8_per_region"]
        return d["carry_cascade"] + extra

    # ---- cells: start times and arcs -----------------------------------------
    def start_time(self, cell, port):
        """Clock-to-out of a path start (a register output), or None."""
        d = self.d
        if cell == "$port":
            return d["ff_clk_q"]
        k = self.kind[cell]
        c = self.nl.cells[cell]
        p = c.get("parameters", {})
        if k == "ff":
            return d["ff_clk_q"]
        if k == "srl" or (k == "lutram" and port.startswith("O")):
            return d["lutram_clk_o"]
        if k in ("bram", "uram"):
            b = "b" if port.startswith(("DOUTB", "DOUT_B", "DOB", "CAS_OUT_DOUT_B")) else "a"
            if k == "bram":
                reg = pint(p.get("DO%s_REG" % b.upper(), 0))
            else:
                reg = str(p.get("OREG_%s" % b.upper(), "FALSE")).upper() == "TRUE"
            return d["%s_%s_clk_do%s" % (k, b, "_reg" if reg else "")]
        if k == "bb":
            return d["ff_clk_q"]
        return None

    def end_setup(self, cell, port):
        """Setup of a path end (register input), or None."""
        d = self.d
        if cell == "$port":
            return d["ff_setup_d"]
        k = self.kind[cell]
        if k == "ff":
            if port == "D":
                return d["ff_setup_d"]
            if port in ("C", "CLR", "PRE", "G"):
                return None
            return d["ff_setup_ce"]
        if k in ("srl", "lutram"):
            if port in ("CLK", "WCLK"):
                return None
            return d["srl_setup"]
        if k in ("bram", "uram"):
            if port.startswith("CLK"):
                return None
            return d["ram_setup"]
        if k == "bb":
            return d["ff_setup_d"]
        return None


def dsp_regs(c):
    p = c.get("parameters", {})
    return {r: pint(p.get(r, 0)) for r in DSP_REG_PARAMS}


def analyse(nl, sta):
    """Arrival times over net bits in topological order; returns the worst ends."""
    d = sta.d
    c8 = sta.c8
    arr = {}  # bit -> (time, pred) where pred = (kind, from_bit or None, cell, note)

    # path starts
    for b, (dc, dp, di) in nl.driver.items():
        st = sta.start_time(dc, dp) if dc == "$port" or sta.kind[dc] in ("ff", "srl", "bram", "uram", "bb") else None
        if dc != "$port" and sta.kind[dc] == "lutram" and dp.startswith("O"):
            st = None  # LUTRAM read is asynchronous: address -> O below
        if st is not None:
            arr[b] = (st, ("start", None, dc, dp))

    # combinational output bits: their dependencies (input bits) and arcs
    deps = {}  # out bit -> list of (in bit, cell arc ps, sink pin)
    special = {}  # out bit -> "lut" (arc chosen by arrival order)
    for n, c in nl.cells.items():
        k = sta.kind[n]
        conn = c["connections"]
        if k == "lut":
            o = conn.get("O", [None])[0]
            if not isinstance(o, int):
                continue
            ins = []
            for port, bits in conn.items():
                if port.startswith("I"):
                    for i, b in enumerate(bits):
                        if isinstance(b, int):
                            ins.append((b, d["lut"], (n, port, i)))
            deps[o] = ins
        elif k == "muxf":
            o = conn.get("O", [None])[0]
            if not isinstance(o, int):
                continue
            ins = []
            for port in ("I0", "I1"):
                b = conn.get(port, [None])[0]
                if isinstance(b, int):
                    ins.append((b, d["muxf_data"], (n, port, 0)))
            b = conn.get("S", [None])[0]
            if isinstance(b, int):
                ins.append((b, d["muxf_sel"], (n, "S", 0)))
            deps[o] = ins
        elif k == "pass":
            outs = [p for p in conn if c.get("port_directions", {}).get(p) == "output" or p == "O"]
            inb = [b for p, bits in conn.items() if p not in outs for b in bits if isinstance(b, int)]
            for p in outs:
                for o in conn[p]:
                    if isinstance(o, int):
                        deps[o] = [(b, 0.0, (n, "I", 0)) for b in inb[:1]]
        elif k == "lutram":
            # asynchronous read: read address -> O (as a LUT)
            dirs = c.get("port_directions", {})
            outs = [p for p in conn if dirs.get(p) == "output"]
            addr = [p for p in conn if dirs.get(p) == "input" and
                    p not in ("D", "DI", "DIA", "DIB", "DIC", "DID", "DIE", "DIF", "DIG", "DIH", "WE", "WCLK", "CLK")]
            # RAM128X1D/RAM256X1D read through one/two wide-mux levels of their slice
            extra = d["muxf_data"] * (2 if "256" in c["type"] else 1 if "128" in c["type"] else 0)
            for p in outs:
                # each read port's own address: DPO <- DPRA and SPO <- A (RAMnX1D),
                # DOx <- ADDRx (RAM32M, RAM64M...), O <- A (single port)
                if p == "DPO":
                    own = [ap for ap in addr if ap.startswith("DPRA")]
                elif p.startswith("DO") and len(p) == 3:
                    own = [ap for ap in addr if ap == "ADDR" + p[2]]
                else:
                    own = [ap for ap in addr if ap.startswith("A") and not ap.startswith("ADDR")]
                own = own or addr
                for o in conn[p]:
                    if isinstance(o, int):
                        deps[o] = [(b, d["lutram_addr_o"] + extra, (n, ap, i)) for ap in own
                                   for i, b in enumerate(conn[ap]) if isinstance(b, int)]
        elif k == "carry":
            carry_deps(nl, sta, n, deps)
        elif k == "dsp":
            dsp_arcs(nl, sta, n, c, deps, arr)
    return deps, arr


def carry_deps(nl, sta, n, deps):
    """A CARRY4's outputs as outputs of the CARRY8 it is packed into.

    Group size g = 2 CARRY4 per CARRY8, or 4 for a folded comparison (two bit
    pairs per carry position). Output bit i of member q sits at CARRY8 position
    (4q + i) * 2 / g; it depends on the group's CIN and CYINIT and on every
    S/DI at a position at or below it, with the SINGLE_CY8 arcs."""
    c8 = sta.c8
    cid, p, g = sta.carry_pos[n]
    chain = sta.chains[cid][0]
    q = p % g
    members = chain[p - q:p - q + g]
    first = nl.cells[members[0]]["connections"]
    conn = nl.cells[n]["connections"]
    pos = lambda qq, i: (4 * qq + i) * 2 // g
    for pre in ("CO", "O"):
        outs = conn.get(pre, [])
        for i in range(4):
            if i >= len(outs) or not isinstance(outs[i], int):
                continue
            m = pos(q, i)
            ins = []
            own_co = conn.get("CO", [])
            if pre == "CO" and own_co[i] in sta.zero_co:
                deps[outs[i]] = []  # a constant 0
                continue
            for qq, mem in enumerate(members):
                mc = nl.cells[mem]["connections"]
                mco = mc.get("CO", [])
                for ii in range(4):
                    mm = pos(qq, ii)
                    if (qq, ii) > (q, i):
                        break
                    if (qq, ii) < (q, i) and ii < len(mco) and mco[ii] in sta.zero_co:
                        continue  # its carry is 0: no path from it upwards
                    for port, key in (("S", "S%d" % mm), ("DI", "DI%d" % mm)):
                        bits = mc.get(port, [])
                        if ii < len(bits) and isinstance(bits[ii], int):
                            a = c8.get((key, "%s%d" % (pre, m)))
                            if a is None and pre == "O" and key.startswith("DI"):
                                continue  # DI_m does not reach O_m
                            if a is None:
                                a = c8.get(("S%d" % mm, "%s%d" % (pre, m)), 0.0)
                            ins.append((bits[ii], a, (mem, port, ii)))
            ci = first.get("CI", ["0"])[0]
            if isinstance(ci, int) and ci not in sta.zero_co:
                ins.append((ci, c8[("CIN", "%s%d" % (pre, m))], (members[0], "CI", 0)))
            cy = first.get("CYINIT", ["0"])[0]
            if isinstance(cy, int):
                a = c8.get(("CYINIT", "%s%d" % (pre, m)))
                if a is not None:
                    ins.append((cy, a, (members[0], "CYINIT", 0)))
            deps[outs[i]] = ins


def dsp_arcs(nl, sta, n, c, deps, arr):
    """DSP48E2: combinational arcs and internal register starts/ends."""
    d = sta.d
    r = dsp_regs(c)
    conn = c["connections"]
    ab_in = [(b, (n, port, i)) for port in ("A", "B", "D") for i, b in enumerate(conn.get(port, []))
             if isinstance(b, int)]
    c_in = [(b, (n, "C", i)) for i, b in enumerate(conn.get("C", [])) if isinstance(b, int)]
    pcin = [(b, (n, "PCIN", i)) for i, b in enumerate(conn.get("PCIN", [])) if isinstance(b, int)]
    ctrl = [(b, (n, port, i)) for port in ("OPMODE", "ALUMODE", "INMODE", "CARRYIN")
            for i, b in enumerate(conn.get(port, [])) if isinstance(b, int)]
    # time from the start of the ALU (U_DATA) to its output, per source
    mult_path = d["dsp_preadd"] + d["dsp_mult"]
    outs = []
    for port, outd in (("P", d["dsp_out_p"]), ("PCOUT", d["dsp_out_pcout"])):
        for i, b in enumerate(conn.get(port, [])):
            if isinstance(b, int):
                outs.append((b, outd))
    # stage boundaries: inputs -> [AREG] -> preadd+mult -> [MREG] -> ALU -> [PREG] -> out
    pre_alu = []  # (bit, delay to ALU input, pin) for combinational sources
    alu_start = None  # clock -> ALU input when a register precedes the ALU
    if r["MREG"]:
        alu_start = d["dsp_reg_clk_q"]
        sta.dsp_ends.extend((b, d["dsp_ab_in"] + mult_path + d["dsp_reg_setup"], pin) for b, pin in ab_in
                            if not (r["AREG"] or r["BREG"]))
    else:
        if r["AREG"] or r["BREG"]:
            alu_start = d["dsp_reg_clk_q"] + mult_path + d["dsp_mdata"]
            sta.dsp_ends.extend((b, d["dsp_ab_in"] + d["dsp_reg_setup"], pin) for b, pin in ab_in)
        else:
            pre_alu.extend((b, d["dsp_ab_in"] + mult_path + d["dsp_mdata"], pin) for b, pin in ab_in)
    if r["CREG"]:
        sta.dsp_ends.extend((b, d["dsp_reg_setup"], pin) for b, pin in c_in)
        alu_start = max(alu_start or 0.0, d["dsp_reg_clk_q"])
    else:
        pre_alu.extend((b, 0.0, pin) for b, pin in c_in)
    pre_alu.extend((b, 0.0, pin) for b, pin in pcin)
    pre_alu.extend((b, 0.0, pin) for b, pin in ctrl)
    if r["PREG"]:
        sta.dsp_ends.extend((b, t + d["dsp_alu"] + d["dsp_reg_setup"], pin) for b, t, pin in pre_alu)
        if alu_start is not None:
            sta.dsp_internal.append((n, alu_start + d["dsp_alu"] + d["dsp_reg_setup"]))
        for b, outd in outs:
            arr[b] = (d["dsp_reg_clk_q"] + outd, ("start", None, n, "PREG"))
        return
    for b, outd in outs:
        deps[b] = [(bi, t + d["dsp_alu"] + outd, pin) for bi, t, pin in pre_alu]
        if alu_start is not None:
            sta.dsp_out_start[b] = alu_start + d["dsp_alu"] + outd


def run(nl, sta):
    d = sta.d
    sta.dsp_ends = []  # (in bit, delay to the internal register incl. setup, pin)
    sta.dsp_internal = []
    sta.dsp_out_start = {}  # out bit -> clock -> out through an internal register
    deps, arr = analyse(nl, sta)
    for b, t in sta.dsp_out_start.items():
        if b not in arr or arr[b][0] < t:
            arr[b] = (t, ("start", None, nl.driver[b][0], "DSPREG"))
    # topological order over bits
    order = []
    state = {}
    for root in deps:
        if root in state:
            continue
        stack = [(root, 0)]
        while stack:
            b, i = stack.pop()
            if i == 0:
                if b in state:
                    continue
                state[b] = 1
            ins = deps.get(b, [])
            if i < len(ins):
                stack.append((b, i + 1))
                nb = ins[i][0]
                if nb in deps and nb not in state:
                    stack.append((nb, 0))
                continue
            state[b] = 2
            order.append(b)
    for b in order:
        ins = deps[b]
        best, bp = None, None
        cand = []
        for (ib, arc, pin) in ins:
            if ib not in arr:
                continue
            nd, nk = sta.net_delay(ib, pin)
            cand.append((arr[ib][0] + nd, arc, ib, pin, nd, nk))
        if not cand:
            continue
        for (t, arc, ib, pin, nd, nk) in cand:
            tt = t + arc
            if best is None or tt > best:
                best, bp = tt, ("arc", ib, pin[0], (arc, nd, nk, pin[1]))
        if b in arr and arr[b][0] >= best:
            continue
        arr[b] = (best, bp)
    # path ends
    ends = []
    for b, sinks in nl.sinks.items():
        if b not in arr:
            continue
        for s in sinks:
            sc, sp, si = s
            setup = sta.end_setup(sc, sp)
            if setup is None:
                continue
            nd, nk = sta.net_delay(b, s)
            ends.append((arr[b][0] + nd + setup, b, s, nd, nk, setup))
    for (b, extra, pin) in sta.dsp_ends:
        if b not in arr:
            continue
        nd, nk = sta.net_delay(b, pin)
        ends.append((arr[b][0] + nd + extra, b, pin, nd, nk, extra))
    for (n, t) in sta.dsp_internal:
        ends.append((t, None, (n, "ALU", 0), 0.0, "dsp", 0.0))
    ends.sort(key=lambda e: -e[0])
    return ends, arr


def trace(nl, sta, arr, end):
    t, b, s, nd, nk, setup = end
    steps = []
    steps.append(("end", s[0], s[1], t, nd, nk, setup))
    while b is not None:
        tb, pred = arr[b]
        if pred[0] == "start":
            steps.append(("start", pred[2], pred[3], tb, 0, "", 0))
            break
        _, ib, cell, (arc, ndd, nkk, port) = pred
        steps.append(("cell", cell, port, tb, ndd, nkk, arc))
        b = ib
    steps.reverse()
    return steps


def names_of(nl, cell, port):
    """The RTL name of a register's output (Yosys keeps the wire names)."""
    if cell == "$port":
        return port
    bits = nl.conn(cell, port)
    return ",".join(nl.bitname(b) for b in bits[:1] if isinstance(b, int))


def summarize(nl, sta, steps, total):
    cnt = defaultdict(int)
    route = 0.0
    for st in steps:
        kind, cell = st[0], st[1]
        if kind == "cell":
            cnt[sta.kind.get(cell, "?")] += 1
            if st[5] == "route":
                route += st[4]
        if kind == "end" and st[5] == "route":
            route += st[4]
    return cnt, route


# published clocks of the anchors (calibrate.sh); see CALIBRATION.md
ANCHORS = (
    ("cyclonemsm", 250.0, "AWS F1 (VU9P -2), clk_main_a0 at recipe A1, the shell's fastest"),
    ("superscalar", 280.0, "U250 (-2L), post-route WNS +0.028 ns: 282.2 MHz"),
)


def calibration_table(out_dir):
    """The per-module estimates of calibrate.sh and the anchors' figures."""
    rows = []
    for f in sorted(os.listdir(out_dir)):
        if f.endswith(".sta.json"):
            r = json.load(open(os.path.join(out_dir, f)))
            rows.append((f[:-len(".sta.json")], r))
    print("%-8s %-12s %-22s %8s %8s  %s" % ("module", "anchor", "top", "ps", "MHz", "critical path"))
    est = {}
    for name, r in rows:
        anchor = "cyclonemsm" if name.startswith("cm_") else "superscalar"
        c = r["counts"]
        desc = "%d LUT, %d MUXF, %d CARRY8, %d DSP, route %.0f%%" % (
            c.get("lut", 0), c.get("muxf", 0), c.get("carry", 0), c.get("dsp", 0), 100.0 * r["route_ps"] / r["ps"])
        print("%-8s %-12s %-22s %8.0f %8.1f  %s" % (name, anchor, r["top"][:22], r["ps"], r["mhz"], desc))
        if anchor not in est or r["mhz"] < est[anchor][0]:
            est[anchor] = (r["mhz"], name)
    parts = []
    for a, pub, why in ANCHORS:
        if a in est:
            f, m = est[a]
            print("%s: %.1f MHz (%s), published %.0f MHz: %+.1f%% [%s]" % (a, f, m, pub, 100.0 * (f / pub - 1), why))
            parts.append("%s %.0f MHz (published %.0f)" % (a, f, pub))
        else:
            parts.append("%s - MHz (published %.0f)" % (a, pub))
    print("calibration: " + ", ".join(parts))
    return 0


# What the anchors leave open (CALIBRATION.md, "Uncertainty"): the chain between
# CARRY8s up to CARRY8_SLACK ps slower than calibrated (CycloneMSM at 250 MHz), the
# route scale down to ROUTE_LOW (RW-doc's routed nets unscaled).
CARRY8_SLACK = 4.6
ROUTE_LOW = 1.0
CORES = (("te", "twisted-edwards", "BLS12-377 twisted Edwards core"),
         ("aff", "batched-affine", "BLS12-381 batched-affine core"))


def bounds(r):
    """Relative clock range of one path over the calibration's box."""
    ps = r["ps"]
    slow = r["counts"].get("carry", 0) * CARRY8_SLACK
    fast = r["route_ps"] * (1.0 - ROUTE_LOW / r["route_scale"]) if r["route_scale"] > ROUTE_LOW else 0.0
    return ps / (ps + slow) - 1.0, ps / (ps - fast) - 1.0


def clock_table(out_dir):
    """zkmsm's per-module estimates (fpga_clock.sh) and each core's clock."""
    rows = []
    for f in sorted(os.listdir(out_dir)):
        if f.endswith(".sta.json"):
            rows.append((f[:-len(".sta.json")], json.load(open(os.path.join(out_dir, f)))))
    print("%-10s %-5s %-14s %7s %7s  %s" % ("module", "core", "top", "ps", "MHz", "critical path"))
    best = {}
    for name, r in rows:
        c = r["counts"]
        desc = "%d LUT, %d MUXF, %d CARRY8, %d DSP, route %.0f%%" % (
            c.get("lut", 0), c.get("muxf", 0), c.get("carry", 0), c.get("dsp", 0), 100.0 * r["route_ps"] / r["ps"])
        tag = r.get("tag", "both")
        print("%-10s %-5s %-14s %7.0f %7.1f  %s" % (name, tag, r["top"][:14], r["ps"], r["mhz"], desc))
        for k, _, _ in CORES:
            if tag in (k, "both") and (k not in best or r["mhz"] < best[k][0]):
                best[k] = (r["mhz"], name)
    parts = []
    for k, label, what in CORES:
        if k in best:
            f, m = best[k]
            lo, hi = bounds(dict(rows)[m])
            print("%s: %.0f MHz (%s), -%.0f%%/+%.0f%%: %.0f-%.0f MHz" % (
                what, f, m, abs(100 * lo), 100 * hi, f * (1 + lo), f * (1 + hi)))
            parts.append("%s %.0f MHz (-%.0f/+%.0f%%)" % (label, f, abs(100 * lo), 100 * hi))
    print("fpga clock: " + ", ".join(parts))
    return 0


def group_name(nl, cell, port):
    """A register's RTL name without its bit index (a group of flip-flops)."""
    n = names_of(nl, cell, port)
    if not n or re.match(r"n\d+$", n):
        # no RTL name kept: the register's source line
        src = nl.cells[cell].get("attributes", {}).get("src", "") if cell != "$port" else ""
        n = "(%s)" % os.path.basename(src.split("|")[0].split(".", 1)[0] + "." + src.split(".", 1)[1]) if src else cell
    return re.sub(r"\[\d+\]", "", n)


def groups(nl, sta, arr, ends, unc, n):
    """The slowest path of each (start group, end group), one line each."""
    seen = set()
    rows = 0
    for e in ends:
        steps = trace(nl, sta, arr, e)
        st, en = steps[0], steps[-1]
        typ = nl.typ(en[1]) if en[1] != "$port" else "port"
        key = (group_name(nl, st[1], st[2]), group_name(nl, en[1], "Q" if typ.startswith("FD") else en[2]))
        if key in seen:
            continue
        seen.add(key)
        total = e[0] + unc
        cnt, route = summarize(nl, sta, steps, total)
        print("%6.0f ps %5.0f MHz  %-44s -> %-44s %2d LUT %d MUXF %2d CARRY8 route %2.0f%%" % (
            total, 1e6 / total, key[0][:44], key[1][:44], cnt.get("lut", 0), cnt.get("muxf", 0),
            cnt.get("carry", 0), 100.0 * route / total))
        rows += 1
        if rows >= n:
            break
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--fit-nets":
        return fit_nets(argv[2] if len(argv) > 2 else os.path.join(HERE, "xcup_delays.txt"))
    if len(argv) >= 3 and argv[1] == "--clock-table":
        return clock_table(argv[2])
    if len(argv) >= 3 and argv[1] == "--calibration-table":
        return calibration_table(argv[2])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("netlist")
    ap.add_argument("top")
    ap.add_argument("--delays", default=os.path.join(HERE, "xcup_delays.txt"))
    ap.add_argument("--carry8", default=os.path.join(HERE, "xcup_carry8.txt"))
    ap.add_argument("--route-scale", type=float, default=None,
                    help="scale of the routed nets (default: route_scale of the delays file)")
    ap.add_argument("--paths", type=int, default=1)
    ap.add_argument("--no-compare-fold", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--tag", default="")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--groups", type=int, default=0,
                    help="one line per (start, end) register group, the N slowest")
    a = ap.parse_args(argv[1:])
    mods = json.load(open(a.netlist))["modules"]
    if a.top not in mods:
        cand = [m for m in mods if m.endswith(a.top) or a.top in m]
        if len(cand) != 1:
            sys.stderr.write("fpga_sta.py: no module %s in %s\n" % (a.top, a.netlist))
            return 1
        a.top = cand[0]
    nl = Netlist(mods[a.top])
    dl = load_delays(a.delays)
    c8 = load_carry8(a.carry8)
    if "carry_cin_co7" in dl:
        c8[("CIN", "CO7")] = dl["carry_cin_co7"]
    if a.route_scale is None:
        a.route_scale = dl.get("route_scale", 1.0)
    sta = Sta(nl, dl, c8, a.route_scale, not a.no_compare_fold)
    ends, arr = run(nl, sta)
    if not ends:
        print("%s: no register-to-register path" % a.top)
        return 0
    unc = dl["clock_uncertainty"]
    if a.groups:
        return groups(nl, sta, arr, ends, unc, a.groups)
    res = []
    seen = set()
    for e in ends:
        # one path per structure: keyed by the carry chains it runs through (or its end)
        st = trace(nl, sta, arr, e)
        chains = tuple(sorted({sta.carry_pos[s[1]][0] for s in st if s[0] == "cell" and s[1] in sta.carry_pos}))
        key = chains if chains else (e[2][0], e[2][1])
        if key in seen:
            continue
        seen.add(key)
        res.append(e)
        if len(res) >= a.paths:
            break
    out = []
    for k, e in enumerate(res):
        steps = trace(nl, sta, arr, e)
        total = e[0] + unc
        cnt, route = summarize(nl, sta, steps, total)
        out.append((total, steps, cnt, route))
        if not a.quiet:
            print("path %d: %.0f ps (incl. clock uncertainty %.0f)" % (k + 1, total, unc))
            for st in steps:
                kind, cell, port, t, nd, nk, x = st
                typ = nl.typ(cell) if cell != "$port" else "port"
                cname = cell if len(cell) < 70 else "..." + cell[-67:]
                if kind == "start":
                    print("  %8.0f  start %-8s %s.%s  [%s]" % (t, typ, cname, port, names_of(nl, cell, port)))
                elif kind == "cell":
                    print("  %8.0f  net %5.0f (%s) + %-8s %5.0f  %s.%s" % (t, nd, nk, typ, x, cname, port))
                else:
                    print("  %8.0f  net %5.0f (%s) + setup %5.0f  -> %s %s.%s  [%s]" % (
                        t, nd, nk, x, typ, cname, port, names_of(nl, cell, "Q" if typ.startswith("FD") else port)))
    total, steps, cnt, route = out[0]
    ncarry4 = cnt.get("carry", 0)
    if a.json:
        json.dump(dict(top=a.top, tag=a.tag, ps=total, mhz=1e6 / total, counts=dict(cnt), route_ps=route,
                       route_scale=a.route_scale,
                       path=[list(s[:4]) + [nl.typ(s[1]) if s[1] != "$port" else "port"] for s in steps]),
                  open(a.json, "w"), indent=1)
    print("%s: %.0f ps = %.0f MHz (%d LUT, %d MUXF, %d CARRY8, %d DSP, route %.0f%%)" % (
        a.top, total, 1e6 / total, cnt.get("lut", 0), cnt.get("muxf", 0), ncarry4, cnt.get("dsp", 0),
        100.0 * route / total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
