#!/usr/bin/env python3
"""test_irc_game.py -- a whole Porrazo game over IRC: porrazo-bot on a real
ngircd (loopback, no flood penalties), three scripted players in #porrazo
(ann, bob, cat) and a kibitzer who only watches.

Each player knows only what the bot tells it: the channel's lines and its own
private messages (its hand at every deal and at its turn). Plays alternate
between the channel ("!play 7h") and private messages ("play 7h"). Checks:
  * every action is accepted (a refusal fails the test; R5.5's "capture or
    place?" question is answered and counted);
  * the final board in the channel equals porrazo-replay's final scores on
    the game the bot exports (its seed and actions), seat by seat;
  * every player got a private hand for every deal;
  * no hand is ever shown in the channel, and every player saw exactly the
    channel lines the kibitzer saw;
  * the bot never sent anything privately to anyone but the players (the
    kibitzer's messages, and the bot's own log of what it sent);
  * the game is the very game the same players play through the console
    adapter with the same seed (the exported scenarios are identical);
  * SIGTERM: the bot QUITs (seen in the channel) and exits 0.

usage: test_irc_game.py BOT REPLAY
"""
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bot_irc import (IRCd, IRCGame, BotProcess, Workdir, write_config, scaled,  # noqa: E402
                     wait_bot_in_channel, check, check_scores_equal_replay,
                     check_hands_at_every_deal, check_no_hand_in_channel,
                     check_private_only_to, bot_lines, strip_formatting, run_main, replay,
                     cg, CHANNEL, BOT_NICK)

PLAYERS = ["ann", "bob", "cat"]
OPTIONS = "to 21"   # the default target (61) makes a game of ~1200 lines
SEED = 2054  # a game with two "capture or place?" questions (R5.5)


def console_reference(bot_exe, tmp):
    """The same game played through `porrazo-bot --console` by the same
    scripted players (their choices depend only on what the bot says, so
    the seed makes the same game): its exported scenario."""
    db = os.path.join(tmp, "console.db")
    bot = cg.Bot(bot_exe, db, SEED)
    table = cg.Table(list(PLAYERS))
    cg.open_table(bot, table, len(PLAYERS), OPTIONS)
    cg.play_out(table, bot.send)
    bot.close()
    return replay(bot_exe, None, db, scenario_only=True)


def main(bot_exe, replay_exe):
    with IRCd() as server, Workdir() as work:
        kib = server.client("kibitz")
        kib.join(CHANNEL)
        conf = write_config(work.path("bot.conf"), server, burst=20, line_ms=100)
        db = work.path("game.db")
        bot = BotProcess(bot_exe, conf, db, seed=SEED).start()
        try:
            wait_bot_in_channel(kib)
            game = IRCGame(server, bot, PLAYERS, observer=kib)
            t0 = time.monotonic()
            game.open(OPTIONS)
            game.play_out()
            board = game.finish()
            played = time.monotonic() - t0

            board, state, n_actions = check_scores_equal_replay(game, bot_exe, replay_exe, db)
            deals = check_hands_at_every_deal(game)
            clients = [kib] + [game.client(p) for p in PLAYERS]
            room_lines = check_no_hand_in_channel(clients)
            # Everybody in the channel saw the same lines, in the same order:
            # once each has had a PING answered, ngircd has handed each of
            # them every line it relayed before. The bot may still be sending
            # its last line while the clients are asked in turn (it reached
            # bob and not the kibitzer, asked first, on a busy machine), so
            # the rounds go on until two, a paced line's interval apart, agree
            # on every client's count.
            def channel_lines():
                for c in clients:
                    c.sync()
                return {c: [strip_formatting(m.text) for m in bot_lines(c, channel=CHANNEL)]
                        for c in clients}
            lines, deadline = channel_lines(), time.monotonic() + scaled(20)
            while time.monotonic() < deadline:
                time.sleep(2.0)
                again = channel_lines()
                if all(len(again[c]) == len(lines[c]) for c in clients):
                    break
                lines = again
            seen = lines[kib]
            for p in PLAYERS:
                theirs = lines[game.client(p)]
                check(theirs == seen, "%s saw %d channel lines, the kibitzer %d"
                      % (p, len(theirs), len(seen)))
            # Nothing private to the kibitzer, nor to anyone else (bot's log).
            check(not kib.private_messages(sender=BOT_NICK),
                  "the bot wrote privately to the kibitzer: %r"
                  % kib.private_messages(sender=BOT_NICK)[:3])
            n_private = check_private_only_to(bot, PLAYERS)
            check(len(game.private_events()) == n_private,
                  "the players received %d private messages, the bot logged %d sent"
                  % (len(game.private_events()), n_private))
            check(game.actions == n_actions,
                  "%d actions accepted over IRC, %d in the exported game"
                  % (game.actions, n_actions))
            check(game.choices == 2, "%d capture-or-place questions, 2 expected with seed %d"
                  % (game.choices, SEED))
            irc_scenario = replay(bot_exe, None, db, scenario_only=True)
            check(irc_scenario == console_reference(bot_exe, work.dir),
                  "the IRC game differs from the console game of the same seed")

            mark = kib.mark()
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s after SIGTERM" % rc)
            kib.wait_for("QUIT", sender=BOT_NICK, since=mark)
        finally:
            bot.cleanup()
        print("irc game: 3 players (%s, seed %d): %d actions (%d capture/place questions), "
              "%d deals, %d channel lines, %d private, played in %.1f s; final %s = replay %s"
              % (OPTIONS, SEED, game.actions, game.choices, deals, len(seen), n_private,
                 played, dict(board), state["scores"]))


if __name__ == "__main__":
    run_main(main)
