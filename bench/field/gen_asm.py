#!/usr/bin/env python3
"""Prints the asm! templates of crates/field/src/asm.rs (Montgomery
multiplication, CIOS "no-carry" variant, MULX with two carry chains: ADCX on CF
and ADOX on OF). Registers are named operands; the row loop is fully unrolled
and, instead of shifting the accumulator down a word after each reduction, the
freed register takes over the role of the new top word.

    python3 bench/field/gen_asm.py 6   # or 4
    python3 bench/field/gen_asm.py sqr 6
    python3 bench/field/gen_asm.py --check crates/field/src/asm.rs

`--check FILE` regenerates every template asm.rs uses (mul6, sqr6, mul4) and
compares each with the asm! strings and the result order of that function in
FILE; it exits with status 1 and names the first difference if they do not
agree (run by scripts/test.sh).

`sqr N` prints the dedicated Montgomery squaring (`sqr6` in asm.rs): the
off-diagonal products a_i a_j (i < j) once, into a scratch buffer; then one pass
that doubles them (ADCX chain) and adds the diagonal a_i^2 (ADOX chain); then
a Montgomery reduction of the low half L alone, U = (L + M q) / R <= q, and
finally U + H (H the high half, < q) with one conditional subtraction of q.
Registers: g0..g7, lo, hi, rdx and the two pointers, as many as the mul uses.
The scratch `ps` holds a copy of a (words 0..N-1) and the 2N-word product
(words N..3N-1); g7 brings in the pointer to a.
"""
import re
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


def gen_sqr(n):
    lines = []
    e = lines.append
    free = [f"g{j}" for j in range(8)]

    def alloc():
        return free.pop(0)

    def release(r):
        free.append(r)

    # g7 comes in holding the pointer to a: the prologue copies a into the
    # scratch (one 8-byte store per word, so the loads below forward from
    # them), and the first rows read a through g7 until g7 is allocated.
    pa_live = [True]  # until g7 is first allocated

    def a(j):
        if pa_live[0] and "g7" in free:
            return f"qword ptr [{{g7}} + {8 * j}]"
        pa_live[0] = False
        return f"qword ptr [{{ps}} + {8 * j}]"

    for j in range(n):
        tmp = ["rdx", "{lo}", "{hi}"][j % 3]
        e(f"mov {tmp}, {a(j)}")
        e(f"mov qword ptr [{{ps}} + {8 * j}], {tmp}")

    def w(k):  # word k of the 2n-word product
        return f"qword ptr [{{ps}} + {8 * (n + k)}]"

    # 1. off-diagonal products, row i = a_i * (a_{i+1} .. a_{n-1}) at word 2i+1
    win = {}  # position -> register
    e("xor {lo}, {lo}")
    e(f"mov rdx, {a(0)}")
    win[1], win[2] = alloc(), alloc()
    e(f"mulx {{{win[2]}}}, {{{win[1]}}}, {a(1)}")
    for j in range(2, n):
        win[j + 1] = alloc()
        e(f"mulx {{{win[j + 1]}}}, {{lo}}, {a(j)}")
        e(f"adcx {{{win[j]}}}, {{lo}}")
    e("mov {lo}, 0")
    e(f"adcx {{{win[n]}}}, {{lo}}")
    for i in range(1, n - 1):
        for pos in (2 * i - 1, 2 * i):  # final now: store
            e(f"mov {w(pos)}, {{{win[pos]}}}")
            release(win.pop(pos))
        e(f"mov rdx, {a(i)}")
        top = win[i + n] = alloc()
        e(f"xor {{{top}}}, {{{top}}}")
        for j in range(i + 1, n):
            e(f"mulx {{hi}}, {{lo}}, {a(j)}")
            e(f"adox {{{win[i + j]}}}, {{lo}}")
            e(f"adcx {{{win[i + j + 1]}}}, {{hi}}")
        e("mov {lo}, 0")
        e(f"adox {{{top}}}, {{lo}}")
    for pos in sorted(win):
        e(f"mov {w(pos)}, {{{win[pos]}}}")
        release(win.pop(pos))
    # 2. double (CF chain) and add the squares a_i^2 (OF chain); the low n words
    # stay in registers, the high n go back to the scratch
    low = []
    e("xor {hi}, {hi}")
    for i in range(n):
        e(f"mov rdx, {a(i)}")
        if i == 0:
            r0 = alloc()
            e(f"mulx {{hi}}, {{{r0}}}, rdx")
            r1 = alloc()
            e(f"mov {{{r1}}}, {w(1)}")
            e(f"adcx {{{r1}}}, {{{r1}}}")
            e(f"adox {{{r1}}}, {{hi}}")
            low += [r0, r1]
            continue
        e("mulx {hi}, {lo}, rdx")
        x, y = alloc(), alloc()
        e(f"mov {{{x}}}, {w(2 * i)}")
        if 2 * i + 1 < 2 * n - 1:
            e(f"mov {{{y}}}, {w(2 * i + 1)}")
        else:
            e(f"mov {{{y}}}, 0")  # the top word of the off-diagonal sum is 0
        e(f"adcx {{{x}}}, {{{x}}}")
        e(f"adcx {{{y}}}, {{{y}}}")
        e(f"adox {{{x}}}, {{lo}}")
        e(f"adox {{{y}}}, {{hi}}")
        for pos, r in ((2 * i, x), (2 * i + 1, y)):
            if pos < n:
                low.append(r)
            else:
                e(f"mov {w(pos)}, {{{r}}}")
                release(r)
    # 3. Montgomery reduction of the low half: n rows of t += m q, drop t0
    t = low
    for _ in range(n):
        top = alloc()
        e(f"mov rdx, {{{t[0]}}}")
        e("imul rdx, qword ptr [{pq} + 48]")
        e(f"xor {{{top}}}, {{{top}}}")
        e("mulx {hi}, {lo}, qword ptr [{pq}]")
        e(f"adcx {{lo}}, {{{t[0]}}}")
        e(f"adox {{{t[1]}}}, {{hi}}")
        for j in range(1, n):
            hi_dst = t[j + 1] if j + 1 < n else top
            e(f"mulx {{hi}}, {{lo}}, qword ptr [{{pq}} + {8 * j}]")
            e(f"adcx {{{t[j]}}}, {{lo}}")
            e(f"adox {{{hi_dst}}}, {{hi}}")
        e("mov {lo}, 0")
        e(f"adcx {{{top}}}, {{lo}}")
        release(t[0])
        t = t[1:] + [top]
    # 4. + high half (< q; U <= q, so the sum is < 2q and fits)
    for j in range(n):
        e(f"{'add' if j == 0 else 'adc'} {{{t[j]}}}, {w(n + j)}")
    # 5. subtract q once unless that borrows
    spare = ["rdx", "{lo}", "{hi}", "{ps}"] + [f"{{{alloc()}}}" for _ in range(n - 4)]
    for j in range(n):
        e(f"mov {spare[j]}, {{{t[j]}}}")
    for j in range(n):
        e(f"{'sub' if j == 0 else 'sbb'} {{{t[j]}}}, qword ptr [{{pq}} + {8 * j}]")
    for j in range(n):
        e(f"cmovc {{{t[j]}}}, {spare[j]}")
    return lines, t


def asm_block(source, fn):
    """The asm! template lines of `fn` in source, and the operands (register
    names of the template) it returns, in order."""
    start = source.index(f"unsafe fn {fn}(")
    body = source[start:]
    block = body[body.index("asm!(") + len("asm!("):]
    lines, operand_of = [], {}
    for line in block.splitlines()[1:]:
        line = line.strip()
        if line.startswith('"'):
            lines.append(line.rstrip(",")[1:-1])
            continue
        m = re.match(r"(\w+) = (?:in)?out\(reg\) (\w+)", line)
        if m:
            operand_of[m.group(2)] = m.group(1)
        if line.startswith(");"):
            break
    ret = body[body.index("}\n    [", 0) + len("}\n    ["):]
    ret = ret[:ret.index("]")]
    return lines, [operand_of.get(r.strip(), r.strip()) for r in ret.split(",")]


def check(path):
    source = open(path).read()
    for fn, (lines, out) in [("mul6", gen(6)), ("sqr6", gen_sqr(6)), ("mul4", gen(4))]:
        have, have_out = asm_block(source, fn)
        if have != lines:
            for i, (a, b) in enumerate(zip(have, lines)):
                if a != b:
                    sys.exit(f"{path}: {fn}: template line {i + 1} is {a!r}, the generator makes {b!r}")
            sys.exit(f"{path}: {fn}: {len(have)} template lines, the generator makes {len(lines)}")
        if have_out != out:
            sys.exit(f"{path}: {fn}: returns registers {have_out}, the generator's result is in {out}")
        print(f"{path}: {fn}: {len(lines)} template lines and the result order agree with the generator")


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2])
        sys.exit(0)
    if sys.argv[1] == "sqr":
        lines, out = gen_sqr(int(sys.argv[2]))
    else:
        lines, out = gen(int(sys.argv[1]))
    for l in lines:
        print(f'            "{l}",')
    print("// result registers:", " ".join(out))
