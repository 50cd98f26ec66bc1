#!/usr/bin/env python3
"""crash_test.py -- a scripted console game while porrazo-bot is killed with
SIGKILL at random points (right after a command is written, mid-processing,
or when idle), restarted each time on the same database.

It checks that the finished game is identical to an uninterrupted run with
the same seed (the same exported actions and scores) and that no
announcement is missing: every line the uninterrupted run wrote appears, in
order, in the interrupted run's output (which may repeat a line: a message
is marked sent only after it is written, and adds "is back" notices).

usage: crash_test.py BOT REPLAY [KILLS [SEED]]
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import console_game as cg  # noqa: E402

PLAYERS = 3
GAME_SEED = 77


def export(bot_exe, db):
    return subprocess.run([bot_exe, "--export", "1", "--db", db], check=True,
                          capture_output=True, text=True).stdout


def reference(bot_exe, tmp):
    db = os.path.join(tmp, "reference.db")
    bot = cg.Bot(bot_exe, db, GAME_SEED)
    table = cg.Table(cg.NICKS[:PLAYERS])
    cg.open_table(bot, table, PLAYERS, "")
    steps = cg.play_out(table, bot.send)
    bot.close()
    return table, steps, export(bot_exe, db)


class Crasher:
    """Sends lines to a bot that it kills at the chosen steps."""

    def __init__(self, bot_exe, db, table, kill_steps, rng):
        self.bot_exe, self.db, self.table = bot_exe, db, table
        self.kill_steps, self.rng = kill_steps, rng
        self.step = 0
        self.kills = 0
        self.bot = None
        self.start()

    def start(self):
        self.bot = cg.Bot(self.bot_exe, self.db, GAME_SEED)
        self.bot.write(cg.SYNC)
        self.table.read(self.bot.lines_until_sync())

    def crash(self, line):
        """Writes line, kills the bot at a random instant, restarts it."""
        self.bot.write(line)
        how = self.rng.random()
        if how < 0.7:
            time.sleep(self.rng.random() * 0.003)  # while it works on the line
        else:
            self.bot.write(cg.SYNC)  # after it finished: idle
            self.table.read(self.bot.lines_until_sync())
        self.bot.kill()
        # What reached the pipe before the kill is output like any other;
        # a line cut by the kill was not marked sent and comes again.
        complete = self.bot.buf.rsplit(b"\n", 1)[0] if b"\n" in self.bot.buf else b""
        lines = [l for l in complete.decode("utf-8", "replace").split("\n") if l]
        self.table.read([l for l in lines if not l.startswith("-> sync: ")])
        self.kills += 1
        self.start()
        return []

    def send(self, line):
        self.step += 1
        if self.step in self.kill_steps:
            return self.crash(line)
        return self.bot.send(line)


def news(line):
    """A line without the state it ends with ("· table ... · ann to play"):
    the state is rendered when a line is sent, and after a restart the
    "is back" line tells it instead of the line before it."""
    parts = line.split(" · ")
    for i, p in enumerate(parts):
        if re.match(r"(?:\S+: )?table ", p):
            return " · ".join(parts[:i])
    return line


def is_subsequence(needles, haystack):
    it = iter(haystack)
    missing = []
    for n in needles:
        for h in it:
            if h == n:
                break
        else:
            missing.append(n)
            break
    return missing


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    bot_exe, replay_exe = sys.argv[1], sys.argv[2]
    kills = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 2026
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        ref, steps, ref_export = reference(bot_exe, tmp)
        kill_steps = set(rng.sample(range(1, steps), min(kills, steps - 1)))
        db = os.path.join(tmp, "crash.db")
        table = cg.Table(cg.NICKS[:PLAYERS])
        crasher = Crasher(bot_exe, db, table, kill_steps, rng)
        cg.open_table(crasher.bot, table, PLAYERS, "")
        cg.play_out(table, crasher.send, max_steps=steps * 3)
        crasher.bot.close()
        got_export = export(bot_exe, db)

        failures = []
        if got_export != ref_export:
            failures.append("the interrupted game differs from the uninterrupted one")
        ref_lines = [news(l) for l in ref.transcript if "is back" not in l]
        ref_lines = [l for l in ref_lines if not l.endswith(">")]  # a state line alone
        missing = is_subsequence(ref_lines, [news(l) for l in table.transcript])
        if missing:
            failures.append("an announcement is missing or out of order: %r" % missing[0])
        if crasher.kills < min(kills, steps - 1):
            failures.append("only %d kills happened" % crasher.kills)
        board, ref_board = cg.final_scores(table), cg.final_scores(ref)
        if board != ref_board:
            failures.append("final scores %s differ from %s" % (board, ref_board))
        print("%d kills over %d steps; %d lines uninterrupted, %d interrupted; final %s" %
              (crasher.kills, steps, len(ref.transcript), len(table.transcript), board))
        for f in failures:
            print("FAIL: " + f)
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
