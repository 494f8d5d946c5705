#!/usr/bin/env python3
"""Check the docs' relative links and the repository paths they name.

    python3 scripts/check_doc_paths.py [FILE.md ...]   (default: README.md, docs/, the crates', python/ and fuzz/ READMEs)

A link [text](target) must resolve from the document's folder. A path
starting with crates/, rtl/, bench/, scripts/, python/, fuzz/ or docs/ must
exist from the repository root or from the document's folder, or be ignored
by git (a cache or build output such as bench/peers/data/). Placeholders
(<m>, {h,cpp}, *) are skipped. Exit status 1 when anything is missing.
"""
import glob, os, re, subprocess, sys

ROOT = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
TOP = ("crates/", "rtl/", "bench/", "scripts/", "python/", "fuzz/", "docs/")
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")
PATH = re.compile(r"(?<![\w./$<-])((?:%s)[\w./-]*[\w/])" % "|".join(re.escape(t) for t in TOP))


def ignored(path):
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


def check(doc):
    bad = 0
    here = os.path.dirname(os.path.abspath(doc))
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            if not os.path.exists(os.path.join(here, target)):
                print(f"{doc}:{n}: link {target} does not resolve")
                bad += 1
        for m in PATH.finditer(line):
            path = m.group(1).rstrip(".,")
            end = m.end(1)
            if end < len(line) and line[end] in "<{*":
                continue
            if any(os.path.exists(os.path.join(base, path)) for base in (ROOT, here)) or ignored(path):
                continue
            print(f"{doc}:{n}: path {path} does not exist")
            bad += 1
    return bad


def main():
    docs = sys.argv[1:] or sorted(
        [os.path.join(ROOT, "README.md")]
        + glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
        + glob.glob(os.path.join(ROOT, "crates", "*", "README.md"))
        + [os.path.join(ROOT, "python", "README.md"), os.path.join(ROOT, "fuzz", "README.md")]
    )
    bad = sum(check(d) for d in docs)
    print(f"{len(docs)} documents, {bad} missing", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
