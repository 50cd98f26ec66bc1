#!/usr/bin/env python3
"""console_robots.py -- one person against computer players through
`porrazo-bot --console` (the scripted player of console_game.py: it sees
only what the bot says): "ann: !new N bot LEVEL to 21" fills the other
seats with computer players, ann plays her turns, the computer players
move by themselves (robot_delay = 0 in the test's configuration, so the
console's clock moves them at once), and the game ends with the board
equal to porrazo-replay's on the exported game. No private line goes to a
computer player; each of them is named "Robot K (LEVEL)".

usage: console_robots.py BOT REPLAY PLAYERS LEVEL
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_game as cg  # noqa: E402


class RobotBot(cg.Bot):
    """porrazo-bot --console with a configuration file."""

    def __init__(self, exe, db, seed, config):
        self.proc = subprocess.Popen(
            [exe, "--console", "--config", config, "--db", db, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""


def main(bot_exe, replay_exe, n, level):
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, "bot.conf")
        with open(conf, "w") as f:
            f.write("[bot]\nrobot_delay = 0\nflood_commands = 0\n")
        db = os.path.join(tmp, "robots.db")
        bot = RobotBot(bot_exe, db, 5150 + n, conf)
        table = cg.Table(["ann"])
        table.read(bot.send("ann: !new %d bot %s to 21" % (n, level)))
        robots = ["Robot %d (%s)" % (k, level) for k in range(1, n)]
        for r in robots:
            cg.check(any("%s sits down" % r in l for l in table.transcript),
                     "%s did not sit down: %s" % (r, table.transcript[-5:]))
        steps = waits = 0
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
                table.need_capture = False
                table.read(bot.send(line))
                steps += 1
            cg.check(steps + waits < 5000, "the game did not end")
        table.read(bot.send("ann> hand"))  # the end of the game's lines, flushed
        rc, rest, err = bot.close()
        cg.check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        private = [l for l in table.transcript if l.startswith("-> ")]
        cg.check(all(l.startswith(("-> ann: ", "-> sync: ")) for l in private),
                 "a private line went to someone other than ann: %s"
                 % [l for l in private if not l.startswith("-> ann")][:3])
        scenario, state = cg.replay_scores(bot_exe, replay_exe, db)
        cg.check(state["phase"] == "game_over", "the replay does not end the game")
        board = cg.final_scores(table)
        cg.check(set(board) == set(["ann"] + robots), "the board's names: %s" % board)
        cg.check(sorted(board.values()) == sorted(state["scores"]),
                 "board %s differs from replay %s" % (board, state["scores"]))
        moves = sum(1 for l in table.transcript
                    if re.match(r"#console <[^>]+> .*Robot \d \(%s\) (?:10|[A2-9JQK])" % level, l))
        print("console: ann against %d %s computer player%s: %d of her actions, %d waits for "
              "theirs, final %s = replay %s" % (n - 1, level, "" if n == 2 else "s", steps, waits,
                                                board, state["scores"]))
        cg.check(moves > 0, "no play by a computer player was announced")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
    except (AssertionError, cg.BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
