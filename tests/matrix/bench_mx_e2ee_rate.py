#!/usr/bin/python3
"""bench_mx_e2ee_rate.py -- bench_mx_rate.py's measure for an end-to-end
encrypted room beside a plain one, in one run: the same four-player game,
paced the same way (THINK seconds before each command), under Synapse's
default rc_message on the bot, once with scripted players in a plain room
(encryption off, as before) and once with matrix-nio players (python3-olm) in an encrypted room whose
direct rooms the bot makes encrypted. Printed for each: the first deal's and
later deals' delivery time, steady play, the bot's room events per deal
(PUT /send), and the extra requests encryption costs: to-device room-key
shares (PUT /sendToDevice), /keys/query and /keys/claim.

usage: bench_mx_e2ee_rate.py PORRAZO_BOT PORRAZO_REPLAY [--moves N] [--think S]
Figures only: exit 0 whenever both games ran. Skipped (77) when nio cannot
encrypt here.
"""
import argparse
import os
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:
    import test_mx_e2ee as e2  # exits 77 itself without nio's encryption
except SystemExit:
    raise
import bench_mx_rate as bench  # noqa: E402
import test_mx_game as g  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from mxmodel import SYNAPSE_RATE_LIMITS  # noqa: E402


class Counted:
    """Times each step and counts the bot's requests it caused, by kind."""

    def step(self, line):
        mark = self.hs.log_mark()
        out = super().step(line)
        kind = self.timings[-1][0] if self.timings else "other"
        reqs = self.hs.requests(user=g.BOT, since=mark)
        self.counts.append((kind, sum("/send/" in e["path"] for e in reqs),
                            sum("/sendToDevice/" in e["path"] for e in reqs),
                            sum(e["path"].endswith(("/keys/query", "/keys/claim"))
                                for e in reqs)))
        return out


class PlainGame(Counted, bench.PacedGame):
    pass


class EncGame(Counted, bench.PacedGame, e2.E2eeGame):
    pass


def run(args, encrypted):
    with g.workdir("pz-mx-bench-e2ee-") as tmp:
        hs = g.new_world(tmp, players=bench.PLAYERS, rate_limits=SYNAPSE_RATE_LIMITS,
                          exempt_bot=False)
        if encrypted:  # nio's players send at machine speed when they speak
            g.exempt_from_rate_limits(hs, *[hs.user_id(u) for u, _ in bench.PLAYERS])
        db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
        if encrypted:
            e2.write_config(conf, hs, db)
        else:  # today's plain game: no crypto_key, so encryption off
            g.write_config(conf, hs.url, db)
        bot = g.Bot(args.bot, conf, os.path.join(tmp, "bot.log"))
        game = None
        try:
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
            kw = dict(players=bench.PLAYERS, think=args.think, moves=args.moves)
            if encrypted:
                game = EncGame(hs, db, bot, tmp, **kw)
            else:
                game = PlainGame(hs, db, bot, **kw)
            game.counts = []
            game.open_room()
            try:
                game.play()
            except bench.Enough:
                pass
            g.check(not hs.errors, "the double had internal errors")
            if encrypted:
                g.check(not game.undecrypted, "undecryptable bot events: %s" % game.undecrypted)
            limited = hs.counters["rate_limited_message"]
        finally:
            if encrypted and game is not None:
                game.close()
            if bot.alive():
                bot.stop()
            hs.shutdown()
    by, ev = {}, {}
    for kind, took in game.timings:
        by.setdefault(kind, []).append(took)
    for kind, sends, shares, keys in game.counts:
        ev.setdefault(kind, []).append((sends, shares, keys))
    deals = ev.get("first deal", []) + ev.get("deal", [])
    total = [sum(x[i] for v in ev.values() for x in v) for i in range(3)]
    return ("%s: first deal %s; deals %s; steady play %s; room events per deal %s; "
            "room-key shares %d, key queries and claims %d, room events %d; 429s %d" % (
                "encrypted" if encrypted else "plain", bench.figures(by.get("first deal", [])),
                bench.figures(by.get("deal", [])), bench.figures(by.get("move", [])),
                "/".join(str(d[0]) for d in deals) or "none", total[1], total[2], total[0],
                limited))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot")
    ap.add_argument("replay")
    ap.add_argument("--moves", type=int, default=16)
    ap.add_argument("--think", type=float, default=8.0)
    args = ap.parse_args()
    exit_on_sigterm()
    t0 = time.monotonic()
    lines = [run(args, False), run(args, True)]
    print("matrix rate, plain beside encrypted (rc_message 0.2/s burst 10 on the bot; 4 "
          "players, %.1f s to think, %d moves):" % (args.think, args.moves))
    for line in lines:
        print("  " + line)
    print("  %.0f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
