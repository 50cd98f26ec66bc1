#!/usr/bin/env python3
"""console_newcomer.py -- what a newcomer met (issue 24, items 1 to 3),
through `porrazo-bot --console` as the room and the players see it:

  1. a card not held, played in the room, is refused in the room
     ("cara: you hold no 9; ...") and the hand goes privately only;
  2. tz and quiet said in the room are answered privately; the room reads
     only "cara: I answered you privately";
  3. leave mid-game asks once, a second leave confirms it, and the person
     who left takes the seat back from the computer player with join, their
     hand sent privately at once.

usage: console_newcomer.py BOT
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_game as cg  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ROOM = "#console <porrazo> "


def room_lines(lines):
    return [l[len(ROOM):] for l in lines if l.startswith(ROOM)]


def private_lines(lines, nick):
    return [l[len(nick) + 5:] for l in lines if l.startswith("-> %s: " % nick)]


def main(bot_exe):
    with tempfile.TemporaryDirectory() as tmp:
        bot = cg.Bot(bot_exe, os.path.join(tmp, "newcomer.db"), 2424)
        players = ["ann", "bob", "cara"]
        table = cg.Table(players)
        table.read(bot.send("ann: !new 3"))
        table.read(bot.send("bob: !join"))
        table.read(bot.send("cara: !join"))
        steps = 0
        while table.kind != "play" and steps < 20:
            table.read(bot.send(table.next_line(steps)))
            steps += 1
        p = table.actor
        cg.check(p in players, "no person to play: %r" % table.transcript[-3:])

        # 1. a refusal is answered where the command was said
        held = {re.match(r"(10|.)", c).group(1) for c in table.hand[p]}
        rank = next(r for r in RANKS if r not in held)
        out = bot.send("%s: !play %s" % (p, rank))
        table.read(out)
        said = "%s: you hold no %s; your cards went to you privately" % (p, rank)
        cg.check(room_lines(out) == [said], "the room read %r, not %r" % (room_lines(out), said))
        cg.check(any(l.startswith("Your hand") for l in private_lines(out, p)),
                 "%s was not sent the hand: %r" % (p, out))

        # 2. a person's settings are answered privately
        for line, private in (("!tz Europe/Madrid", "Europe/Madrid"),
                              ("!quiet 23:00-08:00", "quiet 23:00-08:00 Europe/Madrid")):
            out = bot.send("cara: " + line)
            cg.check(room_lines(out) == ["cara: I answered you privately"],
                     "%s: the room read %r" % (line, room_lines(out)))
            cg.check(any(private in l for l in private_lines(out, "cara")),
                     "%s: cara was not answered privately: %r" % (line, out))

        # 3. leave asks once; join takes the seat back from the computer player
        out = bot.send("cara: !leave")
        cg.check(any("say !leave again within 2 min to confirm" in l for l in room_lines(out)),
                 "leave did not ask: %r" % out)
        cg.check(not any("leaves" in l for l in room_lines(out)), "left at once: %r" % out)
        out = bot.send("cara: !leave")
        cg.check(any(re.match(r"cara leaves; Robot 1 \(\w+\) takes the seat and the game goes "
                              r"on \(cara may take it back: !join\)", l) for l in room_lines(out)),
                 "cara did not leave: %r" % out)
        out = bot.send("cara: !join")
        cg.check(any(re.match(r"cara takes their seat back from Robot 1", l)
                     for l in room_lines(out)), "cara did not get her seat back: %r" % out)
        cg.check(any(re.match(r"Your (hand|turn)", l) for l in private_lines(out, "cara")),
                 "cara was not sent her hand: %r" % out)
        cg.check(not any(re.search(r"[Yy]our hand:|\(your hand", l)
                         for l in room_lines(table.transcript + out)),
                 "a hand was shown in the room")
        rc, _, err = bot.close()
        cg.check(rc == 0, "the bot exited %d: %s" % (rc, err[-500:]))
    print("console_newcomer: a refusal in the room, settings privately, a seat taken back")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1])
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s" % e, file=sys.stderr)
        sys.exit(1)
