#!/usr/bin/env python3
"""test_mx_spanish.py -- a whole Porrazo game in a Spanish Matrix room:
porrazo-bot against the homeserver double, three scripted Matrix users
(test_mx_game.py's harness), the room made Spanish by the configuration at a
reload.

  1. The bot starts with no language for the room (the bot's is English):
     `!turn` in the room is answered in English.
  2. The file is written again with `lang_es = ROOM` (the room's id) under
     [matrix local], and the bot gets SIGHUP. Once the log says the
     configuration is reloaded, the same `!turn` is answered in Spanish: a
     Matrix section's languages reach the host at a reload, not only at a
     restart; the log does not say the section waits for a restart.
  3. Cat says `!lang en` in the room (answered in English, privately); then
     a whole 3-player game is played by console_spanish.py's scripted
     players, who read Spanish and English alike.

Checked: no word of console_spanish.ENGLISH (the English words the bot
uses) in any room line, nor in any private line of Ann and Bob, who read the
room's language; Ann and Bob read "Tu mano en", never "Your hand"; Cat reads
"Your hand in", never "Tu mano", and her private lines have English words;
the room read a deal in Spanish; every action recorded once, the final
scores equal porrazo-replay's; the bot stops cleanly on SIGTERM.

usage: test_mx_spanish.py PORRAZO_BOT PORRAZO_REPLAY
"""
import os
import signal
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
for d in (HERE, os.path.join(HERE, "..", "bot")):
    if d not in sys.path:
        sys.path.insert(0, d)

import console_game as cg  # noqa: E402
import console_spanish as cs  # noqa: E402
from homeserver import TIMEOUT, exit_on_sigterm  # noqa: E402
from test_mx_game import (NETWORK, Bot, MatrixGame, check, check_direct,  # noqa: E402
                          check_outcome, new_world, workdir, write_config)

RESTART_ONLY = "changes to [matrix %s] take effect at the next restart" % NETWORK


def configure(conf, hs, db, spanish_room):
    """test_mx_game's configuration; with spanish_room, lang_es names it in
    [matrix local] (the file's last section)."""
    write_config(conf, hs.url, db)
    if spanish_room:
        with open(conf, "a") as f:
            f.write("lang_es = %s\n" % spanish_room)


def room_reply(game, line):
    """The room lines the bot sent for one line of a player (console form)."""
    return [l[len("#console <porrazo> "):] for l in game.step(line)
            if l.startswith("#console <porrazo> ")]


def wait_log(bot, text, since):
    deadline = time.monotonic() + TIMEOUT * 2
    while text not in bot.log()[since:]:
        check(bot.alive(), "porrazo-bot died:\n" + bot.log()[-2000:])
        check(time.monotonic() < deadline, "the log never said %r:\n%s" % (
            text, bot.log()[since:][-2000:]))
        time.sleep(0.02)


def reload_spanish(game, conf, db):
    """Steps 1 and 2: English before, Spanish after the SIGHUP."""
    before = room_reply(game, "Ann: !turn")
    check(before and before[0].startswith("Ann: there is no game in ") and
          cs.english_left(before[0]), "before the reload: %s" % before)
    configure(conf, game.hs, db, game.room)
    since = len(game.bot.log())
    os.kill(game.bot.proc.pid, signal.SIGHUP)
    wait_log(game.bot, "configuration reloaded from", since)
    check(RESTART_ONLY not in game.bot.log()[since:],
          "the reload says the languages wait for a restart:\n" + game.bot.log()[since:])
    after = room_reply(game, "Ann: !turn")
    check(after and after[0].startswith("Ann: no hay partida en ") and
          not cs.english_left(after[0]), "after the reload: %s" % after)
    return before[0], after[0]


def check_languages(game):
    """Every room line and Ann's and Bob's private lines Spanish, Cat's
    English. Returns (room lines, Spanish private lines, Cat's lines)."""
    transcript = game.table.transcript
    room = [l[len("#console <porrazo> "):] for l in transcript
            if l.startswith("#console <porrazo> ")]
    bad = [(l, cs.english_left(l)) for l in room if cs.english_left(l)]
    check(not bad, "English words in the Spanish room:\n" +
          "\n".join("%s  <- %s" % b for b in bad[:10]))
    check(any(l.startswith("Mano nueva: reparto 1 de ") for l in room),
          "the room never read a deal in Spanish")
    mine = {name: [l.split(": ", 1)[1] for l in transcript if l.startswith("-> %s: " % name)]
            for name in game.users}
    spanish = mine["Ann"] + mine["Bob"]
    bad = [(l, cs.english_left(l)) for l in spanish if cs.english_left(l)]
    check(not bad, "English words in a Spanish private line:\n" +
          "\n".join("%s  <- %s" % b for b in bad[:10]))
    for name, own, other in (("Ann", "Tu mano en ", "Your hand"),
                             ("Bob", "Tu mano en ", "Your hand"),
                             ("Cat", "Your hand in ", "Tu mano")):
        check(any(l.startswith(own) for l in mine[name]), "%s never read '%s'" % (name, own))
        check(not any(other in l for l in mine[name]), "%s read '%s'" % (name, other))
    check(mine["Cat"][0] == "your private lines are in English from now on",
          "Cat's !lang en was answered %r" % mine["Cat"][:1])
    check(sum(1 for l in mine["Cat"] if cs.english_left(l)) > len(mine["Cat"]) // 2,
          "Cat's private lines are not English: %s" % mine["Cat"][:5])
    return len(room), len(spanish), len(mine["Cat"])


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    exit_on_sigterm()
    t0 = time.monotonic()
    with workdir("pz-mx-es-") as tmp:
        hs = new_world(tmp)
        db, conf = os.path.join(tmp, "bot.db"), os.path.join(tmp, "bot.conf")
        configure(conf, hs, db, None)
        bot = Bot(bot_exe, conf, os.path.join(tmp, "bot.log"))
        game = MatrixGame(hs, db, bot)
        game.table = cs.Table(list(game.users))
        try:
            hs.wait_for_request("GET", "/sync$", timeout=TIMEOUT * 2)
            game.open_room()
            before, after = reload_spanish(game, conf, db)
            game.table.read(game.step("Cat: !lang en"))
            steps = game.play()
            rc = bot.stop()
            check(rc == 0, "porrazo-bot exited %s:\n%s" % (rc, bot.log()[-2000:]))
            nroom, nes, ncat = check_languages(game)
            board, scores, nactions = check_outcome(game, bot_exe, replay_exe, db)
            check_direct(game)
            check(not hs.errors, "the double had internal errors:\n%s" % "\n".join(hs.errors))
        finally:
            if bot.alive():
                bot.stop()
            hs.shutdown()
    print("matrix spanish: %r before the reload, %r after; 3 players, %d steps, %d actions; "
          "%d room lines and %d private lines of Ann and Bob with no English word, %d of "
          "Cat's in English; final %s = replay %s, %.1f s" % (
              before, after, steps, nactions, nroom, nes, ncat, board, scores,
              time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
