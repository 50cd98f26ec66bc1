#!/usr/bin/env python3
"""test_irc_full.py -- a full database on IRC (issue 25, item 8): every
player whose command is refused is told, once a minute each, not once for
the whole bot.

Four players (ann, bob, cat, dan) sit at a table on a real ngircd; the
database is then filled to its cap (max_database_mb = 1, as
tests/bot/storage_faults.py fills it, once the bot's outbox is empty so
that nothing it deletes makes room). Each player says "!pause" (a vote:
it must be written) twice in turn. Checks:
  * each player is told once in the channel that the bot cannot save
    ("NICK: I can't save right now ... not taken"), the first and the last
    to speak alike; a player's second refusal within the minute gets
    nothing more (one reply a minute per player);
  * the log says so without writing the same error line eight times;
  * once there is room again the vote is taken, and nothing of the game
    was lost (the exported record is the one from before).

usage: test_irc_full.py BOT REPLAY
"""
import os
import sqlite3
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, strip_formatting, run_main, log, BOT_NICK,
                     CHANNEL, NETWORK)
import storage_faults as sf  # noqa: E402  (tests/bot: fill_mib())

PLAYERS = ["ann", "bob", "cat", "dan"]
SEED = 11
CANT_SAVE = "I can't save right now"


def outbox_rows(db):
    c = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        return c.execute("SELECT count(*) FROM outbox WHERE network = ?",
                         (NETWORK,)).fetchone()[0]
    finally:
        c.close()


def export(bot_exe, db):
    return subprocess.run([bot_exe, "--export", "1", "--db", db], check=True,
                          capture_output=True, text=True, timeout=30).stdout


def main(bot_exe, replay_exe):
    del replay_exe
    with IRCd() as server, Workdir(prefix="pz-bot-irc-full-") as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, log_level="info",
                            bot_extra={"max_database_mb": "1"})
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            game.open()
            game.quiet(1.5)
            deadline = time.monotonic() + 30
            while outbox_rows(db) != 0:
                check(time.monotonic() < deadline, "the outbox never emptied")
                time.sleep(0.1)
            before = export(bot_exe, db)
            rows = sf.fill_mib(db, 1)
            mark, bot_mark = kib.mark(), bot.mark()
            for _ in range(2):
                for p in PLAYERS:
                    game.client(p).privmsg(CHANNEL, "!pause")
                    time.sleep(0.2)
            game.quiet(2.0)
            said = [strip_formatting(m.text) for m in kib.find("PRIVMSG", sender=BOT_NICK,
                                                                  target=CHANNEL, since=mark)]
            log("the channel read: %s" % said)
            for p in PLAYERS:
                told = [t for t in said if t.startswith(p + ": ") and CANT_SAVE in t]
                check(len(told) == 1, "%s was told %d times that the bot cannot save (once "
                      "expected): %s" % (p, len(told), said))
                check("not taken" in told[0], "%s was not told the vote was not taken: %r"
                      % (p, told[0]))
            check(len(said) == len(PLAYERS), "the channel read more than the refusals: %s"
                  % said)
            errors = bot.find(r"error: test: .*(full|disk)", since=bot_mark)
            check(errors, "no log line for the full database")
            check(len(errors) < 2 * len(PLAYERS), "the same error logged once per refusal: %d"
                  % len(errors))
            check(export(bot_exe, db) == before, "the game changed while the database was full")

            c = sqlite3.connect(db, isolation_level=None, timeout=10)
            c.execute("DROP TABLE filler")
            c.close()
            mark = kib.mark()
            game.client("ann").privmsg(CHANNEL, "!pause")
            kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL, since=mark,
                         pattern="votes to pause")
            check(bot.running, "the bot died on the full database")
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s" % rc)
            text = bot.text(bot_mark)
            check("(last message repeated" in text, "the repeated error was not counted:\n%s"
                  % text[-2000:])
        finally:
            bot.cleanup()
        print("irc full: %d filler rows; 4 players refused twice each: each told once; %d "
              "error line(s) in the log and a count; the vote taken once there was room"
              % (rows, len(errors)))


if __name__ == "__main__":
    run_main(main)
