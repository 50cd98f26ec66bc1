#!/usr/bin/env python3
"""console_learn.py -- a practice table through `porrazo-bot --console`
(issue 22), end to end: "ann: !learn to 21" seats ann against two beginner
computer players; she asks for a hint now and then and plays her turns
(the scripted player of console_game.py: it sees only what the bot says),
the computer players move by themselves (robot_delay = 0). Checked: each
computer move is explained to ann, privately, in one line naming the
player and its card; every hint names a card of ann's hand or the tendido
choice; nothing of the learning goes to the room or to anyone but ann; the
game ends and the room's top and ann's stats count nothing of it. A second
game (the same room, not practice) then counts in both.

usage: console_learn.py BOT
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_game as cg  # noqa: E402

LEARNING = ("Why ", "Hint in ", "Stronger than", "The strong level", "Review of ")


class LearnBot(cg.Bot):
    """porrazo-bot --console with a configuration file."""

    def __init__(self, exe, db, seed, config):
        self.proc = subprocess.Popen(
            [exe, "--console", "--config", config, "--db", db, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""


def play(bot, table, hint_every):
    """Plays table's game to its end, ann asking for a hint every
    hint_every of her decisions (0: never). Returns (ann's actions, the
    computer players' moves waited for, hints asked, hints checked)."""
    steps = waits = hints = 0
    while not table.over:
        line = table.next_line(steps)
        if line is None and table.robot_to_act():
            got = bot.lines_for(10.0)
            cg.check(got, "the computer player did not move within 10 s: %s"
                     % table.transcript[-4:])
            table.read(got)
            waits += 1
        elif line is None:
            raise AssertionError("nobody is told to act: %s" % table.transcript[-6:])
        else:
            if hint_every and steps % hint_every == 0:
                got = bot.send("ann> hint")
                table.read(got)
                said = [l for l in got if l.startswith("-> ann: Hint in #console: ")]
                cg.check(len(said) == 1, "one hint line, not %s" % got)
                hint = said[0].split(": ", 2)[2]
                first = hint.split()[0]
                cg.check(first in ("tendido", "arrange") or first in table.hand["ann"],
                         "the hint %r names nothing of ann's (hand %s)"
                         % (hint, table.hand["ann"]))
                hints += 1
            table.need_capture = False
            table.read(bot.send(line))
            steps += 1
        cg.check(steps + waits < 5000, "the game did not end")
    return steps, waits, hints


def main(bot_exe):
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, "bot.conf")
        with open(conf, "w") as f:
            f.write("[bot]\nrobot_delay = 0\nflood_commands = 0\n")
        db = os.path.join(tmp, "learn.db")
        bot = LearnBot(bot_exe, db, 2222, conf)
        table = cg.Table(["ann"])
        table.read(bot.send("ann: !learn to 21"))
        cg.check(any("ann opens a practice table" in l for l in table.transcript),
                 "no practice table: %s" % table.transcript[-3:])
        robots = ["Robot %d (beginner)" % k for k in (1, 2)]
        for r in robots:
            cg.check(any("%s sits down" % r in l for l in table.transcript),
                     "%s did not sit down: %s" % (r, table.transcript[-5:]))
        start = len(table.transcript)
        steps, waits, hints = play(bot, table, 3)
        game = table.transcript[start:]
        # every computer move told to the room is explained to ann
        moves = [l for l in game if re.match(
            r"#console <[^>]+> .*Robot \d \(beginner\) (?:10|[A2-9JQK])[♣♦♥♠]", l)]
        why = [l for l in game if l.startswith("-> ann: ") and re.match(
            r"-> ann: (?:Why )?Robot \d \(beginner\)", l)]
        cg.check(len(moves) > 10, "few computer moves: %d" % len(moves))
        cg.check(len(why) >= len(moves),
                 "%d computer moves told to the room, %d explained to ann"
                 % (len(moves), len(why)))
        for l in why[:50]:
            cg.check(re.search(r"(?:10|[A2-9JQK])[♣♦♥♠]|tendido|arrange", l),
                     "an explanation without its card: %s" % l)
        learning_in_room = [l for l in table.transcript
                            if l.startswith("#console") and any(w in l for w in LEARNING)]
        cg.check(not learning_in_room, "learning said in the room: %s" % learning_in_room[:2])
        private = [l for l in table.transcript if l.startswith("-> ")]
        cg.check(all(l.startswith(("-> ann: ", "-> sync: ")) for l in private),
                 "a private line went to someone other than ann")
        better = sum(1 for l in game if l.startswith(("-> ann: Stronger than",
                                                      "-> ann: The strong level")))
        # kept out of top and stats
        got = bot.send("ann: !top")
        table.read(got)
        cg.check(any("no finished games in #console yet" in l for l in got),
                 "the practice game counted in top: %s" % got)
        got = bot.send("ann: !stats")
        cg.check(any("ann has no finished games in #console yet" in l for l in got),
                 "the practice game counted in stats: %s" % got)
        # a game that is not practice counts, with its hints
        table2 = cg.Table(["ann"])
        table2.read(bot.send("ann: !new 2 bot to 11"))
        steps2, waits2, hints2 = play(bot, table2, 2)
        got = bot.send("ann: !stats")
        cg.check(any(re.search(r"ann in #console: 1 game .*%d hints? asked for" % hints2, l)
                     for l in got), "the second game's stats: %s" % got)
        cg.check(not any(l.startswith("-> ann: Why ") for l in table2.transcript),
                 "a table that is not practice explained its computer player's moves")
        got = bot.send("ann: !top")
        cg.check(any("Top in #console: 1. ann" in l for l in got) or
                 any("Top in #console:" in l and "ann" in l for l in got),
                 "top after a game that counts: %s" % got)
        rc, rest, err = bot.close()
        cg.check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        print("console: practice table, ann against 2 beginners: %d of her actions, %d "
              "computer moves, %d explained, %d hints, %d stronger plays shown; kept out "
              "of top and stats; then a counted game with %d hints"
              % (steps, len(moves), len(why), hints, better, hints2))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        main(sys.argv[1])
    except (AssertionError, cg.BotDied) as e:
        print("FAIL: %s" % e)
        sys.exit(1)
