#!/usr/bin/env python3
"""test_irc_nickserv.py -- a NickServ impostor on a network without services
never receives the bot's password. A real ngircd (no services: anyone may
take the nick NickServ), a client holding the nick NickServ from before
the bot connects, and porrazo-bot with a nickserv_password:

  1. Without nickserv_target: the bot registers and joins, sends no
     IDENTIFY at all, and its log says why (one warning naming
     nickserv_target). The impostor talks to the bot and asks it to
     identify: it gets nothing that holds the password.
  2. With nickserv_target = NickServ@services.porrazo.invalid (the full
     address of services this network does not have): the IDENTIFY goes to
     that address only, which ngircd cannot deliver to a local user of
     another server name, and the impostor still gets nothing.

In both runs the password appears nowhere in the bot's log.

usage: test_irc_nickserv.py BOT REPLAY
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, run_main, CHANNEL, BOT_NICK)

PASSWORD = "ns-Impostor-Bait-4242"
TARGET = "NickServ@services.porrazo.invalid"


def impostor_got(impostor, since):
    """The lines the impostor received since `since` holding the password or
    an IDENTIFY command (the bot may answer its chatter as anyone's)."""
    return [m.line for m in impostor.find(("PRIVMSG", "NOTICE"), since=since)
            if PASSWORD in m.line or m.text.upper().startswith("IDENTIFY")]


def one_run(bot_exe, server, work, name, irc_extra):
    """Starts the bot with irc_extra, lets the impostor tempt it, stops it.
    Returns the bot's log text."""
    watcher = server.client("watcher")
    watcher.join(CHANNEL)
    impostor = server.client("NickServ")
    mark = impostor.mark()
    conf = write_config(work.path("%s.conf" % name), server,
                        irc_extra=dict({"nickserv_password": "${PZ_TEST_NS_PASSWORD}"},
                                       **irc_extra))
    bot = BotProcess(bot_exe, conf, work.path("%s.db" % name),
                     env={"PZ_TEST_NS_PASSWORD": PASSWORD}).start()
    try:
        wait_bot_in_channel(watcher)
        # What a services impostor would say to a bot that just connected.
        impostor.notice(BOT_NICK, "This nickname is registered. Please choose a different "
                                  "nickname, or identify via /msg NickServ IDENTIFY password")
        impostor.privmsg(BOT_NICK, "IDENTIFY")
        impostor.privmsg(BOT_NICK, "help")
        impostor.wait_privmsg(sender=BOT_NICK, notice=None, since=mark)  # answered as anyone
        impostor.sync()
        got = impostor_got(impostor, mark)
        check(not got, "%s: the impostor holding the nick NickServ received %s" % (name, got))
        rc = bot.stop()
        check(rc == 0, "%s: porrazo-bot exited %s after SIGTERM" % (name, rc))
        got = impostor_got(impostor, mark)
        check(not got, "%s: the impostor received %s" % (name, got))
        text = bot.text()
    finally:
        bot.cleanup()
        impostor.quit()
        watcher.quit()
    check(PASSWORD not in text, "%s: the password is in the bot's log" % name)
    return bot, text


def main(bot_exe, replay_exe):
    del replay_exe
    with IRCd() as server, Workdir() as work:
        # 1. No target: no IDENTIFY at all, and a warning.
        bot, text = one_run(bot_exe, server, work, "no-target", {})
        check("nickserv_password is set but nickserv_target is not" in text,
              "no-target: the log does not say why no IDENTIFY was sent:\n%s" % bot.tail())
        sent = [line for _, line in bot.sent(commands=("PRIVMSG", "NOTICE"))
                if "IDENTIFY" in line.upper()]
        check(not sent, "no-target: the bot sent %s" % sent)

        # 2. A services target: IDENTIFY goes there only.
        bot, text = one_run(bot_exe, server, work, "target", {"nickserv_target": TARGET})
        sent = [line for _, line in bot.sent(commands=("PRIVMSG", "NOTICE"))
                if "IDENTIFY" in line.upper()]
        check(sent == ["PRIVMSG %s :IDENTIFY ***" % TARGET],
              "target: the bot's IDENTIFY lines were %s" % sent)
        check("identifying by IDENTIFY to %s" % TARGET in text,
              "target: the log does not say where IDENTIFY went:\n%s" % bot.tail())
    print("irc nickserv: an impostor holding NickServ on ngircd got no password, without "
          "and with nickserv_target (IDENTIFY only to %s)" % TARGET)


if __name__ == "__main__":
    run_main(main)
