#!/usr/bin/env python3
"""test_mx_faults.py -- the whole Matrix game of test_mx_game.py again, with
the homeserver double misbehaving throughout: 429 M_LIMIT_EXCEEDED with a
Retry-After header (and retry_after_ms) on sends, 429 with only
retry_after_ms in the body on the sync, direct-room creation and joins,
Synapse's own rate limiter on messages, 500/502/503 (JSON, an HTML proxy
page, an empty body), slow answers (before and after processing),
connections dropped before processing, after it (the send took effect but
the bot never heard), by TCP reset, mid-request and mid-body, and sync
batches delivered twice.

The same seed and the same scripted players give the same game, so the run
is compared with a reference run of the same game without faults (played
at the same time, in a world of its own): every
room's sequence of bot messages must be identical (none lost, none twice,
none out of order), the scores equal porrazo-replay, every outbox message
posted under one transaction id exactly once (repeats answered from the
double's transaction cache), no command refused (none handled twice), and
the waits measured: a retry after a 429 comes no sooner than Retry-After
(header) or retry_after_ms (body) said, and retries after 5xx back off.

usage: test_mx_faults.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import random
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import exit_on_sigterm  # noqa: E402
from mxmodel import PERMISSIVE_RATE_LIMITS  # noqa: E402

BODY_429 = {"errcode": "M_LIMIT_EXCEEDED", "error": "Too Many Requests", "retry_after_ms": 700}

# One fault per entry, applied in turn every few lines of the game.
FAULTS = [
    ("429 Retry-After on a send", lambda hs: hs.fail(r"/send/", 429, retry_after=2)),
    ("429 retry_after_ms on the sync", lambda hs: hs.fail(r"/sync$", 429, body=BODY_429)),
    ("500 on a send", lambda hs: hs.fail(r"/send/", 500)),
    ("502 HTML on the sync", lambda hs: hs.fail(r"/sync$", 502, body="html")),
    ("503 empty on a send", lambda hs: hs.fail(r"/send/", 503, body="empty")),
    ("3 x 503 on a send (back-off)", lambda hs: hs.fail(r"/send/", 503, count=3)),
    ("slow sync", lambda hs: hs.delay(r"/sync$", 2.5, count=1)),
    ("slow send answer", lambda hs: hs.delay(r"/send/", 2.0, count=1, after=True)),
    ("send dropped after it took effect", lambda hs: hs.drop(r"/send/", when="after")),
    ("send dropped before", lambda hs: hs.drop(r"/send/", when="before")),
    ("send reset", lambda hs: hs.drop(r"/send/", when="reset")),
    ("send dropped mid-request", lambda hs: hs.drop(r"/send/", when="mid-request")),
    ("sync cut mid-body", lambda hs: hs.drop(r"/sync$", when="partial")),
    ("sync dropped after", lambda hs: hs.drop(r"/sync$", when="after")),
    ("sync delivered twice", lambda hs: hs.duplicate_next_sync(g.BOT)),
    ("2 syncs delivered twice", lambda hs: hs.duplicate_next_sync(g.BOT, count=2)),
]
EARLY_FAULTS = [  # while the direct rooms are made and the bot joins
    lambda hs: hs.fail(r"/createRoom$", 429, body=BODY_429),
    lambda hs: hs.fail(r"/createRoom$", 502),
    lambda hs: hs.fail(r"/account_data/m.direct$", 503, method="PUT"),
]


def measure_waits(hs):
    """The pause before each retry of a request the double failed: after a
    429 on a send (Retry-After 2 s) >= 2 s, after a body-only 429 (700 ms)
    >= 0.7 s, after a 5xx >= 0.5 s (back-off from 1 s with jitter down to
    half). Returns (count, the shortest of each kind)."""
    log = hs.requests()
    shortest = {}
    n = 0
    for i, e in enumerate(log):
        if e["fault"] != "fail" or e["status"] is None or e.get("duration") is None or \
                e["path"].endswith("/createRoom"):  # one path for several requests at once
            continue
        answered = e["time"] + e["duration"]
        nxt = next((f for f in log[i + 1:] if f["raw_path"] == e["raw_path"] and
                    f["method"] == e["method"]), None)
        if nxt is None:
            continue
        wait = nxt["time"] - answered
        if e["status"] == 429 and "/send/" in e["path"]:
            kind, need = "429 header", 1.95
        elif e["status"] == 429:
            kind, need = "429 body", 0.65
        else:
            kind, need = "5xx", 0.45
        g.check(wait >= need, "a retry %.2f s after %d on %s (needs %.2f s)" % (
            wait, e["status"], e["path"], need))
        shortest[kind] = min(shortest.get(kind, 99.0), wait)
        n += 1
    g.check({"429 header", "429 body", "5xx"} <= set(shortest),
            "not every kind of failure was retried: %s" % shortest)
    return n, shortest


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    rng = random.Random(7)
    applied = []

    def inject(game, line, eid):
        game.n = getattr(game, "n", 0) + 1
        if game.n % 3 == 0:
            name, fault = FAULTS[(game.n // 3) % len(FAULTS)]
            if rng.random() < 0.8:
                fault(game.hs)
                applied.append(name)

    def early(hs):
        hs.set_rate_limit("message", 4.0, 2)  # Synapse's limiter: a deal (4 events) passes it
        for f in EARLY_FAULTS:
            f(hs)

    reference = g.ReferenceGame(bot_exe, replay_exe)
    with g.workdir("pz-mx-faults-") as tmp:
        # the bot is held to early()'s message limiter, and the others stay
        # out of the way of the faults' logins, joins and invitations
        hs = g.new_world(tmp, rate_limits=PERMISSIVE_RATE_LIMITS, exempt_bot=False)
        try:
            game = g.run_game(bot_exe, replay_exe, tmp, hs, faults=early, restart_hook=inject)
            log = game.bot.log()
            g.check(game.rc == 0, "porrazo-bot exited %s:\n%s" % (game.rc, log[-2000:]))
            board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, game.db_path)
            g.check_events(game)
            g.check_direct(game)
            g.check_requests(hs)
            nmsgs, repeats = g.check_transactions(hs, allow_repeats=True)
            g.check_room_order(game)
            g.compare_rooms(reference.rooms(), g.bodies_by_room(game))
            nwaits, shortest = measure_waits(hs)
            c = hs.counters
            g.check(c["sync_duplicated"] >= 3, "too few duplicated syncs: %d" %
                    c["sync_duplicated"])
            g.check(repeats >= 1 and c["txn_repeats"] >= 1,
                    "no send was repeated after a lost answer")
            g.check(c["dropped"] >= 5 and c["faults_failed"] >= 10, "too few faults: %s" % c)
            g.check(c["rate_limited_message"] >= 1, "the rate limiter never refused a send")
            g.check(not hs.errors, "internal errors in the double")
        finally:
            hs.shutdown()
            reference.join()
    print("matrix faults: %d actions, %d messages identical to the fault-free run, final %s = "
          "replay %s; %d faults injected (%d failed answers, %d dropped connections, %d "
          "rate-limited by the limiter, %d duplicated syncs), %d transactions repeated and "
          "answered from the cache, %d retries timed (shortest: %s), %.0f s (the reference beside "
          "it %.0f s)"
          % (nactions, nmsgs, board, scores, len(applied) + len(EARLY_FAULTS),
             c["faults_failed"], c["dropped"], c["rate_limited_message"], c["sync_duplicated"],
             repeats, nwaits, ", ".join("%s %.2f s" % kv for kv in sorted(shortest.items())),
             time.monotonic() - t0, reference.seconds))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
