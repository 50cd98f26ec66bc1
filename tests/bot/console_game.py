#!/usr/bin/env python3
"""console_game.py -- plays whole Porrazo games through `porrazo-bot --console`
as scripted players who see only what the bot tells them: the room's status
lines and their own private messages. Used by the end-to-end tests and by
the crash test (crash_test.py).

A player acts on the latest status line ("... bob to play", "... alice
deals and chooses: ...", "... arranges the tendido") with the hand the
bot last sent it privately: it plays its first card (adding "capture" when
the bot asks), says "tendido later" at the first deal of a hand and "now"
otherwise, and "arrange best". The choices depend only on what the bot said,
so two runs of the same seed make the same game.

Synchronisation: after each line the driver sends "sync> stats", whose one
private reply ("-> sync: ...") comes after everything the line caused,
because the bot handles and flushes lines in order.

usage (end-to-end test):
  console_game.py BOT REPLAY PLAYERS [new-options...]
"""
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import tempfile

SYNC = "sync> stats"
CARD = r"(?:10|[A2-9JQK])[♣♦♥♠]"
# The name to act: a nick, or a computer player's "Robot 1 (expert)".
STATUS = [
    (re.compile(r"· ([^·]+?) to play\s*$"), "play"),
    (re.compile(r"· ([^·]+?) deals and chooses: "), "tendido"),
    (re.compile(r"· ([^·]+?) arranges the tendido"), "arrange"),
]
NICKS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal"]


class BotDied(Exception):
    pass


class Bot:
    """One porrazo-bot --console process."""

    def __init__(self, exe, db, seed):
        """seed None: the seeds come from the system, sealed (FAIRNESS.md)."""
        self.proc = subprocess.Popen(
            [exe, "--console", "--db", db] + ([] if seed is None else ["--seed", str(seed)]),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""

    def write(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise BotDied() from e

    def lines_until_sync(self, timeout=20.0):
        """Reads output lines up to and including the sync reply."""
        out = []
        fd = self.proc.stdout.fileno()
        while True:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                line = raw.decode("utf-8")  # the bot must write valid UTF-8
                if line.startswith("-> sync: "):
                    return out
                out.append(line)
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise TimeoutError("the bot said nothing for %.0f s" % timeout)
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotDied()
            self.buf += chunk

    def send(self, line):
        self.write(line)
        self.write(SYNC)
        return self.lines_until_sync()

    def lines_for(self, seconds):
        """Whatever the bot writes by itself within seconds (a computer
        player's move: the console ticks the host's clock)."""
        out = []
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], seconds)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotDied()
            self.buf += chunk
        while b"\n" in self.buf:
            raw, self.buf = self.buf.split(b"\n", 1)
            out.append(raw.decode("utf-8"))
        return out

    def kill(self):
        """Kills the bot; self.buf then holds everything it had written."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        while True:  # what was still in the pipe was written before the kill
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                break
            self.buf += chunk
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def close(self):
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=20)
        rest = self.proc.stdout.read().decode("utf-8")
        err = self.proc.stderr.read().decode("utf-8")
        self.proc.stdout.close()
        self.proc.stderr.close()
        return rc, rest, err


class Table:
    """What the scripted players know, from the bot's messages alone."""

    def __init__(self, players):
        self.players = players
        self.hand = {p: [] for p in players}
        self.deal_no = {p: 1 for p in players}
        self.actor = None
        self.kind = None
        self.over = False
        self.transcript = []  # every line the bot wrote, in order
        self.need_capture = False

    def read(self, lines):
        """The bot's answer to one line: the room's lines first, then the
        private ones. A hand sent privately tells the hand after everything
        the same answer told the room (the bot queues hands first, so on
        Matrix a new hand may carry an earlier timestamp than the room's
        line of the play that ended the last one): read in the other order,
        that play would take its card out of the new hand when both hold
        the same card."""
        self.transcript.extend(lines)
        for line in lines:
            m = re.match(r"#console <[^>]+> (.*)$", line)
            if m:
                self.public(m.group(1))
        for line in lines:
            m = re.match(r"-> (\S+): (.*)$", line)
            if m:
                self.private(m.group(1), m.group(2))

    def private(self, nick, text):
        m = re.match(r"Your hand in \S+ \(deal (\d+) of \d+\): (.*?)(?: · |$)", text)
        if m and nick in self.hand:
            self.deal_no[nick] = int(m.group(1))
            self.hand[nick] = re.findall(CARD, m.group(2))
            return
        m = re.match(r"(?:Reminder: )?Your turn in \S+ .*?— hand (.*?)(?: · |$)", text)
        if m and nick in self.hand:
            self.hand[nick] = re.findall(CARD, m.group(1))
            return
        m = re.search(r"\(your hand: ([^)]*)\)", text)
        if m and nick in self.hand:
            self.hand[nick] = re.findall(CARD, m.group(1))
        if "can capture or be played in place" in text:
            self.need_capture = True

    def public(self, text):
        if "can capture or be played in place" in text:
            self.need_capture = True
        reply_to = re.match(r"(\S+): ", text)
        if reply_to and reply_to.group(1) in self.hand:
            return  # a reply to one player, not news of the game
        if text.startswith("Game over") or re.search(r"\bwins?\b", text):
            self.over = True
        # "ann 7♥ takes 7♣ · bob 3♠ · ...": the cards played leave the hands
        for seg in text.split(" · "):
            m = re.match(r"(\S+) (%s)(?: |$)" % CARD, seg)
            if m and m.group(1) in self.hand and m.group(2) in self.hand[m.group(1)]:
                self.hand[m.group(1)].remove(m.group(2))
        for rx, kind in STATUS:
            m = rx.search(text)
            if m:
                self.actor, self.kind = m.group(1), kind

    def robot_to_act(self):
        """Whether a computer player is to act ("Robot 1 (expert) to play":
        the name the status regexes catch is not a scripted player's)."""
        return not self.over and self.actor is not None and self.actor not in self.hand

    def next_line(self, step):
        """The line the player to act types now, or None (also while a
        computer player is to act: it moves by itself)."""
        p, where = self.actor, (":" if step % 3 == 0 else ">")
        bang = "!" if where == ":" else ""
        if p is None or self.over or p not in self.hand:
            return None
        if self.kind == "tendido":
            return "%s%s %stendido %s" % (p, where, bang,
                                           "later" if self.deal_no[p] == 1 else "now")
        if self.kind == "arrange":
            return "%s%s %sarrange best" % (p, where, bang)
        if not self.hand[p]:
            return "%s> hand" % p
        card = self.hand[p][0]
        mode = " capture" if self.need_capture else ""
        return "%s%s %splay %s%s" % (p, where, bang, card, mode)


def open_table(bot, table, n, options):
    players = table.players
    table.read(bot.send("%s: !new %d %s" % (players[0], n, options)))
    for p in players[1:]:
        table.read(bot.send("%s: !join" % p))


def play_out(table, send, max_steps=20000):
    """Plays until the game is over; send(line) returns the bot's lines."""
    step = 0
    while not table.over:
        line = table.next_line(step)
        if line is None:
            raise AssertionError("nobody is told to act; last lines:\n" +
                                 "\n".join(table.transcript[-8:]))
        table.need_capture = False
        table.read(send(line))
        step += 1
        if step > max_steps:
            raise AssertionError("the game did not end in %d steps" % max_steps)
    return step


def final_scores(table):
    """The last board's totals, by name, from the transcript."""
    scores = {}
    for line in table.transcript:
        m = re.match(r"#console <[^>]+> (.+?)\s+\[[█░]+\] (\d+)$", line)
        if m:
            scores[m.group(1)] = int(m.group(2))
    return scores


def replay_scores(bot_exe, replay_exe, db):
    scenario = subprocess.run([bot_exe, "--export", "1", "--db", db], check=True,
                              capture_output=True, text=True).stdout
    out = subprocess.run([replay_exe, "-"], input=scenario, check=True, capture_output=True,
                         text=True).stdout.splitlines()
    state = json.loads(out[-1])
    return scenario, state


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def end_to_end(bot_exe, replay_exe, n, options):
    players = NICKS[:n]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "e2e.db")
        bot = Bot(bot_exe, db, seed=1000 + n)
        table = Table(players)
        open_table(bot, table, n, options)
        steps = play_out(table, bot.send)
        rc, rest, err = bot.close()
        check(rc == 0, "porrazo-bot exited %d: %s" % (rc, err))
        lines = table.transcript
        room = [l for l in lines if l.startswith("#console ")]
        private = [l for l in lines if l.startswith("-> ")]
        # Every player was told its hand privately, at every deal.
        deals = sum(1 for l in room if re.search(r"(?i)deal \d+ of \d+", l))
        for p in players:
            hands = [l for l in private if l.startswith("-> %s: Your hand" % p)]
            check(len(hands) >= deals, "%s got %d hand messages for %d deals" %
                  (p, len(hands), deals))
        # No hand is ever shown in the room.
        check(not any("Your hand" in l or "your hand:" in l for l in room),
              "a hand was shown in the room")
        # Private messages go to players only.
        check(all(re.match(r"-> (%s): " % "|".join(players), l) for l in private),
              "a private message went to a non-player")
        # The final scores are porrazo-replay's on the exported seed and actions.
        scenario, state = replay_scores(bot_exe, replay_exe, db)
        check(state["phase"] == "game_over", "the replay does not end the game")
        board = final_scores(table)
        check(len(board) >= 1, "no score board was shown")
        check(sorted(board.values()) == sorted(state["scores"]),
              "board %s differs from replay %s" % (board, state["scores"]))
        print("%d players (%s): %d actions, %d lines, %d deals, final %s = replay %s" %
              (n, options or "defaults", steps, len(lines), deals, board, state["scores"]))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    try:
        end_to_end(sys.argv[1], sys.argv[2], int(sys.argv[3]), " ".join(sys.argv[4:]))
    except (AssertionError, BotDied, TimeoutError) as e:
        print("FAIL: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
