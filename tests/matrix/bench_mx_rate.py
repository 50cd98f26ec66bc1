#!/usr/bin/env python3
"""bench_mx_rate.py -- how fast a Matrix game goes under Synapse's default
rate limits (rc_message 0.2/s, burst 10; rc_joins, rc_login and
rc_invites as Synapse's, mxmodel.SYNAPSE_RATE_LIMITS), enforced by the
homeserver double on the bot, and prints the figures.

Four scripted players (test_mx_game.py's MatrixGame and console_game's
strategy) open a table and play MOVES commands, each command sent THINK
seconds (8 by default) after the bot's answer to the one before (a person
reading and choosing a card). Synapse's limiter refills one message every 5
s: a room line per move and four hands per deal fit when players take
about 8 s a move or more; faster tables need the bot's account exempted
(Synapse's override_ratelimit admin API, see the README).
Measured, from the moment a command is sent until everything it caused is
delivered (the bot handled the event and its outbox is empty: every event
posted):

  first deal   the last "!join", which deals: the room's line, the four
               direct rooms made and a hand in each
  deals        every later command that ends a deal (the next deal's room
               line and four hands)
  steady play  every other move: the room's line naming the next player

Targets (issue 13): a 4-player deal fully delivered in 5 s or less; steady
play 2 s or less from a move to the next player's turn.

usage: bench_mx_rate.py PORRAZO_BOT PORRAZO_REPLAY [--moves N] [--think S] [--figures-only]
exit status 0 when the targets are met, 1 otherwise; with --figures-only (the
ctest run: a measurement on a shared machine, not a pass or fail) 0 whenever
the game ran, whatever the figures.
"""
import argparse
import os
import statistics
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import test_mx_game as g  # noqa: E402  (puts tests/bot on the path too)
import console_game as cg  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from mxmodel import SYNAPSE_RATE_LIMITS  # noqa: E402

PLAYERS = [("ann", "Ann"), ("bob", "Bob"), ("cat", "Cat"), ("dan", "Dan")]
DEAL_TARGET, MOVE_TARGET = 5.0, 2.0


class Enough(Exception):
    """The benchmark's moves are played."""


class PacedGame(g.MatrixGame):
    """MatrixGame whose players think before they act, timing each step."""

    def __init__(self, *args, think, moves, **kw):
        super().__init__(*args, **kw)
        self.think, self.moves = think, moves
        self.timings = []  # (kind, seconds)
        self.acted = 0

    def step(self, line):
        action = g.ACTION.match(line) is not None
        if action and self.acted >= self.moves:
            raise Enough()
        time.sleep(self.think)  # every command: joining a table takes a person time too
        t = time.monotonic()
        out = super().step(line)
        took = time.monotonic() - t
        dealt = any("hands sent privately" in x for x in out)
        if line.endswith("!join") and dealt:
            kind = "first deal"
        elif dealt:
            kind = "deal"
        elif action:
            kind = "move"
        else:
            kind = "other"
        self.timings.append((kind, took))
        self.acted += action
        return out


def figures(values):
    if not values:
        return "none"
    return "%d, median %.2f s, max %.2f s" % (len(values), statistics.median(values),
                                              max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot")
    ap.add_argument("replay")
    ap.add_argument("--moves", type=int, default=int(os.environ.get("PZ_BENCH_MOVES", "40")))
    ap.add_argument("--think", type=float,
                    default=float(os.environ.get("PZ_BENCH_THINK", "8")))
    ap.add_argument("--figures-only", action="store_true",
                    help="exit 0 whatever the figures (they are printed)")
    args = ap.parse_args()
    exit_on_sigterm()
    t0 = time.monotonic()
    with g.workdir("pz-mx-bench-") as tmp:
        hs = g.new_world(tmp, players=PLAYERS, rate_limits=SYNAPSE_RATE_LIMITS,
                          exempt_bot=False)
        db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
        g.write_config(conf, hs.url, db)
        bot = g.Bot(args.bot, conf, os.path.join(tmp, "bot.log"))
        try:
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
            game = PacedGame(hs, db, bot, players=PLAYERS, think=args.think, moves=args.moves)
            game.open_room()
            try:
                game.play()
            except Enough:
                pass
            g.check(not hs.errors, "the double had internal errors")
            limited = hs.counters["rate_limited_message"]
        finally:
            if bot.alive():
                bot.stop()
            hs.shutdown()
    by = {}
    for kind, took in game.timings:
        by.setdefault(kind, []).append(took)
    first = by.get("first deal", [])
    deals = first + by.get("deal", [])
    moves = by.get("move", [])
    ok = bool(deals) and max(deals) <= DEAL_TARGET and bool(moves) and \
        max(moves) <= MOVE_TARGET
    print("matrix rate benchmark (Synapse's rc_message 0.2/s burst 10 on the bot; 4 players, "
          "%.1f s to think, %d moves): first deal (4 direct rooms made) %s; deals %s; "
          "steady play %s; %d sends refused with 429; targets: deal <= %.0f s, move <= %.0f s: "
          "%s; %.0f s" % (args.think, game.acted, figures(first), figures(by.get("deal", [])),
                          figures(moves), limited, DEAL_TARGET, MOVE_TARGET,
                          "met" if ok else "NOT MET", time.monotonic() - t0))
    return 0 if ok or args.figures_only else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
