#!/usr/bin/env python3
"""test_irc_reload.py -- porrazo-bot takes a new configuration on SIGHUP
without dropping its connection or a game (porrazo-bot on a real ngircd).

  1. The bot starts with channels #porrazo and #gone, owner root. ann and
     bob play a 2-player game in #porrazo; a few moves are made. boss asks
     privately for "games all": as he is not an owner, he gets his own games
     (none).
  2. The file is rewritten: channels #porrazo and #added, owner boss,
     another pacing, the games kept in memory turned off (the game in
     play is then read from the file alone). SIGHUP: the log says the configuration is reloaded and
     pacing changed; the bot JOINs #added and PARTs #gone; boss's "games
     all" now lists game #1.
  3. The file is broken (a bad value, an unknown key) and lists #other.
     SIGHUP: the log says the reload is refused with each error; the bot
     does not join #other, stays in #added, boss is still an owner.
  4. The game in #porrazo is played to its end: the final scores equal
     porrazo-replay's on the exported game, and ngircd saw the bot register
     once (no reconnect).

usage: test_irc_reload.py BOT REPLAY
"""
import os
import signal
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, check_scores_equal_replay, run_main,
                     ngircd_registrations, strip_formatting, scaled, CHANNEL, BOT_NICK,
                     NETWORK)

SEED = 7
PLAYERS = ["ann", "bob"]


def hangup(bot):
    """Sends SIGHUP to the bot; returns the log mark before it."""
    mark = bot.mark()
    os.kill(bot.pid, signal.SIGHUP)
    return mark


def ask_games(boss):
    """boss's private "games all": the bot's first answer."""
    mark = boss.mark()
    boss.privmsg(BOT_NICK, "games all")
    return strip_formatting(boss.wait_privmsg(sender=BOT_NICK, since=mark).text)


def main(bot_exe, replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        for ch in (CHANNEL, "#gone", "#added", "#other"):
            kib.join(ch)
        boss = server.client("boss")
        conf = work.path("bot.conf")
        write_config(conf, server, channels=(CHANNEL, "#gone"), owners=("%s:n:root" % NETWORK,))
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            wait_bot_in_channel(kib, channel="#gone")
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            game.open("to 21")
            game.play_out(until=lambda g: g.step >= 6)
            answer = ask_games(boss)
            # not an owner yet: "games" lists boss's own games (none)
            check("you sit in no game" in answer, "games all before the reload: %r" % answer)

            # 2. A good file: a channel added, one removed, a new owner, pacing.
            write_config(conf, server, channels=(CHANNEL, "#added"),
                         owners=("%s:n:boss" % NETWORK,), burst=10, line_ms=150,
                         bot_extra={"database_games_mib": "0"})
            mk = kib.mark()
            mark = hangup(bot)
            bot.wait_log(r"configuration reloaded from", since=mark)
            bot.wait_log(r"joining #added: added to the configuration", since=mark)
            bot.wait_log(r"pacing as custom", since=mark)
            bot.wait_log(r"games kept in memory: up to 0 MiB \(none\)", since=mark)
            kib.wait_for("JOIN", sender=BOT_NICK, target="#added", since=mk)
            kib.wait_for("PART", sender=BOT_NICK, target="#gone", since=mk)
            answer = ask_games(boss)
            check("#1" in answer and CHANNEL in answer, "games all after the reload: %r" % answer)

            # 3. A broken file: refused whole, nothing changes.
            with open(conf) as f:
                good = f.read()
            bad = good.replace("channels = %s, #added" % CHANNEL,
                               "channels = %s, #added, #other" % CHANNEL)
            bad = bad.replace("burst = 10", "burst = lots") + "frobnicate = yes\n"
            check(bad != good and "#other" in bad, "the broken file was not written as meant")
            with open(conf, "w") as f:
                f.write(bad)
            mk = kib.mark()
            mark = hangup(bot)
            bot.wait_log(r"reload refused: .* has 2 errors", since=mark)
            check(bot.find(r"reload: .*burst", since=mark), "the bad burst is not in the log")
            check(bot.find(r"reload: .*bot.conf:%d: \[irc test\] has no such key" % bad.count("\n"),
                           since=mark),
                  "the unknown key is not in the log")
            time.sleep(scaled(2))
            check(not kib.find("JOIN", sender=BOT_NICK, since=mk),
                  "the bot joined a channel from a refused file")
            check(not kib.find("PART", sender=BOT_NICK, since=mk),
                  "the bot left a channel on a refused file")
            answer = ask_games(boss)
            check("#1" in answer, "boss is no longer an owner after a refused reload: %r" % answer)

            # 4. The game goes on to its end, on the same connection.
            game.play_out()
            board = game.finish()
            board, state, _ = check_scores_equal_replay(game, bot_exe, replay_exe, db)
            regs = ngircd_registrations(server)
            check(regs == 1, "the bot registered %d times: a reload dropped the link" % regs)
        finally:
            bot.cleanup()
        print("irc reload: #added joined, #gone parted, owner and pacing changed, a broken "
              "file refused; the game in %s went on to %s = replay %s, one registration"
              % (CHANNEL, dict(board), state["scores"]))


if __name__ == "__main__":
    run_main(main)
