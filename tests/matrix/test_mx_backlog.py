#!/usr/bin/env python3
"""test_mx_backlog.py -- a restart with a backlog for many rooms drains
completely, with nobody speaking, under the homeserver's rate limit.

60 players each make a room and invite the bot (porrazo-bot joins all 60),
then the bot is stopped and its outbox is filled while it is down: 4
messages for each of the 60 rooms, written first, then 3 private messages
for each of the 60 players, who have no direct room yet (the middle one a
hand, priority 1). The double's message limiter is on (Synapse's
algorithm, tighter than the bot's pace: 429 with Retry-After). The bot is
started again and nobody says anything. Once every direct room is made,
the test holds the database's write lock for a while: the bot goes on
sending from memory and cannot mark what it sent (it says so in its log and
tries again later). Later still, with about half the rest posted, it is
SIGKILLed and started again.

Checked: the outbox empties; each room holds its 4 messages once and in
order (the lines waiting for a room when the bot sends to it go in one
event), each player's direct room (one per player, in m.direct) its 3
messages once, the hand first; every outbox message was told in exactly
one event (sends repeated after the kill answered from the double's
transaction cache; none repeated while the marks could not be written);
the limiter refused sends; and what waited for a room went in one event
(two when the kill fell between them).

usage: test_mx_backlog.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import sqlite3
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from mxmodel import PERMISSIVE_RATE_LIMITS  # noqa: E402

ROOMS = 60
PER_ROOM = 4
PER_PLAYER = 3
HAND = 1  # the private message of priority 1, sent first to its player
PLAYERS = [("p%02d" % i, "P%02d" % i) for i in range(ROOMS)]
RATE = (10.0, 10)  # the message limiter: per second, burst
SLOW = (3.0, 1)    # after the lock: the kill comes with the backlog half posted


def wait(cond, what, timeout, bot=None):
    deadline = time.monotonic() + timeout
    while not cond():
        if bot is not None and not bot.alive():
            raise AssertionError("porrazo-bot died:\n" + bot.log()[-3000:])
        g.check(time.monotonic() < deadline, "timed out: %s" % what +
                ("\n" + bot.log()[-3000:] if bot is not None else ""))
        time.sleep(0.02)


def make_rooms(hs, bot):
    """Each player makes a room and invites the bot; it joins them all. By
    tens: the bot starts at most as many joins at once as its table of
    requests holds, and one it could not start waits for its next start."""
    rooms = []
    for k in range(0, ROOMS, 10):
        for local, _ in PLAYERS[k:k + 10]:
            rooms.append(hs.create_room(hs.user_id(local), name="Mesa %s" % local,
                                        invite=[g.BOT]))
        wait(lambda: all(hs.membership(r, g.BOT) == "join" for r in rooms),
             "the bot did not join the %d rooms" % len(rooms), TIMEOUT * 2, bot)
    return rooms


def fill_outbox(db_path, rooms, users):
    """The backlog, written while the bot is down: rooms first, then the
    private messages. Returns {target: [(id, priority, body)]}."""
    now = int(time.time())
    rows = {}
    con = sqlite3.connect(db_path)
    try:
        with con:
            for i, room in enumerate(rooms):
                for j in range(PER_ROOM):
                    body = "room %02d line %d" % (i, j)
                    cur = con.execute("INSERT INTO outbox (network, target, kind, priority, text, "
                                      "created) VALUES (?, ?, 0, 0, ?, ?)",
                                      (g.NETWORK, room, body, now))
                    rows.setdefault(room, []).append((cur.lastrowid, 0, body))
            for i, uid in enumerate(users):
                for j in range(PER_PLAYER):
                    prio = 1 if j == HAND else 0
                    body = "to P%02d %s %d" % (i, "hand" if prio else "line", j)
                    cur = con.execute("INSERT INTO outbox (network, target, kind, priority, text, "
                                      "created) VALUES (?, ?, 1, ?, ?, ?)",
                                      (g.NETWORK, uid, prio, body, now))
                    rows.setdefault(uid, []).append((cur.lastrowid, prio, body))
    finally:
        con.close()
    return rows


def expected(rows):
    """Each target's bodies in the order the bot must post them: priority
    first, then the outbox order."""
    return {t: [b for _, _, b in sorted(r, key=lambda x: (-x[1], x[0]))] for t, r in rows.items()}


def direct_rooms_known(db):
    return db._query("SELECT count(*) FROM kv WHERE scope = ? AND key LIKE 'dm:%' AND value != ''",
                     ("matrix:" + g.NETWORK,))[0][0]


def hold_write_lock(db_path, hs, bot, posted, ntx):
    """Holds the database's write lock until the bot, still sending, has
    failed to mark what it sent. Returns (sent meanwhile, repeats meanwhile)."""
    con = sqlite3.connect(db_path, timeout=10, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        # Slower from the lock on, so that the kill after it finds half of
        # the backlog still waiting (at RATE the locked seconds could post
        # nearly all of it, each event carrying a room's waiting lines).
        hs.set_rate_limit("message", *SLOW)
        before, start = posted(), len(hs.transactions)
        log_at = len(bot.log())
        # Sends go on (events now carry a room's waiting lines together, so a
        # few events hold many messages): three new ones show it.
        wait(lambda: "cannot mark the messages sent" in bot.log()[log_at:] and
             posted() >= before + 3, "no send while the database was locked, or no warning",
             TIMEOUT * 2, bot)
        during = posted() - before
        repeats = len([t for t in hs.transactions[start:] if t["repeat"]])
        con.execute("ROLLBACK")
    finally:
        con.close()
    return during, repeats


def lines_told(hs, ntx):
    """The backlog's lines the bot's fresh events since transaction ntx told
    (an event tells its own line and the +N merged behind it; a long line's
    later parts tell nothing new)."""
    told = 0
    for t in hs.transactions[ntx:]:
        if t["user"] == g.BOT and not t["repeat"] and g.txn_outbox_id(t["txn_id"])[1] == 0:
            told += 1 + g.txn_merged(t["txn_id"])
    return told


def bot_bodies(hs, room, since):
    """The lines of the bot's events (the lines waiting for a room when it
    sends go in one event)."""
    return [line for e in hs.events(room, since=since)
            if e["sender"] == g.BOT and e["type"] == "m.room.message"
            for line in e["content"].get("body").split("\n")]


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe = sys.argv[1]
    exit_on_sigterm()
    t0 = time.monotonic()
    with g.workdir("pz-mx-backlog-") as tmp:
        # the bot's pace is this test's limiter alone (RATE, then SLOW): the
        # other limiters stay out of its way
        hs = g.new_world(tmp, players=PLAYERS, rate_limits=PERMISSIVE_RATE_LIMITS,
                         exempt_bot=False)
        try:
            db_path, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
            g.write_config(conf, hs.url, db_path)
            bot = g.Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
            db = g.Db(db_path)
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
            rooms = make_rooms(hs, bot)
            g.check(bot.stop() == 0, "the bot did not stop cleanly")
            users = [hs.user_id(local) for local, _ in PLAYERS]
            rows = fill_outbox(db_path, rooms, users)
            want = expected(rows)
            total = sum(len(r) for r in rows.values())
            ids = sorted(i for r in rows.values() for i, _, _ in r)

            # The restart: nobody speaks; the limiter is on.
            hs.set_rate_limit("message", *RATE)
            mark, ntx = hs.mark(), len(hs.transactions)
            t1 = time.monotonic()
            bot.start()

            def posted():
                return len([t for t in hs.transactions[ntx:] if not t["repeat"]])

            # The lock comes while direct rooms are still being made: each
            # player's lines go out right after their room is, so once every
            # room is made almost nothing is left to send (17 lines of 420,
            # and 2 on a busy machine).
            wait(lambda: direct_rooms_known(db) >= ROOMS // 3, "the direct rooms were not made",
                 TIMEOUT * 8, bot)
            while_locked, locked_repeats = hold_write_lock(db_path, hs, bot, posted, ntx)
            g.check(locked_repeats == 0, "%d sends repeated while the marks could not be written"
                    % locked_repeats)
            # Half of what was not posted yet goes out, then the kill. Counted
            # from the double's events, not from the outbox's rows: the rows
            # posted while the lock was held are marked sent all at once when
            # it is released, which once emptied the outbox between two reads.
            # Each event carries one target's waiting lines (4 at most) and
            # the limiter lets one through at a time, so with 10 lines or more
            # unposted the kill at half finds some still waiting.
            rest = total - lines_told(hs, ntx)
            g.check(rest >= 10, "only %d of %d lines were left after the lock: the test "
                    "proves less" % (rest, total))
            wait(lambda: total - lines_told(hs, ntx) <= rest // 2, "the backlog was not posted",
                 TIMEOUT * 8, bot)
            left = total - lines_told(hs, ntx)
            g.check(left > 0, "the backlog drained before the kill: the test proves less")
            at_kill = posted()
            bot.kill()
            bot.start()
            wait(lambda: not db.outbox(), "the outbox did not drain", TIMEOUT * 8, bot)
            drained = time.monotonic() - t1
            g.check(bot.stop() == 0, "the bot did not stop cleanly")

            # Every room and every direct room got its messages once, in order.
            direct = hs.direct_rooms(g.BOT)
            for i, room in enumerate(rooms):
                got = bot_bodies(hs, room, mark)
                g.check(got == want[room], "room %d got %s, not %s" % (i, got, want[room]))
            for uid in users:
                g.check(len(direct.get(uid, [])) == 1, "%s has direct rooms %s" % (
                    uid, direct.get(uid)))
                got = bot_bodies(hs, direct[uid][0], mark)
                g.check(got == want[uid], "%s got %s, not %s" % (uid, got, want[uid]))
            made = hs.requests("POST", r"/createRoom$", status=200)
            g.check(len(made) == ROOMS, "%d direct rooms made for %d players" % (len(made), ROOMS))

            # Each outbox id under one event; repeats answered from the cache.
            txns = [t for t in hs.transactions[ntx:] if t["user"] == g.BOT]
            fresh = [t for t in txns if not t["repeat"]]
            keys = [g.txn_outbox_id(t["txn_id"]) for t in fresh]
            g.check(len(keys) == len(set(keys)), "a transaction id was posted twice")
            told = sum(1 + g.txn_merged(t["txn_id"]) for t, k in zip(fresh, keys) if k[1] == 0)
            g.check(set(k[0] for k in keys) <= set(ids) and told == len(ids),
                    "the events posted tell %d messages of the backlog's %d" % (told, len(ids)))
            events = {t["event_id"] for t in fresh}
            for t in txns:
                if t["repeat"]:
                    first = [f for f in fresh if f["txn_id"] == t["txn_id"] and
                             f["room_id"] == t["room_id"]]
                    g.check(first and first[0]["event_id"] == t["event_id"],
                            "a repeated transaction got another event")
            repeats = len(txns) - len(fresh)
            limited = hs.counters["rate_limited_message"]
            g.check(limited > 0, "the limiter never refused a send")

            # One event per room for what waited for it (two when the kill cut in).
            events_of = {r: len([t for t in fresh if t["room_id"] == r]) for r in rooms}
            g.check(all(1 <= k <= 2 for k in events_of.values()),
                    "a room's waiting lines were not sent together: %s" % sorted(
                        events_of.values())[-5:])
            log = bot.log()
            g.check(" sent messages: " not in log and "dropping" not in log,
                    "the log has drops or marks left unwritten at exit")
            g.check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
        finally:
            hs.shutdown()
    print("matrix backlog: %d messages for %d rooms and %d players (%d direct rooms made) "
          "drained with nobody speaking in %.1f s; %d sent while the database was locked (none "
          "twice), killed after %d and restarted; each posted once and in order (%d repeats "
          "answered from the cache), %d sends refused by the limiter (%.0f/s, burst %d); %d "
          "events for the %d rooms; %.0f s in all" % (
              total, ROOMS, ROOMS, len(made), drained, while_locked, at_kill, repeats, limited,
              RATE[0], RATE[1], sum(events_of.values()), ROOMS, time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
