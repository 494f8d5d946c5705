#!/usr/bin/env python3
"""Import cycles between the modules of each crate, and edges against the
layers of the crates that declare them (LAYERS).

Usage: python3 scripts/module_cycles.py [-v] [CRATE_SRC_DIR ...]  (-v: the references that close each cycle)
       (default: every crates/*/src and python/src)

A module (one .rs file) depends on another when it names it by path:
`use crate::a::b`, `crate::a::b::f()`, `super::x`, `self::x` (a `pub use`
re-export counts: it is a dependency too). Dependencies of a module on its
own ancestors (`super::Item` from a child, the parent's `mod` and re-exports
of its children) are left out: a parent and its children are one unit by
construction. So are unit tests (`#[cfg(test)] mod ... { }`), which may
name the concrete types above the code they test. What remains must be acyclic; every strongly connected set of
two or more modules is printed.

Layers: a crate in LAYERS has its modules in layers, top to bottom, and no
module may name one of a layer above its own; each such edge is printed
with the path that makes it. Here edges to ancestors count: a module that
names `crate::Plan` depends on the crate root (whose re-export it goes
through) as well as on `pipeline::plan`, so a lower module names what it
uses by the path of the module that owns it. Every module of such a crate
needs a layer, so a new one is placed on purpose.

The exit status is 1 if there is a cycle or an edge up a layer.
"""

import re
import sys
from pathlib import Path

USE_RE = re.compile(r"\buse\s+((?:crate|super|self)(?:::[^;]*)?);", re.S)
PUB_USE_RE = re.compile(r"\bpub(?:\([a-z]+\))?\s+use\s+([A-Za-z_][^;]*);", re.S)
PATH_RE = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def module_files(src):
    """{module path tuple: file} for one crate's src directory."""
    mods = {}
    for f in src.rglob("*.rs"):
        rel = f.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] in ("mod", "lib", "main"):
            parts = parts[:-1]
        if parts and parts[0] == "bin":
            continue  # binaries are crates of their own
        mods[tuple(parts)] = f
    return mods


def expand_use(tree):
    """Every path named by one `use` tree: a::{b, c::{d, e}} -> a::b, a::c::d, ..."""
    tree = re.sub(r"\s+", "", tree)
    depth, start = 0, None
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                prefix, inner, rest = tree[:start], tree[start + 1 : i], tree[i + 1 :]
                out, parts, d, s = [], [], 0, 0
                for j, c in enumerate(inner):
                    if c == "{":
                        d += 1
                    elif c == "}":
                        d -= 1
                    elif c == "," and d == 0:
                        parts.append(inner[s:j])
                        s = j + 1
                parts.append(inner[s:])
                for p in parts:
                    if p:
                        out.extend(expand_use(prefix + p + rest))
                return out
    return [tree]


def resolve(path, here, mods, reexports, depth=0, via=None):
    """The module a path names, from module `here`, or None (external). A
    name that a module re-exports (`pub use`) is followed to where it lives,
    so `crate::Plan` is the module that defines `Plan`; the modules whose
    re-exports were followed are appended to `via`."""
    path = re.sub(r"as[A-Za-z_][A-Za-z0-9_]*$", "", path) if "::" in path and re.search(r"[A-Za-z0-9_]as[A-Za-z_]", path.split("::")[-1]) else path
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = here
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                base = base[:-1]
            segs = segs[1:]
    else:
        return None
    best, cur, used = base, base, 0
    for s in segs:
        cur = cur + (s,)
        if cur in mods:
            best, used = cur, used + 1
        else:
            break
    rest = segs[used:]
    if rest and depth < 8 and rest[0] in reexports.get(best, {}):
        target = resolve(reexports[best][rest[0]], best, mods, reexports, depth + 1, via)
        if target is not None:
            if via is not None:
                via.append(best)
            return target
    return best


TEST_MOD_RE = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+\w+\s*\{")


def strip_tests(text):
    """The text without its `#[cfg(test)] mod name { ... }` blocks: unit
    tests may name the concrete types above the code they test."""
    while True:
        m = TEST_MOD_RE.search(text)
        if not m:
            return text
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]


def reexports_of(mods, texts):
    """{module: {name: path}} of every `pub use` (a glob is left out)."""
    out = {}
    for m in mods:
        for u in PUB_USE_RE.findall(texts[m]):
            for p in expand_use(u):
                first = p.split("::")[0]
                if first not in ("crate", "super", "self"):
                    if m + (first,) not in mods:
                        continue  # another crate's item
                    p = "self::" + p
                last = p.split("::")[-1]
                alias = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)as([A-Za-z_][A-Za-z0-9_]*)$", last)
                name = alias.group(2) if alias else last
                if name not in ("*", "self"):
                    out.setdefault(m, {})[name] = p
    return out


WHY = {}


def is_ancestor(a, m):
    """Whether module `a` is a (strict) ancestor of module `m`."""
    return len(a) < len(m) and m[: len(a)] == a


def edges_of(src):
    """The modules of one crate, the edges the cycle check follows, and
    the edges the layer check follows (those and the edges to ancestors)."""
    mods = module_files(src)
    texts = {m: strip_tests(COMMENT_RE.sub("", f.read_text())) for m, f in mods.items()}
    reexports = reexports_of(mods, texts)
    edges = {m: set() for m in mods}
    layer_edges = {m: set() for m in mods}
    for m in mods:
        text = texts[m]
        paths = []
        for u in USE_RE.findall(text):
            paths.extend(expand_use(u))
        paths.extend(PATH_RE.findall(text))
        for p in paths:
            via = []
            t = resolve(p, m, mods, reexports, via=via)
            if t is None:
                continue
            for a in [t] + [v for v in via if is_ancestor(v, m)]:
                if a != m:
                    layer_edges[m].add(a)
                    WHY.setdefault((m, a), p)
            if t == m:
                continue
            # a module and its ancestors (or descendants) are one unit
            if t == m[: len(t)] or m == t[: len(m)]:
                continue
            edges[m].add(t)
    return mods, edges, layer_edges


def sccs(nodes, edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


# The layers of a crate, top to bottom: (name, module paths). A module is in
# the layer of the longest path that is it or one of its ancestors; "" is the
# crate root (lib.rs) alone, so a new top-level module needs a place here.
# docs/ARCHITECTURE.md, "Dependencies point one way".
LAYERS = {
    "crates/msm/src": [
        # the API: what sets points up and builds contexts and engines
        ("api", ["", "builder", "context", "engine", "encoded", "registry", "out_of_core", "ark", "groth16", "gen", "reference",
                 "prepared", "prepared::open", "prepared::write",
                 # out of core: chunk sizes, the read-ahead, prepared files streamed and written
                 "out_of_core::budget", "out_of_core::reader", "out_of_core::prepared", "out_of_core::prepare"]),
        # init's input side (bytes to validated points and scalars) and the
        # prepared files' records
        ("input", ["input", "prepared::format", "prepared::persist"]),
        # bucket accumulation behind the Backend seam
        ("backend", ["backend"]),
        # the phases around accumulation and the conflict schedulers
        ("phases", ["pipeline", "scheduler"]),
        # what every layer names: errors, timing, the records' store, the bucket seam
        ("leaf", ["error", "timing", "store", "bucket", "input::record", "prepared::refusal"]),
    ],
}


def layer_check(src, root, mods, layer_edges):
    """The edges of one crate that go up its layers, and its table's
    faults (a module with no layer, a path that names no module)."""
    table = LAYERS.get(str(src.relative_to(root)) if src.is_relative_to(root) else "")
    if table is None:
        return []
    rank = {}
    for i, (_, paths) in enumerate(table):
        for p in paths:
            rank[tuple(s for s in p.split("::") if s)] = i
    faults = []
    for path in sorted(rank):
        if path not in mods:
            faults.append(f"layers: {src.relative_to(root)}: {'::'.join(path) or 'crate'} names no module")

    def layer(m):
        for k in range(len(m), 0, -1):
            if m[:k] in rank:
                return rank[m[:k]]
        return rank.get(m)  # the root's layer is the root's alone

    name = lambda m: "::".join(m) or "crate"
    for m in sorted(mods):
        lm = layer(m)
        if lm is None:
            faults.append(f"layers: {mods[m].relative_to(root)}: {name(m)} has no layer in LAYERS")
            continue
        for t in sorted(layer_edges[m]):
            lt = layer(t)
            if lt is not None and lt < lm:
                faults.append(
                    f"layers: {mods[m].relative_to(root)} ({table[lm][0]}) names {name(t)} ({table[lt][0]}), "
                    f"a layer above: {WHY[(m, t)]}"
                )
    return faults


VERBOSE = False


def main(argv):
    global VERBOSE
    if argv[:1] == ["-v"]:
        VERBOSE, argv = True, argv[1:]
    root = Path(__file__).resolve().parent.parent
    dirs = [Path(a).resolve() for a in argv] or sorted(root.glob("crates/*/src")) + [root / "python/src"]
    found = layered = 0
    for src in dirs:
        if not src.is_dir():
            if argv:
                print(f"module_cycles: {src}: not a directory", file=sys.stderr)
                return 2
            continue  # python/src where the tree has none
        mods, edges, layer_edges = edges_of(src)
        faults = layer_check(src, root, mods, layer_edges)
        for f in faults:
            print(f)
        found += len(faults)
        layered += str(src.relative_to(root)) in LAYERS if src.is_relative_to(root) else 0
        for comp in sccs(sorted(mods), edges):
            found += 1
            names = sorted(str(mods[m].relative_to(root)) for m in comp)
            print("cycle: " + " <-> ".join(names))
            if VERBOSE:
                for a in comp:
                    for b in sorted(edges[a]):
                        if b in comp:
                            print(f"  {'::'.join(a) or 'crate'} -> {'::'.join(b) or 'crate'}: {WHY[(a, b)]}")
    if found:
        print(f"{found} import cycle(s) or edges up a layer")
        return 1
    print(f"no import cycles ({len(dirs)} crates), no edges up a layer ({layered} layered)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
