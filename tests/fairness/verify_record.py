#!/usr/bin/env python3
"""verify_record.py -- a verifier of a game's record of fair deals written
from FAIRNESS.md alone, with Python's standard library (hashlib) and the
reference shuffle of tests/shuffle (itself written from porrazo.h's prose),
so the bot's own code checks nothing here. Steps 1-3 of FAIRNESS.md's
"Checking a record" (the moves are porrazo-replay's to replay).

usage: verify_record.py RECORD.json
exit 0 verified, 1 a difference (said on stdout), 2 not a record
"""
import hashlib
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "shuffle"))
import shuffle_reference  # noqa: E402


def commitment(seed, salt):
    return hashlib.sha256(("porrazo-commit-v1:%d:%s" % (seed, salt)).encode("ascii")).hexdigest()


def pack_of(seed):
    return shuffle_reference.shuffle(seed).split()


def verify(record):
    """None when the record checks out, else what differs first."""
    fair = record["fairness"]
    if fair["version"] != 1:
        return "fairness.version is %r, not 1" % fair["version"]
    if fair["revealed"] is not True:
        return "the game is under way: nothing is revealed"
    salt = fair["salt"]
    if not re.fullmatch(r"[0-9a-f]+", salt):
        return "the salt %r is not lowercase hex" % salt
    packs = [record.get("deck")]
    packs += [a.get("deck") for a in record["actions"] if "next_hand" in a]
    if len(packs) != len(fair["hands"]):
        return "%d hands committed, %d dealt" % (len(fair["hands"]), len(packs))
    for k, (entry, pack) in enumerate(zip(fair["hands"], packs), start=1):
        if entry["hand"] != k:
            return "entry %d is hand %r" % (k, entry["hand"])
        seed = entry["seed"]
        if not 0 <= seed < 2**64:
            return "hand %d: seed %d is out of range" % (k, seed)
        want = commitment(seed, salt)
        if entry["commit"] != want:
            return "hand %d: commitment %s, but SHA-256 gives %s" % (k, entry["commit"], want)
        if pack is None:
            return "hand %d: no pack" % k
        dealt = pack_of(seed)
        for i, (got, card) in enumerate(zip(pack, dealt), start=1):
            if got.upper() != card:
                return "hand %d: card %d is %s, the seed deals %s" % (k, i, got, card)
        if len(pack) != len(dealt):
            return "hand %d: the pack has %d cards" % (k, len(pack))
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            record = json.load(f)
        why = verify(record)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("not a record: %s" % e)
        return 2
    if why:
        print("not verified: %s" % why)
        return 1
    print("verified: %d hands" % len(record["fairness"]["hands"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
