#!/usr/bin/env python3
"""fairness_example.py -- FAIRNESS.md's worked example is true: its message,
commitment and shown digits follow from its seed and salt by hashlib, its
pack is the reference shuffle's (tests/shuffle), and a one-hand record made
of those lines verifies with `porrazo-replay --verify` and with
verify_record.py, while the same record with the next seed fails both.

usage: fairness_example.py FAIRNESS.md PORRAZO-REPLAY
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import verify_record as vr  # noqa: E402


def example(path):
    """The fields of the page's worked example block."""
    text = open(path, encoding="utf-8").read()
    block = text.split("## Worked example", 1)[1].split("```")[1]
    fields, last = {}, None
    for line in block.strip().splitlines():
        m = re.match(r"(\w+):\s+(.*)$", line)
        if m:
            last = m.group(1)
            fields[last] = m.group(2).strip()
        else:  # a continued value (the pack)
            fields[last] += " " + line.strip()
    return fields


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def run_both(replay, record):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(record, f)
    try:
        c = subprocess.run([replay, "--verify", f.name], capture_output=True, text=True)
        p = subprocess.run([sys.executable, os.path.join(HERE, "verify_record.py"), f.name],
                           capture_output=True, text=True)
        return c, p
    finally:
        os.unlink(f.name)


def main(page, replay):
    ex = example(page)
    seed, salt = int(ex["seed"]), ex["salt"]
    check(ex["message"] == "porrazo-commit-v1:%d:%s" % (seed, salt), "the message is not the formula's")
    check(ex["commit"] == vr.commitment(seed, salt), "the commitment is not SHA-256 of the message")
    check(ex["shown"] == ex["commit"][:12], "the shown digits are not the commitment's first 12")
    check(ex["pack"].split() == vr.pack_of(seed), "the pack is not the seed's shuffle")
    record = {"players": 2, "dealer": 0, "deck": ex["pack"].split(), "actions": [],
              "fairness": {"version": 1, "revealed": True, "salt": salt,
                           "hands": [{"hand": 1, "commit": ex["commit"], "seed": seed}]}}
    c, p = run_both(replay, record)
    check(c.returncode == 0 and "verified: 1 hands" in c.stdout,
          "porrazo-replay --verify refuses the example: %s%s" % (c.stdout, c.stderr))
    check(p.returncode == 0, "verify_record.py refuses the example: %s" % p.stdout)
    record["fairness"]["hands"][0]["seed"] = seed + 1
    c, p = run_both(replay, record)
    check(c.returncode == 1 and "hand 1: its commitment" in c.stderr,
          "porrazo-replay --verify takes the next seed: %s%s" % (c.stdout, c.stderr))
    check(p.returncode == 1 and "hand 1" in p.stdout, "verify_record.py takes the next seed")
    print("FAIRNESS.md's example: %s -> %s, pack %s..., verified by both; seed %d refused by both"
          % (ex["message"], ex["shown"], " ".join(ex["pack"].split()[:4]), seed + 1))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1], sys.argv[2])
    except AssertionError as e:
        print("FAIL: %s" % e)
        sys.exit(1)
