#!/usr/bin/env python3
"""storage_faults.py -- porrazo-bot (--console) when its database fails it:

* a new database file (and its -wal/-shm) is readable by its owner only;
  an existing one that others may read (0644: an older bot's, ': > x.db')
  is made 0600 at start, with a warning in the log;
* a second bot on the same database is refused at start with a clear
  message, and the first goes on;
* another process holding the write lock: the player's command gets a
  short reply at once ("I can't save right now ... not taken"), not after a
  5-second freeze, the operator gets a log line, and once the lock is gone
  the same command works;
* a full database (the size cap max_database_mb, i.e. PRAGMA
  max_page_count, filled to the brim by another connection): the same
  reply to a command that must be written, an answer as usual to one that
  only reads, nothing of the game lost, and the bot goes on by itself once
  there is room again;
* the -wal and -shm deleted under the running bot (a cleaner, a careless
  rm): the next write copies what the bot held into the database and starts
  a fresh -wal, with one error line in the log, so the moves made after the
  deletion survive a SIGKILL and are in --export; the same for the -shm
  alone; the database file itself moved away is told too, and once it is
  back nothing was lost.

usage: storage_faults.py BOT
"""
import json
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_game as cg  # noqa: E402

SEED = 11
CANT_SAVE = "I can't save right now"


def check(cond, what):
    if not cond:
        raise AssertionError(what)


class ConfBot(cg.Bot):
    """A console bot with a configuration file (the size cap)."""

    def __init__(self, exe, db, seed, conf=None):
        if conf is None:
            super().__init__(exe, db, seed)
            return
        self.proc = subprocess.Popen(
            [exe, "--console", "--config", conf, "--db", db, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""


def export(bot, db):
    return subprocess.run([bot, "--export", "1", "--db", db], check=True,
                          capture_output=True, text=True, timeout=30).stdout


def file_mode(bot, tmp):
    db = os.path.join(tmp, "mode.db")
    old = os.umask(0o022)
    try:
        b = cg.Bot(bot, db, SEED)
        b.send("ann: !new 2")
        modes = {}
        for side in ("", "-wal", "-shm"):
            if os.path.exists(db + side):
                modes[side or "db"] = stat.S_IMODE(os.stat(db + side).st_mode)
        b.close()
    finally:
        os.umask(old)
    check(modes.get("db") == 0o600, "the database is %o, not 600" % modes.get("db", 0))
    for side, mode in modes.items():
        check(mode == 0o600, "%s is %o, not 600" % (side, mode))
    print("ok: new database files are 0600 (%s)" % ", ".join(sorted(modes)))


def modes(path):
    """The modes of path and of its -wal and -shm that exist."""
    return {side or "db": stat.S_IMODE(os.stat(path + side).st_mode)
            for side in ("", "-wal", "-shm") if os.path.exists(path + side)}


def old_file_mode(bot, tmp):
    old = os.umask(0o022)
    try:
        empty = os.path.join(tmp, "empty.db")
        open(empty, "w").close()  # ': > x.db': 0644
        b = cg.Bot(bot, empty, SEED)
        b.send("ann: !new 2")
        running = modes(empty)
        rc, _, err = b.close()
        check(rc == 0, "the bot exited %d" % rc)
        check(running == {"db": 0o600, "-wal": 0o600, "-shm": 0o600},
              "an existing 0644 file stays readable: %s"
              % {k: "%o" % v for k, v in running.items()})
        said = [l for l in err.splitlines() if "made 0600" in l]
        check(len(said) == 1 and " warn: " in said[0] and "the file 0644" in said[0],
              "the log does not say the mode was changed: %r" % err)
        print("ok: an existing 0644 file is made 0600: %s" % said[0].split(": ", 1)[1])
        # An older bot's database, 0644, left with its -wal and -shm by a crash.
        db = os.path.join(tmp, "older.db")
        b = cg.Bot(bot, db, SEED)
        b.send("ann: !new 2")
        killed(b)
        for side in ("", "-wal", "-shm"):
            os.chmod(db + side, 0o644)
        b = cg.Bot(bot, db, SEED)
        b.send("bob: !join")
        running = modes(db)
        rc, _, err = b.close()
        check(running == {"db": 0o600, "-wal": 0o600, "-shm": 0o600},
              "after a crash: %s" % {k: "%o" % v for k, v in running.items()})
        check(any("made 0600" in l and "its wal 0644" in l and "its shm 0644" in l
                  for l in err.splitlines()), "the -wal and -shm are not named: %r" % err)
        print("ok: a crashed 0644 database with its -wal and -shm is made 0600 too")
    finally:
        os.umask(old)


def second_instance_and_lock(bot, tmp):
    db = os.path.join(tmp, "lock.db")
    a = cg.Bot(bot, db, SEED)
    out = a.send("ann: !new 2")
    check(any("opens a Porrazo table" in l for l in out), "no table opened: %r" % out)
    t = time.monotonic()
    second = subprocess.run([bot, "--console", "--db", db], input="", capture_output=True,
                            text=True, timeout=20)
    check(second.returncode != 0, "a second bot on the same database ran")
    check("in use by another porrazo-bot process" in second.stderr,
          "unclear refusal: %r" % second.stderr)
    check(second.stdout == "", "the second bot wrote: %r" % second.stdout)
    print("ok: a second bot is refused in %.2f s: %s" % (time.monotonic() - t,
                                                         second.stderr.strip()))

    other = sqlite3.connect(db, isolation_level=None, timeout=10)
    other.execute("BEGIN IMMEDIATE")
    t = time.monotonic()
    out = a.send("bob: !join")
    took = time.monotonic() - t
    check(any(CANT_SAVE in l and "not taken" in l and l.startswith("#console") for l in out),
          "no reply while locked: %r" % out)
    check(took < 2.0, "the bot froze %.1f s on the lock" % took)
    check(not any(l.startswith("-> ann:") for l in out), "a hand was dealt while locked")
    print("ok: locked: answered in %.2f s: %s" % (took, [l for l in out if CANT_SAVE in l][0]))
    other.execute("ROLLBACK")
    other.close()
    out = a.send("bob: !join")
    # the table fills and is dealt: ann's hand (bob, the dealer, chooses the
    # tendido first, as the channel line says)
    check(any(l.startswith("-> ann: Your hand") for l in out),
          "the join after the lock did nothing: %r" % out)
    rc, _, err = a.close()
    check(rc == 0, "the bot exited %d" % rc)
    check("lock" in err, "no log line for the operator: %r" % err)
    print("ok: after the lock the same command worked; the log says: %s"
          % [l for l in err.splitlines() if "lock" in l][0].strip())
    return db


def fill(db, max_pages):
    """Fills db to max_pages pages with small rows of another connection."""
    c = sqlite3.connect(db, isolation_level=None, timeout=10)
    c.execute("PRAGMA max_page_count = %d" % max_pages)
    c.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")
    rows = 0
    try:
        for size in (4000, 1000, 200, 40):
            while True:
                c.execute("INSERT INTO filler VALUES (zeroblob(?))", (size,))
                rows += 1
    except sqlite3.OperationalError as e:
        check("full" in str(e), "filling failed: %s" % e)
    # The free bytes left inside the outbox's own pages too (rows of a
    # network no adapter serves: they stay), so the bot's next message
    # needs a page that is not there.
    for text in ("x" * 200, "x" * 20, "x"):
        try:
            while True:
                c.execute("INSERT INTO outbox (network, target, kind, priority, text, created)"
                          " VALUES ('nowhere', 't', 0, 0, ?, 0)", (text,))
                rows += 1
        except sqlite3.OperationalError:
            pass
    try:
        while True:
            c.execute("INSERT INTO filler VALUES (zeroblob(8))")
            rows += 1
    except sqlite3.OperationalError:
        pass
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    c.close()
    return rows


def fill_mib(db, mib):
    """Fills db to mib MiB (a bot's max_database_mb) in pages of its size."""
    with sqlite3.connect(db) as c:
        page = c.execute("PRAGMA page_size").fetchone()[0]
    c.close()
    return fill(db, (mib << 20) // page)


def disk_full(bot, tmp, db):
    before = export(bot, db)
    conf = os.path.join(tmp, "full.conf")
    with open(conf, "w") as f:
        f.write("[bot]\nname = porrazo\nmax_database_mb = 1\nreminder = off\n")
    rows = fill_mib(db, 1)
    a = ConfBot(bot, db, SEED, conf)
    refused = a.send("ann: !pause")  # a vote: it must be written
    check(any(CANT_SAVE in l and "not taken" in l for l in refused),
          "a full database did not refuse a vote: %r" % refused)
    print("ok: full: %s" % [l for l in refused if CANT_SAVE in l][0])
    out = a.send("bob: !table")  # reading needs no room: answered anyway
    check(any(l.startswith("#console <porrazo> bob: ") for l in out)
          and not any(CANT_SAVE in l for l in out), "no answer to !table when full: %r" % out)
    print("ok: full: a command that only reads is still answered: %s" % out[0])
    check(export(bot, db) == before, "the game changed while the database was full")
    c = sqlite3.connect(db, isolation_level=None, timeout=10)
    c.execute("DROP TABLE filler")
    c.close()
    out = a.send("ann: !pause")
    check(any("votes to pause" in l for l in out) and not any(CANT_SAVE in l for l in out),
          "no recovery once there was room: %r" % out)
    rc, _, err = a.close()
    check(rc == 0, "the bot exited %d after a full disk" % rc)
    check("full" in err, "no log line for the full database: %r" % err)
    check(export(bot, db) == before, "the game was changed by the faults")
    print("ok: %d filler rows; recovered by itself once there was room; game intact" % rows)


def moves(b, table, n, step):
    """The next n moves of the game (lines of its players); the next step."""
    for _ in range(n):
        line = table.next_line(step)
        check(line is not None, "nobody to act: %r" % table.transcript[-4:])
        table.need_capture = False
        table.read(b.send(line))
        step += 1
    return step


def killed(b):
    """SIGKILLs the console bot; its log (standard error)."""
    b.proc.kill()
    b.proc.wait()
    err = b.proc.stderr.read().decode("utf-8", "replace")
    for f in (b.proc.stdin, b.proc.stdout, b.proc.stderr):
        f.close()
    return err


def wal_deleted(bot, tmp):
    # The same game without any fault, for the export to equal.
    ref_db = os.path.join(tmp, "wal-ref.db")
    b = cg.Bot(bot, ref_db, SEED)
    table = cg.Table(["ann", "bob"])
    cg.open_table(b, table, 2, "")
    moves(b, table, 12, 0)
    b.close()
    reference = export(bot, ref_db)

    db = os.path.join(tmp, "wal.db")
    b = cg.Bot(bot, db, SEED)
    table = cg.Table(["ann", "bob"])
    cg.open_table(b, table, 2, "")
    step = moves(b, table, 3, 0)
    os.unlink(db + "-wal")
    os.unlink(db + "-shm")
    step = moves(b, table, 5, step)
    check(os.path.exists(db + "-wal") and os.path.exists(db + "-shm"),
          "no new -wal and -shm after the old ones were deleted")
    # The -shm alone, then the database file moved away and back.
    os.unlink(db + "-shm")
    step = moves(b, table, 2, step)
    os.rename(db, db + ".moved")
    step = moves(b, table, 1, step)
    os.rename(db + ".moved", db)
    step = moves(b, table, 1, step)
    err = killed(b)
    lost = [l for l in err.splitlines() if "was deleted or replaced" in l]
    check(len(lost) == 2, "not one log line per deletion: %r" % lost)
    check(" error: " in lost[0] and "wal.db-wal (and its -shm) was deleted" in lost[0]
          and "nothing was lost" in lost[0], "unclear log line: %r" % lost[0])
    check("wal.db-shm was deleted" in lost[1], "the -shm's deletion: %r" % lost[1])
    moved = [l for l in err.splitlines() if "was deleted or moved" in l]
    check(len(moved) == 1 and " error: " in moved[0], "the move of the file: %r" % moved)
    got = export(bot, db)
    check(json.loads(got)["actions"] == json.loads(reference)["actions"],
          "moves were lost after the -wal was deleted: %d actions, %d made"
          % (len(json.loads(got)["actions"]), len(json.loads(reference)["actions"])))
    print("ok: -wal and -shm deleted under the bot, SIGKILL: all %d actions in the export; "
          "the log says: %s" % (len(json.loads(got)["actions"]), lost[0].split(": ", 1)[1]))
    print("ok: the -shm alone, and the file moved away and back, told: %s"
          % moved[0].split(": ", 1)[1])


def main():
    bot = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        wal_deleted(bot, tmp)
        file_mode(bot, tmp)
        old_file_mode(bot, tmp)
        db = second_instance_and_lock(bot, tmp)
        disk_full(bot, tmp, db)
    print("storage faults: all ok")


if __name__ == "__main__":
    main()
