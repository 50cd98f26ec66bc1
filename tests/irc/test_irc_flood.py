#!/usr/bin/env python3
"""test_irc_flood.py -- an 8-player game over IRC with the bot's DEFAULT
pacing (pace = auto: ngircd's own model once its 004 is read; no pace,
burst or line_ms in its config)
on an ngircd that applies its own flood penalties (MaxPenaltyTime -1, as a
real network): eight players (ann..hal) and a kibitzer.

The table is opened and filled (one "sits down" line per player), the first
hand is dealt, then every player asks for its hand privately at once and
four of them ask "!turn" in the channel, and the game is played until the
second deal's hands are out. Checks:
  * every player received its private hand for both deals, every hand
    asked for was sent, and the !turn answered (an answer made needless by
    a newer one is dropped);
  * the bot stayed connected the whole time: registered once in ngircd's
    log, no QUIT or ERROR of the bot in the channel, no reconnection in its
    log;
  * ngircd relayed every channel line at once (under 1 s from the bot's
    write): the bot never earned a penalty.

usage: test_irc_flood.py BOT REPLAY
"""
import os
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config, TIMEOUT,  # noqa: E402
                     wait_bot_in_channel, check, check_hands_at_every_deal,
                     check_no_hand_in_channel, check_private_only_to, ngircd_registrations,
                     hand_cards, bot_lines, run_main, same_name, CHANNEL, BOT_NICK)

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]
SEED = 8008


def wait_deal_hands(game, deal_index, timeout):
    """Waits until every player has a hand of the deal_index-th deal line
    (after the previous deal line)."""
    d = game.deal_lines[deal_index]
    number = int(re.search(r"(?i)deal (\d+) of", d.text).group(1))
    lo = game.deal_lines[deal_index - 1].time if deal_index > 0 else float("-inf")
    deadline = time.monotonic() + timeout
    while True:
        game.pump()
        missing = [n for n in game.nicks
                   if not any(e.time > lo and (hand_cards(e.text) or (None,))[0] == number
                              for e in game.private_events(n))]
        if not missing:
            return
        check(time.monotonic() < deadline, "no hand for deal #%d reached %s within %.0f s"
              % (deal_index + 1, ", ".join(missing), timeout))
        time.sleep(0.1)


def main(bot_exe, replay_exe):
    with IRCd(max_penalty_time=None) as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, burst=None, line_ms=None)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib, timeout=2 * TIMEOUT)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            # At 1.5 s a line, a deal of 8 hands and its lines takes ~20 s.
            game.timeout = 4 * TIMEOUT
            t0 = time.monotonic()
            game.open()
            t_dealt = time.monotonic() - t0
            wait_deal_hands(game, 0, game.timeout)

            # Everybody asks at once.
            mark = game.mark()
            for p in PLAYERS:
                game.client(p).privmsg(BOT_NICK, "hand")
            for p in PLAYERS[:4]:
                game.client(p).privmsg(CHANNEL, "!turn")
            for p in PLAYERS:
                game.wait(lambda e, p=p: e.kind == "private" and same_name(e.nick, p)
                          and e.text.startswith("Your hand"), "%s's asked-for hand" % p, mark)
            # Four !turn in a row while the deal's lines go out: each answer
            # only states the game, so a newer one waiting makes an older
            # one needless (it is dropped): at least the last is answered.
            game.wait(lambda e: e.kind == "room" and
                      any(e.text.startswith(p + ": table ") for p in PLAYERS[:4]),
                      "an answer to the !turn", mark)

            game.play_out(until=lambda g: len(g.deal_lines) >= 2)
            wait_deal_hands(game, 1, game.timeout)
            played = time.monotonic() - t0
            deals = check_hands_at_every_deal(game)

            # Connected all along.
            check(ngircd_registrations(server) == 1,
                  "the bot registered %d times with ngircd" % ngircd_registrations(server))
            quits = kib.find(("QUIT", "PART", "ERROR"), sender=BOT_NICK)
            check(not quits, "the bot left the channel: %r" % quits)
            check(not bot.find(r"connecting again|disconnected|closing the link"),
                  "the bot lost its link: %s" % bot.find(r"connecting again|disconnected"))
            check(bot.running, "the bot is not running")
            check_no_hand_in_channel([kib])
            n_private = check_private_only_to(bot, PLAYERS)

            sent_lines = [l.time for l, _ in bot.sent(commands=("PRIVMSG", "NOTICE"))]
            n = len(sent_lines)
            span = sent_lines[-1] - sent_lines[0] if n > 1 else 0.0
            check(n > 8 * 3, "only %d lines were sent" % n)
            got = len(bot_lines(kib, channel=CHANNEL)) + len(game.private_events())
            check(got == n, "the clients received %d lines of the %d the bot sent" % (got, n))
            # How late ngircd (penalties) relayed the channel lines.
            sent = [l.time for l, line in bot.sent(commands=("PRIVMSG",))
                    if line.split(" ", 2)[1] == CHANNEL]
            arrived = [m.time for m in bot_lines(kib, channel=CHANNEL)]
            lags = sorted(a - s for s, a in zip(sent, arrived))
            # The default pace (auto: ngircd's own model once its 004 is
            # read) never earns a penalty: ngircd relays every line at once.
            check(lags[-1] < 1.0, "a channel line was relayed %.2f s late: the bot was "
                  "penalised" % lags[-1])
        finally:
            bot.cleanup()
        print("irc flood: 8 players, default pacing, ngircd penalties: dealt in %.1f s, %d deals, "
              "%d actions in %.1f s; %d paced lines (%d private) over %.1f s = %.2f lines/s; "
              "channel lines relayed %.2f s late at worst (median %.2f s); "
              "1 registration, never disconnected"
              % (t_dealt, deals, game.actions, played, n, n_private, span,
                 (n - 1) / span if span else 0, lags[-1], lags[len(lags) // 2]))


if __name__ == "__main__":
    run_main(main)
