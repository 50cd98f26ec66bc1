#!/usr/bin/env python3
"""test_mx_both_networks.py -- one porrazo-bot process serving an IRC network
(a real ngircd, tests/irc/ircd.py) and a Matrix network (the homeserver
double) at once: a two-player game in an IRC channel and a three-player game
in a Matrix room, played at the same time (alice on IRC and Ann on Matrix
tie their ids with "link" first, and Ann's "games" lists both) (the Matrix players in a thread of
their own, the IRC players in the main thread), both to the end, both with
final scores equal to porrazo-replay on the games the bot exports.

In the middle, the homeserver turns slow: every request is held 5 s before
it is processed (the sync's long poll, the sends, everything). Measured: the
IRC game's steps (a player's line, then the bot's status line in the channel
and the player's fresh private hand) while a Matrix request is being held:
each must take under 2 s -- IRC never waits for Matrix in the bot's single
event loop -- and the Matrix game must still progress meanwhile.

usage: test_mx_both_networks.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import re
import sys
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
IRC = os.path.join(HERE, "..", "irc")
for d in (HERE, IRC):
    if d not in sys.path:
        sys.path.insert(0, d)

import bot_irc  # noqa: E402  (tests/irc/bot_irc.py)
import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from ircd import IRCd  # noqa: E402

SLOW_S = 5.0       # the homeserver holds every request this long
SLOW_PHASE = 30.0  # for this long
IRC_MAX_S = 2.0 * TIMEOUT / 30.0  # an IRC step while Matrix is stalled


class ProcView:
    """test_mx_game's view of bot_irc.BotProcess (alive, log)."""

    def __init__(self, bp):
        self.bp = bp

    def alive(self):
        return self.bp.running

    def log(self):
        return self.bp.text()


def stalled(hs, t0, t1):
    """Whether some request was being held by the double over [t0, t1]."""
    for e in hs.requests():
        if e["fault"] != "delay" or e["time"] > t0:
            continue
        end = e["time"] + e["duration"] if e.get("duration") is not None else None
        if end is None or end >= t1:
            return True
    return False


def tie_ids(irc, mx):
    """alice on IRC and Ann on Matrix are one person: "link" on IRC sends her
    a code privately, "link CODE" in her Matrix direct room ties the two ids,
    and "games" on Matrix then lists her IRC game as well as her Matrix one."""
    since = irc.mark()
    irc.say("alice> link")
    e = irc.wait(lambda e: e.kind == "private" and bot_irc.same_name(e.nick, "alice") and
                 "say link " in e.text, "alice's link code", since)
    code = re.search(r"say link (\w+) ", e.text).group(1)
    g.check(not any(code in t for t in irc.room_texts()), "the link code was said in the channel")
    out = mx.step("Ann> link %s" % code.upper())
    g.check(any("tied to alice on irc" in line for line in out),
            "Ann was not tied to alice: %s" % out)
    out = [line for line in mx.step("Ann> games") if line.startswith("-> Ann: #")]
    g.check(any(re.match(r"-> Ann: #1 irc %s: " % re.escape(bot_irc.CHANNEL), line)
                for line in out) and
            any(re.match(r"-> Ann: #2 %s \S" % re.escape(g.NETWORK), line) for line in out),
            "Ann's games do not list game 1 on irc and game 2 on %s: %s" % (g.NETWORK, out))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t_start = time.monotonic()
    with IRCd() as server, bot_irc.Workdir(prefix="pz-mx-both-") as work:
        hs = g.new_world(work.path(""))
        bp = None
        try:
            db = work.path("both.db")
            conf = bot_irc.write_config(work.path("bot.conf"), server, network="irc",
                                        database=db, log_level="info", burst=20, line_ms=100)
            with open(conf, "a") as f:
                f.write("\n[matrix %s]\nhomeserver = %s\nuser = %s\npassword = secret\n"
                        "allow_invites = :test\n" % (g.NETWORK, hs.url, g.BOT))
            bp = bot_irc.BotProcess(bot_exe, conf, db, seed=g.SEED).start()
            kib = server.client("kibitz")
            kib.join(bot_irc.CHANNEL)
            bot_irc.wait_bot_in_channel(kib)
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)

            irc = bot_irc.IRCGame(server, bp, ["alice", "bruno"], observer=kib)
            irc.open()                                   # game 1
            mx = g.MatrixGame(hs, db, ProcView(bp))
            mx.open_room()
            t = mx.table
            t.read(mx.step("Ann: !new 3"))               # game 2
            t.read(mx.step("Bob: !join"))
            t.read(mx.step("Cat: !join"))

            tie_ids(irc, mx)

            mx_steps = []     # completion times of the Matrix steps
            failure = []

            def matrix_player():
                try:
                    def step(line):
                        out = mx.step(line)
                        mx_steps.append(time.monotonic())
                        return out
                    cg_steps = g.cg.play_out(t, step)
                    mx.steps = cg_steps
                except Exception as e:  # reported by the main thread
                    failure.append(e)

            th = threading.Thread(target=matrix_player, name="matrix-players", daemon=True)
            th.start()

            irc_steps = []    # (start, end, stalled)
            slow = None
            slow_from = slow_to = None
            while not irc.table.over:
                if slow is None and len(irc_steps) >= 15:
                    slow = hs.delay(".*", SLOW_S)
                    slow_from = time.monotonic()
                if slow is not None and slow_to is None and \
                        time.monotonic() - slow_from > SLOW_PHASE:
                    slow.cancel()
                    slow_to = time.monotonic()
                t0 = time.time()  # the double's request log is in wall-clock time
                irc.play_one()
                t1 = time.time()
                irc_steps.append((t0, t1, stalled(hs, t0, t1)))
                g.check(not failure, "the Matrix game failed: %s" % (failure[:1],))
            if slow is not None and slow_to is None:
                slow.cancel()
                slow_to = time.monotonic()
            th.join(TIMEOUT * 20)
            g.check(not th.is_alive(), "the Matrix game did not end")
            g.check(not failure, "the Matrix game failed: %s" % (failure[:1],))
            g.check(slow_to is not None, "the IRC game ended before the slow phase")

            board_irc = irc.finish()
            sc_irc, st_irc = bot_irc.replay(bot_exe, replay_exe, db, game_id=1)
            g.check(st_irc["phase"] == "game_over" and
                    list(board_irc.values()) == list(st_irc["scores"]),
                    "IRC board %s differs from replay %s" % (board_irc, st_irc["scores"]))
            sc_mx, st_mx = bot_irc.replay(bot_exe, replay_exe, db, game_id=2)
            board_mx = g.cg.final_scores(mx.table)
            g.check(st_mx["phase"] == "game_over" and
                    sorted(board_mx.values()) == sorted(st_mx["scores"]),
                    "Matrix board %s differs from replay %s" % (board_mx, st_mx["scores"]))
            g.check_events(mx)
            g.check_requests(hs)

            held = [(b - a) for a, b, s in irc_steps if s]
            g.check(len(held) >= 10, "only %d IRC steps while a Matrix request was held" %
                    len(held))
            g.check(max(held) < IRC_MAX_S, "an IRC step took %.2f s while Matrix was stalled" %
                    max(held))
            during = [x for x in mx_steps if slow_from <= x <= slow_to + SLOW_S]
            g.check(during, "the Matrix game made no progress while the homeserver was slow")
            delayed = [e for e in hs.requests() if e["fault"] == "delay"]
            rc = bp.stop()
            g.check(rc == 0, "porrazo-bot exited %s" % rc)
        finally:
            if bp is not None:
                bp.cleanup()
            hs.shutdown()
    all_irc = [b - a for a, b, _ in irc_steps]
    print("both networks: IRC game of %d steps (final %s = replay %s) and Matrix game of %d "
          "steps (final %s = replay %s) in one process; while the homeserver held every "
          "request %.0f s (%d requests held, %.0f s), %d IRC steps took at most %.2f s "
          "(median %.2f s; all IRC steps median %.2f s) and the Matrix game made %d steps; "
          "%.0f s" % (
              len(irc_steps), board_irc, st_irc["scores"], len(mx_steps), board_mx,
              st_mx["scores"], SLOW_S, len(delayed), slow_to - slow_from, len(held), max(held),
              sorted(held)[len(held) // 2], sorted(all_irc)[len(all_irc) // 2], len(during),
              time.monotonic() - t_start))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
