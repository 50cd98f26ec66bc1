#!/usr/bin/env python3
"""test_irc_restart.py -- a game over IRC that survives the server and the
bot dying under it. Three players (ann, bob, cat) and a kibitzer on a real
ngircd; porrazo-bot with burst 20 / line_ms 100.

  1. After some actions, with the bot idle, ngircd is killed (SIGKILL: no
     goodbye) and started again on the same port. The clients reconnect and
     rejoin; the bot must reconnect by itself (back-off) within ~60 s and
     rejoin #porrazo; the players ask `turn` and `hand` and play on.
  2. The same, but ngircd is killed while the bot is sending a backlog of
     private lines (every player asked for help and rules): lines written
     before the crash may be lost, but after reconnecting the bot must send
     nothing before the server's welcome (ngircd would refuse it with 451
     while the bot marks it sent), and every private line it sends then
     must reach its player. The players resynchronise the same way.
  3. The bot is killed (SIGKILL) right after a player's action was sent and
     started again on the same database: it must reconnect, say in the
     channel that it is back and whose turn it is, and send that player its
     hand.
  4. The bot is killed again while idle and restarted.
Then the game is played to its end: the final board must equal
porrazo-replay's on the exported game, and each player's accepted actions
are all in it (an action sent just before the bot was killed counts only if
the restarted bot shows it was taken).

usage: test_irc_restart.py BOT REPLAY
"""
import os
import random
import re
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config, TIMEOUT,  # noqa: E402
                     wait_bot_in_channel, check, check_scores_equal_replay,
                     check_no_hand_in_channel, check_private_only_to, ngircd_registrations,
                     scaled, run_main, log, CHANNEL, BOT_NICK)

PLAYERS = ["ann", "bob", "cat"]
OPTIONS = "to 21"
SEED = 4242
RECONNECT_MAX = max(60.0, scaled(60))


def reconnect_all(game):
    """Every client (kibitzer first) connects again and rejoins; records
    when each was back (c.back_at)."""
    for c in [game.observer] + [game.client(p) for p in game.nicks]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                c.reconnect()
                c.join(CHANNEL)
                c.back_at = time.monotonic()
                break
            except (OSError, Exception) as e:  # noqa: BLE001 -- the server may still be starting
                if time.monotonic() > deadline:
                    raise
                log("reconnecting %s: %s" % (c.name, e))
                time.sleep(0.2)


def check_resent_after_welcome(game, bot, since):
    """After the bot's reconnection: it sent no message before the server
    welcomed it (ngircd would refuse it: 451), and every private line it
    sent afterwards to a player who was back reached that player."""
    lines = bot.lines[since:]
    conn = next(i for i, l in enumerate(lines) if "connected to" in l.text)
    reg = next(i for i, l in enumerate(lines) if "registered as" in l.text)
    early = [l.text for l in lines[conn:reg] if re.search(r">> (PRIVMSG|NOTICE) ", l.text)]
    check(not early, "the bot sent %d messages before the server welcomed it (ngircd answers "
          "451 and they are lost, though marked sent): %s" % (len(early), early[:3]))
    n = 0
    for l, line in bot.sent(since + reg, commands=("PRIVMSG",)):
        target, text = line.split(" ", 2)[1], line.split(" :", 1)[1]
        c = game.clients.get(target)
        if c is None or getattr(c, "back_at", None) is None or c.back_at > l.time:
            continue
        # The log shows control bytes as '?'.
        rx = re.compile("^" + re.escape(text).replace(r"\?", ".") + "$")
        n += 1
        check(any(rx.match(m.text) for m in c.find("PRIVMSG", sender=BOT_NICK,
                                                  since=c._conn_start)),
              "%s never received %r, sent after the reconnection" % (target, text))
    return n


def restart_server(game, server, bot, busy):
    """Kills ngircd (idle bot, or while the bot has a backlog of private
    lines when busy), starts it again; returns the seconds the bot took to
    be back in the channel."""
    if busy:
        # Every player asks for the help and the rules (9 lines each):
        # more than the burst, so the bot is still sending when the server
        # dies.
        mark = game.mark()
        for p in game.nicks:
            game.client(p).privmsg(BOT_NICK, "help")
            game.client(p).privmsg(BOT_NICK, "rules")
        game.wait(lambda e: e.kind == "private" and not e.text.startswith("Your hand"),
                  "the first help line", mark)
    else:
        game.quiet(1.0)
    bot_mark = bot.mark()
    regs = ngircd_registrations(server)
    server.kill()
    t_down = time.monotonic()
    server.start()
    reconnect_all(game)
    bot.wait_log(r"registered as %s" % BOT_NICK, since=bot_mark, timeout=RECONNECT_MAX)
    wait_bot_in_channel(game.observer, timeout=RECONNECT_MAX)
    back = time.monotonic() - t_down
    check(ngircd_registrations(server) == regs + 1,
          "the bot registered %d times after one server restart"
          % (ngircd_registrations(server) - regs))
    check(bot.find(r"connecting again", since=bot_mark),
          "the bot's log does not say it lost the link and connects again")
    # Whatever the bot still had to send comes right after it rejoined.
    game.quiet(2.0)
    resent = check_resent_after_welcome(game, bot, bot_mark)
    game.resync()
    return back, resent


def restart_bot(game, bot, busy):
    """SIGKILLs the bot (right after an action when busy) and starts it
    again; returns (seconds until its "is back" line, whether the action
    sent before the kill was taken)."""
    before_actor, before_kind = game.table.actor, game.table.kind
    mark = game.mark()
    if busy:
        line = game.table.next_line(game.step)
        game.table.need_capture = False
        game.say(line)
        game.step += 1
        # Before the line reaches the bot, while it works on it, or after.
        time.sleep(random.choice((0, 0, 0.002, 0.005, 0.01, 0.03)))
    else:
        game.quiet(1.0)
    rc = bot.kill()
    check(rc == -9, "porrazo-bot exited %s before SIGKILL" % rc)
    t_down = time.monotonic()
    obs_mark = game.observer.mark()
    bot.start()
    wait_bot_in_channel(game.observer, since=obs_mark, timeout=RECONNECT_MAX)
    e = game.back_after_bot_restart(mark)
    taken = busy and (game.table.actor, game.table.kind) != (before_actor, before_kind)
    return time.monotonic() - t_down, e, taken


def main(bot_exe, replay_exe):
    rng_seed = int(os.environ.get("PZ_IRC_RESTART_SEED", str(int(time.time()))))
    random.seed(rng_seed)
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, burst=20, line_ms=100)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            game.open(OPTIONS)
            game.play_out(until=lambda g: g.actions >= 15)
            back1, _ = restart_server(game, server, bot, busy=False)
            game.play_out(until=lambda g: g.actions >= 30)
            back2, resent = restart_server(game, server, bot, busy=True)
            game.play_out(until=lambda g: g.actions >= 45)
            back3, e3, taken3 = restart_bot(game, bot, busy=True)
            game.actions += taken3
            game.play_out(until=lambda g: g.actions >= 60)
            back4, e4, _ = restart_bot(game, bot, busy=False)
            game.play_out()
            game.finish()

            board, state, n_actions = check_scores_equal_replay(game, bot_exe, replay_exe, db)
            check(game.actions == n_actions,
                  "%d actions accepted over IRC, %d in the exported game"
                  % (game.actions, n_actions))
            check_no_hand_in_channel([kib] + [game.client(p) for p in PLAYERS])
            check_private_only_to(bot, PLAYERS)
            backs = [e.text for e in game.events if e.kind == "room" and " is back" in e.text]
            check(len(backs) == 2, "%d \"is back\" lines for 2 restarts of the bot: %s"
                  % (len(backs), backs))
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
            check(bot.exit_codes == [-9, -9, 0], "exit codes %s" % bot.exit_codes)
        finally:
            bot.cleanup()
        print("irc restart (random seed %d): server killed idle -> bot back in %.1f s; killed "
              "while sending -> back in %.1f s (%d private lines sent after the welcome, all "
              "received); bot SIGKILLed busy (action %s) -> back in %.2f s; "
              "idle -> %.2f s; game finished: %d actions, final %s = replay %s"
              % (rng_seed, back1, back2, resent, "taken" if taken3 else "lost", back3, back4,
                 n_actions, dict(board), state["scores"]))


if __name__ == "__main__":
    run_main(main)
