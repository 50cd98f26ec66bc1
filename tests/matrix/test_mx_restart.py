#!/usr/bin/env python3
"""test_mx_restart.py -- the Matrix game of test_mx_game.py with the bot
SIGKILLed and restarted mid-game, and the bot's credentials taken away.

Kills, at fixed lines of the game:
  pending   a send is on the wire and the double took it (the event is
            posted) but holds the answer back: the bot dies without knowing;
            after the restart the outbox still has the message, the bot
            sends it again under the same transaction id, and the double
            answers from its transaction cache: posted once;
  before    just after a player's command reached the double, before the bot
            could handle it (or while it does);
  random    0 to 400 ms after a command;
  limited   the bot is down while a player plays and the others chat 120
            messages: the restarted bot's sync timeline is limited, it pages
            the room back and handles the command in the gap;
  revoke    the bot's access tokens are revoked mid-game: it logs in again
            with its password on the same device and the game goes on.

Then, with only an access token configured (no password), the token is
revoked: the bot says clearly in its log that the token was revoked, that
network stops (no more requests), and the process runs on and exits cleanly.

Checked against a reference run of the same game without restarts (played
at the same time, in a world of its own): every
room's sequence of bot messages is identical apart from the "is back"
announcements of the restarts (none lost, none twice), scores = replay,
every outbox id posted under exactly one event (retried transactions answered
from the cache: the double's txn_repeats), no command refused, one filter
upload, one device.

usage: test_mx_restart.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import random
import re
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402

KILLS = {12: "pending", 30: "before", 55: "random", 80: "limited", 105: "pending",
         130: "revoke", 150: "random", 175: "pending", 200: "before", 230: "limited",
         260: "random"}
BACK = re.compile(r"^porrazo is back: ")


def collapse(seq):
    """seq without an item equal to the one before it."""
    return [x for i, x in enumerate(seq) if i == 0 or seq[i - 1] != x]


class Killer:
    """The hooks that kill and restart the bot at the lines of KILLS."""

    def __init__(self):
        self.rng = random.Random(11)
        self.n = 0
        self.mode = None
        self.done = []
        self.fault = None
        self.marks = None

    def before(self, game, line):
        self.n += 1
        if self.mode is None and self.n in KILLS:
            self.mode = KILLS[self.n]
        if self.mode == "limited" and ":" not in line.split(" ")[0]:
            return  # a private line: wait for one in the room
        if self.mode == "pending":
            self.fault = game.hs.delay(r"/send/", 4.0, count=1, after=True)
            self.marks = len(game.hs.transactions)
        elif self.mode == "limited":
            game.bot.kill()
        elif self.mode == "revoke":
            game.hs.revoke_tokens(g.BOT)
            self.done.append("revoke")
            self.mode = None

    def after(self, game, line, eid):
        hs, mode = game.hs, self.mode
        if mode is None or (mode == "limited" and ":" not in line.split(" ")[0]):
            return
        if mode == "pending":
            deadline = time.monotonic() + TIMEOUT
            while len(hs.transactions) == self.marks:  # the held send took effect
                g.check(time.monotonic() < deadline, "no send to hold")
                time.sleep(0.01)
            game.bot.kill()
            self.fault.cancel()
        elif mode == "before":
            game.bot.kill()
        elif mode == "random":
            time.sleep(self.rng.uniform(0, 0.4))
            game.bot.kill()
        elif mode == "limited":
            others = [u for u in game.users.values()]
            for i in range(120):
                hs.send_text(game.room, others[i % len(others)], "just chatting %d" % i)
        game.bot.start()
        self.done.append(mode)
        self.mode = None


def token_only(bot_exe, tmp):
    """A bot with only an access token: the token is revoked; returns what
    was measured."""
    hs = g.new_world(tmp)
    try:
        token = hs.token_for("porrazo")
        db, conf = os.path.join(tmp, "tok.db"), os.path.join(tmp, "tok.conf")
        g.write_config(conf, hs.url, db, password=None, token=token)
        bot = g.Bot(bot_exe, conf, os.path.join(tmp, "tok.log"))
        hs.wait_for_request("GET", "/sync$", predicate=lambda e: "since" in e["query"],
                            timeout=TIMEOUT * 2)
        room = hs.create_room("ann", name="Mesa", invite=[g.BOT])
        hs.wait_for_event(room, type="m.room.member", timeout=TIMEOUT * 2,
                          predicate=lambda e: e.get("state_key") == g.BOT and
                          e["content"].get("membership") == "join")
        hs.revoke_tokens(g.BOT)
        hs.send_text(room, "ann", "!new 2")  # the long poll returns; the next request gets 401
        deadline = time.monotonic() + TIMEOUT * 2
        while "token was revoked" not in bot.log():
            g.check(bot.alive(), "the bot died:\n" + bot.log()[-2000:])
            g.check(time.monotonic() < deadline, "no log line about the revoked token:\n" +
                    bot.log()[-2000:])
            time.sleep(0.05)
        mark = hs.log_mark()
        time.sleep(3)
        later = hs.requests(since=mark)
        g.check(not later, "the stopped network still made %d requests" % len(later))
        g.check(bot.alive(), "the process stopped with its network")
        rc = bot.stop()
        log = bot.log()
        g.check(rc == 0, "porrazo-bot exited %s" % rc)
        g.check(token not in log, "the token was logged")
        line = next(l for l in log.splitlines() if "token was revoked" in l)
        g.check(" error: " in line and "[matrix local]" in line,
                "the log line does not say what to fix: %s" % line)
        g.check(hs.counters["login"] == 0, "a log-in was tried without a password")
        return line
    finally:
        hs.shutdown()


def revoked_while_down(bot_exe, tmp):
    """The token kept in the database was revoked while the bot was down: at
    start it is refused, the bot logs in with its password on the same
    device and resumes its sync."""
    hs = g.new_world(tmp)
    try:
        db, conf = os.path.join(tmp, "down.db"), os.path.join(tmp, "down.conf")
        g.write_config(conf, hs.url, db)
        bot = g.Bot(bot_exe, conf, os.path.join(tmp, "down.log"))
        hs.wait_for_request("GET", "/sync$", predicate=lambda e: "since" in e["query"],
                            timeout=TIMEOUT * 2)
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        hs.revoke_tokens(g.BOT)
        mark = hs.log_mark()
        bot.start()
        hs.wait_for_request("GET", "/sync$", since=mark, timeout=TIMEOUT * 2,
                            predicate=lambda e: "since" in e["query"] and e["status"] == 200,
                            done=True)
        g.check(bot.stop() == 0, "the bot did not stop cleanly")
        who = hs.requests("GET", r"/account/whoami$", since=mark)
        g.check(who and who[0]["status"] == 401, "the kept token was not tried first")
        g.check(hs.counters["login"] == 2 and len(hs.devices_of(g.BOT)) == 1,
                "%d log-ins, devices %s" % (hs.counters["login"], hs.devices_of(g.BOT)))
        g.check("with the password (same device)" in bot.log(), "no log-in on the same device")
    finally:
        hs.shutdown()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    reference = g.ReferenceGame(bot_exe, replay_exe)
    killer = Killer()
    with g.workdir("pz-mx-restart-") as tmp:
        hs = g.new_world(tmp)
        try:
            game = g.run_game(bot_exe, replay_exe, tmp, hs, restart_hook=killer.after,
                              before_hook=killer.before)
            log = game.bot.log()
            g.check(game.rc == 0, "porrazo-bot exited %s:\n%s" % (game.rc, log[-2000:]))
            g.check(sorted(killer.done) == sorted(KILLS.values()),
                    "not every kill happened: %s" % killer.done)
            board, scores, nactions = g.check_outcome(game, bot_exe, replay_exe, game.db_path)
            g.check_events(game)
            g.check_direct(game)
            g.check_requests(hs)
            nmsgs, repeats = g.check_transactions(hs, allow_repeats=True)
            npending = list(KILLS.values()).count("pending")
            g.check(repeats >= npending and hs.counters["txn_repeats"] >= npending,
                    "%d repeated transactions for %d kills with a send pending" % (
                        repeats, npending))
            ref_rooms = reference.rooms()
            backs = [b for b in g.room_bodies(game, game.room) if BACK.match(b)]
            got = g.bodies_by_room(game)
            got["room"] = [b for b in got["room"] if not BACK.match(b)]
            restarts = len(KILLS) - 1  # the revoke kills nothing
            # After a restart the room's "is back" line says whose turn it
            # is; the players follow the room (they acted moments ago), so
            # none is prompted privately again: the same private messages.
            extra = sum(len(got[k]) - len(ref_rooms[k]) for k in got if k != "room")
            if extra != 0:  # say whose and where, as compare_rooms does
                try:
                    g.compare_rooms({k: v for k, v in ref_rooms.items() if k != "room"},
                                    {k: v for k, v in got.items() if k != "room"})
                except AssertionError as e:
                    print("private messages: %s" % e, file=sys.stderr)
            g.check(extra == 0, "%d more private messages than the reference for %d "
                    "restarts" % (extra, restarts))
            for k in got:
                if k != "room":
                    got[k] = collapse(got[k])
                    ref_rooms[k] = collapse(ref_rooms[k])
            g.compare_rooms(ref_rooms, got)
            g.check(len(backs) == restarts, "%d 'is back' announcements for %d restarts" % (
                len(backs), restarts))
            g.check(hs.counters["login"] == 2, "%d log-ins (1 + 1 after the revoke)" %
                    hs.counters["login"])
            g.check(len(hs.devices_of(g.BOT)) == 1, "devices: %s" % hs.devices_of(g.BOT))
            g.check("logging in as @porrazo:test with the password (same device)" in log,
                    "no log-in again after the revoke")
            nread = [int(m) for m in re.findall(r"read back (\d+) missed events", log)]
            g.check(len(nread) >= 2 and min(nread) >= 1, "the gaps were not read back: %s" %
                    nread)
            g.check("secret" not in log, "the password was logged")
        finally:
            hs.shutdown()
            reference.join()
        line = token_only(bot_exe, tmp)
        revoked_while_down(bot_exe, tmp)
    print("matrix restart: %d kills (%s) and a revoked token in a %d-action game: %d messages "
          "as in the uninterrupted run, %d 'is "
          "back', each outbox id posted once, "
          "%d sends repeated after a kill answered from the cache, gaps of %s events read "
          "back, 2 log-ins on 1 device, final %s = replay %s; token only: \"%s\"; a token revoked "
          "while the bot was down: logged in again on the same device; %.0f s" % (
              len(KILLS) - 1, ", ".join(sorted(set(KILLS.values()) - {"revoke"})), nactions,
              nmsgs - len(backs), len(backs), repeats, nread, board, scores,
              line.split(": ", 1)[1][:90], time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
