#!/usr/bin/env python3
"""test_irc_wal.py -- the -wal and -shm deleted beside an idle bot
(porrazo-bot on a real ngircd).

ann and bob play a few moves; the game is exported (another process reading
the database, as an operator would). Then, with nobody speaking, the
database's -wal and -shm are deleted: the bot, watching its folder, logs at
once that it saved what it held and started a fresh -wal, without waiting
for a write. It is then SIGKILLed, and the export of the restarted database
equals the one taken before the deletion: no move lost.

usage: test_irc_wal.py BOT REPLAY
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, run_main, scaled, TestFailure)

SEED = 7


def export(bot_exe, db):
    """porrazo-bot --export 1: the scenario, or what it said instead."""
    r = subprocess.run([bot_exe, "--export", "1", "--db", db], capture_output=True, text=True,
                       timeout=30)
    return r.stdout if r.returncode == 0 else r.stderr


def main(bot_exe, replay_exe):
    del replay_exe  # the IRC tests' common arguments
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join("#porrazo")
        conf = write_config(work.path("bot.conf"), server)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, ["ann", "bob"], observer=kib)
            game.open("to 21")
            game.play_out(until=lambda g: g.step >= 6)
            game.quiet(scaled(0.5))
            before = export(bot_exe, db)
            check(before.startswith("{"), "no export: %s" % before)
            mark = bot.mark()
            os.unlink(db + "-wal")
            try:
                os.unlink(db + "-shm")
            except FileNotFoundError:
                pass  # the bot, watching its folder, saved and started afresh already
            try:
                # one line, or two when the bot saw the -wal go before the -shm
                line = bot.wait_log(r"error: database: .*game\.db-wal( \(and its -shm\))? was "
                                    r"deleted", since=mark, timeout=scaled(5))
            except TestFailure:
                line = None  # the moves' fate first
            saved = os.path.exists(db + "-wal")
            bot.kill()
        finally:
            bot.cleanup()
        after = export(bot_exe, db)
        check(after == before, "moves were lost: the export before the deletion was\n%s\n"
              "and after the SIGKILL\n%s" % (before, after))
        check(line is not None and "nothing was lost" in line.text,
              "the log does not say the -wal was lost and saved: %r" % line)
        check(saved, "no new -wal")
        print("irc wal: the -wal and -shm deleted beside the idle bot: saved at once (%s), "
              "every move in the export after a SIGKILL" % line.text.split("error: ", 1)[1][:60])


if __name__ == "__main__":
    run_main(main)
