#!/usr/bin/env python3
"""test_irc_first_contact.py -- a person's first line binds their nick to
their user@host without an fsync of its own, and a SIGKILL right after the
reply still finds the binding (porrazo-bot on a real ngircd).

The adapter writes a first contact's "nick:" and "mask:" entries in one
transaction committed to the -wal without an fsync (host_kv_hold), before
the command; a command that writes fsyncs the -wal with them.

  1. eve's first line is "!turn" (a command that writes nothing); the bot
     answers; it is SIGKILLed at once; the database (read with sqlite3, as
     the restarted bot reads it) binds n:eve to eve's user@host.
  2. Restarted, dora's first line is "!new 2" (a command that writes: her
     seat in a new lobby); the bot answers; SIGKILL at once; the lobby and
     dora's binding are both in the database.
  3. Restarted, dora gone, someone else (USER evil) takes the nick "dora"
     and says "!turn": the bot, knowing dora's user@host from before the
     kill, tells them privately that the nick is a seated player's.

usage: test_irc_first_contact.py BOT REPLAY
"""
import os
import sqlite3
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, BotProcess, Workdir, write_config, wait_bot_in_channel,  # noqa: E402
                     check, run_main, BOT_NICK, CHANNEL, NETWORK)

SCOPE = "irc:" + NETWORK


def kv(db, key):
    """The kv value of key in the IRC network's scope, or None."""
    con = sqlite3.connect(db)
    try:
        row = con.execute("SELECT value FROM kv WHERE scope = ? AND key = ?",
                          (SCOPE, key)).fetchone()
        return None if row is None else row[0]
    finally:
        con.close()


def lobbies_of(db, player):
    """How many games seat player on the IRC network."""
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id "
                           "WHERE g.network = ? AND s.player = ?",
                           (NETWORK, player)).fetchone()[0]
    finally:
        con.close()


def first_line_then_kill(server, bot, nick, user, text):
    """A new client nick (ident user) joins and says text; waits for the
    bot's channel line naming nick, SIGKILLs the bot at once; returns the
    client, still connected."""
    c = server.client(nick, user=user)
    c.join(CHANNEL)
    mark = c.mark()
    c.privmsg(CHANNEL, text)
    reply = c.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, pattern=nick, since=mark)
    bot.kill()
    print("irc first contact: %s said %r, the bot answered %r, SIGKILLed" % (nick, text,
                                                                            reply.text[:50]))
    return c


def check_bound(db, nick, user):
    """Checks that n:nick is bound to user's user@host and named nick;
    returns the mask."""
    mask = kv(db, "mask:n:" + nick)
    check(mask is not None and mask.startswith(user + "@"),
          "after the SIGKILL, n:%s is bound to %r, not to %s's user@host" % (nick, mask, user))
    check(kv(db, "nick:n:" + nick) == nick,
          "after the SIGKILL, n:%s's nick is %r" % (nick, kv(db, "nick:n:" + nick)))
    return mask


def main(bot_exe, replay_exe):
    del replay_exe  # the IRC tests' common arguments
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db).start()
        try:
            wait_bot_in_channel(kib)
            eve = first_line_then_kill(server, bot, "eve", "eve", "!turn")
            mask = check_bound(db, "eve", "eve")
            eve.close()

            mark = kib.mark()
            bot.start()
            wait_bot_in_channel(kib, since=mark)
            dora = first_line_then_kill(server, bot, "dora", "dora", "!new 2")
            check(lobbies_of(db, "n:dora") == 1, "after the SIGKILL, dora sits at %d tables"
                  % lobbies_of(db, "n:dora"))
            mask = check_bound(db, "dora", "dora")
            kmark = kib.mark()
            dora.close()
            kib.wait_for("QUIT", sender="dora", since=kmark)

            mark = kib.mark()
            bot.start()
            wait_bot_in_channel(kib, since=mark)
            evil = server.client("dora", user="evil")
            evil.join(CHANNEL)
            emark = evil.mark()
            evil.privmsg(CHANNEL, "!turn")
            warning = evil.wait_privmsg(sender=BOT_NICK, pattern="belongs to a player seated",
                                        since=emark)
            check(kv(db, "mask:n:dora") == mask, "dora's binding changed to %r"
                  % kv(db, "mask:n:dora"))
            evil.close()
            print("irc first contact: bindings found after SIGKILLs (%s); a stranger on dora's "
                  "nick told %r" % (mask, warning.text[:40]))
        finally:
            bot.cleanup()


if __name__ == "__main__":
    run_main(main)
