#!/usr/bin/env python3
"""bad_database.py -- porrazo-bot given a bad database: random bytes, a real
database truncated to half, one with a page overwritten, one from a newer
schema, another program's database. Each must give a clear message on
stderr, no output, a non-zero exit, and leave the file byte-for-byte as it
was, with no -wal/-shm/-journal files created.

usage: bad_database.py BOT
"""
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def real_database(bot, path):
    """A database with a game in it, made by the bot itself."""
    script = "ann: !new 2\nbob: !join\n"
    subprocess.run([bot, "--console", "--db", path, "--seed", "3"], input=script,
                   capture_output=True, text=True, check=True, timeout=30)
    for side in ("-wal", "-shm"):
        if os.path.exists(path + side):
            raise AssertionError("the bot left %s behind after a clean exit" % side)


def cases(bot, tmp):
    good = os.path.join(tmp, "good.db")
    real_database(bot, good)
    data = open(good, "rb").read()

    def make(name, content):
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(content)
        return path

    yield "random bytes", make("random.db", os.urandom(8192)), ("damaged", "not a porrazo")
    yield "truncated", make("truncated.db", data[: len(data) // 2]), ("damaged",)
    page = bytearray(data)
    size = int.from_bytes(data[16:18], "big")  # the page size, in the file's header
    page[size: size + 64] = b"\x5a" * 64  # the b-tree page header of page 2
    yield "overwritten page", make("page.db", bytes(page)), ("damaged",)
    newer = make("newer.db", data)
    with sqlite3.connect(newer) as c:
        c.execute("PRAGMA user_version = 1000")
    c.close()
    yield "newer schema", newer, ("newer",)
    other = os.path.join(tmp, "other.db")
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE recipes (name TEXT)")
    c.close()
    yield "another program's", other, ("porrazo",)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bot, failures = sys.argv[1], 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, path, words in cases(bot, tmp):
            before = digest(path)
            r = subprocess.run([bot, "--console", "--db", path], input="ann: !new\n",
                               capture_output=True, text=True, timeout=30)
            problems = []
            if r.returncode == 0:
                problems.append("exit 0")
            if r.stdout:
                problems.append("printed %r" % r.stdout[:80])
            if path not in r.stderr or not any(w in r.stderr for w in words):
                problems.append("unclear message %r" % r.stderr.strip())
            if digest(path) != before:
                problems.append("the file changed")
            left = [s for s in ("-wal", "-shm", "-journal") if os.path.exists(path + s)]
            if left:
                problems.append("left %s behind" % ", ".join(left))
            status = "FAIL: " + "; ".join(problems) if problems else "ok"
            print("%-18s %s -- %s" % (what, status, r.stderr.strip()))
            failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
