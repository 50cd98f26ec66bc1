#!/usr/bin/env python3
"""test_irc_robots.py -- computer players on IRC: porrazo-bot on a real
ngircd, its computer players thinking on the worker thread while the loop
serves the channel.

  1. ann alone: "!new 2 bot strong to 11" seats Robot 1 (strong); ann plays
     her turns as the scripted players do (she sees only what the bot
     says), the computer player moves by itself a second after each save
     (robot_delay = 1), and the game ends with the board equal to
     porrazo-replay's on the exported game.
  2. In #four, cat and dan with two computer players ("!new 4 partners to
     11", "!join", "!addbot 2"): a partnership game played to its end, the
     board equal to the replay of game 2.
  3. Nobody but ann, cat and dan ever got a private line from the bot (its log
     of what it sent), and "!top bots" in #porrazo names Robot (strong).

usage: test_irc_robots.py BOT REPLAY
"""
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, replay, run_main, strip_formatting,
                     check_private_only_to, CHANNEL, BOT_NICK)

SEED = 31
FOUR = "#four"


def check_board(game, bot_exe, replay_exe, db, game_id):
    """The final board equals porrazo-replay's scores of game_id."""
    _, state = replay(bot_exe, replay_exe, db, game_id=game_id)
    check(state.get("phase") == "game_over", "game %d's replay does not end it" % game_id)
    board = game.board()
    check(list(board.values()) == list(state["scores"]),
          "game %d: board %s differs from replay %s" % (game_id, board, state["scores"]))
    return board


def main(bot_exe, replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        kib.join(FOUR)
        conf = write_config(work.path("bot.conf"), server, channels=(CHANNEL, FOUR),
                            bot_extra={"robot_delay": "1"})
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            wait_bot_in_channel(kib, channel=FOUR)
            t0 = time.monotonic()
            one = IRCGame(server, bot, ["ann"], observer=kib)
            mark = one.mark()
            one.client("ann").privmsg(CHANNEL, "!new 2 bot strong to 11")
            one.wait(lambda e: e.kind == "room" and "Robot 1 (strong) sits down (2 of 2)" in e.text,
                     "Robot 1 (strong) to sit down", mark)
            outcome, e = one.await_status(mark, None)
            one.settle(mark, e)
            one.play_out()
            one.finish(sides=2)
            board1 = check_board(one, bot_exe, replay_exe, db, 1)
            check(one.robot_moves > 5, "only %d moves of the computer player were seen"
                  % one.robot_moves)
            first = time.monotonic() - t0

            four = IRCGame(server, bot, ["cat", "dan"], observer=kib, channel=FOUR)
            four.open("partners to 11", robots=2)
            four.play_out()
            four.finish(sides=2)  # partnerships: one line per side
            board2 = check_board(four, bot_exe, replay_exe, db, 2)

            n_private = check_private_only_to(bot, ["ann", "cat", "dan"])
            mark = kib.mark()
            kib.privmsg(CHANNEL, "!top bots")
            top = strip_formatting(kib.wait_for("PRIVMSG", sender=BOT_NICK, target=CHANNEL,
                                                since=mark).text)
            check("Robot (strong)" in top, "!top bots answered %r" % top)
        finally:
            bot.cleanup()
        print("irc robots: ann vs Robot 1 (strong) to 11: %d of her actions, %d of its, final %s "
              "in %.0f s; cat and dan with two computer players in partnerships: %d actions, "
              "%d computer moves, final %s; %d private lines, all to people"
              % (one.actions, one.robot_moves, dict(board1), first, four.actions,
                 four.robot_moves, dict(board2), n_private))


if __name__ == "__main__":
    run_main(main)
