#!/usr/bin/env python3
"""test_irc_nick.py -- a player changes nick in the middle of a game over IRC
and keeps its seat. Three players (ann, bob, cat) and a kibitzer on a real
ngircd; porrazo-bot with private_notice = true (hands come as NOTICEs).

  1. When it is bob's turn, bob becomes "bobby" (NICK). bobby asks for his
     hand privately and plays on: every play of his is accepted, his hands
     come to "bobby" as NOTICEs, the channel's status lines name "bobby",
     and the bot never writes to "bob" again.
  2. The bot is stopped (SIGTERM) and started again on its database: it
     still knows bobby (his "hand" is answered with his cards, his plays are
     accepted), and the game is played to its end; the final board equals
     porrazo-replay's on the exported game.
  3. Meanwhile someone else takes the free nick "bob" and asks the bot for
     "hand" privately: he must not get bobby's cards (he plays in no game).

usage: test_irc_nick.py BOT REPLAY
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, check_scores_equal_replay, hand_cards,
                     check_no_hand_in_channel, check_private_only_to, run_main, same_name,
                     strip_formatting, CHANNEL, BOT_NICK)

PLAYERS = ["ann", "bob", "cat"]
OPTIONS = "to 21"
SEED = 3131
OLD, NEW = "bob", "bobby"


def plays_by(game, nick, since_actions):
    return sum(1 for a in game.log[since_actions:] if a == nick)


def main(bot_exe, replay_exe):
    problems = []
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, burst=20, line_ms=100,
                            private_notice=True)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        impostor = None
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            game.log = []  # who acted, action by action
            play_one = game.play_one

            def logged_play_one():
                actor = game.table.actor
                outcome, line = play_one()
                if outcome == "status":
                    game.log.append(actor)
                return outcome, line
            game.play_one = logged_play_one

            game.open(OPTIONS)
            game.play_out(until=lambda g: g.actions >= 8 and g.table.actor == OLD
                          and g.table.kind == "play")
            check(not game.table.over, "the game ended before bob's turn came")

            # 1. bob -> bobby, at his turn.
            bob = game.client(OLD)
            mark = game.mark()
            bot_mark = bot.mark()
            bob.change_nick(NEW)
            kib.wait_for("NICK", sender=OLD, pattern="^%s$" % NEW)
            game.renamed(OLD, NEW)
            game.client(NEW).privmsg(BOT_NICK, "hand")
            e = game.wait(lambda e: e.kind == "private" and same_name(e.nick, NEW)
                          and hand_cards(e.text) is not None, "bobby's hand", mark)
            check(e.msg.command == "NOTICE", "bobby's hand came as %s" % e.msg.command)
            check(hand_cards(e.text)[1], "bobby's hand is empty: %s" % e.text)
            n_before = len(game.log)
            game.play_out(until=lambda g: plays_by(g, NEW, n_before) >= 3)
            check(not game.table.over, "the game ended before bobby played 3 times")
            after = [x.text for x in game.events[mark:] if x.kind == "room"]
            check(any("%s to play" % NEW in t for t in after), "no status line names bobby")
            check(not any(" %s to play" % OLD in t or t.startswith(OLD + " ") for t in after),
                  "a status line still names bob: %s"
                  % [t for t in after if " %s to play" % OLD in t][:2])
            to_old = [l for l, line in bot.sent(bot_mark, commands=("PRIVMSG", "NOTICE"))
                      if line.split(" ", 2)[1].lower() == OLD]
            check(not to_old, "the bot still writes to bob: %s" % to_old[:2])

            # 2. The bot restarts and still knows bobby.
            game.quiet(1.0)
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
            mark = game.mark()
            obs_mark = kib.mark()
            bot.start()
            wait_bot_in_channel(kib, since=obs_mark)
            game.back_after_bot_restart(mark)
            mark = game.mark()
            game.client(NEW).privmsg(BOT_NICK, "hand")
            e = game.wait(lambda e: e.kind == "private" and same_name(e.nick, NEW)
                          and (hand_cards(e.text) is not None or "not in a game" in e.text),
                          "bobby's hand after the restart", mark)
            check(hand_cards(e.text) is not None,
                  "after the restart the bot does not know bobby: %s" % e.text)
            n_before = len(game.log)
            game.play_out(until=lambda g: plays_by(g, NEW, n_before) >= 2)

            # 3. Someone else takes the nick "bob".
            if not game.table.over:
                game.quiet(1.0)
                impostor = server.client(OLD)
                impostor.join(CHANNEL)
                imark = impostor.mark()
                impostor.privmsg(BOT_NICK, "hand")
                impostor.sync()
                got = impostor.wait_privmsg(sender=BOT_NICK, notice=None, since=imark)
                if hand_cards(got.text) is not None:
                    problems.append("a newcomer who took bobby's old nick \"bob\" got bobby's "
                                    "hand: %r" % strip_formatting(got.text))
                impostor.quit()
                # bobby speaks: the bot writes to him again.
                mark = game.mark()
                game.client(NEW).privmsg(BOT_NICK, "hand")
                game.wait(lambda e: e.kind == "private" and same_name(e.nick, NEW)
                          and hand_cards(e.text) is not None, "bobby's hand again", mark)

            game.play_out()
            game.finish()
            board, state, n_actions = check_scores_equal_replay(game, bot_exe, replay_exe, db)
            check(game.actions == n_actions, "%d actions accepted, %d exported"
                  % (game.actions, n_actions))
            check_no_hand_in_channel([kib] + [game.client(p) for p in game.nicks])
            check_private_only_to(bot, PLAYERS + [NEW] + ([OLD] if impostor else []))
            privates = game.private_events()
            check(all(x.msg.command == "NOTICE" for x in privates),
                  "private_notice = true, yet PRIVMSGs came: %s"
                  % [x.line() for x in privates if x.msg.command != "NOTICE"][:2])
            total_bobby = plays_by(game, NEW, 0)
        finally:
            bot.cleanup()
        check(not problems, "; ".join(problems))
        print("irc nick: bob became bobby at his turn and played %d times (NOTICE hands), "
              "bot restarted and still knew him; %d actions, final %s = replay %s"
              % (total_bobby, n_actions, dict(board), state["scores"]))


if __name__ == "__main__":
    run_main(main)
