#!/usr/bin/env python3
"""test_irc_flooder.py -- one user floods the bot on a real ngircd (100
lines a second for 20 s, half in #porrazo, half privately) while two
players play in #quiet. The bot runs with its default pacing (burst 4, one
line per 1.5 s) and flood control (10 commands per 20 s, then 60 s
ignored).

It checks that:
  * every "!turn" asked in #quiet during the flood is answered within a few
    seconds (the send queue is round robin over every target, so the
    flooder's backlog is never in front of more than one of #quiet's lines);
  * the flooder is told once, privately, that they are ignored, and gets a
    bounded number of answers in all;
  * nothing of the game is lost: a play made in #quiet during the flood is
    announced there and is in the game's exported record.

usage: test_irc_flooder.py BOT REPLAY
"""
import json
import os
import re
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, strip_formatting, run_main, log, BOT_NICK, CHANNEL)

QUIET = "#quiet"
SEED = 7
FLOOD_SECONDS = 20
FLOOD_RATE = 100  # lines per second
MAX_TURN_WAIT = 6.0


def flood(c, stop):
    """Sends FLOOD_RATE lines a second, alternating channel and private."""
    n = 0
    start = time.monotonic()
    while not stop.is_set() and time.monotonic() - start < FLOOD_SECONDS:
        if n % 2 == 0:
            c.privmsg(CHANNEL, "!frobnicate %d" % n)
        else:
            c.privmsg(BOT_NICK, "hand %d" % n)
        n += 1
        delay = start + n / FLOOD_RATE - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    return n


def main(bot_exe, replay_exe):
    del replay_exe
    with IRCd() as server, Workdir(prefix="pz-bot-irc-flooder-") as work:
        ann, bob, mal = server.client("ann"), server.client("bob"), server.client("mallory")
        ann.join(QUIET)
        bob.join(QUIET)
        mal.join(CHANNEL)
        db = work.path("game.db")
        conf = write_config(work.path("bot.conf"), server, channels=(CHANNEL, QUIET),
                            burst=None, line_ms=None, log_level="info",
                            bot_extra={"flood_commands": "10", "flood_window": "20s",
                                       "flood_ignore": "60s"})
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(ann, channel=QUIET)
            wait_bot_in_channel(mal, channel=CHANNEL)
            mark = ann.mark()
            ann.privmsg(QUIET, "!new 2")
            ann.wait_for("PRIVMSG", sender=BOT_NICK, target=QUIET, since=mark)
            bob.privmsg(QUIET, "!join")
            ann.wait_privmsg(sender=BOT_NICK, timeout=30)  # ann's hand
            time.sleep(8)  # the deal's lines go out at the default pace

            stop = threading.Event()
            sent = []
            flooder = threading.Thread(target=lambda: sent.append(flood(mal, stop)))
            mal_mark = mal.mark()
            flooder.start()
            waits = []
            dealer = None
            t0 = time.monotonic()
            while time.monotonic() - t0 < FLOOD_SECONDS - 5:
                time.sleep(2.5)
                mark = ann.mark()
                asked = time.monotonic()
                ann.privmsg(QUIET, "!turn")
                r = ann.wait_for("PRIVMSG", sender=BOT_NICK, target=QUIET, since=mark,
                                 pattern=r"^ann: ", timeout=60)
                waits.append(time.monotonic() - asked)
                text = strip_formatting(r.text)
                log("!turn answered in %.2f s: %s" % (waits[-1], text))
                m = re.search(r"(\w+) deals and chooses: ", text)
                dealer = dealer or (m.group(1) if m else None)
            # A play while the flood goes on: announced, and in the record.
            check(dealer in ("ann", "bob"), "no dealer named in %r" % text)
            mark = ann.mark()
            (ann if dealer == "ann" else bob).privmsg(QUIET, "!tendido now")
            ann.wait_for("PRIVMSG", sender=BOT_NICK, target=QUIET, since=mark,
                         pattern=r"lays the tendido", timeout=60)
            stop.set()
            flooder.join()
            log("turn answered during the flood in %s s"
                % ", ".join("%.2f" % w for w in waits))
            check(max(waits) <= MAX_TURN_WAIT, "a !turn in %s waited %.1f s behind the flood"
                  % (QUIET, max(waits)))

            time.sleep(10)  # what the bot still had for the flooder goes out
            told = [m for m in mal.find("PRIVMSG", sender=BOT_NICK, since=mal_mark)
                    if "ignore you" in m.text]
            answers = mal.find("PRIVMSG", sender=BOT_NICK, since=mal_mark)
            check(len(told) == 1, "the flooder was told %d times" % len(told))
            check(len(answers) <= 25, "the flooder got %d answers to %d lines"
                  % (len(answers), sent[0]))
            check(bot.running, "the bot died during the flood")

            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s" % rc)
            record = json.loads(subprocess.run(
                [bot_exe, "--export", "1", "--db", db], check=True, capture_output=True,
                text=True).stdout)
            check(any(a.get("tendido") == "now" for a in record["actions"]),
                  "the play made during the flood is not in the record: %r" % record["actions"])
            print("flooder: %d lines in %d s; %d answers, told once; !turn waits max %.2f s "
                  "median %.2f s" % (sent[0], FLOOD_SECONDS, len(answers), max(waits),
                                     sorted(waits)[len(waits) // 2]))
        finally:
            bot.cleanup()
            for c in (ann, bob, mal):
                c.close()


if __name__ == "__main__":
    run_main(main)
