#!/usr/bin/env python3
"""Commit messages: a subject of at most 72 characters, then, when there is
a body, a blank line before it (so `git log --oneline` reads as a history).

    python3 scripts/check_commits.py                 the commits after BASE
    python3 scripts/check_commits.py --base REV      the commits after REV
    python3 scripts/check_commits.py --last N        the last N commits
    python3 scripts/check_commits.py --message-file F  one message (the
                                                     commit-msg hook)

BASE is the last commit made before this check existed: the history up to
it is left as it was written, everything after it is checked. A shallow
clone without BASE checks HEAD alone, and says so; outside a git checkout
there is nothing to check. Exit 0 when every message checked passes, 1
with one line per fault.
"""

import argparse
import subprocess
import sys

BASE = "8d6f9f1f597f3961e44f2be3464db55f5b9ac128"
MAX_SUBJECT = 72


def faults(message):
    """What is wrong with one commit message (git's cleanup already done)."""
    lines = message.rstrip("\n").split("\n")
    subject = lines[0]
    found = []
    if not subject.strip():
        found.append("empty subject line")
    elif len(subject) > MAX_SUBJECT:
        found.append(f"subject is {len(subject)} characters (at most {MAX_SUBJECT}): the rest belongs in the body")
    if len(lines) > 1 and lines[1].strip():
        found.append("second line is not blank: a blank line goes between the subject and the body")
    return found


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def has_commit(rev):
    return subprocess.run(["git", "cat-file", "-e", f"{rev}^{{commit}}"], capture_output=True).returncode == 0


def commits(rev_range):
    out = git("log", "--format=%H%x00%B%x01", *rev_range)
    for rec in out.split("\x01"):
        rec = rec.lstrip("\n")
        if rec:
            sha, _, body = rec.partition("\x00")
            yield sha, body


def hook_message(path):
    """The message as git will store it: comment lines and the diff that
    `commit -v` appends dropped, trailing blank lines stripped."""
    kept = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("# ------------------------ >8 ------------------------"):
                break
            if not line.startswith("#"):
                kept.append(line.rstrip("\n"))
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept).rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--base", help=f"check the commits after this one (default {BASE[:12]})")
    g.add_argument("--last", type=int, metavar="N", help="check the last N commits")
    g.add_argument("--message-file", metavar="FILE", help="check one message file (commit-msg hook)")
    args = ap.parse_args()

    if args.message_file:
        found = faults(hook_message(args.message_file))
        for f in found:
            print(f"commit message: {f}", file=sys.stderr)
        return 1 if found else 0

    if subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        print("commit messages: not a git checkout, nothing to check")
        return 0
    if args.last is not None:
        rev_range = [f"-{args.last}", "HEAD"]
        what = f"the last {args.last} commits"
    else:
        base = args.base or BASE
        if has_commit(base):
            rev_range = [f"{base}..HEAD"]
            what = f"the commits after {base[:12]}"
        elif args.base is None and git("rev-parse", "--is-shallow-repository").strip() == "true":
            rev_range = ["-1", "HEAD"]
            what = f"HEAD only (shallow clone without {base[:12]})"
        else:
            print(f"error: base commit {base[:12]} is not in this repository's history", file=sys.stderr)
            return 1
    bad = 0
    checked = 0
    for sha, message in commits(rev_range):
        checked += 1
        for f in faults(message):
            bad += 1
            print(f"{sha[:12]} {message.splitlines()[0][:60]!r}: {f}", file=sys.stderr)
    print(f"commit messages: {checked} checked ({what}), {bad} faults")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
