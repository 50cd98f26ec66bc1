#!/usr/bin/env python3
"""test_irc_reload_refused.py -- SIGHUP never takes a file that a start
would refuse (porrazo-bot on a real ngircd).

The bot runs with the prefix "?" and the owner boss. Its configuration file
is then replaced, each time followed by SIGHUP, by:

  1. an empty file (": > bot.conf");
  2. the same file cut before its owners line, [irc test] and all (a file
     written half-way);
  3. the same file with an error (a prefix too long, an unknown key);
  4. the same file with its network renamed: the running [irc test] is
     missing.

Each time the log says why the reload is refused, never that it was
reloaded; "?turn" is still answered (and "!turn" never is), and boss's
private "games all" still gets an owner's answer. Last, the good file with
the prefix "!" is taken, so the refusals were not a reload that never
works.

usage: test_irc_reload_refused.py BOT REPLAY
"""
import os
import signal
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, run_main, strip_formatting, scaled, CHANNEL, BOT_NICK, NETWORK)


def hangup(bot):
    """Sends SIGHUP to the bot; returns the log mark before it."""
    mark = bot.mark()
    os.kill(bot.pid, signal.SIGHUP)
    return mark


def obeys(kib, boss, prefix):
    """The bot answers prefix + "turn" in the channel, naming that prefix,
    and boss as an owner."""
    mark = kib.mark()
    kib.privmsg(CHANNEL, prefix + "turn")
    answer = strip_formatting(kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                                           since=mark).text)
    check("say %snew" % prefix in answer, "%sturn answered %r" % (prefix, answer))
    mark = boss.mark()
    boss.privmsg(BOT_NICK, "games all")
    answer = strip_formatting(boss.wait_privmsg(sender=BOT_NICK, since=mark).text)
    check("no game is open" in answer, "boss is not an owner: %r" % answer)


def main(bot_exe, replay_exe):
    del replay_exe  # the IRC tests' common arguments
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        boss = server.client("boss")
        conf = work.path("bot.conf")
        write_config(conf, server, owners=("%s:n:boss" % NETWORK,), bot_extra={"prefix": "?"})
        with open(conf) as f:
            good = f.read()
        bot = BotProcess(bot_exe, conf, work.path("game.db")).start()
        try:
            wait_bot_in_channel(kib)
            obeys(kib, boss, "?")
            cases = [
                ("empty", "", r"reload refused: .*bot\.conf is empty"),
                ("cut before its owners", good[:good.index("owners")],
                 r"reload refused: no \[irc NAME\] or \[matrix NAME\] section in .*bot\.conf"),
                ("with errors", good.replace("prefix = ?", "prefix = ?!?!?!?!?!") + "frob = 1\n",
                 r"reload refused: .*bot\.conf has 2 errors"),
                ("without [irc %s]" % NETWORK, good.replace("[irc %s]" % NETWORK, "[irc other]"),
                 r"reload refused: .*bot\.conf lacks 1 running network"),
            ]
            for what, text, why in cases:
                check(text != good, "the %s file was not written as meant" % what)
                with open(conf, "w") as f:
                    f.write(text)
                mark = hangup(bot)
                line = bot.wait_log(why, since=mark)
                obeys(kib, boss, "?")
                check(not bot.find(r"configuration reloaded", since=mark),
                      "the %s file was taken" % what)
                print("ok: %s file refused: %s" % (what, line.text.split(": ", 1)[1]))
            check(bot.find(r"reload: \[irc %s\] is running and is not in" % NETWORK),
                  "the missing network is not named")
            mark = kib.mark()
            kib.privmsg(CHANNEL, "!turn")
            time.sleep(scaled(1.5))
            check(not kib.find("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark),
                  "the prefix fell back to '!'")
            # The good file with another prefix is taken.
            with open(conf, "w") as f:
                f.write(good.replace("prefix = ?", "prefix = !"))
            mark = hangup(bot)
            bot.wait_log(r"configuration reloaded from", since=mark)
            obeys(kib, boss, "!")
        finally:
            bot.cleanup()
        print("irc reload refused: an empty, a cut, an erroneous file and one without the "
              "running network; the prefix and the owners stayed; a good file then taken")


if __name__ == "__main__":
    run_main(main)
