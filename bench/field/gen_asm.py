#!/usr/bin/env python3
"""Prints the asm! templates of crates/field/src/asm.rs (Montgomery
multiplication, CIOS "no-carry" variant, MULX with two carry chains: ADCX on CF
and ADOX on OF). Registers are named operands; the row loop is fully unrolled
and, instead of shifting the accumulator down a word after each reduction, the
freed register takes over the role of the new top word.

    python3 bench/field/gen_asm.py 6   # or 4
"""
import sys


def gen(n):
    lines = []
    e = lines.append
    # roles: t[0..n-1] accumulator, a = extra top word
    regs = [f"t{j}" for j in range(n)] + ["x"]
    t = regs[:n]
    top = regs[n]
    for i in range(n):
        e(f"mov rdx, qword ptr [{{pb}} + {8 * i}]")
        if i == 0:
            # t = a * b[0]: one carry chain
            e(f"xor {{{top}}}, {{{top}}}")
            e(f"mulx {{{t[1]}}}, {{{t[0]}}}, qword ptr [{{pa}}]")
            for j in range(1, n):
                hi = t[j + 1] if j + 1 < n else top
                e(f"mulx {{{hi}}}, {{lo}}, qword ptr [{{pa}} + {8 * j}]")
                e(f"adcx {{{t[j]}}}, {{lo}}")
            e("mov {lo}, 0")
            e(f"adcx {{{top}}}, {{lo}}")
        else:
            # (top, t) += a * b[i]: low halves on OF, high halves on CF
            e(f"xor {{{top}}}, {{{top}}}")
            for j in range(n):
                hi_dst = t[j + 1] if j + 1 < n else top
                e(f"mulx {{hi}}, {{lo}}, qword ptr [{{pa}} + {8 * j}]")
                e(f"adox {{{t[j]}}}, {{lo}}")
                e(f"adcx {{{hi_dst}}}, {{hi}}")
            e("mov {lo}, 0")
            e(f"adox {{{top}}}, {{lo}}")
        # reduction: m = t0 * (-q^-1); (top, t) = (top, t) + m*q, then drop t0
        e(f"mov rdx, {{{t[0]}}}")
        e("imul rdx, qword ptr [{pq} + 48]")
        e("xor {lo}, {lo}")
        e("mulx {hi}, {lo}, qword ptr [{pq}]")
        e(f"adcx {{lo}}, {{{t[0]}}}")
        e(f"adox {{{t[1]}}}, {{hi}}")
        for j in range(1, n):
            hi_dst = t[j + 1] if j + 1 < n else top
            e(f"mulx {{hi}}, {{lo}}, qword ptr [{{pq}} + {8 * j}]")
            e(f"adcx {{{t[j]}}}, {{lo}}")
            e(f"adox {{{hi_dst}}}, {{hi}}")
        # the OF chain already ended in the top word; only CF is pending
        e("mov {lo}, 0")
        e(f"adcx {{{top}}}, {{lo}}")
        freed = t[0]
        t = t[1:] + [top]
        top = freed
    # result < 2q: subtract q once unless that borrows
    spare = ["rdx", "{lo}", "{hi}", "{pa}", "{pb}", f"{{{top}}}"][:n]
    for j in range(n):
        e(f"mov {spare[j]}, {{{t[j]}}}")
    for j in range(n):
        op = "sub" if j == 0 else "sbb"
        e(f"{op} {{{t[j]}}}, qword ptr [{{pq}} + {8 * j}]")
    for j in range(n):
        e(f"cmovc {{{t[j]}}}, {spare[j]}")
    return lines, t


if __name__ == "__main__":
    n = int(sys.argv[1])
    lines, out = gen(n)
    for l in lines:
        print(f'            "{l}",')
    print("// result registers:", " ".join(out))
