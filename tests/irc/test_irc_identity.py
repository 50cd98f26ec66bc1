#!/usr/bin/env python3
"""test_irc_identity.py -- a seat cannot be stolen by taking a player's nick
on a network without services accounts (ngircd): the seat is bound to the
nick and the user@host its player had.

  1. bob (USER pzbob) opens a 2-player table and ann joins; they play until
     it is bob's turn.
  2. bob's connection drops (the socket closes: the channel sees his QUIT).
  3. Another connection takes the nick "bob" with another user name (USER
     evil; ngircd gives every test client the same host, so the ident makes
     the other user@host) and joins the channel. It asks for "hand"
     privately, says "!play CARD" with one of bob's cards and "!stop" in the
     channel: each is answered as to a stranger ("not in a game", "not
     playing in this game", "only the players"); the game goes on, nothing of
     bob's reaches it (no hand, no turn prompt, no private line for bob), and
     it is told once, privately, that the nick belongs to a seated player
     and what to do (identify with services, ask the table for a
     substitute).
  3b. The newcomer quits; someone already connected (USER evil3, as
     "mallory", in the channel) takes "bob" by NICK: the same single
     warning, and nothing of bob's; NICK away and back again: no second
     warning.
  4. The newcomer quits; the real bob reconnects (same user@host) as
     "bob_", rejoins, takes back "bob" (NICK) and has his seat: his hand,
     and he plays on.
  5. The bot is stopped; bob drops while it is down (it misses his QUIT);
     another connection (USER evil2) takes "bob", outside the channel. The
     bot starts again; when bob's turn comes his prompt waits instead of
     going to "bob", whom the bot has not seen from bob's user@host on this
     connection; the newcomer then joins (another user@host): still
     nothing, ever, for the newcomer. bob comes back and plays on; the game
     ends with the board equal to porrazo-replay's on the exported game.

usage: test_irc_identity.py BOT REPLAY
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config,  # noqa: E402
                     wait_bot_in_channel, check, check_scores_equal_replay, hand_cards,
                     check_no_hand_in_channel, run_main, same_name, strip_formatting,
                     CHANNEL, BOT_NICK)

PLAYERS = ["bob", "ann"]  # bob opens the table: he is its creator
OPTIONS = "to 21"
SEED = 4242
WARNING = re.compile(r"nick bob belongs to a player seated at a table here.*"
                     r"substitute.*services", re.S)


def bot_privates(client, since=0):
    """The bot's PRIVMSGs and NOTICEs to client, formatting stripped."""
    return [strip_formatting(m.text) for m in client.history[since:]
            if m.command in ("PRIVMSG", "NOTICE") and same_name(m.nick, BOT_NICK) and m.to_me]


def act(game):
    """The player to act (not bob) makes one move; returns without waiting
    for the next player's hand (bob is away)."""
    while True:
        mark = game.mark()
        actor = game.say(game.table.next_line(game.step))
        game.step += 1
        outcome, e = game.await_status(mark, actor)
        if outcome == "status":
            game.actions += 1
            return
        check(outcome == "choice", "the bot refused %s's move: %s" % (actor, e.line()))
        game.choices += 1
        game.table.need_capture = True


def restart_with_newcomer_on_the_nick(game, server, bot, kib):
    """Stage 5: the bot stops; bob drops (the bot misses his QUIT); another
    connection takes "bob" (USER evil2), outside the bot's channels. The bot
    comes back; when bob's turn comes, his prompt waits: it is not sent to
    "bob" until bob has been seen from his own user@host. The newcomer then
    joins the channel (the JOIN shows another user@host): still nothing.
    bob comes back and gets his hand."""
    game.quiet(1.0)
    check(bot.stop() == 0, "porrazo-bot did not exit 0 after SIGTERM")
    bob = game.client("bob")
    kmark = kib.mark()
    bob.close()
    kib.wait_for("QUIT", sender="bob", since=kmark)
    other = server.client("bob", user="evil2")
    try:
        mark = game.mark()
        obs_mark = kib.mark()
        bot_mark = bot.mark()
        bot.start()
        wait_bot_in_channel(kib, since=obs_mark)
        game.back_after_bot_restart(mark)
        check(game.table.actor == "ann", "not ann's turn after the restart: %s"
              % game.table.actor)
        act(game)
        check(game.table.actor == "bob", "not bob's turn after ann's move: %s"
              % game.table.actor)
        game.quiet(2.0)
        other.sync()
        got = bot_privates(other)
        check(not got, "with the bot restarted, the newcomer on bob's nick got: %s" % got)
        to_bob = [line for _, line in bot.sent(bot_mark, commands=("PRIVMSG", "NOTICE"))
                  if line.split(" ", 2)[1].lower() == "bob"]
        check(not to_bob, "the bot wrote to \"bob\" before seeing who holds it: %s" % to_bob)
        other.join(CHANNEL)
        game.quiet(1.5)
        other.sync()
        got = bot_privates(other)
        check(not got, "the newcomer on bob's nick got, once in the channel: %s" % got)
        kmark = kib.mark()
        other.quit()
        kib.wait_for("QUIT", sender="bob", since=kmark)
    finally:
        other.close()
    mark = game.mark()
    bob.reconnect()
    bob.join(CHANNEL)
    bob.privmsg(BOT_NICK, "hand")
    game.fresh_hand("bob", mark, None)


def main(bot_exe, replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, burst=20, line_ms=100)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        impostor = None
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            bob = game.client("bob")
            check(bob.user == "pzbob", "the harness's default USER changed: %s" % bob.user)
            game.open(OPTIONS)
            game.play_out(until=lambda g: g.actions >= 4 and g.table.actor == "bob"
                          and g.table.kind == "play")
            check(not game.table.over, "the game ended before bob's turn came")
            bobs_cards = list(game.table.hand["bob"])
            check(bobs_cards, "bob has no cards at his turn")

            # 2. bob's connection drops.
            game.quiet(1.0)
            kmark = kib.mark()
            bot_mark = bot.mark()
            bob.close()
            kib.wait_for("QUIT", sender="bob", since=kmark)

            # 3. Someone else takes the nick from another user@host.
            impostor = server.client("bob", user="evil")
            impostor.join(CHANNEL)
            rmark = game.mark()
            impostor.privmsg(BOT_NICK, "hand")
            impostor.wait_privmsg(sender=BOT_NICK, notice=None, pattern="not in a game")
            impostor.privmsg(CHANNEL, "!play %s" % bobs_cards[0])
            e = game.wait(lambda e: e.kind == "room" and e.text.startswith("bob: "),
                          "the answer to the newcomer's !play", rmark)
            check("not playing in this game" in e.text,
                  "the newcomer's !play was answered %r" % e.text)
            smark = game.mark()
            impostor.privmsg(CHANNEL, "!stop")
            e = game.wait(lambda e: e.kind == "room" and e.text.startswith("bob: "),
                          "the answer to the newcomer's !stop", smark)
            check("only the players" in e.text, "the newcomer's !stop was answered %r" % e.text)
            impostor.sync()
            game.quiet(1.5)
            room_after = [x.text for x in game.events[rmark:] if x.kind == "room"]
            check(not any("abandoned" in t for t in room_after),
                  "the newcomer stopped bob's game: %s" % room_after)
            check(game.table.actor == "bob" and not game.table.over,
                  "the game moved while bob was away: %s" % room_after)
            got = bot_privates(impostor)
            warnings = [t for t in got if WARNING.search(t)]
            check(len(warnings) == 1, "the newcomer was told %d times that the nick is a "
                  "seated player's (once expected): %s" % (len(warnings), got))
            leaks = [t for t in got if hand_cards(t) is not None
                     or re.search(r"Your (hand|turn)|Reminder", t)]
            check(not leaks, "bob's private lines reached the newcomer: %s" % leaks)
            check(bot.find(r"bob \(evil@[^)]*\) is not the player n:bob, who sits at a table",
                           since=bot_mark),
                  "the bot's log does not say it kept bob's seat from the newcomer")
            mine = [l for l, line in bot.sent(bot_mark, commands=("PRIVMSG", "NOTICE"))
                    if line.split(" ", 2)[1].lower() == "bob"]
            check(len(mine) == len(got), "the bot sent %d private lines to \"bob\" while bob "
                  "was away, the newcomer received %d" % (len(mine), len(got)))
            kmark = kib.mark()
            impostor.quit()
            kib.wait_for("QUIT", sender="bob", since=kmark)

            # 3b. Someone already connected takes the nick by NICK.
            renamer = impostor = server.client("mallory", user="evil3")
            renamer.join(CHANNEL)
            rmark, bot_mark, kmark = renamer.mark(), bot.mark(), kib.mark()
            renamer.change_nick("bob")
            kib.wait_for("NICK", sender="mallory", pattern="^bob$", since=kmark)
            renamer.wait_privmsg(sender=BOT_NICK, notice=None, pattern="belongs to a player",
                                 since=rmark)
            renamer.privmsg(BOT_NICK, "hand")
            renamer.wait_privmsg(sender=BOT_NICK, notice=None, pattern="not in a game",
                                 since=rmark)
            renamer.change_nick("mallory")  # and back: told once, not at every NICK
            renamer.change_nick("bob")
            renamer.sync()
            game.quiet(1.5)
            got = bot_privates(renamer, rmark)
            warnings = [t for t in got if WARNING.search(t)]
            check(len(warnings) == 1, "the newcomer who took bob's nick by NICK was told %d "
                  "times that it is a seated player's (once expected): %s"
                  % (len(warnings), got))
            leaks = [t for t in got if hand_cards(t) is not None
                     or re.search(r"Your (hand|turn)|Reminder", t)]
            check(not leaks, "bob's private lines reached the one who took his nick: %s" % leaks)
            check(bot.find(r"bob \(evil3@[^)]*\) took the nick of the player n:bob, who sits "
                           r"at a table: still known as n:mallory", since=bot_mark),
                  "the bot's log does not say who took bob's nick by NICK")
            check(game.table.actor == "bob" and not game.table.over,
                  "the game moved while bob was away")
            kmark = kib.mark()
            renamer.quit()
            kib.wait_for("QUIT", sender="bob", since=kmark)

            # 4. The real bob comes back from his own user@host as "bob_" (as
            # when his dead connection still held "bob"), takes "bob" back and
            # plays on.
            bmark = bob.mark()
            bob.reconnect("bob_")
            bob.join(CHANNEL)
            mark = game.mark()
            bob.change_nick("bob")
            kib.wait_for("NICK", sender="bob_", pattern="^bob$")
            bob.privmsg(BOT_NICK, "hand")
            game.fresh_hand("bob", mark, None)
            n_back = game.actions
            game.play_out(until=lambda g: g.actions >= n_back + 2 and g.table.actor == "ann"
                          and g.table.kind == "play" and g.table.hand["ann"]
                          and g.table.hand["bob"])

            # 5. The bot is down when bob drops and another takes the nick.
            if not game.table.over:
                restart_with_newcomer_on_the_nick(game, server, bot, kib)
            game.play_out()
            game.finish()
            board, state, n_actions = check_scores_equal_replay(game, bot_exe, replay_exe, db)
            check(game.actions == n_actions, "%d actions accepted, %d exported"
                  % (game.actions, n_actions))
            back = bot_privates(bob, bmark)
            check(not any(WARNING.search(t) for t in back),
                  "the real bob was told his nick is someone else's: %s"
                  % [t for t in back if WARNING.search(t)])
            check_no_hand_in_channel([kib, game.client("ann")])
        finally:
            bot.cleanup()
            if impostor is not None:
                impostor.close()
        print("irc identity: bob dropped at his turn; a newcomer as bob (another user@host) "
              "got no hand, no play, no stop and one warning, and so did one who took the nick "
              "by NICK; another, there while the bot restarted, got nothing; bob came back "
              "and the game ended: %d actions, "
              "final %s = replay %s"
              % (n_actions, dict(board), state["scores"]))


if __name__ == "__main__":
    run_main(main)
